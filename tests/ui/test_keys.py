"""No one-key shortcut fires while an editor has the focus; the keys still work on the canvas."""

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

from classroom_sim import Body, World
from ui.main_window import MainWindow


@pytest.fixture
def window(qtbot, tmp_path):
    world = World(gravity=(0.0, -9.81), bounds=(0.0, 0.0, 10.0, 10.0))
    world.add_body(Body("A", 1.0, 0.3, (3.0, 5.0)))
    world.add_body(Body("B", 1.0, 0.3, (6.0, 5.0)))
    w = MainWindow(world, None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    yield w
    w.close()


def state(w):
    snap = w.bridge.latest
    return (snap.names, w.canvas.display.trails, w.canvas.display.velocity, w.canvas.selection,
            w.bridge.simulation.paused)


def spy(w):
    """The window's actions as they fire."""
    fired = []
    for action in w.actions():
        action.triggered.connect(lambda *args, name=action.text(): fired.append(name))
    return fired


def press_all(qtbot, widget):
    for key in (Qt.Key_R, Qt.Key_T, Qt.Key_V, Qt.Key_Space, Qt.Key_Delete, Qt.Key_Backspace, Qt.Key_F):
        qtbot.keyClick(widget, key)
    qtbot.wait(50)


@pytest.mark.qt_log_ignore("does not support (raise|grabbing)")  # Space opens the trail length's list
def test_keys_typed_into_fields_stay_in_the_fields(window, qtbot, monkeypatch):
    w = window
    w.canvas.select("A")
    assert w.inspector.body == "A"
    w.inspector_dock.raise_()
    monkeypatch.setattr(w, "ask_keep_edits", lambda: "cancel")  # (a reset that fired would ask)
    before = state(w)
    fired = spy(w)
    editors = [w.inspector.accelerations.table, w.inspector.radius, w.world_panel.strength.field, w.trail_seconds,
               w.lesson_panel.prediction_entry]
    for editor in editors:
        editor.setFocus()
        QApplication.processEvents()
        press_all(qtbot, editor)
        assert fired == [] and state(w) == before, type(editor).__name__


def test_delete_in_the_acceleration_table_edits_the_table_not_the_bodies(window, qtbot):
    w = window
    w.canvas.select("A")
    table = w.inspector.accelerations.table
    table.setFocus()
    qtbot.keyClick(table, Qt.Key_Delete)
    qtbot.keyClick(table, Qt.Key_Backspace)
    qtbot.wait(50)
    assert w.bridge.latest.names == ("A", "B")


def test_the_keys_still_work_on_the_canvas(window, qtbot):
    w = window
    w.canvas.setFocus()
    fired = spy(w)
    trails = w.canvas.display.trails
    qtbot.keyClick(w.canvas, Qt.Key_T)
    assert w.canvas.display.trails != trails
    w.canvas.select("B")
    qtbot.keyClick(w.canvas, Qt.Key_Delete)
    qtbot.waitUntil(lambda: w.bridge.latest.names == ("A",), timeout=2000)
    qtbot.keyClick(w.canvas, Qt.Key_Space)
    qtbot.waitUntil(lambda: not w.bridge.simulation.paused, timeout=2000)
    assert fired[:2] == ["Trails", "Delete selected body"]
