"""The data table: the selected body's recorded samples exactly as the engine recorded
them, appended as the recording grows (only the new rows each frame), switched with the
selection, and copied to the clipboard as tab-separated text in full precision."""

import numpy as np
import pytest
from PySide6.QtCore import QItemSelection, QItemSelectionModel, QSettings, Qt
from PySide6.QtGui import QGuiApplication

from tests.ui.helpers import G, FakeBridge, two_balls
from ui.panels.table import COLUMNS, TablePanel


@pytest.fixture
def panel(qtbot):
    bridge = FakeBridge(two_balls())
    p = TablePanel(bridge, 100.0)
    qtbot.addWidget(p)
    p.show()
    assert bridge.recording  # shown, the table turned Record on
    return p, bridge


def column(p, name):
    return p.model.values[:p.model.n, COLUMNS.index(name)]


def parse(text):
    lines = text.rstrip("\n").split("\n")
    return lines[0].split("\t"), [[float(c) if c else None for c in line.split("\t")] for line in lines[1:]]


def test_rows_are_the_selected_body_s_recorded_samples(panel):
    p, bridge = panel
    p.set_selected("red")
    for k in range(1, 11):
        bridge.run(k * 0.05)
    assert p.model.rowCount() == 51 and p.model.columnCount() == len(COLUMNS)
    t = column(p, "t (s)")
    assert np.array_equal(t, np.arange(51) / 100.0)  # exactly k / rate
    recorded = bridge.recorder.recording().trajectory("red")  # t, x, y, vx, vy, ax, ay
    for k, name in enumerate(("t (s)", "x (m)", "y (m)", "vx (m/s)", "vy (m/s)", "ax (m/s²)", "ay (m/s²)")):
        assert np.array_equal(column(p, name), recorded[:, k])
    assert column(p, "y (m)") == pytest.approx(100.0 - 0.5 * G * t * t, rel=1e-12)
    assert column(p, "x (m)") == pytest.approx(2.0 * t, rel=1e-12)
    assert column(p, "speed (m/s)") == pytest.approx(np.hypot(2.0, G * t), rel=1e-12)
    assert column(p, "kinetic energy (J)") == pytest.approx(0.5 * 1.0 * (4.0 + (G * t) ** 2), rel=1e-12)
    assert column(p, "ay (m/s²)") == pytest.approx(np.full(51, -G))
    assert "red" in p.caption.text() and not p.placeholder


def test_switching_the_selection_switches_the_rows(panel):
    p, bridge = panel
    p.set_selected("red")
    bridge.run(0.5)
    p.set_selected("blue")
    t = column(p, "t (s)")
    assert np.array_equal(t, np.arange(51) / 100.0)
    assert column(p, "vy (m/s)") == pytest.approx(4.0 - G * t, rel=1e-12, abs=1e-12)
    assert column(p, "kinetic energy (J)") == pytest.approx(0.5 * 3.0 * (4.0 - G * t) ** 2, rel=1e-12, abs=1e-12)
    assert "blue" in p.caption.text()
    bridge.run(0.6)
    assert p.model.rowCount() == 61 and column(p, "x (m)") == pytest.approx(np.full(61, 5.0))


def test_the_placeholder_says_why_there_are_no_rows(qtbot):
    world = two_balls()
    world.advance_to(0.005)  # off the grid: recording begins at 0.01
    bridge = FakeBridge(world)
    p = TablePanel(bridge, 100.0)
    qtbot.addWidget(p)
    p.show()
    assert p.placeholder and p.model.rowCount() == 0
    assert "Select a body" in p.caption.text() and not p.copy_all.isEnabled()
    p.set_selected("red")
    assert p.placeholder and "No samples of red" in p.caption.text()
    bridge.run(0.05)
    assert not p.placeholder and p.model.rowCount() == 5 and p.copy_all.isEnabled()
    p.set_selected(None)
    assert p.placeholder and p.model.rowCount() == 0 and "Select a body" in p.caption.text()


def test_each_refresh_inserts_only_the_new_rows(panel):
    p, bridge = panel
    p.set_selected("red")
    bridge.run(1.0)
    inserted, resets = [], []
    p.model.rowsInserted.connect(lambda parent, first, last: inserted.append((first, last)))
    p.model.modelReset.connect(lambda: resets.append(1))
    bridge.asked.clear()
    for k in range(1, 21):
        bridge.run(1.0 + 0.1 * k)
    assert resets == []
    assert inserted == [(101 + 10 * k, 110 + 10 * k) for k in range(20)]  # ten new samples a frame
    assert bridge.asked == [101 + 10 * k for k in range(20)]  # each frame asks only for what is new
    assert np.array_equal(column(p, "t (s)"), np.arange(301) / 100.0)


def test_a_new_recording_starts_the_rows_over(panel):
    p, bridge = panel
    p.set_selected("red")
    bridge.run(1.0)
    bridge.recorder.stop()
    bridge.record(True, 100.0)  # a new recording (say, after Clear)
    bridge.run(1.5)
    assert np.array_equal(column(p, "t (s)"), np.arange(100, 151) / 100.0)


def test_the_view_rounds_but_a_copy_keeps_every_digit(panel, qtbot):
    p, bridge = panel
    p.set_selected("red")
    bridge.run(0.5)
    model = p.model
    y = float(model.values[37, 2])
    shown = model.data(model.index(37, 2))
    assert float(shown) == pytest.approx(y, abs=5e-5) and float(shown) != y
    selection = QItemSelection(model.index(2, 1), model.index(40, 3))
    p.view.selectionModel().select(selection, QItemSelectionModel.ClearAndSelect)
    p.view.setFocus()
    qtbot.keyClick(p.view, Qt.Key_C, Qt.ControlModifier)
    header, rows = parse(QGuiApplication.clipboard().text())
    assert header == ["x (m)", "y (m)", "vx (m/s)"]
    recorded = bridge.recorder.recording().trajectory("red")
    assert rows == recorded[2:41, 1:4].tolist()  # the floats, to the last digit
    assert rows[35][1] == y


def test_copy_all_copies_every_row_with_the_header(panel, qtbot):
    p, bridge = panel
    p.set_selected("blue")
    bridge.run(0.3)
    qtbot.mouseClick(p.copy_all, Qt.LeftButton)
    header, rows = parse(QGuiApplication.clipboard().text())
    assert header == list(COLUMNS)
    assert len(rows) == 31
    rows = np.array(rows)
    recorded = bridge.recorder.recording().trajectory("blue")
    assert np.array_equal(rows[:, [0, 1, 2, 3, 4, 6, 7]], recorded)
    assert rows[:, 8] == pytest.approx(0.5 * 3.0 * (4.0 - G * rows[:, 0]) ** 2, rel=1e-12, abs=1e-12)


def test_a_scattered_selection_copies_its_cells_and_leaves_the_rest_empty(panel):
    p, bridge = panel
    p.set_selected("red")
    bridge.run(0.2)
    m = p.model
    text = m.text([(1, 1, 0, 0), (3, 3, 2, 2)])
    header, rows = parse(text)
    assert header == ["t (s)", "y (m)"]
    assert rows == [[0.01, None], [None, m.values[3, 2]]]


def test_follow_keeps_the_newest_row_in_view(panel, qtbot):
    p, bridge = panel
    p.resize(600, 300)
    p.set_selected("red")
    bridge.run(3.0)
    qtbot.wait(10)
    bar = p.view.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() == bar.maximum()
    p.follow.setChecked(False)
    bar.setValue(0)
    bridge.run(4.0)
    qtbot.wait(10)
    assert bar.value() == 0


def test_the_window_s_data_table_records_and_follows_the_canvas_selection(qtbot, tmp_path):
    from ui.main_window import MainWindow

    w = MainWindow(two_balls(), None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(w)
    w.show()
    action = w.table_dock.toggleViewAction()
    view_menu = next(a.menu() for a in w.menuBar().actions() if a.text() == "&View")
    assert action in view_menu.actions()
    assert not w.table_dock.isVisible()
    action.trigger()
    assert w.table_dock.isVisible()
    qtbot.waitUntil(lambda: w.bridge.recording, timeout=5000)
    assert w.table_panel.placeholder
    w.canvas.select("blue")
    w.play_action.trigger()
    qtbot.waitUntil(lambda: w.table_panel.model.rowCount() > 20, timeout=5000)
    w.play_action.trigger()
    t = column(w.table_panel, "t (s)")
    assert np.array_equal(t, np.arange(len(t)) / 100.0)
    assert column(w.table_panel, "y (m)") == pytest.approx(200.0 + 4.0 * t - 0.5 * G * t * t, rel=1e-12)
    w.graphs_action.trigger()  # the graphs come in front, the table waits in its tab
    assert w.graphs_dock.isVisible() and w.table_dock in w.tabifiedDockWidgets(w.graphs_dock)
    qtbot.waitUntil(lambda: not w.graphs_panel.visibleRegion().isEmpty(), timeout=5000)
    assert w.table_panel.visibleRegion().isEmpty()
    w.close()


def test_larger_type_makes_taller_rows_and_wider_columns(panel):
    p, _ = panel
    height, width = p.view.verticalHeader().defaultSectionSize(), p.view.columnWidth(0)
    font = p.font()
    font.setPointSizeF(2.5 * font.pointSizeF())
    p.setFont(font)  # projector mode
    assert p.view.verticalHeader().defaultSectionSize() > 2 * height
    assert p.view.columnWidth(0) > 2 * width
