"""The lesson panel: every shipped lesson walked step by step, predict-run-compare,
controls bound live and clamped, the predictions table, reset that respects the class."""

import csv

import pytest
from PySide6.QtCore import QSettings, Qt

from classroom_sim import World, Body, commands, lesson_files, load_scene, read_param, run_until
from ui.main_window import MainWindow


@pytest.fixture
def open_window(qtbot, tmp_path):
    made = []

    def make(path=None, world=None):
        world = world if world is not None else load_scene(path)
        w = MainWindow(world, path, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        made.append(w)
        if w.lesson_panel.entering is not None:
            w.lesson_panel.entering.result(timeout=5)
        return w

    yield make
    for w in made:
        w.close()


def entered(qtbot, w):
    """Wait until the step just entered is what the physics thread runs."""
    w.lesson_panel.entering.result(timeout=5)
    qtbot.waitUntil(lambda: w.bridge.latest is w.bridge.simulation.latest, timeout=2000)


@pytest.mark.parametrize("path", lesson_files(), ids=lambda p: p.stem)
def test_every_shipped_lesson_can_be_walked_through(open_window, qtbot, path):
    w = open_window(path)
    panel = w.lesson_panel
    lesson = load_scene(path).lesson
    assert w.lesson_dock.isVisibleTo(w)
    assert panel.title.text() == lesson.title and panel.summary.text() == lesson.summary
    n = len(lesson.steps)
    for k in range(n):
        assert panel.counter.text() == f"Step {k + 1} of {n}"
        assert panel.step_title.text() == lesson.steps[k].title
        assert panel.text.toPlainText().strip()  # the Markdown, rendered
        assert list(panel.fields) == [c.param for c in lesson.step_controls(k)]
        assert panel.predict_box.isVisibleTo(panel) == (lesson.steps[k].predict is not None)
        assert panel.back.isEnabled() == (k > 0) and panel.next.isEnabled() == (k < n - 1)
        qtbot.mouseClick(panel.next, Qt.LeftButton)
    for k in reversed(range(n - 1)):
        qtbot.mouseClick(panel.back, Qt.LeftButton)
        assert panel.counter.text() == f"Step {k + 1} of {n}"
    # the first question: typed, run, and the result shown beside the answer key's value
    k, predict = lesson.predictions[0]
    panel.enter_step(k)
    w.set_time_scale(4.0)
    truth = run_until(lesson.prepare(load_scene(path), k), predict.body, predict.event, predict.at)
    qtbot.keyClicks(panel.prediction_entry, "1.5")
    qtbot.mouseClick(panel.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1, timeout=30000)
    assert panel.model.rows[0].measured == pytest.approx(truth.value(predict.quantity), rel=1e-9, abs=1e-9)
    assert panel.model.rows[0].predicted == 1.5 and "Measured" in panel.result.text()
    assert w.bridge.simulation.latest.time == pytest.approx(panel.last_measurement.world_time, abs=1e-9)


def test_entering_a_step_applies_its_setup_to_the_lessons_start(open_window, qtbot):
    path = next(p for p in lesson_files() if p.stem == "projectile")
    w = open_window(path)
    lesson = w.start_world.lesson
    for k in (2, 1):
        w.lesson_panel.enter_step(k)
        entered(qtbot, w)
        setup = dict(lesson.steps[k].setup)
        snap = w.bridge.latest
        assert snap.time == 0.0 and w.bridge.simulation.paused
        assert read_param(snap, "bodies.ball.angle") == pytest.approx(setup["bodies.ball.angle"], abs=1e-9)
        assert read_param(snap, "bodies.ball.speed") == pytest.approx(setup["bodies.ball.speed"], abs=1e-9)
        assert w.lesson_panel.fields["bodies.ball.angle"].value() == pytest.approx(setup["bodies.ball.angle"])


@pytest.mark.parametrize("stem", ["projectile", "collision_1d", "from_rest"])
def test_run_pauses_exactly_at_the_event_and_compares(open_window, qtbot, stem):
    path = next(p for p in lesson_files() if p.stem == stem)
    w = open_window(path)
    panel = w.lesson_panel
    w.set_time_scale(4.0)
    predict = w.start_world.lesson.steps[0].predict
    expected = run_until(w.start_world.lesson.prepare(w.start_world, 0), predict.body, predict.event, predict.at)
    truth = expected.value(predict.quantity)
    panel.prediction_entry.setText(repr(truth * 1.02))  # 2% off: within the 5% tolerance
    qtbot.mouseClick(panel.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.last_measurement is not None, timeout=20000)
    m = panel.last_measurement
    assert m.value(predict.quantity) == pytest.approx(truth, rel=1e-9, abs=1e-9)
    assert w.bridge.simulation.paused
    assert w.bridge.simulation.latest.time == pytest.approx(m.world_time, abs=1e-9)
    assert "Right" in panel.verdict.text() and "Measured" in panel.result.text()
    assert w.canvas.marker is not None and w.canvas.marker[0] == pytest.approx(m.position)
    assert panel.model.rowCount() == 1 and panel.model.rows[0].within is True
    # a wrong prediction is called wrong
    panel.prediction_entry.setText(repr(truth * 1.5 + 1.0))
    panel.run_prediction()
    qtbot.waitUntil(lambda: panel.model.rowCount() == 2, timeout=20000)
    assert panel.model.rows[1].within is False and "Not quite" in panel.verdict.text()


def test_a_control_reaches_the_running_world_clamped_to_its_range(open_window, qtbot):
    path = next(p for p in lesson_files() if p.stem == "projectile")
    w = open_window(path)
    angle = w.start_world.lesson.control("Launch angle (°)")
    w.lesson_panel.set_control(angle.label, 30.0)
    qtbot.waitUntil(lambda: abs(read_param(w.bridge.latest, angle.param) - 30.0) < 1e-9, timeout=2000)
    w.lesson_panel.set_control(angle.label, 500.0)
    qtbot.waitUntil(lambda: abs(read_param(w.bridge.latest, angle.param) - angle.max) < 1e-9, timeout=2000)
    assert w.lesson_panel.fields[angle.param].value() == pytest.approx(angle.max)
    # the slider itself, as a student drags it
    field = w.lesson_panel.fields[angle.param]
    field.slider.setValue(0)
    qtbot.waitUntil(lambda: abs(read_param(w.bridge.latest, angle.param) - angle.min) < 1e-9, timeout=2000)


def test_run_uses_the_controls_current_values(open_window, qtbot):
    path = next(p for p in lesson_files() if p.stem == "projectile")
    w = open_window(path)
    w.set_time_scale(4.0)
    panel = w.lesson_panel
    panel.set_control("Launch angle (°)", 60.0)
    panel.set_control("Launch speed (m/s)", 10.0)
    panel.run_prediction()
    qtbot.waitUntil(lambda: panel.last_measurement is not None, timeout=20000)
    g = -w.start_world.gravity[1]
    import math
    assert panel.last_measurement.value("range") == pytest.approx(100 * math.sin(math.radians(120)) / g, rel=1e-9)


def test_predictions_export_to_csv(open_window, qtbot, tmp_path):
    path = next(p for p in lesson_files() if p.stem == "uniform")
    w = open_window(path)
    w.set_time_scale(4.0)
    panel = w.lesson_panel
    panel.prediction_entry.setText("9")
    panel.run_prediction()
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1, timeout=20000)
    out = panel.export_csv_to(tmp_path / "class")
    assert out.name == "class.csv"
    with out.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    puck = w.start_world.body("puck")
    assert float(rows[0]["measured"]) == pytest.approx(float(puck.position[0]) + 4.0 * float(puck.velocity[0]))
    assert float(rows[0]["prediction"]) == 9.0 and rows[0]["within_tolerance"] == "yes"


def test_r_goes_back_to_the_start_of_the_step(open_window, qtbot):
    path = next(p for p in lesson_files() if p.stem == "projectile")
    w = open_window(path)
    w.lesson_panel.enter_step(1)
    entered(qtbot, w)
    start = w.bridge.latest.velocities.copy()
    w.play_action.trigger()
    qtbot.waitUntil(lambda: w.bridge.latest.time > 0.2, timeout=5000)
    w.reset_action.trigger()
    entered(qtbot, w)
    assert w.lesson_panel.step == 1 and w.bridge.latest.time == 0.0
    assert (w.bridge.latest.velocities == start).all()
    w.lesson_start_action.trigger()
    entered(qtbot, w)
    assert w.lesson_panel.step == 0 and w.lesson_panel.counter.text().startswith("Step 1 of")


def _free_scene():
    world = World(gravity=(0.0, -9.81), bounds=(0.0, 0.0, 10.0, 10.0))
    world.add_body(Body("A", 1.0, 0.3, (2.0, 5.0)))
    return world


@pytest.mark.parametrize("choice", ["keep", "discard", "cancel"])
def test_reset_in_a_free_scene_asks_before_throwing_edits_away(open_window, qtbot, monkeypatch, choice):
    w = open_window(world=_free_scene())
    assert not w.lesson_dock.isVisibleTo(w)
    asked = []
    monkeypatch.setattr(w, "ask_keep_edits", lambda: asked.append(1) or choice)
    w.reset()  # nothing edited: no question
    assert not asked
    w.bridge.send(commands.SetPosition("A", (7.0, 7.0))).result(timeout=2)
    qtbot.waitUntil(lambda: tuple(w.bridge.latest.positions[0]) == (7.0, 7.0), timeout=2000)
    w.reset()
    assert asked
    qtbot.wait(100)
    if choice == "discard":
        qtbot.waitUntil(lambda: tuple(w.bridge.latest.positions[0]) == (2.0, 5.0), timeout=2000)
    else:
        assert tuple(w.bridge.latest.positions[0]) == (7.0, 7.0)
    if choice == "keep":  # the kept state is the new start: a later reset comes back to it
        w.play_action.trigger()
        qtbot.waitUntil(lambda: w.bridge.latest.time > 0.1, timeout=5000)
        w.play_action.trigger()  # pause, so that the reset shows its instant
        qtbot.waitUntil(lambda: w.bridge.simulation.paused, timeout=2000)
        w.reset()
        qtbot.waitUntil(lambda: w.bridge.latest.time == 0.0, timeout=2000)
        assert tuple(w.bridge.latest.positions[0]) == (7.0, 7.0)


def test_markdown_loads_no_resources(open_window):
    path = next(p for p in lesson_files() if p.stem == "free_fall")
    w = open_window(path)
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QTextDocument

    assert w.lesson_panel.text.loadResource(QTextDocument.ImageResource, QUrl("file:///etc/passwd")) is None
    assert w.lesson_panel.text.loadResource(QTextDocument.ImageResource, QUrl("https://example.org/x.png")) is None
