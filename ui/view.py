"""The one transform from metres (y up) to pixels (y down), and the display options.

Display state lives here, never in the engine: where the view looks, how far it
is zoomed, which overlays are on, projector mode.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def nice(value: float) -> float:
    """The smallest of 1, 2 or 5 times a power of ten that is >= ``value``."""
    if not (value > 0 and math.isfinite(value)):
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    for step in (1.0, 2.0, 5.0, 10.0):
        if step * power >= value * (1 - 1e-9):
            return step * power
    return 10.0 * power


@dataclass
class View:
    """Looks at (``cx``, ``cy``) m, at ``scale`` pixels per metre, in a widget of
    ``width`` x ``height`` pixels."""

    cx: float = 0.0
    cy: float = 0.0
    scale: float = 50.0
    width: int = 800
    height: int = 600

    MIN_SCALE = 1e-3
    MAX_SCALE = 1e6

    def to_screen(self, x, y):
        """Pixels of the points (x, y) in m; works on numbers and numpy arrays."""
        return (np.asarray(x) - self.cx) * self.scale + 0.5 * self.width, \
            0.5 * self.height - (np.asarray(y) - self.cy) * self.scale

    def to_world(self, sx, sy):
        """Metres of the pixel (sx, sy)."""
        return (sx - 0.5 * self.width) / self.scale + self.cx, (0.5 * self.height - sy) / self.scale + self.cy

    def fit(self, xmin, ymin, xmax, ymax, margins=(50, 60, 20, 60)) -> None:
        """Show the rectangle whole, leaving ``margins`` (left, top, right, bottom) pixels
        around it for the labels, the legend and the scale bar."""
        left, top, right, bottom = margins
        w = max(xmax - xmin, 1e-6)
        h = max(ymax - ymin, 1e-6)
        usable_w = max(self.width - left - right, 0.2 * self.width)
        usable_h = max(self.height - top - bottom, 0.2 * self.height)
        self.scale = min(max(min(usable_w / w, usable_h / h), self.MIN_SCALE), self.MAX_SCALE)
        # centre the rectangle in the usable part
        cx_px = left + 0.5 * usable_w
        cy_px = top + 0.5 * usable_h
        self.cx = 0.5 * (xmin + xmax) - (cx_px - 0.5 * self.width) / self.scale
        self.cy = 0.5 * (ymin + ymax) + (cy_px - 0.5 * self.height) / self.scale

    def zoom(self, factor: float, sx: float | None = None, sy: float | None = None) -> None:
        """Zoom by ``factor`` keeping the point under pixel (sx, sy) (the centre by default) in place."""
        if sx is None:
            sx, sy = 0.5 * self.width, 0.5 * self.height
        wx, wy = self.to_world(sx, sy)
        self.scale = min(max(self.scale * factor, self.MIN_SCALE), self.MAX_SCALE)
        nx, ny = self.to_world(sx, sy)
        self.cx += wx - nx
        self.cy += wy - ny

    def pan(self, dx_px: float, dy_px: float) -> None:
        """Move the picture by (dx, dy) pixels."""
        self.cx -= dx_px / self.scale
        self.cy += dy_px / self.scale

    def visible(self):
        """(xmin, ymin, xmax, ymax) in m of what the widget shows."""
        x0, y1 = self.to_world(0, 0)
        x1, y0 = self.to_world(self.width, self.height)
        return x0, y0, x1, y1


def scene_extent(snapshot):
    """The box, or the bodies' extent (a little room around them) where there is no box."""
    if snapshot.bounds is not None:
        return snapshot.bounds
    if len(snapshot) == 0:
        return (-5.0, -5.0, 5.0, 5.0)
    r = snapshot.radii
    lo = (snapshot.positions - r[:, None]).min(axis=0)
    hi = (snapshot.positions + r[:, None]).max(axis=0)
    room = max(float((hi - lo).max()) * 0.25, 1.0)
    return (lo[0] - room, lo[1] - room, hi[0] + room, hi[1] + room)


@dataclass
class Display:
    """What the canvas shows besides the bodies."""

    velocity: bool = True
    acceleration: bool = False
    trails: bool = True
    trail_seconds: float = 3.0
    """How long a trail lasts, in simulated seconds; ``math.inf``: the whole run."""
    named: bool = False
    """Each body's named accelerations (its own, gravity, the shared ones) as thin labelled arrows."""
    names: bool = True
    projector: bool = False
    labels: bool = True
    """The grid's metre labels and the scale bar (off for a thumbnail)."""


@dataclass(frozen=True)
class Theme:
    """Colours (``#rrggbb``), line widths and type sizes of the canvas."""

    background: str
    grid: str
    grid_width: float
    label: str
    font_pt: float
    walls: str
    wall_width: float
    outline: str
    outline_px: float
    velocity: str
    acceleration: str
    arrow_width: float
    selection: str
    trail_width: float
    halo: str = "#ffffff"
    """Under every arrow, a little wider: the arrow shows on a body of its own colour."""


NORMAL = Theme(background="#fafaf7", grid="#dedbd2", grid_width=1.0, label="#5a5a5a", font_pt=9.0,
               walls="#3a3a3a", wall_width=2.0, outline="#2b2b2b", outline_px=1.0,
               velocity="#1a5fb4", acceleration="#c01c28", arrow_width=2.0, selection="#f5c211",
               trail_width=2.5)
PROJECTOR = Theme(background="#ffffff", grid="#9a9a9a", grid_width=2.0, label="#000000", font_pt=16.0,
                  walls="#000000", wall_width=5.0, outline="#000000", outline_px=2.5,
                  velocity="#0b3d91", acceleration="#b00000", arrow_width=4.0, selection="#ff8c00",
                  trail_width=4.0)


def margins_for(theme: Theme):
    """Pixels (left, top, right, bottom) kept clear of the scene when fitting it: the
    grid's labels, the arrows' legend and the scale bar go there."""
    f = theme.font_pt
    return (int(5 * f + 10), int(5.5 * f + 20), int(f + 10), int(5 * f + 20))
