"""Inspector: the selected body's name, mass (or fixed), radius, position,
velocity, colour, whether it feels the shared accelerations, its energy and
momentum, and its own acceleration list. Every edit goes to the physics thread as a command; the
fields follow the body as it moves."""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QColorDialog,
    QFormLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from classroom_sim import commands, energy

from ..widgets import AccelerationTable, NumberField, SliderField, VectorField

MASS_SLIDER = (0.01, 100.0)
"""kg: the mass slider's range (logarithmic); the field beside it goes further."""


class Inspector(QWidget):
    def __init__(self, bridge, starts=None, parent=None):
        super().__init__(parent)
        self.bridge = bridge
        self.starts = starts  # (`energy.Starts`: the zero of potential energy without a box)
        self.body: str | None = None
        self.title = QLabel("Click a body to inspect it")
        self.title.setTextFormat(Qt.PlainText)  # a body's name is the user's text, never markup
        self.title.setWordWrap(True)
        self._title_font()

        self.form = QGroupBox("Body")
        f = QFormLayout(self.form)
        self.mass = SliderField(*MASS_SLIDER, decimals=3, suffix="kg", log=True, field_range=(0.001, 1e6))
        self.fixed = QCheckBox("Fixed in place (infinite mass)")
        self.radius = NumberField(0.001, 1000.0, decimals=3, step=0.01, suffix="m")
        self.position = VectorField(-1e6, 1e6, decimals=3, step=0.1, suffix="m")
        self.velocity = VectorField(-1e4, 1e4, decimals=3, step=0.1, suffix="m/s")
        self.color = QPushButton()
        self.feels = QCheckBox("Feels gravity and the shared accelerations")
        f.addRow("Mass", self.mass)
        f.addRow("", self.fixed)
        f.addRow("Radius", self.radius)
        f.addRow("Position", self.position)
        f.addRow("Velocity", self.velocity)
        f.addRow("Colour", self.color)
        f.addRow("", self.feels)
        self.kinetic = QLabel()
        self.potential = QLabel()
        self.momentum = QLabel()
        for label in (self.kinetic, self.potential, self.momentum):
            label.setTextFormat(Qt.PlainText)
        f.addRow("Kinetic energy", self.kinetic)
        f.addRow("Potential energy", self.potential)
        f.addRow("Momentum", self.momentum)

        own = QGroupBox("Its own accelerations")
        self.accelerations = AccelerationTable()
        QVBoxLayout(own).addWidget(self.accelerations)
        self.own = own

        col = QVBoxLayout(self)
        col.addWidget(self.title)
        col.addWidget(self.form)
        col.addWidget(own)
        col.addStretch(1)

        self.mass.edited.connect(lambda v: self._send(commands.SetMass, v))
        self.fixed.clicked.connect(lambda on: self._send(commands.SetFixed, bool(on)))
        self.radius.edited.connect(lambda v: self._send(commands.SetRadius, v))
        self.position.edited.connect(lambda v: self._send(commands.SetPosition, tuple(v)))
        self.velocity.edited.connect(lambda v: self._send(commands.SetVelocity, tuple(v)))
        self.feels.clicked.connect(lambda on: self._send(commands.SetBodyGravity, bool(on)))
        self.color.clicked.connect(self._pick_color)
        self.accelerations.added.connect(lambda n, v: self._send_named(commands.AddAcceleration, n, v))
        self.accelerations.changed.connect(lambda n, v: self._send_named(commands.SetAcceleration, n, v))
        self.accelerations.removed.connect(lambda n: self._send_named(commands.RemoveAcceleration, n))
        self._color_value = None
        self.set_body(None, None)

    def _title_font(self) -> None:
        font = QFont(self.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.25)
        self.title.setFont(font)

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.FontChange:
            self._title_font()  # the name stays larger than the rest, in projector mode too
        super().changeEvent(event)

    def _send(self, kind, value) -> None:
        if self.body is not None:
            self.bridge.send(kind(self.body, value))

    def _send_named(self, kind, *args) -> None:
        if self.body is not None:
            self.bridge.send(kind(self.body, *args))

    def _pick_color(self) -> None:
        if self.body is None:
            return
        chosen = QColorDialog.getColor(QColor(self._color_value or "#808080"), self, f"Colour of {self.body}")
        if chosen.isValid():
            self._send(commands.SetColor, chosen.name())

    def set_body(self, name, snapshot) -> None:
        """Inspect the named body (None: nothing selected)."""
        self.body = name
        on = name is not None
        self.form.setEnabled(on)
        self.own.setEnabled(on)
        self.title.setText(name if on else "Click a body to inspect it")
        if on and snapshot is not None:
            self.refresh(snapshot, force=True)

    def refresh(self, snapshot, force: bool = False) -> None:
        """Show the body's true values in ``snapshot``."""
        if self.body is None or self.body not in snapshot.names:
            if self.body is not None:
                self.set_body(None, None)
            return
        i = snapshot.index(self.body)
        mass = float(snapshot.masses[i])
        fixed = math.isinf(mass)
        if self.fixed.isChecked() != fixed:
            self.fixed.setChecked(fixed)
        self.mass.setEnabled(not fixed)
        self.velocity.setEnabled(not fixed)
        if not fixed:
            self.mass.display(mass, force)
        r = float(snapshot.radii[i])
        self.radius.display(r, force)
        if snapshot.bounds is not None:
            xmin, ymin, xmax, ymax = snapshot.bounds
            self.position.set_ranges((xmin + r, xmax - r), (ymin + r, ymax - r))
            self.radius.set_range(self.radius.minimum(), 0.5 * min(xmax - xmin, ymax - ymin))
        self.position.display(snapshot.positions[i], force)
        self.velocity.display(snapshot.velocities[i], force)
        color = snapshot.colors[i]
        if color != self._color_value:
            self._color_value = color
            self.color.setText(color or "default")
            self.color.setStyleSheet(f"background-color: {color or '#808080'}; color: {_readable_on(color)};")
        feels = bool(snapshot.shared_on[i])
        if self.feels.isChecked() != feels:
            self.feels.setChecked(feels)
        self.accelerations.display(snapshot.own_accelerations[i], force)
        e = energy(snapshot, self.starts.of(snapshot) if self.starts is not None else None)
        self.kinetic.setText(f"{e.kinetic[i]:.3f} J")
        self.potential.setText(f"{e.potential[i]:.3f} J")
        self.momentum.setText(f"({e.momentum[i, 0]:.3f}, {e.momentum[i, 1]:.3f}) kg·m/s")


def _readable_on(color) -> str:
    """Black or white text, whichever reads better on ``color``."""
    c = QColor(color or "#808080")
    return "#000000" if 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue() > 140 else "#ffffff"
