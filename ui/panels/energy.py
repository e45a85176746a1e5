"""Energy and momentum: the totals of kinetic and potential energy and their sum, as
numbers and as bars, and the total momentum; in an elastic scene the sum holds, in
an inelastic collision the loss shows. Computed by the engine's `energy` from each
snapshot (m g h from the floor; without a box, from where each body started)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QLabel, QVBoxLayout, QWidget

from classroom_sim import energy

BARS = (("kinetic", "#d9534f"), ("potential", "#2a6fdb"), ("total", "#444444"))


class Starts:
    """Where each body was when it was first seen since the scene (re)started: the zero
    of potential energy without a box. A clock that goes back (a reset, a new step of a
    lesson) or a new scene starts afresh."""

    def __init__(self):
        self.forget()

    def forget(self, *_) -> None:
        self._where: dict = {}
        self._time = None
        self._names = None
        self._array = np.empty((0, 2))

    def of(self, snap) -> np.ndarray:
        """The start position of every body of ``snap``, in its order (looked up body by body
        only when the bodies change: this runs every frame)."""
        if self._time is not None and snap.time < self._time:
            self.forget()
        self._time = snap.time
        if snap.names != self._names:
            for name, p in zip(snap.names, snap.positions):
                self._where.setdefault(name, (float(p[0]), float(p[1])))
            self._names = snap.names
            self._array = np.array([self._where[name] for name in snap.names]).reshape(-1, 2)
        return self._array


def joules(value: float) -> str:
    return f"{value:10.3f} J"


class EnergyPanel(QWidget):
    def __init__(self, bridge, starts: Starts, parent=None):
        super().__init__(parent)
        self.starts = starts
        form = QFormLayout()
        self.kinetic = QLabel()
        self.potential = QLabel()
        self.total = QLabel()
        self.momentum = QLabel()
        for label in (self.kinetic, self.potential, self.total, self.momentum):
            label.setTextFormat(Qt.PlainText)
            label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        form.addRow("Kinetic energy", self.kinetic)
        form.addRow("Potential energy", self.potential)
        form.addRow("Total", self.total)
        form.addRow("Momentum (x, y)", self.momentum)
        self.plot = pg.PlotWidget(background="w")
        self.plot.setMinimumHeight(160)
        self.plot.setMouseEnabled(False, False)
        self.plot.hideButtons()
        self.plot.setMenuEnabled(False)
        self.plot.getAxis("bottom").setTicks([[(k, name) for k, (name, _) in enumerate(BARS)]])
        self.plot.getAxis("left").setLabel("J")
        self.plot.addLine(y=0.0, pen=pg.mkPen("#888888"))
        self.bars = pg.BarGraphItem(x=np.arange(len(BARS)), height=np.zeros(len(BARS)), width=0.6,
                                    brushes=[pg.mkBrush(color) for _, color in BARS], pens=[None] * len(BARS))
        self.plot.addItem(self.bars)
        self._span = (0.0, 0.0)
        self._time = None
        col = QVBoxLayout(self)
        col.addLayout(form)
        col.addWidget(self.plot, 1)
        self.values = None
        """The last `Energy` shown."""
        bridge.snapshot.connect(self.refresh)
        bridge.replaced.connect(starts.forget)

    def refresh(self, snap) -> None:
        """Show the energy and momentum of ``snap`` (only while the panel is visible)."""
        if not self.isVisible():
            return
        e = energy(snap, self.starts.of(snap))
        self.values = e
        heights = np.array([e.total_kinetic, e.total_potential, e.total])
        self.kinetic.setText(joules(heights[0]))
        self.potential.setText(joules(heights[1]))
        self.total.setText(joules(heights[2]))
        px, py = e.total_momentum
        self.momentum.setText(f"({px:.3f}, {py:.3f}) kg·m/s")
        self.bars.setOpts(height=heights)
        # the scale only grows while time runs (a change shows as a change), and starts
        # afresh when the clock goes back
        lo, hi = min(0.0, float(heights.min())), max(float(heights.max()), 1e-9)
        if self._time is not None and snap.time >= self._time:
            lo, hi = min(lo, self._span[0]), max(hi, self._span[1])
        self._time = snap.time
        if (lo, hi) != self._span:
            self._span = (lo, hi)
            self.plot.setYRange(lo * 1.1, hi * 1.1, padding=0.0)
