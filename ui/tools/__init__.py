"""The classroom's measuring tools, one room each, drawn over the canvas.

A tool is an overlay: the canvas calls its ``draw(painter, canvas, snapshot,
theme)`` after the scene (`Canvas.overlays`), and a mouse tool, while it is the
canvas's `Canvas.tool`, gets the left button's ``press``, ``move`` and
``release`` (in metres) before the canvas does. Each keeps its own small state;
each reaches the engine only through the bridge. `Toolbox` puts them in a
toolbar group and a menu, each with a shortcut and a tooltip.
"""

from __future__ import annotations


class Tool:
    """An overlay (and, for a mouse tool, what the left button does)."""

    def draw(self, p, canvas, snap, theme) -> None:
        """Draw over the scene."""

    def press(self, canvas, x: float, y: float) -> bool:
        """The left button went down at (x, y) m: True if the tool takes the drag."""
        return False

    def move(self, canvas, x: float, y: float) -> None:
        """The pointer moved to (x, y) m during the tool's drag."""

    def release(self, canvas, x: float, y: float) -> None:
        """The drag ended at (x, y) m."""

    def stop(self, canvas) -> None:
        """The tool was put away: forget what was half done."""
