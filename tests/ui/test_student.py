"""Student mode hides every editing path until the teacher's PIN unlocks it; the PIN is
kept only as a salted hash; set-pin asks twice."""

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QContextMenuEvent

from classroom_sim import lesson_files, load_scene
from ui.app import set_pin
from ui.main_window import MainWindow
from ui.student import KEY, check_pin, hash_pin, pin_problem, store_pin


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat)


@pytest.fixture
def student_window(qtbot, settings):
    path = next(p for p in lesson_files() if p.stem == "collision_1d")
    w = MainWindow(load_scene(path), path, settings=settings, student=True)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.lesson_panel.entering.result(timeout=5)
    yield w
    w.close()


def editing_paths(w):
    """Everything student mode must take away: (what, available now)."""
    docks = [d for d in w.docks if d is not w.lesson_dock]
    return {
        "world panel and inspector": any(d.isVisibleTo(w) for d in docks)
        or any(a.isEnabled() for a in w.panel_actions),
        "open": w.open_action.isEnabled(), "save": w.save_action.isEnabled(),
        "export": w.export_action.isEnabled(), "picture": w.png_action.isEnabled(),
        "worksheet": w.worksheet_action.isEnabled(),
        "delete": w.delete_action.isEnabled(), "lessons": w.lessons_action.isEnabled(),
        "recent": w.recent_menu.isEnabled(), "record": w.record_action.isEnabled(),
        "canvas editing": w.canvas.editable,
        "predictions export": w.lesson_panel.export_button.isEnabled(),
    }


def test_student_mode_hides_every_editing_path(student_window, qtbot):
    w = student_window
    assert not any(editing_paths(w).values()), editing_paths(w)
    assert w.lesson_dock.isVisibleTo(w) and "student mode" in w.windowTitle()
    names = w.bridge.latest.names
    # the canvas: no adding, no dragging, no deleting, no context menu
    assert w.canvas.add_body_at(5.0, 0.0) is None
    w.canvas.select("A")
    w.delete_selected()
    centre = w.canvas.rect().center()
    w.canvas.contextMenuEvent(QContextMenuEvent(QContextMenuEvent.Mouse, centre, w.canvas.mapToGlobal(centre)))
    x, y = w.canvas.view.to_screen(*w.bridge.latest.positions[0])
    qtbot.mousePress(w.canvas, Qt.LeftButton, pos=QPoint(int(x), int(y)))
    qtbot.mouseMove(w.canvas, QPoint(int(x) + 60, int(y)))
    qtbot.mouseRelease(w.canvas, Qt.LeftButton)
    qtbot.wait(100)
    assert w.bridge.latest.names == names
    assert tuple(w.bridge.latest.positions[0]) == tuple(w.start_world.body("A").position)
    # the time controls and the lesson panel still work
    w.play_action.trigger()
    qtbot.waitUntil(lambda: w.bridge.latest.time > 0.05, timeout=5000)
    w.lesson_panel.next_step()
    assert w.lesson_panel.step == 1


def test_a_lesson_file_can_ask_for_student_mode(qtbot, settings, tmp_path):
    path = next(p for p in lesson_files() if p.stem == "free_fall")
    text = path.read_text(encoding="utf-8").replace('topic = "Free fall"', 'topic = "Free fall"\nstudent = true')
    mine = tmp_path / "locked.toml"
    mine.write_text(text, encoding="utf-8")
    w = MainWindow(load_scene(mine), mine, settings=settings)
    qtbot.addWidget(w)
    assert w.student and not w.open_action.isEnabled()
    w.close()


def test_the_teachers_pin_unlocks_and_a_wrong_one_does_not(student_window, settings):
    w = student_window
    store_pin(settings, "2468")
    assert not w.unlock_with("1111")
    assert w.student and w.messages.isVisible()
    assert w.unlock_with("2468")
    assert not w.student
    assert all(v for what, v in editing_paths(w).items() if what != "recent"), editing_paths(w)
    assert w.canvas.editable
    w.inspector_dock.toggleViewAction().trigger()  # the teacher shows the inspector from the View menu
    assert w.inspector_dock.isVisibleTo(w)
    w.student_action.trigger()
    assert w.student


def test_unlock_without_a_pin_says_how_to_set_one(student_window):
    student_window.unlock()
    assert "classroom-sim set-pin" in student_window.messages.label.text()
    assert student_window.student


def test_the_pin_is_kept_only_as_a_salted_hash(settings):
    a, b = hash_pin("2468"), hash_pin("2468")
    assert a != b and "2468" not in a  # salted: the same PIN hashes differently
    assert check_pin("2468", a) and check_pin("2468", b) and not check_pin("2469", a)
    for broken in ("", "scrypt$zz$00", "md5$00$00", None, 12, "scrypt$00"):
        assert not check_pin("2468", broken)
    store_pin(settings, "2468")
    assert "2468" not in str(settings.value(KEY)) and check_pin("2468", settings.value(KEY))


def test_set_pin_asks_twice(settings, capsys):
    answers = iter(["1357", "1357"])
    assert set_pin(lambda prompt: next(answers), settings) == 0
    assert check_pin("1357", settings.value(KEY))
    answers = iter(["1357", "7531"])
    assert set_pin(lambda prompt: next(answers), settings) == 2
    assert "differ" in capsys.readouterr().err
    assert check_pin("1357", settings.value(KEY))  # the old PIN stands
    assert pin_problem("12", "12") and pin_problem("", "")
