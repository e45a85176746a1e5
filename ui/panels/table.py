"""Data table: the selected body's recorded samples, one row each (t, x, y, vx, vy,
speed, ax, ay and kinetic energy from the recorded mass), to read off or to copy into
a spreadsheet.

The table shows the recording (it turns Record on when it is shown) and reads only
what is new each frame (`SimulationBridge.samples_since`), appending those rows to
the model: a frame costs the same at 10 s and at 5 minutes of run. The view rounds
the numbers; Ctrl+C and *Copy all* put the selected cells (or all of them) on the
clipboard as tab-separated text with a header row, every number in full precision
(``repr``), as the CSV export writes them.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, Qt
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

COLUMNS = ("t (s)", "x (m)", "y (m)", "vx (m/s)", "vy (m/s)", "speed (m/s)", "ax (m/s²)", "ay (m/s²)",
           "kinetic energy (J)")
"""The table's columns, as the header shows them and as a copy's header row names them."""


def cells(times, data, masses) -> np.ndarray:
    """One body's rows of `COLUMNS` from its recorded samples: ``times`` (K,) in s, ``data``
    (K, 6) of x, y, vx, vy, ax, ay and ``masses`` (K,) in kg (inf for a fixed body, whose
    kinetic energy is 0: it does not move)."""
    vx, vy = data[:, 2], data[:, 3]
    m = np.where(np.isfinite(masses), masses, 0.0)
    return np.column_stack([times, data[:, 0], data[:, 1], vx, vy, np.hypot(vx, vy), data[:, 4], data[:, 5],
                            0.5 * m * (vx ** 2 + vy ** 2)])


def rounded(value: float) -> str:
    """A number as the view shows it: four decimals, or four significant ones in powers of
    ten when it is very large or very small (a copy keeps every digit)."""
    if value == 0:
        return "0.0000"  # (not -0.0000)
    if 1e-3 <= abs(value) < 1e7:
        return f"{value:.4f}"
    return f"{value:.4e}"


class SampleModel(QAbstractTableModel):
    """One body's samples, growing: rows are only ever appended (`append`) or all thrown
    away (`clear`). The values are kept in one array, grown by doubling."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.values = np.empty((256, len(COLUMNS)))
        self.n = 0

    def rowCount(self, parent=QModelIndex()):  # noqa: N802
        return 0 if parent.isValid() else self.n

    def columnCount(self, parent=QModelIndex()):  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.DisplayRole):  # noqa: N802
        if role == Qt.DisplayRole and orientation == Qt.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        if role == Qt.DisplayRole:
            return rounded(float(self.values[index.row(), index.column()]))
        if role == Qt.ToolTipRole:
            return repr(float(self.values[index.row(), index.column()]))
        if role == Qt.TextAlignmentRole:
            return Qt.AlignRight | Qt.AlignVCenter
        return None

    def append(self, rows) -> None:
        """Add ``rows`` (K, len(COLUMNS)) at the end."""
        k = len(rows)
        if k == 0:
            return
        need = self.n + k
        if need > len(self.values):
            grown = np.empty((max(need, 2 * len(self.values)), len(COLUMNS)))
            grown[:self.n] = self.values[:self.n]
            self.values = grown
        self.beginInsertRows(QModelIndex(), self.n, need - 1)
        self.values[self.n:need] = rows
        self.n = need
        self.endInsertRows()

    def clear(self) -> None:
        if self.n == 0:
            return
        self.beginResetModel()
        self.values = np.empty((256, len(COLUMNS)))
        self.n = 0
        self.endResetModel()

    def text(self, ranges=None) -> str:
        """Tab-separated text with a header row, numbers in full precision: every cell, or
        the cells of ``ranges`` ((top, bottom, left, right), inclusive). A cell within the
        rows and columns the ranges span but outside all of them is left empty."""
        if ranges is None:
            ranges = [(0, self.n - 1, 0, len(COLUMNS) - 1)] if self.n else []
        ranges = [r for r in ranges if r[0] <= r[1] and r[2] <= r[3]]
        if not ranges:
            return ""
        rows = np.unique(np.concatenate([np.arange(top, bottom + 1) for top, bottom, _, _ in ranges]))
        cols = np.unique(np.concatenate([np.arange(left, right + 1) for _, _, left, right in ranges]))
        inside = np.zeros((len(rows), len(cols)), dtype=bool)
        for top, bottom, left, right in ranges:
            r0, r1 = np.searchsorted(rows, top), np.searchsorted(rows, bottom, side="right")
            c0, c1 = np.searchsorted(cols, left), np.searchsorted(cols, right, side="right")
            inside[r0:r1, c0:c1] = True
        values = self.values[rows][:, cols].tolist()
        lines = ["\t".join(COLUMNS[c] for c in cols.tolist())]
        if inside.all():
            lines += ["\t".join(map(repr, row)) for row in values]
        else:
            lines += ["\t".join(repr(v) if keep else "" for v, keep in zip(row, mask))
                      for row, mask in zip(values, inside.tolist())]
        return "\n".join(lines) + "\n"


class SampleView(QTableView):
    """The table's view: Ctrl+C copies the selected cells in full precision (`SampleModel.text`)."""

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if event.matches(QKeySequence.Copy):
            self.copy()
            event.accept()
            return
        super().keyPressEvent(event)

    def copy(self) -> str:
        """Put the selected cells on the clipboard (nothing if none is selected); the text."""
        ranges = [(r.top(), r.bottom(), r.left(), r.right()) for r in self.selectionModel().selection()]
        text = self.model().text(ranges)
        if text:
            QGuiApplication.clipboard().setText(text)
        return text


class TablePanel(QWidget):
    """The caption (the selected body, or why there are no rows), Follow, Copy all, and the table."""

    def __init__(self, bridge, rate: float, parent=None):
        super().__init__(parent)
        self.bridge = bridge
        self.rate = rate
        self.selected: str | None = None
        self._recording = None
        self._k = 0

        self.caption = QLabel()
        self.caption.setTextFormat(Qt.PlainText)  # a body's name is the class's text: never markup
        self.follow = QCheckBox("Follow")
        self.follow.setChecked(True)
        self.follow.setToolTip("Keep the newest row in view as the recording grows")
        self.copy_all = QPushButton("Copy all")
        self.copy_all.setToolTip("Copy every row, with a header, to paste into a spreadsheet "
                                 "(Ctrl+C copies the selected cells)")
        top = QHBoxLayout()
        top.addWidget(self.caption, 1)
        top.addWidget(self.follow)
        top.addWidget(self.copy_all)

        self.model = SampleModel(self)
        self.view = SampleView()
        self.view.setModel(self.model)
        self.view.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.view.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.view.setWordWrap(False)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)  # (never measured row by row)
        self._sizes()

        col = QVBoxLayout(self)
        col.addLayout(top)
        col.addWidget(self.view, 1)

        self.follow.toggled.connect(lambda on: on and self.view.scrollToBottom())
        self.copy_all.clicked.connect(self.copy_everything)
        bridge.snapshot.connect(self.pull)
        self._say()

    def _sizes(self) -> None:
        """Rows and columns sized for the font (not measured cell by cell: the run may be long)."""
        metrics = self.view.fontMetrics()
        self.view.verticalHeader().setDefaultSectionSize(metrics.height() + 6)
        number = metrics.horizontalAdvance("-00000.0000")
        for k, label in enumerate(COLUMNS):
            self.view.horizontalHeader().resizeSection(k, max(number, metrics.horizontalAdvance(label)) + 16)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QEvent.FontChange:  # projector mode
            self._sizes()

    def set_selected(self, name) -> None:
        """Show the samples of body ``name`` (None: nothing selected), read from the recording's start."""
        if name == self.selected:
            return
        self.selected = name
        self.model.clear()
        self._recording, self._k = None, 0
        self.pull()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if not self.bridge.recording:
            self.bridge.record(True, self.rate, lambda ok: self.pull())  # the table shows the recording
        self.pull()

    def pull(self, snap=None) -> None:
        """Append the selected body's samples recorded since the last frame."""
        if not self.isVisible() or self.selected is None:
            self._say()
            return
        recording, segments = self.bridge.samples_since(self._k)
        if recording is not self._recording:  # a new recording (or a new body): from its start
            if self._k and recording is not None:
                segments = self.bridge.samples_since(0)[1]
            self._recording, self._k = recording, 0
            self.model.clear()
        before = self.model.n
        for seg in segments:
            if self.selected in seg.names:
                b = seg.names.index(self.selected)
                self.model.append(cells(seg.times, seg.data[:, b, :], seg.masses[:, b]))
            self._k += len(seg.times)
        if self.model.n > before and self.follow.isChecked():
            self.view.scrollToBottom()
        if snap is not None and getattr(self.bridge, "replaying", False):
            self._mark(snap.time)
        self._say()

    def _mark(self, t: float) -> None:
        """A replayed instant: its row is selected and scrolled into view."""
        times = self.model.values[:self.model.n, 0]
        row = int(np.searchsorted(times, t))
        if row < self.model.n and times[row] == t:
            self.view.selectRow(row)
            self.view.scrollTo(self.model.index(row, 0), QAbstractItemView.PositionAtCenter)

    def _say(self) -> None:
        """The caption: the body and its number of rows, or why there are none."""
        n = self.model.n
        if self.selected is None:
            text = "Select a body on the canvas to list its recorded samples here."
        elif n == 0:
            text = f"No samples of {self.selected} yet: press Play to record."
        else:
            text = f"{self.selected}: {n} {'sample' if n == 1 else 'samples'}"
        if text != self.caption.text():
            self.caption.setText(text)
        self.copy_all.setEnabled(n > 0)

    @property
    def placeholder(self) -> bool:
        """Whether the caption says why there are no rows."""
        return self.model.n == 0

    def copy_everything(self) -> str:
        """Put every row on the clipboard, with the header row; the text."""
        text = self.model.text()
        if text:
            QGuiApplication.clipboard().setText(text)
        return text

    def dock_in(self, window, beside) -> QDockWidget:
        """Dock the panel at the bottom of ``window``, a tab beside the dock ``beside`` (`bottom_dock`)."""
        return bottom_dock(window, self, "Data table", beside,
                           "The selected body's recorded samples as a table, to copy into a spreadsheet")


def bottom_dock(window, panel, title: str, beside, tip: str) -> QDockWidget:
    """Dock ``panel`` at the bottom of ``window``, a tab beside the dock ``beside``; hidden
    until the dock's own action (its `toggleViewAction`, for the View menu, with ``tip``)
    shows it in front, two fifths of the window high."""
    dock = QDockWidget(title, window)
    dock.setObjectName(title)
    dock.setWidget(panel)
    window.addDockWidget(Qt.BottomDockWidgetArea, dock)
    window.tabifyDockWidget(beside, dock)
    dock.hide()
    action = dock.toggleViewAction()
    action.setToolTip(tip)

    def shown(on):
        if on:
            dock.raise_()
            window.resizeDocks([dock], [int(0.4 * window.height())], Qt.Vertical)

    action.triggered.connect(shown)
    return dock
