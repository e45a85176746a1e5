"""Velocity and acceleration arrows: how long they are, how they are drawn, their
legend, and (on request) the named accelerations each body sums.

Honest lengths: the pixels of arrow per m/s (and, apart, per m/s²) follow the
largest vector among the bodies in view, so that the longest arrow is about
`FRACTION` of the view's smaller side, whatever the zoom. The value a
full-length arrow stands for is a 1-2-5 number (`ArrowScale`): it grows at once
when a body speeds up, and shrinks only once the largest vector has stayed well
below the rung beneath for `HOLD` s of simulated time, so that the scale holds
still while a ball bounces and the legend always reads a round number
("velocity 5 m/s"). A vector that is not zero is drawn at least a head's length
long, so a slow body among fast ones still shows which way it goes; a body slower than
the engine calls still (`STILL`) draws no velocity arrow.

The arithmetic (`rung_below`, `ArrowScale`, `full_length`, `largest_in_view`,
`arrow_segments`, `named_accelerations`) needs no painter. `Vectors` draws: one
path per kind of arrow, stroked twice (a pale halo, then the colour), so the
cost of a frame does not grow by a Python call per body.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor

from .paint import outlined, pairs_path, panel
from .view import nice

FRACTION = 0.15
"""The longest arrow in view, as a fraction of the view's smaller side (at most; the
1-2-5 ladder leaves it between 0.4 and 1 of this)."""
HOLD = 2.0
"""s of simulated time the largest vector must stay low before the scale shrinks."""
SHRINK = 0.8
"""Low: below this fraction of the rung beneath the scale's value."""
REST = 1e-9
"""m/s²: an acceleration shorter than this is zero, and draws no arrow."""
STILL = 1e-3
"""m/s: a body slower than this is still (SCENE_FORMAT, "Resting contact": the speeds a
column left standing may keep), and draws no velocity arrow. (A pile at rest keeps
speeds of a tenth of a millimetre a second; scaled to the largest of them, every ball of
it drew a full-length arrow, the legend reading "velocity 0.0001 m/s".)"""
MAX_ARROWS = 500
"""Beyond this many bodies only the selected one shows its arrows."""
MAX_NAMED = 40
"""Beyond this many bodies with arrows the named accelerations are not drawn (their
labels would cover the picture)."""
BARB = math.radians(25.0)
"""The angle between an arrow's shaft and each barb of its head."""


def rung_below(value: float) -> float:
    """The 1-2-5 number one rung below ``value`` (itself one): 5 -> 2, 2 -> 1, 1 -> 0.5."""
    power = 10.0 ** math.floor(math.log10(value) + 1e-9)
    mantissa = value / power
    return (0.5 if mantissa < 1.5 else 1.0 if mantissa < 3.5 else 2.0) * power


class ArrowScale:
    """The value (m/s or m/s²) a full-length arrow stands for: the 1-2-5 number at or
    just above the largest vector in view, held still against flicker.

    It grows at once (no arrow grows past full length); it shrinks to fit the largest
    vector only once that has stayed below `SHRINK` times the rung beneath for
    ``hold`` s of simulated time (a bouncing ball's fastest moment comes back
    before then). Time going backwards (a reset) starts it afresh.
    """

    def __init__(self, hold: float = HOLD, rest: float = REST):
        self.hold = hold
        self.rest = rest
        """A vector shorter than this counts as zero (`REST`, `STILL`)."""
        self.reference: float | None = None
        """The value of a full-length arrow; None until a vector was not zero."""
        self._low_since: float | None = None
        self._time: float | None = None

    def update(self, largest: float, now: float) -> float | None:
        """The reference after seeing ``largest`` (the longest vector in view) at
        simulated time ``now`` in s."""
        if not (math.isfinite(largest) and largest >= self.rest):
            largest = 0.0
        if self._time is not None and now < self._time:
            self.reference = self._low_since = None
        self._time = now
        if largest > 0.0 and (self.reference is None or largest > self.reference):
            self.reference, self._low_since = nice(largest), None
        elif self.reference is not None and largest < SHRINK * rung_below(self.reference):
            if self._low_since is None:
                self._low_since = now
            if now - self._low_since >= self.hold and largest > 0.0:
                self.reference, self._low_since = nice(largest), None
        else:
            self._low_since = None
        return self.reference


def full_length(width: float, height: float) -> float:
    """Pixels of a full-length arrow in a view of ``width`` x ``height`` pixels."""
    return FRACTION * min(width, height)


def largest_in_view(vectors, sx, sy, rs, width: float, height: float) -> float:
    """The longest of ``vectors`` ((n, 2)) among the bodies whose discs (centres ``sx``,
    ``sy`` and radii ``rs`` in pixels) show in a view of ``width`` x ``height``; 0 if none."""
    vectors = np.asarray(vectors, float).reshape(-1, 2)
    inside = (sx + rs >= 0.0) & (sx - rs <= width) & (sy + rs >= 0.0) & (sy - rs <= height)
    lengths = np.hypot(vectors[inside, 0], vectors[inside, 1])
    lengths = lengths[np.isfinite(lengths)]
    return float(lengths.max()) if len(lengths) else 0.0


def arrow_segments(x0, y0, dx, dy, head_px: float, min_px: float = 0.0):
    """Shafts and heads of arrows from (x0, y0) along (dx, dy), in pixels, as segment end
    points (six a row). A zero arrow draws nothing; a shorter one than ``min_px`` is
    drawn that long, in its direction."""
    x0, y0, dx, dy = (np.asarray(a, float) for a in (x0, y0, dx, dy))
    length = np.hypot(dx, dy)
    keep = (length > 0.0) & np.isfinite(length) & np.isfinite(x0) & np.isfinite(y0)
    x0, y0, dx, dy, length = x0[keep], y0[keep], dx[keep], dy[keep], length[keep]
    if len(x0) == 0:
        return np.empty((0, 6)), np.empty((0, 6))
    ux, uy = dx / length, dy / length
    length = np.maximum(length, min_px)
    head = np.minimum(head_px, 0.5 * length)
    x1, y1 = x0 + ux * length, y0 + uy * length
    c, s = math.cos(BARB), math.sin(BARB)
    bx1, by1 = x1 - head * (ux * c - uy * s), y1 - head * (uy * c + ux * s)
    bx2, by2 = x1 - head * (ux * c + uy * s), y1 - head * (uy * c - ux * s)
    return np.stack([x0, x1, x1, bx1, x1, bx2], axis=1), np.stack([y0, y1, y1, by1, y1, by2], axis=1)


def body_arrows(sx, sy, vectors, px_per_unit: float, head_px: float, min_px: float, rest: float = REST):
    """`arrow_segments` from the pixels (sx, sy) along ``vectors`` (m/s or m/s², y up) at
    ``px_per_unit``; a vector shorter than ``rest`` draws nothing."""
    vectors = np.asarray(vectors, float).reshape(-1, 2)
    moving = np.hypot(vectors[:, 0], vectors[:, 1]) >= rest
    k = px_per_unit
    return arrow_segments(sx[moving], sy[moving], vectors[moving, 0] * k, -vectors[moving, 1] * k, head_px, min_px)


def any_in_view(xs, ys, width: float, height: float) -> bool:
    """Whether any of the arrows (`arrow_segments`) shows in a view of ``width`` x ``height``
    pixels (its box meets the view's)."""
    if len(xs) == 0:
        return False
    return bool(np.any((xs.min(axis=1) <= width) & (xs.max(axis=1) >= 0.0)
                       & (ys.min(axis=1) <= height) & (ys.max(axis=1) >= 0.0)))


def named_accelerations(snap, rows):
    """The named accelerations of the bodies ``rows`` of ``snap``: (rows, names, vectors
    in m/s²), a row per entry: each body's own list, then, where the shared ones apply
    to it, gravity and the world's shared list. A fixed body has none; a zero vector
    and a kind that depends on the state (no vector in the snapshot) are left out."""
    shared = ()
    if snap.settings is not None:
        shared = (("gravity", tuple(snap.settings.gravity)),) + tuple(snap.settings.accelerations)
    own, fixed, shared_on = snap.own_accelerations, snap.fixed, snap.shared_on
    out_rows, names, vectors = [], [], []
    for i in rows:
        i = int(i)
        if fixed[i]:
            continue
        entries = tuple(own[i] if i < len(own) else ()) + (shared if shared_on[i] else ())
        for name, vector in entries:
            if vector is not None and math.hypot(*vector) >= REST:
                out_rows.append(i)
                names.append(name)
                vectors.append(vector)
    return np.array(out_rows, int), names, np.array(vectors, float).reshape(-1, 2)


class Vectors:
    """The canvas's arrows and their legend; keeps the two scales from frame to frame."""

    def __init__(self):
        self.velocity = ArrowScale(rest=STILL)
        self.acceleration = ArrowScale()
        self.legend: list = []
        """What the last frame's legend said: (text, pixels of its arrow, pixels per unit)."""
        self.labels: list = []
        """The named accelerations the last frame labelled."""

    def reset(self) -> None:
        """A new scene: both scales start afresh."""
        self.velocity, self.acceleration = ArrowScale(rest=STILL), ArrowScale()

    def draw(self, p, theme, display, snap, sx, sy, rs, width: float, height: float, selection=None) -> None:
        """Draw the arrows that ``display`` asks for, of the bodies of ``snap`` at pixels
        (``sx``, ``sy``) with radii ``rs`` (pixels), in a view of ``width`` x ``height``,
        and their legend in the top right corner."""
        self.legend, self.labels = [], []
        named = display.named
        if not (display.velocity or display.acceleration or named):
            return
        if len(snap) <= MAX_ARROWS:
            rows = np.arange(len(snap))
        elif selection in snap.names:
            rows = np.array([snap.index(selection)])
        else:
            rows = np.empty(0, int)
        x, y, r = sx[rows], sy[rows], rs[rows]
        full = full_length(width, height)
        head = 6.0 + 2.0 * theme.arrow_width
        halo = theme.arrow_width + 2.0 * theme.outline_px + 1.0
        entries = []
        if display.velocity:
            v = snap.velocities[rows]
            ref = self.velocity.update(largest_in_view(v, x, y, r, width, height), snap.time)
            if ref is not None:
                xs, ys = body_arrows(x, y, v, full / ref, head, head, STILL)
                if len(xs):
                    outlined(p, pairs_path(xs, ys), theme.velocity, theme.arrow_width, theme.halo, halo)
                if any_in_view(xs, ys, width, height):  # (the legend tells of the arrows on screen)
                    entries.append(("velocity", ref, "m/s", theme.velocity))
        if display.acceleration or named:
            a = snap.accelerations[rows]
            largest = largest_in_view(a, x, y, r, width, height) if display.acceleration else 0.0
            parts = named_accelerations(snap, rows) if named and len(rows) <= MAX_NAMED else None
            if parts is not None and len(parts[0]):
                i = parts[0]
                largest = max(largest, largest_in_view(parts[2], sx[i], sy[i], rs[i], width, height))
            ref = self.acceleration.update(largest, snap.time)
            if ref is not None:
                drawn = False
                if display.acceleration:
                    xs, ys = body_arrows(x, y, a, full / ref, head, head)
                    if len(xs):
                        outlined(p, pairs_path(xs, ys), theme.acceleration, theme.arrow_width, theme.halo, halo)
                        drawn = any_in_view(xs, ys, width, height)
                if parts is not None and len(parts[0]):
                    xs, ys = self._draw_named(p, theme, sx[parts[0]], sy[parts[0]], parts[1], parts[2], full / ref,
                                              head)
                    drawn = drawn or any_in_view(xs, ys, width, height)
                if drawn:
                    entries.append(("acceleration", ref, "m/s²", theme.acceleration))
        self._draw_legend(p, theme, entries, full, head, halo, width)

    def _draw_named(self, p, theme, x, y, names, vectors, px_per_unit, head):
        """Each named acceleration as a thin arrow beside the sum (shifted across its own
        direction, so that one equal to the sum lies alongside it), labelled at its tip.
        Returns the arrows drawn (`arrow_segments`)."""
        dx, dy = vectors[:, 0] * px_per_unit, -vectors[:, 1] * px_per_unit
        length = np.hypot(dx, dy)
        ux, uy = dx / length, dy / length
        length = np.maximum(length, head)
        shift = 2.0 * theme.arrow_width + 3.0
        x0, y0 = x - uy * shift, y + ux * shift
        thin = max(1.0, 0.5 * theme.arrow_width)
        xs, ys = arrow_segments(x0, y0, ux * length, uy * length, 0.8 * head)
        outlined(p, pairs_path(xs, ys), theme.acceleration, thin, theme.halo, thin + 2.0 * theme.outline_px + 1.0)
        p.setPen(QColor(theme.label))
        metrics = p.fontMetrics()
        h = float(metrics.height())
        for name, tx, ty, ex, ey in zip(names, x0 + ux * length, y0 + uy * length, ux, uy):
            w = float(metrics.horizontalAdvance(name)) + 4.0
            # beyond the tip, the box's nearer edge a few pixels off it whichever way the arrow points
            cx = tx + ex * (0.5 * w * abs(ex) + 0.5 * h * abs(ey) + 4.0)
            cy = ty + ey * (0.5 * w * abs(ex) + 0.5 * h * abs(ey) + 4.0)
            p.drawText(QRectF(cx - 0.5 * w, cy - 0.5 * h, w, h), Qt.AlignCenter, name)
            self.labels.append(name)
        return xs, ys

    def _draw_legend(self, p, theme, entries, full, head, halo, width) -> None:
        """What a full-length arrow stands for, one row a kind: an arrow and its value."""
        if not entries:
            return
        metrics = p.fontMetrics()
        texts = [f"{what} {value:g} {unit}" for what, value, unit, _ in entries]
        widest = max(metrics.horizontalAdvance(t) for t in texts)
        row = 2.2 * theme.font_pt + 6.0
        panel(p, theme, QRectF(width - full - widest - 40.0, 4.0, full + widest + 36.0, len(entries) * row + 8.0))
        y = 14.0 + theme.font_pt
        x1 = width - 16.0
        for (_, value, _, color), text in zip(entries, texts):
            xs, ys = arrow_segments([x1 - full], [y], [full], [0.0], head)
            outlined(p, pairs_path(xs, ys), color, theme.arrow_width, theme.halo, halo)
            p.setPen(QColor(color))
            p.drawText(QRectF(0.0, y - 2.0 * theme.font_pt, x1 - full - 8.0, 3.0 * theme.font_pt),
                       Qt.AlignRight | Qt.AlignVCenter, text)
            self.legend.append((text, full, full / value))
            y += row
