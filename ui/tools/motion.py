"""The motion diagram: the selected body's position as a dot every Δt, the strobe
picture of the textbook (even spacing: constant velocity; growing spacing:
speeding up).

The dots are the recording's own samples at the multiples of Δt (the recording
samples at exactly k / rate from t = 0, `Recorder`), read as the recording grows
(`bridge.samples_since`), so the picture costs nothing per frame beyond drawing
it. Showing the diagram turns recording on.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainterPath, QPen

from ..paint import panel
from . import Tool

INTERVALS = (0.05, 0.1, 0.2, 0.5, 1.0)
"""s: the Δt a teacher can choose."""
MAX_DOTS = 400
"""The most recent dots drawn (older ones fall away)."""


def strobe_rows(times, rate: float, interval: float) -> np.ndarray:
    """The indices of the samples at ``times`` (k / ``rate``) that fall on multiples of
    ``interval`` s (every round(interval x rate)-th sample of the grid)."""
    every = max(1, round(interval * rate))
    grid = np.rint(np.asarray(times, float) * rate).astype(np.int64)
    return np.flatnonzero(grid % every == 0)


class MotionDiagram(Tool):
    name = "Motion diagram"

    def __init__(self, bridge, rate: float, interval: float = 0.1):
        self.bridge = bridge
        self.rate = rate
        self.interval = interval
        self.on = False
        self.body = None
        self._recording = None
        self._k = 0
        self.dots = np.empty((0, 3))  # t, x, y

    def show(self, on: bool) -> None:
        self.on = bool(on)
        if self.on and not self.bridge.recording:
            self.bridge.record(True, self.rate)
        self.forget()

    def set_body(self, name) -> None:
        if name != self.body:
            self.body = name
            self.forget()

    def set_interval(self, interval: float) -> None:
        self.interval = float(interval)
        self.forget()

    def forget(self) -> None:
        """Read the recording again from its start (a new body, a new Δt)."""
        self._recording, self._k = None, 0
        self.dots = np.empty((0, 3))

    def pull(self) -> None:
        """Take in the samples recorded since the last frame."""
        if not self.on or self.body is None:
            return
        recording, segments = self.bridge.samples_since(self._k)
        if recording is not self._recording:
            if self._k and recording is not None:
                segments = self.bridge.samples_since(0)[1]
            self._recording, self._k = recording, 0
            self.dots = np.empty((0, 3))
        new = [self.dots]
        for seg in segments:
            self._k += len(seg.times)
            if self.body in seg.names:
                b = seg.names.index(self.body)
                rows = strobe_rows(seg.times, self.rate, self.interval)
                new.append(np.column_stack([seg.times[rows], seg.data[rows, b, 0], seg.data[rows, b, 1]]))
        if len(new) > 1:
            self.dots = np.concatenate(new)[-MAX_DOTS:]

    def upto(self, t: float) -> np.ndarray:
        """The dots up to ``t`` s: all of them live; while a recorded instant is replayed,
        where the body had been by then."""
        return self.dots[:int(np.searchsorted(self.dots[:, 0], t + 1e-9, side="right"))]

    def draw(self, p, canvas, snap, theme) -> None:
        if not self.on:
            return
        self.set_body(canvas.selection)
        self.pull()
        dots = self.upto(snap.time)
        if self.body is None or len(dots) == 0:
            return
        sx, sy = canvas.view.to_screen(dots[:, 1], dots[:, 2])
        r = 3.0 + theme.outline_px
        path = QPainterPath()
        for x, y in zip(sx.tolist(), sy.tolist()):
            path.addEllipse(QPointF(x, y), r, r)
        color = QColor(snap.colors[snap.index(self.body)] if self.body in snap.names else theme.label)
        p.setPen(QPen(QColor(theme.outline), theme.outline_px))
        p.setBrush(color)
        p.drawPath(path)
        p.setBrush(Qt.NoBrush)
        text = f"{self.body}: a dot every {self.interval:g} s"
        metrics = QFontMetricsF(p.font())
        box = QRectF(10.0, 10.0, metrics.horizontalAdvance(text) + 12.0, metrics.height() + 6.0)  # top left
        panel(p, theme, box)
        p.setPen(QPen(QColor(theme.label)))
        p.drawText(box, Qt.AlignCenter, text)
