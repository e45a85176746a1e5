"""Student mode's lock: the teacher's PIN, kept only as a salted scrypt hash in the
user's settings, and the dialog that asks for it.

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
