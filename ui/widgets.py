"""The panels' building blocks: number fields that only accept valid values, a
slider paired with a field (linear or logarithmic), and an editable list of
named acceleration vectors.

Each emits what the user chose (``edited``) and is told the true value by
``display``, which never emits and leaves alone a field the user is typing in.
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QSlider,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


class NumberField(QDoubleSpinBox):
    """A spin box for a number with a unit; emits ``edited(value)`` when the user
    commits a value (Enter, leaving the field, the arrows), never while typing."""

    edited = Signal(float)

    def __init__(self, lo: float, hi: float, decimals: int = 3, step: float = 0.1, suffix: str = "", parent=None):
        super().__init__(parent)
        self.setRange(lo, hi)
        self.setDecimals(decimals)
        self.setSingleStep(step)
        if suffix:
            self.setSuffix(f" {suffix}")
        self.setKeyboardTracking(False)
        self.setAccelerated(True)
        self.setAlignment(Qt.AlignRight)
        self.valueChanged.connect(self._changed)
        self._showing = False

    def _changed(self, value: float) -> None:
        if not self._showing:
            self.edited.emit(value)

    def set_range(self, lo: float, hi: float) -> None:
        """Change the range without sending the clamped value as an edit."""
        self._showing = True
        try:
            self.setRange(lo, hi)
        finally:
            self._showing = False

    def display(self, value: float, force: bool = False) -> None:
        """Display the true value (unless the user is typing here, or ``force``)."""
        if (self.hasFocus() and not force) or not math.isfinite(value):
            return
        if abs(self.value() - value) < 0.5 * 10.0 ** -self.decimals():
            return
        self._showing = True
        try:
            self.setValue(value)
        finally:
            self._showing = False


class SliderField(QWidget):
    """A slider beside a NumberField, in step; ``log`` spaces the slider by ratios
    (a mass from 0.01 to 100 kg). The field may go beyond the slider's range."""

    edited = Signal(float)
    STEPS = 1000

    def __init__(self, lo: float, hi: float, decimals: int = 3, suffix: str = "", log: bool = False,
                 field_range=None, parent=None):
        super().__init__(parent)
        self.lo, self.hi, self.log = lo, hi, log
        self.slider = QSlider(Qt.Horizontal)
        self.slider.setRange(0, self.STEPS)
        self.field = NumberField(*(field_range or (lo, hi)), decimals=decimals,
                                 step=(hi - lo) / 100 if not log else lo, suffix=suffix)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.slider, 3)
        row.addWidget(self.field, 2)
        self.slider.valueChanged.connect(self._slid)
        self.field.edited.connect(self._typed)
        self._showing = False

    def _to_slider(self, value: float) -> int:
        if self.log:
            value = max(value, self.lo)
            t = (math.log(value) - math.log(self.lo)) / (math.log(self.hi) - math.log(self.lo))
        else:
            t = (value - self.lo) / (self.hi - self.lo)
        return int(round(min(max(t, 0.0), 1.0) * self.STEPS))

    def _from_slider(self, k: int) -> float:
        t = k / self.STEPS
        if self.log:
            return float(math.exp(math.log(self.lo) + t * (math.log(self.hi) - math.log(self.lo))))
        return self.lo + t * (self.hi - self.lo)

    def _slid(self, k: int) -> None:
        if self._showing:
            return
        value = float(f"{self._from_slider(k):.{self.field.decimals()}g}") if self.log else self._from_slider(k)
        self.field.display(value, force=True)
        self.edited.emit(self.field.value())

    def _typed(self, value: float) -> None:
        self._show_slider(value)
        self.edited.emit(value)

    def _show_slider(self, value: float) -> None:
        self._showing = True
        try:
            self.slider.setValue(self._to_slider(value))
        finally:
            self._showing = False

    def value(self) -> float:
        return self.field.value()

    def display(self, value: float, force: bool = False) -> None:
        if self.slider.isSliderDown() and not force:
            return
        self.field.display(value, force)
        if not self.field.hasFocus() or force:
            self._show_slider(value)


class VectorField(QWidget):
    """Two NumberFields, x and y; emits ``edited((x, y))``."""

    edited = Signal(object)

    def __init__(self, lo: float, hi: float, decimals: int = 3, step: float = 0.1, suffix: str = "", parent=None):
        super().__init__(parent)
        self.x = NumberField(lo, hi, decimals, step, suffix)
        self.y = NumberField(lo, hi, decimals, step, suffix)
        self.x.setPrefix("x ")
        self.y.setPrefix("y ")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.x)
        row.addWidget(self.y)
        self.x.edited.connect(lambda v: self.edited.emit((v, self.y.value())))
        self.y.edited.connect(lambda v: self.edited.emit((self.x.value(), v)))

    def display(self, vector, force: bool = False) -> None:
        self.x.display(float(vector[0]), force)
        self.y.display(float(vector[1]), force)

    def set_ranges(self, xr, yr) -> None:
        self.x.set_range(*xr)
        self.y.set_range(*yr)


class AccelerationTable(QWidget):
    """An acceleration list: a row per named vector (m/s²), editable in place, with
    add and remove buttons. Emits ``added(name, vector)``, ``changed(name, vector)``
    and ``removed(name)``."""

    added = Signal(str, object)
    changed = Signal(str, object)
    removed = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["name", "ax (m/s²)", "ay (m/s²)"])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.setMinimumHeight(90)
        self.add_button = QPushButton("Add")
        self.remove_button = QPushButton("Remove")
        self.add_button.setToolTip("Add a named acceleration (it starts at zero; edit its numbers)")
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.table)
        col.addLayout(buttons)
        self._entries: tuple = ()
        self._filling = False
        self.add_button.clicked.connect(self._add)
        self.remove_button.clicked.connect(self._remove)
        self.table.itemChanged.connect(self._edited)

    def entries(self) -> tuple:
        return self._entries

    def display(self, entries, force: bool = False) -> None:
        """Display the list ((name, (ax, ay)), ...) unless it is being edited."""
        entries = tuple(entries)
        if entries == self._entries and not force:
            return
        if self.table.state() == QAbstractItemView.EditingState and not force:
            return
        self._entries = entries
        self._filling = True
        try:
            self.table.setRowCount(len(entries))
            for row, (name, vector) in enumerate(entries):
                item = QTableWidgetItem(name)
                item.setFlags(item.flags() & ~Qt.ItemIsEditable)
                self.table.setItem(row, 0, item)
                for col in (1, 2):
                    text = "—" if vector is None else f"{vector[col - 1]:g}"
                    cell = QTableWidgetItem(text)
                    cell.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                    if vector is None:
                        cell.setFlags(cell.flags() & ~Qt.ItemIsEditable)
                    self.table.setItem(row, col, cell)
        finally:
            self._filling = False

    def _edited(self, item) -> None:
        if self._filling or item.column() == 0:
            return
        row = item.row()
        name, vector = self._entries[row]
        try:
            value = float(item.text().replace(",", "."))
            if not math.isfinite(value):
                raise ValueError
        except ValueError:
            self.display(self._entries, force=True)  # not a number: back to the true value
            return
        new = list(vector)
        new[item.column() - 1] = value
        self.changed.emit(name, tuple(new))

    def _add(self) -> None:
        taken = {name for name, _ in self._entries}
        k = 1
        while f"push {k}" in taken:
            k += 1
        self.added.emit(f"push {k}", (0.0, 0.0))

    def _remove(self) -> None:
        row = self.table.currentRow()
        if 0 <= row < len(self._entries):
            self.removed.emit(self._entries[row][0])
