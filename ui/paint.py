"""The canvas's small drawing helpers, shared by the canvas and what it draws on top
(arrows, legends, marks): segments in one path, a pale backing for text, a line
drawn over a contrasting halo."""

from __future__ import annotations

import numpy as np
import pyqtgraph.functions as pgf
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPen


def pairs_path(xs, ys):
    """One QPainterPath of the segments (xs[2k], ys[2k]) - (xs[2k+1], ys[2k+1])."""
    return pgf.arrayToQPath(np.asarray(xs, float).ravel(), np.asarray(ys, float).ravel(), connect="pairs")


def panel(p, theme, rect) -> None:
    """A pale, rounded backing that keeps a legend readable over the scene."""
    back = QColor(theme.background)
    back.setAlpha(215)
    p.setPen(Qt.NoPen)
    p.setBrush(back)
    p.drawRoundedRect(rect, 6.0, 6.0)
    p.setBrush(Qt.NoBrush)


def outlined(p, path, color: str, width: float, halo: str, halo_width: float) -> None:
    """Stroke ``path`` in ``color`` over a wider stroke of ``halo``: two calls for the whole
    batch, and the line shows on a body of its own colour. (Flat and square caps stroke
    far faster than round ones; the halo's are flat, so that it does not reach back
    past the start of a line.)"""
    p.setBrush(Qt.NoBrush)
    pen = QPen(QColor(halo), halo_width)
    pen.setCapStyle(Qt.FlatCap)
    p.setPen(pen)
    p.drawPath(path)
    p.setPen(QPen(QColor(color), width))
    p.drawPath(path)


LIGHTEST_LINE = 0.8
"""The lightest colour (HSL lightness, 0 to 1) a line is drawn in on the light canvas and
graphs; a lighter one (a white ball's) is drawn darker, as `line_color` says."""


def line_color(color: str) -> str:
    """The colour a line of a body's (its trail, its curve on a graph) is drawn in on a light
    background: its own, or for a colour nearly white a grey of its hue that shows."""
    c = QColor(color)
    return color if c.lightnessF() <= LIGHTEST_LINE else c.darker(250).name()
