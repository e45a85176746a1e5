"""Commands: live edits of a running World, as small frozen values.

A GUI (or a script) sends a command to a `Simulation`; the physics thread
applies it between two cycles. `apply` checks everything against the World
first and changes it only when all is well; otherwise it raises
`CommandError`, whose message names the field, and the World is as before.
Fields are named the way a scene file names them (``world.gravity``,
``bodies.A.mass``); a body is named by its name, ``None`` meaning the world's
shared acceleration list where a command takes either.

>>> from classroom_sim import World, Body
>>> w = World(); w.add_body(Body("A", 1.0, 0.1, (0.0, 0.0)))
>>> SetMass("A", 2.0).apply(w); w.body("A").mass
2.0
>>> SetMass("A", -1).apply(w)
Traceback (most recent call last):
...
classroom_sim.commands.CommandError: bodies.A.mass: must be > 0 or "fixed", got -1
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import ClassVar

from .body import FIXED, Body, check_mass, check_name, check_radius
from .numbers import real, shown
from .params import angle_of, split_param

DEFAULT_FREE_MASS = 1.0
"""kg: the mass a body gets when it is freed and had no mass before it was fixed."""


class CommandError(ValueError):
    """A command the World refused; the message names the field and what was wrong."""


def _guard(field: str, action, parts: bool = False):
    """Run ``action``; a ValueError, KeyError or TypeError becomes a CommandError naming
    ``field``. A message that starts with a field of its own ("velocity: ...") names
    a part of ``field`` where ``parts`` is true (a whole body), else ``field`` itself."""
    try:
        return action()
    except (ValueError, KeyError, TypeError) as exc:
        text = str(exc.args[0]) if exc.args else str(exc)
        head, sep, rest = text.partition(": ")
        if sep and head.isidentifier():
            text = rest
            if parts and head != field.rsplit(".", 1)[-1]:
                field = f"{field}.{head}"
        raise CommandError(f"{field}: {text}") from None


def _body(world, name):
    if not isinstance(name, str) or name not in world._index:
        raise CommandError(f"body: there is no body named {name!r}")
    return world.body(name)


def _owner(world, body):
    """The world (``body`` None) or the named body, and the field path of its acceleration list."""
    if body is None:
        return world, "world.accelerations"
    return _body(world, body), f"bodies.{body}.accelerations"


class Command:
    """A live edit. Subclasses are frozen dataclasses named with verbs."""

    def apply(self, world) -> None:
        """Check this edit against ``world`` and make it; CommandError (and no change) if refused."""
        raise NotImplementedError


class _WorldSetting(Command):
    """Set one of the World's settings through its checking setter."""

    attribute: ClassVar[str]

    def apply(self, world):
        value = getattr(self, fields(self)[0].name)
        _guard(f"world.{self.attribute}", lambda: setattr(world, self.attribute, value))


class _BodyField(Command):
    """Set one field of a body through its checking setter."""

    attribute: ClassVar[str]

    def apply(self, world):
        b = _body(world, self.body)
        value = getattr(self, fields(self)[1].name)
        _guard(f"bodies.{self.body}.{self.attribute}", lambda: setattr(b, self.attribute, value))


# -- the world's settings -------------------------------------------------------------------

@dataclass(frozen=True)
class SetGravity(_WorldSetting):
    """The shared gravity vector, in m/s²."""

    vector: tuple
    attribute = "gravity"


@dataclass(frozen=True)
class SetRestitution(_WorldSetting):
    """Body-body restitution, 0 .. 1."""

    value: float
    attribute = "restitution"


@dataclass(frozen=True)
class SetWallRestitution(_WorldSetting):
    """Body-wall restitution, 0 .. 1."""

    value: float
    attribute = "wall_restitution"


@dataclass(frozen=True)
class SetIntegrator(_WorldSetting):
    """"kinematic", "semi-implicit-euler" or "euler"."""

    name: str
    attribute = "integrator"


# -- one body ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class SetMass(_BodyField):
    """A body's mass in kg, or "fixed"."""

    body: str
    mass: object
    attribute = "mass"


@dataclass(frozen=True)
class SetFixed(Command):
    """Fix a body (infinite mass, at rest) or free it again with the mass it had before."""

    body: str
    fixed: bool

    def apply(self, world):
        b = _body(world, self.body)
        if not isinstance(self.fixed, bool):
            raise CommandError(f"bodies.{self.body}.mass: fixed must be true or false, got {self.fixed!r}")
        if self.fixed == b.fixed:
            return
        b.mass = FIXED if self.fixed else world._free_mass.get(self.body, DEFAULT_FREE_MASS)


@dataclass(frozen=True)
class SetRadius(_BodyField):
    """A body's radius in m."""

    body: str
    radius: float
    attribute = "radius"


@dataclass(frozen=True)
class SetPosition(_BodyField):
    """A body's position in m (inside the box, if there is one)."""

    body: str
    vector: tuple
    attribute = "position"


@dataclass(frozen=True)
class SetVelocity(_BodyField):
    """A body's velocity in m/s (a fixed body cannot move)."""

    body: str
    vector: tuple
    attribute = "velocity"


@dataclass(frozen=True)
class SetColor(_BodyField):
    """A body's colour, "#rrggbb"."""

    body: str
    color: str
    attribute = "color"


@dataclass(frozen=True)
class SetBodyGravity(Command):
    """Whether the world's shared accelerations (gravity and the rest) apply to a body."""

    body: str
    on: bool

    def apply(self, world):
        b = _body(world, self.body)
        if not isinstance(self.on, bool):
            raise CommandError(f"bodies.{self.body}.gravity: must be true or false, got {self.on!r}")
        b.gravity = self.on


# -- acceleration lists ------------------------------------------------------------------------

@dataclass(frozen=True)
class AddAcceleration(Command):
    """Add a named constant acceleration (m/s²) to a body's list, or to the shared list (body None)."""

    body: str | None
    name: str
    vector: tuple

    def apply(self, world):
        owner, field = _owner(world, self.body)
        _guard(field, lambda: owner.add_acceleration(self.name, self.vector), parts=True)


@dataclass(frozen=True)
class SetAcceleration(Command):
    """Give a named acceleration of a body's list (or the shared list) a new vector in m/s²."""

    body: str | None
    name: str
    vector: tuple

    def apply(self, world):
        owner, field = _owner(world, self.body)
        _guard(field, lambda: owner.set_acceleration(self.name, self.vector), parts=True)


@dataclass(frozen=True)
class RemoveAcceleration(Command):
    """Remove a named acceleration from a body's list, or from the shared list (body None)."""

    body: str | None
    name: str

    def apply(self, world):
        owner, field = _owner(world, self.body)
        _guard(field, lambda: owner.remove_acceleration(self.name), parts=True)


# -- bodies --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class AddBody(Command):
    """A new body, as a scene file describes one; ``accelerations`` is a sequence
    of (name, vector) pairs."""

    name: str
    mass: object
    radius: float
    position: tuple
    velocity: tuple = (0.0, 0.0)
    color: str | None = None
    gravity: bool = True
    accelerations: tuple = ()

    def apply(self, world):
        _guard("body.name", lambda: check_name(self.name))
        field = f"bodies.{self.name}"
        _guard(f"{field}.mass", lambda: check_mass(self.mass))
        _guard(f"{field}.radius", lambda: check_radius(self.radius))
        if not isinstance(self.gravity, bool):
            raise CommandError(f"{field}.gravity: must be true or false, got {self.gravity!r}")
        body = _guard(field, lambda: Body(self.name, self.mass, self.radius, self.position, self.velocity,
                                          self.color, self.gravity), parts=True)
        for k, entry in enumerate(self.accelerations):
            if isinstance(entry, (str, bytes)) or not hasattr(entry, "__len__") or len(entry) != 2:
                raise CommandError(f"{field}.accelerations[{k}]: must be a (name, vector) pair, got {entry!r}")
            _guard(f"{field}.accelerations", lambda: body.add_acceleration(*entry), parts=True)
        _guard(field, lambda: world.add_body(body), parts=True)


@dataclass(frozen=True)
class RemoveBody(Command):
    """Remove the named body."""

    name: str

    def apply(self, world):
        _body(world, self.name)
        world.remove_body(self.name)


@dataclass(frozen=True)
class RenameBody(Command):
    """Call a body by a new name (the lesson's paths and predictions follow)."""

    name: str
    new_name: str

    def apply(self, world):
        _body(world, self.name)
        _guard(f"bodies.{self.name}.name", lambda: world.rename_body(self.name, self.new_name))


# -- by parameter path -------------------------------------------------------------------------

@dataclass(frozen=True)
class SetParameter(Command):
    """Set the number a parameter path names (see `params`): ``world.gravity.y``,
    ``bodies.A.mass`` and the like. A lesson's controls send these."""

    param: str
    value: object

    def apply(self, world):
        body, quantity = _guard("param", lambda: split_param(self.param, world.names))
        field = self.param
        value = self.value
        if body is None:
            if quantity.startswith("gravity."):
                vector = _replaced(world.gravity, quantity, value, field)
                _guard(field, lambda: setattr(world, "gravity", vector))
            else:
                _guard(field, lambda: setattr(world, quantity, value))
            return
        b = world.body(body)
        if quantity in ("mass", "radius"):
            _guard(field, lambda: setattr(b, quantity, value))
            return
        if quantity in ("speed", "angle"):
            _launch(world, b, quantity, value, field)
            return
        name = quantity.split(".")[0]
        vector = _replaced(getattr(b, name), quantity, value, field)
        _guard(field, lambda: setattr(b, name, vector))


def _launch(world, b, quantity: str, value, field: str) -> None:
    """Set a body's speed (keeping its direction) or its direction (keeping its speed).
    A body at rest keeps the last direction set for it (0°, along +x, if none was)."""
    value = _finite(value, field)
    vx, vy = (float(v) for v in b.velocity)
    speed = math.hypot(vx, vy)
    angle = angle_of(vx, vy, world._angles.get(b.name, 0.0))
    if quantity == "speed":
        if value < 0:
            raise CommandError(f"{field}: must be >= 0 m/s, got {value!r}")
        speed = float(value)
    else:
        angle = float(value)
    turn = math.radians(angle)
    _guard(field, lambda: setattr(b, "velocity", (speed * math.cos(turn), speed * math.sin(turn))))
    world._angles[b.name] = angle
    world._changed()


def _finite(value, field: str) -> float:
    try:
        return real(value)
    except ValueError:
        raise CommandError(f"{field}: must be a finite number, got {shown(value)}") from None


def _replaced(vector, quantity: str, value, field: str) -> tuple:
    """``vector`` with the component that ``quantity`` ends in (.x or .y) replaced by ``value``."""
    value = _finite(value, field)
    out = [float(vector[0]), float(vector[1])]
    out["xy".index(quantity[-1])] = value
    return tuple(out)


__all__ = [
    "AddAcceleration",
    "AddBody",
    "Command",
    "CommandError",
    "RemoveAcceleration",
    "RemoveBody",
    "RenameBody",
    "SetAcceleration",
    "SetBodyGravity",
    "SetColor",
    "SetFixed",
    "SetGravity",
    "SetIntegrator",
    "SetMass",
    "SetParameter",
    "SetPosition",
    "SetRadius",
    "SetRestitution",
    "SetVelocity",
    "SetWallRestitution",
]
