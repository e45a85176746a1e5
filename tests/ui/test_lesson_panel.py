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
        # the setup sets the angle, which keeps the lesson's start speed
        speed = read_param(w.start_world.snapshot(), "bodies.ball.speed")
        assert read_param(snap, "bodies.ball.speed") == pytest.approx(speed, abs=1e-9)
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


def test_reset_after_discard_does_not_ask_again_and_a_refused_edit_is_no_change(open_window, qtbot, monkeypatch):
    w = open_window(world=_free_scene())
    asked = []
    monkeypatch.setattr(w, "ask_keep_edits", lambda: asked.append(1) or "discard")
    w.bridge.send(commands.SetPosition("A", (7.0, 7.0))).result(timeout=2)
    w.reset()
    assert len(asked) == 1
    qtbot.waitUntil(lambda: tuple(w.bridge.latest.positions[0]) == (2.0, 5.0), timeout=2000)
    w.reset()  # back at the start, nothing changed since: nothing to ask
    assert len(asked) == 1
    with qtbot.waitSignal(w.bridge.refused, timeout=2000):
        w.bridge.send(commands.SetMass("A", -1.0))  # refused: the World is unchanged
    w.reset()
    assert len(asked) == 1
    # dragging a body while paused is a change
    qtbot.waitUntil(lambda: w.bridge.simulation.paused, timeout=2000)
    w.canvas.fit()
    x, y = (float(v) for v in w.canvas.view.to_screen(2.0, 5.0))
    from PySide6.QtCore import QPoint
    qtbot.mousePress(w.canvas, Qt.LeftButton, pos=QPoint(round(x), round(y)))
    qtbot.mouseMove(w.canvas, QPoint(round(x) + 40, round(y)))
    qtbot.mouseRelease(w.canvas, Qt.LeftButton, pos=QPoint(round(x) + 40, round(y)))
    qtbot.waitUntil(lambda: w.bridge.latest.positions[0][0] > 2.0, timeout=2000)
    w.reset()
    assert len(asked) == 2


def test_the_other_panels_show_the_step_just_entered(open_window, qtbot):
    """Two Worlds may carry the same revision number: the panels refresh on a new step anyway."""
    path = next(p for p in lesson_files() if p.stem == "moon")
    w = open_window(path)
    w.bridge.send(commands.SetParameter("world.gravity.y", -5.0)).result(timeout=2)
    qtbot.waitUntil(lambda: w.world_panel.strength.value() == pytest.approx(5.0), timeout=2000)
    w.lesson_panel.next_step()  # step 2 sets g = 1.62 m/s²
    entered(qtbot, w)
    qtbot.waitUntil(lambda: w.world_panel.strength.value() == pytest.approx(1.62), timeout=2000)


def test_the_prediction_is_the_one_typed_when_run_was_pressed(open_window, qtbot):
    path = next(p for p in lesson_files() if p.stem == "moon")
    w = open_window(path)
    panel = w.lesson_panel
    panel.prediction_entry.setText("1.25")
    panel.run_prediction()
    panel.prediction_entry.setText("9")  # typed while it runs: a prediction for the next run
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1, timeout=20000)
    assert panel.model.rows[0].predicted == 1.25
    assert panel.model.rows[0].within is True  # 5²/(2·9.81) = 1.274 m


def test_a_run_that_cannot_measure_says_why_in_one_sentence(open_window, qtbot):
    from classroom_sim import Lesson, Prediction, Step

    world = World(gravity=(0.0, -9.81))  # no box: no floor to land on
    world.add_body(Body("A", 1.0, 0.3, (2.0, 5.0)))
    world.lesson = Lesson("Falling", steps=(Step("Drop", "Where does it land?",
                                                 predict=Prediction("How far?", "A", "floor", "time", "s")),))
    w = open_window(world=world)
    panel = w.lesson_panel
    panel.prediction_entry.setText("1")
    qtbot.mouseClick(panel.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.run_button.isEnabled(), timeout=5000)
    text = panel.result.text()
    assert "box" in text and text.endswith(".") and "\n" not in text and text[0].isupper()
    assert panel.model.rowCount() == 0 and "Running" not in panel.verdict.text()
    assert not w.messages.isVisible()  # said in the panel, not as a refused edit


def test_projector_mode_enlarges_the_lesson_panel(open_window):
    path = next(p for p in lesson_files() if p.stem == "projectile")
    w = open_window(path)
    panel = w.lesson_panel
    before = (panel.font().pointSizeF(), panel.text.document().defaultFont().pointSizeF(),
              panel.verdict.font().pointSizeF(), panel.result.font().pointSizeF(),
              panel.prediction_entry.font().pointSizeF())
    w.set_projector(True)
    after = (panel.font().pointSizeF(), panel.text.document().defaultFont().pointSizeF(),
             panel.verdict.font().pointSizeF(), panel.result.font().pointSizeF(),
             panel.prediction_entry.font().pointSizeF())
    assert all(a >= 1.3 * b for a, b in zip(after, before)), (before, after)
    w.set_projector(False)
    assert panel.text.document().defaultFont().pointSizeF() == pytest.approx(before[1])


def test_an_export_that_fails_says_so_in_the_panel(open_window, tmp_path):
    path = next(p for p in lesson_files() if p.stem == "uniform")
    w = open_window(path)
    panel = w.lesson_panel
    assert panel.export_csv_to(tmp_path / "no such folder" / "out.csv") is None
    assert "cannot save" in panel.export_note.text()
    assert not (tmp_path / "no such folder").exists()


@pytest.mark.parametrize("button, choice", [("Keep", "keep"), ("Discard", "discard"), (None, "cancel")])
def test_the_keep_or_discard_question_itself(open_window, qtbot, button, choice):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    w = open_window(world=_free_scene())
    seen = []

    def answer():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, answer)
            return
        seen.append(box.text())
        if button is None:
            box.reject()  # Escape, or the window's close button
        else:
            next(b for b in box.buttons() if b.text().startswith(button)).click()

    QTimer.singleShot(0, answer)
    assert w.ask_keep_edits() == choice
    assert "Keep the current state as the new start?" in seen[0]
