"""The desktop app, offscreen: the window, live edits through the panels, the
canvas, export, files, shutdown, and the screenshot command."""

import math
import os
import time

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QColor, QImage

from classroom_sim import Body, World, commands, load_scene, read_csv
from classroom_sim.cli import default_lesson, main
from ui.main_window import MainWindow

G = 9.81


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)


@pytest.fixture
def window(qtbot, settings):
    made = []

    def make(world=None, path=None):
        if world is None:
            path = default_lesson()
            world = load_scene(path)
        w = MainWindow(world, path, settings=settings)
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        if w.lesson_panel.entering is not None:  # a lesson opens on its first step
            w.lesson_panel.entering.result(timeout=5)
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()


def wait_for(qtbot, condition, timeout=5000):
    qtbot.waitUntil(lambda: bool(condition()), timeout=timeout)


def test_the_window_opens_paused_on_the_default_lesson(window):
    w = window()
    assert "Projectile motion" in w.windowTitle()
    assert w.bridge.latest.names == ("ball",)
    assert w.bridge.simulation.running and w.bridge.simulation.paused
    assert w.play_action.text() == "Play"


def test_play_advances_simulated_time_and_pause_stops_it(window, qtbot):
    w = window()
    assert w.bridge.latest.time == 0.0
    w.play_action.trigger()
    wait_for(qtbot, lambda: w.bridge.latest.time > 0.2)
    w.play_action.trigger()
    wait_for(qtbot, lambda: w.bridge.simulation.paused)
    t = w.bridge.latest.time
    qtbot.wait(100)
    assert w.bridge.latest.time == t
    # the step key advances one frame
    qtbot.keyClick(w.canvas, Qt.Key_Right)
    wait_for(qtbot, lambda: w.bridge.latest.time == pytest.approx(t + 1 / 60, abs=1e-12))


def test_the_gravity_fields_change_the_simulation(window, qtbot):
    w = window()
    w.world_panel.vector.y.setValue(-1.62)
    wait_for(qtbot, lambda: w.bridge.latest.settings.gravity == (0.0, -1.62))
    assert w.bridge.latest.accelerations[0].tolist() == [0.0, -1.62]
    # a preset keeps the direction and sets the strength
    w.world_panel.presets.activated.emit(3)  # Mars
    wait_for(qtbot, lambda: w.bridge.latest.settings.gravity == pytest.approx((0.0, -3.71)))
    wait_for(qtbot, lambda: w.world_panel.strength.value() == pytest.approx(3.71))


def test_selecting_a_body_and_editing_its_mass(window, qtbot):
    w = window()
    w.canvas.select("ball")
    assert w.inspector.body == "ball" and w.inspector.title.text() == "ball"
    assert w.inspector.mass.value() == pytest.approx(0.5)
    w.inspector.mass.field.setValue(2.0)
    wait_for(qtbot, lambda: w.bridge.latest.masses[0] == 2.0)
    w.inspector.fixed.click()
    wait_for(qtbot, lambda: math.isinf(w.bridge.latest.masses[0]))
    w.inspector.fixed.click()
    wait_for(qtbot, lambda: w.bridge.latest.masses[0] == 2.0)


def test_the_inspector_acceleration_list_changes_the_summed_acceleration(window, qtbot):
    w = window()
    w.canvas.select("ball")
    table = w.inspector.accelerations
    table.add_button.click()
    wait_for(qtbot, lambda: w.bridge.latest.own_accelerations[0] == (("push 1", (0.0, 0.0)),))
    wait_for(qtbot, lambda: table.table.rowCount() == 1)
    table.table.item(0, 2).setText("5")
    wait_for(qtbot, lambda: w.bridge.latest.accelerations[0].tolist() == [0.0, 5.0 - G])
    table.table.setCurrentCell(0, 0)
    table.remove_button.click()
    wait_for(qtbot, lambda: w.bridge.latest.accelerations[0].tolist() == [0.0, -G])


def test_a_rejected_edit_shows_its_message_and_the_widget_returns(window, qtbot):
    w = window()
    w.canvas.select("ball")  # at (1.0, 0.25) with radius 0.25: in the corner of the box
    w.inspector.radius.setValue(2.0)  # would stick out through the floor
    wait_for(qtbot, lambda: w.messages.isVisible())
    assert "bodies.ball.radius" in w.messages.label.text()
    wait_for(qtbot, lambda: w.inspector.radius.value() == pytest.approx(0.25))
    assert w.bridge.latest.radii[0] == 0.25


def test_widgets_refuse_invalid_values(window):
    w = window()
    w.canvas.select("ball")
    w.inspector.mass.field.setValue(-5.0)
    assert w.inspector.mass.value() > 0
    w.world_panel.restitution.field.setValue(3.0)
    assert w.world_panel.restitution.value() <= 1.0
    w.inspector.position.x.setValue(-100.0)
    assert w.inspector.position.x.value() >= 0.25  # the box starts at 0, the ball is 0.25 wide


def test_export_writes_a_csv_that_the_engine_reads_back(window, qtbot, tmp_path):
    w = window()
    (x0, y0), (vx, vy) = w.bridge.latest.positions[0], w.bridge.latest.velocities[0]  # the first step's launch
    w.record_action.trigger()
    wait_for(qtbot, lambda: w.bridge.simulation.recording)
    w.play_action.trigger()
    wait_for(qtbot, lambda: w.bridge.latest.time > 0.3)
    w.play_action.trigger()
    path = tmp_path / "ball.csv"
    future = w.export_csv_to(path, "long")
    future.result(timeout=10)
    rows = read_csv(path)["ball"]
    recorded = w.bridge.simulation.recorded().result(timeout=10).trajectory("ball")
    assert np.array_equal(rows, recorded)
    t = rows[:, 0]
    assert t == pytest.approx(np.arange(len(t)) / 100.0, abs=1e-12)
    # free flight: the textbook's projectile until it lands
    flying = rows[:, 2] > y0 + 1e-9
    assert rows[flying, 1] == pytest.approx(x0 + vx * t[flying], rel=1e-12)
    assert rows[flying, 2] == pytest.approx(y0 + vy * t[flying] - 0.5 * G * t[flying] ** 2, rel=1e-12)


def test_closing_the_window_joins_the_physics_thread(window):
    w = window()
    sim = w.bridge.simulation
    assert sim.running
    w.close()
    assert not sim.running


def test_the_canvas_shows_a_body_in_its_colour_where_it_is(window):
    world = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, 10.0, 10.0))
    world.add_body(Body("red", 1.0, 1.0, (3.0, 7.0), color="#d62728"))
    world.add_body(Body("blue", 1.0, 0.5, (7.0, 2.0), color="#1f77b4"))
    w = window(world)
    canvas = w.canvas
    canvas.display.velocity = False
    image = canvas.render_image(600, 400)
    for name, color in (("red", "#d62728"), ("blue", "#1f77b4")):
        i = w.bridge.latest.index(name)
        sx, sy = canvas.view.to_screen(*w.bridge.latest.positions[i])
        assert QColor(image.pixel(int(sx), int(sy))).name() == color
    # the box's corner and the empty middle are not a body's colour
    sx, sy = canvas.view.to_screen(5.0, 5.0)
    assert QColor(image.pixel(int(sx), int(sy))).name() not in ("#d62728", "#1f77b4")


def test_click_selects_and_dragging_moves_a_body_while_paused(window, qtbot):
    world = World(gravity=(0.0, -G), bounds=(0.0, 0.0, 10.0, 10.0))
    world.add_body(Body("A", 1.0, 0.5, (3.0, 5.0)))
    w = window(world)
    canvas = w.canvas
    sx, sy = canvas.view.to_screen(3.0, 5.0)
    start = QPoint(int(sx), int(sy))
    qtbot.mousePress(canvas, Qt.LeftButton, pos=start)
    assert canvas.selection == "A" and w.inspector.body == "A"
    tx, ty = canvas.view.to_screen(6.0, 7.0)
    qtbot.mouseMove(canvas, QPoint(int(tx), int(ty)))
    qtbot.mouseRelease(canvas, Qt.LeftButton, pos=QPoint(int(tx), int(ty)))
    wait_for(qtbot, lambda: np.allclose(w.bridge.latest.positions[0], (6.0, 7.0), atol=2 / canvas.view.scale))
    assert w.bridge.latest.velocities[0].tolist() == [0.0, 0.0]
    # a click on empty space clears the selection; Delete removes the selected body
    qtbot.mouseClick(canvas, Qt.LeftButton, pos=QPoint(5, 5))
    assert canvas.selection is None
    canvas.select("A")
    qtbot.keyClick(canvas, Qt.Key_Delete)
    wait_for(qtbot, lambda: w.bridge.latest.names == ())


def test_throwing_a_body_while_running_gives_it_the_drag_velocity(window, qtbot):
    world = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, 20.0, 10.0))
    world.add_body(Body("A", 1.0, 0.5, (3.0, 5.0)))
    w = window(world)
    w.play_action.trigger()
    wait_for(qtbot, lambda: not w.bridge.simulation.paused)
    canvas = w.canvas
    sx, sy = canvas.view.to_screen(3.0, 5.0)
    qtbot.mousePress(canvas, Qt.LeftButton, pos=QPoint(int(sx), int(sy)))
    for k in range(1, 6):
        x, y = canvas.view.to_screen(3.0 + 0.2 * k, 5.0)
        qtbot.mouseMove(canvas, QPoint(int(x), int(y)))
        qtbot.wait(10)
    qtbot.mouseRelease(canvas, Qt.LeftButton, pos=QPoint(int(x), int(y)))
    wait_for(qtbot, lambda: w.bridge.latest.velocities[0][0] > 1.0)
    assert abs(w.bridge.latest.velocities[0][1]) < 0.5


def test_the_context_menu_action_adds_a_body_where_asked(window, qtbot):
    w = window()
    name = w.canvas.add_body_at(10.0, 5.0)
    wait_for(qtbot, lambda: name in w.bridge.latest.names)
    i = w.bridge.latest.index(name)
    assert w.bridge.latest.positions[i].tolist() == [10.0, 5.0]
    wait_for(qtbot, lambda: w.canvas.selection == name)


def test_zoom_pan_and_fit(window, qtbot):
    w = window()
    canvas = w.canvas
    scale = canvas.view.scale
    qtbot.keyClick(canvas, Qt.Key_Plus)
    assert canvas.view.scale == pytest.approx(1.25 * scale)
    qtbot.keyClick(canvas, Qt.Key_F)
    assert canvas.view.scale == pytest.approx(scale)
    x0 = canvas.view.cx
    qtbot.mousePress(canvas, Qt.LeftButton, pos=QPoint(5, 5))
    qtbot.mouseMove(canvas, QPoint(105, 5))
    qtbot.mouseRelease(canvas, Qt.LeftButton, pos=QPoint(105, 5))
    assert canvas.view.cx == pytest.approx(x0 - 100 / canvas.view.scale)


def test_save_the_live_state_as_a_scene_and_open_it_again(window, qtbot, tmp_path, settings):
    w = window()
    w.bridge.send(commands.SetGravity((0.0, -1.62)))
    wait_for(qtbot, lambda: w.bridge.latest.settings.gravity == (0.0, -1.62))
    path = tmp_path / "moon.toml"
    w.save_scene_to(path).result(timeout=10)
    assert load_scene(path).gravity.tolist() == [0.0, -1.62]
    assert w.open_scene_file(path)
    assert w.bridge.latest.settings.gravity == (0.0, -1.62)
    assert str(path.resolve()) in settings.value("recent")
    bad = tmp_path / "bad.toml"
    bad.write_text("[world]\ngravity = 3\n")
    assert not w.open_scene_file(bad)
    assert "bad.toml: world.gravity" in w.messages.label.text()
    assert w.bridge.latest.settings.gravity == (0.0, -1.62)  # the open scene is kept


def test_save_png_of_the_canvas(window, tmp_path):
    w = window()
    path = tmp_path / "canvas.png"
    assert w.save_png_to(path)
    image = QImage(str(path))
    assert (image.width(), image.height()) == (w.canvas.width(), w.canvas.height())
    assert not w.save_png_to(tmp_path / "missing" / "canvas.png")
    assert w.messages.isVisible()


def test_projector_mode_makes_type_larger(window):
    w = window()
    before = w.inspector.font().pointSizeF()
    w.projector_action.trigger()
    assert w.canvas.display.projector
    assert w.inspector.font().pointSizeF() > before


def test_the_status_bar_shows_time_rates_and_bodies(window, qtbot):
    w = window()
    w.play_action.trigger()
    qtbot.wait(600)
    assert w.status_line.bodies.text() == "1 body"
    assert w.status_line.time.text().startswith("t =")
    assert "cycles/s" in w.status_line.cycles.text() and "frames/s" in w.status_line.fps.text()


def test_an_error_in_the_physics_thread_reaches_the_message_bar(window, qtbot):
    from classroom_sim import Acceleration

    class Broken(Acceleration):
        constant = False

        def at(self, positions, velocities, index):
            if positions[index, 1] < 4.5:
                raise RuntimeError("cannot compute this acceleration")
            return np.zeros(2)

    world = World(gravity=(0.0, -G))
    world.add_body(Body("A", 1.0, 0.1, (0.0, 5.0), accelerations=[Broken("broken")]))
    w = window(world)
    w.play_action.trigger()
    wait_for(qtbot, lambda: w.messages.isVisible())
    assert "cannot compute this acceleration" in w.messages.label.text()
    assert w.bridge.simulation.running


def test_the_screenshot_command_writes_a_png(tmp_path, qapp):
    out = tmp_path / "shot.png"
    assert main(["screenshot", str(default_lesson()), "--at", "0.5", "-o", str(out), "--size", "640x480"]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (640, 480)
    # the ball, orange, is where the textbook puts it at t = 0.5 s (the render is fitted to the box)
    from ui.view import NORMAL, View, margins_for

    scene = load_scene(default_lesson())
    (x0, y0), (vx, vy) = scene.body("ball").position, scene.body("ball").velocity
    view = View(width=640, height=480)
    view.fit(*scene.bounds, margins=margins_for(NORMAL))
    sx, sy = view.to_screen(x0 + vx * 0.5, y0 + vy * 0.5 - 0.5 * G * 0.25)
    # (a pixel off the centre, away from the velocity arrow that starts there)
    assert QColor(image.pixel(int(sx) - 2, int(sy) + 2)).name() == "#ff7f0e"


def test_the_screenshot_command_refuses_bad_input_in_one_line(tmp_path, qapp, capsys):
    assert main(["screenshot", str(default_lesson()), "--at", "1", "-o", str(tmp_path / "no" / "x.png")]) == 2
    for bad in (["--at", "-1"], ["--at", "1", "--size", "big"], ["--at", "1", "--size", "0x10"]):
        with pytest.raises(SystemExit) as exited:
            main(["screenshot", str(default_lesson()), "-o", str(tmp_path / "x.png")] + bad)
        assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--at must be >= 0" in err and "--size must be WIDTHxHEIGHT" in err
    assert "Traceback" not in err
    assert os.listdir(tmp_path) == []


def test_the_app_starts_on_a_bad_scene_with_one_line_and_no_window(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[[bodies]]\nname = 'A'\nmass = -1\nradius = 1\nposition = [0, 0]\n")
    assert main([str(bad)]) == 2
    err = capsys.readouterr().err
    assert 'bad.toml: bodies[0].mass: must be > 0 or "fixed", got -1' in err



def test_a_trail_with_a_gap_follows_the_parabola():
    from ui.trails import smooth as _smooth

    g = np.array([0.0, -G])
    t = np.array([0.0, 0.7, 0.75])  # a slow frame: 0.7 s between two samples
    p0, v0 = np.array([1.0, 0.25]), np.array([10.0, 10.0])
    pos = np.stack([p0 + v0 * s + 0.5 * g * s * s for s in t])[:, None, :]
    vel = np.stack([v0 + g * s for s in t])[:, None, :]
    times, filled = _smooth(t, pos, vel)
    assert len(times) > 20
    expected = p0 + v0 * times[:, None] + 0.5 * g * times[:, None] ** 2
    assert filled[:, 0, :] == pytest.approx(expected, abs=1e-9)


def test_the_speed_box_sets_the_time_scale(window, qtbot):
    w = window()
    w.speed.setCurrentIndex(w.speed.findData(0.25))
    assert w.bridge.simulation.time_scale == 0.25
    w.play_action.trigger()
    wait_for(qtbot, lambda: w.bridge.latest.time > 0.0)
    t0, w0 = w.bridge.latest.time, time.perf_counter()
    qtbot.wait(800)
    rate = (w.bridge.latest.time - t0) / (time.perf_counter() - w0)
    assert rate == pytest.approx(0.25, rel=0.2)


@pytest.mark.parametrize("command", ["screenshot", "worksheet"])
def test_the_picture_and_worksheet_commands_need_no_display(command, tmp_path):
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    out = tmp_path / ("shot.png" if command == "screenshot" else "sheet.pdf")
    args = ["--at", "0.5"] if command == "screenshot" else []
    done = subprocess.run([sys.executable, "-m", "classroom_sim.cli", command, str(default_lesson()), *args,
                           "-o", str(out)], env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-500:]
    assert out.stat().st_size > 1000


def test_a_window_that_fails_while_it_is_built_leaves_no_physics_thread_and_collection_on(qapp, monkeypatch, settings):
    """The window's bridge starts the physics thread and turns automatic garbage collection
    off (`ui.bridge`); a failure later in building the window closes that bridge again."""
    import gc
    import threading

    from ui import bridge

    def broken(self):
        raise RuntimeError("the status bar failed")

    monkeypatch.setattr(MainWindow, "_build_status", broken)
    threads = set(threading.enumerate())
    with pytest.raises(RuntimeError, match="the status bar failed"):
        MainWindow(load_scene(default_lesson()), settings=settings)
    assert gc.isenabled()
    assert bridge._open == 0
    assert not [t for t in threading.enumerate() if t not in threads and t.is_alive()]


def test_a_window_that_fails_while_it_is_built_raises_its_own_error_if_closing_fails_too(qapp, monkeypatch,
                                                                                       settings):
    """Where closing the bridge fails as well (its physics thread did not stop in time), the
    error raised is still the build's, which says what went wrong, with closing's as a note."""
    from ui import bridge

    def broken(self):
        raise RuntimeError("the status bar failed")

    closing = bridge.SimulationBridge.close

    def stuck(self):
        closing(self)  # (the thread stops all the same: nothing is left running)
        raise TimeoutError("the physics thread did not stop within 5.0 s")

    monkeypatch.setattr(MainWindow, "_build_status", broken)
    monkeypatch.setattr(bridge.SimulationBridge, "close", stuck)
    with pytest.raises(RuntimeError, match="the status bar failed") as raised:
        MainWindow(load_scene(default_lesson()), settings=settings)
    assert any("did not stop within 5.0 s" in note for note in raised.value.__notes__)


def test_the_app_prepares_its_step_and_drawing_behind_a_notice_that_says_why(qapp, monkeypatch):
    """On a machine's first run the step and the canvas's drawing compile for a minute or
    two: `ui.app.prepare` does both before the window opens, with a notice on screen all the
    while that says why, and that a click does not hide."""
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QSplashScreen

    import classroom_sim
    from ui import app as app_module, raster

    seen = []

    def notices():  # (asked in the GUI thread only)
        return [w.message() for w in qapp.topLevelWidgets() if isinstance(w, QSplashScreen) and w.isVisible()]

    step, drawing = classroom_sim.warm_up, raster.warm_up
    monkeypatch.setattr(classroom_sim, "warm_up", lambda: (seen.append("step"), step()))
    monkeypatch.setattr(raster, "warm_up", lambda: (seen.append(notices()), drawing()))
    notice = app_module.prepare(qapp)
    try:
        assert len(seen) == 2 and "step" in seen
        drawn = [s for s in seen if s != "step"][0]
        assert len(drawn) == 1 and "first run" in drawn[0]
        QTest.mouseClick(notice, Qt.LeftButton, pos=QPoint(10, 10))
        assert notice.isVisible() and "first run" in notices()[0]
    finally:
        notice.close()


def test_the_drawing_prepared_is_the_one_the_canvas_uses():
    """`raster.warm_up` compiles the drawing loops for the very types the canvas hands over:
    a canvas drawn after it, bodies and trails (of two samples too, whose arrays are views
    that numba would take for another type), compiles nothing more (else its first paint
    would compile again)."""
    from ui import raster
    from ui.app import render

    raster.warm_up()
    before = (len(raster.paint_discs.signatures), len(raster.paint_segments.signatures))
    for seconds in (1.0 / 60.0, 0.5):  # (a trail of two samples, and a longer one)
        world = load_scene(default_lesson())

        def advance(each, world=world, seconds=seconds):
            while world.time < seconds - 1e-9:
                world.step(1.0 / 240.0)
                each(world)

        render(world, (320, 200), advance=advance, trail_seconds=1.0)
    assert (len(raster.paint_discs.signatures), len(raster.paint_segments.signatures)) == before
