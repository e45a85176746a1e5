"""Student mode: what it locks (`StudentLock`), and the teacher's PIN that unlocks it,
kept only as a salted scrypt hash in the user's settings, with the dialog that asks for it.

``classroom-sim set-pin`` stores the hash (`store_pin`); the app's
*Teacher › Leave student mode…* checks a PIN against it (`check_pin`).
"""

from __future__ import annotations

import hashlib
import hmac
import os

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout

KEY = "teacher/pin"
"""Where the hash is kept in the settings."""

SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1}
"""scrypt's cost: about 50 ms a try here, far too slow to try every PIN quickly."""

MIN_LENGTH = 4
"""Digits or characters a PIN needs at least."""


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """``scrypt$<salt hex>$<hash hex>`` of ``pin``, with a new random salt unless given."""
    salt = os.urandom(16) if salt is None else salt
    digest = hashlib.scrypt(pin.encode("utf-8"), salt=salt, dklen=32, **SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def check_pin(pin: str, stored) -> bool:
    """Whether ``pin`` is the one ``stored`` (a `hash_pin` value) was made from; False for
    anything malformed."""
    try:
        kind, salt, digest = str(stored).split("$")
        if kind != "scrypt":
            return False
        expected = hash_pin(pin, bytes.fromhex(salt))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(expected.split("$")[2], digest)


def pin_problem(first: str, second: str) -> str | None:
    """Why these two entries cannot become the PIN, or None."""
    if len(first.strip()) < MIN_LENGTH:
        return f"the PIN needs at least {MIN_LENGTH} characters"
    if first != second:
        return "the two PINs differ"
    return None


def store_pin(settings, pin: str) -> None:
    settings.setValue(KEY, hash_pin(pin))
    settings.sync()


def has_pin(settings) -> bool:
    return bool(settings.value(KEY, ""))


class PinDialog(QDialog):
    """Asks the teacher for the PIN (not shown as it is typed)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Leave student mode")
        self.entry = QLineEdit()
        self.entry.setEchoMode(QLineEdit.Password)
        self.entry.setPlaceholderText("teacher's PIN")
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        col = QVBoxLayout(self)
        col.addWidget(QLabel("Type the teacher's PIN to unlock editing:"))
        col.addWidget(self.entry)
        col.addWidget(buttons)


class StudentLock:
    """Student mode over the main window: only the lesson panel and the time controls work;
    the world panel and inspector, editing bodies on the canvas, opening and saving files
    are hidden or off until the teacher's PIN unlocks them."""

    EDITING = ("lessons_action", "open_action", "save_action", "export_action", "png_action", "worksheet_action",
               "delete_action", "record_action", "student_action")
    """The window's actions student mode switches off (besides the panels and the canvas's editing)."""

    def __init__(self, window):
        self.window = window
        self.on = False

    def set(self, on: bool) -> None:
        w = self.window
        self.on = on = bool(on)
        for name in self.EDITING:
            getattr(w, name).setEnabled(not on)
        w.recent_menu.setEnabled(not on and bool(w.recent.paths()))
        for dock in w.docks:
            if dock is not w.lesson_dock:
                dock.setVisible(not on and w.start_world.lesson is None)
        for action in w.panel_actions:
            action.setEnabled(not on)
        w.canvas.editable = not on
        w.toolbox.launcher_action.setEnabled(not on)  # launching is editing; measuring is not
        if on and w.canvas.tool is w.toolbox.launcher:
            w.toolbox.use(None)
        w.lesson_panel.export_button.setEnabled(not on)
        w.unlock_action.setEnabled(on)
        w.unlock_action.setVisible(on)
        w.student_action.setVisible(not on)
        if on:
            w.canvas.select(None)
        w._size_docks()
        w._set_title_suffix()

    def unlock(self) -> None:
        """Ask for the teacher's PIN and leave student mode if it is right."""
        w = self.window
        if not has_pin(w.settings):
            w.messages.say("No teacher's PIN is set on this computer. Set one in a terminal with "
                           "'classroom-sim set-pin', then unlock here.")
            return
        dialog = PinDialog(w)
        if dialog.exec() == PinDialog.Accepted:
            self.unlock_with(dialog.entry.text())

    def unlock_with(self, pin: str) -> bool:
        """Leave student mode if ``pin`` is the teacher's; say so if not."""
        w = self.window
        if check_pin(pin, w.settings.value(KEY, "")):
            self.set(False)
            w.statusBar().showMessage("Student mode is off: editing is unlocked", 5000)
            return True
        w.messages.say("That is not the teacher's PIN: student mode stays on.")
        return False
