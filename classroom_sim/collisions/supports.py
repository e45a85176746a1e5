"""What touches at an instant, and what holds what up.

- `contacts_now`: the pairs that touch or overlap, and the walls their bodies touch;
  with a step's length, also what is near enough to come to rest on within it
  (`within`: a ball in the notch between two others touches one of them and is a hair
  from the other, and both hold it).
- Support levels (`_levels`): a body rests on a fixed body (level `GROUND`) when its summed
  acceleration presses it into it, and on a wall (`GROUND`) when it presses it into the
  wall within 45° of straight on (`HELD_BY_WALL`); one pressed into a body of level L has
  level L + 1. Among bodies of one level, what holds each sideways (`_sideways`), and
  whether it is held so (`_held_sideways`).
- Loads (`_loaded`): which bodies carry others.
- `supports`: levels, loads and which bodies touch anything, as a step begins.

The settling at a step's end (`resting`) and the step's schedule (`stepping`) use them.
"""

from __future__ import annotations

import math

from ..compiled import jit as _jit, lent, unsigned
from . import scratch
from .contacts import normal
from .schedule import TOUCH
from .walls import AT_WALL, pull_of

GROUND = 0
"""The support level of a fixed body, and of one pressed into a wall."""

AFLOAT = 1 << 40
"""The support level of a body that rests on nothing."""

HELD_BY_WALL = math.sqrt(0.5) * (1.0 - 1e-9)
"""A body rests on a wall (support level `GROUND`) when its summed acceleration points into
the wall within 45° of straight on (the wall holds up most of it; at 45° exactly, give or
take rounding, both walls of the corner do). A column standing on
the floor against a side wall, under gravity tilted towards that wall, rests on the
floor level by level; were the side wall its ground too, every ball would be on the
ground, the levels would say nothing, and the column would keep a ghost speed."""


@_jit(inline=True)
def within(b, i, span):
    """How near (m) body ``i`` must come to something to rest on it within a step of
    ``span``: as far as its summed acceleration carries it from rest in the step, twice
    over. (Worked out once a step for every body, ``near``, as `stepping.advance` begins;
    0 for a step of no length: touching.)"""
    return pull_of(b, i) * span * span


@_jit
def _touching(b, pi, pj, span, near, block):
    """The places in (pi, pj) of the pairs that touch or overlap (or are within ``near``,
    each body's `within`). (Memory from ``block``: `scratch`.)"""
    b = lent(b)  # (arguments: see `compiled.lent`)
    out = scratch.ints(block, len(pi) + 1)
    m = 0
    for k in range(len(pi)):
        i, j = unsigned(pi[k]), unsigned(pj[k])  # (`compiled.unsigned`)
        dx = b.pos[j, 0] - b.pos[i, 0]
        dy = b.pos[j, 1] - b.pos[i, 1]
        lim = (b.radius[i] + b.radius[j]) * (1.0 + TOUCH)
        if span > 0.0:
            lim += near[i] + near[j]
        out[m] = k
        m += dx * dx + dy * dy <= lim * lim
    return out[:m]


@_jit
def contacts_now(b, pi, pj, bounds, span, near, block):
    """What touches now: the pairs among (pi, pj) that touch or overlap, and the walls
    that their movable bodies touch; with ``span`` > 0, also what is near enough to come
    to rest on within a step that long (``near``: each body's `within`). Each contact is (first, second, nx,
    ny, gap), n the normal from the first to the second; a wall is a first of -1, its normal
    pointing into the box; ``gap`` is how far apart they are (m, negative for an overlap).
    (Memory from ``block``: `scratch`.)"""
    b = lent(b)  # (arguments: see `compiled.lent`)
    ks = _touching(b, pi, pj, span, near, block)
    room = len(ks) + (8 * len(ks) if len(bounds) == 4 else 0)
    first = scratch.ints(block, room)
    second = scratch.ints(block, room)
    nx = scratch.floats(block, room)
    ny = scratch.floats(block, room)
    gap = scratch.floats(block, room)
    for m in range(len(ks)):
        i, j = pi[ks[m]], pj[ks[m]]
        first[m], second[m] = i, j
        nx[m], ny[m], dist = normal(b, i, j)
        gap[m] = dist - b.radius[i] - b.radius[j]
    m = len(ks)
    if len(bounds) == 4 and len(ks):
        seen = scratch.flags(block, b.pos.shape[0])
        seen[:] = False
        for q in range(2 * len(ks)):
            i = first[q // 2] if q % 2 == 0 else second[q // 2]
            if seen[i] or b.inv_mass[i] == 0.0:
                continue
            seen[i] = True
            r = b.radius[i]
            within = near[i] if span > 0.0 else 0.0
            for w in range(4):
                k = w % 2
                inward = 1.0 if w < 2 else -1.0
                apart = inward * (b.pos[i, k] - bounds[w]) - r
                if apart <= AT_WALL * (1.0 + abs(bounds[w])) + within:
                    first[m], second[m], gap[m] = -1, i, apart
                    nx[m], ny[m] = (inward, 0.0) if k == 0 else (0.0, inward)
                    m += 1
    return first[:m], second[:m], nx[:m], ny[:m], gap[:m]


@_jit
def _both_ways(n, first, second, block):
    """The pair contacts (first, second) of each of ``n`` bodies, both ways: body s touches
    ``across[starts[s]:starts[s + 1]]``, by the contacts at ``place`` there, being their
    first (``sign`` 1) or their second (-1). Walls (a first of -1) are left out. (Memory
    from ``block``: `scratch`.)"""
    starts = scratch.ints(block, n + 1)
    starts[:] = 0
    for k in range(len(first)):
        if first[k] >= 0:
            starts[first[k] + 1] += 1
            starts[second[k] + 1] += 1
    for i in range(n):
        starts[i + 1] += starts[i]
    fill = scratch.ints(block, n)
    fill[:] = starts[:-1]
    across = scratch.ints(block, starts[n])
    sign = scratch.floats(block, starts[n])
    place = scratch.ints(block, starts[n])
    for k in range(len(first)):
        i, j = first[k], second[k]
        if i >= 0:
            across[fill[i]], sign[fill[i]], place[fill[i]] = j, 1.0, k
            fill[i] += 1
            across[fill[j]], sign[fill[j]], place[fill[j]] = i, -1.0, k
            fill[j] += 1
    return starts, across, sign, place


@_jit
def _chains(b, first, second, nx, ny, level, block):
    """How many bodies, each pressed into the next (its summed acceleration points into it),
    stand between each body and what holds it: `GROUND` for a fixed body and for one pressed
    into a wall, `AFLOAT` where no such chain reaches it. With ``level`` empty, what holds
    is the ground (a wall that holds a body up: `HELD_BY_WALL`); otherwise (`_sideways`)
    a wall that a body is pressed into but not held up by, and a chain keeps to one level.
    (Memory from ``block``: `scratch`.)"""
    b = lent(b)  # (arguments: see `compiled.lent`)
    n = b.pos.shape[0]
    sideways = len(level) > 0
    out = scratch.ints(block, n)
    out[:] = AFLOAT
    queue = scratch.ints(block, n)
    tail = 0
    for k in range(len(first)):
        for i in (first[k], second[k]):
            if i >= 0 and b.inv_mass[i] == 0.0 and out[i] != GROUND:
                out[i] = GROUND
                queue[tail] = i
                tail += 1
        t = second[k]
        if first[k] < 0 and out[t] != GROUND:
            into = b.pull[t, 0] * nx[k] + b.pull[t, 1] * ny[k]
            held = into <= -HELD_BY_WALL * pull_of(b, t)
            if (not sideways and held) or (sideways and not held and into < 0.0):
                out[t] = GROUND
                queue[tail] = t
                tail += 1
    starts, across, sign, place = _both_ways(n, first, second, block)
    head = 0
    while head < tail:
        s = queue[head]
        head += 1
        for q in range(starts[s], starts[s + 1]):
            t = across[q]
            if out[t] != AFLOAT or (sideways and level[t] != level[s]):
                continue
            k = place[q]
            # t is pressed into s if its own acceleration points towards s (along -n, n from s to t)
            if (b.pull[t, 0] * nx[k] + b.pull[t, 1] * ny[k]) * sign[q] < 0.0:
                out[t] = out[s] + 1
                queue[tail] = t
                tail += 1
    return out


@_jit
def _levels(b, first, second, nx, ny, block):
    """Each body's support level: `GROUND` for a fixed body and one pressed into a wall,
    one above the lowest body it is pressed into (its summed acceleration points into
    it), `AFLOAT` for one that rests on nothing. (Memory from ``block``: `scratch`.)"""
    return _chains(b, first, second, nx, ny, scratch.ints(block, 0), block)


@_jit
def _sideways(b, first, second, nx, ny, level, block):
    """Among bodies of one support level, how far each is from what holds it sideways: 0
    for a fixed body and for one pressed into a wall that does not hold it up (its side,
    not its ground: see `HELD_BY_WALL`), one more than a body of its level that it is
    pressed into, `AFLOAT` for one that nothing holds so (a row sliding freely along the
    floor). (Memory from ``block``: `scratch`.)"""
    return _chains(b, first, second, nx, ny, level, block)


@_jit
def _loaded(b, first, second, nx, ny, block):
    """Which movable bodies carry others: one that a movable body touching it is pressed
    into by its own summed acceleration, and every movable body touching one that carries
    others (it passes the load on: a row pushed at one end carries it all along). A fixed
    body carries nothing: whatever rests on it cannot move it. (Memory from ``block``:
    `scratch`.)"""
    b = lent(b)  # (arguments: see `compiled.lent`)
    n = b.pos.shape[0]
    out = scratch.flags(block, n)
    out[:] = False
    todo = scratch.ints(block, n)
    tail = 0
    for k in range(len(first)):
        i, j = first[k], second[k]
        if i < 0:
            continue
        along_i = b.pull[i, 0] * nx[k] + b.pull[i, 1] * ny[k]  # (n from i to j)
        along_j = b.pull[j, 0] * nx[k] + b.pull[j, 1] * ny[k]
        for x, pressed in ((j, b.inv_mass[i] > 0.0 and along_i > 0.0), (i, b.inv_mass[j] > 0.0 and along_j < 0.0)):
            if pressed and b.inv_mass[x] > 0.0 and not out[x]:
                out[x] = True
                todo[tail] = x
                tail += 1
    if tail == 0:
        return out
    # pass the load on, through the touching movable bodies
    starts, across, _, _ = _both_ways(n, first, second, block)
    head = 0
    while head < tail:
        s = todo[head]
        head += 1
        for q in range(starts[s], starts[s + 1]):
            t = across[q]
            if not out[t] and b.inv_mass[t] > 0.0:
                out[t] = True
                todo[tail] = t
                tail += 1
    return out


@_jit
def supports(b, pi, pj, rules, near, block):
    """Each body's support level (`_levels`) as a step begins, which carry others
    (`_loaded`), and which touch anything (a body or a wall), all from what touches now or
    is near enough to come to rest on within the step (`contacts_now`, ``near``:
    each body's `within`), among the pairs (pi, pj)."""
    b, rules = lent(b), lent(rules)  # (arguments: see `compiled.lent`)
    n = b.pos.shape[0]
    first, second, nx, ny, _ = contacts_now(b, pi, pj, rules.bounds, rules.end - rules.start, near, block)
    touching = scratch.flags(block, n)
    touching[:] = False
    if len(first) == 0:  # (most steps of a gas: nothing rests on anything)
        level, loaded = scratch.ints(block, n), scratch.flags(block, n)
        level[:] = AFLOAT
        loaded[:] = False
        return level, loaded, touching
    for k in range(len(first)):
        if first[k] >= 0:
            touching[first[k]] = True
        touching[second[k]] = True
    return _levels(b, first, second, nx, ny, block), _loaded(b, first, second, nx, ny, block), touching


@_jit(inline=True)
def _held_sideways(level, side, i):
    """Whether something holds body ``i`` against what presses it sideways: the lower bodies
    it rests on (level 1 and up), or a wall or a fixed body at the end of a row of its level
    pressed into one another (`_sideways`). A row on the floor sliding freely is not held."""
    return (level[i] != GROUND and level[i] != AFLOAT) or side[i] != AFLOAT
