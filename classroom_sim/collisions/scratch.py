"""The memory a step works in, taken from one block that the World keeps from step to step.

A step works in some eighty arrays of its own: the grid, the pairs, the queue, what
touches. Allocating one and freeing it costs about 16 ns (measured: eighty more in a
step of 100 bodies made it 1.3 µs slower, of 12), more than the work done on most of
them in a small step. So a step takes the small ones from one block instead: `ints`,
`floats` and `flags` hand out the next part of it, lent (`compiled.lent`): nothing to
allocate, free or count.

Not an array larger than `LARGE`: its allocation costs little beside the work done on it,
and memory a step reuses stays in the cache. (The compiler knows that a fresh allocation
shares its memory with nothing, and of an array from the block it knows no such thing:
before `LARGE`, the broad phase's arrays taken from the block made it 12% slower at 1,000
bodies. Taken from the block only while small, they and the other arrays of a step's
start, the neighbour lists and what touches, made the step of bench.box's gas 3% faster at
100 and 300 bodies, the two engines stepping in turns in one process.)

The block is an int64 array. Its first word (`TOP`) holds how many words the step has
taken, and a float or flag array is a view of the same words. What is taken stays taken
until the step ends (the next step starts again from the top): take only what a step
needs once, never in a loop that may run without bound.

A block too small for what is asked allocates instead, as before, and still counts what
was asked for: after the step the World grows the block beyond that (`room`), so that
the next steps fit. A block of one word (`none`) always allocates: the functions that take
a block can still be called alone, from Python too. (Called from Python with a real
block, they return arrays that are views of it with nothing to keep it alive: only a step
hands them a real block.)
"""

from __future__ import annotations

import numpy as np

from ..compiled import jit as _jit, lent

TOP = 0
"""The word of the block that holds how many words have been taken (itself included)."""


@_jit
def none():
    """A block with no room: every array taken from it is allocated."""
    block = np.zeros(1, np.int64)
    block[TOP] = 1
    return block


ALIGN = 8
"""Words: each array taken starts a multiple of this many from the block's start (64
bytes, a cache line where the block starts on one)."""

FIRST = ALIGN
"""The word at which the first array taken in a step starts."""

LARGE = 512
"""Words: an array larger than this is allocated, not taken from the block (see the
module's text)."""


@_jit
def words(block, count):
    """Where ``count`` words start in ``block``, taken, whatever their number; -1 if it has
    no room for them (they are counted as taken all the same: `room`)."""
    top = (block[TOP] + (ALIGN - 1)) & ~(ALIGN - 1)
    block[TOP] = top + count
    return top if top + count <= len(block) else -1


@_jit
def _words(block, count):
    """`words`, for an array of at most `LARGE` words; -1 for a larger one."""
    return -1 if count > LARGE else words(block, count)


@_jit
def ints(block, n):
    """An int64 array of ``n`` (not cleared)."""
    at = _words(block, n)
    if at < 0:
        return np.empty(n, np.int64)
    return lent(block[at:at + n])


@_jit
def floats(block, n):
    """A float64 array of ``n`` (not cleared)."""
    at = _words(block, n)
    if at < 0:
        return np.empty(n)
    return lent(block[at:at + n].view(np.float64))


@_jit
def flags(block, n):
    """A bool array of ``n`` (not cleared)."""
    count = (n + 7) // 8
    at = _words(block, count)
    if at < 0:
        return np.empty(n, np.bool_)
    return lent(block[at:at + count].view(np.bool_)[:n])


@_jit
def start(block):
    """Begin a step: nothing taken yet (``block`` has at least its top word)."""
    block[TOP] = 1


def room(block: np.ndarray) -> int:
    """How many words the last step took (its block should have at least as many)."""
    return int(block[TOP])
