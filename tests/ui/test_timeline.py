"""The timeline: replay of the recording in the window. Dragging it shows a recorded
instant on the canvas, the graphs, the inspector and the energy panel; keys step and
jump; the recording plays both ways; Continue from here goes on live from the
instant shown; Live, Play and an edit come back to the live World."""

import numpy as np
import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from classroom_sim import Body, World, commands
from ui.main_window import MainWindow
from ui.panels import graphs

G = 9.81
MASS = 2.0
RATE = 100.0


def falling():
    world = World(gravity=(0.0, -G), bounds=(-5.0, 0.0, 5.0, 200.0))
    world.add_body(Body("ball", MASS, 0.2, (0.0, 150.0)))
    return world


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(graphs, "REFRESH_S", 0.0)
    w = MainWindow(falling(), None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()


def wait_for(qtbot, condition, timeout=5000):
    qtbot.waitUntil(lambda: bool(condition()), timeout=timeout)


def record_a_second(w, qtbot):
    assert not w.timeline.isVisible()  # nothing recorded: no timeline
    w.record_action.trigger()
    w.play_action.trigger()
    wait_for(qtbot, lambda: w.bridge.samples > 100)
    w.play_action.trigger()
    wait_for(qtbot, lambda: w.bridge.paused)
    wait_for(qtbot, lambda: len(w.timeline.times) == w.bridge.samples)


def test_dragging_the_timeline_shows_that_instant_everywhere(window, qtbot):
    w = window
    record_a_second(w, qtbot)
    assert w.timeline.isVisible()
    w.show_graphs(True)
    w.energy_dock.show()
    w.energy_dock.raise_()
    w.canvas.select("ball")
    w.timeline.slider.setValue(50)  # what a drag does
    t = w.timeline.times[50]
    assert t == pytest.approx(0.5, abs=1e-12)
    assert w.bridge.replaying and w.bridge.latest.time == t
    wait_for(qtbot, lambda: w.canvas.painted is not None and w.canvas.painted.time == t)
    # the ball where the textbook puts it, on the canvas's snapshot and in the inspector
    y = 150.0 - 0.5 * G * t * t
    assert w.canvas.painted.positions[0, 1] == pytest.approx(y, rel=1e-12)
    kinetic = 0.5 * MASS * (G * t) ** 2
    assert w.energy_panel.values.total_kinetic == pytest.approx(kinetic, rel=1e-9)
    assert w.inspector.kinetic.text() == f"{kinetic:.3f} J"
    assert w.graphs_panel.cursors[0].value() == pytest.approx(t)
    lo, hi = w.graphs_panel.plots[0].getViewBox().viewRange()[0]  # the recording, not before it
    assert -0.05 < lo < t < hi < w.timeline.times[-1] + 0.05
    assert "REPLAY" in w.timeline.label.text()
    assert w.bridge.paused  # the physics waits while the class looks back


def test_keys_step_one_sample_and_jump_to_the_ends(window, qtbot):
    w = window
    record_a_second(w, qtbot)
    w.canvas.setFocus()
    QTest.keyClick(w.canvas, Qt.Key_Home)
    assert w.bridge.shown_sample == 0 and w.bridge.latest.time == 0.0
    QTest.keyClick(w.canvas, Qt.Key_Period)
    QTest.keyClick(w.canvas, Qt.Key_Period)
    assert w.bridge.shown_sample == 2 and w.bridge.latest.time == pytest.approx(0.02, abs=1e-12)
    QTest.keyClick(w.canvas, Qt.Key_Comma)
    assert w.bridge.shown_sample == 1
    QTest.keyClick(w.canvas, Qt.Key_End)
    assert w.bridge.shown_sample == len(w.timeline.times) - 1
    w.timeline.live.click()
    assert not w.bridge.replaying


def test_the_recording_plays_forwards_and_backwards_at_the_speed_chosen(window, qtbot):
    w = window
    record_a_second(w, qtbot)
    w.timeline.show(10)
    w.timeline.speed.setCurrentIndex(w.timeline.speed.findData(0.5))
    w.timeline.forward.click()
    wait_for(qtbot, lambda: w.bridge.shown_sample >= 30)
    assert w.timeline.forward.isChecked()
    w.timeline.forward.click()  # again: stops
    assert not w.timeline._timer.isActive()
    at = w.bridge.shown_sample
    w.timeline.back.click()
    # it stops at the start
    wait_for(qtbot, lambda: w.bridge.shown_sample == 0 and not w.timeline._timer.isActive(), timeout=8000)
    assert at > 0 and not w.timeline.back.isChecked()


def test_continue_from_here_goes_on_live_from_the_instant_shown(window, qtbot):
    w = window
    record_a_second(w, qtbot)
    w.timeline.show(40)
    asked = []
    w.timeline.confirm = lambda question: asked.append(question) or True
    w.timeline.continue_here()
    assert "0.40 s" in asked[0] and "dropped" in asked[0]
    wait_for(qtbot, lambda: not w.bridge.paused)
    assert not w.bridge.replaying
    # the world went on from the state at 0.4 s, on the same grid: the recording is cut there
    wait_for(qtbot, lambda: w.bridge.samples > 60)
    times = w.bridge.sample_times_since(0)[1]
    assert np.array_equal(times, np.arange(len(times)) / RATE)
    w.play_action.trigger()
    wait_for(qtbot, lambda: w.bridge.paused)
    snap = w.bridge.latest
    t = snap.time
    assert snap.positions[0, 1] == pytest.approx(150.0 - 0.5 * G * t * t, rel=1e-9)
    assert "Continued from t = 0.40 s" in w.statusBar().currentMessage()


def test_cancelling_continue_changes_nothing(window, qtbot):
    w = window
    record_a_second(w, qtbot)
    count = w.bridge.samples
    w.timeline.show(40)
    w.timeline.confirm = lambda question: False
    w.timeline.continue_here()
    assert w.bridge.replaying and w.bridge.shown_sample == 40 and w.bridge.samples == count


def test_an_edit_or_play_while_replaying_acts_on_the_live_world(window, qtbot):
    w = window
    record_a_second(w, qtbot)
    live = w.bridge.simulation.latest.time
    w.timeline.show(10)
    w.bridge.send(commands.SetGravity((0.0, -1.0)))
    assert not w.bridge.replaying
    wait_for(qtbot, lambda: w.bridge.latest.settings.gravity == (0.0, -1.0))
    assert w.bridge.latest.time == live
    w.timeline.show(10)
    w.play_action.trigger()
    assert not w.bridge.replaying
    wait_for(qtbot, lambda: w.bridge.latest.time > live)


def test_a_recording_cleared_while_replaying_brings_the_live_world_back(window, qtbot):
    w = window
    record_a_second(w, qtbot)
    live = w.bridge.simulation.latest.time
    w.timeline.show(50)
    w.clear_recording()  # recording stays on: a new recording begins (a sample at most, paused)
    wait_for(qtbot, lambda: not w.bridge.replaying)
    assert w.bridge.latest.time == live
    wait_for(qtbot, lambda: w.bridge.samples <= 1 and len(w.timeline.times) == w.bridge.samples)
    assert not w.timeline.isVisible()
    w.timeline.step(+1)  # (the keys reach the timeline while it is hidden: they do nothing)
    assert not w.bridge.replaying


def test_back_to_live_with_a_body_added_since_the_recording_stopped(window, qtbot):
    w = window
    record_a_second(w, qtbot)
    w.record_action.trigger()  # Record off
    wait_for(qtbot, lambda: not w.bridge.recording)
    w.bridge.send(commands.AddBody("late", 1.0, 0.2, (2.0, 100.0)))
    wait_for(qtbot, lambda: len(w.bridge.latest.names) == 2)
    w.timeline.show(50)
    qtbot.wait(20)
    w.timeline.go_live()  # the recording has no sample of "late": the trails start afresh
    qtbot.wait(20)
    assert w.canvas.trails.names in (None, ("ball", "late"))


def test_a_replayed_trail_is_as_long_as_chosen_though_the_recording_has_a_gap(window, qtbot):
    w = window
    record_a_second(w, qtbot)
    w.record_action.trigger()  # Record off, play on, Record on again
    wait_for(qtbot, lambda: not w.bridge.recording)
    w.play_action.trigger()
    wait_for(qtbot, lambda: w.bridge.latest.time > 5.0)
    w.record_action.trigger()
    wait_for(qtbot, lambda: w.bridge.recording)
    count = w.bridge.samples
    wait_for(qtbot, lambda: w.bridge.samples > count + 50)
    w.play_action.trigger()
    wait_for(qtbot, lambda: w.bridge.paused)
    wait_for(qtbot, lambda: len(w.timeline.times) == w.bridge.samples)
    w.timeline.end()
    qtbot.wait(20)
    times, _ = w.canvas.trails.view()
    shown = w.bridge.latest.time
    assert len(times) and times[-1] == shown
    assert times[0] >= shown - w.canvas.display.trail_seconds - 1e-9  # not back across the gap


def test_the_data_table_marks_the_replayed_instant(window, qtbot):
    w = window
    record_a_second(w, qtbot)
    w.canvas.select("ball")
    w.table_dock.show()
    w.table_dock.raise_()
    wait_for(qtbot, lambda: w.table_panel.model.n == len(w.timeline.times))
    w.timeline.show(37)
    rows = w.table_panel.view.selectionModel().selectedRows()
    assert [r.row() for r in rows] == [37]
    assert w.table_panel.model.values[37, 0] == w.timeline.times[37]
