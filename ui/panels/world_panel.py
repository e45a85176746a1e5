"""World panel: gravity (strength, presets, direction), restitutions, the integrator
(in plain words, with a tooltip saying what it does), and the shared acceleration
list; every edit goes to the physics thread as a command."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QLabel, QVBoxLayout, QWidget

from classroom_sim import INTEGRATORS, commands

from ..widgets import AccelerationTable, SliderField, VectorField

PRESETS = (("Earth", 9.81), ("Moon", 1.62), ("Mars", 3.71), ("Jupiter", 24.79), ("No gravity", 0.0))
"""Gravity strengths in m/s²."""

METHODS = {
    "kinematic": ("Exact for constant acceleration (kinematic)",
                  "Moves each body over a step with the textbook equations x = x₀ + v₀·t + ½·a·t² and "
                  "v = v₀ + a·t. With a constant acceleration (gravity, a steady push) the motion is exact, "
                  "however long the steps: the choice for kinematics."),
    "semi-implicit-euler": ("Approximate, velocity first (semi-implicit Euler)",
                            "Each step first changes the velocity (v = v₀ + a·Δt), then moves the body at that "
                            "new velocity (x = x₀ + v·Δt). The velocities are right, but a body runs slightly "
                            "ahead of the exact motion (a dropped ball has fallen a little too far), the less "
                            "the shorter the steps. The method games use: where the forces change (orbits, "
                            "springs) it keeps the motion steady over many turns."),
    "euler": ("Approximate, position first (Euler)",
              "Each step first moves the body at its old velocity (x = x₀ + v₀·Δt), then changes the velocity "
              "(v = v₀ + a·Δt). The velocities are right, but a body lags behind the exact motion (a dropped "
              "ball has not fallen quite far enough), the less the shorter the steps: the simplest method, "
              "to show why the size of a step matters."),
}
"""Each integrator in plain words: (the name shown, what it does), by its engine identifier."""


class WorldPanel(QWidget):
    def __init__(self, bridge, parent=None):
        super().__init__(parent)
        self.bridge = bridge
        gravity = QGroupBox("Gravity")
        g = QFormLayout(gravity)
        self.strength = SliderField(0.0, 30.0, decimals=2, suffix="m/s²", field_range=(0.0, 1000.0))
        self.presets = QComboBox()
        self.presets.addItem("Choose a planet…")
        for name, value in PRESETS:
            self.presets.addItem(f"{name} ({value:g} m/s²)" if value else name, value)
        self.vector = VectorField(-1000.0, 1000.0, decimals=2, step=0.5, suffix="m/s²")
        g.addRow("Strength", self.strength)
        g.addRow("Preset", self.presets)
        g.addRow("Vector", self.vector)

        bounce = QGroupBox("Collisions and motion")
        b = QFormLayout(bounce)
        self.restitution = SliderField(0.0, 1.0, decimals=2)
        self.wall_restitution = SliderField(0.0, 1.0, decimals=2)
        self.integrator = QComboBox()
        self.integrator.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.integrator.setMinimumContentsLength(16)  # (the panel keeps its width; the list opens wider)
        for k, name in enumerate(INTEGRATORS):
            words, tip = METHODS.get(name, (name, ""))
            self.integrator.addItem(words, name)  # shown in words; the engine is sent the identifier
            self.integrator.setItemData(k, tip, Qt.ToolTipRole)
        self._explain(self.integrator.currentIndex())
        self.integrator.currentIndexChanged.connect(self._explain)
        b.addRow("Bounciness (bodies)", self.restitution)
        b.addRow("Bounciness (walls)", self.wall_restitution)
        b.addRow(QLabel("Integrator"))
        b.addRow(self.integrator)  # the whole width: the words are long
        self.integrator.view().setMinimumWidth(self.integrator.view().sizeHintForColumn(0) + 24)
        self.restitution.setToolTip("Restitution between bodies: 0 sticks together, 1 is perfectly elastic")
        self.wall_restitution.setToolTip("Restitution against the walls: 0 stops dead, 1 is perfectly elastic")

        shared = QGroupBox("Shared accelerations (every body that feels gravity)")
        self.shared = AccelerationTable()
        QVBoxLayout(shared).addWidget(self.shared)

        col = QVBoxLayout(self)
        col.addWidget(gravity)
        col.addWidget(bounce)
        col.addWidget(shared)
        col.addStretch(1)

        self._gravity = (0.0, -9.81)
        self.strength.edited.connect(self._strength)
        self.presets.activated.connect(self._preset)
        self.vector.edited.connect(lambda v: self._send(commands.SetGravity(tuple(v))))
        self.restitution.edited.connect(lambda v: self._send(commands.SetRestitution(v)))
        self.wall_restitution.edited.connect(lambda v: self._send(commands.SetWallRestitution(v)))
        self.integrator.activated.connect(lambda k: self._send(commands.SetIntegrator(self.integrator.itemData(k))))
        self.shared.added.connect(lambda n, v: self._send(commands.AddAcceleration(None, n, v)))
        self.shared.changed.connect(lambda n, v: self._send(commands.SetAcceleration(None, n, v)))
        self.shared.removed.connect(lambda n: self._send(commands.RemoveAcceleration(None, n)))

    def _explain(self, k: int) -> None:
        """The integrator's tooltip says what the chosen one does."""
        self.integrator.setToolTip(self.integrator.itemData(k, Qt.ToolTipRole) or "")

    def _send(self, command) -> None:
        self.bridge.send(command)

    def _direction(self):
        gx, gy = self._gravity
        size = math.hypot(gx, gy)
        return (0.0, -1.0) if size == 0 else (gx / size, gy / size)

    def _strength(self, value: float) -> None:
        dx, dy = self._direction()
        self._send(commands.SetGravity((dx * value, dy * value)))

    def _preset(self, index: int) -> None:
        value = self.presets.itemData(index)
        self.presets.setCurrentIndex(0)
        if value is not None:
            self.strength.display(value, force=True)
            self._strength(value)

    def refresh(self, snapshot, force: bool = False) -> None:
        """Show the true settings of ``snapshot`` (``force``: even in a field being edited)."""
        s = snapshot.settings
        self._gravity = s.gravity
        self.strength.display(math.hypot(*s.gravity), force)
        self.vector.display(s.gravity, force)
        self.restitution.display(s.restitution, force)
        self.wall_restitution.display(s.wall_restitution, force)
        if self.integrator.currentData() != s.integrator:
            self.integrator.setCurrentIndex(self.integrator.findData(s.integrator))
        self.shared.display(s.accelerations, force)
