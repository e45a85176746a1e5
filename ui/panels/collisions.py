"""The collision log: every body-body collision the engine resolves, listed live with
its time, the two bodies, their masses, velocities just before and just after, the
change of kinetic energy and the measured restitution; exported as the same CSV
as ``classroom-sim run --collisions``.

The engine lists collisions only while this panel is shown (`bridge.want_collisions`);
each frame reads only the rows that are new (`bridge.collisions_since`), so a frame
costs the same after ten collisions or a hundred thousand. *Only the selected body*
narrows the list to the collisions of the body selected on the canvas.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from classroom_sim import COLLISION_COLUMNS, write_collisions_csv

from ..picture import csv_named
from .table import SampleView, bottom_dock, rounded

ORDER = (0, 1, 2, 13, 14, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
"""The view's columns, as indices into a collision's CSV row (`COLLISION_COLUMNS`): the
time, the bodies, then what a class looks at first (the energy lost, the restitution),
then the masses and velocities."""
HEADERS = ("t (s)", "body a", "body b", "ΔKE (J)", "e", "m a (kg)", "m b (kg)", "a: vx before", "a: vy before",
           "b: vx before", "b: vy before", "a: vx after", "a: vy after", "b: vx after", "b: vy after")
"""The columns as the view names them (velocities in m/s), in the view's `ORDER`."""


def shown(value) -> str:
    """A cell as the view shows it: a name as it is, a number rounded (`rounded`)."""
    if isinstance(value, str):
        return value
    return "fixed" if math.isinf(value) else "–" if math.isnan(value) else rounded(value)


class CollisionModel(QAbstractTableModel):
    """The listed collisions, growing: rows are only appended or all thrown away."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list = []
        self._cached = (-1, None)  # (row, its values): a view asks for a row cell by cell

    def rowCount(self, parent=QModelIndex()):  # noqa: N802
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()):  # noqa: N802
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section, orientation, role=Qt.DisplayRole):  # noqa: N802
        if role == Qt.DisplayRole and orientation == Qt.Horizontal:
            return HEADERS[section]
        return None

    def values(self, row: int) -> list:
        if self._cached[0] != row:
            self._cached = (row, self.rows[row].row())
        return self._cached[1]

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        value = self.values(index.row())[ORDER[index.column()]]
        if role == Qt.DisplayRole:
            return shown(value)
        if role == Qt.ToolTipRole and not isinstance(value, str):
            return repr(float(value))
        if role == Qt.TextAlignmentRole and not isinstance(value, str):
            return Qt.AlignRight | Qt.AlignVCenter
        return None

    def append(self, rows) -> None:
        if rows:
            self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows) + len(rows) - 1)
            self.rows.extend(rows)
            self.endInsertRows()

    def clear(self) -> None:
        self.beginResetModel()
        self.rows = []
        self._cached = (-1, None)
        self.endResetModel()

    def text(self, ranges=None) -> str:
        """Tab-separated text with the CSV's column names, numbers in full precision: the
        rows and columns (of the view) the ranges ((top, bottom, left, right), inclusive)
        span, or all."""
        if ranges is None:
            ranges = [(0, len(self.rows) - 1, 0, len(HEADERS) - 1)] if self.rows else []
        ranges = [r for r in ranges if r[0] <= r[1] and r[2] <= r[3]]
        if not ranges:
            return ""
        rows = sorted({k for top, bottom, _, _ in ranges for k in range(top, bottom + 1)})
        cols = sorted({k for _, _, left, right in ranges for k in range(left, right + 1)})
        cols = [ORDER[c] for c in cols]
        lines = ["\t".join(COLLISION_COLUMNS[c] for c in cols)]
        for k in rows:
            values = self.rows[k].row()
            lines.append("\t".join(v if isinstance(v, str) else repr(float(v)) for v in (values[c] for c in cols)))
        return "\n".join(lines) + "\n"


class CollisionsPanel(QWidget):
    def __init__(self, bridge, parent=None):
        super().__init__(parent)
        self.bridge = bridge
        self.selected: str | None = None
        self._log = None  # (the log, its generation) being followed
        self._k = 0
        self.say = print  # where a failure to write is told (the window's message bar, `dock_in`)

        self.caption = QLabel()
        self.caption.setTextFormat(Qt.PlainText)  # names are the class's text: never markup
        self.only = QCheckBox("Only the selected body")
        self.only.setToolTip("List only the collisions of the body selected on the canvas")
        self.follow = QCheckBox("Follow")
        self.follow.setChecked(True)
        self.follow.setToolTip("Keep the newest collision in view")
        self.clear_button = QPushButton("Clear")
        self.clear_button.setToolTip("Empty the log (it goes on listing)")
        self.copy_all = QPushButton("Copy all")
        self.copy_all.setToolTip("Copy every row listed, with a header, to paste into a spreadsheet "
                                 "(Ctrl+C copies the selected cells)")
        self.export_button = QPushButton("Export CSV…")
        self.export_button.setToolTip("Save the whole log as CSV, one row per collision")
        top = QHBoxLayout()
        top.addWidget(self.caption, 1)
        for w in (self.only, self.follow, self.clear_button, self.copy_all, self.export_button):
            top.addWidget(w)

        self.model = CollisionModel(self)
        self.view = SampleView()
        self.view.setModel(self.model)
        self.view.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.view.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.view.setWordWrap(False)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        col = QVBoxLayout(self)
        col.addLayout(top)
        col.addWidget(self.view, 1)

        self.only.toggled.connect(lambda _: self._again())
        self.follow.toggled.connect(lambda on: on and self.view.scrollToBottom())
        self.clear_button.clicked.connect(lambda: self.bridge.clear_collisions(lambda ok: self._again()))
        self.copy_all.clicked.connect(self.copy_everything)
        self.export_button.clicked.connect(self.export)
        bridge.snapshot.connect(self.pull)
        self._say()

    # -- following the log -------------------------------------------------------------------------
    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self.bridge.want_collisions(self, True)
        self.pull()

    def hideEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().hideEvent(event)
        if not self.isVisible():
            self.bridge.want_collisions(self, False)  # listing costs a little every step: only while shown

    def set_selected(self, name) -> None:
        self.selected = name
        if self.only.isChecked():
            self._again()

    def _again(self) -> None:
        """Read the log again from its start (a new filter, a cleared log)."""
        self._log, self._k = None, 0
        self.model.clear()
        self.pull()

    def _keep(self, c) -> bool:
        return not self.only.isChecked() or self.selected in (c.a, c.b)

    def pull(self, snap=None) -> None:
        """List the collisions logged since the last frame."""
        if not self.isVisible():
            return
        log, rows = self.bridge.collisions_since(self._k)
        if (log, log.generation) != self._log:  # another scene's log, or cleared: from its start
            if self._k:
                rows = log.since(0)
            self._log, self._k = (log, log.generation), 0
            self.model.clear()
        self._k += len(rows)
        rows = [c for c in rows if self._keep(c)] if self.only.isChecked() else rows
        if rows:
            self.model.append(rows)
            if self.follow.isChecked():
                self.view.scrollToBottom()
        self._say(log.full)

    def _say(self, full: bool = False) -> None:
        n = len(self.model.rows)
        if self.only.isChecked() and self.selected is None:
            text = "Select a body on the canvas to list its collisions."
        elif n == 0:
            text = "No collisions yet: press Play."
        else:
            text = f"{n} {'collision' if n == 1 else 'collisions'}"
            if self.only.isChecked():
                text += f" of {self.selected}"
        if full:
            text += " — the log is full: Clear it to go on listing"
        if text != self.caption.text():
            self.caption.setText(text)
        self.copy_all.setEnabled(n > 0)
        self.export_button.setEnabled(self._k > 0)

    # -- copy and export ---------------------------------------------------------------------------
    def copy_everything(self) -> str:
        text = self.model.text()
        if text:
            QGuiApplication.clipboard().setText(text)
        return text

    def export(self) -> None:
        """Ask for a file and write the whole log there (every collision, whatever is listed)."""
        if self._log is None or not len(self._log[0]):
            self.say("No collisions to export yet: press Play with the collision log open.")
            return
        path, _ = QFileDialog.getSaveFileName(self, "Export the collision log", "collisions.csv",
                                              "CSV, one row per collision (*.csv)")
        if path:
            self.export_to(path)

    def export_to(self, path) -> bool:
        """Write the whole log to ``path`` (``.csv`` added if it has no suffix); False (and
        said) if it could not be written."""
        path = csv_named(path)
        try:
            write_collisions_csv(path, self._log[0].since(0) if self._log else [])
        except OSError as exc:
            self.say(f"{path}: cannot write: {exc.strerror or exc}")
            return False
        return True

    def dock_in(self, window, beside):
        """A tab at the bottom of ``window`` beside ``beside``, hidden until asked for."""
        self.say = window.messages.say
        window.canvas.selected.connect(self.set_selected)
        return bottom_dock(window, self, "Collisions", beside,
                           "Every collision between bodies: before and after, energy lost, restitution")
