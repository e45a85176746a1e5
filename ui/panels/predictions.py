"""The session's predictions: a table model of every prediction run in the lesson panel
(time, step, question, prediction, measured value, unit, difference, within the
tolerance), shown to 4 significant figures and exported as CSV at full precision."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt


def number_text(value: float) -> str:
    """A measured or typed number as a teacher writes it: 4 significant figures."""
    if not math.isfinite(value):
        return str(value)
    return f"{value:.4g}" if abs(value) >= 1e-3 or value == 0 else f"{value:.3e}"



@dataclass(frozen=True)
class Row:
    """One prediction of the session."""

    clock: str
    step: str
    question: str
    predicted: float | None
    measured: float
    unit: str
    within: bool | None


class PredictionsModel(QAbstractTableModel):
    """The session's predictions, one row each, newest last."""

    HEADERS = ("Time", "Step", "Question", "Prediction", "Measured", "Unit", "Difference", "Within tolerance")

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[Row] = []

    def rowCount(self, parent=QModelIndex()):  # noqa: N802
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()):  # noqa: N802
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=Qt.DisplayRole):  # noqa: N802
        if role == Qt.DisplayRole and orientation == Qt.Horizontal:
            return self.HEADERS[section]
        return None

    def cells(self, row: Row) -> list:
        difference = "" if row.predicted is None else number_text(row.predicted - row.measured)
        within = "" if row.within is None else ("yes" if row.within else "no")
        return [row.clock, row.step, row.question, "" if row.predicted is None else number_text(row.predicted),
                number_text(row.measured), row.unit, difference, within]

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        if role in (Qt.DisplayRole, Qt.ToolTipRole):
            return self.cells(self.rows[index.row()])[index.column()]
        return None

    def add(self, row: Row) -> None:
        self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows))
        self.rows.append(row)
        self.endInsertRows()

    def csv_text(self) -> str:
        """The table as CSV, full precision for the numbers."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["time", "step", "question", "prediction", "measured", "unit", "difference", "within_tolerance"])
        for r in self.rows:
            writer.writerow([r.clock, r.step, r.question, "" if r.predicted is None else repr(r.predicted),
                             repr(r.measured), r.unit, "" if r.predicted is None else repr(r.predicted - r.measured),
                             "" if r.within is None else ("yes" if r.within else "no")])
        return out.getvalue()
