"""Keys that belong to editors: no one-key shortcut of the window (R, T, Space, Delete, ...)
fires while a text field, a spin box, a combo box or a table has the focus."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractItemView, QAbstractSpinBox, QApplication, QComboBox, QLineEdit, QTextEdit

EDITORS = (QLineEdit, QAbstractSpinBox, QAbstractItemView, QComboBox, QTextEdit)
"""Widgets that take plain keys for themselves: no one-key shortcut fires while one has the focus."""


class KeysToEditors(QObject):
    """Keeps one-key shortcuts (R, T, Space, Delete, ...) from firing while an editor has
    the focus: the editor gets the key (Delete deletes text, R types an R)."""

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.ShortcutOverride and isinstance(QApplication.focusWidget(), EDITORS):
            if not event.modifiers() & (Qt.ControlModifier | Qt.AltModifier | Qt.MetaModifier) \
                    and not Qt.Key_F1 <= event.key() <= Qt.Key_F35 and event.key() != Qt.Key_Escape:
                event.accept()  # the editor wants it: the shortcut stands aside
        return False
