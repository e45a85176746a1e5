"""Every shipped lesson loads and runs headless; the starter scenes do what their text says."""

import numpy as np
import pytest

from classroom_sim import load_scene
from classroom_sim.cli import lesson_files


def test_the_three_starter_lessons_ship():
    assert {p.stem for p in lesson_files()} >= {"free_fall", "projectile", "collision_1d"}


@pytest.mark.parametrize("path", lesson_files(), ids=lambda p: p.stem)
def test_every_lesson_runs_headless(path):
    w = load_scene(path)
    assert w.lesson.get("lesson", {}).get("title")
    for _ in range(5 * 240):
        w.step(1 / 240)
    snap = w.snapshot()
    assert np.all(np.isfinite(snap.positions)) and np.all(np.isfinite(snap.velocities))
    if w.bounds is not None:
        xmin, ymin, xmax, ymax = w.bounds
        r = snap.radii
        assert np.all(snap.positions[:, 0] >= xmin + r - 1e-9) and np.all(snap.positions[:, 0] <= xmax - r + 1e-9)
        assert np.all(snap.positions[:, 1] >= ymin + r - 1e-9) and np.all(snap.positions[:, 1] <= ymax - r + 1e-9)


def test_free_fall_masses_land_together():
    w = load_scene(next(p for p in lesson_files() if p.stem == "free_fall"))
    heights = {b.name: b.position[1] - b.radius for b in w.bodies}
    assert max(heights.values()) - min(heights.values()) < 1e-12  # the same drop, floor to bottom
    t_land = (2 * heights["light"] / 9.81) ** 0.5
    w.advance_to(t_land - 0.01)
    assert all(b.velocity[1] < -1.0 for b in w.bodies)  # all still falling
    w.advance_to(t_land + 0.01)
    assert all(b.velocity[1] > 0.0 for b in w.bodies)  # all bounced


def test_projectile_lands_at_the_textbook_range():
    w = load_scene(next(p for p in lesson_files() if p.stem == "projectile"))
    ball = w.body("ball")
    (x0, y0), (vx, vy) = ball.position, ball.velocity
    flight = 2 * vy / 9.81
    w.advance_to(flight)
    assert ball.position == pytest.approx([x0 + 2 * vx * vy / 9.81, y0], abs=1e-9)


def test_one_dimensional_collision_lesson_gives_the_formula():
    w = load_scene(next(p for p in lesson_files() if p.stem == "collision_1d"))
    a, b = w.body("A"), w.body("B")
    m1, m2, u1 = a.mass, b.mass, a.velocity[0]
    w.advance_to(4.0)
    assert a.velocity == pytest.approx([(m1 - m2) / (m1 + m2) * u1, 0.0], abs=1e-12)
    assert b.velocity == pytest.approx([2 * m1 / (m1 + m2) * u1, 0.0], abs=1e-12)
