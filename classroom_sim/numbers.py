"""The one check of a number that every field and command uses.

A number is an int, a float or a numpy scalar of either (never a bool), finite,
and within what a float holds: an integer past 1e308 is refused, not an
OverflowError somewhere later.
"""

from __future__ import annotations

import math

import numpy as np

KINDS = (int, float, np.integer, np.floating)

LIMITS = {"position": (1e9, "m"), "bounds": (1e9, "m"), "radius": (1e9, "m"), "velocity": (1e8, "m/s"),
          "gravity": (1e8, "m/s²"), "vector": (1e8, "m/s²")}
"""The largest size of each kind of quantity the engine honours. Within them a step
stays exact to rounding and a cycle's cost bounded (a grid cell for every body,
spans that a float holds); beyond them the numbers mean nothing in a classroom:
a million kilometres, a third of the speed of light, ten million g."""


def limit(value: float, kind: str) -> float:
    """``value`` if its size is within the limit of ``kind`` (`LIMITS`); ValueError otherwise."""
    top, unit = LIMITS[kind]
    if abs(value) > top:
        raise ValueError(f"must be within ±{top:g} {unit}, got {shown(value)}")
    return value


def real(value) -> float:
    """``value`` as a finite float; ValueError with a short reason otherwise."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, KINDS):
        raise ValueError(f"must be a number, got {shown(value)}")
    try:
        number = float(value)
    except OverflowError:
        raise ValueError(f"must be a number below 1e308, got {shown(value)}") from None
    if not math.isfinite(number):
        raise ValueError(f"must be finite, got {shown(value)}")
    return number


def shown(value) -> str:
    """``value`` for a message: short, even for an integer of thousands of digits."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10 ** 30:
        return "a huge integer"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
