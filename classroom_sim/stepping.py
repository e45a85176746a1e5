"""How a step is cut and carried out: one compiled function per World step.

Each body gets a disc that holds all of its motion until the end of the step
(its radius grown by how far it may travel); the pairs whose discs overlap are
the only ones that may touch. A pair that may touch and then move on, relative
to each other, by more than the smaller of its radii before the step ends is
checked before it has (see `collisions.fast_pairs`); only its bodies are split,
and every other body moves by one integrator step. Whenever a split body
leaves its disc (a collision sped it up, or a push moved it), its pairs are
planned again. Compiled without the GIL, so that other threads run while the
physics thread steps.
"""

from __future__ import annotations

import math

import numpy as np

from . import collisions
from .compiled import jit as _jit


MAX_PARTS = 10_000
"""A step is cut into no more parts than this (a pathological scene finishes its
step with a coarser check rather than hang the physics thread)."""

CUT_PARTS = 1
"""A flag of `advance`'s report: `MAX_PARTS` stopped the cutting of the step early."""
CUT_PASSES = 2
"""A flag of `advance`'s report: `collisions.MAX_PASSES` left overlaps for the next step."""


@_jit
def _discs(vel, acc, radius, idx, t_body, target, extent):
    for i in idx:
        span = target - t_body[i]
        speed = math.sqrt(vel[i, 0] * vel[i, 0] + vel[i, 1] * vel[i, 1])
        pull = abs(acc[i, 0]) + abs(acc[i, 1])  # at least |a|, without a square root
        extent[i] = radius[i] + speed * span + 0.5 * pull * span * span


@_jit
def _away_from_walls(centre, extent, idx, bounds, straight):
    """Mark which of the bodies ``idx`` have a disc that stays clear of every wall."""
    if len(bounds) != 4:
        return
    x0, y0, x1, y1 = bounds[0], bounds[1], bounds[2], bounds[3]  # (read once: each store could change them)
    for i in idx:
        straight[i] = ((x0 <= centre[i, 0] - extent[i]) & (centre[i, 0] + extent[i] <= x1)
                       & (y0 <= centre[i, 1] - extent[i]) & (centre[i, 1] + extent[i] <= y1))


@_jit
def _resolve(pos, vel, inv_mass, radius, movable, pi, pj, e, bounds, e_wall, log_ij, log_vectors, logged, idx):
    collided, logged, capped = collisions.resolve_pairs(pos, vel, inv_mass, radius, pi, pj, e, log_ij, log_vectors,
                                                        logged)
    if len(bounds) == 4:
        collisions.contain(pos, vel, radius, movable, bounds, e_wall, idx)
    return logged, capped


@_jit
def advance(pos, vel, acc, radius, inv_mass, t0, target, method, bounds, e, e_wall, log_ij, log_vectors):
    """Advance every body from ``t0`` to ``target`` (s), in place. Returns the number
    of collisions (each is written to the log arrays while there is room) and the
    flags of the caps that cut the work short (`CUT_PARTS`, `CUT_PASSES`)."""
    n = pos.shape[0]
    every = np.arange(n)
    movable = inv_mass > 0.0
    fixed = ~movable
    centre = pos.copy()
    extent = np.empty(n)
    _discs(vel, acc, radius, every, np.full(n, t0), target, extent)
    # the pairs that may touch, in grid order (each body's rank in it); loose: the bodies not in the grid as it is now
    ci, cj, rank, grid, loose, biggest = collisions.plan(centre, extent, fixed)
    straight = np.ones(n, np.bool_)  # bodies whose disc meets no wall: they fly straight
    _away_from_walls(centre, extent, every, bounds, straight)
    t_now = t0
    t_body = np.full(n, t0)  # the time each body has reached
    logged = 0
    split = np.ones(n, np.bool_)
    left = np.empty(n)
    fi, fj, t_next = collisions.fast_pairs(pos, vel, acc, radius, ci, cj, t_body, target, split, straight)
    xi = np.empty(0, np.int64)  # pairs found since the plan: kept apart (few) until the end, in grid order
    xj = np.empty(0, np.int64)
    parts = 0
    flags = 0
    while t_next < target and parts < MAX_PARTS:
        parts += 1
        split[:] = False
        split[fi] = True
        split[fj] = True
        idx = collisions.where(split)
        collisions.move(pos, vel, acc, idx, t_body, t_now, method, radius, movable, bounds, e_wall)
        collisions.move(pos, vel, acc, idx, t_body, t_next, method, radius, movable, bounds, e_wall)
        logged, capped = _resolve(pos, vel, inv_mass, radius, movable, fi, fj, e, bounds, e_wall, log_ij, log_vectors,
                                  logged, idx)
        if capped:
            flags |= CUT_PASSES
        t_now = t_next
        # Keep every disc holding its body's motion: plan again the pairs of those that left theirs.
        _discs(vel, acc, radius, idx, t_body, target, left)
        chosen = np.zeros(n, np.bool_)
        gone = False
        for i in idx:
            dx = pos[i, 0] - centre[i, 0]
            dy = pos[i, 1] - centre[i, 1]
            if math.sqrt(dx * dx + dy * dy) + left[i] > extent[i]:
                chosen[i] = True
                loose[i] = True
                gone = True
                centre[i, 0], centre[i, 1] = pos[i, 0], pos[i, 1]
                extent[i] = left[i]
        if gone:
            _away_from_walls(centre, extent, idx, bounds, straight)
            ni, nj = collisions.pairs_again(centre, extent, fixed, grid, biggest, chosen, loose)
            xi, xj = collisions.merge_pairs(xi, xj, ni, nj, rank)
        # Check again every pair of a split body: which must be seen before the end, and by when.
        fi, fj, t_next = collisions.fast_pairs(pos, vel, acc, radius, ci, cj, t_body, target, split, straight)
        if len(xi):
            gi, gj, sooner = collisions.fast_pairs(pos, vel, acc, radius, xi, xj, t_body, target, split, straight)
            fi, fj = collisions.merge_pairs(fi, fj, gi, gj, rank)
            t_next = min(t_next, sooner)
    if len(xi):
        ci, cj = collisions.merge_pairs(ci, cj, xi, xj, rank)
    collisions.move(pos, vel, acc, every, t_body, target, method, radius, movable, bounds, e_wall)
    if t_next < target:
        flags |= CUT_PARTS
    logged, capped = _resolve(pos, vel, inv_mass, radius, movable, ci, cj, e, bounds, e_wall, log_ij, log_vectors,
                              logged, every)
    if capped:
        flags |= CUT_PASSES
    return logged, flags
