"""Free flight against the textbook: integrators, acceleration lists, elapsed-time steps."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from classroom_sim import Body, World
from classroom_sim.integrators import euler, kinematic, semi_implicit_euler

G = 9.81


def test_integrator_formulas():
    x, v, a, t = np.array([1.0, -2.0]), np.array([2.0, 0.5]), np.array([3.0, -4.0]), 0.5
    assert np.array_equal(kinematic(x, v, a, t)[0], [1.0 + 1.0 + 0.375, -2.0 + 0.25 - 0.5])
    assert np.array_equal(kinematic(x, v, a, t)[1], [3.5, -1.5])
    assert np.array_equal(semi_implicit_euler(x, v, a, t)[0], [1.0 + 3.5 * 0.5, -2.0 - 1.5 * 0.5])
    assert np.array_equal(semi_implicit_euler(x, v, a, t)[1], [3.5, -1.5])
    assert np.array_equal(euler(x, v, a, t)[0], [2.0, -1.75])
    assert np.array_equal(euler(x, v, a, t)[1], [3.5, -1.5])


@pytest.mark.parametrize("name, expected_y", [
    ("kinematic", 10.0 + 1.0 * 0.5 - 0.5 * G * 0.25),
    ("semi-implicit-euler", 10.0 + (1.0 - G * 0.5) * 0.5),
    ("euler", 10.0 + 1.0 * 0.5),
])
def test_world_applies_the_chosen_integrator_once(name, expected_y):
    w = World(gravity=(0.0, -G), integrator=name)
    w.add_body(Body("A", 1.0, 0.1, (0.0, 10.0), (2.0, 1.0)))
    w.step(0.5)
    assert w.body("A").position == pytest.approx([1.0, expected_y], rel=1e-15, abs=1e-15)
    assert w.body("A").velocity == pytest.approx([2.0, 1.0 - G * 0.5], rel=1e-15)


@given(st.lists(st.floats(1e-5, 0.05), min_size=1, max_size=300), st.floats(-20, 20), st.floats(-20, 20))
def test_free_fall_and_projectile_exact_under_random_steps(steps, vx, vy):
    w = World(gravity=(0.0, -G))
    w.add_body(Body("ball", 1.0, 0.1, (1.0, 50.0), (vx, vy)))
    for dt in steps:
        w.step(dt)
    t = w.time
    assert t == pytest.approx(sum(steps))
    x, y = w.body("ball").position
    assert abs(x - (1.0 + vx * t)) < 1e-9
    assert abs(y - (50.0 + vy * t - 0.5 * G * t * t)) < 1e-9
    assert w.body("ball").velocity == pytest.approx([vx, vy - G * t], abs=1e-9)


def test_projectile_range_and_time_of_flight():
    vx, vy = 12.0, 9.0
    flight = 2 * vy / G
    w = World(gravity=(0.0, -G))
    w.add_body(Body("ball", 1.0, 0.1, (0.0, 0.0), (vx, vy)))
    rng = np.random.default_rng(7)
    while w.time < flight:
        w.step(min(rng.uniform(0.0, 0.03), flight - w.time))
    assert w.body("ball").position == pytest.approx([2 * vx * vy / G, 0.0], abs=1e-9)
    w2 = World(gravity=(0.0, -G))
    w2.add_body(Body("ball", 1.0, 0.1, (0.0, 0.0), (vx, vy)))
    w2.step(vy / G)  # the top of the arc
    assert w2.body("ball").position[1] == pytest.approx(vy * vy / (2 * G), abs=1e-9)


def test_acceleration_lists_sum_with_the_shared_ones_and_opt_out():
    w = World(gravity=(0.0, -G))
    w.add_acceleration("wind", (0.5, 0.0))
    w.add_body(Body("rocket", 1.0, 0.1, (0.0, 0.0), accelerations=[]))
    w.body("rocket").add_acceleration("thrust", (0.0, 2.0))
    w.add_body(Body("probe", 1.0, 0.1, (5.0, 0.0), gravity=False))
    w.body("probe").add_acceleration("thrust", (0.0, 2.0))
    w.add_body(Body("post", "fixed", 0.1, (10.0, 0.0)))
    snap = w.snapshot()
    assert snap.accelerations[0] == pytest.approx([0.5, 2.0 - G])
    assert snap.accelerations[1] == pytest.approx([0.0, 2.0])
    assert np.array_equal(snap.accelerations[2], [0.0, 0.0])
    w.step(2.0)
    assert w.body("rocket").position == pytest.approx([0.5 * 0.5 * 4, 0.5 * (2.0 - G) * 4], abs=1e-12)
    assert w.body("probe").position == pytest.approx([5.0, 4.0], abs=1e-12)
    assert np.array_equal(w.body("post").position, [10.0, 0.0])
    w.body("rocket").remove_acceleration("thrust")
    w.remove_acceleration("wind")
    w.gravity = (0.0, -1.62)
    assert w.snapshot().accelerations[0] == pytest.approx([0.0, -1.62])
    with pytest.raises(KeyError):
        w.body("rocket").remove_acceleration("thrust")


def test_a_free_body_moves_by_one_step_while_others_collide():
    """Semi-implicit Euler makes a split visible: two half steps differ from one step by a t²/2."""
    w = World(gravity=(0.0, -G), integrator="semi-implicit-euler")
    w.add_body(Body("free", 1.0, 0.1, (0.0, 100.0), (1.0, 0.0)))
    w.add_body(Body("fast", 1.0, 0.05, (50.0, 0.0), (300.0, 0.0), gravity=False))
    w.add_body(Body("wall", "fixed", 0.05, (53.0, 0.0)))
    t = 1 / 60
    w.step(t)
    vy = -G * t
    assert w.body("free").position == pytest.approx([t, 100.0 + vy * t], rel=1e-15)
    assert w.body("fast").velocity[0] == -300.0  # while the fast one was split and bounced


def test_step_rejects_bad_lengths():
    w = World()
    for bad in (-1.0, math.nan, math.inf, "1"):
        with pytest.raises(ValueError):
            w.step(bad)


def test_snapshot_is_frozen_and_carries_totals():
    w = World(gravity=(0.0, 0.0))
    w.add_body(Body("A", 2.0, 0.1, (0.0, 0.0), (3.0, 0.0)))
    w.add_body(Body("B", 1.0, 0.1, (5.0, 0.0), (0.0, -4.0)))
    w.add_body(Body("C", "fixed", 0.1, (9.0, 9.0)))
    snap = w.snapshot()
    assert snap.kinetic_energy == pytest.approx(0.5 * 2 * 9 + 0.5 * 1 * 16)
    assert snap.momentum == pytest.approx([6.0, -4.0])
    assert list(snap.fixed) == [False, False, True]
    for arr in (snap.positions, snap.velocities, snap.accelerations, snap.masses, snap.radii, snap.momentum):
        assert not arr.flags.writeable
        with pytest.raises(ValueError):
            arr[0] = 1.0
    w.step(1.0)
    assert snap.positions[0, 0] == 0.0  # a snapshot never changes afterwards
    with pytest.raises(AttributeError):
        snap.time = 5.0


def test_body_checks_its_values():
    with pytest.raises(ValueError, match="fixed body cannot move"):
        Body("A", "fixed", 0.1, (0.0, 0.0), (1.0, 0.0))
    for bad in (dict(mass=-1.0), dict(mass=math.nan), dict(radius=0.0), dict(position=(1.0,)),
                dict(velocity=(math.inf, 0.0)), dict(color="blue"), dict(name="")):
        args = dict(name="A", mass=1.0, radius=0.1, position=(0.0, 0.0)) | bad
        with pytest.raises(ValueError):
            Body(**args)
    w = World(bounds=(0.0, 0.0, 1.0, 1.0))
    w.add_body(Body("A", 1.0, 0.1, (0.5, 0.5)))
    with pytest.raises(ValueError, match="not inside the box"):
        w.body("A").position = (0.05, 0.5)
    with pytest.raises(ValueError, match="used by another body"):
        w.add_body(Body("A", 1.0, 0.1, (0.2, 0.2)))
    w.body("A").mass = "fixed"
    assert w.body("A").fixed and np.array_equal(w.body("A").velocity, [0.0, 0.0])
    with pytest.raises(ValueError, match="fixed body cannot move"):
        w.body("A").velocity = (1.0, 0.0)
