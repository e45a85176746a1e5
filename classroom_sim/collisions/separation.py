"""Separation at a step's end: overlapping bodies pushed apart, half the overlap each.

Each overlapping pair, among all the pairs that may touch (a
push may press a body into one it did not touch), is pushed apart along the
line of centres, half the overlap each (a fixed body moves nothing, the
other the whole overlap; coincident centres part along +x), pass after pass
while some still overlap, `SEPARATION_PASSES` of them, and more while an overlap of
more than `OVERLAP_LEFT` is left (up to `SEPARATION_PASSES_MOST`); walls put a
pushed body back inside the box. A body pushed further than half of `OVERLAP_LEFT` of
the smallest radius may have been pushed into one it was not paired with (out of a deep
overlap that a step cut short left, wedged in a corner: 0.3 m, into a ball 30% of a
radius deep): the pairs within reach of the furthest push are found anew, and the
passes run again over them.
"""

from __future__ import annotations

import math

import numpy as np

from ..compiled import jit as _jit, lent
from . import broad
from .contacts import normal
from .walls import contain

SEPARATION_PASSES = 16
"""Passes over the overlapping pairs of a step's end, pushing them apart."""

SEPARATION_PASSES_MOST = 64
"""Passes go on past `SEPARATION_PASSES` while they still meet an overlap of more than
`OVERLAP_LEFT`, up to this many. A push reaches one body further a pass: in piles of
1,000 balls 27 rows deep (8 of them), 16 passes left overlaps of more than 1% of a radius
after 119 to 981 of the 6,000 steps of their first 25 s, 64 after 0 to 247. Where 16
suffice, nothing changes:
``python -m bench.piles`` over seeds 5-22 (100 balls, a few steps of which need more)
gave 532 at rest, 7 moving, 0 ghosts, 1 bouncing, against 529, 8, 0, 3 with 16."""

OVERLAP_TOLERANCE = 1e-12
"""Relative to the sum of radii: a gap smaller than this counts as touching, not overlapping."""

OVERLAP_LEFT = 0.01
"""Relative to the smaller radius: an overlap larger than this left at the end of a step
(more pressed bodies than its passes separate) is reported (`resting.settle`)."""

@_jit(inline=True)
def _apart(b, i, j):
    """Whether bodies i and j neither overlap nor may be pushed apart (the separation's test)."""
    r = b.radius[i] + b.radius[j]
    dx = b.pos[j, 0] - b.pos[i, 0]
    dy = b.pos[j, 1] - b.pos[i, 1]
    if dx * dx + dy * dy > r * r:  # (most pairs: apart, said without a square root)
        return True
    _, _, dist = normal(b, i, j)
    return not dist < r * (1.0 - OVERLAP_TOLERANCE) or b.inv_mass[i] + b.inv_mass[j] == 0.0


@_jit
def overlaps(b, first, second):
    """Whether any of the pair contacts (first, second) overlaps (walls, a first of -1, are
    left out)."""
    b = lent(b)  # (arguments: see `compiled.lent`)
    for k in range(len(first)):
        if first[k] >= 0 and not _apart(b, first[k], second[k]):
            return True
    return False


@_jit
def separate(b, pi, pj, rules, live, ones, held):
    """What overlaps among the pairs (pi, pj) pushed apart (see the module's text): returns
    whether an overlap of more than `OVERLAP_LEFT` was left for the next step.

    Only the ``live`` bodies (``ones[:held]``; ``ones`` has room for every body) may overlap
    anything as this begins: the others are apart from each other, and stay so until a push
    moves one of them (then it is live too). A pair of two that are not is passed over
    without a look at where they are."""
    b, rules = lent(b), lent(rules)  # (arguments: see `compiled.lent`)
    was = np.empty((b.pos.shape[0], 2))  # (where each live body was as this began)
    for x in ones[:held]:
        was[x, 0], was[x, 1] = b.pos[x, 0], b.pos[x, 1]
    left_over, held = _passes(b, pi, pj, rules, live, ones, held, was)
    # a body pushed further than the pairs reach (out of a deep overlap that a step cut short
    # left, into a corner) may have been pushed into one it was not paired with: the pairs
    # within reach of such a push, found anew, and the separation again
    most = 0.0
    for x in ones[:held]:
        if b.inv_mass[x] > 0.0:
            most = max(most, math.sqrt((b.pos[x, 0] - was[x, 0]) ** 2 + (b.pos[x, 1] - was[x, 1]) ** 2))
    if most > 0.0:
        smallest = np.inf
        for i in range(b.pos.shape[0]):
            if b.inv_mass[i] > 0.0:
                smallest = min(smallest, b.radius[i])
        if most > 0.5 * OVERLAP_LEFT * smallest:
            qi, qj = broad.candidate_pairs(b.pos, b.radius * (1.0 + OVERLAP_TOLERANCE) + most, b.inv_mass == 0.0)
            live[:] = True
            left_over, _ = _passes(b, qi, qj, rules, live, ones, held, was)
    return left_over


@_jit
def _passes(b, pi, pj, rules, live, ones, held, was):
    """The passes over the pairs (pi, pj) with a ``live`` body (see `separate`; a body pushed
    becomes live, is listed after ``ones[:held]`` and its place noted in ``was``): returns
    whether an overlap of more than `OVERLAP_LEFT` was left, and how many are live."""
    b, rules = lent(b), lent(rules)  # (arguments: see `compiled.lent`)
    left_over = False
    walls = len(rules.bounds) == 4
    for p in range(SEPARATION_PASSES_MOST):
        worst = 0.0
        for k in range(len(pi)):
            i, j = pi[k], pj[k]
            if not (live[i] or live[j]):
                continue  # (apart, and neither has moved since)
            r = b.radius[i] + b.radius[j]
            dx = b.pos[j, 0] - b.pos[i, 0]
            dy = b.pos[j, 1] - b.pos[i, 1]
            if dx * dx + dy * dy > r * r:  # (most pairs: apart, said without a square root)
                continue
            ux, uy, dist = normal(b, i, j)
            if not dist < r * (1.0 - OVERLAP_TOLERANCE):
                continue
            wi, wj = b.inv_mass[i], b.inv_mass[j]
            if wi + wj == 0.0:
                continue
            for x in (i, j):
                if not live[x]:
                    live[x] = True
                    was[x, 0], was[x, 1] = b.pos[x, 0], b.pos[x, 1]
                    ones[held] = x
                    held += 1
            share_i = 0.0 if wi == 0.0 else (1.0 if wj == 0.0 else 0.5)
            gap = r - dist
            b.pos[i, 0] -= share_i * gap * ux
            b.pos[i, 1] -= share_i * gap * uy
            b.pos[j, 0] += (1.0 - share_i) * gap * ux
            b.pos[j, 1] += (1.0 - share_i) * gap * uy
            if walls:
                if wi > 0.0:
                    contain(b, i, rules.bounds, rules.e_wall)
                if wj > 0.0:
                    contain(b, j, rules.bounds, rules.e_wall)
            worst = max(worst, gap / min(b.radius[i], b.radius[j]))
        if worst == 0.0 or (p >= SEPARATION_PASSES - 1 and worst <= OVERLAP_LEFT):
            break
        left_over = worst > OVERLAP_LEFT and p == SEPARATION_PASSES_MOST - 1
    return left_over, held
