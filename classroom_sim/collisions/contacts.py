"""The collision of two bodies, and when an approach of theirs is a resting contact.

A collision works in the frame tilted to the line of centres (SCENE_FORMAT.md,
"Collisions"): the normal components of the two velocities follow the
one-dimensional formula with restitution e, the tangential ones are kept.
Written with inverse masses, that is one impulse along the normal:

    J = (1 + e) (u_i - u_j) / (1/m_i + 1/m_j),   v_i -= J n / m_i,   v_j += J n / m_j

(u the normal components, n from i to j; a fixed body has 1/m = 0).

Whether a slow approach is an impact or a resting contact (no bounce) is
`pair_resting_speed`'s: the end of a step, where resting contacts are
settled, is `resting`'s.
"""

from __future__ import annotations

import math

from ..compiled import jit as _jit, lent
from .motion import move
from .schedule import APPROACH
from .walls import resting_speed


@_jit(inline=True)
def normal(b, i, j):
    """The unit normal from body i to body j (+x where the centres coincide) and the distance."""
    dx = b.pos[j, 0] - b.pos[i, 0]
    dy = b.pos[j, 1] - b.pos[i, 1]
    dist = math.sqrt(dx * dx + dy * dy)
    if dist > 0.0:
        return dx / dist, dy / dist, dist
    return 1.0, 0.0, dist


@_jit(inline=True)
def pair_resting_speed(b, i, j, nx, ny, span, held, loaded):
    """An approach of i and j along n (from i to j) no faster than this is a resting contact:
    what their summed accelerations add to it in one step.

    - Where one of them is ``held`` up (it rests on something) and one of them carries
      others (``loaded``, `supports._loaded`: another body is pressed into it, or it touches one
      that carries others), each one's own summed acceleration counts, whatever its
      direction: the load pressed on it from above may push it sideways.
    - Where one of them is ``held`` up (it rests on something) and neither carries
      anything, each one's own summed acceleration counts as far as it presses it towards
      the other: two balls side by side on a floor meet as an impact, however slowly.
    - Between two bodies in free flight, the difference of what moves them counts (two
      balls falling side by side collide as they would without gravity)."""
    if held and loaded:
        return resting_speed(math.hypot(b.pull[i, 0], b.pull[i, 1]) + math.hypot(b.pull[j, 0], b.pull[j, 1]), span)
    if held:
        return resting_speed(max(b.pull[i, 0] * nx + b.pull[i, 1] * ny, 0.0)
                             + max(-(b.pull[j, 0] * nx + b.pull[j, 1] * ny), 0.0), span)
    return resting_speed(math.hypot(b.acc[i, 0] - b.acc[j, 0], b.acc[i, 1] - b.acc[j, 1]), span)


@_jit(inline=True)
def _impulse(b, i, j, nx, ny, e, wi, wj):
    """The 1D formula with restitution ``e`` along n (inverse masses ``wi``, ``wj``)."""
    closing = (b.vel[i, 0] - b.vel[j, 0]) * nx + (b.vel[i, 1] - b.vel[j, 1]) * ny
    jn = (1.0 + e) * closing / (wi + wj)
    b.vel[i, 0] -= jn * wi * nx
    b.vel[i, 1] -= jn * wi * ny
    b.vel[j, 0] += jn * wj * nx
    b.vel[j, 1] += jn * wj * ny


@_jit
def _write(log, logged, t, i, j, nx, ny, b):
    """Write a collision to the log (while there is room); returns the new count."""
    log, b = lent(log), lent(b)  # (arguments: see `compiled.lent`)
    if logged < len(log.times):
        log.pairs[logged, 0], log.pairs[logged, 1] = i, j
        log.vectors[logged, 0, 0], log.vectors[logged, 0, 1] = nx, ny
        log.vectors[logged, 1, 0], log.vectors[logged, 1, 1] = b.vel[i, 0], b.vel[i, 1]
        log.vectors[logged, 2, 0], log.vectors[logged, 2, 1] = b.vel[j, 0], b.vel[j, 1]
        log.times[logged] = t
    return logged + 1


@_jit
def _write_after(log, k, i, j, b):
    """Complete the log's row ``k`` (if it had room) with v_i and v_j after the collision."""
    log, b = lent(log), lent(b)  # (arguments: see `compiled.lent`)
    if k < len(log.times):
        log.vectors[k, 3, 0], log.vectors[k, 3, 1] = b.vel[i, 0], b.vel[i, 1]
        log.vectors[k, 4, 0], log.vectors[k, 4, 1] = b.vel[j, 0], b.vel[j, 1]


@_jit(inline=True)
def respond(b, i, j, nx, ny, e, span, t, log, logged, held, loaded):
    """Resolve bodies i and j, touching along n: if they close in, the 1D formula with
    restitution ``e`` (an impact, logged at ``t``) or with none (a resting contact; see
    `pair_resting_speed` for ``held`` and ``loaded``). Returns whether they closed in, and the log's count."""
    wi, wj = b.inv_mass[i], b.inv_mass[j]
    closing = (b.vel[i, 0] - b.vel[j, 0]) * nx + (b.vel[i, 1] - b.vel[j, 1]) * ny
    resting = pair_resting_speed(b, i, j, nx, ny, span, held, loaded)
    if not closing > APPROACH or wi + wj == 0.0:
        return False, logged
    if closing > resting:
        logged = _write(log, logged, t, i, j, nx, ny, b)
        _impulse(b, i, j, nx, ny, e, wi, wj)
        _write_after(log, logged - 1, i, j, b)
    else:
        _impulse(b, i, j, nx, ny, 0.0, wi, wj)
    return True, logged


@_jit(inline=True)
def collide(b, i, j, t, rules, log, logged, held, loaded):
    """Move bodies i and j to ``t``, when they touch, and resolve their contact there
    (``held``, ``loaded``: whether one of them rested on something, or carried others, as
    the step began; see `pair_resting_speed`). Returns whether they collided, and the
    log's count."""
    move(b, i, t, rules.method)
    move(b, j, t, rules.method)
    nx, ny, _ = normal(b, i, j)
    return respond(b, i, j, nx, ny, rules.e, rules.end - rules.start, t, log, logged, held, loaded)
