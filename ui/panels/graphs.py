"""Live graphs: up to four stacked plots against a shared time axis, each of one
quantity of the graphed bodies (the selected one, else every body up to
`MAX_BODIES`), in the bodies' colours, with a legend; following the last seconds
or showing the whole run; a cursor that reads the values; PNG export (pyqtgraph's)
or SVG (Qt's: pyqtgraph's SVG exporter fails on Qt 6's paths).

The graphs draw the recording (they turn Record on when they are shown) and read
only what is new each frame (`SimulationBridge.samples_since`). Each body's curve
is drawn in pieces of `PIECE` samples: a finished piece is never touched again,
so a frame costs the same at 10 s and at 5 minutes of run. The plots are drawn
anew at most every `REFRESH_S` of wall time, not at every frame: the canvas shows
the motion at the display's rate, and a plot's repaint (its curves, axes and grid)
costs the GUI thread, and with it the physics thread that shares the GIL, several
times what a frame of the canvas does. The grid follows the major ticks only, for
the same reason (a grid at every minor tick costs four times as much to paint).
"""

from __future__ import annotations

import bisect
import math
import time

import numpy as np
import pyqtgraph as pg
import pyqtgraph.exporters  # noqa: F401  (pg.exporters)
from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..paint import line_color


def _column(k):
    return lambda raw: raw[:, k]


def _kinetic(raw):
    m = np.where(np.isfinite(raw[:, 6]), raw[:, 6], 0.0)
    return 0.5 * m * (raw[:, 2] ** 2 + raw[:, 3] ** 2)


def _momentum(k):
    return lambda raw: np.where(np.isfinite(raw[:, 6]), raw[:, 6], 0.0) * raw[:, k]


QUANTITIES = {
    "x (m)": _column(0),
    "y (m)": _column(1),
    "vx (m/s)": _column(2),
    "vy (m/s)": _column(3),
    "speed (m/s)": lambda raw: np.hypot(raw[:, 2], raw[:, 3]),
    "ax (m/s²)": _column(4),
    "ay (m/s²)": _column(5),
    "kinetic energy (J)": _kinetic,
    "momentum x (kg·m/s)": _momentum(2),
    "momentum y (kg·m/s)": _momentum(3),
}
"""What a plot can show, from a body's recorded rows (x, y, vx, vy, ax, ay, mass)."""

DEFAULTS = ("y (m)", "vy (m/s)", "x (m)", "kinetic energy (J)")
MAX_PLOTS = 4
MAX_BODIES = 10
PIECE = 1024
"""Samples per piece of a curve (see the module's text)."""
REFRESH_S = 0.1
"""s of wall time between two draws of the plots at the most (see the module's text)."""
WIDTH = 1.0
"""Pixels of a curve's line: a one-pixel line is drawn as it is; a wider one is stroked
as an outline, which costs three times as much for the same curves."""
PROJECTOR_WIDTH = 3.0
"""Pixels of a curve's line in projector mode (the back of the room sees it)."""
"""s of wall time between two draws of the plots at the most (see the module's text)."""


class Track:
    """One body's recorded samples, growing: times (s) and rows of (x, y, vx, vy, ax, ay, mass)."""

    def __init__(self):
        self.t = np.empty(256)
        self.raw = np.empty((256, 7))
        self.n = 0

    def add(self, times, rows) -> None:
        need = self.n + len(times)
        if need > len(self.t):
            size = max(need, 2 * len(self.t))
            self.t = np.concatenate([self.t[:self.n], np.empty(size - self.n)])
            self.raw = np.concatenate([self.raw[:self.n], np.empty((size - self.n, 7))])
        self.t[self.n:need] = times
        self.raw[self.n:need] = rows
        self.n = need

    def at(self, t: float, quantity) -> float | None:
        """The value at the recorded time nearest ``t`` (None outside the record)."""
        if self.n == 0 or not self.t[0] <= t <= self.t[self.n - 1]:
            return None
        k = int(np.clip(np.searchsorted(self.t[:self.n], t), 0, self.n - 1))
        if k > 0 and t - self.t[k - 1] < self.t[k] - t:
            k -= 1
        return float(quantity(self.raw[k:k + 1])[0])


class GraphsPanel(QWidget):
    def __init__(self, bridge, rate: float, parent=None):
        super().__init__(parent)
        self.bridge = bridge
        self.rate = rate
        self.selected: str | None = None
        self.tracks: dict = {}
        self.colors: dict = {}
        self._recording = None
        self._k = 0
        self._width = WIDTH

        self.count = QSpinBox()
        self.count.setRange(1, MAX_PLOTS)
        self.count.setValue(2)
        self.count.setToolTip("How many plots, stacked, with one time axis")
        self.follow = QCheckBox("Follow the last")
        self.follow.setChecked(True)
        self.window = QDoubleSpinBox()
        self.window.setRange(1.0, 3600.0)
        self.window.setValue(10.0)
        self.window.setSuffix(" s")
        self.window.setToolTip("Unticked, the plots show the whole run")
        self.export = QPushButton("Export…")
        self.export.setToolTip("Save the plots as a PNG picture or an SVG drawing")
        top = QHBoxLayout()
        top.addWidget(QLabel("Plots"))
        top.addWidget(self.count)
        top.addWidget(self.follow)
        top.addWidget(self.window)
        top.addStretch(1)
        top.addWidget(self.export)

        self.choices = []
        row = QHBoxLayout()
        for k in range(MAX_PLOTS):
            box = QComboBox()
            box.addItems(list(QUANTITIES))
            box.setCurrentText(DEFAULTS[k])
            box.currentTextChanged.connect(lambda _text, k=k: self._rebuild(k))
            self.choices.append(box)
            row.addWidget(box)

        self.view = pg.GraphicsLayoutWidget()
        self.view.setBackground("w")
        self.plots = []
        self.curves = [dict() for _ in range(MAX_PLOTS)]  # plot -> body -> [pieces]
        self.keys = [dict() for _ in range(MAX_PLOTS)]  # plot -> body -> its legend's entry (no data)
        self._on = [dict() for _ in range(MAX_PLOTS)]  # plot -> body -> (first, end) of the pieces on it
        self.cursors = []
        for k in range(MAX_PLOTS):
            plot = pg.PlotItem()
            plot.showGrid(x=True, y=True, alpha=0.25)
            for side in ("left", "bottom"):
                plot.getAxis(side).setStyle(maxTickLevel=0)  # the grid at the major ticks only
            plot.setMenuEnabled(False)
            if k:
                plot.setXLink(self.plots[0])
            plot.addLegend(offset=(5, 5))
            cursor = pg.InfiniteLine(angle=90, movable=True, pen=pg.mkPen("#888888", width=1))
            cursor.sigPositionChanged.connect(self._read)
            plot.addItem(cursor)
            self.cursors.append(cursor)
            self.plots.append(plot)
        self.readout = QLabel("Drag the grey line to read the values")
        self.readout.setTextFormat(Qt.PlainText)
        self.readout.setWordWrap(True)
        self.hint = QLabel("The graphs draw the recording: press Play.")
        self.hint.setTextFormat(Qt.PlainText)

        col = QVBoxLayout(self)
        col.addLayout(top)
        col.addLayout(row)
        col.addWidget(self.hint)
        col.addWidget(self.view, 1)
        col.addWidget(self.readout)

        self.count.valueChanged.connect(self._arrange)
        self.follow.toggled.connect(self._place)
        self.window.valueChanged.connect(self._place)
        self.export.clicked.connect(self.export_dialog)
        self._colors_of = None
        self._ds = 1  # the pieces' thinning (see `_cull`)
        self._drawn = -float("inf")  # when the plots were last drawn (perf_counter s)
        self._instant = None  # the replayed instant shown (s), None while live
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.timeout.connect(self.pull)
        bridge.snapshot.connect(self._snapshot)
        self._arrange()

    # -- what is graphed -------------------------------------------------------------------
    def _arrange(self) -> None:
        self.view.clear()
        self.view.setMinimumHeight((170 if self._width > WIDTH else 110) * self.count.value())
        shown = self.count.value()
        for k, plot in enumerate(self.plots):
            self.choices[k].setVisible(k < shown)
            if k < shown:
                self.view.addItem(plot, row=k, col=0)
                plot.setLabel("bottom", "t (s)" if k == shown - 1 else None)
                plot.getAxis("bottom").setStyle(showValues=k == shown - 1)
        if self.tracks:  # a plot hidden until now was not drawn meanwhile: drawn now, paused or not
            for k in range(shown):
                for name in self.graphed():
                    self._extend(k, name)
            self._place()

    def graphed(self) -> list:
        """The bodies on the plots: the selected one, else every body recorded (up to `MAX_BODIES`)."""
        if self.selected is not None and self.selected in self.tracks:
            return [self.selected]
        return list(self.tracks)[:MAX_BODIES]

    def set_selected(self, name) -> None:
        self.selected = name
        if name is not None and name not in self.tracks and self._recording is not None:
            self._recording = None  # not kept so far: read the recording again from its start
            self.pull()
            return
        for k in range(MAX_PLOTS):
            self._rebuild(k)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self.bridge.recording:
            self.bridge.record(True, self.rate)  # graphs draw the recording

    # -- reading what is new ---------------------------------------------------------------
    def _snapshot(self, snap) -> None:
        """A new frame: draw now if the plots were drawn `REFRESH_S` ago, else a little later."""
        if snap.colors is not self._colors_of:  # (the same tuple until a body is edited)
            self._colors_of, self.colors = snap.colors, dict(zip(snap.names, snap.colors))
        replaying = self.bridge.replaying
        if replaying or self._instant is not None:  # a jump in time (to a recorded instant, or back): now
            self._instant = snap.time if replaying else None
            self._later.stop()  # (a draw put off would follow the live end)
            if not self.pull():  # (the samples not drawn yet: the instant may be among them)
                self._place()
            return
        wait = self._drawn + REFRESH_S - time.perf_counter()
        if wait <= 0:
            self.pull()
        elif not self._later.isActive():
            self._later.start(max(1, int(1000 * wait)))

    def pull(self, snap=None) -> bool:
        """Take the samples recorded since they were last drawn, and draw them; whether
        there were any (and the plots' range was set)."""
        if not self.isVisible():
            return False
        self._drawn = time.perf_counter()
        if snap is not None:
            self.colors = dict(zip(snap.names, snap.colors))
        recording, segments = self.bridge.samples_since(self._k)
        if recording is not self._recording:  # a new recording: start over
            self._recording, self._k = recording, 0
            self.tracks.clear()
            for k in range(MAX_PLOTS):
                self._rebuild(k)
            if recording is None:
                return False
            recording, segments = self.bridge.samples_since(0)
        if not segments:
            return False
        for seg in segments:
            # only the bodies a plot may show are kept: the first MAX_BODIES, and the selected one
            # (a body selected later is read from the recording's start: see set_selected)
            for b, name in enumerate(seg.names):
                if name not in self.tracks and (len(self.tracks) >= MAX_BODIES and name != self.selected):
                    continue
                fresh = name not in self.tracks
                rows = np.concatenate([seg.data[:, b, :], seg.masses[:, b, None]], axis=1)
                self.tracks.setdefault(name, Track()).add(seg.times, rows)
                if fresh:
                    for k in range(MAX_PLOTS):
                        self._rebuild(k)
            self._k += len(seg.times)
        self.hint.setVisible(False)
        for k in range(self.count.value()):
            for name in self.graphed():
                self._extend(k, name)
        self._place()
        return True

    def _pen(self, name):
        return pg.mkPen(line_color(self.colors.get(name) or "#808080"), width=self._width)

    def _rebuild(self, k) -> None:
        """Draw plot ``k`` anew (its quantity or the graphed bodies changed)."""
        plot = self.plots[k]
        for curve in [c for pieces in self.curves[k].values() for c in pieces] + list(self.keys[k].values()):
            if curve.getViewBox() is not None:
                plot.removeItem(curve)
        self.curves[k], self.keys[k], self._on[k] = {}, {}, {}
        plot.setLabel("left", self.choices[k].currentText())
        for name in self.graphed():
            self._extend(k, name)
        if self.tracks:  # (every piece went on: those out of view come off)
            self._cull(*self.plots[0].getViewBox().viewRange()[0])
        self._read()

    def _extend(self, k, name) -> None:
        """Bring body ``name``'s curve on plot ``k`` up to its track: finished pieces stay as
        they are; the last one is redrawn (overlapping its predecessor by one sample)."""
        track = self.tracks.get(name)
        if track is None or track.n == 0:
            return
        pieces = self.curves[k].setdefault(name, [])
        quantity = QUANTITIES[self.choices[k].currentText()]
        while True:
            p = max(len(pieces) - 1, 0)
            a, b = max(p * PIECE - 1, 0), min((p + 1) * PIECE, track.n)
            if not pieces:
                # the legend names an item of its own, always shown, as pieces come and go from view
                self.keys[k][name] = self.plots[k].plot([], [], pen=self._pen(name), name=name)
                pieces.append(self._piece(k, name))
            pieces[p].setData(track.t[a:b], quantity(track.raw[a:b]))
            pieces[p].span = (track.t[a], track.t[b - 1])  # (s: what `_cull` reads)
            if b < track.n:  # that piece is finished: start the next
                pieces.append(self._piece(k, name))
                continue
            return

    def _piece(self, k, name):
        """A new piece of body ``name``'s curve on plot ``k``."""
        curve = pg.PlotDataItem(pen=self._pen(name))
        self.plots[k].addItem(curve)
        curve.setDownsampling(ds=self._ds, auto=False, method="peak")  # (after: a plot gives its items its own)
        return curve

    def _cull(self, x0: float, x1: float) -> None:
        """Keep on the plots only the pieces that reach into x0..x1 s, each thinned to about
        two samples a pixel: a piece out of view is taken off its plot (a plot tells each of
        its items of every change of range, and paints them), and out of the y range, so
        that a frame following the last seconds costs the same at 10 s and at 5 minutes of
        run (see `PIECE`). Showing the whole run, every piece is on."""
        pixels = max(self.plots[0].getViewBox().width(), 100.0)
        ds = 1 << max(0, math.ceil(math.log2(max((x1 - x0) * self.rate / (2.0 * pixels), 1.0))))
        ds_changed, self._ds = ds != self._ds, ds
        for k in range(self.count.value()):
            plot = self.plots[k]
            for name, pieces in self.curves[k].items():
                # pieces follow each other in time: those in view are one run of them
                lo = bisect.bisect_left(pieces, x0, key=lambda c: c.span[1])
                hi = bisect.bisect_right(pieces, x1, key=lambda c: c.span[0])
                was = self._on[k].get(name, (0, len(pieces)))
                for i in range(min(was[0], lo), len(pieces) if was[1] < len(pieces) else max(was[1], hi)):
                    curve = pieces[i]  # (each piece added since the last time is on, in view or not)
                    seen = lo <= i < hi
                    if seen != (curve.getViewBox() is not None):
                        if seen:
                            plot.addItem(curve)  # (which gives it the plot's thinning: none)
                            curve.setDownsampling(ds=ds, auto=False, method="peak")
                        else:
                            plot.removeItem(curve)
                self._on[k][name] = (lo, hi)
                if ds_changed:
                    for curve in pieces[lo:hi]:
                        curve.setDownsampling(ds=ds, auto=False, method="peak")

    def _place(self) -> None:
        """The plots' time range: around the replayed instant, or following the run."""
        if self._instant is not None:
            self.show_time(self._instant)
        else:
            self._range()

    def _span(self, default: float = 0.0) -> tuple:
        """(first, last) recorded time of the graphed tracks, s."""
        first = min((t.t[0] for t in self.tracks.values() if t.n), default=default)
        last = max((t.t[t.n - 1] for t in self.tracks.values() if t.n), default=default)
        return first, last

    def _show_range(self, lo: float, hi: float) -> None:
        """The plots show lo..hi s (with a 2% margin), with the pieces in it on them."""
        self.plots[0].setXRange(lo, hi, padding=0.02)
        self._cull(lo - 0.02 * (hi - lo), hi + 0.02 * (hi - lo))

    def _range(self) -> None:
        start, end = self._span()
        if self.follow.isChecked():
            start = max(start, end - self.window.value())
        self._show_range(start, max(end, start + 1e-6))
        if not start <= self.cursors[0].value() <= end:  # keep the cursor where it can be seen
            self.cursors[0].setValue(start + 0.75 * (end - start))
        for plot in self.plots[:self.count.value()]:
            plot.enableAutoRange(axis="y")
        # the views take their new range now, not while painting: a range taken then
        # asks for a second paint of the whole plots
        self.view.scene().prepareForPaint()

    def show_time(self, t: float) -> None:
        """A replayed instant: the cursor stands at ``t`` and reads the values there; following
        the last seconds, the plots show the seconds around it."""
        if not self.isVisible():
            return
        if self.follow.isChecked():  # (within what was recorded)
            width = self.window.value()
            first, last = self._span(default=t)
            lo = max(first, min(t - 0.75 * width, last - width))
            self._show_range(lo, max(min(last, lo + width), lo + 1e-6))
        self.cursors[0].setValue(t)  # (the other plots' cursors and the readout follow)
        self.view.scene().prepareForPaint()

    # -- the cursor --------------------------------------------------------------------------
    def _read(self, line=None) -> None:
        t = float((line or self.cursors[0]).value())
        for cursor in self.cursors:
            if cursor is not line and cursor.value() != t:
                cursor.blockSignals(True)
                cursor.setValue(t)
                cursor.blockSignals(False)
        parts = []
        for k in range(self.count.value()):
            label = self.choices[k].currentText()
            quantity = QUANTITIES[label]
            values = [(name, self.tracks[name].at(t, quantity)) for name in self.graphed()]
            values = [f"{name} {v:.3f}" for name, v in values if v is not None]
            if values:
                parts.append(f"{label}: " + ", ".join(values))
        self.readout.setText(f"t = {t:.3f} s   " + "   ".join(parts) if parts else "Drag the grey line to read the values")

    # -- export and projector ------------------------------------------------------------------
    def export_dialog(self) -> None:
        path, chosen = QFileDialog.getSaveFileName(self, "Export the graphs", "graphs.png",
                                                   "PNG picture (*.png);;SVG drawing (*.svg)")
        if path:
            self.export_to(path)

    def export_to(self, path: str) -> str:
        """Write the plots to ``path``: SVG if it ends in .svg, else PNG (the suffix added if none)."""
        if not path.lower().endswith((".png", ".svg")):
            path += ".png"
        scene = self.view.scene()
        if path.lower().endswith(".png"):
            pg.exporters.ImageExporter(scene).export(path)
            return path
        # pyqtgraph's SVG exporter cannot read the paths Qt 6 writes (pyqtgraph issue 3485):
        # Qt's own SVG generator draws the scene instead
        size = self.view.viewport().size()
        svg = QSvgGenerator()
        svg.setFileName(path)
        svg.setSize(size)
        svg.setViewBox(QRect(QPoint(0, 0), size))
        svg.setTitle("classroom-sim graphs")
        painter = QPainter(svg)
        try:
            self.view.render(painter)
        finally:
            painter.end()
        return path

    def set_projector(self, on: bool) -> None:
        """Thicker lines and larger type, for the back of the room."""
        self._width = PROJECTOR_WIDTH if on else WIDTH
        font = self.font()
        self.view.setMinimumHeight((170 if on else 110) * self.count.value())
        for plot in self.plots:
            plot.legend.setLabelTextSize(f"{font.pointSizeF():g}pt")
            for side in ("left", "bottom"):
                axis = plot.getAxis(side)
                axis.setTickFont(font)
                axis.label.setFont(font)
        for k in range(MAX_PLOTS):
            self._rebuild(k)
