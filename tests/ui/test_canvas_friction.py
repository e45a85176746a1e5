"""The canvas's small frictions: the trail's length is the teacher's choice up to the
whole run (with bounded memory), a screenshot draws the trail the bodies left, and a
resize refits the box unless the view was zoomed or panned by hand."""

import math
from types import SimpleNamespace

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QColor, QImage

from classroom_sim import Body, World, load_scene
from classroom_sim.cli import default_lesson, main
from ui.app import screenshot
from ui.bridge import SimulationBridge
from ui.canvas import Canvas
from ui.main_window import MainWindow
from ui.trails import LENGTHS, MAX_SAMPLES, MAX_TRAILS, TRAIL_SPACING, Trails, length_box
from ui.view import NORMAL, Display, View, margins_for

G = 9.81


def snapshot(t, positions, velocities, radius=0.2):
    positions = np.asarray(positions, float).reshape(-1, 2)
    return SimpleNamespace(time=t, names=tuple(f"b{k}" for k in range(len(positions))), positions=positions,
                           velocities=np.asarray(velocities, float).reshape(-1, 2),
                           radii=np.full(len(positions), radius))


# -- the trail's length ------------------------------------------------------------------------
def test_the_length_box_offers_lengths_up_to_the_whole_run_and_sets_the_display(qapp):
    display = Display()
    changed = []
    box = length_box(display, lambda: changed.append(display.trail_seconds))
    texts = [box.itemText(k) for k in range(box.count())]
    assert texts[-1] == "Whole run" and box.currentText() == "3 s" == f"{display.trail_seconds:g} s"
    box.setCurrentIndex(texts.index("Whole run"))
    assert display.trail_seconds == math.inf
    box.setCurrentIndex(texts.index("1 s"))
    assert display.trail_seconds == 1.0 and changed == [math.inf, 1.0]
    assert length_box(display).currentText() == "1 s"


@pytest.mark.parametrize("seconds", [s for _, s in LENGTHS if math.isfinite(s)])
def test_a_trail_keeps_the_seconds_chosen(seconds):
    trails = Trails()
    for t in np.arange(0.0, 40.0, 1.0 / 60.0):
        trails.add(snapshot(t, [(t, 0.0)], [(1.0, 0.0)]), seconds)
    times, positions = trails.view()
    assert seconds - 2 * TRAIL_SPACING <= times[-1] - times[0] <= seconds
    assert positions[:, 0, 0] == pytest.approx(times)  # each sample where the body was then


def test_a_whole_run_trail_keeps_the_start_in_bounded_memory_and_the_bounces_in_place():
    r, v0 = 0.2, 8.0
    period = 2 * v0 / G

    def where(t):
        tau = np.asarray(t) % period
        return np.stack([0.5 * np.asarray(t), r + v0 * tau - 0.5 * G * tau * tau], axis=-1)

    trails = Trails()
    every = np.arange(0.0, 600.0, TRAIL_SPACING)  # ten minutes
    for t in every:
        tau = t % period
        trails.add(snapshot(t, where(t), [(0.5, v0 - G * tau)], r), math.inf)
    times, positions = trails.view()
    assert len(times) <= MAX_SAMPLES
    assert times[0] == 0.0 and times[-1] == every[-1]  # the whole run, from its start
    # drawn through what is kept, the trail never strays a ball's width from where the ball was
    truth = where(every)
    drawn = np.stack([np.interp(every, times, positions[:, 0, 0]), np.interp(every, times, positions[:, 0, 1])], -1)
    assert np.hypot(*(drawn - truth).T).max() < 2 * r


def test_a_slow_frame_leaves_no_corner_in_a_trail():
    trails = Trails()
    v0 = np.array([4.0, 6.0])
    for t in (0.0, 0.7):  # 0.7 s between two frames
        trails.add(snapshot(t, v0 * t + [0.0, -0.5 * G * t * t], v0 + [0.0, -G * t]), math.inf)
    times, positions = trails.view()
    assert len(times) > 10
    expected = v0 * times[:, None] + np.array([0.0, -0.5 * G]) * times[:, None] ** 2
    assert positions[:, 0] == pytest.approx(expected, abs=1e-9)


def test_beyond_the_limit_of_trails_only_the_selected_body_is_kept(qapp):
    n = MAX_TRAILS + 5
    world = World(gravity=(0.0, -G), bounds=(0.0, 0.0, 100.0, 10.0))
    for k in range(n):
        world.add_body(Body(f"b{k}", 1.0, 0.2, (2.0 * k + 1.0, 5.0)))
    bridge = SimulationBridge(world, start=False)
    try:
        canvas = Canvas(bridge)
        canvas.select("b3")
        for t in np.arange(0.1, 1.0, 0.1):
            world.advance_to(t)
            canvas._on_snapshot(world.snapshot())
        times, positions = canvas.trails.view()
        assert positions.shape == (len(times), 1, 2) and canvas.trails.rows == (3,)
        assert positions[:, 0, 0] == pytest.approx(7.0)
    finally:
        bridge.close()


# -- the screenshot's trail --------------------------------------------------------------------
def ball_at(t):
    scene = load_scene(default_lesson())
    (x0, y0), (vx, vy) = scene.body("ball").position, scene.body("ball").velocity
    view = View(width=640, height=480)
    view.fit(*scene.bounds, margins=margins_for(NORMAL))
    return (float(v) for v in view.to_screen(x0 + vx * t, y0 + vy * t - 0.5 * G * t * t))


def orange_near(image, x, y) -> bool:
    """Whether a pixel by (x, y) is of the ball's orange (#ff7f0e), however faded."""
    for i in range(int(x) - 2, int(x) + 3):
        for j in range(int(y) - 2, int(y) + 3):
            c = QColor(image.pixel(i, j))
            if c.red() > 230 and c.blue() < 180 and c.red() - c.blue() > 90:
                return True
    return False


def test_the_screenshot_draws_the_trail_the_ball_left(tmp_path, qapp):
    out = tmp_path / "shot.png"
    assert main(["screenshot", str(default_lesson()), "--at", "1.0", "-o", str(out), "--size", "640x480"]) == 0
    image = QImage(str(out))
    for t in (0.3, 0.5, 0.7):  # where the ball was, well before the picture's time
        assert orange_near(image, *ball_at(t)), t


def test_the_screenshot_trail_lasts_the_length_chosen_and_none_without_advancing(tmp_path, qapp):
    def advance(each):
        for k in range(1, 241):
            world.advance_to(k / 240.0)
            each(world)

    world = load_scene(default_lesson())
    screenshot(world, str(tmp_path / "short.png"), (640, 480), advance=advance, trail_seconds=0.3)
    image = QImage(str(tmp_path / "short.png"))
    assert orange_near(image, *ball_at(0.85)) and not orange_near(image, *ball_at(0.5))
    world = load_scene(default_lesson())
    world.advance_to(1.0)
    screenshot(world, str(tmp_path / "none.png"), (640, 480))
    assert not orange_near(QImage(str(tmp_path / "none.png")), *ball_at(0.5))


# -- refitting on resize -----------------------------------------------------------------------
@pytest.fixture
def canvas(qtbot):
    world = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, 10.0, 5.0))
    world.add_body(Body("A", 1.0, 0.3, (2.0, 2.0)))
    bridge = SimulationBridge(world, start=False)
    canvas = Canvas(bridge)
    qtbot.addWidget(canvas)
    canvas.resize(600, 400)
    canvas.show()
    qtbot.waitExposed(canvas)
    yield canvas
    bridge.close()


def resize(qtbot, canvas, w, h):
    canvas.resize(w, h)
    qtbot.waitUntil(lambda: (canvas.view.width, canvas.view.height) == (w, h))


def box_in_view(canvas) -> bool:
    x0, y0 = canvas.view.to_screen(0.0, 5.0)
    x1, y1 = canvas.view.to_screen(10.0, 0.0)
    return 0 <= x0 < x1 <= canvas.width() and 0 <= y0 < y1 <= canvas.height()


def test_a_resize_refits_the_box(canvas, qtbot):
    resize(qtbot, canvas, 340, 500)
    assert box_in_view(canvas)
    narrow = canvas.view.scale
    resize(qtbot, canvas, 1000, 700)
    assert box_in_view(canvas) and canvas.view.scale > 2 * narrow  # it grows with the room


@pytest.mark.parametrize("by_hand", ["zoom", "wheel", "pan"])
def test_a_resize_after_zooming_or_panning_by_hand_keeps_the_centre(canvas, qtbot, by_hand):
    if by_hand == "zoom":
        canvas.zoom(2.0)
    elif by_hand == "wheel":
        from PySide6.QtCore import QPointF
        from PySide6.QtGui import QWheelEvent

        centre = QPointF(100.0, 100.0)
        canvas.wheelEvent(QWheelEvent(centre, canvas.mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt.NoButton,
                                      Qt.NoModifier, Qt.NoScrollPhase, False))
    else:
        qtbot.mousePress(canvas, Qt.LeftButton, pos=QPoint(5, 5))
        qtbot.mouseMove(canvas, QPoint(85, 45))
        qtbot.mouseRelease(canvas, Qt.LeftButton, pos=QPoint(85, 45))
    scale, centre = canvas.view.scale, (canvas.view.cx, canvas.view.cy)
    resize(qtbot, canvas, 450, 650)
    assert canvas.view.scale == scale and (canvas.view.cx, canvas.view.cy) == centre
    assert canvas.view.to_world(225, 325) == pytest.approx(centre)  # the middle of the widget
    canvas.fit()  # F: fitted again, so the next resize refits
    resize(qtbot, canvas, 700, 300)
    assert box_in_view(canvas) and canvas.view.scale != scale


def test_the_window_keeps_a_hand_zoom_when_it_is_resized(qtbot, tmp_path):
    world = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, 10.0, 5.0))
    world.add_body(Body("A", 1.0, 0.3, (2.0, 2.0)))
    w = MainWindow(world, None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    try:
        qtbot.wait(50)
        w.zoom_in_action.trigger()
        scale = w.canvas.view.scale
        w.resize(w.width() - 200, w.height() - 100)
        qtbot.wait(100)  # the docks are shared out again, a moment later
        assert w.canvas.view.scale == scale
        w.fit_action.trigger()
        fitted = w.canvas.view.scale
        w.resize(w.width() + 300, w.height() + 100)
        qtbot.waitUntil(lambda: w.canvas.view.scale > fitted)
        assert box_in_view(w.canvas)
    finally:
        w.close()


def test_a_white_ball_leaves_a_trail_that_shows_on_the_light_canvas(tmp_path, qapp):
    world = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, 10.0, 6.0))
    world.add_body(Body("cue", 0.17, 0.3, (1.0, 3.0), (4.0, 0.0), color="#f0f0f0"))
    out = tmp_path / "cue.png"

    def advance(each):
        while world.time < 1.5 - 1e-9:
            world.step(1 / 240)
            each(world)
    screenshot(world, str(out), size=(800, 480), advance=advance)
    image = QImage(str(out))
    view = View(width=800, height=480)
    view.fit(*world.bounds, margins=margins_for(NORMAL))
    sx, sy = view.to_screen(3.0, 3.0)  # where the ball was at 0.5 s: its trail
    darkest = min(QColor(image.pixel(int(sx), int(sy) + d)).lightnessF() for d in range(-2, 3))
    assert darkest < 0.75  # a grey line, not white on the near-white canvas
