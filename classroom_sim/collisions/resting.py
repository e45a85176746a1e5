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
   what moves its bodies pressing them together (`_on_touching`): a ball
   dropped from under a millimetre (at up to 0.10 m/s onto a ball on the floor,
   0.06 m/s onto a fixed peg) reached a step's end a hair above what it fell
   onto, closing in slower than a resting contact, and stopped dead there.
   Then:
   projected Gauss-Seidel, each contact's push accumulated over the passes
   and never negative, so that a body in the notch between two others comes
   to rest instead of being kicked from one to the other. Walls are contacts
   with a body of infinite mass.
2. Supports: where the passes did not settle everything (`VELOCITY_PASSES`, and more
   while they converge, `VELOCITY_PASSES_MOST`), the velocities are
   solved again from the start, level by level from the ground up, so that a
   stack comes to rest in one step instead of creeping there. A body rests on
   a fixed body (level 0) when its summed acceleration presses it into it, and
   on a wall (level 0) when it presses it into the wall within 45° of straight
   on (`supports.HELD_BY_WALL`); one pressed into a body of level L has level L + 1. The lower body
   of a contact between levels stands firm (as a fixed body would), and so does, between
   two of one level, the one that the other is pressed into while not pressed into it
   itself, if something holds it sideways (`supports._held_sideways`: the bodies it rests on, or a
   wall at the end of its row): a row on the floor pressed along it into a wall by tilted
   gravity (every ball on level 0) stops ball by ball from the wall (the passes at
   least as many as the longest such row is long), where passes over a
   row of equals left it a speed of its own (3.6 cm/s for twelve balls); a row sliding
   freely along the floor is a row of equals, and keeps its momentum. A body that its
   summed acceleration presses into two or more bodies standing firm has those contacts
   solved together, exactly, in each pass (`passes._block`): passes over two contacts whose
   pushes nearly oppose each other (a ball on two pegs nearly level with it) undo most
   of each other's work, and the ball kept sinking a little every step and being pushed
   back out, a ghost speed (5 cm/s on two pegs 3° above its centre; in piles, balls that
   stood still on screen reporting mm/s to cm/s). A solution that would change the
   body's velocity by more than `passes.BLOCK_REACH` is refused, and those contacts are left
   to the passes as before. (A body pressed into only one of them, though both hold it,
   as on two pegs under gravity tilted further than the lower one is steep, is left to
   the passes too.) A body standing firm that still moves a little towards the other
   across a gap (they are a hair apart) pushes it only by what its approach exceeds the
   speed that closes the gap within a step (`passes._firm_approach`): counted in full, a
   ball below that came towards the one above at 1.3 cm/s drove it, wedged between them
   and a wall, up the wall at 2.7 cm/s, and its neighbours with it, while no gap closed,
   step after step (piles that stood still on screen reported 1-3 cm/s for ever). (Only
   the firm body's approach is so discounted: a body may not itself close in on what it
   rests on, even across a gap, for the reason in 1. above.)
   Where a level's
   passes do not settle it and a body standing firm sideways still closes in on the one
   it stands firm against (a ball sliding off the single ball it rests on, into a
   neighbour held by a wall: the neighbour was squeezed between two bodies that
   both stood firm, and the pair collided 60 to 130 times a second for ever), the
   level is solved again with those contacts moving both their bodies, and that is
   kept if it leaves the level's contacts closing in slower, and those of its bodies in
   the levels below. So too for a contact between two levels whose lower body, standing
   firm, is pressed into the upper one by its own summed acceleration (`_inverted`): an
   arch, a ball resting on a peg (level 1) leaning on one beside it that rests on balls
   below (level 2), the ball on the peg drove the other into what held it, where nothing
   could give: of 160 piles of 20-40 balls dropped onto a peg in a box 1.2 m wide, after
   30 s 147 were at rest and 12 still collided, at up to 0.2 m/s; with this, 156 and 3
   (``python -m bench.piles --peg --seconds 30``). A body standing firm is never pushed
   back, so the levels may leave an island of contacts more kinetic energy than it came
   in with (a light ball standing firm lifts a heavy one): each island's velocities are
   then scaled back to the multiple of them nearest to what came in
   (`_no_energy_made`; mixed piles under tilted gravity boiled without it).
3. Positions follow the velocities: a body whose velocity the resting contacts changed
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
4. Separation: what still overlaps is pushed apart, half the overlap each
   (`separation`).
"""

from __future__ import annotations

import math

import numpy as np

from ..compiled import jit as _jit, lent
from . import scratch
from .contacts import pair_resting_speed
from .schedule import APPROACH, TOUCH
from .passes import _solve
from .supports import AFLOAT, GROUND, _levels, _loaded, _sideways, contacts_now
from .separation import overlaps, separate
from .walls import wall_resting_speed

VELOCITY_PASSES = 16
"""Passes over the resting contacts of a step's end, for their velocities (and again for
each level of the support pass)."""

PASSES_MORE = 8
"""The passes that an island (`_islands`) left unsettled by `VELOCITY_PASSES` runs at a
time, while they converge (`VELOCITY_PASSES_MOST`)."""

VELOCITY_PASSES_MOST = 512
"""Where `VELOCITY_PASSES` leave the resting contacts unsettled, each island goes on with
passes of its own, `PASSES_MORE` at a time, while the rate at which its last run cut the
largest change of a pass would settle it within this many passes in all; if they settle
it, their answer is kept over the level solve's where it is nearer to the velocities that
came in (`NEARER`). Balls stacked in a pyramid on the floor, frictionless, must collapse,
the two at the bottom's ends pushed apart (three balls: at sqrt(3) g / 7, 2.43 m/s²); 16
passes left changes of 1.3e-6 to 6.5e-4 m/s for pyramids of 2 to 5 rows, the level solve
held the balls below firm, and the pyramids stood for ever. The passes settle pyramids of
3 to 11 rows (6 to 66 balls) in 56, 80, 120, 152, 200, 248, 304, 360 and 424 passes in
all; at most 128, pyramids of 6 rows and more stood for ever. (Those of 12 rows and more
still do: their passes would need more than this. While an 11-row pyramid collapses, a
step takes up to 0.9 ms; 240 steps a second allow 4.2.) (Most piles, whose passes
converge far more slowly, go on to the level solve after 24. Some go on further: up to
512 rather than 128, ``python -m bench.piles`` in its four modes took 12.0, 10.6, 14.1
and 22.0 s against 11.1, 9.9, 12.7 and 22.0 s; 638 of their 640 piles came to rest
against 634, within its noise.) Island by island: decided for the whole world at once, a
pyramid stood for ever beside a ball on two pegs nearly level with it (whose passes do not
settle) or beside a heavy ball resting in a notch (see `NEARER`)."""

NEARER = 1e-3
"""The exact answer of resting contacts is the velocity nearest to the one that came in (as
kinetic energy measures it) among those that close in on no contact (`_no_energy_made`):
of an island's passes' answer, settled after more than `VELOCITY_PASSES`, and the level
solve's, the passes' is kept where it is nearer by this fraction or more of the level
solve's distance for that island. Where the answer is to stand still, the passes leave
speeds of a few 1e-9 m/s (a ball on two pegs 15° below its centre, a pile on a peg that
then never came to rest) and the level solve none: kept as near as they are, those speeds
stood for ever; a pyramid's answer, to collapse, is nearer by a seventh (three balls)."""

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
def _closing(b, i, j, nx, ny):
    """How fast bodies i and j close in along n, from i to j (m/s; i of -1: a wall)."""
    closing = -(b.vel[j, 0] * nx + b.vel[j, 1] * ny)
    if i >= 0:
        closing += b.vel[i, 0] * nx + b.vel[i, 1] * ny
    return closing


@_jit
def _closing_most(b, first, second, nx, ny, ks):
    """The fastest that the contacts ``ks`` close in (m/s; 0 if none does)."""
    most = 0.0
    for k in ks:
        most = max(most, _closing(b, first[k], second[k], nx[k], ny[k]))
    return most


@_jit
def _bodies_of(first, second, ks):
    """The bodies of the contacts ``ks``, each once."""
    out = np.empty(2 * len(ks), np.int64)
    m = 0
    for k in ks:
        for x in (first[k], second[k]):
            if x >= 0:
                out[m] = x
                m += 1
    return np.unique(out[:m])


@_jit
def _runs(resting, keys):
    """The contacts ``resting`` sorted by their ``keys`` (in their order where keys are equal),
    the keys sorted, and where each run of one key starts (then the count)."""
    order = resting[np.argsort(keys, kind="mergesort")]
    keys = np.sort(keys)
    runs = np.empty(len(keys) + 1, np.int64)
    m = 0
    for q in range(len(keys)):
        if q == 0 or keys[q] != keys[q - 1]:
            runs[m] = q
            m += 1
    runs[m] = len(keys)
    return order, keys, runs[:m + 1]


@_jit
def _rest(b, first, second, nx, ny, slack, resting, level, span, block):
    """The ``resting`` contacts stop closing in (``b.vel``; a body standing firm comes
    towards the other as `passes._firm_approach` counts it, by ``slack``): projected
    Gauss-Seidel over all of them; where that does not settle within its passes, more
    passes island by island while they converge (`VELOCITY_PASSES_MOST`), and level by
    level from the ground up, the bodies below standing firm (``level``, found here if
    empty); no island keeps kinetic energy that the levels made (`_no_energy_made`), and
    an island its passes settled keeps their answer where it is nearer (`NEARER`).
    (Memory from ``block``: `scratch`.)"""
    b = lent(b)  # (arguments: see `compiled.lent`)
    m, n = len(first), b.pos.shape[0]
    before = scratch.floats(block, 2 * n).reshape((n, 2))
    before[:, :] = b.vel
    push, unfirm, none = scratch.floats(block, m), scratch.flags(block, m), scratch.ints(block, 0)
    push[:] = 0.0
    unfirm[:] = False
    most = _solve(b, first, second, nx, ny, slack, push, resting, none, none, VELOCITY_PASSES, unfirm, span)
    if most <= APPROACH:
        return
    # each island (`_islands`) goes on with passes of its own while they converge (see
    # `VELOCITY_PASSES_MOST`): ``settled`` by its root, and what they leave, ``passed``
    root = _islands(b, first, second, resting)
    count = len(resting)
    keys = np.empty(count, np.int64)
    for q in range(count):
        k = resting[q]
        keys[q] = root[second[k] if b.inv_mass[second[k]] > 0.0 or first[k] < 0 else first[k]]
    order, keys, runs = _runs(resting, keys)
    settled = np.zeros(n, np.bool_)
    for q in range(len(runs) - 1):
        g = runs[q]
        ks = order[g:runs[q + 1]]
        most = _solve(b, first, second, nx, ny, slack, push, ks, none, none, PASSES_MORE, unfirm, span)
        done = VELOCITY_PASSES + PASSES_MORE
        while most > APPROACH and done < VELOCITY_PASSES_MOST:
            was = most
            most = _solve(b, first, second, nx, ny, slack, push, ks, none, none, PASSES_MORE, unfirm, span)
            done += PASSES_MORE
            if not (APPROACH < most < was):
                break
            # (at the rate of the last run, the passes still needed to settle)
            if done + PASSES_MORE * math.log(most / APPROACH) / math.log(was / most) > VELOCITY_PASSES_MOST:
                break
        settled[keys[g]] = most <= APPROACH
    passed = scratch.floats(block, 2 * n).reshape((n, 2))
    passed[:, :] = b.vel
    b.vel[:] = before  # (what the unfinished passes left would be carried up as if it were support)
    if len(level) == 0:
        level = _levels(b, first, second, nx, ny, block)
    side = _sideways(b, first, second, nx, ny, level, block)
    count = len(resting)
    keys = np.empty(count, np.int64)
    for q in range(count):
        k = resting[q]
        keys[q] = max(level[first[k]] if first[k] >= 0 else GROUND, level[second[k]])
    order, keys, runs = _runs(resting, keys)
    # a body that stands firm sideways stops the one pressed into it in the pass that meets
    # their contact after its own: a row pressed along the floor into a wall, met the other
    # way round, stops one more ball a pass (16 passes left 3 balls of a row of 20 moving
    # at g dt, for ever), so the passes are at least as many as the longest such row
    passes = VELOCITY_PASSES
    for x in range(len(side)):
        if side[x] != AFLOAT:
            passes = max(passes, side[x] + 2)
    push = np.zeros(m)
    unfirm = np.zeros(m, np.bool_)
    for q in range(len(runs) - 1):
        ks = order[runs[q]:runs[q + 1]]
        bodies = _bodies_of(first, second, ks)
        vel = b.vel[bodies].copy()
        kept = push[ks].copy()
        if _solve(b, first, second, nx, ny, slack, push, ks, level, side, passes, unfirm, span) > APPROACH:
            # a body standing firm sideways that still closes in on the one it stands firm
            # against squeezes it against what holds that one (a ball sliding off the one it
            # rests on into a neighbour held by a wall), and the passes cannot settle it:
            # the level again, those contacts moving both their bodies, kept if its
            # contacts then close in slower (judged by their whole closing speed: judged by
            # what exceeds their slack, three piles of the tests kept ghost speeds); and so
            # too an arch (`_inverted`). Judged with every contact of the level's bodies
            # solved so far, in the levels below too: the lower body of an arch moves here,
            # and judged without its own supports, a retry drove it into them (440 times a
            # second in a pile of 37 balls on a peg, which took 26 s instead of 3 to come
            # to rest)
            again = False
            for k in ks:
                i, j = first[k], second[k]
                if i < 0 or b.inv_mass[i] == 0.0:
                    continue
                if level[i] == level[j]:
                    if _closing(b, i, j, nx[k], ny[k]) > APPROACH:
                        unfirm[k] = True
                        again = True
                elif _inverted(b, i, j, nx[k], ny[k], level):
                    unfirm[k] = True
                    again = True
            if again:
                judged = _with_earlier(first, second, ks, order[:runs[q]], bodies, n)
                firm = _closing_most(b, first, second, nx, ny, judged)
                firm_vel, firm_push = b.vel[bodies].copy(), push[ks].copy()
                b.vel[bodies] = vel
                push[ks] = kept
                _solve(b, first, second, nx, ny, slack, push, ks, level, side, passes, unfirm, span)
                if not _closing_most(b, first, second, nx, ny, judged) < firm:
                    b.vel[bodies] = firm_vel
                    push[ks] = firm_push
    _no_energy_made(b, before, root)
    # an island its passes settled keeps their answer where it is nearer (`NEARER`)
    level_moved, passes_moved = np.zeros(n), np.zeros(n)
    for x in range(n):
        w = b.inv_mass[x]
        if w > 0.0 and settled[root[x]]:
            level_moved[root[x]] += ((b.vel[x, 0] - before[x, 0]) ** 2 + (b.vel[x, 1] - before[x, 1]) ** 2) / w
            passes_moved[root[x]] += ((passed[x, 0] - before[x, 0]) ** 2 + (passed[x, 1] - before[x, 1]) ** 2) / w
    for x in range(n):
        r = root[x]
        if settled[r] and passes_moved[r] < (1.0 - NEARER) * level_moved[r]:
            b.vel[x, 0], b.vel[x, 1] = passed[x, 0], passed[x, 1]


@_jit
def _islands(b, first, second, resting):
    """Each body's island among the ``resting`` contacts: the smallest number of the bodies
    joined to it by contacts between two bodies that move (a wall or a fixed body joins
    nothing: it holds still for every island)."""
    n = b.pos.shape[0]
    root = np.arange(n)
    for k in resting:
        i, j = first[k], second[k]
        if i < 0 or b.inv_mass[i] == 0.0 or b.inv_mass[j] == 0.0:
            continue
        while root[i] != i:
            i = root[i]
        while root[j] != j:
            j = root[j]
        if i != j:
            root[max(i, j)] = min(i, j)
    for x in range(n):
        r = x
        while root[r] != r:
            r = root[r]
        root[x] = r
    return root


@_jit
def _no_energy_made(b, before, root):
    """Each island (``root``: `_islands`) keeps the velocities that the level solve left it
    (``b.vel``) scaled by the factor that brings them nearest, as kinetic energy measures it,
    to those it came in with (``before``), between 0 and 1: where the solve's pushes did
    positive work on what they left, it is taken back.

    The exact answer of resting contacts that stop closing in is the velocity nearest to the
    one the bodies came in with among those that close in on no contact (to within the gap
    each may close in a step): a convex set that holds standing still, and so holds the
    answer scaled by any factor from 0 to 1. Its pushes do no positive work on it, and it
    never has more kinetic energy than what came in. The level solve, whose bodies below
    stand firm and are never pushed back, can leave an island more than that (a light ball
    below standing firm lifts a heavy one above); step after step, mixed piles under tilted
    gravity boiled: ``python -m bench.piles --mixed`` over seeds 5-10 left 17 of 180 piles
    holding 339 J in all after 20 s, 122 at rest. Scaled, 180 of 180 came to rest. What the
    solve kept from closing in still does not, no island leaves with more kinetic energy
    than it came in with (the Cauchy-Schwarz inequality), and an island that the solve left
    as the exact answer keeps it (the factor is 1). (Scaled about standing still, an island
    that slides along the floor while the solve makes energy in it loses some of its slide:
    the exact answer is not known here, only that the solve's is not it.)"""
    n = b.pos.shape[0]
    came = np.zeros(n)  # of each island: the sum of m v.u (u what came in, v what the solve left)
    left = np.zeros(n)  # and of m v.v; the factor nearest is came / left
    for x in range(n):
        w = b.inv_mass[x]
        if w > 0.0:
            r = root[x]
            came[r] += (before[x, 0] * b.vel[x, 0] + before[x, 1] * b.vel[x, 1]) / w
            left[r] += (b.vel[x, 0] * b.vel[x, 0] + b.vel[x, 1] * b.vel[x, 1]) / w
    for x in range(n):
        r = root[x]
        if came[r] >= left[r]:
            continue  # (the factor is 1)
        # (left so slow that m v.v is 0, and v.u below 0: the factor is 0, not 0 / 0)
        f = max(came[r], 0.0) / left[r] if left[r] > 0.0 else 0.0
        b.vel[x, 0] *= f
        b.vel[x, 1] *= f


@_jit
def _with_earlier(first, second, ks, earlier, bodies, n):
    """The contacts ``ks``, then those of ``earlier`` that touch one of ``bodies`` (of ``n``)."""
    mark = np.zeros(n, np.bool_)
    mark[bodies] = True
    out = np.empty(len(ks) + len(earlier), np.int64)
    out[:len(ks)] = ks
    m = len(ks)
    for k in earlier:
        i, j = first[k], second[k]
        out[m] = k
        m += (i >= 0 and mark[i]) or mark[j]
    return out[:m]


@_jit(inline=True)
def _inverted(b, i, j, nx, ny, level):
    """Whether of contact (i, j) between two levels the lower body, which stands firm in the
    level solve, is pressed into the upper one by its own summed acceleration: it rests on
    it, partly (an arch)."""
    if level[i] < level[j]:
        return b.pull[i, 0] * nx + b.pull[i, 1] * ny > 0.0
    return b.pull[j, 0] * nx + b.pull[j, 1] * ny < 0.0


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
        closing = _closing(b, i, j, nx[k], ny[k])
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
