"""The tape measure: drag between two points and read the distance in metres.

An end dropped near a body snaps to its centre, and then follows the body as it
moves (the distance between two moving balls reads live); an end dropped near
the floor snaps onto it. The tape stays until the next drag or until the tool
is put away.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPen

from ..paint import outlined, pairs_path, panel
from . import Tool

SNAP_PX = 12.0
"""px: how near (beyond a body's rim, or to the floor) an end snaps."""

COLOR = "#6b3fa0"


def snap_end(snap, x: float, y: float, reach: float):
    """Where a tape end dropped at (x, y) m goes: ``(name, None)`` for the centre of the
    nearest body whose rim is within ``reach`` m, else ``(None, (x, y))``, put onto the
    floor if it is within ``reach`` m of it."""
    if len(snap):
        dx = snap.positions[:, 0] - x
        dy = snap.positions[:, 1] - y
        gap = (dx * dx + dy * dy) ** 0.5 - snap.radii
        k = int(gap.argmin())
        if gap[k] <= reach:
            return snap.names[k], None
    if snap.bounds is not None and abs(y - snap.bounds[1]) <= reach:
        y = float(snap.bounds[1])
    return None, (float(x), float(y))


def where(snap, end):
    """The point (m) of an end, ``(name, point)``: the body's centre now, or the fixed point
    (None if the body is gone)."""
    name, point = end
    if name is None:
        return point
    if name not in snap.names:
        return None
    x, y = snap.positions[snap.index(name)]
    return float(x), float(y)


def reading(a, b) -> str:
    """The tape's label: the distance, then its components on a line of their own."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    return f"{math.hypot(dx, dy):.3f} m\nΔx {dx:+.3f} m, Δy {dy:+.3f} m"


class Tape(Tool):
    name = "Tape measure"

    def __init__(self):
        self.ends = None  # [(name, point), (name, point)] while there is a tape

    def distance(self, snap) -> float | None:
        """m between the ends now (None without a whole tape)."""
        points = self._points(snap)
        return None if points is None else math.dist(*points)

    def _points(self, snap):
        if self.ends is None:
            return None
        a, b = where(snap, self.ends[0]), where(snap, self.ends[1])
        return None if a is None or b is None else (a, b)

    def press(self, canvas, x, y) -> bool:
        end = snap_end(canvas.bridge.latest, x, y, SNAP_PX / canvas.view.scale)
        self.ends = [end, (None, where(canvas.bridge.latest, end))]
        return True

    def move(self, canvas, x, y) -> None:
        if self.ends is not None:
            self.ends[1] = (None, (float(x), float(y)))

    def release(self, canvas, x, y) -> None:
        if self.ends is not None:
            self.ends[1] = snap_end(canvas.bridge.latest, x, y, SNAP_PX / canvas.view.scale)

    def stop(self, canvas) -> None:
        self.ends = None

    def draw(self, p, canvas, snap, theme) -> None:
        points = self._points(snap)
        if points is None:
            return
        (ax, ay), (bx, by) = points
        view = canvas.view
        sx, sy = view.to_screen([ax, bx], [ay, by])
        x0, y0, x1, y1 = float(sx[0]), float(sy[0]), float(sx[1]), float(sy[1])
        length = math.hypot(x1 - x0, y1 - y0)
        tick = 2.0 * theme.arrow_width + 6.0
        nx, ny = ((y0 - y1) / length, (x1 - x0) / length) if length > 0 else (0.0, 1.0)
        xs = [x0, x1, x0 - tick * nx, x0 + tick * nx, x1 - tick * nx, x1 + tick * nx]
        ys = [y0, y1, y0 - tick * ny, y0 + tick * ny, y1 - tick * ny, y1 + tick * ny]
        outlined(p, pairs_path(xs, ys), COLOR, theme.arrow_width, theme.halo, theme.arrow_width + 3.0)
        text = reading((ax, ay), (bx, by))
        metrics = QFontMetricsF(p.font())
        w = max(metrics.horizontalAdvance(line) for line in text.split("\n")) + 12.0
        h = 2.0 * metrics.height() + 6.0
        if ny > 0:  # the label on the upper side of the tape, clear of its ends
            nx, ny = -nx, -ny
        away = tick + 0.5 * (abs(nx) * w + abs(ny) * h)
        cx, cy = 0.5 * (x0 + x1) + away * nx, 0.5 * (y0 + y1) + away * ny
        box = QRectF(cx - 0.5 * w, cy - 0.5 * h, w, h)
        panel(p, theme, box)
        p.setPen(QPen(QColor(COLOR)))
        p.drawText(box, Qt.AlignCenter, text)
        p.setPen(QPen(QColor(COLOR), 1.0))
        for x, y in ((x0, y0), (x1, y1)):
            p.drawEllipse(QPointF(x, y), 3.0, 3.0)
