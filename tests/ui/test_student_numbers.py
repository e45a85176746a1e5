"""The lesson panel's student-number box: shown only for lessons with variants; a number
loads that student's values into the running simulation, and predictions are checked
against them; none is the lesson's own numbers."""

import pytest
from PySide6.QtCore import QSettings, Qt

from classroom_sim import lesson_files, load_scene, read_param
from classroom_sim.variants import sheets
from ui.main_window import MainWindow

PROJECTILE = next(p for p in lesson_files() if p.stem == "projectile")


@pytest.fixture
def open_window(qtbot, tmp_path):
    made = []

    def make(path):
        w = MainWindow(load_scene(path), path, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        made.append(w)
        w.lesson_panel.entering.result(timeout=5)
        return w

    yield make
    for w in made:
        w.close()


def speed_shown(w):
    return read_param(w.bridge.latest, "bodies.ball.speed")


def test_the_box_shows_only_for_lessons_with_variants(open_window):
    w = open_window(PROJECTILE)
    assert w.lesson_panel.student_box.isVisibleTo(w.lesson_panel)
    assert w.lesson_panel.student.value() == 0 and w.lesson_panel.seed.value() == 1
    other = open_window(next(p for p in lesson_files() if p.stem == "free_fall"))
    assert not other.lesson_panel.student_box.isVisibleTo(other.lesson_panel)


def test_a_student_number_loads_that_students_values_and_checks_against_them(open_window, qtbot):
    w = open_window(PROJECTILE)
    panel = w.lesson_panel
    w.set_time_scale(4.0)
    student = sheets(load_scene(PROJECTILE), 5, seed=1)[4]
    (drawn,) = student.values
    assert drawn.value != 12.0  # (student 5 of seed 1: not the lesson's own speed, or this proves nothing)
    panel.next_step()  # the box keeps the step the class is on
    panel.student.setValue(5)  # as a student types it
    qtbot.waitUntil(lambda: abs(speed_shown(w) - drawn.value) < 1e-9, timeout=3000)
    assert panel.step == 1 and panel.numbers.text() == drawn.text
    assert read_param(w.bridge.latest, "bodies.ball.angle") == pytest.approx(30.0)
    assert panel.fields["bodies.ball.speed"].value() == pytest.approx(drawn.value)
    # the run measures the student's answer, not the lesson's
    truth = student.answers[1].value
    panel.prediction_entry.setText(repr(truth * 1.01))
    qtbot.mouseClick(panel.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1, timeout=20000)
    assert panel.model.rows[0].measured == pytest.approx(truth, rel=1e-9)
    assert panel.model.rows[0].within is True
    # R (back to the step's start) keeps the student's numbers
    w.reset()
    qtbot.waitUntil(lambda: w.bridge.latest.time == 0.0, timeout=3000)
    assert speed_shown(w) == pytest.approx(drawn.value)
    # none: the lesson's own numbers again
    panel.student.setValue(0)
    qtbot.waitUntil(lambda: abs(speed_shown(w) - 12.0) < 1e-9, timeout=3000)
    assert panel.numbers.text() == ""


def test_the_seed_changes_the_draw(open_window, qtbot):
    w = open_window(PROJECTILE)
    panel = w.lesson_panel
    lesson = load_scene(PROJECTILE)
    seed = next(s for s in range(2, 50) if sheets(lesson, 3, s)[2].values != sheets(lesson, 3, 1)[2].values)
    (drawn,) = sheets(lesson, 3, seed)[2].values
    panel.set_student(3, seed=seed)
    qtbot.waitUntil(lambda: abs(speed_shown(w) - drawn.value) < 1e-9, timeout=3000)
    assert panel.seed.value() == seed and panel.student.value() == 3


def test_opening_another_lesson_clears_the_student(open_window, qtbot):
    w = open_window(PROJECTILE)
    w.lesson_panel.set_student(4)
    w.open_scene_file(next(p for p in lesson_files() if p.stem == "ledge"))
    w.lesson_panel.entering.result(timeout=5)
    assert w.lesson_panel.student.value() == 0 and w.lesson_panel.numbers.text() == ""
    qtbot.waitUntil(lambda: abs(read_param(w.bridge.latest, "bodies.ball.velocity.x") - 4.0) < 1e-9, timeout=3000)
