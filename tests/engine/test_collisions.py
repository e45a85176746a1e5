"""Collisions against the textbook: the 1D formula in the tilted frame, conservation,
Newton's cradle, tunnelling, walls, separation."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from classroom_sim import Body, World
from classroom_sim.accelerations import ConstantAcceleration


def one_d(m1, m2, u1, u2, e):
    """SCENE_FORMAT.md's formula, written out as a textbook states it."""
    v1 = (m1 * u1 + m2 * u2 + m2 * e * (u2 - u1)) / (m1 + m2)
    v2 = (m1 * u1 + m2 * u2 + m1 * e * (u1 - u2)) / (m1 + m2)
    return v1, v2


def run_until_apart(w, t=3.0, dt=1 / 240):
    for _ in range(int(round(t / dt))):
        w.step(dt)


@pytest.mark.parametrize("m1, m2", [(1.0, 1.0), (1.0, 3.0), (5.0, 1.0), (0.01, 100.0), (2.5, 0.4)])
@pytest.mark.parametrize("e", [1.0, 0.75, 0.3, 0.0])
@pytest.mark.parametrize("angle", [0.0, 0.7, 2.4])
def test_one_dimensional_formula_along_a_tilted_line(m1, m2, e, angle):
    """Head-on along a line at ``angle``, both also drifting across it at the same speed."""
    n = np.array([math.cos(angle), math.sin(angle)])
    tang = np.array([-n[1], n[0]])
    u1, u2, drift = 3.0, -1.0, 0.4
    w = World(gravity=(0.0, 0.0), restitution=e)
    w.add_body(Body("A", m1, 0.2, -1.0 * n, u1 * n + drift * tang))
    w.add_body(Body("B", m2, 0.3, 1.0 * n, u2 * n + drift * tang))
    p_before = m1 * w.body("A").velocity + m2 * w.body("B").velocity
    run_until_apart(w, 1.0)
    v1, v2 = one_d(m1, m2, u1, u2, e)
    a, b = w.body("A").velocity, w.body("B").velocity
    assert a @ n == pytest.approx(v1, abs=1e-12)
    assert b @ n == pytest.approx(v2, abs=1e-12)
    assert a @ tang == pytest.approx(drift, abs=1e-12)
    assert b @ tang == pytest.approx(drift, abs=1e-12)
    assert m1 * a + m2 * b == pytest.approx(p_before, abs=1e-12)


@pytest.mark.parametrize("e", [1.0, 0.6, 0.0])
def test_each_oblique_collision_follows_the_formula_in_its_own_frame(e):
    """Random oblique collisions: every velocity change lies along the line of centres,
    follows the 1D formula there, and keeps the tangential parts."""
    rng = np.random.default_rng(11)
    hits = 0
    for trial in range(30):
        m1, m2 = rng.uniform(0.1, 10.0, 2)
        w = World(gravity=(0.0, 0.0), restitution=e)
        w.add_body(Body("A", m1, 0.2, (0.0, 0.0), (rng.uniform(1, 4), rng.uniform(-1, 1))))
        w.add_body(Body("B", m2, 0.25, (2.0, rng.uniform(-0.3, 0.3)), (rng.uniform(-2, 0), rng.uniform(-1, 1))))
        w.collision_report = []
        before = w.body("A").velocity, w.body("B").velocity
        run_until_apart(w, 2.0)
        assert len(w.collision_report) <= 1, trial
        if not w.collision_report:
            continue  # these two missed each other
        hits += 1
        _, _, _, n, va, vb = w.collision_report[0][:6]
        assert np.array_equal(va, before[0]) and np.array_equal(vb, before[1])
        tang = np.array([-n[1], n[0]])
        v1, v2 = one_d(m1, m2, va @ n, vb @ n, e)
        a, b = w.body("A").velocity, w.body("B").velocity
        assert a @ n == pytest.approx(v1, abs=1e-12)
        assert b @ n == pytest.approx(v2, abs=1e-12)
        assert a @ tang == pytest.approx(va @ tang, abs=1e-12)
        assert b @ tang == pytest.approx(vb @ tang, abs=1e-12)
    assert hits >= 15


def test_equal_mass_glancing_elastic_collision_leaves_at_right_angles():
    w = World(gravity=(0.0, 0.0))
    w.add_body(Body("A", 1.5, 0.25, (0.0, 0.0), (4.0, 0.0)))
    w.add_body(Body("B", 1.5, 0.25, (3.0, 0.3), (0.0, 0.0)))  # impact parameter 0.3 of 0.5
    snap0 = w.snapshot()
    run_until_apart(w, 2.0)
    a, b = w.body("A").velocity, w.body("B").velocity
    assert np.linalg.norm(a) > 0.5 and np.linalg.norm(b) > 0.5
    assert a @ b == pytest.approx(0.0, abs=1e-12)
    snap = w.snapshot()
    assert snap.momentum == pytest.approx(snap0.momentum, abs=1e-12)
    assert snap.kinetic_energy == pytest.approx(snap0.kinetic_energy, rel=1e-13)


@pytest.mark.parametrize("from_left", [True, False])
def test_newtons_cradle_passes_the_whole_velocity_along(from_left):
    w = World(gravity=(0.0, 0.0))
    r, v = 0.1, 1.5
    for k in range(5):
        w.add_body(Body(f"b{k}", 1.0, r, (1.0 + 2 * r * k, 0.0)))
    if from_left:
        w.add_body(Body("striker", 1.0, r, (0.0, 0.0), (v, 0.0)))
        leaver, sign = "b4", 1.0
    else:
        w.add_body(Body("striker", 1.0, r, (3.0, 0.0), (-v, 0.0)))
        leaver, sign = "b0", -1.0
    run_until_apart(w, 1.5)
    for body in w.bodies:
        expected = [sign * v, 0.0] if body.name == leaver else [0.0, 0.0]
        assert body.velocity == pytest.approx(expected, abs=1e-12), body.name


def test_elastic_gas_conserves_energy_and_stays_in_the_box():
    rng = np.random.default_rng(3)
    side, r = 4.0, 0.08
    w = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, side, side))
    grid = [(x, y) for x in np.arange(0.2, side - 0.1, 0.25) for y in np.arange(0.2, side - 0.1, 0.25)]
    for k, i in enumerate(rng.choice(len(grid), 200, replace=False)):
        speed, angle = rng.uniform(0.5, 3.0), rng.uniform(0, 2 * math.pi)
        w.add_body(Body(f"g{k}", rng.uniform(0.5, 2.0), r, grid[i], (speed * math.cos(angle), speed * math.sin(angle))))
    report = w.collision_report = []
    ke0 = w.snapshot().kinetic_energy
    for _ in range(2400):  # 10 s
        w.step(1 / 240)
        pos = w.snapshot().positions
        assert np.all(pos >= r - 1e-12) and np.all(pos <= side - r + 1e-12)
    assert len(report) > 500  # it really is a gas
    assert w.snapshot().kinetic_energy == pytest.approx(ke0, rel=1e-9)


def test_a_300_m_s_ball_bounces_back_off_a_small_fixed_ball():
    w = World(gravity=(0.0, 0.0))
    w.add_body(Body("bullet", 0.01, 0.02, (0.0, 0.0), (300.0, 0.0)))
    w.add_body(Body("post", "fixed", 0.1, (3.0, 0.0)))
    for _ in range(30):
        w.step(1 / 60)
    assert w.body("bullet").velocity == pytest.approx([-300.0, 0.0])
    assert w.body("bullet").position[0] < 3.0 - 0.12
    assert np.array_equal(w.body("post").position, [3.0, 0.0])


def test_fast_bodies_never_pass_through_each_other_or_a_wall():
    w = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, 2.0, 2.0))
    w.add_body(Body("a", 1.0, 0.01, (0.1, 1.0), (500.0, 0.0)))
    w.add_body(Body("b", 1.0, 0.01, (1.9, 1.0), (-700.0, 0.0)))
    for _ in range(60):
        w.step(1 / 30)
        assert w.body("a").position[0] < w.body("b").position[0]
        for body in w.bodies:
            assert 0.01 <= body.position[0] <= 1.99


@settings(deadline=None)
@given(st.floats(0.005, 0.2), st.floats(0.005, 0.2), st.floats(0.1, 10.0), st.floats(0.1, 10.0),
       st.floats(0.0, 2 * math.pi), st.floats(-0.8, 0.8), st.floats(0.05, 0.95),
       st.sampled_from([0.0, -9.81, -400.0]), st.sampled_from([1 / 240, 1 / 60, 1 / 30]),
       st.floats(-30.0, 30.0), st.floats(-30.0, 30.0), st.sampled_from(["kinematic", "semi-implicit-euler", "euler"]),
       st.data())
def test_balls_whose_paths_cross_within_a_step_collide_in_it(r1, r2, m1, m2, angle, aim, when, g, dt, vx, vy,
                                                           integrator, data):
    """However fast: two balls under the same gravity move in a straight line relative
    to each other; if that line takes them well within reach of each other inside a
    step, they collide in that step instead of passing through each other.

    (Well within: 0.8 of the sum of radii from centre to centre at most. A pair is
    seen by the time it has moved on by the smaller radius after touching; a
    grazing one may be past its closest approach by then, and is only pushed apart.)"""
    reach = r1 + r2
    least = 1.5 * reach / (when * dt)  # apart at the start
    speed = data.draw(st.floats(least, max(2000.0, 4 * least)))
    u = speed * np.array([math.cos(angle), math.sin(angle)])
    across = np.array([-math.sin(angle), math.cos(angle)])
    w = World(gravity=(0.0, g), integrator=integrator)
    w.add_body(Body("a", m1, r1, (0.0, 0.0), (vx, vy)))
    # b, relative to a, passes aim * reach from its centre at when * dt
    w.add_body(Body("b", m2, r2, -u * when * dt + aim * reach * across, (vx + u[0], vy + u[1])))
    w.collision_report = []
    w.step(dt)
    assert [(a, b) for _, a, b, *_ in w.collision_report] == [("a", "b")]


def test_a_ball_turned_round_within_a_step_hits_the_one_behind_it():
    """The ball behind is no threat until the bullet bounces off the post, within the
    same 1/60 s step: it must then be checked finely too, not passed through.
    Equal masses, elastic: the bullet stops and the ball behind leaves at 200 m/s."""
    w = World(gravity=(0.0, 0.0))
    w.add_body(Body("bullet", 1.0, 0.05, (0.0, 0.0), (200.0, 0.0)))
    w.add_body(Body("post", "fixed", 0.05, (0.5, 0.0)))
    w.add_body(Body("behind", 1.0, 0.05, (-0.3, 0.0)))
    w.step(1 / 60)
    # bounce at 0.002 s, hit at 0.005 s, then 1/60 - 0.005 s at 200 m/s; a contact
    # is seen at the end of the part it falls in, where the two may have moved up
    # to the smaller radius (5 cm) into each other, and pushed apart then
    assert w.body("bullet").velocity == pytest.approx([0.0, 0.0], abs=1e-9)
    assert w.body("behind").velocity == pytest.approx([-200.0, 0.0])
    assert w.body("bullet").position[0] == pytest.approx(-0.2, abs=0.1)
    assert w.body("behind").position[0] == pytest.approx(-0.3 - 200.0 * (1 / 60 - 0.005), abs=0.1)

def test_coincident_centres_separate_along_x_without_nan():
    w = World(gravity=(0.0, 0.0))
    w.add_body(Body("A", 1.0, 0.2, (1.0, 1.0)))
    w.add_body(Body("B", 1.0, 0.3, (1.0, 1.0)))
    w.add_body(Body("P", "fixed", 0.5, (5.0, 5.0)))
    w.add_body(Body("Q", 1.0, 0.5, (5.0, 5.0)))
    w.step(0.01)
    snap = w.snapshot()
    assert np.all(np.isfinite(snap.positions)) and np.all(np.isfinite(snap.velocities))
    assert snap.positions[0] == pytest.approx([0.75, 1.0])
    assert snap.positions[1] == pytest.approx([1.25, 1.0])
    assert np.array_equal(snap.positions[2], [5.0, 5.0])  # a fixed body moves nothing
    assert snap.positions[3] == pytest.approx([6.0, 5.0])


def test_overlapping_bodies_are_pushed_apart_half_the_overlap_each():
    w = World(gravity=(0.0, 0.0))
    w.add_body(Body("A", 1.0, 0.5, (0.0, 0.0)))
    w.add_body(Body("B", 9.0, 0.5, (0.6, 0.8)))  # 1.0 apart along (0.6, 0.8): overlap 0 ... move closer
    w.body("B").position = (0.3, 0.4)  # distance 0.5, overlap 0.5
    w.step(0.001)
    assert w.body("A").position == pytest.approx([-0.15, -0.2])
    assert w.body("B").position == pytest.approx([0.45, 0.6])
    assert np.array_equal(w.body("A").velocity, [0.0, 0.0])  # not approaching: no impulse


def test_fixed_body_is_a_wall_of_infinite_mass():
    w = World(gravity=(0.0, 0.0), restitution=0.5)
    w.add_body(Body("ball", 2.0, 0.2, (0.0, 0.0), (4.0, 0.0)))
    w.add_body(Body("block", "fixed", 0.3, (2.0, 0.0)))
    run_until_apart(w, 1.0)
    assert w.body("ball").velocity == pytest.approx([-2.0, 0.0])  # u' = -e u
    assert np.array_equal(w.body("block").velocity, [0.0, 0.0])


def test_elastic_ball_bouncing_on_the_floor_keeps_its_energy():
    g = 9.81
    w = World(gravity=(0.0, -g), bounds=(0.0, 0.0, 4.0, 10.0))
    w.add_body(Body("ball", 1.0, 0.5, (2.0, 8.0)))
    energy = g * 8.0
    top = 0.0
    for _ in range(60 * 12):
        w.step(1 / 60)
        y, vy = w.body("ball").position[1], w.body("ball").velocity[1]
        assert 0.5 * vy * vy + g * y == pytest.approx(energy, rel=1e-9)
        top = max(top, y)
    assert top == pytest.approx(8.0, abs=0.01)  # back to the drop height (sampled at 60 Hz)


@pytest.mark.parametrize("e", [0.0, 0.5])
def test_inelastic_walls_and_resting_on_the_floor(e):
    w = World(gravity=(0.0, -9.81), bounds=(0.0, 0.0, 4.0, 10.0), wall_restitution=e)
    w.add_body(Body("ball", 1.0, 0.5, (2.0, 3.0), (0.0, -2.0)))
    for _ in range(60 * 20):
        w.step(1 / 60)
    assert w.body("ball").position[1] == pytest.approx(0.5, abs=1e-6)
    assert abs(w.body("ball").velocity[1]) < 0.1


def test_collision_report_lists_each_collision_with_the_velocities_before():
    w = World(gravity=(0.0, 0.0))
    w.add_body(Body("A", 1.0, 0.1, (0.0, 0.0), (1.0, 0.0)))
    w.add_body(Body("B", 2.0, 0.1, (1.0, 0.0)))
    w.collision_report = []
    run_until_apart(w, 2.0)
    assert len(w.collision_report) == 1
    t, a, b, normal, va, vb = w.collision_report[0][:6]
    assert (a, b) == ("A", "B") and 0.7 < t < 0.85
    assert normal == pytest.approx([1.0, 0.0]) and va == pytest.approx([1.0, 0.0]) and vb == pytest.approx([0.0, 0.0])


def test_collision_report_names_the_pair_in_file_order():
    """B comes first in the file but sits to the right of A, which hits it (C, far
    away, puts a cell boundary of the broad phase between them: the engine meets
    them in the other order)."""
    w = World(gravity=(0.0, 0.0))
    w.add_body(Body("B", 2.0, 0.1, (1.0, 0.0)))
    w.add_body(Body("A", 1.0, 0.1, (0.0, 0.0), (1.0, 0.0)))
    w.add_body(Body("C", 1.0, 0.1, (-10.0, 0.0)))
    w.collision_report = []
    run_until_apart(w, 2.0)
    assert len(w.collision_report) == 1
    _, a, b, normal, va, vb = w.collision_report[0][:6]
    assert (a, b) == ("B", "A")
    assert normal == pytest.approx([-1.0, 0.0]) and va == pytest.approx([0.0, 0.0]) and vb == pytest.approx([1.0, 0.0])


def test_settings_edited_between_steps_take_effect_at_the_next_step():
    """Restitution, the walls' restitution and the box changed after the World has stepped
    (the step keeps what it takes of the settings until an edit): the next collisions
    follow the new values."""
    w = World(gravity=(0.0, 0.0), bounds=(-10.0, -10.0, 10.0, 10.0), restitution=1.0, wall_restitution=1.0)
    w.add_body(Body("a", 1.0, 0.5, (-3.0, 0.0), (2.0, 0.0)))
    w.add_body(Body("b", 3.0, 0.5, (3.0, 0.0), (-1.0, 0.0)))
    w.add_body(Body("c", 1.0, 0.5, (0.0, 5.0), (0.0, 2.0)))
    run_until_apart(w, 0.5)  # (a and b close in, c flies up; nothing has met yet)
    w.restitution = 0.25
    w.wall_restitution = 0.5
    w.bounds = (-10.0, -10.0, 10.0, 7.0)  # c now meets the top wall at y = 6.5
    run_until_apart(w, 3.0)
    v = w.snapshot().velocities
    assert np.allclose(v[:2, 0], one_d(1.0, 3.0, 2.0, -1.0, 0.25), atol=1e-9)
    assert math.isclose(v[2, 1], -0.5 * 2.0, abs_tol=1e-9)


@pytest.mark.parametrize("e", [1.0, 0.5])
@pytest.mark.parametrize("speed", [0.01, 0.05])  # (slower than 2 g dt = 0.082 m/s)
def test_a_slow_collision_along_the_floor_keeps_its_restitution(e, speed):
    """Two balls resting on the floor under gravity meet side by side at a few cm/s, slower
    than what gravity adds in a step: gravity presses neither towards the other, so it is
    an impact (the 1D formula with e), not a resting contact."""
    r, g = 0.1, 9.81
    w = World(gravity=(0.0, -g), bounds=(0.0, 0.0, 4.0, 2.0), restitution=e, wall_restitution=e)
    w.add_body(Body("a", 1.0, r, (1.0, r), (speed, 0.0)))
    w.add_body(Body("b", 3.0, r, (1.5, r)))
    run_until_apart(w, 0.5 / speed)  # (they meet after 0.3 / speed s)
    v = w.snapshot().velocities
    assert np.allclose(v[:, 0], one_d(1.0, 3.0, speed, 0.0, e), rtol=0, atol=1e-9)
    assert np.abs(v[:, 1]).max() < 1e-9  # (still resting on the floor)


@pytest.mark.parametrize("speed", [0.01, 0.03])  # (slower than g dt = 0.041 m/s)
def test_a_slow_ball_sliding_into_a_wall_along_the_floor_bounces(speed):
    """A ball resting on the floor slides into the side wall at a few cm/s: gravity does
    not press it into that wall, so it bounces with the walls' restitution."""
    r, e = 0.1, 0.5
    w = World(gravity=(0.0, -9.81), bounds=(0.0, 0.0, 4.0, 2.0), restitution=e, wall_restitution=e)
    w.add_body(Body("c", 1.0, r, (3.5, r), (speed, 0.0)))  # 0.4 m from the right wall
    run_until_apart(w, 0.5 / speed)
    assert math.isclose(w.snapshot().velocities[0, 0], -e * speed, abs_tol=1e-9)


@pytest.mark.parametrize("e", [1.0, 0.5])
def test_a_slow_collision_in_free_fall_keeps_its_restitution(e):
    """Two balls falling together, one above the other, the upper one catching up at 5 cm/s
    (slower than what gravity adds in a step): falling alike, neither carries the other,
    so it is an impact along the vertical, the 1D formula with e (relative to the fall)."""
    r, g, u = 0.1, 9.81, 0.05
    w = World(gravity=(0.0, -g), restitution=e)
    w.add_body(Body("low", 1.0, r, (0.0, 0.0)))
    w.add_body(Body("high", 2.0, r, (0.0, 2 * r + 1e-4), (0.0, -u)))
    run_until_apart(w, 0.05)
    fall = -g * w.time
    v = w.snapshot().velocities
    assert np.allclose(v[:, 1] - fall, one_d(1.0, 2.0, 0.0, -u, e), rtol=0, atol=1e-9)


def test_a_row_pushed_against_a_wall_stands_still_without_impacts():
    """Five balls in a row on the floor, against the right wall, the last one pushed by
    its own thrust (2 m/s²): each ball passes the push on to the next, so every contact
    of the row is a resting one; standing, it logs no collision and does not creep."""
    r, dt = 0.1, 1 / 240
    w = World(gravity=(0.0, -9.81), bounds=(0.0, 0.0, 2.0, 1.0), restitution=1.0, wall_restitution=1.0)
    for k in range(5):
        push = [ConstantAcceleration("thrust", (2.0, 0.0))] if k == 4 else []
        w.add_body(Body(f"b{k}", 1.0, r, (2.0 - r - 2 * r * k, r), accelerations=push))
    run_until_apart(w, 5.0)
    w.collision_report = []
    for _ in range(240):
        w.step(dt)
        assert np.linalg.norm(w.snapshot().velocities, axis=1).max() < 1e-3
    assert w.collision_report == []
    assert w.degraded == {"contacts": 0, "passes": 0, "log": 0}


@pytest.mark.parametrize("carrying", [False, True])
def test_a_slow_ball_bounces_off_a_fixed_peg_whatever_rests_on_the_peg(carrying):
    """A ball sliding along the floor at 1 cm/s into a fixed peg bounces back at -e u, with
    or without a ball balanced on the peg: what rests on a fixed body cannot move it."""
    r, u = 0.1, 0.01
    w = World(gravity=(0.0, -9.81), bounds=(-5.0, 0.0, 5.0, 2.0), restitution=1.0, wall_restitution=1.0)
    w.add_body(Body("peg", "fixed", r, (0.0, r)))
    if carrying:
        w.add_body(Body("top", 1.0, r, (0.0, 3 * r)))
    w.add_body(Body("ball", 1.0, r, (-2 * r - 0.001, r), (u, 0.0)))
    run_until_apart(w, 0.001 / u + 0.01)
    assert np.allclose(w.snapshot().velocities[-1], (-u, 0.0), rtol=0, atol=1e-9)
