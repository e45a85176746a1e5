"""The three integrators of SCENE_FORMAT.md, one small function each.

Each takes positions (m), velocities (m/s), accelerations (m/s²) and a step
length t (s; a scalar or a column of per-body lengths) and returns the new
positions and velocities. None of them modifies its inputs.
"""

from __future__ import annotations


def kinematic(x, v, a, t):
    """The textbook equations: exact for a constant acceleration.

    >>> kinematic(np.zeros(2), np.array([1.0, 0.0]), np.array([0.0, -10.0]), 2.0)
    (array([  2., -20.]), array([  1., -20.]))
    """
    return x + v * t + 0.5 * a * (t * t), v + a * t


def semi_implicit_euler(x, v, a, t):
    """``v += a t``, then ``x += v t`` with the new velocity."""
    v_new = v + a * t
    return x + v_new * t, v_new


def euler(x, v, a, t):
    """``x += v t`` with the old velocity, then ``v += a t``."""
    return x + v * t, v + a * t


INTEGRATORS = {
    "kinematic": kinematic,
    "semi-implicit-euler": semi_implicit_euler,
    "euler": euler,
}
"""The integrators by the name a scene file uses for them."""
