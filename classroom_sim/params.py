"""Parameter paths: how a lesson control, a step's setup or a command names one number of a scene.

``world.gravity.x``, ``world.gravity.y``, ``world.restitution``,
``world.wall_restitution``, and for a body by name ``bodies.NAME.mass``,
``bodies.NAME.radius``, ``bodies.NAME.position.x`` (or ``.y``),
``bodies.NAME.velocity.x`` (or ``.y``), ``bodies.NAME.speed`` (m/s) and
``bodies.NAME.angle`` (the direction of the velocity, in degrees anticlockwise
from +x). Units as in the scene file.
"""

from __future__ import annotations

import math

WORLD_PARAMS = ("gravity.x", "gravity.y", "restitution", "wall_restitution")
BODY_PARAMS = ("mass", "radius", "position.x", "position.y", "velocity.x", "velocity.y", "speed", "angle")

UNITS = {"gravity.x": "m/s²", "gravity.y": "m/s²", "restitution": "", "wall_restitution": "", "mass": "kg",
         "radius": "m", "position.x": "m", "position.y": "m", "velocity.x": "m/s", "velocity.y": "m/s",
         "speed": "m/s", "angle": "°"}
"""The unit of each kind of parameter path (its last part or two)."""

WORDS = {"gravity.x": "gravity (x)", "gravity.y": "gravity (y)", "restitution": "restitution",
         "wall_restitution": "wall restitution", "mass": "mass", "radius": "radius", "position.x": "position (x)",
         "position.y": "position (y)", "velocity.x": "velocity (x)", "velocity.y": "velocity (y)", "speed": "speed",
         "angle": "angle"}
"""What each kind of parameter path is called in a sentence."""


def split_param(param, body_names) -> tuple:
    """(body name or None, quantity) of a parameter path, e.g. ``("A", "velocity.x")``
    for ``bodies.A.velocity.x``; ValueError if it names no number of a scene with
    these bodies."""
    if isinstance(param, str):
        if param.startswith("world.") and param[len("world."):] in WORLD_PARAMS:
            return None, param[len("world."):]
        if param.startswith("bodies."):
            for name in body_names:
                prefix = f"bodies.{name}."
                if param.startswith(prefix) and param[len(prefix):] in BODY_PARAMS:
                    return name, param[len(prefix):]
    raise ValueError(f"{param!r} names no number of this scene (e.g. 'world.gravity.y', 'bodies.A.mass')")


def param_body(param) -> str | None:
    """The body a well-formed body path names (``"A"`` for ``bodies.A.mass``), else None;
    it need not exist."""
    if isinstance(param, str) and param.startswith("bodies."):
        for quantity in BODY_PARAMS:
            if param.endswith("." + quantity) and len(param) > len("bodies.") + len(quantity) + 1:
                return param[len("bodies."):-len(quantity) - 1]
    return None


def param_unit(param: str) -> str:
    """The unit of the number a parameter path names (``"m/s"`` for ``bodies.A.speed``)."""
    for tail, unit in UNITS.items():
        if param.endswith("." + tail):
            return unit
    return ""


def param_words(param: str) -> str:
    """A parameter path as a sentence says it: ``"ball speed"`` for ``bodies.ball.speed``,
    ``"gravity (y)"`` for ``world.gravity.y``."""
    body = param_body(param)
    for tail, words in WORDS.items():
        if param.endswith("." + tail):
            return words if body is None else f"{body} {words}"
    return param


def angle_of(vx: float, vy: float, rest_angle: float = 0.0) -> float:
    """The direction of (vx, vy) in degrees anticlockwise from +x, in (-180, 180];
    ``rest_angle`` for a body at rest."""
    if vx == 0.0 and vy == 0.0:
        angle = (float(rest_angle) + 180.0) % 360.0 - 180.0
        return 180.0 if angle == -180.0 else angle
    angle = math.degrees(math.atan2(vy, vx))
    return 180.0 if angle == -180.0 else angle


def read_param(snapshot, param: str) -> float:
    """The value a parameter path names in a Snapshot (``inf`` for a fixed body's mass)."""
    body, quantity = split_param(param, snapshot.names)
    if body is None:
        settings = snapshot.settings
        if quantity.startswith("gravity."):
            return settings.gravity["xy".index(quantity[-1])]
        return getattr(settings, quantity)
    i = snapshot.index(body)
    if quantity == "mass":
        return float(snapshot.masses[i])
    if quantity == "radius":
        return float(snapshot.radii[i])
    vx, vy = (float(v) for v in snapshot.velocities[i])
    if quantity == "speed":
        return math.hypot(vx, vy)
    if quantity == "angle":
        rest = dict(snapshot.settings.rest_angles).get(body, 0.0) if snapshot.settings is not None else 0.0
        return angle_of(vx, vy, rest)
    array = snapshot.positions if quantity.startswith("position.") else snapshot.velocities
    return float(array[i, "xy".index(quantity[-1])])
