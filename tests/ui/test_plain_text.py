"""Every string a user supplies is shown as plain text: a body named like markup stays a name."""

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QLabel

from classroom_sim import Body, World, commands
from ui.main_window import MainWindow

MARKUP = "<img src=/etc/hostname><b>bold</b>"


@pytest.fixture
def window(qtbot, tmp_path):
    world = World(gravity=(0.0, 0.0))
    world.add_body(Body(MARKUP, 1.0, 0.3, (0.0, 0.0)))
    w = MainWindow(world, None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(w)
    w.show()
    yield w
    w.close()


def test_a_body_named_like_markup_is_shown_as_its_name(window, qtbot):
    window.canvas.select(MARKUP)
    assert window.inspector.title.text() == MARKUP
    assert window.inspector.title.textFormat() == Qt.PlainText
    window.bridge.send(commands.SetMass(MARKUP, -1.0))  # refused: the message quotes the name
    qtbot.waitUntil(lambda: window.messages.isVisible(), timeout=2000)
    assert MARKUP in window.messages.label.text() and window.messages.label.textFormat() == Qt.PlainText


def test_no_label_of_the_window_reads_user_text_as_markup(window):
    window.canvas.select(MARKUP)
    loose = [label for label in window.findChildren(QLabel)
             if label.textFormat() != Qt.PlainText and "<" in label.text()]
    assert not loose, [label.text() for label in loose]
