"""Body: a disc with a name, a mass (or fixed), a radius, a colour, a position,
a velocity and its own list of named accelerations.

A Body made by hand stands alone; once added to a World it becomes a handle
onto the World's arrays, so that the World can step every body at once.
Getters return read-only copies; setters validate and raise ValueError.
"""

from __future__ import annotations

import math
import re

import numpy as np

from .numbers import KINDS, limit, real, shown
from .accelerations import Acceleration, add_named, as_vector, check_unique, remove_named, replace_named

_COLOR = re.compile(r"^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
"""Colours given to bodies whose scene names none, in turn."""

FIXED = "fixed"


def check_mass(mass) -> float:
    """A mass in kg as a float (math.inf for ``"fixed"``); ValueError otherwise."""
    if isinstance(mass, str) and mass == FIXED:
        return math.inf
    try:
        value = real(mass)
    except ValueError:
        value = math.nan
    if not value > 0:
        raise ValueError(f'must be > 0 or "fixed", got {shown(mass)}')
    return value


def check_radius(radius) -> float:
    """A radius in m as a positive finite float; ValueError otherwise."""
    try:
        value = real(radius)
    except ValueError:
        if isinstance(radius, bool) or not isinstance(radius, KINDS):
            raise ValueError(f"must be a number > 0, got {shown(radius)}") from None
        value = math.nan
    if not value > 0:
        raise ValueError(f"must be > 0, got {shown(radius)}")
    return limit(value, "radius")


def check_color(color) -> str:
    """A colour as ``#rrggbb`` or ``#rrggbbaa``; ValueError otherwise."""
    if not isinstance(color, str) or not _COLOR.match(color):
        raise ValueError(f'must be a colour like "#1f77b4", got {color!r}')
    return color.lower()


def check_name(name) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"must be a non-empty string, got {name!r}")
    if any(c in name for c in ",\"\n\r"):
        raise ValueError(f"must not contain commas, quotes or line breaks, got {name!r}")
    return name


class Body:
    """A movable or fixed disc.

    >>> b = Body("A", mass=2.0, radius=0.25, position=(1.0, 1.0), velocity=(3.0, 0.0))
    >>> b.velocity
    array([3., 0.])
    """

    __slots__ = ("_name", "_own", "_world")

    def __init__(self, name, mass, radius, position, velocity=(0.0, 0.0), color=None,
                 gravity=True, accelerations=()):
        self._name = check_name(name)
        self._world = None
        mass = check_mass(mass)
        velocity = as_vector(velocity, "velocity")
        if math.isinf(mass) and np.any(velocity != 0):
            raise ValueError("velocity: a fixed body cannot move")
        accs = list(accelerations)
        check_unique(accs)
        self._own = {
            "mass": mass,
            "radius": check_radius(radius),
            "position": as_vector(position, "position"),
            "velocity": velocity,
            "color": None if color is None else check_color(color),
            "gravity": bool(gravity),
            "accelerations": accs,
        }

    # -- identity -----------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def world(self):
        """The World this body belongs to, or None."""
        return self._world

    def _i(self) -> int:
        return self._world._index[self._name]

    def _ro(self, array: np.ndarray) -> np.ndarray:
        out = np.array(array, dtype=float)
        out.flags.writeable = False
        return out

    # -- scalar properties ----------------------------------------------------
    @property
    def mass(self) -> float:
        """Mass in kg; ``math.inf`` for a fixed body."""
        return self._own["mass"] if self._world is None else float(self._world._mass[self._i()])

    @mass.setter
    def mass(self, value):
        mass = check_mass(value)
        if self._world is None:
            self._own["mass"] = mass
            if math.isinf(mass):
                self._own["velocity"] = np.zeros(2)
        else:
            self._world._set_mass(self._i(), mass)

    @property
    def fixed(self) -> bool:
        """True for an immovable body: infinite mass, no velocity, no acceleration."""
        return math.isinf(self.mass)

    @property
    def radius(self) -> float:
        """Radius in m."""
        return self._own["radius"] if self._world is None else float(self._world._radius[self._i()])

    @radius.setter
    def radius(self, value):
        radius = check_radius(value)
        if self._world is None:
            self._own["radius"] = radius
        else:
            self._world._set_radius(self._i(), radius)

    @property
    def color(self):
        """Colour as ``#rrggbb``, or None where the scene gave none."""
        return self._own["color"] if self._world is None else self._world._colors[self._i()]

    @color.setter
    def color(self, value):
        color = None if value is None else check_color(value)
        if self._world is None:
            self._own["color"] = color
        else:  # in a world, no colour means the palette's colour for the body's place
            i = self._i()
            self._world._colors[i] = color or PALETTE[i % len(PALETTE)]
            self._world._changed(bodies=True, physics=False)

    @property
    def gravity(self) -> bool:
        """Whether the world's shared accelerations (gravity and the rest) apply to this body."""
        return self._own["gravity"] if self._world is None else bool(self._world._shared_on[self._i()])

    @gravity.setter
    def gravity(self, value):
        if self._world is None:
            self._own["gravity"] = bool(value)
        else:
            self._world._shared_on[self._i()] = bool(value)
            self._world._changed()

    # -- vectors --------------------------------------------------------------
    @property
    def position(self) -> np.ndarray:
        """Position of the centre in m (a read-only copy)."""
        return self._ro(self._own["position"] if self._world is None else self._world._pos[self._i()])

    @position.setter
    def position(self, value):
        vec = as_vector(value, "position")
        if self._world is None:
            self._own["position"] = vec
        else:
            self._world._set_position(self._i(), vec)

    @property
    def velocity(self) -> np.ndarray:
        """Velocity in m/s (a read-only copy); always zero for a fixed body."""
        return self._ro(self._own["velocity"] if self._world is None else self._world._vel[self._i()])

    @velocity.setter
    def velocity(self, value):
        vec = as_vector(value, "velocity")
        if self.fixed and np.any(vec != 0):
            raise ValueError("velocity: a fixed body cannot move")
        if self._world is None:
            self._own["velocity"] = vec
        else:
            self._world._set_velocity(self._i(), vec)

    @property
    def acceleration(self) -> np.ndarray:
        """The summed acceleration this body feels now, in m/s² (zero for a fixed body)."""
        if self._world is None:
            raise RuntimeError("a body outside a world feels no shared acceleration")
        return self._ro(self._world._accelerations_now()[self._i()])

    # -- the acceleration list -------------------------------------------------
    @property
    def accelerations(self) -> tuple:
        """This body's own list of named accelerations (a tuple; change it with add/remove)."""
        return tuple(self._own["accelerations"] if self._world is None else self._world._own_acc[self._i()])

    def add_acceleration(self, acceleration: Acceleration | str, vector=None) -> None:
        """Add a named acceleration: ``body.add_acceleration("thrust", (0, 2))`` or an Acceleration."""
        add_named(self._entries(), acceleration, vector)
        if self._world is not None:
            self._world._changed(bodies=True)

    def remove_acceleration(self, name: str) -> None:
        """Remove the named entry; KeyError if there is none."""
        remove_named(self._entries(), name, f"body {self._name!r}")
        if self._world is not None:
            self._world._changed(bodies=True)

    def set_acceleration(self, name: str, vector) -> None:
        """Give the named entry a new vector in m/s², keeping its place in the list."""
        replace_named(self._entries(), name, vector, f"body {self._name!r}")
        if self._world is not None:
            self._world._changed(bodies=True)

    def _entries(self) -> list:
        return self._own["accelerations"] if self._world is None else self._world._own_acc[self._i()]

    def __repr__(self):
        where = "" if self._world is None else " in a world"
        return f"<Body {self._name!r}{where}>"

