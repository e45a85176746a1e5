"""What touches at the end of a step, settled: resting contacts, positions, separation.

At the end of a step, `settle` deals with what touches then ("Resting
contact"): bodies at rest on each other, and overlaps that exist anyway
(placed, dragged or grown into each other). A contact that closes in faster
than a resting one is an impact: it is left to the next step's schedule,
which resolves impacts one by one (a cradle passes its velocity on).

The contacts of a step's end are the pairs that touch, and those near enough to
come to rest on each other within a step (their summed accelerations would
close the gap in it): a ball in the notch between two others touches one of
them and is a hair from the other, and both hold it (`supports.contacts_now`).

1. Velocities: the resting contacts stop closing in: those closing in no faster
   than what the two bodies' summed accelerations add to their approach in one step
   (`contacts.pair_resting_speed`), and in two steps if they may have touched within
   the step: they touch or overlap now, or both touched something (or were a hair
   from it, within `supports.within`) as it began (the
   step's schedule left a contact to the settling here if it touched no faster than
   one step's worth, at any instant of the step, and the pull adds up to one more by
   its end; judged by one step, such a contact became an impact, bounced, was
   pressed back, and a pile leaning on a wall kept bouncing, 500 impacts a second;
   judged by two, a ball dropped onto another from 1 to 2 mm arrived a hair apart
   at a step's end and stopped dead instead of bouncing), those a
   hair apart as well as those that touch (what pulls them together closes
   that gap within the next step; let close in at the speed that would close
   it, a body in a pile closed it, was pushed back by the separation below,
   and closed it again, for ever, moving at a steady few mm/s). A contact a hair
   apart is judged by the speed at which it will touch, sqrt(u² + 2 a gap), a
   being what moves its bodies pressing them together (`_on_touching`): a ball
   dropped from under a millimetre (at up to 0.10 m/s onto a ball on the floor,
   0.06 m/s onto a fixed peg) reached a step's end a hair above what it fell
   onto, closing in slower than a resting contact, and stopped dead there.
   Then they stop closing in (`velocities`: projected Gauss-Seidel over them,
   island by island while that converges, level by level from the ground up
   where it does not settle, and no kinetic energy kept that the levels made).
2. Positions follow the velocities: a body whose velocity the resting contacts changed
   by dv is moved by dv span / 2 (`FOLLOW`), as if the change had been under way all
   step, but never so far that it leaves a body more than a hair (`HAIR`) from what it
   rests on. A body held at rest by what it rests on gained g span from its pull over the
   step and drifted g span² / 2 into its support; the contacts take the speed away,
   and this takes the drift away with it, so that it stays where it was. (Left to the
   separation below, the drift was pushed apart half and half along the lines of
   centres: the pile's geometry shifted a little at every step, the velocities solved
   for the shifted geometry did not come to rest, and the positions were pushed back
   again: a third of the piles dropped by ``python -m bench.piles`` stood still on
   screen with a ghost speed, 78 of 120 came to rest; with this and the judging of
   contacts a hair apart above, 112.)
3. Separation: what still overlaps is pushed apart, half the overlap each
   (`separation`).
"""

from __future__ import annotations

import math

from ..compiled import jit as _jit, lent
from . import scratch
from .contacts import pair_resting_speed
from .schedule import TOUCH
from .supports import _loaded, contacts_now
from .separation import overlaps, separate
from .velocities import _closing, _rest
from .walls import wall_resting_speed

FOLLOW = 0.5
"""A body whose velocity the resting contacts changed by dv at a step's end is moved by
FOLLOW dv times the step's length: what a constant acceleration that the contacts
cancel drifted it in the step (a span² / 2, where dv = -a span)."""

HAIR = 1e-3
"""Relative to the sum of radii: how far apart the positions following the contacts
(`FOLLOW`) may leave two bodies that rest on each other (0.2 mm between balls of 10 cm,
a fifth of the 1% of a radius that an overlap may keep). Taken further, a ball released
at rest a hair above another stayed there, and balls of a pile rested in mid-air, up to
0.5 mm above what held them; held to less, a body a hair from one of its supports fell
into another and the separation pushed the pile about again. ``python -m bench.piles``,
at rest of 120: 93, 100 and 112 with 1e-4, 3e-4 and 1e-3; 113 unbounded."""

@_jit(inline=True)
def _on_touching(b, i, j, nx, ny, gap, closing):
    """How fast a contact ``gap`` apart (m), closing in at ``closing`` (m/s), closes in as
    it touches, what moves its bodies (``acc``) pressing them together meanwhile (i of -1:
    a wall)."""
    if not (gap > 0.0 and closing > 0.0):
        return closing
    gaining = b.acc[j, 0] * nx + b.acc[j, 1] * ny
    if i >= 0:
        gaining -= b.acc[i, 0] * nx + b.acc[i, 1] * ny
    if gaining >= 0.0:
        return closing
    return math.sqrt(closing * closing - 2.0 * gaining * gap)


@_jit
def settle(b, pi, pj, rules, touching, near, block):
    """What touches at the end of a step, among the pairs (pi, pj) in their order: see the
    module's text (``near``: each body's `supports.within`). Returns whether overlaps of more than
    `separation.OVERLAP_LEFT` were left for the next step (too many pressed bodies for the passes).
    (Memory from ``block``: `scratch`.)"""
    b, rules = lent(b), lent(rules)  # (arguments: see `compiled.lent`)
    span = rules.end - rules.start
    first, second, nx, ny, gap = contacts_now(b, pi, pj, rules.bounds, span, near, block)
    m = len(first)
    # 1. velocities: the resting contacts stop closing in (an impact, closing in faster,
    # is left to the next step's schedule, which resolves impacts one by one at s = 0)
    resting = scratch.ints(block, m)
    count = 0
    loaded = _loaded(b, first, second, nx, ny, block) if m else scratch.flags(block, 0)
    for k in range(m):
        i, j = first[k], second[k]
        closing = _closing(b.vel, i, j, nx[k], ny[k])
        if i >= 0:
            fast = pair_resting_speed(b, i, j, nx[k], ny[k], span, True, loaded[i] or loaded[j])
            if gap[k] <= TOUCH * (b.radius[i] + b.radius[j]) or (touching[i] and touching[j]):
                fast *= 2.0  # (it may have touched within the step: see the module's text)
        else:
            fast = wall_resting_speed(b, j, nx[k], ny[k], span, loaded[j])
        closing = _on_touching(b, i, j, nx[k], ny[k], gap[k], closing)
        resting[count] = k
        count += not closing > fast
    resting = resting[:count]
    if count == 0 and not overlaps(b, first, second):
        return False  # (nothing moved since the contacts were found, and none overlaps)
    # the bodies of the contacts (``live``, listed in ``ones``): the only ones whose
    # velocities and positions the contacts change, and the only ones that may overlap
    n = b.pos.shape[0]
    live = scratch.flags(block, n)
    live[:] = False
    ones = scratch.ints(block, n)
    held = 0
    for k in range(m):
        for x in (first[k], second[k]):
            if x >= 0 and not live[x]:
                live[x] = True
                ones[held] = x
                held += 1
    if count:
        before = scratch.floats(block, 2 * n).reshape((n, 2))  # (of the bodies of the contacts alone)
        for x in ones[:held]:
            before[x, 0], before[x, 1] = b.vel[x, 0], b.vel[x, 1]
        slack = scratch.floats(block, m)  # the speed that closes each contact's gap within a step (none if touching)
        slack[:] = 0.0
        if span > 0.0:
            for k in resting:
                i, j = first[k], second[k]
                reach = b.radius[j] + (b.radius[i] if i >= 0 else 0.0)
                if gap[k] > TOUCH * reach:
                    slack[k] = gap[k] / span
        _rest(b, first, second, nx, ny, slack, resting, scratch.ints(block, 0), span, block)
        # 2. positions follow the change of velocity (see the module's text), as far as it
        # takes two bodies back to touching, and a hair (`HAIR`) further at most
        scale = scratch.floats(block, n)
        for x in ones[:held]:
            scale[x] = 1.0
        for k in resting:
            i, j = first[k], second[k]
            opening = (b.vel[j, 0] - before[j, 0]) * nx[k] + (b.vel[j, 1] - before[j, 1]) * ny[k]
            if i >= 0:
                opening -= (b.vel[i, 0] - before[i, 0]) * nx[k] + (b.vel[i, 1] - before[i, 1]) * ny[k]
            opening *= FOLLOW * span
            allowed = max(HAIR * (b.radius[j] + (b.radius[i] if i >= 0 else 0.0)) - gap[k], 0.0)
            if opening > allowed:
                f = allowed / opening
                scale[j] = min(scale[j], f)
                if i >= 0:
                    scale[i] = min(scale[i], f)
        for i in ones[:held]:
            b.pos[i, 0] += scale[i] * FOLLOW * (b.vel[i, 0] - before[i, 0]) * span
            b.pos[i, 1] += scale[i] * FOLLOW * (b.vel[i, 1] - before[i, 1]) * span

    # 3. separation: half the overlap each, over every pair that may touch (a push may
    # press a body into one it did not touch before); only what the contacts hold may
    # overlap as it begins
    return separate(b, pi, pj, rules, live, ones, held)
