"""The one check of a number that every field and command uses, and the checks built
on it: a fraction from 0 to 1, a box.

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
    if type(value) is float and value - value == 0.0:  # (the usual case, at once: x - x is 0 only if finite)
        return value
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


def check_fraction(value, what: str) -> float:
    """A number in [0, 1]; ValueError naming ``what`` otherwise."""
    try:
        number = real(value)
    except ValueError:
        raise ValueError(f"{what}: must be a number from 0 to 1, got {shown(value)}") from None
    if not 0.0 <= number <= 1.0:
        raise ValueError(f"{what}: must be from 0 to 1, got {shown(value)}")
    return number


def check_bounds(bounds):
    """A box (xmin, ymin, xmax, ymax) in m as a tuple of floats, or None; ValueError otherwise."""
    if bounds is None:
        return None
    if isinstance(bounds, (str, bytes)) or not hasattr(bounds, "__len__") or len(bounds) != 4:
        raise ValueError(f"bounds: must be [xmin, ymin, xmax, ymax], got {bounds!r}")
    out = []
    for b in bounds:
        try:
            out.append(real(b))
        except ValueError:
            raise ValueError(f"bounds: must be four finite numbers, got {bounds!r}") from None
        try:
            limit(out[-1], "bounds")
        except ValueError as exc:
            raise ValueError(f"bounds: {exc}") from None
    if not (out[0] < out[2] and out[1] < out[3]):
        raise ValueError(f"bounds: xmin must be < xmax and ymin < ymax, got {bounds!r}")
    return tuple(out)
