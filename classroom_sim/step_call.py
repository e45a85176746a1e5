"""The one call from Python into a World step (`step`): the World's own arrays and
numbers in, the step's memory laid out (the collision log at the head of the block,
`log_of`), and the bodies at rest (`collisions.still`) fixed for the step, which is
taken again from its start if one of them wakes. The step itself is `stepping.advance`.
"""

from __future__ import annotations

import numpy as np

from .collisions import scratch, still
from .collisions.motion import Bodies, Log, Rules
from .collisions.schedule import SQUARE
from .compiled import jit as _jit, lent
from .stepping import WAKE, advance

LOG_WORDS = 13
"""The words of the block (`scratch`) a row of the collision log takes (`motion.Log`): the
pair, the normal and four velocities, the time."""


@_jit
def _log_in(block, at, rows):
    """The collision log of ``rows`` rows laid out in ``block`` from word ``at`` (`motion.Log`):
    the one layout that `step` writes and `log_of` reads."""
    return Log(block[at:at + 2 * rows].reshape((rows, 2)),
               block[at + 2 * rows:at + 12 * rows].view(np.float64).reshape((rows, 5, 2)),
               block[at + 12 * rows:at + LOG_WORDS * rows].view(np.float64))


@_jit
def step(pos, vel, acc, radius, inv_mass, bounds, e, e_wall, method, start, end, log_room, block, rest):
    """`advance` from the World's own arrays: the bodies (``acc`` their summed
    accelerations, left as they are), the box (``bounds``, or empty), the restitutions,
    the integrator's code (`collisions.METHODS`), the step's times, the rows of collision
    log wanted, the memory to work in (``block``, `scratch`: the step leaves in it how
    much it took; the log is its first words, `log_of`, and the caller gives it room for
    them, `log_words`), and which bodies stand still or are at rest (``rest``,
    `collisions.still`; empty: none ever is). One call with arrays and numbers: handing
    structures from Python to compiled code costs more than a small step, and each array
    more than 50 ns of it.

    Bodies at rest are fixed for the step: nothing moves them, and their accelerations
    count for nothing. Where a body awake reaches one (`WAKE`), the step is taken again
    from its start with that island awake."""
    n = pos.shape[0]
    if len(block) == 0:
        raise ValueError("a step's block needs at least its top word (collisions.scratch)")
    scratch.start(block)
    block = lent(block)
    at = scratch.FIRST
    if log_room > 0:
        at = scratch.words(block, LOG_WORDS * log_room)  # (at `scratch.FIRST`, the first words taken)
        if at < 0:
            raise ValueError("a step's block has no room for its collision log (step_call.log_words)")
    log = lent(_log_in(block, at, log_room))
    rules = Rules(lent(bounds), e, e_wall, method, SQUARE[method], start, end)
    asleep = scratch.flags(block, n)
    resting = still.asleep(rest, asleep)
    moving = scratch.floats(block, 2 * n).reshape((n, 2))
    clock = scratch.floats(block, n)
    moving[:, :] = acc
    clock[:] = start
    if not resting:
        bodies = Bodies(lent(pos), lent(vel), lent(moving), lent(acc), lent(radius), lent(inv_mass), lent(clock))
        logged, flags = advance(bodies, rules, lent(log), (moving, clock), block, lent(rest), asleep, 0)
        return logged, flags, block[scratch.TOP]
    return _with_rest(pos, vel, acc, radius, inv_mass, rules, log, block, rest, asleep, resting, moving, clock)


@_jit
def _with_rest(pos, vel, acc, radius, inv_mass, rules, log, block, rest, asleep, resting, moving, clock):
    """`step`'s work where some bodies are at rest: fixed for the step, and the step taken
    again from its start if one wakes (a second time, with every body awake: a collision
    that runs on through islands at rest costs at most three goes, not one an island)."""
    n = pos.shape[0]
    block, rules, log = lent(block), lent(rules), lent(log)
    was_pos, was_vel = pos.copy(), vel.copy()
    pull, inv = scratch.floats(block, 2 * n).reshape((n, 2)), scratch.floats(block, n)
    mark = block[scratch.TOP]
    goes = 0
    while True:
        pull[:, :] = acc
        moving[:, :] = acc
        clock[:] = rules.start
        inv[:] = inv_mass
        for i in range(n):
            if asleep[i]:
                pull[i, 0], pull[i, 1], moving[i, 0], moving[i, 1], inv[i] = 0.0, 0.0, 0.0, 0.0, 0.0
        bodies = Bodies(lent(pos), lent(vel), lent(moving), lent(pull), lent(radius), lent(inv), lent(clock))
        logged, flags = advance(bodies, rules, log, (moving, clock, pull, inv), block, lent(rest), asleep,
                                resting)
        if not flags & WAKE:
            return logged, flags, block[scratch.TOP]
        pos[:, :] = was_pos
        vel[:, :] = was_vel
        goes += 1
        if goes == 2:
            still.wake_all(rest, asleep, pos, rules.start)
        resting = still.asleep(rest, asleep)
        block[scratch.TOP] = mark


def log_words(rows: int) -> int:
    """The length of a block (words) that holds a collision log of ``rows`` (`step`)."""
    return scratch.FIRST + LOG_WORDS * rows


def log_of(block: np.ndarray, rows: int):
    """The collision log that `step` wrote in ``block`` (pairs, vectors, times: `motion.Log`)
    with room for ``rows``, as views of it: read before the block is stepped again. (The
    layout's own code, run by Python: views that keep the block alive.)"""
    return tuple(_log_in.py_func(block, scratch.FIRST, rows))
