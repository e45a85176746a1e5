"""Trails: where the bodies were, kept by the GUI from the snapshots it saw (or, for a
picture with no window, from the World as it advances), and drawn as one batch of
fading segments.

A trail lasts as long as the teacher chooses (`LENGTHS`), up to the whole run.
Samples are taken every `TRAIL_SPACING` s of simulated time into one numpy
buffer (drawing reads it without a Python call per sample), of the bodies that
leave a trail (`trail_rows`: all of them, or beyond `MAX_TRAILS` the selected
one); a slow frame's gap is filled on arrival with the cubic through both ends
and their velocities. Memory stays bounded whatever the length: once a trail
holds `MAX_SAMPLES` samples, every other sample may go, those that lie nearest
the chord of their neighbours first (all within `TOLERANCE` of a body's radius,
and as many more as bring it down to three quarters of the limit). So the
straight and gently curved parts thin out, and the corners of a bounce stay.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtWidgets import QComboBox

TRAIL_SPACING = 1.0 / 30.0
"""s of simulated time between two samples of a trail."""
LENGTHS = (("1 s", 1.0), ("3 s", 3.0), ("10 s", 10.0), ("30 s", 30.0), ("Whole run", math.inf))
"""The trail lengths the teacher chooses from: (text, simulated seconds)."""
MAX_TRAILS = 30
"""Beyond this many bodies only the selected one leaves a trail (a thicket of trails
shows nothing, and costs the frame rate)."""
MAX_SAMPLES = 4096
"""Samples a trail keeps at most: a little over two minutes at full density, then thinned."""
TOLERANCE = 0.25
"""How far a thinned trail may pass from a sample it dropped, in radii of the body."""


def trail_rows(snap, selection) -> np.ndarray:
    """The rows of the bodies of ``snap`` that leave a trail: all of them, or beyond
    `MAX_TRAILS` the selected one (none without a selection)."""
    if len(snap) <= MAX_TRAILS:
        return np.arange(len(snap))
    if selection in snap.names:
        return np.array([snap.index(selection)])
    return np.empty(0, int)


class Trails:
    """Where the bodies ``rows`` (of a scene whose bodies are ``names``) were: at most
    `MAX_SAMPLES` samples, read with `view`."""

    def __init__(self):
        self.clear()

    def clear(self) -> None:
        """Forget every sample."""
        self.names = None
        self.rows: tuple = ()
        self._times = np.empty(0)
        self._positions = np.empty((0, 0, 2))
        self._start = self._end = 0
        self._velocities = None  # of the newest sample: a gap after it is filled with them
        self._radii = None
        self._passes = 0

    def __len__(self) -> int:
        return self._end - self._start

    def view(self):
        """(times (K,) in s, positions (K, rows, 2) in m) of the samples kept, oldest
        first: views, not copies."""
        return self._times[self._start:self._end], self._positions[self._start:self._end]

    def due(self, time: float) -> bool:
        """Whether a snapshot at ``time`` s would add a sample (a sample is due every
        `TRAIL_SPACING` s, or afresh after a reset): build one only then."""
        if not len(self):
            return True
        last = self._times[self._end - 1]
        return time < last or time >= last + TRAIL_SPACING

    def add(self, snapshot, seconds: float, rows=None) -> None:
        """Keep the bodies ``rows`` (all by default) of ``snapshot`` if a sample is due,
        and forget what is more than ``seconds`` (``math.inf``: nothing) older. Other
        rows, other bodies or time going back start the trail afresh."""
        rows = tuple(range(len(snapshot.names))) if rows is None else tuple(int(i) for i in rows)
        if len(self) and (snapshot.time < self._times[self._end - 1] or snapshot.names != self.names
                          or rows != self.rows):
            self.clear()
        if not self.due(snapshot.time):
            return
        which = np.array(rows, int)
        positions, velocities = snapshot.positions[which], snapshot.velocities[which]
        if not len(self):
            self.names, self.rows = snapshot.names, rows
            self._times, self._positions = np.empty(64), np.empty((64, len(rows), 2))
        elif snapshot.time - self._times[self._end - 1] > 1.5 * TRAIL_SPACING:  # a slow frame's gap
            times, filled = smooth(np.array([self._times[self._end - 1], snapshot.time]),
                                   np.stack([self._positions[self._end - 1], positions]),
                                   np.stack([self._velocities, velocities]))
            self._append(times[1:-1], filled[1:-1])
        self._append(np.array([snapshot.time]), positions[None])
        self._velocities, self._radii = velocities, snapshot.radii[which]
        if math.isfinite(seconds):
            times = self._times[self._start:self._end]
            self._start += int(np.searchsorted(times, snapshot.time - seconds))
        if len(self) > MAX_SAMPLES:
            self._thin()

    def load(self, snapshot, rows, times, positions) -> None:
        """Hold these samples (times (K,), positions (K, rows, 2), oldest first) of the
        bodies ``rows`` of ``snapshot``'s scene instead: a trail read from the recording,
        after a jump in time (a replayed instant, or back to the live one)."""
        self.clear()
        if not len(times):
            return
        rows = tuple(int(i) for i in rows)
        which = np.array(rows, int)
        self.names, self.rows = snapshot.names, rows
        self._times, self._positions = np.array(times, float), np.array(positions, float)
        self._start, self._end = 0, len(self._times)
        self._velocities, self._radii = snapshot.velocities[which], snapshot.radii[which]

    def _append(self, times, positions) -> None:
        n, kept = len(times), len(self)
        if self._end + n > len(self._times):  # no room at the end: move to the front, or grow
            size = len(self._times) if kept + n <= len(self._times) // 2 else 2 * (kept + n)
            new_t, new_p = self._times, self._positions
            if size != len(self._times):
                new_t, new_p = np.empty(size), np.empty((size,) + self._positions.shape[1:])
            new_t[:kept] = self._times[self._start:self._end].copy()
            new_p[:kept] = self._positions[self._start:self._end].copy()
            self._times, self._positions, self._start, self._end = new_t, new_p, 0, kept
        self._times[self._end:self._end + n] = times
        self._positions[self._end:self._end + n] = positions
        self._end += n

    def _thin(self) -> None:
        """Drop every other sample where it matters least (see the module's text), leaving
        at most three quarters of `MAX_SAMPLES`; the first and the newest always stay."""
        times, pos = self.view()
        n = len(times)
        self._passes += 1
        k = np.arange(1 + self._passes % 2, n - 1, 2)  # each between two samples that stay
        u = ((times[k] - times[k - 1]) / (times[k + 1] - times[k - 1]))[:, None, None]
        chord = pos[k - 1] + u * (pos[k + 1] - pos[k - 1])
        radii = np.maximum(np.asarray(self._radii, float), 1e-12)
        off = (np.hypot(chord[..., 0] - pos[k, :, 0], chord[..., 1] - pos[k, :, 1]) / radii).max(axis=1, initial=0.0)
        order = np.argsort(off, kind="stable")
        drop = order[:max(n - (3 * MAX_SAMPLES) // 4, int(np.count_nonzero(off <= TOLERANCE)))]
        keep = np.ones(n, bool)
        keep[k[drop]] = False
        m = int(keep.sum())
        self._times[:m], self._positions[:m] = times[keep], pos[keep]
        self._start, self._end = 0, m


def smooth(times, pos, vel):
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


def trail_lines(trails, snap, view, colors, selection, seconds: float, width: float):
    """The trails up to ``snap`` as a batch of segments for `raster.layer` (``colors``:
    each body's ARGB), older parts paler (all alike for the whole run); None when there
    are none, or when they are not the trails of `trail_rows` (a new selection)."""
    if trails.names != snap.names or len(trails) < 2 or not trails.rows \
            or trails.rows != tuple(int(i) for i in trail_rows(snap, selection)):
        return None
    rows = np.array(trails.rows, int)
    times, pos = trails.view()
    times = np.append(times, snap.time)
    pos = np.concatenate([pos, snap.positions[rows][None]])  # (K, rows, 2)
    sx, sy = view.to_screen(pos[..., 0], pos[..., 1])
    age = (snap.time - times[1:]) / max(seconds, 1e-9)  # of each segment's end
    alphas = np.broadcast_to((0.85 * np.clip(1.0 - age, 0.0, 1.0))[:, None], sx[1:].shape)
    colors = np.broadcast_to(colors[rows][None, :], sx[1:].shape)
    return sx[:-1].ravel(), sy[:-1].ravel(), sx[1:].ravel(), sy[1:].ravel(), colors.ravel(), alphas.ravel(), width


def length_box(display, changed=None) -> QComboBox:
    """The toolbar's choice of trail length (`LENGTHS`), showing ``display.trail_seconds``
    (the nearest choice) and setting it; ``changed()`` after each choice."""
    box = QComboBox()
    for text, seconds in LENGTHS:
        box.addItem(text, seconds)

    def distance(k: int) -> float:
        seconds = LENGTHS[k][1]
        if math.isinf(seconds) or math.isinf(display.trail_seconds):
            return 0.0 if seconds == display.trail_seconds else math.inf
        return abs(seconds - display.trail_seconds)

    box.setCurrentIndex(min(range(len(LENGTHS)), key=distance))
    box.setToolTip("How long a trail lasts, in simulated seconds, or the whole run")

    def chosen(k: int) -> None:
        display.trail_seconds = float(box.itemData(k))
        if changed is not None:
            changed()

    box.currentIndexChanged.connect(chosen)
    return box
