"""Parameter paths: how a lesson control or a command names one number of a scene.

``world.gravity.x``, ``world.gravity.y``, ``world.restitution``,
``world.wall_restitution``, and for a body by name ``bodies.NAME.mass``,
``bodies.NAME.radius``, ``bodies.NAME.position.x`` (or ``.y``) and
``bodies.NAME.velocity.x`` (or ``.y``). Units as in the scene file.
"""

from __future__ import annotations

WORLD_PARAMS = ("gravity.x", "gravity.y", "restitution", "wall_restitution")
BODY_PARAMS = ("mass", "radius", "position.x", "position.y", "velocity.x", "velocity.y")


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
    array = snapshot.positions if quantity.startswith("position.") else snapshot.velocities
    return float(array[i, "xy".index(quantity[-1])])
