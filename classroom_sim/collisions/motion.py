"""The bodies of a step in one structure, the step's rules in another, and moving a
body along its path.

During a step each body has its own clock: a body that touched something was
moved to that instant, the others are still where the step began. A body is
moved by one integrator step from its clock to where it is wanted.
"""

from __future__ import annotations

from collections import namedtuple

from .. import integrators
from ..compiled import jit as _jit

Bodies = namedtuple("Bodies", "pos vel acc pull radius inv_mass clock")
"""The World's bodies during a step, one row each: ``pos`` (m), ``vel`` (m/s), ``acc``
(m/s², what moves the body this step: its summed acceleration, less what a wall it
rests on holds up), ``pull`` (m/s², its summed acceleration), ``radius`` (m),
``inv_mass`` (1/kg, 0 for a fixed body) and ``clock`` (s, the time it has reached)."""

Rules = namedtuple("Rules", "bounds e e_wall method square start end")
"""What a step follows: ``bounds`` (the box, or empty for none), the restitutions ``e``
(body-body) and ``e_wall``, the integrator's code ``method`` and its ``square`` (c in
x + v s + c a s²), and the step's ``start`` and ``end`` (s)."""

Log = namedtuple("Log", "pairs vectors times")
"""Room for the collisions of a step: ``pairs`` (i, j), ``vectors`` (the normal from i to
j, v_i and v_j before, v_i and v_j after) and ``times`` (s), one row each."""

_kinematic = _jit(integrators.kinematic)
_semi_implicit_euler = _jit(integrators.semi_implicit_euler)
_euler = _jit(integrators.euler)


@_jit
def integrate(method, x, v, a, t):
    """One integrator step of length ``t`` on one axis: the new position and velocity."""
    if method == 0:
        return _kinematic(x, v, a, t)
    if method == 1:
        return _semi_implicit_euler(x, v, a, t)
    return _euler(x, v, a, t)


@_jit(inline=True)
def move(b, i, t, method):
    """Move body ``i`` from its clock to ``t`` by one integrator step."""
    tau = t - b.clock[i]
    if tau > 0.0:
        b.pos[i, 0], b.vel[i, 0] = integrate(method, b.pos[i, 0], b.vel[i, 0], b.acc[i, 0], tau)
        b.pos[i, 1], b.vel[i, 1] = integrate(method, b.pos[i, 1], b.vel[i, 1], b.acc[i, 1], tau)
    b.clock[i] = t


@_jit(inline=True)
def path(b, i, t, square):
    """Body ``i``'s path from ``t`` on, as x(s) = p + v s + c a s² (s from ``t``):
    (px, py, vx, vy, cax, cay), by its integrator from its clock."""
    tau = t - b.clock[i]
    cax, cay = square * b.acc[i, 0], square * b.acc[i, 1]
    return (b.pos[i, 0] + (b.vel[i, 0] + cax * tau) * tau, b.pos[i, 1] + (b.vel[i, 1] + cay * tau) * tau,
            b.vel[i, 0] + 2.0 * cax * tau, b.vel[i, 1] + 2.0 * cay * tau, cax, cay)
