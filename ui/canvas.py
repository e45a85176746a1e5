"""Canvas: draws a Snapshot in metres with y up, and lets the class point at it.

Drawing: a grid with labelled metre ticks and a scale bar, the box, fading
trails (see `trails`) and the bodies as antialiased discs in their colours (all
of them in one call, see `raster`), their names, velocity and acceleration
arrows with a legend of their scale (see `vectors`), and the selected body
highlighted. Lines of one kind go into one path, drawn with one call.

Interaction: click selects a body; dragging one moves it while paused and
throws it while running; dragging empty space pans; the wheel zooms about the
pointer; a context menu adds a body, deletes, fixes or frees one. A resize
refits the view to the box, unless the class zoomed or panned by hand since the
last fit: then the view keeps its centre.
"""

from __future__ import annotations

import math
import time
from collections import deque

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen
from PySide6.QtWidgets import QMenu, QWidget

from classroom_sim import commands

from .paint import line_color, pairs_path, panel
from .raster import argb, layer
from .trails import MAX_SAMPLES, TRAIL_SPACING, Trails, trail_lines, trail_rows
from .vectors import Vectors
from .view import NORMAL, PROJECTOR, Display, View, margins_for, nice, scene_extent

MAX_LABELS = 40
"""Bodies beyond this many are drawn without their names (they would cover the picture)."""
THROW_WINDOW = 0.1
"""s of wall time over which a throw's release velocity is measured."""

FPS_WINDOW = 1.0
"""s: the frame rate is of the frames painted within this much of the newest one; none
painted within it of now (paused, nothing moving), and it is 0. (Counted over the
last 120 frames whenever painted, it read 4 frames/s for the first second after Play:
the frames of the pause, seconds apart, were still among them.)"""


def frame_rate(times, now: float) -> float:
    """Frames per second from the times (s, oldest first) at which frames were painted:
    those within `FPS_WINDOW` of the newest, which must itself be within it of ``now``."""
    if not times or now - times[-1] > FPS_WINDOW:
        return 0.0
    last = times[-1]
    k = len(times) - 1
    while k > 0 and last - times[k - 1] <= FPS_WINDOW:
        k -= 1
    span = last - times[k]
    return (len(times) - 1 - k) / span if span > 0 else 0.0


class Canvas(QWidget):
    selected = Signal(object)
    """The name of the body just selected, or None."""
    pointer = Signal(float, float)
    """Where the mouse is over the canvas, in m."""

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
        self.vectors = Vectors()
        self._colors_for = None
        self._argb = (np.empty(0, np.int64), np.empty(0, np.int64))
        self._by_hand = False  # zoomed or panned by hand since the last fit
        self._replayed = False  # the last snapshot was a replayed one
        self.editable = True
        """False in student mode: bodies can be selected, not dragged, added or deleted."""
        self.marker = None
        """None, or ((x, y) in m, text): where a prediction's event happened, ringed and labelled."""
        self.key_actions: dict = {}
        """Qt key -> QAction, for the keys the canvas answers when it has the focus."""
        self.overlays: list = []
        """What is drawn over the scene, in order (the tools of `ui.tools`): each has
        ``draw(painter, canvas, snapshot, theme)``."""
        self.tool = None
        """The tool the mouse works (`ui.tools.Tool`), or None: select, drag, pan."""
        self.setFocusPolicy(Qt.StrongFocus)
        self.setMouseTracking(True)  # (the pointer's coordinates, with no button down)
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
        """Frames painted per second, lately (`FPS_WINDOW`)."""
        return frame_rate(self._frame_times, time.perf_counter())

    def reset_scene(self, snapshot=None) -> None:
        """A new scene: forget trails, scales and selection, and fit the view."""
        self.trails.clear()
        self.vectors.reset()
        self.select(None)
        self.fit()

    def fit(self) -> None:
        """Fit the view to the box (or to the bodies)."""
        self.view.width, self.view.height = max(self.width(), 1), max(self.height(), 1)
        self.view.fit(*scene_extent(self.bridge.latest), margins=margins_for(self.theme))
        self._by_hand = False
        self.update()

    def refit(self) -> None:
        """Fit the view again (the canvas changed size, or its margins), unless the class
        zoomed or panned by hand since the last fit."""
        if not self._by_hand:
            self.fit()

    def set_marker(self, marker) -> None:
        """Mark ((x, y) m, text) on the canvas, or take the mark away (None)."""
        self.marker = marker
        self.update()

    def zoom(self, factor: float) -> None:
        self.view.zoom(factor)
        self._by_hand = True
        self.update()

    def select(self, name) -> None:
        if name != self.selection:
            self.selection = name
            self.selected.emit(name)
            self.update()

    def _on_snapshot(self, snap) -> None:
        if self.display.trails:
            rows = trail_rows(snap, self.selection)
            replaying = getattr(self.bridge, "replaying", False)
            if replaying or self._replayed:  # a jump in time: the trail is read from the recording
                times, positions = self.bridge.recorded_track(rows, self.display.trail_seconds, MAX_SAMPLES,
                                                              TRAIL_SPACING)
                self.trails.load(snap, rows, times, positions)
            if not replaying:
                self.trails.add(snap, self.display.trail_seconds, rows)
            self._replayed = replaying
        if self.selection is not None and self.selection not in snap.names:
            self.select(None)
        self.update()

    def resizeEvent(self, event) -> None:
        self.view.width, self.view.height = max(self.width(), 1), max(self.height(), 1)
        self.refit()  # (else the centre stays: the view is anchored at its middle)
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
        trails = trail_lines(self.trails, snap, view, self._colors(snap)[1], self.selection,
                             self.display.trail_seconds, theme.trail_width) if self.display.trails else None
        if trails is not None:
            lines.append(trails)
        discs = (sx, sy, rs, self._colors(snap)[0], argb(theme.outline),
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
            self.vectors.draw(p, theme, self.display, snap, sx, sy, rs, width, height, self.selection)
        if grid and self.display.labels:
            self._draw_grid_labels(p, theme, *grid[1:])
        if self.display.labels:
            self._draw_scale_bar(p, theme)
        if self.marker is not None:
            self._draw_marker(p, theme)
        for overlay in self.overlays:
            overlay.draw(p, self, snap, theme)

    def _draw_marker(self, p, theme) -> None:
        """A ring and a cross where the event happened, with the measured value beside it."""
        (x, y), text = self.marker
        mx, my = (float(v) for v in self.view.to_screen(x, y))
        r = 14.0 + 2.0 * theme.outline_px
        p.setBrush(Qt.NoBrush)
        cross = pairs_path([mx - 0.6 * r, mx + 0.6 * r, mx, mx], [my, my, my - 0.6 * r, my + 0.6 * r])
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
        panel(p, theme, box)
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
        panel(p, theme, QRectF(x0 - 8, y - 12 - 2 * theme.font_pt, length_px + 16, 2 * theme.font_pt + 22))
        pen = QPen(QColor(theme.label), max(2.0, theme.wall_width))
        p.setPen(pen)
        p.drawPath(pairs_path([x0, x1, x0, x0, x1, x1], [y, y, y - 5, y + 5, y - 5, y + 5]))
        p.drawText(QRectF(x0, y - 8 - 2 * theme.font_pt, length_px, 2 * theme.font_pt),
                   Qt.AlignHCenter | Qt.AlignBottom, _metres(length_m, length_m))

    def _colors(self, snap):
        """(the bodies' ARGB, their trails' ARGB: `line_color`), kept while the colours stay."""
        if self._colors_for is not snap.colors:
            self._colors_for = snap.colors
            self._argb = (np.array([argb(c) for c in snap.colors], np.int64),
                          np.array([argb(line_color(c)) for c in snap.colors], np.int64))
        return self._argb

    def _draw_marks(self, p, theme, snap, sx, sy, rs) -> None:
        """What marks a body besides its disc: a cross when fixed, the selection, its name."""
        fixed = snap.fixed
        if fixed.any():  # a fixed body is marked with a cross
            fx, fy, fr = sx[fixed], sy[fixed], 0.5 * rs[fixed]
            p.setPen(QPen(QColor(theme.outline), theme.outline_px + 0.5))
            p.drawPath(pairs_path(np.stack([fx - fr, fx + fr, fx - fr, fx + fr], 1),
                                  np.stack([fy - fr, fy + fr, fy + fr, fy - fr], 1)))
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
        if self.tool is not None and self.tool.press(self, *self.view.to_world(pos.x(), pos.y())):
            self._drag = ("tool",)
            self.update()
            return event.accept()
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
        pos = event.position()
        self.pointer.emit(*map(float, self.view.to_world(pos.x(), pos.y())))
        if self._drag is None:
            return
        if self._drag[0] == "tool":
            self.tool.move(self, *self.view.to_world(pos.x(), pos.y()))
            self.update()
            return
        if self._drag[0] == "pan":
            last = self._drag[1]
            self.view.pan(pos.x() - last.x(), pos.y() - last.y())
            self._by_hand = True
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
        if self.tool is not None:
            self.setCursor(Qt.CrossCursor)
        else:
            self.unsetCursor()
        if drag is not None and drag[0] == "tool":
            pos = event.position()
            self.tool.release(self, *self.view.to_world(pos.x(), pos.y()))
            self.update()
            return
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

    def leaveEvent(self, event) -> None:
        self.pointer.emit(math.nan, math.nan)
        super().leaveEvent(event)

    def wheelEvent(self, event) -> None:
        steps = event.angleDelta().y() / 120.0
        pos = event.position()
        self.view.zoom(1.15 ** steps, pos.x(), pos.y())
        self._by_hand = True
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


def _inside(bounds, r: float, x: float, y: float):
    """(x, y) m moved into the box, so that a body of radius ``r`` fits."""
    if bounds is None:
        return float(x), float(y)
    xmin, ymin, xmax, ymax = bounds
    return float(min(max(x, xmin + r), xmax - r)), float(min(max(y, ymin + r), ymax - r))


def _metres(value: float, step: float) -> str:
    decimals = max(0, -int(math.floor(math.log10(step)))) if step < 1 else 0
    return f"{value:.{decimals}f} m"
