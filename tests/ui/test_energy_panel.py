"""The energy panel and the inspector show energy and momentum that match the textbook:
a dropped ball keeps m g h as its total, an inelastic collision loses what the 1D
formula says."""

import pytest
from PySide6.QtCore import QSettings

from classroom_sim import Body, World
from ui.main_window import MainWindow

G = 9.81


def open_window(qtbot, tmp_path, world):
    w = MainWindow(world, None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(w)
    w.show()
    w.energy_dock.raise_()
    return w


def test_a_dropped_ball_keeps_its_total_and_the_bars_show_it(qtbot, tmp_path):
    m, r, h = 2.0, 0.1, 8.0
    world = World(gravity=(0.0, -G), bounds=(0.0, 0.0, 4.0, 10.0), restitution=1.0, wall_restitution=1.0)
    world.add_body(Body("ball", m, r, (2.0, r + h)))
    w = open_window(qtbot, tmp_path, world)
    qtbot.waitUntil(lambda: w.energy_panel.values is not None, timeout=5000)
    assert w.energy_panel.values.total_potential == pytest.approx(m * G * h, rel=1e-12)
    w.play_action.trigger()
    qtbot.waitUntil(lambda: w.bridge.latest.time > 0.5, timeout=5000)
    w.play_action.trigger()
    qtbot.waitUntil(lambda: w.bridge.paused, timeout=5000)
    qtbot.waitUntil(lambda: w.energy_panel.values is not None and w.energy_panel._time == w.bridge.latest.time,
                    timeout=5000)
    e = w.energy_panel.values
    t = w.bridge.latest.time
    assert e.total_kinetic == pytest.approx(0.5 * m * (G * t) ** 2, rel=1e-9)
    assert e.total == pytest.approx(m * G * h, rel=1e-9)
    heights = w.energy_panel.bars.opts["height"]
    assert list(heights) == pytest.approx([e.total_kinetic, e.total_potential, e.total])
    assert w.energy_panel.total.text().strip() == f"{m * G * h:.3f} J"
    w.close()


def test_an_inelastic_collision_shows_its_loss_and_the_inspector_its_body(qtbot, tmp_path):
    m1, m2, u1, e = 1.0, 1.0, 2.0, 0.0
    world = World(gravity=(0.0, 0.0), restitution=e)
    world.add_body(Body("a", m1, 0.1, (0.0, 0.0), (u1, 0.0)))
    world.add_body(Body("b", m2, 0.1, (0.5, 0.0)))
    w = open_window(qtbot, tmp_path, world)
    qtbot.waitUntil(lambda: w.energy_panel.values is not None, timeout=5000)
    assert w.energy_panel.values.total == pytest.approx(0.5 * m1 * u1**2)
    w.play_action.trigger()
    qtbot.waitUntil(lambda: w.bridge.latest.time > 0.5, timeout=5000)
    w.play_action.trigger()
    qtbot.waitUntil(lambda: w.bridge.paused, timeout=5000)
    qtbot.waitUntil(lambda: w.energy_panel._time == w.bridge.latest.time, timeout=5000)
    after = w.energy_panel.values
    # perfectly inelastic, equal masses: half the kinetic energy is lost, momentum kept
    assert after.total == pytest.approx(0.25 * m1 * u1**2, rel=1e-9)
    assert after.total_momentum == pytest.approx((m1 * u1, 0.0), rel=1e-12)
    w.inspector_dock.raise_()
    w.inspector.set_body("b", w.bridge.latest)
    assert w.inspector.kinetic.text() == f"{0.5 * m2 * (u1 / 2) ** 2:.3f} J"
    assert w.inspector.momentum.text() == f"({m2 * u1 / 2:.3f}, 0.000) kg·m/s"
    w.close()


def test_starts_are_where_each_body_was_first_seen_and_start_afresh_when_time_goes_back():
    from classroom_sim import Body, World
    from ui.panels.energy import Starts

    w = World(gravity=(0.0, -G))
    w.add_body(Body("a", 1.0, 0.1, (1.0, 2.0), (1.0, 0.0)))
    starts = Starts()
    first = w.snapshot()
    assert starts.of(first).tolist() == [[1.0, 2.0]]
    w.advance_to(1.0)
    w.add_body(Body("b", 1.0, 0.1, (5.0, 6.0)))
    assert starts.of(w.snapshot()).tolist() == [[1.0, 2.0], [5.0, 6.0]]
    assert starts.of(first).tolist() == [[1.0, 2.0]]  # the clock went back: afresh
    w.advance_to(2.0)  # b, forgotten, is first seen again here
    assert starts.of(w.snapshot()).tolist() == [[1.0, 2.0], [5.0, 6.0 - 0.5 * G]]
