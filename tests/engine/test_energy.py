"""Energy and momentum totals against the textbook: free fall, an elastic bounce, an
inelastic collision, fixed bodies, bodies that do not feel gravity, no box, slanted g."""

import math

import numpy as np
import pytest

from classroom_sim import Body, World, commands, energy

G = 9.81


def test_a_dropped_ball_trades_potential_for_kinetic_energy_and_keeps_the_sum():
    m, r, h = 2.0, 0.1, 5.0
    w = World(gravity=(0.0, -G), bounds=(0.0, 0.0, 4.0, 10.0))
    w.add_body(Body("ball", m, r, (2.0, r + h)))
    e0 = energy(w.snapshot())
    assert e0.total_potential == pytest.approx(m * G * h, rel=1e-12)
    assert e0.total_kinetic == 0.0
    t = 0.6
    w.advance_to(t)
    e = energy(w.snapshot())
    assert e.total_kinetic == pytest.approx(0.5 * m * (G * t) ** 2, rel=1e-12)
    assert e.total_potential == pytest.approx(m * G * (h - 0.5 * G * t * t), rel=1e-12)
    assert e.total_momentum == pytest.approx((0.0, -m * G * t), rel=1e-12)
    assert e.total == pytest.approx(m * G * h, rel=1e-12)


def test_an_elastic_ball_bouncing_in_a_box_keeps_its_total():
    m, r, h = 1.0, 0.1, 2.0
    w = World(gravity=(0.0, -G), bounds=(0.0, 0.0, 4.0, 10.0), restitution=1.0, wall_restitution=1.0)
    w.add_body(Body("ball", m, r, (1.0, r + h), (1.5, 0.0)))
    for _ in range(600):  # 5 s: several bounces off the floor and the walls
        w.step(1 / 120)
        assert energy(w.snapshot()).total == pytest.approx(m * G * h + 0.5 * m * 1.5**2, rel=1e-9)


def test_an_inelastic_collision_loses_what_the_textbook_says_and_keeps_momentum():
    m1, m2, u1, u2, e = 1.0, 3.0, 4.0, -1.0, 0.5
    w = World(gravity=(0.0, 0.0), restitution=e)
    w.add_body(Body("a", m1, 0.1, (0.0, 0.0), (u1, 0.0)))
    w.add_body(Body("b", m2, 0.1, (1.0, 0.0), (u2, 0.0)))
    before = energy(w.snapshot())
    w.advance_to(1.0)
    after = energy(w.snapshot())
    mu = m1 * m2 / (m1 + m2)
    assert before.total - after.total == pytest.approx(0.5 * mu * (1 - e * e) * (u1 - u2) ** 2, rel=1e-9)
    assert after.total_momentum == pytest.approx(before.total_momentum, abs=1e-12)
    assert before.total_momentum == pytest.approx((m1 * u1 + m2 * u2, 0.0))


def test_fixed_bodies_count_for_nothing_and_a_body_without_gravity_has_no_potential():
    w = World(gravity=(0.0, -G), bounds=(0.0, 0.0, 10.0, 10.0))
    w.add_body(Body("post", "fixed", 0.5, (5.0, 5.0)))
    w.add_body(Body("floater", 2.0, 0.1, (1.0, 4.1), (0.0, 3.0)))
    commands.SetBodyGravity("floater", False).apply(w)
    e = energy(w.snapshot())
    assert e.kinetic.tolist() == [0.0, 9.0]
    assert e.potential.tolist() == [0.0, 0.0]
    assert e.total_momentum == (0.0, 6.0)


def test_without_a_box_the_potential_counts_from_where_each_body_started():
    m, v = 1.5, (3.0, 4.0)
    w = World(gravity=(0.0, -G))
    w.add_body(Body("shot", m, 0.1, (7.0, 2.0), v))
    start = w.snapshot().positions.copy()
    assert energy(w.snapshot(), start).total_potential == 0.0
    w.advance_to(v[1] / G)  # the apex
    e = energy(w.snapshot(), start)
    assert e.total_potential == pytest.approx(0.5 * m * v[1] ** 2, rel=1e-12)
    assert e.total_kinetic == pytest.approx(0.5 * m * v[0] ** 2, rel=1e-12)


def test_slanted_gravity_measures_height_from_the_box_s_lowest_corner():
    g = (G / math.sqrt(2), -G / math.sqrt(2))  # down and to the right: (10, 0) is lowest
    w = World(gravity=g, bounds=(0.0, 0.0, 10.0, 10.0))
    w.add_body(Body("b", 1.0, 0.2, (4.0, 3.0)))
    along = ((10.0 - 4.0) - (0.0 - 3.0)) / math.sqrt(2)  # from the body up to the corner, against g
    e = energy(w.snapshot())
    assert e.total_potential == pytest.approx(G * (along - 0.2), rel=1e-12)
    assert np.isfinite(e.total)
