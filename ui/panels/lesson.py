"""Lesson panel: the open lesson's title and summary, a student-number box for lessons
with per-student variants, its steps (Back / Next), the step's text (Markdown), the
step's controls as sliders bound live, and predict-run-compare with a table of the
session's predictions.

The panel keeps the lesson's start (the World as loaded, never the running one, or
a student's variant of it) and builds each step's World from it with
`Lesson.prepare`; the bridge runs it.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDoubleValidator, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from classroom_sim import (MAX_STUDENTS, VariantError, commands, param_unit, read_param, student_world,
                           write_atomically)

from ..widgets import SliderField
from .predictions import PredictionsModel, Row, number_text

MOTION = (".position.x", ".position.y", ".velocity.x", ".velocity.y", ".speed", ".angle")
"""The parameter paths that change as the body moves."""

RIGHT, WRONG = "#1a7f37", "#c01c28"
"""Colours of a result within the tolerance and outside it (always with a word as well)."""


class _Text(QTextBrowser):
    """Markdown that never fetches anything: no images, no remote or local files."""

    def loadResource(self, kind, url):  # noqa: N802 (Qt's name)
        return None


class LessonPanel(QWidget):
    """The lesson panel. ``marker`` emits ((x, y), text) where a prediction's event
    happened, or None to take the marker away."""

    marker = Signal(object)

    def __init__(self, bridge, parent=None):
        super().__init__(parent)
        self.bridge = bridge
        self.original = None  # the World as loaded
        self.start = None  # it, or a student's variant of it: each step is prepared from a copy of it
        self.lesson = None
        self.step = 0
        self.values: dict = {}  # parameter path -> the value its control shows now
        self.fields: dict = {}  # parameter path -> SliderField of the step
        self.last_measurement = None
        self._run = None  # the Future of the run in progress
        self.entering = None
        """The Future of the last step entered: done once the canvas can show the step."""
        self.model = PredictionsModel(self)

        self.title = _words()
        self.summary = _words()
        self.audience = _words()
        self.audience.setStyleSheet("color: #555;")

        self.student = QSpinBox()
        self.student.setRange(0, MAX_STUDENTS)
        self.student.setSpecialValueText("none")
        self.student.setKeyboardTracking(False)  # (typing 12 loads student 12, not 1 first)
        self.student.setToolTip("Your student number from the worksheet: the lesson then has your numbers "
                                "(none: the lesson's own)")
        self.student.valueChanged.connect(lambda n: self.set_student(n))
        self.seed = QSpinBox()
        self.seed.setRange(0, 2 ** 31 - 1)
        self.seed.setValue(1)
        self.seed.setKeyboardTracking(False)
        self.seed.setToolTip("The seed the worksheets were made with (1 unless your teacher says otherwise)")
        self.seed.valueChanged.connect(lambda n: self.set_student(self.student.value()))
        self.numbers = _words()
        self.student_box = QGroupBox("Your numbers")
        pick = QHBoxLayout()
        pick.addWidget(QLabel("Student"))
        pick.addWidget(self.student, 1)
        pick.addWidget(QLabel("Seed"))
        pick.addWidget(self.seed)
        scol = QVBoxLayout(self.student_box)
        scol.addLayout(pick)
        scol.addWidget(self.numbers)
        self.student_box.setVisible(False)

        self.back = QPushButton("◀ Back")
        self.back.setToolTip("The step before")
        self.back.clicked.connect(self.previous_step)
        self.next = QPushButton("Next ▶")
        self.next.setToolTip("The next step")
        self.next.clicked.connect(self.next_step)
        self.counter = _words()
        self.counter.setAlignment(Qt.AlignCenter)
        nav = QHBoxLayout()
        nav.addWidget(self.back)
        nav.addWidget(self.counter, 1)
        nav.addWidget(self.next)

        self.step_title = _words()
        self.text = _Text()
        self.text.setOpenLinks(False)
        self.text.setOpenExternalLinks(False)
        self.text.setFrameShape(QFrame.NoFrame)
        self.text.setFocusPolicy(Qt.NoFocus)
        self.text.setVerticalScrollBarPolicy(Qt.ScrollBarAsNeeded)

        self.controls_box = QGroupBox("Change it")
        self.controls_form = QFormLayout(self.controls_box)
        self.controls_form.setRowWrapPolicy(QFormLayout.WrapAllRows)

        self.predict_box = QGroupBox("Predict")
        self.question = _words()
        self.prediction_entry = QLineEdit()
        self.prediction_entry.setPlaceholderText("your prediction")
        validator = QDoubleValidator(self)
        validator.setNotation(QDoubleValidator.StandardNotation)
        self.prediction_entry.setValidator(validator)
        self.prediction_entry.returnPressed.connect(self.run_prediction)
        self.unit = _words()
        self.run_button = QPushButton("Run")
        self.run_button.setToolTip("Start the step and play it until the moment to measure")
        self.run_button.clicked.connect(self.run_prediction)
        entry = QHBoxLayout()
        entry.addWidget(self.prediction_entry, 1)
        entry.addWidget(self.unit)
        entry.addWidget(self.run_button)
        self.result = _words()
        self.verdict = _words()
        box = QVBoxLayout(self.predict_box)
        box.addWidget(self.question)
        box.addLayout(entry)
        box.addWidget(self.verdict)
        box.addWidget(self.result)

        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.table.verticalHeader().hide()
        self.table.setMinimumHeight(90)
        self.export_button = QPushButton("Export predictions as CSV…")
        self.export_button.clicked.connect(self.export_csv)
        self.export_note = _words()
        self.table_box = QGroupBox("This session's predictions")
        tcol = QVBoxLayout(self.table_box)
        tcol.addWidget(self.table)
        tcol.addWidget(self.export_button)
        tcol.addWidget(self.export_note)

        col = QVBoxLayout(self)
        col.addWidget(self.title)
        col.addWidget(self.summary)
        col.addWidget(self.audience)
        col.addWidget(self.student_box)
        col.addLayout(nav)
        col.addWidget(self.step_title)
        col.addWidget(self.text)
        col.addWidget(self.controls_box)
        col.addWidget(self.predict_box)
        col.addWidget(self.table_box, 1)
        self.bridge.revised.connect(self._revised)
        self.set_fonts(projector=False)

    # -- the lesson ---------------------------------------------------------------------------------
    def set_fonts(self, projector: bool) -> None:
        """Type sizes: larger for projector mode."""
        base = QFont(self.font())
        size = 15.0 if projector else max(QFont().pointSizeF(), 10.0)
        base.setPointSizeF(size)
        self.setFont(base)
        for label, factor, bold in ((self.title, 1.45, True), (self.step_title, 1.2, True),
                                    (self.verdict, 1.3, True), (self.result, 1.15, False)):
            f = QFont(base)
            f.setPointSizeF(size * factor)
            f.setBold(bold)
            label.setFont(f)
        self.audience.setFont(base)  # (a label with a style sheet of its own keeps its font otherwise)
        self.text.document().setDefaultFont(base)
        self._show_text()

    def set_lesson(self, start) -> None:
        """Show the lesson of ``start`` (a World as loaded, kept unchanged) and enter its first
        step; a scene without a lesson shows nothing."""
        self.original = self.start = start
        self.lesson = start.lesson if start is not None else None
        self.step = 0
        for box, value in ((self.student, 0), (self.seed, 1)):
            box.blockSignals(True)
            box.setValue(value)
            box.blockSignals(False)
        self.numbers.clear()
        self.student_box.setVisible(bool(self.lesson is not None and self.lesson.variants))
        self.values = {}
        self.last_measurement = None
        self._cancel_run()
        self.export_note.clear()
        self.marker.emit(None)
        if self.lesson is None:
            return
        self.title.setText(self.lesson.title)
        self.summary.setText(self.lesson.summary)
        self.summary.setVisible(bool(self.lesson.summary))
        self.audience.setText(f"For {self.lesson.audience}" if self.lesson.audience else "")
        self.audience.setVisible(bool(self.lesson.audience))
        if self.lesson.steps:
            self.enter_step(0)
        else:
            self._show_step_parts(None)
            self._build_controls(self.lesson.controls, self.start.snapshot())

    def set_student(self, number: int, seed: int | None = None) -> None:
        """Student ``number``'s values of the lesson's variants (0: the lesson's own) become
        the lesson's start, with ``seed`` (default: the seed box's); the current step is
        entered again with them."""
        if self.lesson is None or not self.lesson.variants:
            return
        for box, value in ((self.student, number), (self.seed, seed)):
            if value is not None and box.value() != value:
                box.blockSignals(True)
                box.setValue(value)
                box.blockSignals(False)
        number, seed = self.student.value(), self.seed.value()
        if number == 0:
            self.start = self.original
            self.numbers.clear()
        else:
            try:
                self.start, values = student_world(self.original, seed, number)
            except VariantError as exc:
                self.start = self.original
                self.numbers.setText(_sentence("The lesson's own numbers", exc))
            else:
                self.numbers.setText("; ".join(d.text for d in values))
        if self.lesson.steps:
            self.enter_step(self.step)
        else:
            self.entering = self.bridge.restart(self.lesson.prepare(self.start))

    def enter_step(self, k: int) -> None:
        """Back to the lesson's start, the step's setup applied, paused; the controls show the result."""
        if self.lesson is None or not self.lesson.steps:
            return
        k = min(max(int(k), 0), len(self.lesson.steps) - 1)
        self.step = k
        world = self.lesson.prepare(self.start, k)
        snap = world.snapshot()
        self.values = {c.param: read_param(snap, c.param) for c in self.lesson.controls}
        self._cancel_run()
        self.entering = self.bridge.restart(world)
        self.marker.emit(None)
        self._show_step_parts(k)
        self._build_controls(self.lesson.step_controls(k), snap)

    def next_step(self) -> None:
        if self.lesson is not None and self.step + 1 < len(self.lesson.steps):
            self.enter_step(self.step + 1)

    def previous_step(self) -> None:
        if self.lesson is not None and self.step > 0:
            self.enter_step(self.step - 1)

    def _show_step_parts(self, k) -> None:
        steps = self.lesson.steps
        has = k is not None
        self.counter.setText(f"Step {k + 1} of {len(steps)}" if has else "")
        self.back.setEnabled(has and k > 0)
        self.next.setEnabled(has and k + 1 < len(steps))
        for w in (self.back, self.next, self.counter, self.step_title, self.text):
            w.setVisible(has)
        step = steps[k] if has else None
        self.step_title.setText(step.title if has else "")
        self._show_text()
        predict = step.predict if has else None
        self.predict_box.setVisible(predict is not None)
        self.result.clear()
        self.verdict.clear()
        self.verdict.setStyleSheet("")
        if predict is not None:
            self.question.setText(predict.question)
            self.unit.setText(predict.unit)
            self.prediction_entry.clear()
            self.run_button.setEnabled(True)

    def _show_text(self) -> None:
        if self.lesson is None or not self.lesson.steps:
            self.text.clear()
            return
        self.text.setMarkdown(self.lesson.steps[self.step].text)
        self._fit_text()

    def _fit_text(self) -> None:
        """The step's text as tall as it needs (up to a limit), so that nothing below it moves far."""
        doc = self.text.document()
        doc.setTextWidth(max(self.text.viewport().width(), 200))
        self.text.setFixedHeight(int(min(doc.size().height() + 12, 460)))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_text()

    def _build_controls(self, controls, snap) -> None:
        while self.controls_form.rowCount():
            self.controls_form.removeRow(0)
        self.fields = {}
        for c in controls:
            unit = param_unit(c.param)
            decimals = _decimals(c)
            field = SliderField(c.min, c.max, decimals=decimals, suffix=unit)
            if c.step is not None:
                field.field.setSingleStep(c.step)
            field.setToolTip(f"{c.label}: from {number_text(c.min)} to {number_text(c.max)} {unit}".rstrip())
            field.display(self.values.get(c.param, read_param(snap, c.param)), force=True)
            field.edited.connect(lambda value, c=c: self.set_control(c.label, value))
            label = _words(f"{c.label}   ({number_text(c.min)} to {number_text(c.max)})")
            self.controls_form.addRow(label, field)
            self.fields[c.param] = field
        self.controls_box.setVisible(bool(controls))

    def set_control(self, label: str, value: float) -> None:
        """A student moved a control: held within its range, sent to the running World at once."""
        c = self.lesson.control(label)
        value = c.clamp(value)
        if c.step is not None:
            value = min(max(c.min + round((value - c.min) / c.step) * c.step, c.min), c.max)
            value = float(f"{value:.12g}")
        self.values[c.param] = value
        field = self.fields.get(c.param)
        if field is not None:
            field.display(value, force=True)
        self.bridge.send(commands.SetParameter(c.param, value))

    def _revised(self, snap) -> None:
        """An edit reached the World (a control, or another panel): show the true values of
        the settings. A position or a velocity control keeps showing what the class set: the
        body moves on from there."""
        if self.lesson is None or (self.entering is not None and not self.entering.done()):
            return  # (a snapshot of the World before the step: the step's own comes next)
        for param, field in self.fields.items():
            if param.endswith(MOTION):
                continue
            try:
                value = read_param(snap, param)
            except ValueError:  # the body was removed
                field.setEnabled(False)
                continue
            self.values[param] = value
            field.display(value)

    # -- predict, run, compare ---------------------------------------------------------------------------
    def run_prediction(self) -> None:
        """Enter the step with every control's current value and play until the event."""
        if self.lesson is None or not self.lesson.steps:
            return
        predict = self.lesson.steps[self.step].predict
        if predict is None:
            return
        try:
            world = self.lesson.prepare(self.start, self.step, self.values)
        except (commands.CommandError, ValueError) as exc:
            self._say(_sentence("The run cannot start", exc))
            return
        text = self.prediction_entry.text().strip().replace(",", ".")
        predicted = float(text) if text and _isnumber_text(text) else None  # as typed when Run was pressed
        self._cancel_run()
        self.marker.emit(None)
        self.entering = self.bridge.restart(world)
        self.result.clear()
        self.verdict.setStyleSheet("")
        self.verdict.setText("Running…")
        self.run_button.setEnabled(False)
        step = self.step
        self._run = future = self.bridge.run_until(predict.body, predict.event, predict.at,
                                                   done=lambda ok: self._finished(future, step, predicted, ok))

    def _cancel_run(self) -> None:
        self._run = None
        self.run_button.setEnabled(True)

    def _finished(self, future, step: int, predicted, ok: bool) -> None:
        if future is not self._run:
            return  # a run the class has since left
        self._run = None
        self.run_button.setEnabled(True)
        if not ok:
            self.verdict.setText("")
            self._say(_sentence("No measurement", future.exception()))
            return
        m = future.result()
        self.last_measurement = m
        predict = self.lesson.steps[step].predict
        measured = m.value(predict.quantity)
        within = None if predicted is None else predict.within(predicted, measured)
        self.marker.emit((m.position, f"{number_text(measured)} {predict.unit}"))
        lines = [f"Measured: {number_text(measured)} {predict.unit}   (at t = {m.time:.3f} s)"]
        if predicted is None:
            self.verdict.setText("Measured")
            self.verdict.setStyleSheet("")
        else:
            diff = predicted - measured
            share = f" ({100 * diff / measured:+.1f}%)" if measured else ""
            lines.insert(0, f"Your prediction: {number_text(predicted)} {predict.unit}")
            lines.append(f"Difference: {number_text(diff)} {predict.unit}{share}")
            lines.append(f"Tolerance: within {100 * predict.tolerance:g}%")
            self.verdict.setText("✔ Right: within the tolerance" if within else "✘ Not quite: outside the tolerance")
            self.verdict.setStyleSheet(f"color: {RIGHT if within else WRONG};")
        self.result.setText("\n".join(lines))
        self.model.add(Row(time.strftime("%H:%M:%S"), f"{step + 1}. {self.lesson.steps[step].title}",
                           predict.question, predicted, measured, predict.unit, within))
        self.table.scrollToBottom()

    def _say(self, text: str) -> None:
        self.result.setText(text)

    # -- the predictions table ---------------------------------------------------------------------------
    def export_csv(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the predictions as CSV", "predictions.csv",
                                              "CSV (*.csv)")
        if path:
            self.export_csv_to(path)

    def export_csv_to(self, path) -> Path | None:
        """Write the predictions table to ``path`` (``.csv`` added if missing), whole or not
        at all; the path written, or None (and the panel says why)."""
        path = Path(path)
        if path.suffix.lower() != ".csv":
            path = path.with_name(path.name + ".csv")
        text = self.model.csv_text()
        try:
            write_atomically(path, lambda f: f.write(text))
        except OSError as exc:
            self.export_note.setText(f"{path}: cannot save: {exc.strerror or exc}")
            return None
        self.export_note.setText(f"Saved {path}")
        return path


def _decimals(control) -> int:
    """Enough decimals to show the control's step (or a hundredth of its range)."""
    step = control.step if control.step is not None else (control.max - control.min) / 100.0
    text = f"{step:.6g}"
    return min(len(text.split(".")[1]), 6) if "." in text and "e" not in text else (0 if step >= 1 else 3)


def _words(text: str = "") -> QLabel:
    """A label for text from the lesson file: plain text (never markup), wrapped."""
    label = QLabel(text)
    label.setTextFormat(Qt.PlainText)
    label.setWordWrap(True)
    return label


def _sentence(lead: str, exc) -> str:
    """One plain sentence: ``lead``, then why (an engine message such as "event: 'floor'
    needs walls, and this scene has no box")."""
    why = str(exc).strip().rstrip(".") or type(exc).__name__
    return f"{lead}: {why}."


def _isnumber_text(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False
