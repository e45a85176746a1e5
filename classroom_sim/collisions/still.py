"""Bodies that stand still, put to rest until something reaches them.

A pile's resting contacts are solved anew at every step's end (`resting`), on a geometry
that the separation shifts by micrometres. Where the solutions of one step and the next
do not agree, a pile can stand still on screen while its bodies report speeds of mm/s to
cm/s for ever, jittering in place, or creep by micrometres a step with no speed at all
(``python -m bench.piles`` counts such piles as ghosts). As physics engines do (they
call it sleeping), such bodies are put to rest:

- A body *stands still* while, at every look, it touches something (a body or a wall,
  or is near enough to come to rest on it within a step: `supports`) and is within
  `STILL_WITHIN` of its radius of where it was (its anchor, and the anchor before it: an
  anchor is set anew at every `STILL_FOR` it has stood still), and its velocity does not
  account for how it moves: looked at every `EVERY`, what it moved since the last look
  is set against what its velocity (the mean of that look's and the last's) would have
  carried it, and since the anchor before (over `STILL_FOR` to twice that) the two
  differ by at least `ADRIFT` of both added up (or both add up to less than `STATIC` of
  its radius a `STILL_FOR`: it creeps, if it moves at all), and it has had no impact since
  the last look (a collision or a bounce off a wall in the contact loop, `stepping`; a
  resting contact is none, met there or settled at a step's end). A body that its velocity
  carries, as in a slide (faster than that creep), a fall or a swing, is never stopped; nor
  is one that bounces or rattles within that distance (in the air at most looks, or hitting
  what holds it in: looked at every `EVERY`, a rattle of a few looks or less shows
  velocities that carry it nowhere it gets, as a jitter does). (Nor one whose looks are
  more than two `EVERY` apart: the clock was set, or the steps are that long.)
- An island, the bodies whose discs (`stepping`: what holds a body's motion in a step)
  overlap each other's (walls and fixed bodies join none), is put to rest when every
  one of its bodies stands still: its velocities become exactly zero, and in each step
  it stands like a fixed body (moved by nothing, holding up what rests on it) until it
  wakes.
- It wakes when a body awake reaches it (as a step begins, their discs overlap; or,
  within the step, a collision speeds one into it: the step is then taken again from
  its start with the island awake, `step_call.step`), and when anything that may change
  how bodies move is edited (`World`: not a colour or a name). A body that wakes stands
  still anew from then.

The state of each body is a row of the World's ``rest`` array (`COLUMNS`), and a last
row counts the bodies at rest (`COUNT`: a step with none reads one number); an empty
array turns this off (an acceleration that depends on the state, which may move a body
at rest). Looked at every `EVERY` of simulated time rather than every step: a step of a
hundred bodies takes 10 µs, and a look costs a tenth as much.
"""

from __future__ import annotations

import math

import numpy as np

from ..compiled import jit as _jit, lent
from . import scratch
from .walls import AT_WALL

ANCHOR_X, ANCHOR_Y, SINCE, LAST_X, LAST_Y, LAST_VX, LAST_VY, LAST_T, ADRIFT_SUM, MOTION_SUM, ISLAND, \
    ANCHORED, BEFORE_X, BEFORE_Y, ANCHORED_BEFORE, ADRIFT_BEFORE, MOTION_BEFORE, HIT = range(18)
"""The columns of the ``rest`` array, a row a body: where it stands still about (its
anchor, m) and since when it stands still (s); where it was at the last look (m), its
velocity then (m/s) and when (s); how far what it moved between looks differed from
what its velocity would have carried it, added up since the anchor was set, and both
added up (m); its island (the number of one of its bodies) while it is at rest, else
`AWAKE`; when the anchor was set (s: `look` sets it anew every `STILL_FOR` while the body
stands still); of the anchor before it (the same, for the first), where it was,
when it was set and its two sums (none for the first); and whether it has had an impact
since the last look (1, else 0: `stepping` writes it, `look` and `_anchor` clear it)."""
COLUMNS = 18
AWAKE = -1.0
COUNT = 0
"""The column of the ``rest`` array's last row that holds how many bodies are at rest."""

STILL_FOR = 0.5
"""s: how long every body of an island stands still before it is put to rest."""

STILL_WITHIN = 0.01
"""Relative to its radius: how far a body standing still may get from its anchor (the 1%
of a radius that an overlap may keep), and from the anchor before it: once it has stood
still a `STILL_FOR`, the anchor is set anew where it stands at each look a `STILL_FOR` or
more after the last, so that a body may drift this far in a `STILL_FOR` to twice that,
not in all time (steadily, under 1 mm/s for balls of 10 cm). Its motion is judged since
the anchor before, too (`ADRIFT`, `STATIC`): judged since it began to stand still, a
slide that its velocity carries, after long enough a jitter, was still judged a jitter 8
to 30 mm on; judged since the present anchor alone, up to 1.5 mm on; now, a slide no
further than this from where the jitter was. The balls of a pile that jitters in place
get 0.01-0.6 mm from where they were in a second (balls of 10 cm). (An anchor kept
for good let a pile of 1,000 balls, which stood still from 2.25 s and settled by its
overlaps at under 0.7 mm/s, still not at rest at 5.75 s: a ball or two an eighth of a
second got 1 mm from where it had been for seconds, stood still afresh, and kept the
whole island awake, while each step of it took 5 ms; see `look`.)"""

ADRIFT = 0.5
"""How much of a body's motion (what it moved and what its velocity would have carried it,
look by look, added up) its velocity may fail to account for before the body counts as
standing still, if it stays within `STILL_WITHIN`: jittering in place, that is about all
of it; carried by its velocity, none (exactly none in a slide or a fall, whose velocity
changes steadily; 1e-4 of it in a swing of a second)."""

STATIC = 1e-3
"""Relative to its radius: motion that adds up to less over `STILL_FOR` (what a body
moved and what its velocity carried it, look by look, added up: twice how far it got;
judged since the anchor before, over `STILL_FOR` to twice that, in proportion) is a
creep, put to rest like a jitter: under a thousandth of its radius a second, 0.1 mm/s
for a ball of 10 cm. Balls of a pile of mixed sizes, which packs into no crystal,
kept creeping at 10-20 µm/s for ever, the contacts of each step pressing them on a
little, their velocities carrying them (``python -m bench.piles --mixed``, seeds 5-10:
99 piles of 180 at rest and 44 ghosts with 1e-6; 122 and 22 with this). For a ball of
10 cm, a slide at 0.5 mm/s, or from rest under a pull of 1 mm/s², moves more
(`tests/engine/test_still.py`). The limit grows with the radius: for a ball of 50 cm it is
0.5 mm/s, and a slide from rest under 1 mm/s² that touches something is put to rest at
0.5 s, as is a ball of that size balanced on another, nudged by a few µm (it rolls off
too slowly at first)."""

LOOKS = 16
"""How many times within `STILL_FOR` the bodies are looked at."""

EVERY = STILL_FOR / LOOKS
"""s: how often the bodies are looked at."""


def awake(pos: np.ndarray, vel: np.ndarray, time: float) -> np.ndarray:
    """The ``rest`` array of bodies at ``pos`` moving at ``vel``, all awake, standing still
    from ``time`` on."""
    n = len(pos)
    rest = np.zeros((n + 1, COLUMNS))
    rest[:n, ANCHOR_X:ANCHOR_Y + 1] = pos
    rest[:n, LAST_X:LAST_Y + 1] = pos
    rest[:n, LAST_VX:LAST_VY + 1] = vel
    rest[:n, BEFORE_X:BEFORE_Y + 1] = pos
    rest[:n, SINCE] = rest[:n, LAST_T] = rest[:n, ANCHORED] = rest[:n, ANCHORED_BEFORE] = time
    rest[:n, ISLAND] = AWAKE
    return rest


@_jit
def asleep(rest, out):
    """Which bodies are at rest, in ``out`` (flags, a body each); returns how many."""
    out[:] = False
    if len(rest) == 0 or rest[-1, COUNT] == 0.0:
        return 0
    for i in range(len(rest) - 1):
        out[i] = rest[i, ISLAND] != AWAKE
    return int(rest[-1, COUNT])


@_jit(inline=True)
def _anchor(rest, i, x, y, vx, vy, time):
    """Body ``i`` stands still about (x, y) from ``time`` on, moving at (vx, vy) then."""
    rest[i, ANCHOR_X], rest[i, ANCHOR_Y], rest[i, SINCE], rest[i, ANCHORED] = x, y, time, time
    rest[i, BEFORE_X], rest[i, BEFORE_Y], rest[i, ANCHORED_BEFORE] = x, y, time
    rest[i, LAST_X], rest[i, LAST_Y], rest[i, LAST_VX], rest[i, LAST_VY], rest[i, LAST_T] = x, y, vx, vy, time
    rest[i, ADRIFT_SUM] = rest[i, MOTION_SUM] = rest[i, ADRIFT_BEFORE] = rest[i, MOTION_BEFORE] = 0.0
    rest[i, HIT] = 0.0


@_jit
def wake(rest, out, x, pos, time):
    """Wake the island of body ``x`` (at rest), its bodies standing still anew from ``time``,
    where they are (``pos``); ``out``: the flags of `asleep`, kept true."""
    rest = lent(rest)
    island = rest[x, ISLAND]
    for i in range(len(rest) - 1):
        if rest[i, ISLAND] == island:
            rest[i, ISLAND] = AWAKE
            _anchor(rest, i, pos[i, 0], pos[i, 1], 0.0, 0.0, time)
            out[i] = False
            rest[-1, COUNT] -= 1.0


@_jit(inline=True)
def due(start, end):
    """Whether the bodies are looked at after a step from ``start`` to ``end``."""
    return math.floor(end / EVERY) != math.floor(start / EVERY)


@_jit
def reached(pi, pj, fixed, rest, out, pos, time):
    """Wake every island at rest that a body awake may reach, of the pairs (``pi``, ``pj``)
    whose discs overlap as a step begins at ``time`` (``fixed``: the bodies nothing moves
    in it, fixed or at rest; ``out``: the flags of `asleep`, kept true). Returns whether
    any woke."""
    woke = False
    for k in range(len(pi)):
        i, j = pi[k], pj[k]
        if out[i] != out[j] and not fixed[j if out[i] else i]:
            wake(rest, out, i if out[i] else j, pos, time)
            woke = True
    return woke


@_jit(inline=True)
def _at_wall(x, y, r, near, bounds):
    """Whether a body at (x, y) of radius ``r`` touches a wall of ``bounds`` (or is ``near`` it)."""
    if len(bounds) != 4:
        return False
    return (x - r - bounds[0] <= AT_WALL * (1.0 + abs(bounds[0])) + near
            or y - r - bounds[1] <= AT_WALL * (1.0 + abs(bounds[1])) + near
            or bounds[2] - x - r <= AT_WALL * (1.0 + abs(bounds[2])) + near
            or bounds[3] - y - r <= AT_WALL * (1.0 + abs(bounds[3])) + near)


@_jit
def wake_all(rest, out, pos, time):
    """Wake every body at rest (``out``: the flags of `asleep`, kept true)."""
    rest = lent(rest)
    for i in range(len(rest) - 1):
        if out[i]:
            wake(rest, out, i, pos, time)


@_jit
def look(pos, vel, radius, fixed, touching, near, bounds, rest, out, end, ready):
    """A look at the bodies at ``end`` (every `EVERY`, `due`): note which stand still, and
    mark in ``ready`` those that have for `STILL_FOR` (and those at rest: ``out``, the flags
    of `asleep`). ``fixed``: the bodies that nothing moves in the step (fixed, or at rest);
    ``touching``: those that touched another as it began, ``near``: how near a body must come
    to rest on something (`supports.within`), by which a wall of ``bounds`` touches it.
    Returns whether any body awake is ready."""
    rest = lent(rest)
    some = False
    for i in range(len(rest) - 1):
        ready[i] = out[i]
        if fixed[i]:
            continue
        x, y, vx, vy = pos[i, 0], pos[i, 1], vel[i, 0], vel[i, 1]
        dx, dy = x - rest[i, ANCHOR_X], y - rest[i, ANCHOR_Y]
        ex, ey = x - rest[i, BEFORE_X], y - rest[i, BEFORE_Y]
        within = STILL_WITHIN * radius[i]
        since_last = end - rest[i, LAST_T]
        held = touching[i] or _at_wall(x, y, radius[i], near[i], bounds)
        hit = rest[i, HIT] != 0.0
        rest[i, HIT] = 0.0
        if not (held and not hit and dx * dx + dy * dy <= within * within and ex * ex + ey * ey <= within * within
                and 0.0 < since_last <= 2.0 * EVERY * (1.0 + 1e-9)):  # (steps of two looks, to rounding)
            _anchor(rest, i, x, y, vx, vy, end)  # (in the air, away, or the clock was set: afresh)
            continue
        half = 0.5 * since_last
        carried_x, carried_y = (vx + rest[i, LAST_VX]) * half, (vy + rest[i, LAST_VY]) * half
        moved_x, moved_y = x - rest[i, LAST_X], y - rest[i, LAST_Y]
        rest[i, ADRIFT_SUM] += abs(moved_x - carried_x) + abs(moved_y - carried_y)
        rest[i, MOTION_SUM] += abs(moved_x) + abs(moved_y) + abs(carried_x) + abs(carried_y)
        rest[i, LAST_X], rest[i, LAST_Y], rest[i, LAST_VX], rest[i, LAST_VY], rest[i, LAST_T] = x, y, vx, vy, end
        if end - rest[i, SINCE] < STILL_FOR * (1.0 - 1e-9):
            continue
        motion = rest[i, MOTION_SUM] + rest[i, MOTION_BEFORE]
        # (the creep allowed, for the time since the anchor before: `STATIC`)
        creep = STATIC * radius[i] * max(end - rest[i, ANCHORED_BEFORE], STILL_FOR) / STILL_FOR
        if rest[i, ADRIFT_SUM] + rest[i, ADRIFT_BEFORE] >= ADRIFT * motion or motion <= creep:
            ready[i] = True
            some = True
            if end - rest[i, ANCHORED] >= STILL_FOR * (1.0 - 1e-9):  # (a new anchor: see `STILL_WITHIN`)
                rest[i, BEFORE_X], rest[i, BEFORE_Y] = rest[i, ANCHOR_X], rest[i, ANCHOR_Y]
                rest[i, ANCHORED_BEFORE] = rest[i, ANCHORED]
                rest[i, ANCHOR_X], rest[i, ANCHOR_Y], rest[i, ANCHORED] = x, y, end
                rest[i, ADRIFT_BEFORE], rest[i, MOTION_BEFORE] = rest[i, ADRIFT_SUM], rest[i, MOTION_SUM]
                rest[i, ADRIFT_SUM] = rest[i, MOTION_SUM] = 0.0
        else:  # its velocity carries it, slowly: look at the next STILL_FOR afresh
            _anchor(rest, i, x, y, vx, vy, end)
    return some


@_jit(inline=True)
def _root(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


@_jit
def to_rest(pos, vel, fixed, rest, out, ready, pi, pj, extent, block):
    """Put to rest the islands whose bodies are all ``ready`` (`look`): their velocities
    zero. An island: the bodies whose discs overlap, discs about where they are now that
    hold those the next step will draw (``extent``), among the pairs (``pi``, ``pj``) that
    may overlap, and the bodies at rest by theirs; walls and fixed bodies join none.
    ``out``: the flags of `asleep`, kept true. (Memory from ``block``: `scratch`.)"""
    rest = lent(rest)
    n = len(rest) - 1
    parent = scratch.ints(block, n)
    for i in range(n):
        parent[i] = int(rest[i, ISLAND]) if out[i] else i
    for k in range(len(pi)):
        i, j = pi[k], pj[k]
        if (fixed[i] and not out[i]) or (fixed[j] and not out[j]):
            continue
        dx, dy = pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1]
        reach = extent[i] + extent[j]
        if dx * dx + dy * dy < reach * reach:
            a, b = _root(parent, i), _root(parent, j)
            parent[max(a, b)] = min(a, b)
    calm = scratch.flags(block, n)
    calm[:] = True
    for i in range(n):
        if not ready[i] and not (fixed[i] and not out[i]):
            calm[_root(parent, i)] = False
    for i in range(n):
        if fixed[i] and not out[i]:
            continue
        r = _root(parent, i)
        if not calm[r]:
            continue
        rest[i, ISLAND] = r  # (one of its bodies: an island at rest that others join takes the new number too)
        if not out[i]:
            vel[i, 0], vel[i, 1] = 0.0, 0.0
            out[i] = True
            rest[-1, COUNT] += 1.0
