"""The launcher: drag out from a body to set its velocity, reading the speed and the
angle as you drag; letting go launches it, and leaves the launch velocity drawn
where it began, dashed, until the next launch.

The arrow's length follows the canvas's velocity arrows (`vectors.ArrowScale`:
pixels per m/s), so the arrow dragged out and the body's own velocity arrow
agree. The speed is rounded to a tenth of the scale's leading digit (0.1 m/s on a
5 m/s scale) and the angle to a whole degree (15° steps with Shift held), so that
a class can launch "10 m/s at 45°" exactly.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QGuiApplication, QPen

from classroom_sim import commands

from ..paint import outlined, pairs_path, panel
from ..vectors import arrow_segments, full_length
from ..view import nice
from . import Tool

ACROSS = 2.0
"""s: with every body at rest, a full-length arrow is the speed that crosses the view's
smaller side in this time."""
COARSE = 15.0
"""°: the angle's step with Shift held."""


def launch(dx: float, dy: float, px_per_unit: float, reference: float, coarse: bool = False):
    """The (speed m/s, angle °) of an arrow dragged (dx, dy) pixels (y up) at
    ``px_per_unit`` pixels per m/s: the speed rounded to `step_of` the scale's
    ``reference``, the angle to 1° (or `COARSE`), in (-180, 180]."""
    speed = math.hypot(dx, dy) / px_per_unit
    step = step_of(reference)
    speed = round(speed / step) * step
    angle = math.degrees(math.atan2(dy, dx))
    unit = COARSE if coarse else 1.0
    angle = round(angle / unit) * unit
    if angle <= -180.0:
        angle += 360.0
    return speed, angle


def step_of(reference: float) -> float:
    """m/s: the speed's rounding for a full-length arrow of ``reference`` m/s."""
    return 10.0 ** math.floor(math.log10(reference) + 1e-9) / 10.0


def components(speed: float, angle: float) -> tuple:
    """(vx, vy) m/s of ``speed`` at ``angle`` degrees (exact on the axes)."""
    quarter = angle / 90.0
    if quarter == round(quarter):
        c, s = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))[int(round(quarter)) % 4]
    else:
        c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return speed * c, speed * s


def label(speed: float, angle: float) -> str:
    return f"{speed:g} m/s at {angle:g}°"


class Launcher(Tool):
    name = "Launcher"

    def __init__(self):
        self.body = None  # the body being launched
        self.scale = None  # (pixels per m/s, the reference) frozen for the drag
        self.aim = None  # (speed, angle) while dragging
        self.left = None  # ((x, y) m, speed, angle): the last launch, drawn where it began

    def _scale(self, canvas) -> tuple:
        full = full_length(canvas.view.width, canvas.view.height)
        reference = canvas.vectors.velocity.reference
        if reference is None:
            x0, y0, x1, y1 = canvas.view.visible()
            reference = nice(min(abs(x1 - x0), abs(y1 - y0)) / ACROSS)
        return full / reference, reference

    def press(self, canvas, x, y) -> bool:
        snap = canvas.bridge.latest
        view = canvas.view
        name = canvas.body_at(*map(float, view.to_screen(x, y)))
        if name is None or not canvas.editable or snap.fixed[snap.index(name)]:
            return False
        canvas.select(name)
        self.body, self.scale, self.aim = name, self._scale(canvas), None
        return True

    def move(self, canvas, x, y) -> None:
        snap = canvas.bridge.latest
        if self.body is None or self.body not in snap.names:
            return
        bx, by = snap.positions[snap.index(self.body)]
        view = canvas.view
        px, py = view.to_screen([bx, x], [by, y])
        coarse = bool(QGuiApplication.keyboardModifiers() & Qt.ShiftModifier)
        self.aim = launch(float(px[1] - px[0]), float(py[0] - py[1]), *self.scale, coarse)

    def release(self, canvas, x, y) -> None:
        self.move(canvas, x, y)
        snap = canvas.bridge.latest
        if self.body in snap.names and self.aim is not None:
            speed, angle = self.aim
            canvas.bridge.send(commands.SetVelocity(self.body, components(speed, angle)))
            bx, by = snap.positions[snap.index(self.body)]
            self.left = ((float(bx), float(by)), speed, angle)
        self.body = self.aim = None

    def stop(self, canvas) -> None:
        self.body = self.aim = self.left = None

    def draw(self, p, canvas, snap, theme) -> None:
        if self.body is not None and self.aim is not None and self.body in snap.names:
            x, y = snap.positions[snap.index(self.body)]
            self._arrow(p, canvas, theme, float(x), float(y), *self.aim, self.scale[0], Qt.SolidLine)
        elif self.left is not None:
            (x, y), speed, angle = self.left
            self._arrow(p, canvas, theme, x, y, speed, angle, self._scale(canvas)[0], Qt.DashLine)

    def _arrow(self, p, canvas, theme, x, y, speed, angle, px_per_unit, style) -> None:
        sx, sy = canvas.view.to_screen(x, y)
        vx, vy = components(speed, angle)
        head = 8.0 + 2.0 * theme.arrow_width
        xs, ys = arrow_segments([float(sx)], [float(sy)], [vx * px_per_unit], [-vy * px_per_unit], head, head)
        pen_width = theme.arrow_width + 1.0
        path = pairs_path(xs, ys)
        outlined(p, path, theme.velocity, pen_width, theme.halo, pen_width + 3.0)
        if style != Qt.SolidLine:  # the launch left behind: dashed with gaps of the halo's colour
            pen = QPen(QColor(theme.halo), pen_width)
            pen.setDashPattern([2.0, 2.0])
            p.setPen(pen)
            p.drawPath(path)
        text = label(speed, angle)
        metrics = QFontMetricsF(p.font())
        w, h = metrics.horizontalAdvance(text) + 12.0, metrics.height() + 6.0
        tx, ty = float(sx) + vx * px_per_unit, float(sy) - vy * px_per_unit
        box = QRectF(tx + 8.0, ty - h - 4.0, w, h)
        panel(p, theme, box)
        p.setPen(QPen(QColor(theme.velocity)))
        p.drawText(box, Qt.AlignCenter, text)
