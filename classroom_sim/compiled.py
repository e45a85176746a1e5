"""The one way the engine compiles a function: numba, without the GIL, cached on disk.

numba notices only a change in a cached function's own file, not in the
functions it calls from other files (stepping calls collisions, which calls
integrators). So the cache lives in a folder named after a digest of the
engine's compiled sources: change any of them and everything compiles anew.
A NUMBA_CACHE_DIR set by the user wins.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numba
from numba import njit

_SOURCES = ("compiled.py", "integrators.py", "collisions.py", "stepping.py")


def _cache_dir() -> str:
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in _SOURCES:
        digest.update((here / name).read_bytes())
    leaf = f"numba-{digest.hexdigest()[:16]}"
    # The user's cache folder, or the temporary one where that cannot be written.
    for base in (Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "classroom-sim",
                 Path(tempfile.gettempdir()) / "classroom-sim"):
        try:
            (base / leaf).mkdir(parents=True, exist_ok=True)
            if os.access(base / leaf, os.W_OK):
                return str(base / leaf)
        except OSError:
            continue
    return ""


_CACHE_DIR = None if os.environ.get("NUMBA_CACHE_DIR") else _cache_dir()


def jit(function):
    """Compile ``function`` with numba (nopython, nogil, numpy's float errors), cached
    on disk where a folder can be written (else compiled anew in each process)."""
    if _CACHE_DIR == "":
        return njit(nogil=True, error_model="numpy")(function)
    if _CACHE_DIR is None:
        return njit(cache=True, nogil=True, error_model="numpy")(function)
    # numba picks a function's cache folder as it decorates it: point it at ours meanwhile.
    previous = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = _CACHE_DIR
    try:
        return njit(cache=True, nogil=True, error_model="numpy")(function)
    finally:
        numba.config.CACHE_DIR = previous
