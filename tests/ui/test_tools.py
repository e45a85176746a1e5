"""The classroom tools: the tape measure, the launcher, the motion diagram and the
pointer's coordinates; their arithmetic, and each used in the window as a teacher would."""

import math

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QColor

from classroom_sim import Body, World
from ui.main_window import MainWindow
from ui.tools import launcher, tape
from ui.tools.motion import strobe_rows

G = 9.81


@pytest.fixture
def window(qtbot, tmp_path):
    made = []

    def make(world):
        w = MainWindow(world, None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()


def wait_for(qtbot, condition, timeout=5000):
    qtbot.waitUntil(lambda: bool(condition()), timeout=timeout)


def at(canvas, x, y) -> QPoint:
    sx, sy = canvas.view.to_screen(x, y)
    return QPoint(int(round(float(sx))), int(round(float(sy))))


def drag(qtbot, canvas, start: QPoint, end: QPoint, steps=4):
    qtbot.mousePress(canvas, Qt.LeftButton, pos=start)
    for k in range(1, steps + 1):
        qtbot.mouseMove(canvas, start + (end - start) * (k / steps))
    qtbot.mouseRelease(canvas, Qt.LeftButton, pos=end)


def two_balls(gravity=(0.0, -G)):
    w = World(gravity=gravity, bounds=(0.0, 0.0, 10.0, 10.0))
    w.add_body(Body("A", 1.0, 0.3, (2.0, 5.0), color="#1a5fb4"))
    w.add_body(Body("B", 1.0, 0.3, (7.0, 8.0), color="#1a5fb4"))
    return w


# -- the tape measure ----------------------------------------------------------------------------
def test_a_tape_end_snaps_to_a_body_centre_to_the_floor_or_stays():
    snap = two_balls().snapshot()
    assert tape.snap_end(snap, 2.35, 5.1, 0.1) == ("A", None)  # within the rim plus the reach
    assert tape.snap_end(snap, 2.5, 5.0, 0.1)[0] is None  # 0.5 from the centre: 0.2 beyond the rim
    assert tape.snap_end(snap, 4.0, 0.08, 0.1) == (None, (4.0, 0.0))  # onto the floor
    assert tape.snap_end(snap, 4.0, 0.3, 0.1) == (None, (4.0, 0.3))


def test_the_tape_measures_between_two_bodies_and_follows_them(window, qtbot):
    w = window(two_balls(gravity=(0.0, 0.0)))
    canvas = w.canvas
    qtbot.keyClick(canvas, Qt.Key_M)
    assert canvas.tool is w.toolbox.tape and w.toolbox.tape_action.isChecked()
    # dropped a few pixels off each centre: the ends snap to the centres
    drag(qtbot, canvas, at(canvas, 2.0, 5.0) + QPoint(3, 2), at(canvas, 7.0, 8.0) - QPoint(2, 3))
    assert w.toolbox.tape.distance(w.bridge.latest) == pytest.approx(math.hypot(5.0, 3.0), abs=1e-12)
    assert canvas.selection is None  # measuring selects nothing, moves nothing
    image = canvas.grab().toImage()
    mx, my = at(canvas, 4.5, 6.5).x(), at(canvas, 4.5, 6.5).y()
    purple = QColor(tape.COLOR)
    near = [image.pixelColor(mx + dx, my + dy) for dx in range(-4, 5) for dy in range(-4, 5)]
    assert any(abs(c.red() - purple.red()) + abs(c.green() - purple.green()) + abs(c.blue() - purple.blue()) < 40
               for c in near)
    # B moves: the tape follows its centre
    from classroom_sim import commands
    w.bridge.send(commands.SetPosition("B", (7.0, 1.0)))
    wait_for(qtbot, lambda: w.bridge.latest.positions[1][1] == 1.0)
    assert w.toolbox.tape.distance(w.bridge.latest) == pytest.approx(math.hypot(5.0, 4.0), abs=1e-12)
    qtbot.keyClick(canvas, Qt.Key_Escape)  # put away: the pointer again, the tape gone
    assert canvas.tool is None and w.toolbox.tape.distance(w.bridge.latest) is None


def test_a_tape_from_a_point_to_the_floor_reads_the_height(window, qtbot):
    w = window(two_balls(gravity=(0.0, 0.0)))
    canvas = w.canvas
    w.toolbox.tape_action.trigger()
    drag(qtbot, canvas, at(canvas, 4.0, 6.0), at(canvas, 4.0, 0.0) - QPoint(0, 5))
    (x0, y0), (x1, y1) = (tape.where(w.bridge.latest, e) for e in w.toolbox.tape.ends)
    assert y1 == 0.0  # snapped onto the floor
    assert w.toolbox.tape.distance(w.bridge.latest) == pytest.approx(math.hypot(x1 - x0, y0), abs=1e-12)
    assert abs(y0 - 6.0) <= 1.0 / canvas.view.scale


def test_the_tape_reading_says_distance_and_components():
    assert tape.reading((1.0, 1.0), (4.0, 5.0)) == "5.000 m\nΔx +3.000 m, Δy +4.000 m"


# -- the launcher ----------------------------------------------------------------------------------
def test_launch_speed_and_angle_are_rounded_from_the_drag():
    # 10 px per m/s on a 5 m/s scale: 0.1 m/s steps; a drag of (100, 100) px is 14.142 m/s at 45°
    speed, angle = launcher.launch(100.0, 100.0, 10.0, 5.0)
    assert speed == pytest.approx(14.1) and angle == 45.0
    speed, angle = launcher.launch(-30.0, -52.0, 2.0, 50.0)  # 1 m/s steps on a 50 m/s scale
    assert speed == round(math.hypot(30.0, 52.0) / 2.0) and angle == round(math.degrees(math.atan2(-52.0, -30.0)))
    assert launcher.launch(100.0, 20.0, 10.0, 5.0, coarse=True)[1] == 15.0  # 11.3° to the nearest 15°
    assert launcher.launch(-100.0, -1e-9, 10.0, 5.0)[1] == 180.0  # in (-180, 180]
    assert launcher.components(10.0, 90.0) == (0.0, 10.0)  # exact on the axes
    vx, vy = launcher.components(10.0, 30.0)
    assert vx == pytest.approx(10.0 * math.sqrt(3) / 2, abs=1e-12) and vy == pytest.approx(5.0, abs=1e-12)


def test_the_launcher_sets_the_velocity_dragged_out_and_leaves_its_arrow(window, qtbot):
    w = window(two_balls())
    canvas = w.canvas
    qtbot.keyClick(canvas, Qt.Key_L)
    assert canvas.tool is w.toolbox.launcher
    start = at(canvas, 2.0, 5.0)
    qtbot.mousePress(canvas, Qt.LeftButton, pos=start)
    px_per_unit, reference = w.toolbox.launcher.scale
    step = launcher.step_of(reference)
    k = 7  # drag up and to the right by 7 steps of speed along each axis: 45°
    d = int(round(k * step * px_per_unit / math.sqrt(2)))
    end = start + QPoint(d, -d)
    qtbot.mouseMove(canvas, end)
    expected = round(math.hypot(d, d) / px_per_unit / step) * step
    assert w.toolbox.launcher.aim == (pytest.approx(expected), 45.0)
    qtbot.mouseRelease(canvas, Qt.LeftButton, pos=end)
    v = expected / math.sqrt(2)
    wait_for(qtbot, lambda: w.bridge.latest.velocities[0][0] > 0)
    assert w.bridge.latest.velocities[0] == pytest.approx([v, v], abs=1e-12)
    assert w.bridge.latest.positions[0].tolist() == [2.0, 5.0]  # launched, not moved
    assert w.toolbox.launcher.left[1:] == (pytest.approx(expected), 45.0)
    assert canvas.selection == "A"


def test_the_launcher_leaves_fixed_bodies_and_empty_space_alone(window, qtbot):
    world = two_balls()
    world.add_body(Body("post", "fixed", 0.3, (5.0, 2.0)))
    w = window(world)
    canvas = w.canvas
    w.toolbox.launcher_action.trigger()
    drag(qtbot, canvas, at(canvas, 5.0, 2.0), at(canvas, 6.0, 4.0))
    qtbot.wait(50)
    assert w.bridge.latest.velocities[2].tolist() == [0.0, 0.0] and w.toolbox.launcher.left is None


def test_student_mode_puts_the_launcher_away(window):
    w = window(two_balls())
    w.toolbox.launcher_action.trigger()
    w.set_student_mode(True)
    assert not w.toolbox.launcher_action.isEnabled() and w.canvas.tool is None
    assert w.toolbox.tape_action.isEnabled()  # measuring is no edit


# -- the motion diagram ----------------------------------------------------------------------------
def test_strobe_rows_fall_on_multiples_of_the_interval():
    times = np.arange(37, 251) / 100.0  # a recording begun at 0.37 s
    rows = strobe_rows(times, 100.0, 0.2)
    assert np.allclose(times[rows] / 0.2, np.round(times[rows] / 0.2), atol=1e-12)
    assert times[rows][0] == pytest.approx(0.4) and len(rows) == len(np.arange(0.4, 2.51, 0.2))


def test_the_motion_diagram_dots_a_falling_ball_every_interval(window, qtbot):
    world = World(gravity=(0.0, -G), bounds=(0.0, 0.0, 10.0, 30.0))
    world.add_body(Body("ball", 1.0, 0.2, (5.0, 25.0), (1.0, 0.0)))
    w = window(world)
    canvas = w.canvas
    canvas.select("ball")
    qtbot.keyClick(canvas, Qt.Key_D)
    assert w.toolbox.motion_action.isChecked()
    wait_for(qtbot, lambda: w.bridge.recording)
    w.play_action.trigger()
    wait_for(qtbot, lambda: w.bridge.latest.time > 1.2, timeout=10000)
    w.play_action.trigger()
    canvas.repaint()
    dots = w.toolbox.motion.dots
    assert len(dots) >= 10
    t = dots[:, 0]
    assert np.allclose(t / 0.1, np.round(t / 0.1), atol=1e-9)  # every 0.1 s
    assert np.allclose(np.diff(t), 0.1)
    # where the textbook puts the ball at those instants (the recording starts with Play at t = 0)
    assert dots[:, 1] == pytest.approx(5.0 + 1.0 * t, abs=1e-9)
    assert dots[:, 2] == pytest.approx(25.0 - 0.5 * G * t * t, abs=1e-9)
    gaps = np.diff(dots[:, 2])
    assert np.all(np.diff(gaps) < 0)  # speeding up: each drop longer than the last
    w.toolbox.set_interval(0.5)
    canvas.repaint()
    assert np.allclose(np.diff(w.toolbox.motion.dots[:, 0]), 0.5)
    image = canvas.grab().toImage()
    first = at(canvas, *w.toolbox.motion.dots[0, 1:])  # where the ball was at t = 0: a dot now
    color = QColor(w.bridge.latest.colors[0])
    seen = image.pixelColor(first)
    assert abs(seen.red() - color.red()) + abs(seen.green() - color.green()) + abs(seen.blue() - color.blue()) < 30
    # replaying the recording at 0.5 s, only where the ball had been by then is dotted
    k = int(np.flatnonzero(np.isclose(w.timeline.times, 0.5))[0])
    w.timeline.show(k)
    canvas.repaint()
    assert w.toolbox.motion.upto(w.bridge.latest.time)[:, 0] == pytest.approx([0.0, 0.5])
    later = at(canvas, *w.toolbox.motion.dots[2, 1:])  # where the ball was at 1.0 s: no dot now
    seen = canvas.grab().toImage().pixelColor(later)
    assert abs(seen.red() - color.red()) + abs(seen.green() - color.green()) + abs(seen.blue() - color.blue()) > 60


# -- the pointer ---------------------------------------------------------------------------------
def test_the_status_bar_shows_where_the_pointer_is_in_metres(window, qtbot):
    w = window(two_balls())
    canvas = w.canvas
    qtbot.mouseMove(canvas, at(canvas, 7.0, 8.0))
    text = w.status_line.pointer.text()
    x, y = (float(part.split("=")[1].strip().split()[0]) for part in text.removeprefix("pointer ").split(","))
    assert abs(x - 7.0) <= 1.0 / canvas.view.scale and abs(y - 8.0) <= 1.0 / canvas.view.scale


# -- the recording's cap -------------------------------------------------------------------------
def test_a_full_recording_is_said_once_and_record_goes_off(window, qtbot, monkeypatch):
    import classroom_sim.recording as recording
    monkeypatch.setattr(recording, "MAX_BYTES", recording.CHUNK * (8 + 56 * 2))  # one chunk of two bodies
    w = window(two_balls())
    w.record_action.trigger()
    w.play_action.trigger()
    wait_for(qtbot, lambda: w.messages.isVisible(), timeout=10000)
    assert "recording is full" in w.messages.label.text()
    wait_for(qtbot, lambda: not w.record_action.isChecked())
    assert w.bridge.samples == recording.CHUNK  # what was recorded is kept
