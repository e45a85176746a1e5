"""The velocities of a step's end's resting contacts: they stop closing in.

`resting.settle` finds the resting contacts (what touches, or is a hair apart, and closes
in no faster than a resting contact) and hands them to `_rest` here.

Passes: projected Gauss-Seidel, each contact's push accumulated over the passes
and never negative, so that a body in the notch between two others comes
to rest instead of being kicked from one to the other. Walls are contacts
with a body of infinite mass.

Supports: where the passes did not settle everything (`VELOCITY_PASSES`, and more
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
rests on, even across a gap, for the reason given under 1. in `resting`.)

Retries: where a level's
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
(`_no_energy_made`; mixed piles under tilted gravity boiled without it). And a retry may
leave a contact below closing in (the lower body of the arch moved into what it rests on):
where the levels leave an island closing in, its passes go on from where they stopped, and
their answer is kept where it closes in slower (`LEFT_CLOSING`).
"""

from __future__ import annotations

import math

import numpy as np

from ..compiled import jit as _jit, lent
from . import scratch
from .schedule import APPROACH
from .passes import _solve
from .supports import AFLOAT, GROUND, _levels, _sideways

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

LEFT_CLOSING = 1e-4
"""m/s: an island that the level solve leaves closing in faster than this (a retry, kept
because it left the level's contacts closing in slower, moved a body below into what it
rests on) has its passes go on from where they stopped, if they fit in `PASSES_WORK`,
until `PASSES_ENOUGH`, `VELOCITY_PASSES_MOST` in all, or a run of them that changes the
velocities no less than the run before; it keeps the passes' answer where that leaves it
closing in slower (`_left_closing`), settled or not, and gone on or not. A ball of a pile
on a peg, under gravity tilted 1 m/s² after the pile had come to rest once, was left
closing in on the ball it rests on at 2.2 cm/s, step after step, while it stood still on
screen, and the pile never came to rest again; the passes, gone on to 512, left that
island closing in at 0.05 mm/s at most."""

PASSES_ENOUGH = 1e-6
"""m/s: the passes that go on for an island the levels left closing in (`LEFT_CLOSING`)
stop once a pass changes no velocity by more than this (what is left then closes in at
about as much, and the bodies are put to rest by what they do, `still`)."""

PASSES_WORK = 65536
"""Contacts times passes: what the passes that go on (`LEFT_CLOSING`) may do in one step
at most, about half a millisecond. An island gets them only if its contacts times the passes
it has still to go to `VELOCITY_PASSES_MOST` fit in what is left of this: piles on a peg
(20-40 balls, up to about 100 contacts) do; an island of 400 balls does not (given them,
it took 1.7 times as long to come to rest, up to 4.7 ms a step). (Keeping the passes'
answer only for islands whose passes went on: ``python -m bench.piles`` in its four modes,
633 of 640 piles at rest, against 638.)"""

NEARER = 1e-3
"""The exact answer of resting contacts is the velocity nearest to the one that came in (as
kinetic energy measures it) among those that close in on no contact (`_no_energy_made`):
of an island's passes' answer, settled after more than `VELOCITY_PASSES`, and the level
solve's, the passes' is kept where it is nearer by this fraction or more of the level
solve's distance for that island. Where the answer is to stand still, the passes leave
speeds of a few 1e-9 m/s (a ball on two pegs 15° below its centre, a pile on a peg that
then never came to rest) and the level solve none: kept as near as they are, those speeds
stood for ever; a pyramid's answer, to collapse, is nearer by a seventh (three balls)."""


@_jit(inline=True)
def _closing(vel, i, j, nx, ny):
    """How fast bodies i and j of velocities ``vel`` close in along n, from i to j (m/s; i of
    -1: a wall)."""
    closing = -(vel[j, 0] * nx + vel[j, 1] * ny)
    if i >= 0:
        closing += vel[i, 0] * nx + vel[i, 1] * ny
    return closing


@_jit
def _closing_most(b, first, second, nx, ny, ks):
    """The fastest that the contacts ``ks`` close in (m/s; 0 if none does)."""
    most = 0.0
    for k in ks:
        most = max(most, _closing(b.vel, first[k], second[k], nx[k], ny[k]))
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
    empty); no island keeps kinetic energy that the levels made (`_no_energy_made`); an
    island its passes settled keeps their answer where it is nearer (`NEARER`), and one the
    levels leave closing in has its passes go on, and keeps their answer where it closes in
    slower (`LEFT_CLOSING`).
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
    island_push, island_unfirm = push, unfirm
    # each island (`_islands`) goes on with passes of its own while they converge (see
    # `VELOCITY_PASSES_MOST`): ``settled`` by its root, and what they leave, ``passed``
    root = _islands(b, first, second, resting)
    count = len(resting)
    keys = np.empty(count, np.int64)
    for q in range(count):
        keys[q] = _island_of(root, b.inv_mass, first, second, resting[q])
    island_order, island_keys, island_runs = _runs(resting, keys)
    settled = np.zeros(n, np.bool_)
    done = np.zeros(n, np.int64)  # the passes each island has had, by its root
    for q in range(len(island_runs) - 1):
        g = island_runs[q]
        r = island_keys[g]
        done[r] = VELOCITY_PASSES
        settled[r] = _island_passes(b, first, second, nx, ny, slack, push, island_order[g:island_runs[q + 1]], unfirm,
                                    span, done, r, True, APPROACH) <= APPROACH
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
                    if _closing(b.vel, i, j, nx[k], ny[k]) > APPROACH:
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
    # an island that the levels leave closing in has its passes go on from where they
    # stopped (`LEFT_CLOSING`), while what they may do fits in `PASSES_WORK`
    level_left = _left_closing(b.vel, first, second, nx, ny, slack, resting, root, b.inv_mass)
    levels = np.empty((0, 2))  # (the levels' answer, kept aside while the passes go on)
    work = PASSES_WORK
    for q in range(len(island_runs) - 1):
        g = island_runs[q]
        r = island_keys[g]
        size = island_runs[q + 1] - g
        if level_left[r] > LEFT_CLOSING and not settled[r] and done[r] < VELOCITY_PASSES_MOST and \
                size * (VELOCITY_PASSES_MOST - done[r]) <= work:
            if len(levels) == 0:
                levels = b.vel.copy()
                b.vel[:] = passed
            was = done[r]
            settled[r] = _island_passes(b, first, second, nx, ny, slack, island_push, island_order[g:island_runs[q + 1]],
                                        island_unfirm, span, done, r, False, PASSES_ENOUGH) <= APPROACH
            work -= (done[r] - was) * size
    if len(levels):
        passed[:, :] = b.vel
        b.vel[:] = levels
    passes_left = _left_closing(passed, first, second, nx, ny, slack, resting, root, b.inv_mass)
    # an island its passes settled keeps their answer where it is nearer (`NEARER`)
    level_moved, passes_moved = np.zeros(n), np.zeros(n)
    for x in range(n):
        w = b.inv_mass[x]
        if w > 0.0 and settled[root[x]]:
            level_moved[root[x]] += ((b.vel[x, 0] - before[x, 0]) ** 2 + (b.vel[x, 1] - before[x, 1]) ** 2) / w
            passes_moved[root[x]] += ((passed[x, 0] - before[x, 0]) ** 2 + (passed[x, 1] - before[x, 1]) ** 2) / w
    for x in range(n):
        r = root[x]
        if (settled[r] and passes_moved[r] < (1.0 - NEARER) * level_moved[r]) or \
                (level_left[r] > LEFT_CLOSING and passes_left[r] < level_left[r]):
            b.vel[x, 0], b.vel[x, 1] = passed[x, 0], passed[x, 1]


@_jit
def _island_passes(b, first, second, nx, ny, slack, push, ks, unfirm, span, done, r, hurry, enough):
    """Passes over the contacts ``ks`` of one island (its root ``r``), `PASSES_MORE` at a time,
    until no pass changes a velocity by more than ``enough``, they stop converging, or they
    have had `VELOCITY_PASSES_MOST` in all (``done[r]``, counted on); in a ``hurry``, also
    once the rate of the last run says they would need more than that to settle. Returns
    the largest change of a velocity in the last pass (settled when it is `APPROACH` or
    less)."""
    b, first, second, nx, ny, slack, push, ks, unfirm, done = lent(b), lent(first), lent(second), lent(nx), \
        lent(ny), lent(slack), lent(push), lent(ks), lent(unfirm), lent(done)  # (see `compiled.lent`)
    none = ks[:0]
    most = _solve(b, first, second, nx, ny, slack, push, ks, none, none, PASSES_MORE, unfirm, span)
    done[r] += PASSES_MORE
    while most > enough and done[r] < VELOCITY_PASSES_MOST:
        was = most
        most = _solve(b, first, second, nx, ny, slack, push, ks, none, none, PASSES_MORE, unfirm, span)
        done[r] += PASSES_MORE
        if not (enough < most < was):
            break
        # (at the rate of the last run, the passes still needed to settle)
        if hurry and done[r] + PASSES_MORE * math.log(most / APPROACH) / math.log(was / most) > VELOCITY_PASSES_MOST:
            break
    return most


@_jit
def _left_closing(vel, first, second, nx, ny, slack, resting, root, inv_mass):
    """How fast each island (by its root, ``root``) is left closing in by velocities ``vel``:
    the most that one of its ``resting`` contacts closes in beyond the speed that closes its
    gap within a step (``slack``), or 0."""
    out = np.zeros(len(root))
    for k in resting:
        r = _island_of(root, inv_mass, first, second, k)
        out[r] = max(out[r], _closing(vel, first[k], second[k], nx[k], ny[k]) - slack[k])
    return out


@_jit(inline=True)
def _island_of(root, inv_mass, first, second, k):
    """The island (its root, `_islands`) of contact ``k``: that of its second body, or of
    its first where the second is fixed (a wall, the first of -1, joins none)."""
    j = second[k]
    return root[j] if inv_mass[j] > 0.0 or first[k] < 0 else root[first[k]]


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
