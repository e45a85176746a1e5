"""Time of impact: every contact is resolved at the instant it happens, wherever that
falls within a step, against answers worked out here.

- Oblique collisions of two balls at any speed, touching at a random moment inside a
  step: exit directions and speeds from the geometry of the contact (the line of
  centres n at the impact has sin(angle to the motion) = b / R).
- The collision report's impact time, against the time the analytic paths touch.
- A bounce off a wall mid-step, against the reflected path.
- A body that touches nothing moves by one integrator step, whatever else collides.
- Fuzz: two balls collide exactly when their straight paths touch, and never pass
  through each other; fast balls never end a step outside their box.
"""

import math

import numpy as np
import pytest
from hypothesis import assume, event, example, given, settings
from hypothesis import strategies as st

from classroom_sim import Body, World
from classroom_sim.integrators import INTEGRATORS

from .test_collisions import one_d

R = 1.0  # the sum of the radii of the oblique cases: two balls of 0.5 m


def angle(v):
    return math.atan2(v[1], v[0])


def turn(a, b):
    """The angle (rad, in [0, pi]) between directions a and b (both in rad)."""
    return abs((a - b + math.pi) % (2.0 * math.pi) - math.pi)


def unit(phi):
    return np.array([math.cos(phi), math.sin(phi)])


def run_to(w, end, dt):
    """Step ``w`` by ``dt`` until its clock reaches ``end`` (within rounding) or passes it."""
    while w.time < end - 1e-12:
        w.step(dt)


def oblique(m1, m2, f, u, dt, e=1.0, seed=0):
    """Ball A (m1, r 0.5) moving at u towards ball B (m2, r 0.5) at rest, with impact
    parameter b = f R, along a random direction phi; A starts at least 2 m short of the
    contact, so far that the impact falls at a random moment (2% to 98%) of a step.
    Returns the world, phi, theta (the angle between the motion and the line of centres
    at the impact, sin theta = f), the impact time (a whole number of steps and a
    random fraction of one) and A's place then."""
    rng = np.random.default_rng(seed)
    phi = rng.uniform(0.0, 2.0 * math.pi)
    d, across = unit(phi), unit(phi + 0.5 * math.pi)
    theta = math.asin(f)
    back = u * dt * (math.ceil(2.0 / (u * dt)) + rng.uniform(0.02, 0.98))  # 2 m and a random part of a step
    at_impact = -R * math.cos(theta) * d + f * R * across  # A's centre as it touches B (at the origin)
    w = World(gravity=(0.0, 0.0), restitution=e)
    w.add_body(Body("A", m1, 0.5, at_impact - back * d, u * d))
    w.add_body(Body("B", m2, 0.5, (0.0, 0.0)))
    return w, phi, theta, back / u, at_impact


def assert_direction_and_speed(v, expected, u, what):
    """Within 0.5° of the direction and 0.5% of the speed of ``expected``; a speed
    expected to be (near) zero is checked against 0.5% of u instead, and its direction not."""
    speed = np.linalg.norm(expected)
    if speed > 1e-6 * u:
        assert turn(angle(v), angle(expected)) < math.radians(0.5), what
        assert np.linalg.norm(v) == pytest.approx(speed, rel=0.005), what
    else:
        assert np.linalg.norm(v) < 0.005 * u, what


# ---------------------------------------------------------------------------
# Oblique collisions
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("dt", [1 / 60, 1 / 240])
@pytest.mark.parametrize("u", [1.0, 10.0, 30.0, 100.0, 300.0])
@pytest.mark.parametrize("f", [0.0, 0.3, 0.6, 0.8, 0.9, 0.95, 0.97])
def test_equal_mass_oblique_elastic_collision_exit_angles_and_speeds(f, u, dt):
    """Equal masses, elastic. B leaves along the line of centres n (at angle phi - theta)
    at u cos theta; A leaves at right angles to it (phi - theta + 90°) at u sin theta
    (for f = 0, A stops: its speed is checked against 0.5% of u, its direction not).
    Directions within 0.5°, speeds within 0.5% of the exact speed. Momentum and energy
    kept to 1e-9; the impact logged at its time (1e-9 s); and both balls are where the
    exact exit paths put them (1e-9 m per m/s of u)."""
    w, phi, theta, t_hit, a_hit = oblique(1.0, 1.0, f, u, dt, seed=int(1000 * f + u + 1 / dt))
    w.collision_report = []
    run_to(w, t_hit + 2 * dt, dt)
    assert len(w.collision_report) == 1
    assert (t_hit / dt) % 1.0 == pytest.approx(0.5, abs=0.49)  # the set-up: mid-step, not at a step's end
    assert abs(w.collision_report[0][0] - t_hit) < 1e-9
    a, b = w.body("A").velocity, w.body("B").velocity
    n_angle = phi - theta
    va = u * math.sin(theta) * unit(n_angle + 0.5 * math.pi)
    vb = u * math.cos(theta) * unit(n_angle)
    assert_direction_and_speed(b, vb, u, "B")
    assert_direction_and_speed(a, va, u, "A")
    assert a + b == pytest.approx(u * unit(phi), abs=1e-9 * u)
    assert 0.5 * (a @ a + b @ b) == pytest.approx(0.5 * u * u, rel=1e-9)
    after = w.time - t_hit
    assert w.body("B").position == pytest.approx(vb * after, abs=1e-9 * (1 + u))
    assert w.body("A").position == pytest.approx(a_hit + va * after, abs=1e-9 * (1 + u))


@pytest.mark.parametrize("m1, m2, e, f, u, dt", [
    (1.0, 3.0, 1.0, 0.5, 20.0, 1 / 60),
    (5.0, 1.0, 1.0, 0.8, 300.0, 1 / 60),
    (0.2, 7.0, 1.0, 0.3, 100.0, 1 / 240),
    (2.0, 0.5, 0.6, 0.9, 50.0, 1 / 240),
    (1.0, 4.0, 0.0, 0.6, 10.0, 1 / 60),
])
def test_unequal_mass_oblique_collision_follows_the_formula_along_n(m1, m2, e, f, u, dt):
    """Along n (at phi - theta) the 1D formula (`one_d`) with u cos theta against 0; across
    n, A keeps u sin theta and B none. Directions 0.5°, speeds 0.5% as above (to 1e-9 as
    vectors, too); momentum kept; kinetic energy less the loss of the normal part,
    ½ m1 m2 / (m1 + m2) (1 - e²) (u cos theta)²."""
    w, phi, theta, t_hit, _ = oblique(m1, m2, f, u, dt, e=e, seed=int(m1 * 100 + m2 + u))
    w.collision_report = []
    run_to(w, t_hit + 2 * dt, dt)
    assert len(w.collision_report) == 1
    n, t = unit(phi - theta), unit(phi - theta + 0.5 * math.pi)
    un = u * math.cos(theta)
    v1, v2 = one_d(m1, m2, un, 0.0, e)
    va = v1 * n + u * math.sin(theta) * t
    vb = v2 * n
    a, b = w.body("A").velocity, w.body("B").velocity
    assert_direction_and_speed(a, va, u, "A")
    assert_direction_and_speed(b, vb, u, "B")
    assert a == pytest.approx(va, abs=1e-9 * u) and b == pytest.approx(vb, abs=1e-9 * u)
    assert m1 * a + m2 * b == pytest.approx(m1 * u * unit(phi), abs=1e-9 * m1 * u)
    loss = 0.5 * m1 * m2 / (m1 + m2) * (1 - e * e) * un * un
    assert 0.5 * (m1 * a @ a + m2 * b @ b) == pytest.approx(0.5 * m1 * u * u - loss, rel=1e-9)


# ---------------------------------------------------------------------------
# The impact time in the collision report
# ---------------------------------------------------------------------------

def first_report_time(w, dt, end):
    w.collision_report = []
    run_to(w, end, dt)
    assert len(w.collision_report) >= 1
    return w.collision_report[0][:6]


@pytest.mark.parametrize("g", [0.0, -9.81])
@pytest.mark.parametrize("gap, va, vb, dt", [
    (1.0, 3.0, 0.0, 1 / 60),       # 1/3 s: 20 steps of 1/60 exactly, at a step's end
    (1.0, 3.7, -1.1, 1 / 60),      # 1/4.8 s = 12.5 steps
    (0.37, 250.0, 0.0, 1 / 60),    # within the first step
    (2.5, 0.9, 0.2, 1 / 240),
    (5.0, 170.0, -130.0, 1 / 240),
])
def test_head_on_impact_time_is_gap_over_closing_speed(gap, va, vb, dt, g):
    """Surfaces ``gap`` apart closing at va - vb touch at gap / (va - vb) (under a shared
    gravity too: relative to each other they fly straight), within 1e-9 s."""
    w = World(gravity=(0.0, g))
    w.add_body(Body("A", 1.0, 0.3, (0.0, 5.0), (va, 0.0)))
    w.add_body(Body("B", 2.0, 0.2, (0.5 + gap, 5.0), (vb, 0.0)))
    t_hit = gap / (va - vb)
    t, a, b, normal, v_a, v_b = first_report_time(w, dt, t_hit + 2 * dt)
    assert (a, b) == ("A", "B")
    assert abs(t - t_hit) < 1e-9
    assert normal == pytest.approx([1.0, 0.0], abs=1e-9)
    assert v_a == pytest.approx([va, g * t_hit], abs=1e-9) and v_b == pytest.approx([vb, g * t_hit], abs=1e-9)


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240])
@pytest.mark.parametrize("p, v", [
    ((3.0, 0.4), (-2.0, 0.0)),
    ((-1.3, 2.2), (7.0, -11.0)),
    ((40.0, -3.0), (-290.0, 20.0)),
])
def test_oblique_impact_time_is_the_root_of_the_straight_line_quadratic(p, v, dt):
    """Relative offset p + v t (B from A), radii 0.25 and 0.45: |p + v t| = 0.7 at the
    smaller root of |v|² t² + 2 p·v t + |p|² - 0.7² (here written with the textbook
    formula: no cancellation for these numbers). The normal logged is (p + v t*) / 0.7."""
    p, v, reach = np.array(p), np.array(v), 0.7
    qa, qb, qc = v @ v, 2.0 * p @ v, p @ p - reach * reach
    t_hit = (-qb - math.sqrt(qb * qb - 4 * qa * qc)) / (2 * qa)
    assert t_hit > 0
    w = World(gravity=(0.0, 0.0))
    w.add_body(Body("A", 1.0, 0.25, (1.0, 1.0), (0.5, 0.5)))
    w.add_body(Body("B", 1.0, 0.45, (1.0, 1.0) + p, (0.5, 0.5) + v))
    t, _, _, normal, _, _ = first_report_time(w, dt, t_hit + 2 * dt)
    assert abs(t - t_hit) < 1e-9
    assert normal == pytest.approx((p + v * t_hit) / reach, abs=1e-9)


@pytest.mark.parametrize("y0, offset, dt", [(3.0, 0.0, 1 / 60), (3.0, 0.35, 1 / 60), (1.234, 0.6, 1 / 240)])
def test_impact_time_of_a_ball_falling_onto_a_fixed_one(y0, offset, dt):
    """A relative acceleration (degree 4): a ball (r 0.3) dropped from rest at (offset, y0)
    onto a fixed ball (r 0.4) at the origin touches when its centre is at height
    sqrt(0.7² - offset²): at t = sqrt(2 (y0 - that) / g)."""
    g, reach = 9.81, 0.7
    t_hit = math.sqrt(2 * (y0 - math.sqrt(reach * reach - offset * offset)) / g)
    w = World(gravity=(0.0, -g))
    w.add_body(Body("ball", 1.0, 0.3, (offset, y0)))
    w.add_body(Body("post", "fixed", 0.4, (0.0, 0.0)))
    t, a, b, normal, v_ball, _ = first_report_time(w, dt, t_hit + 2 * dt)
    assert (a, b) == ("ball", "post")
    assert abs(t - t_hit) < 1e-9
    assert (t_hit / dt) % 1.0 == pytest.approx(0.5, abs=0.49)  # the set-up: mid-step
    height = math.sqrt(reach * reach - offset * offset)
    assert normal == pytest.approx([-offset / reach, -height / reach], abs=1e-9)
    assert v_ball == pytest.approx([0.0, -g * t_hit], abs=1e-9)


def test_impact_time_of_a_falling_ball_and_one_rolling_without_gravity():
    """Degree 4 with both moving: ball B (gravity off) slides along y = 0 at 2 m/s from
    x = -1; ball A falls from rest at (0.1, 2.0). Radii 0.2 + 0.3 = 0.5. The impact is the
    first root of (0.1 - (-1 + 2 t))² + (2 - g t²/2)² = 0.5², found here by bisection on
    a fine grid of the exact expression."""
    g = 9.81

    def gap(t):
        return math.hypot(0.1 - (-1.0 + 2.0 * t), 2.0 - 0.5 * g * t * t) - 0.5

    grid = np.linspace(0.0, 1.0, 100001)
    k = next(i for i, t in enumerate(grid) if gap(t) <= 0.0)
    lo, hi = grid[k - 1], grid[k]
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if gap(mid) > 0.0 else (lo, mid)
    t_hit = hi
    w = World(gravity=(0.0, -g))
    w.add_body(Body("A", 1.0, 0.2, (0.1, 2.0)))
    w.add_body(Body("B", 1.0, 0.3, (-1.0, 0.0), (2.0, 0.0), gravity=False))
    t, *_ = first_report_time(w, 1 / 60, t_hit + 2 / 60)
    assert abs(t - t_hit) < 1e-9


# ---------------------------------------------------------------------------
# A wall mid-step
# ---------------------------------------------------------------------------

BOX = (0.0, 0.0, 10.0, 8.0)
DT = 1 / 60


def hit_time(h, u, a):
    """The first t > 0 at which a surface h (> 0) from a wall, moving towards it at u
    (> 0) and accelerated towards it by a (any sign), reaches it: h = u t + a t² / 2,
    the positive root by the formula that does not cancel."""
    return 2.0 * h / (u + math.sqrt(u * u + 2.0 * a * h))


@pytest.mark.parametrize("e", [1.0, 0.7])
@pytest.mark.parametrize("wall", ["left", "right", "bottom", "top"])
def test_bounce_off_a_wall_mid_step_without_gravity(wall, e):
    """50 m/s, 0.3 m from the wall: it reaches it at 0.006 s and comes back at 50 e for the
    rest of the 1/60 s step: 0.5 m (its radius) from the wall plus 50 e (1/60 - 0.006)."""
    r, h, u = 0.5, 0.3, 50.0
    axis = 0 if wall in ("left", "right") else 1
    sign = -1.0 if wall in ("left", "bottom") else 1.0  # the direction of the wall
    limit = BOX[axis] if sign < 0 else BOX[axis + 2]
    pos = np.array([5.0, 4.0])
    pos[axis] = limit - sign * (r + h)
    vel = np.array([3.0, -2.0])  # along the wall: untouched
    vel[axis] = sign * u
    w = World(gravity=(0.0, 0.0), bounds=BOX, wall_restitution=e)
    w.add_body(Body("ball", 1.0, r, pos, vel))
    w.step(DT)
    expected_pos, expected_vel = pos + vel * DT, vel.copy()
    expected_pos[axis] = limit - sign * (r + e * u * (DT - h / u))
    expected_vel[axis] = -sign * e * u
    assert w.body("ball").position == pytest.approx(expected_pos, abs=1e-9)
    assert w.body("ball").velocity == pytest.approx(expected_vel, abs=1e-9)


@pytest.mark.parametrize("e", [1.0, 0.7])
@pytest.mark.parametrize("wall", ["left", "right"])
def test_bounce_off_a_side_wall_mid_step_under_gravity(wall, e):
    """Gravity along y: x is reflected as without it, y follows its parabola untouched."""
    g, r, h, u = 9.81, 0.5, 0.3, 50.0
    sign = -1.0 if wall == "left" else 1.0
    limit = BOX[0] if sign < 0 else BOX[2]
    x0, y0, vy = limit - sign * (r + h), 4.0, 6.0
    w = World(gravity=(0.0, -g), bounds=BOX, wall_restitution=e)
    w.add_body(Body("ball", 1.0, r, (x0, y0), (sign * u, vy)))
    w.step(DT)
    x = limit - sign * (r + e * u * (DT - h / u))
    y = y0 + vy * DT - 0.5 * g * DT * DT
    assert w.body("ball").position == pytest.approx([x, y], abs=1e-9)
    assert w.body("ball").velocity == pytest.approx([-sign * e * u, vy - g * DT], abs=1e-9)


@pytest.mark.parametrize("e", [1.0, 0.7])
@pytest.mark.parametrize("wall", ["bottom", "top"])
def test_bounce_off_floor_or_ceiling_mid_step_under_gravity(wall, e):
    """The parabola reflected on the axis of the wall: 0.3 m from it at 50 m/s towards it,
    gravity -9.81. It reaches the wall at t1 (the root of 0.3 = 50 t ± g t²/2), moving
    at u1 = 50 ± g t1; leaves at e u1; then flies the rest of the step, tau = 1/60 - t1,
    under gravity: y = wall ± (r + e u1 tau ∓ g tau²/2) (upper signs for the floor)."""
    g, r, h, u = 9.81, 0.5, 0.3, 50.0
    down = wall == "bottom"
    a_towards = g if down else -g  # gravity's pull towards the wall
    t1 = hit_time(h, u, a_towards)
    u1 = u + a_towards * t1  # speed into the wall as it reaches it
    tau = DT - t1
    leave = e * u1
    if down:
        y0, vy0 = BOX[1] + r + h, -u
        y = BOX[1] + r + leave * tau - 0.5 * g * tau * tau
        vy = leave - g * tau
    else:
        y0, vy0 = BOX[3] - r - h, u
        y = BOX[3] - r - leave * tau - 0.5 * g * tau * tau
        vy = -leave - g * tau
    w = World(gravity=(0.0, -g), bounds=BOX, wall_restitution=e)
    w.add_body(Body("ball", 1.0, r, (5.0, y0), (1.5, vy0)))
    w.step(DT)
    assert w.body("ball").position == pytest.approx([5.0 + 1.5 * DT, y], abs=1e-9)
    assert w.body("ball").velocity == pytest.approx([1.5, vy], abs=1e-9)


# ---------------------------------------------------------------------------
# A body that touches nothing
# ---------------------------------------------------------------------------

TEXTBOOK = {
    "kinematic": lambda x, v, a, t: x + v * t + 0.5 * a * t * t,
    "semi-implicit-euler": lambda x, v, a, t: x + (v + a * t) * t,
    "euler": lambda x, v, a, t: x + v * t,
}


@pytest.mark.parametrize("integrator", list(TEXTBOOK))
def test_a_body_that_touches_nothing_moves_by_one_integrator_step(integrator):
    """A, B and a fixed post collide in each of the first two steps (A hits B, B bounces
    off the post, then back into A); C is far away and D flies past them close enough to share their
    broad-phase discs but never touches. C and D end each step exactly where one
    integrator step from its start puts them (bit for bit the integrator's own
    function, and the textbook formula to rounding), however the step was split for
    the others."""
    g = np.array([0.0, -9.81])
    dt = 1 / 60
    w = World(gravity=tuple(g), integrator=integrator)
    w.add_body(Body("A", 1.0, 0.1, (0.0, 5.0), (-40.0, 0.0)))
    w.add_body(Body("B", 1.0, 0.1, (-0.5, 5.0), (0.0, 0.0)))
    w.add_body(Body("post", "fixed", 0.1, (-0.9, 5.0)))
    w.add_body(Body("C", 2.0, 0.2, (30.0, -7.0), (3.0, 4.0)))
    w.add_body(Body("D", 1.0, 0.1, (-0.3, 5.6), (25.0, -1.0)))
    w.collision_report = []
    for _ in range(2):
        start = w.time
        before = {name: (w.body(name).position, w.body(name).velocity) for name in ("C", "D")}
        count = len(w.collision_report)
        w.step(dt)
        assert len(w.collision_report) > count  # others collided within this step
        assert all(start < t < w.time for t, *_ in w.collision_report[count:])
        assert all("C" not in pair[1:3] and "D" not in pair[1:3] for pair in w.collision_report)
        tau = w.time - start  # (the engine's own step length: (t + dt) - t)
        for name, (x, v) in before.items():
            body = w.body(name)
            x_new, v_new = INTEGRATORS[integrator](x, v, g, tau)
            assert np.array_equal(body.position, x_new), name
            assert np.array_equal(body.velocity, v_new), name
            assert body.position == pytest.approx(TEXTBOOK[integrator](x, v, g, dt), rel=1e-14, abs=1e-14)


# ---------------------------------------------------------------------------
# Nothing passes through anything
# ---------------------------------------------------------------------------

AIMS = {"head-on": lambda x: 0.0, "oblique": lambda x: 0.97 * x, "miss": lambda x: 1.03 + 2.0 * x}


@settings(max_examples=150, deadline=None)
@given(st.floats(0.05, 0.5), st.floats(0.05, 0.5), st.floats(0.1, 10.0), st.floats(0.1, 10.0),
       st.floats(0.0, 1.0), st.sampled_from([1 / 60, 1 / 240]), st.floats(1.0, 300.0), st.floats(0.0, 2 * math.pi),
       st.sampled_from(sorted(AIMS)), st.floats(0.0, 1.0), st.floats(-1.0, 1.0),
       st.floats(0.0, 1.0), st.floats(-300.0, 300.0), st.floats(-300.0, 300.0), st.integers(1, 12))
def test_two_balls_collide_exactly_when_their_straight_paths_touch(r1, r2, m1, m2, e, dt, speed, heading, kind, x,
                                                                 side, when, vx, vy, steps):
    """No gravity: B's offset from A is p0 + w t, passing aim R from A's centre (R = r1 + r2;
    aim 0 head-on, up to 0.97 oblique, 1.03 to 3.03 a miss).
    It touches (aim < 1) at t* = t_close - sqrt(R² - (aim R)²) / |w|. The test places t*
    at a random moment of the run or beyond it (``when`` from 0 to 1 of steps + 1
    steps). They collide (once) exactly when t* falls within the run, at t*
    (1e-9 s), leaving by the 1D formula along n; they never overlap by more than 1%
    of R at a step's end; head-on (aim 0), B never gets past A along w."""
    reach = r1 + r2
    aim = AIMS[kind](x)
    w_vec = speed * unit(heading)
    across = math.copysign(1.0, side) * unit(heading + 0.5 * math.pi)
    run = steps * dt
    hits = aim < 1.0
    enter = math.sqrt(max(reach * reach - (aim * reach) ** 2, 0.0)) / speed  # from contact to closest approach
    t_star = when * (run + dt)  # the contact, or (for a miss) the closest approach
    t_close = t_star + enter if hits else t_star
    p0 = aim * reach * across - w_vec * t_close
    if np.linalg.norm(p0) < 1.02 * reach:  # they would start touching: push the meeting later
        t_close += 1.05 * reach / speed
        t_star += 1.05 * reach / speed
        p0 = aim * reach * across - w_vec * t_close
    assume(abs(t_star - run) > 1e-9)  # (touching just as the run ends: either way is right)
    va = np.array([vx, vy])
    world = World(gravity=(0.0, 0.0), restitution=e)
    world.add_body(Body("A", m1, r1, (0.0, 0.0), va))
    world.add_body(Body("B", m2, r2, p0, va + w_vec))
    world.collision_report = []
    for _ in range(steps):
        world.step(dt)
        a, b = world.body("A").position, world.body("B").position
        assert np.linalg.norm(b - a) > reach * (1 - 0.01)
        if aim == 0.0:
            assert (b - a) @ w_vec < 0.0  # B still on its own side of A
    report = world.collision_report
    if not (hits and t_star < run):
        event("missed" if not hits else "touch after the run")
        assert report == []
        return
    event("head-on collision" if aim == 0.0 else "oblique collision")
    assert len(report) == 1
    t, name_a, name_b, n, _, _ = report[0][:6]
    assert (name_a, name_b) == ("A", "B")
    assert abs(t - t_star) < 1e-9
    n_exact = (p0 + w_vec * t_star) / reach
    assert n == pytest.approx(n_exact, abs=1e-6)
    v1, v2 = one_d(m1, m2, 0.0, w_vec @ n_exact, e)  # in A's frame before the impact
    tangent = w_vec - (w_vec @ n_exact) * n_exact
    assert world.body("A").velocity == pytest.approx(va + v1 * n_exact, abs=1e-6 * speed)
    assert world.body("B").velocity == pytest.approx(va + v2 * n_exact + tangent, abs=1e-6 * speed)


@st.composite
def boxed_scenes(draw):
    """2 to 6 balls (radii 0.05 to 0.5, speeds up to 300 m/s, any direction) placed apart
    in a 4 m x 3 m box, or without a box."""
    count = draw(st.integers(2, 6))
    side_x, side_y = 4.0, 3.0
    balls = []
    for k in range(count):
        r = draw(st.floats(0.05, 0.5))
        for _ in range(50):
            x = draw(st.floats(r, side_x - r))
            y = draw(st.floats(r, side_y - r))
            if all(math.hypot(x - bx, y - by) > 1.01 * (r + br) for bx, by, br, *_ in balls):
                break
        else:
            continue
        speed = draw(st.floats(0.0, 300.0))
        heading = draw(st.floats(0.0, 2 * math.pi))
        balls.append((x, y, r, draw(st.floats(0.1, 10.0)), speed * math.cos(heading), speed * math.sin(heading)))
    return balls


@settings(max_examples=60, deadline=None)
@given(boxed_scenes(), st.sampled_from([0.0, -9.81]), st.sampled_from([1 / 60, 1 / 240]), st.booleans(),
       st.floats(0.0, 1.0), st.floats(0.0, 1.0))
# (a step cut short left b1 deep in b2, wedged in the corner: the next step's separation
# pushed b1 0.3 m out, into b0, a body it was not paired with, and left them 30% of a
# radius deep)
@example([(1.5, 1.5, 0.5, 1.0, 0.0, 0.0), (1.0, 0.5, 0.5, 3.0, -131.38755294969712, 98.14943163304888),
          (2.0, 2.5, 0.25, 0.125, 0.0, 0.0), (3.5, 1.5, 0.375, 1.0, 0.0, 0.0), (0.25, 2.0, 0.25, 1.0, 0.0, 0.0),
          (3.0, 0.5, 0.5, 1.0, 0.0, 0.0)], 0.0, 1 / 60, True, 0.0, 0.0)
def test_fast_balls_never_end_a_step_outside_their_box_or_deep_in_each_other(balls, g, dt, boxed, e, e_wall):
    """At every step's end: every centre at least its radius inside the box (1e-9 m), and
    no two balls overlapping by more than 1% of the smaller radius, plus, under gravity,
    what a resting contact may close in on in one step, 3 |g| dt² (the settling at a
    step's end does not always undo that: see test_resting.py's
    test_settling_does_not_push_a_body_into_one_it_did_not_touch). Steps that say they
    were cut short (`World.degraded` "contacts") are only held to the box: see
    test_a_corner_collapse_does_not_stop_collisions_elsewhere below."""
    box = (0.0, 0.0, 4.0, 3.0)
    w = World(gravity=(0.0, g), bounds=box if boxed else None, restitution=e, wall_restitution=e_wall)
    for k, (x, y, r, m, vx, vy) in enumerate(balls):
        w.add_body(Body(f"b{k}", m, r, (x, y), (vx, vy)))
    radii = np.array([ball[2] for ball in balls])
    for _ in range(20):
        cut = w.degraded["contacts"]
        w.step(dt)
        pos = w.snapshot().positions
        if boxed:
            assert np.all(pos[:, 0] - radii >= box[0] - 1e-9) and np.all(pos[:, 0] + radii <= box[2] + 1e-9)
            assert np.all(pos[:, 1] - radii >= box[1] - 1e-9) and np.all(pos[:, 1] + radii <= box[3] + 1e-9)
        if w.degraded["contacts"] != cut:
            event("a step was cut short")
            continue
        for i in range(len(balls)):
            for j in range(i + 1, len(balls)):
                overlap = radii[i] + radii[j] - np.linalg.norm(pos[i] - pos[j])
                assert overlap < 0.01 * min(radii[i], radii[j]) + 3 * abs(g) * dt * dt, (i, j, w.time)


@settings(max_examples=40, deadline=None)
@given(st.floats(0.05, 0.5), st.floats(1.0, 300.0), st.floats(0.0, 2 * math.pi), st.floats(0.0, 1.0),
       st.sampled_from([0.0, -9.81]), st.sampled_from([1 / 60, 1 / 240]))
def test_a_lone_fast_ball_stays_inside_its_box(r, speed, heading, e_wall, g, dt):
    """One ball at up to 300 m/s from the middle of a 2 m x 1.5 m box, 60 steps: its centre
    is always at least its radius inside (1e-9 m); with elastic walls and no gravity
    its speed never changes."""
    box = (0.0, 0.0, 2.0, 1.5)
    w = World(gravity=(0.0, g), bounds=box, wall_restitution=e_wall)
    w.add_body(Body("ball", 1.0, r, (1.0, 0.75), speed * unit(heading)))
    for _ in range(60):
        w.step(dt)
        x, y = w.body("ball").position
        assert box[0] + r - 1e-9 <= x <= box[2] - r + 1e-9
        assert box[1] + r - 1e-9 <= y <= box[3] - r + 1e-9
        if e_wall == 1.0 and g == 0.0:
            assert np.linalg.norm(w.body("ball").velocity) == pytest.approx(speed, rel=1e-12)


def test_a_corner_collapse_does_not_stop_collisions_elsewhere():
    """A light ball (0.1 kg) in a corner, hit at 0.002 s by a heavy one (10 kg) along the
    diagonal with e = 0, e_wall 0.25: the light ball bounces between the walls and the
    heavy ball ever more slowly, at one instant, and the step runs into its cap of
    contacts (`stepping.EVENTS_PER_BODY`). Eight metres away, two balls meet head-on at
    0.005 s: they must still collide in that step (e = 0, equal masses: both stop at
    x = 7.5 and 7.7) and not pass through each other."""
    w = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, 10.0, 4.0), restitution=0.0, wall_restitution=0.25)
    d = np.array([1.0, 1.0]) / math.sqrt(2.0)
    w.add_body(Body("light", 0.1, 0.5, (0.5, 0.5)))
    w.add_body(Body("heavy", 10.0, 0.5, np.array([0.5, 0.5]) + 1.04 * d, -20.0 * d))  # touches at 0.04 / 20 s
    w.add_body(Body("left", 1.0, 0.1, (7.0, 2.0), (100.0, 0.0)))
    w.add_body(Body("right", 1.0, 0.1, (8.2, 2.0), (-100.0, 0.0)))  # touch at (1.2 - 0.2) / 200 = 0.005 s
    w.step(1 / 60)
    assert w.body("left").position[0] < w.body("right").position[0]
    # equal masses, e = 0: both stop where they met
    assert w.body("left").velocity == pytest.approx([0.0, 0.0], abs=1e-9)
    assert w.body("right").velocity == pytest.approx([0.0, 0.0], abs=1e-9)
    assert w.body("left").position == pytest.approx([7.5, 2.0], abs=1e-9)
