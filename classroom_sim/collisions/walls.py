"""The walls of the box: when a body reaches one, its bounce, resting on one, and
putting every body back inside at the end of a step.

The walls are numbered 0 left, 1 bottom, 2 right, 3 top: wall w bounds axis
w % 2, from below for w < 2. A body reaches a wall when its surface does
(its centre is its radius away). Each axis is a problem of its own along
x + v s + c a s² (`schedule.crossing`).

Resting (SCENE_FORMAT.md, "Resting contact"): a body that meets a wall no faster
than what its summed acceleration adds to its approach in one step (the part
that presses it into the wall, `wall_resting_speed`) does not bounce; it comes
to rest against the wall, which from then on holds up that part of its
acceleration (its ``acc`` across the wall is zero for the rest of the step).
A ball sliding along the floor into a side wall is not pressed into it, and
bounces however slowly.
"""

from __future__ import annotations

import math

import numpy as np

from ..compiled import jit as _jit
from .motion import move
from .schedule import APPROACH, NONE, crossing

AT_WALL = 1e-12
"""Relative to the size of the box's coordinates: a body this close to a wall touches it."""

STOPPED = 1
"""`bounce`'s answer for a body that reached a wall as a resting contact, stopped there."""
BOUNCED = 2
"""`bounce`'s answer for an impact: the body bounced off the wall."""


@_jit
def box(bounds):
    """The walls (left, bottom, right, top), or none: read into locals once, since
    every store into the bodies' arrays could change them as far as the compiler knows."""
    if len(bounds) == 4:
        return bounds[0], bounds[1], bounds[2], bounds[3]
    return -np.inf, -np.inf, np.inf, np.inf


@_jit(inline=True)
def resting_speed(pull, span):
    """m/s: an approach no faster than what an acceleration of ``pull`` (m/s²) adds in a
    step of ``span`` is a resting contact, not an impact."""
    return abs(pull) * span + APPROACH


@_jit(inline=True)
def pull_of(b, i):
    """|the summed acceleration| of body ``i`` (m/s²): what a resting contact of it is measured by."""
    return math.sqrt(b.pull[i, 0] * b.pull[i, 0] + b.pull[i, 1] * b.pull[i, 1])


@_jit(inline=True)
def _gap(b, i, w, bounds):
    """How far body ``i``'s surface is from wall ``w`` (m, negative outside), its velocity
    and acceleration towards the inside along the wall's axis."""
    k = w % 2
    if w < 2:
        return b.pos[i, k] - b.radius[i] - bounds[w], b.vel[i, k], b.acc[i, k]
    return bounds[w] - b.radius[i] - b.pos[i, k], -b.vel[i, k], -b.acc[i, k]


@_jit(inline=True)
def _touch(bounds, w):
    return AT_WALL * (1.0 + abs(bounds[w]))


@_jit(inline=True)
def settle_on_walls(b, i, rules):
    """At the start of a step: if body ``i`` rests against a wall (touching it, pressed
    into it by its acceleration, moving across it no faster than a resting contact, to
    or from it), it stops moving across that wall and the wall holds up its acceleration
    across it."""
    span = rules.end - rules.start
    for w in range(4):
        k = w % 2
        z, u, a = _gap(b, i, w, rules.bounds)
        if z <= _touch(rules.bounds, w) and a < 0.0 and abs(u) <= resting_speed(pull_of(b, i), span):
            b.acc[i, k] = 0.0
            b.vel[i, k] = 0.0


@_jit(inline=True)
def wall_contact(b, i, t, rules):
    """The earliest time (s, from ``t``, the body's clock, to the end of the step) at which
    body ``i`` reaches a wall closing in on it faster than `APPROACH`: (time, wall), or
    (`NONE`, -1)."""
    x, y, r = b.pos[i, 0], b.pos[i, 1], b.radius[i]
    vx, vy, ax, ay = b.vel[i, 0], b.vel[i, 1], b.acc[i, 0], b.acc[i, 1]
    left, bottom, right, top = rules.bounds[0], rules.bounds[1], rules.bounds[2], rules.bounds[3]
    best, wall = NONE, -1
    span = rules.end - t
    c = rules.square
    for w in range(4):
        if w == 0:
            z, u, a = x - r - left, vx, ax
        elif w == 1:
            z, u, a = y - r - bottom, vy, ay
        elif w == 2:
            z, u, a = right - r - x, -vx, -ax
        else:
            z, u, a = top - r - y, -vy, -ay
        s = crossing(max(z, 0.0), u, c * a, span)
        if s != NONE and -(u + 2.0 * c * a * s) > APPROACH and (best == NONE or s < best):
            best, wall = s, w
    return (t + best if best != NONE else NONE), wall


@_jit(inline=True)
def wall_resting_speed(b, i, nx, ny, span, loaded):
    """An approach of body ``i`` to a wall (``n`` its normal, into the box) no faster than
    this is a resting contact: what its summed acceleration adds to it in one step, the
    part that presses it into the wall; or, if it carries others (``loaded``: the load
    on it may press it into the wall), all of it."""
    if loaded:
        return resting_speed(pull_of(b, i), span)
    return resting_speed(max(-(b.pull[i, 0] * nx + b.pull[i, 1] * ny), 0.0), span)


@_jit(inline=True)
def bounce(b, i, w, rules, loaded):
    """Body ``i``, just reaching wall ``w``: put it on the wall, then reflect its velocity
    across the wall with the walls' restitution (an impact: returns `BOUNCED`), or, for a
    resting contact, stop it there with the wall holding it up (``loaded``: whether it
    carries others, see `wall_resting_speed`; returns `STOPPED`). Returns 0 if it does not
    close in."""
    k = w % 2
    inward = 1.0 if w < 2 else -1.0
    u = inward * b.vel[i, k]  # towards the inside
    if not -u > APPROACH:
        return 0
    b.pos[i, k] = rules.bounds[w] + inward * b.radius[i]
    if -u > wall_resting_speed(b, i, inward * (1 - k), inward * k, rules.end - rules.start, loaded):
        b.vel[i, k] = -rules.e_wall * b.vel[i, k]
        return BOUNCED
    b.vel[i, k] = 0.0
    if inward * b.acc[i, k] < 0.0:
        b.acc[i, k] = 0.0
    return STOPPED


@_jit(inline=True)
def contain(b, i, bounds, e_wall):
    """Put body ``i`` (movable) back inside the box if it is not, reflecting an outward
    velocity with ``e_wall``."""
    r = b.radius[i]
    for k in range(2):
        lo = bounds[k] + r
        hi = bounds[k + 2] - r
        if b.pos[i, k] < lo:
            b.pos[i, k] = lo
            if b.vel[i, k] < 0.0:
                b.vel[i, k] = -e_wall * b.vel[i, k]
        elif b.pos[i, k] > hi:
            b.pos[i, k] = hi
            if b.vel[i, k] > 0.0:
                b.vel[i, k] = -e_wall * b.vel[i, k]


@_jit(inline=True)
def hit_wall(b, i, t, w, rules, loaded):
    """Move body ``i`` to ``t``, when it reaches wall ``w``, and bounce it there (`bounce`)."""
    move(b, i, t, rules.method)
    return bounce(b, i, w, rules, loaded)
