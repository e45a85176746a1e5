"""Writing files whole or not at all.

Everything the project writes (scenes, CSV exports) goes to a temporary file in
the target's folder, which is renamed over the target only once it is
complete: an error, a full disk or Ctrl-C leaves the old file (or no file),
never half of a new one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path, write, encoding: str = "utf-8") -> None:
    """Call ``write(f)`` on a text file that becomes ``path`` only if it returns normally.

    Raises OSError (unwritable folder, full disk) after removing the temporary file.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
