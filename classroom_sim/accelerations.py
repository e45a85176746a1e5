"""Named accelerations: the entries of a body's list and of the world's shared list.

Today every kind is a constant vector. A kind that depends on the state
(a spring, drag, a central attraction) subclasses `Acceleration`, sets
``constant = False`` and implements `at`; the World evaluates those every cycle.
"""

from __future__ import annotations

import numpy as np

from .numbers import LIMITS, limit, real, shown


class Acceleration:
    """One named entry of an acceleration list, in m/s²."""

    constant = True

    def __init__(self, name: str):
        if not isinstance(name, str) or not name:
            raise ValueError("name: must be a non-empty string")
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    def at(self, positions: np.ndarray, velocities: np.ndarray, index: int) -> np.ndarray:
        """The acceleration of body ``index`` in the given state, in m/s²."""
        raise NotImplementedError


class ConstantAcceleration(Acceleration):
    """A fixed vector in m/s², such as gravity, wind or thrust.

    >>> ConstantAcceleration("wind", (0.5, 0.0)).vector
    array([0.5, 0. ])
    """

    def __init__(self, name: str, vector):
        super().__init__(name)
        self._vector = as_vector(vector, "vector")

    @property
    def vector(self) -> np.ndarray:
        return self._vector.copy()

    def at(self, positions, velocities, index):
        return self._vector.copy()

    def __repr__(self):
        return f"ConstantAcceleration({self._name!r}, ({self._vector[0]!r}, {self._vector[1]!r}))"

    def __eq__(self, other):
        return (
            isinstance(other, ConstantAcceleration)
            and other._name == self._name
            and bool(np.array_equal(other._vector, self._vector))
        )

    __hash__ = None


def add_named(entries: list, acceleration, vector=None) -> None:
    """Append to an acceleration list: an Acceleration, or a name and a constant vector
    (m/s²). ValueError if the name is already in the list."""
    if not isinstance(acceleration, Acceleration):
        acceleration = ConstantAcceleration(acceleration, vector)
    check_unique(entries + [acceleration])
    entries.append(acceleration)


def remove_named(entries: list, name: str, owner: str) -> None:
    """Remove the named entry of an acceleration list; KeyError naming ``owner`` if there is none."""
    for k, acc in enumerate(entries):
        if acc.name == name:
            del entries[k]
            return
    raise KeyError(f"{owner} has no acceleration named {name!r}")


def replace_named(entries: list, name: str, vector, owner: str) -> None:
    """Give the named entry of an acceleration list a new constant vector (m/s²), in its
    place in the list; KeyError naming ``owner`` if there is none."""
    for k, acc in enumerate(entries):
        if acc.name == name:
            entries[k] = ConstantAcceleration(name, vector)
            return
    raise KeyError(f"{owner} has no acceleration named {name!r}")


def check_unique(accelerations) -> None:
    """ValueError if two entries share a name."""
    seen = set()
    for acc in accelerations:
        if not isinstance(acc, Acceleration):
            raise ValueError(f"accelerations: must be Acceleration values, got {acc!r}")
        if acc.name in seen:
            raise ValueError(f"accelerations: the name {acc.name!r} is used twice")
        seen.add(acc.name)


def as_vector(value, what: str) -> np.ndarray:
    """A finite 2-vector of floats from any pair of real numbers; ValueError naming ``what`` otherwise."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or len(value) != 2:
        raise ValueError(f"{what}: must be a vector of two numbers, got {value!r}")
    out = []
    for item in value:
        try:
            out.append(real(item))
        except ValueError as exc:
            reason = "must be finite" if "finite" in str(exc) else "must be a vector of two numbers"
            raise ValueError(f"{what}: {reason}, got {shown(value)}") from None
    kind = what.rsplit(".", 1)[-1]
    if kind in LIMITS:
        for item in out:
            try:
                limit(item, kind)
            except ValueError as exc:
                raise ValueError(f"{what}: {exc}") from None
    return np.array(out, dtype=float)
