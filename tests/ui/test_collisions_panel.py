"""The collision log panel: it lists each collision live (against the 1D formula),
filters by the selected body, copies in full precision, exports the CSV of
``run --collisions`` and logs only while it is shown."""

import csv

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QGuiApplication

from classroom_sim import COLLISION_COLUMNS, Body, World
from ui.main_window import MainWindow


def one_d(m1, m2, u1, u2, e):
    v1 = (m1 * u1 + m2 * u2 + m2 * e * (u2 - u1)) / (m1 + m2)
    v2 = (m1 * u1 + m2 * u2 + m1 * e * (u1 - u2)) / (m1 + m2)
    return v1, v2


def scene():
    """A (1 kg, 2 m/s) meets B (3 kg, -1 m/s) at t = 0.8 / 3 s with e = 0.5; C, far off,
    meets nobody until it reaches the wall."""
    w = World(gravity=(0.0, 0.0), restitution=0.5, bounds=(-5.0, -5.0, 5.0, 5.0))
    w.add_body(Body("A", 1.0, 0.1, (0.0, 0.0), (2.0, 0.0)))
    w.add_body(Body("B", 3.0, 0.1, (1.0, 0.0), (-1.0, 0.0)))
    w.add_body(Body("C", 1.0, 0.1, (0.0, 3.0), (0.0, 0.0)))
    return w


@pytest.fixture
def window(qtbot, tmp_path):
    w = MainWindow(scene(), None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()


def run_past_the_collision(w, qtbot):
    w.play_action.trigger()
    qtbot.waitUntil(lambda: w.bridge.latest.time > 0.5, timeout=10000)
    w.play_action.trigger()
    qtbot.waitUntil(lambda: w.bridge.paused)
    w.collisions_panel.pull()


def test_the_panel_lists_the_collision_as_the_1d_formula_gives_it(window, qtbot, tmp_path):
    w = window
    panel = w.collisions_panel
    assert not w.bridge.logging_collisions  # nothing listed, nothing spent, until asked
    w.collisions_dock.toggleViewAction().trigger()
    assert panel.isVisible() and w.bridge.logging_collisions
    run_past_the_collision(w, qtbot)
    assert panel.model.rowCount() == 1
    c = panel.model.rows[0]
    v1, v2 = one_d(1.0, 3.0, 2.0, -1.0, 0.5)
    assert (c.a, c.b) == ("A", "B") and abs(c.t - 0.8 / 3.0) < 1e-9
    assert c.va_after[0] == pytest.approx(v1, abs=1e-9) and c.vb_after[0] == pytest.approx(v2, abs=1e-9)
    assert c.e == pytest.approx(0.5, abs=1e-9)
    assert c.dke == pytest.approx(-0.5 * 0.75 * (1 - 0.25) * 9.0, abs=1e-9)
    assert "1 collision" in panel.caption.text()
    # shown rounded; copied in full
    assert panel.model.index(0, 0).data() == f"{c.t:.4f}"
    text = panel.copy_everything()
    assert QGuiApplication.clipboard().text() == text
    header, row = [line.split("\t") for line in text.splitlines()]
    assert sorted(header) == sorted(COLLISION_COLUMNS)  # every column, named as in the CSV
    row = dict(zip(header, row))
    assert float(row["t_s"]) == c.t and float(row["vax_after_m_s"]) == float(c.va_after[0])
    assert float(row["e"]) == c.e and float(row["dke_j"]) == c.dke
    assert header[3:5] == ["dke_j", "e"]  # what a class looks at first, beside the bodies
    # exported as run --collisions writes it, with the suffix added
    assert panel.export_to(tmp_path / "log")
    rows = list(csv.DictReader((tmp_path / "log.csv").read_text().splitlines()))
    assert len(rows) == 1 and float(rows[0]["e"]) == pytest.approx(0.5, abs=1e-9)
    # hidden: the engine stops listing
    w.collisions_dock.toggleViewAction().trigger()
    qtbot.waitUntil(lambda: not w.bridge.logging_collisions)


def test_only_the_selected_body_and_clear(window, qtbot):
    w = window
    panel = w.collisions_panel
    w.collisions_dock.toggleViewAction().trigger()
    run_past_the_collision(w, qtbot)
    assert panel.model.rowCount() == 1
    panel.only.setChecked(True)
    w.canvas.select("C")
    assert panel.model.rowCount() == 0 and "No collisions" in panel.caption.text()
    w.canvas.select("B")
    assert panel.model.rowCount() == 1 and "of B" in panel.caption.text()
    panel.clear_button.click()
    qtbot.waitUntil(lambda: len(w.bridge.collisions_since(0)[1]) == 0)
    qtbot.waitUntil(lambda: panel.model.rowCount() == 0)


def test_export_with_nothing_logged_says_so_without_a_dialog(window, monkeypatch):
    w = window
    w.collisions_dock.toggleViewAction().trigger()
    asked = []
    monkeypatch.setattr("ui.panels.collisions.QFileDialog.getSaveFileName", lambda *a, **k: asked.append(a))
    w.collisions_panel.export()
    assert asked == [] and "No collisions" in w.messages.label.text() and w.messages.isVisible()


def test_a_reset_starts_the_list_afresh(window, qtbot):
    w = window
    w.collisions_dock.toggleViewAction().trigger()
    run_past_the_collision(w, qtbot)
    assert w.collisions_panel.model.rowCount() == 1
    w.reset_action.trigger()
    qtbot.waitUntil(lambda: w.bridge.latest.time == 0.0)
    qtbot.waitUntil(lambda: (w.collisions_panel.pull(), w.collisions_panel.model.rowCount() == 0)[1])
    run_past_the_collision(w, qtbot)
    assert w.collisions_panel.model.rowCount() == 1
