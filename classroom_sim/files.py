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


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _umask()


def write_atomically(path, write, encoding: str | None = "utf-8") -> None:
    """Call ``write(f)`` on a text file (a binary one for ``encoding`` None) that becomes
    ``path`` only if it returns normally.

    The file gets the permissions of the one it replaces, or the usual ones for
    a new file (not the private ones of a temporary file). Raises OSError
    (unwritable folder, full disk) after removing the temporary file.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        mode = path.stat().st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_UMASK
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    try:
        os.chmod(tmp, mode)
        with (os.fdopen(fd, "wb") if encoding is None else os.fdopen(fd, "w", encoding=encoding, newline="")) as f:
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
