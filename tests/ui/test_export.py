"""File › Export CSV: with nothing recorded it says so at once, in the message bar, and
asks for no file name; a name typed without ``.csv`` gets the suffix."""

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog

from classroom_sim import read_csv
from tests.ui.helpers import falling_world
from ui import window_files
from ui.main_window import MainWindow

G = 9.81


@pytest.fixture
def window(qtbot, tmp_path):
    w = MainWindow(falling_world(), None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(w)
    w.show()
    yield w
    w.close()


class Calls(list):
    answer = ("", "")
    """What the dialog answers: (path, filter)."""


@pytest.fixture
def dialog(monkeypatch):
    """QFileDialog.getSaveFileName, answered by the test: the calls it got."""
    calls = Calls()

    def answer(*args, **kwargs):
        calls.append(args)
        return calls.answer

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(answer))
    return calls


def test_nothing_recorded_is_said_at_once_without_a_dialog(window, dialog):
    assert window.bridge.samples == 0
    window.export_action.trigger()
    assert dialog == []
    assert window.messages.isVisibleTo(window)
    text = window.messages.label.text()
    assert "Nothing has been recorded" in text and "Record" in text and "\n" not in text


def test_recording_on_but_nothing_sampled_yet_says_press_play(window, dialog, qtbot):
    window.step_action.trigger()  # off the grid of sample times: recording starts at the next one
    qtbot.waitUntil(lambda: window.bridge.latest.time > 0, timeout=5000)
    window.record_action.trigger()
    qtbot.waitUntil(lambda: window.bridge.recording, timeout=5000)
    assert window.bridge.samples == 0
    window.export_action.trigger()
    assert dialog == [] and "press Play" in window.messages.label.text()


def test_a_name_without_csv_gets_the_suffix(window, dialog, qtbot, tmp_path):
    window.record_action.trigger()
    window.play_action.trigger()
    qtbot.waitUntil(lambda: window.bridge.samples > 10, timeout=5000)
    window.play_action.trigger()
    dialog.answer = (str(tmp_path / "fall"), window_files.WIDE_FILTER)
    window.export_action.trigger()
    assert len(dialog) == 1
    qtbot.waitUntil(lambda: "Saved" in window.statusBar().currentMessage(), timeout=5000)
    assert window.statusBar().currentMessage() == f"Saved {tmp_path / 'fall.csv'}"
    assert not (tmp_path / "fall").exists()
    assert (tmp_path / "fall.csv").read_text().startswith("t_s,ball_x_m,")  # the wide layout chosen
    rows = read_csv(tmp_path / "fall.csv")["ball"]
    assert rows[:, 2] == pytest.approx(10.0 - 0.5 * G * rows[:, 0] ** 2, abs=1e-9)
    future = window.export_csv_to(tmp_path / "run.2")  # a dot in the name is no suffix
    future.result(timeout=10)
    assert (tmp_path / "run.2.csv").exists() and not (tmp_path / "run.2").exists()
    future = window.export_csv_to(tmp_path / "kept.CSV")
    future.result(timeout=10)
    assert (tmp_path / "kept.CSV").exists() and not (tmp_path / "kept.CSV.csv").exists()
