"""The C heap that a step's compiled code allocates from: what a step frees is kept for the next.

A step takes most of its working arrays from a block the World keeps
(`collisions.scratch`), but still allocates some (the level solve's, a queue grown
within a step, a block grown: a few numbers a body each) and frees them as it ends.
glibc serves a block over its
mmap threshold (128 KiB at first: one number a body from 16,000 bodies, two from 8,000)
with fresh pages from the system, and hands them back when the block is freed; and it
hands the top of its heap back whenever more than its trim threshold lies free there.
Either way the next step's arrays are fresh pages, and each 4 KiB of them costs a page
fault. glibc raises both thresholds by itself once it has freed a large enough block, so
whether a process pays depends on what it allocated before: measured at 20,000 bodies
(``python -m bench.box --no-gravity``), 546 page faults a step and 93 ns a body-step,
against 44 ns (and no page fault) with the heap kept.

`keep_freed` sets both thresholds once, as the engine is imported: blocks of up to 32 MiB
(the most glibc allows) come from the heap, and up to 64 MiB lying free at its top stay
there. What a process holds then does not grow with the length of a run, only with the
largest step it took. The settings are the process's: a notebook or a program that
imports the engine has them too. Elsewhere than glibc (macOS, Windows, musl) it does
nothing, and so does glibc under another allocator put in its place (``LD_PRELOAD``).
"""

from __future__ import annotations

import ctypes
import os

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
"""glibc's `mallopt` parameters (malloc.h)."""

MMAP_THRESHOLD = 32 << 20
"""Bytes: a block smaller than this comes from the heap (glibc's largest: 4 MiB times the
size of a long)."""

TRIM_THRESHOLD = 64 << 20
"""Bytes: the free memory at the top of the heap kept for later, rather than handed back."""


def keep_freed() -> bool:
    """Have glibc keep the memory a step frees for the next step (see the module's text).
    True where it took effect."""
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION").startswith("glibc"):
            return False
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (AttributeError, ValueError, OSError):  # (no confstr, no such name, no such library)
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    # (each on its own: where glibc refuses one, as with huge pages, the other still helps)
    mmap = bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    trim = bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
    return mmap and trim
