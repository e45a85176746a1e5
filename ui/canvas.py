"""Canvas: draws a Snapshot in metres with y up, and lets the class point at it.

Drawing: a grid with labelled metre ticks and a scale bar, the box, fading
trails and the bodies as antialiased discs in their colours (all of them in one
call, see `raster`), their names, velocity and acceleration arrows with a legend
of their scale, and the selected body highlighted. Lines of one kind go into
one path, drawn with one call.

Interaction: click selects a body; dragging one moves it while paused and
throws it while running; dragging empty space pans; the wheel zooms about the
pointer; a context menu adds a body, deletes, fixes or frees one.
"""

from __future__ import annotations

import math
import time
from collections import deque

import numpy as np
import pyqtgraph.functions as pgf
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen
from PySide6.QtWidgets import QMenu, QWidget

from classroom_sim import commands

from .raster import argb, layer
from .view import NORMAL, PROJECTOR, Display, View, margins_for, nice, scene_extent

MAX_LABELS = 40
"""Bodies beyond this many are drawn without their names (they would cover the picture)."""
MAX_ARROWS = 500
"""Beyond this many bodies only the selected one shows its arrows."""
MAX_TRAILS = 30
"""Beyond this many bodies only the selected one leaves a trail (a thicket of trails
shows nothing, and costs the frame rate)."""
TRAIL_SPACING = 1.0 / 30.0
"""s of simulated time between two points of a trail."""
THROW_WINDOW = 0.1
"""s of wall time over which a throw's release velocity is measured."""


def _path(xs, ys):
    """One QPainterPath of the segments (xs[2k], ys[2k]) - (xs[2k+1], ys[2k+1])."""
    return pgf.arrayToQPath(np.asarray(xs, float).ravel(), np.asarray(ys, float).ravel(), connect="pairs")


def arrow_segments(x0, y0, dx, dy, head_px):
    """Shafts and heads of arrows from (x0, y0) along (dx, dy), in pixels, as segment end points."""
    length = np.hypot(dx, dy)
    keep = length > 1.0
    x0, y0, dx, dy, length = x0[keep], y0[keep], dx[keep], dy[keep], length[keep]
    if len(x0) == 0:
        return np.empty(0), np.empty(0)
    ux, uy = dx / length, dy / length
    head = np.minimum(head_px, 0.4 * length)
    x1, y1 = x0 + dx, y0 + dy
    # the two barbs, 25 degrees off the shaft
    c, s = math.cos(math.radians(25)), math.sin(math.radians(25))
    bx1, by1 = x1 - head * (ux * c - uy * s), y1 - head * (uy * c + ux * s)
    bx2, by2 = x1 - head * (ux * c + uy * s), y1 - head * (uy * c - ux * s)
    xs = np.stack([x0, x1, x1, bx1, x1, bx2], axis=1)
    ys = np.stack([y0, y1, y1, by1, y1, by2], axis=1)
    return xs, ys


class Trails:
    """Where each body was over the last seconds, kept by the GUI from the snapshots it saw."""

    def __init__(self):
        self.samples: deque = deque()  # (time, names, positions, velocities)

    def add(self, snapshot, seconds: float) -> None:
        if self.samples and (snapshot.time < self.samples[-1][0] or snapshot.names != self.samples[-1][1]):
            self.samples.clear()  # a reset, or bodies came or went: start afresh
        if self.samples and snapshot.time < self.samples[-1][0] + TRAIL_SPACING:
            return
        self.samples.append((snapshot.time, snapshot.names, snapshot.positions, snapshot.velocities))
        while self.samples and self.samples[0][0] < snapshot.time - seconds:
            self.samples.popleft()

    def clear(self) -> None:
        self.samples.clear()


class Canvas(QWidget):
    selected = Signal(object)
    """The name of the body just selected, or None."""

    def __init__(self, bridge, parent=None):
        super().__init__(parent)
        self.bridge = bridge
        self.view = View()
        self.display = Display()
        self.selection: str | None = None
        self.trails = Trails()
        self.frames = 0
        self.painted = None  # the Snapshot of the last frame painted
        self._frame_times: deque = deque(maxlen=120)
        self._drag = None  # ("pan", last pixel) or ("body", name, offset, history)
        self._velocity_scale = None  # s: metres of arrow per m/s
        self._acceleration_scale = None  # s²: metres of arrow per m/s²
        self._colors_for = None
        self._argb = np.empty(0, np.int64)
        self._fitted = False
        self.editable = True
        """False in student mode: bodies can be selected, not dragged, added or deleted."""
        self.marker = None
        """None, or ((x, y) in m, text): where a prediction's event happened, ringed and labelled."""
        self.key_actions: dict = {}
        """Qt key -> QAction, for the keys the canvas answers when it has the focus."""
        self.setFocusPolicy(Qt.StrongFocus)
        self.setMinimumSize(320, 240)
        self.setContextMenuPolicy(Qt.DefaultContextMenu)
        self.setAttribute(Qt.WA_OpaquePaintEvent)
        bridge.snapshot.connect(self._on_snapshot)
        bridge.replaced.connect(self.reset_scene)

    # -- state -------------------------------------------------------------------------
    @property
    def theme(self):
        return PROJECTOR if self.display.projector else NORMAL

    @property
    def fps(self) -> float:
        """Frames painted per second, over the last two seconds or so."""
        t = self._frame_times
        if len(t) < 2 or t[-1] - t[0] <= 0:
            return 0.0
        return (len(t) - 1) / (t[-1] - t[0])

    def reset_scene(self, snapshot=None) -> None:
        """A new scene: forget trails, scales and selection, and fit the view."""
        self.trails.clear()
        self._velocity_scale = self._acceleration_scale = None
        self.select(None)
        self._fitted = False
        self.fit()

    def fit(self) -> None:
        """Fit the view to the box (or to the bodies)."""
        self.view.width, self.view.height = max(self.width(), 1), max(self.height(), 1)
        self.view.fit(*scene_extent(self.bridge.latest), margins=margins_for(self.theme))
        self._fitted = True
        self.update()

    def set_marker(self, marker) -> None:
        """Mark ((x, y) m, text) on the canvas, or take the mark away (None)."""
        self.marker = marker
        self.update()

    def zoom(self, factor: float) -> None:
        self.view.zoom(factor)
        self.update()

    def select(self, name) -> None:
        if name != self.selection:
            self.selection = name
            self.selected.emit(name)
            self.update()

    def _on_snapshot(self, snap) -> None:
        if self.display.trails:
            self.trails.add(snap, self.display.trail_seconds)
        if self.selection is not None and self.selection not in snap.names:
            self.select(None)
        self.update()

    def resizeEvent(self, event) -> None:
        self.view.width, self.view.height = max(self.width(), 1), max(self.height(), 1)
        if not self._fitted:
            self.fit()
        super().resizeEvent(event)

    # -- drawing ------------------------------------------------------------------------
    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        snap = self.bridge.latest
        try:
            self.render_into(painter, self.width(), self.height(), snap)
        finally:
            painter.end()
        self.painted = snap
        self.frames += 1
        self._frame_times.append(time.perf_counter())

    def render_image(self, width: int, height: int, snapshot=None) -> QImage:
        """The canvas as it would look at this size, drawn into an image (no window needed)."""
        image = QImage(width, height, QImage.Format_ARGB32_Premultiplied)
        painter = QPainter(image)
        try:
            self.render_into(painter, width, height, snapshot or self.bridge.latest)
        finally:
            painter.end()
        return image

    def render_into(self, p: QPainter, width: int, height: int, snap) -> None:
        """Draw ``snap`` into a painter of the given size: one image with the background,
        the grid, the trails and the bodies, then what is few (walls, arrows, text) on top."""
        theme = self.theme
        view = self.view
        view.width, view.height = width, height
        p.setRenderHint(QPainter.Antialiasing, True)
        font = QFont(self.font())
        font.setPointSizeF(theme.font_pt)
        p.setFont(font)
        grid = self._grid()
        sx, sy = view.to_screen(snap.positions[:, 0], snap.positions[:, 1])
        rs = snap.radii * view.scale
        lines = [grid[0]] if grid else []
        trails = self._trail_lines(theme, snap)
        if trails is not None:
            lines.append(trails)
        discs = (sx, sy, rs, self._colors(snap), argb(theme.outline),
                 theme.outline_px if len(snap) and np.median(rs) > 3 else 0.0)
        image = layer(width, height, argb(theme.background), lines, discs)
        # opaque: a plain copy, no blending
        p.setCompositionMode(QPainter.CompositionMode_Source)
        p.drawImage(0, 0, QImage(image.data, width, height, 4 * width, QImage.Format_ARGB32_Premultiplied))
        p.setCompositionMode(QPainter.CompositionMode_SourceOver)
        if snap.bounds is not None:
            x0, y0 = view.to_screen(snap.bounds[0], snap.bounds[3])
            x1, y1 = view.to_screen(snap.bounds[2], snap.bounds[1])
            p.setPen(QPen(QColor(theme.walls), theme.wall_width))
            p.setBrush(Qt.NoBrush)
            p.drawRect(QRectF(float(x0), float(y0), float(x1 - x0), float(y1 - y0)))
        if len(snap):
            self._draw_marks(p, theme, snap, sx, sy, rs)
            self._draw_arrows(p, theme, snap)
        if grid and self.display.labels:
            self._draw_grid_labels(p, theme, *grid[1:])
        if self.display.labels:
            self._draw_scale_bar(p, theme)
        if self.marker is not None:
            self._draw_marker(p, theme)

    def _draw_marker(self, p, theme) -> None:
        """A ring and a cross where the event happened, with the measured value beside it."""
        (x, y), text = self.marker
        mx, my = (float(v) for v in self.view.to_screen(x, y))
        r = 14.0 + 2.0 * theme.outline_px
        p.setBrush(Qt.NoBrush)
        cross = _path([mx - 0.6 * r, mx + 0.6 * r, mx, mx], [my, my, my - 0.6 * r, my + 0.6 * r])
        # dark on a pale halo: it shows on a ball of any colour, and on a washed-out projector
        for colour, width in ((theme.background, 7.0 + theme.outline_px), (theme.label, 3.0 + theme.outline_px)):
            p.setPen(QPen(QColor(colour), width))
            p.drawEllipse(QPointF(mx, my), r, r)
            p.drawPath(cross)
        font = QFont(p.font())
        font.setPointSizeF(theme.font_pt * 1.4)
        font.setBold(True)
        p.setFont(font)
        w = p.fontMetrics().horizontalAdvance(text) + 16.0
        h = p.fontMetrics().height() + 8.0
        left = mx + r + 6.0 if mx + r + 6.0 + w < self.view.width else mx - r - 6.0 - w
        top = min(max(my - r - h, 4.0), self.view.height - h - 4.0)
        box = QRectF(left, top, w, h)
        _panel(p, theme, box)
        p.setPen(QPen(QColor(theme.label), 2.0))
        p.drawRoundedRect(box, 6.0, 6.0)
        p.setPen(QColor(theme.label))
        p.drawText(box, Qt.AlignCenter, text)

    def _grid(self):
        """The grid's lines (a batch for `layer`), its values and their pixels; None if too dense."""
        view, theme = self.view, self.theme
        step = nice((110.0 if self.display.projector else 70.0) / view.scale)
        x0, y0, x1, y1 = view.visible()
        gx = np.arange(math.ceil(x0 / step), math.floor(x1 / step) + 1) * step
        gy = np.arange(math.ceil(y0 / step), math.floor(y1 / step) + 1) * step
        if len(gx) > 400 or len(gy) > 400:
            return None
        sx, _ = view.to_screen(gx, 0.0)
        _, sy = view.to_screen(0.0, gy)
        n = len(sx) + len(sy)
        lines = (np.concatenate([sx, np.zeros(len(sy))]), np.concatenate([np.zeros(len(sx)), sy]),
                 np.concatenate([sx, np.full(len(sy), float(view.width))]),
                 np.concatenate([np.full(len(sx), float(view.height)), sy]),
                 np.full(n, argb(theme.grid), np.int64), np.ones(n), theme.grid_width)
        return lines, step, gx, sx, gy, sy

    def _draw_grid_labels(self, p, theme, step, gx, sx, gy, sy) -> None:
        p.setPen(QColor(theme.label))
        metrics = p.fontMetrics()
        for x, s in zip(gx, sx):
            text = _metres(x, step)
            if s + 3 + metrics.horizontalAdvance(text) < self.view.width:  # whole, or not at all
                p.drawText(QPointF(float(s) + 3, self.view.height - 4.0), text)
        for y, s in zip(gy, sy):
            if s - 3 - metrics.ascent() > 0 and s < self.view.height - 2 * metrics.height():
                p.drawText(QPointF(3.0, float(s) - 3), _metres(y, step))

    def _draw_scale_bar(self, p, theme) -> None:
        view = self.view
        length_m = nice(0.18 * view.width / view.scale)
        length_px = length_m * view.scale
        x1 = view.width - 16.0
        x0 = x1 - length_px
        y = view.height - 24.0 - theme.font_pt
        _panel(p, theme, QRectF(x0 - 8, y - 12 - 2 * theme.font_pt, length_px + 16, 2 * theme.font_pt + 22))
        pen = QPen(QColor(theme.label), max(2.0, theme.wall_width))
        p.setPen(pen)
        p.drawPath(_path([x0, x1, x0, x0, x1, x1], [y, y, y - 5, y + 5, y - 5, y + 5]))
        p.drawText(QRectF(x0, y - 8 - 2 * theme.font_pt, length_px, 2 * theme.font_pt),
                   Qt.AlignHCenter | Qt.AlignBottom, _metres(length_m, length_m))

    def _trail_lines(self, theme, snap):
        """The trails as a batch of segments for `layer`, older parts paler; None when there are none."""
        samples = [s for s in self.trails.samples if s[1] == snap.names]
        if not self.display.trails or len(samples) < 2:
            return None
        if len(snap) <= MAX_TRAILS:
            bodies = np.arange(len(snap))
        elif self.selection in snap.names:
            bodies = np.array([snap.index(self.selection)])
        else:
            return None
        times = np.array([s[0] for s in samples] + [snap.time])
        pos = np.stack([s[2][bodies] for s in samples] + [snap.positions[bodies]])  # (K, B, 2)
        vel = np.stack([s[3][bodies] for s in samples] + [snap.velocities[bodies]])
        times, pos = _smooth(times, pos, vel)
        sx, sy = self.view.to_screen(pos[..., 0], pos[..., 1])
        age = (snap.time - times[1:]) / max(self.display.trail_seconds, 1e-9)  # of each segment's end
        alphas = np.broadcast_to((0.85 * np.clip(1.0 - age, 0.0, 1.0))[:, None], sx[1:].shape)
        colors = np.broadcast_to(self._colors(snap)[bodies][None, :], sx[1:].shape)
        return (sx[:-1].ravel(), sy[:-1].ravel(), sx[1:].ravel(), sy[1:].ravel(), colors.ravel(), alphas.ravel(),
                theme.trail_width)

    def _colors(self, snap):
        if self._colors_for is not snap.colors:
            self._colors_for = snap.colors
            self._argb = np.array([argb(c) for c in snap.colors], np.int64)
        return self._argb

    def _draw_marks(self, p, theme, snap, sx, sy, rs) -> None:
        """What marks a body besides its disc: a cross when fixed, the selection, its name."""
        fixed = snap.fixed
        if fixed.any():  # a fixed body is marked with a cross
            fx, fy, fr = sx[fixed], sy[fixed], 0.5 * rs[fixed]
            p.setPen(QPen(QColor(theme.outline), theme.outline_px + 0.5))
            p.drawPath(_path(np.stack([fx - fr, fx + fr, fx - fr, fx + fr], 1), np.stack([fy - fr, fy + fr, fy + fr, fy - fr], 1)))
        if self.selection is not None and self.selection in snap.names:
            i = snap.index(self.selection)
            r = max(float(rs[i]), 4.0) + 3.0 + theme.outline_px
            p.setPen(QPen(QColor(theme.selection), 2.0 + theme.outline_px))
            p.setBrush(Qt.NoBrush)
            p.drawEllipse(QPointF(float(sx[i]), float(sy[i])), r, r)
        if self.display.names and len(snap) <= MAX_LABELS:
            p.setPen(QColor(theme.label))
            for name, x, y, r in zip(snap.names, sx, sy, rs):
                p.drawText(QPointF(float(x + 0.75 * r + 4), float(y - 0.75 * r - 2)), name)

    def _arrow_scales(self, snap):
        """Arrow lengths in m per m/s and per m/s², fixed for a scene (so arrows compare)
        and chosen so that the scene's fastest body and strongest pull draw a fair length."""
        extent = scene_extent(snap)
        size = max(extent[2] - extent[0], extent[3] - extent[1])
        if self._velocity_scale is None:
            speed = float(np.max(np.hypot(*snap.velocities.T))) if len(snap) else 0.0
            self._velocity_scale = nice(max(speed, 1.0) / (0.12 * size)) ** -1
        if self._acceleration_scale is None:
            acc = float(np.max(np.hypot(*snap.accelerations.T))) if len(snap) else 0.0
            self._acceleration_scale = nice(max(acc, 1.0) / (0.08 * size)) ** -1
        return self._velocity_scale, self._acceleration_scale

    def _draw_arrows(self, p, theme, snap) -> None:
        if not (self.display.velocity or self.display.acceleration):
            return
        view = self.view
        vscale, ascale = self._arrow_scales(snap)
        if len(snap) <= MAX_ARROWS:
            rows = slice(None)
        elif self.selection in snap.names:
            rows = [snap.index(self.selection)]
        else:
            rows = []
        sx, sy = view.to_screen(snap.positions[rows, 0], snap.positions[rows, 1])
        head = 6.0 + 2.0 * theme.arrow_width
        legend = []
        for on, vectors, scale, color, unit in (
            (self.display.velocity, snap.velocities[rows], vscale, theme.velocity, "m/s"),
            (self.display.acceleration, snap.accelerations[rows], ascale, theme.acceleration, "m/s²"),
        ):
            if not on:
                continue
            k = scale * view.scale
            xs, ys = arrow_segments(sx, sy, vectors[:, 0] * k, -vectors[:, 1] * k, head)
            p.setPen(QPen(QColor(color), theme.arrow_width))  # (a round cap strokes 100x slower)
            if len(xs):
                p.drawPath(_path(xs, ys))
            legend.append((color, unit, scale))
        # The legend: what length one unit-ish arrow has.
        y = 14.0 + theme.font_pt
        if legend:
            metrics = p.fontMetrics()
            widest = max(metrics.horizontalAdvance(f"acceleration 000 {unit}") for _, unit, _ in legend)
            _panel(p, theme, QRectF(view.width - 110.0 - widest - 8, 4.0, 110.0 + widest,
                                    len(legend) * (2.2 * theme.font_pt + 6) + 8))
        for color, unit, scale in legend:
            value = nice(60.0 / (scale * view.scale))
            length = value * scale * view.scale
            xs, ys = arrow_segments(np.array([view.width - 24.0 - length]), np.array([y]),
                                    np.array([length]), np.array([0.0]), head)
            p.setPen(QPen(QColor(color), theme.arrow_width))
            p.drawPath(_path(xs, ys))
            label = f"{'velocity' if unit == 'm/s' else 'acceleration'} {value:g} {unit}"
            p.drawText(QRectF(0, y - 2 * theme.font_pt, view.width - 32.0 - length, 3 * theme.font_pt),
                       Qt.AlignRight | Qt.AlignVCenter, label)
            y += 2.2 * theme.font_pt + 6

    # -- interaction ---------------------------------------------------------------------
    def body_at(self, sx: float, sy: float):
        """The name of the body under pixel (sx, sy) (the nearest, within a few pixels), or None."""
        snap = self.bridge.latest
        if not len(snap):
            return None
        px, py = self.view.to_screen(snap.positions[:, 0], snap.positions[:, 1])
        d = np.hypot(px - sx, py - sy) - np.maximum(snap.radii * self.view.scale, 4.0)
        i = int(np.argmin(d))
        return snap.names[i] if d[i] <= 3.0 else None

    def mousePressEvent(self, event) -> None:
        if event.button() != Qt.LeftButton:
            return super().mousePressEvent(event)
        pos = event.position()
        name = self.body_at(pos.x(), pos.y())
        self.select(name)
        if name is None or not self.editable:
            self._drag = ("pan", pos)
            self.setCursor(Qt.ClosedHandCursor)
        else:
            snap = self.bridge.latest
            wx, wy = self.view.to_world(pos.x(), pos.y())
            bx, by = snap.positions[snap.index(name)]
            self._drag = ("body", name, (bx - wx, by - wy), deque(maxlen=64))
        event.accept()

    def mouseMoveEvent(self, event) -> None:
        if self._drag is None:
            return
        pos = event.position()
        if self._drag[0] == "pan":
            last = self._drag[1]
            self.view.pan(pos.x() - last.x(), pos.y() - last.y())
            self._drag = ("pan", pos)
            self.update()
            return
        _, name, (ox, oy), history = self._drag
        snap = self.bridge.latest
        if name not in snap.names:
            return
        wx, wy = self.view.to_world(pos.x(), pos.y())
        x, y = _inside(snap.bounds, float(snap.radii[snap.index(name)]), wx + ox, wy + oy)
        history.append((time.perf_counter(), x, y))
        self.bridge.send(commands.SetPosition(name, (x, y)))
        if not self.bridge.paused and not snap.fixed[snap.index(name)]:
            self.bridge.send(commands.SetVelocity(name, self._throw_velocity(history)))

    def mouseReleaseEvent(self, event) -> None:
        drag, self._drag = self._drag, None
        self.unsetCursor()
        if drag is None or drag[0] != "body":
            return
        _, name, _, history = drag
        snap = self.bridge.latest
        if name in snap.names and not snap.fixed[snap.index(name)] and not self.bridge.paused:
            self.bridge.send(commands.SetVelocity(name, self._throw_velocity(history)))

    def _throw_velocity(self, history):
        """m/s of simulated time, from the drag's last moments of wall time."""
        if len(history) < 2:
            return (0.0, 0.0)
        t1, x1, y1 = history[-1]
        if time.perf_counter() - t1 > THROW_WINDOW:
            return (0.0, 0.0)  # held still before letting go: a drop, not a throw
        old = [h for h in history if t1 - h[0] <= THROW_WINDOW]
        t0, x0, y0 = old[0]
        if t1 - t0 <= 1e-3:
            return (0.0, 0.0)
        scale = self.bridge.time_scale
        return ((x1 - x0) / (t1 - t0) / scale, (y1 - y0) / (t1 - t0) / scale)

    def keyPressEvent(self, event) -> None:
        # The window's shortcuts take these keys first; a key that reaches the canvas
        # anyway (no active window, as offscreen) triggers the same action.
        action = self.key_actions.get(event.key())
        if action is not None and event.modifiers() in (Qt.NoModifier, Qt.KeypadModifier, Qt.ShiftModifier):
            action.trigger()
            event.accept()
        else:
            super().keyPressEvent(event)

    def wheelEvent(self, event) -> None:
        steps = event.angleDelta().y() / 120.0
        pos = event.position()
        self.view.zoom(1.15 ** steps, pos.x(), pos.y())
        self.update()
        event.accept()

    def contextMenuEvent(self, event) -> None:
        if not self.editable:
            return
        pos = event.pos()
        name = self.body_at(pos.x(), pos.y())
        menu = QMenu(self)
        wx, wy = self.view.to_world(pos.x(), pos.y())
        add = menu.addAction("Add a body here")
        delete = fix = None
        if name is not None:
            self.select(name)
            snap = self.bridge.latest
            fixed = bool(snap.fixed[snap.index(name)])
            delete = menu.addAction(f"Delete {name}")
            fix = menu.addAction(f"Free {name}" if fixed else f"Fix {name} in place")
        chosen = menu.exec(event.globalPos())
        if chosen is None:
            return
        if chosen is add:
            self.add_body_at(wx, wy)
        elif chosen is delete:
            self.bridge.send(commands.RemoveBody(name))
        elif chosen is fix:
            self.bridge.send(commands.SetFixed(name, not fixed))

    def add_body_at(self, x: float, y: float) -> str | None:
        """Add a 1 kg body at (x, y) m, as large as the median body (or a fair size for the view)."""
        if not self.editable:
            return None
        snap = self.bridge.latest
        radius = float(np.median(snap.radii)) if len(snap) else nice(20.0 / self.view.scale)
        taken = set(snap.names)
        k = len(snap) + 1
        while f"body {k}" in taken:
            k += 1
        name = f"body {k}"
        if snap.bounds is not None:
            xmin, ymin, xmax, ymax = snap.bounds
            radius = min(radius, 0.25 * (xmax - xmin), 0.25 * (ymax - ymin))
        x, y = _inside(snap.bounds, radius, x, y)
        self.bridge.send(commands.AddBody(name, 1.0, radius, (x, y)),
                         done=lambda ok: ok and self.select(name))
        return name


def _panel(p, theme, rect) -> None:
    """A pale, rounded backing that keeps a legend readable over the scene."""
    back = QColor(theme.background)
    back.setAlpha(215)
    p.setPen(Qt.NoPen)
    p.setBrush(back)
    p.drawRoundedRect(rect, 6.0, 6.0)
    p.setBrush(Qt.NoBrush)


def _smooth(times, pos, vel):
    """Fill the gaps of a trail (a slow frame) with points on the cubic through both ends
    with their velocities: exactly the parabola of a body under constant acceleration."""
    steps = np.diff(times)
    if len(steps) == 0 or steps.max() <= 1.5 * TRAIL_SPACING:
        return times, pos
    out_t, out_p = [times[:1]], [pos[:1]]
    for k, dt in enumerate(steps):
        m = int(min(np.ceil(dt / TRAIL_SPACING), 60)) if dt > 1.5 * TRAIL_SPACING else 1
        u = (np.arange(1, m + 1) / m)[:, None, None]
        h00, h10, h01, h11 = 2 * u**3 - 3 * u**2 + 1, u**3 - 2 * u**2 + u, -2 * u**3 + 3 * u**2, u**3 - u**2
        out_p.append(h00 * pos[k] + h10 * dt * vel[k] + h01 * pos[k + 1] + h11 * dt * vel[k + 1])
        out_t.append(times[k] + dt * u[:, 0, 0])
    return np.concatenate(out_t), np.concatenate(out_p)


def _inside(bounds, r: float, x: float, y: float):
    """(x, y) m moved into the box, so that a body of radius ``r`` fits."""
    if bounds is None:
        return float(x), float(y)
    xmin, ymin, xmax, ymax = bounds
    return float(min(max(x, xmin + r), xmax - r)), float(min(max(y, ymin + r), ymax - r))


def _metres(value: float, step: float) -> str:
    decimals = max(0, -int(math.floor(math.log10(step)))) if step < 1 else 0
    return f"{value:.{decimals}f} m"
