"""Scene and lesson files (SCENE_FORMAT.md, format 1): load with validation, save.

`load_scene` checks every field (type, range, finite numbers, unique names,
unknown fields, bodies inside the box) and raises `SceneError` with a message
that names the file and the field, e.g.
``scene.toml: bodies[1].mass: must be > 0 or "fixed", got -1``.
`save_scene` writes a file that loads back into the same World.
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path

from .accelerations import ConstantAcceleration, as_vector
from .body import FIXED, Body, check_color, check_mass, check_name, check_radius
from .files import write_atomically
from .integrators import INTEGRATORS
from .params import split_param
from .world import World, check_bounds, check_fraction

FORMAT = 1

_TOP = ("format", "world", "bodies", "lesson", "controls", "steps")
_WORLD = ("gravity", "bounds", "restitution", "wall_restitution", "integrator", "accelerations")
_BODY = ("name", "mass", "radius", "position", "velocity", "color", "gravity", "accelerations")
_ACCELERATION = ("name", "vector")
_LESSON = ("title", "summary", "audience")
_CONTROL = ("label", "param", "min", "max", "step")
_STEP = ("title", "text")


class SceneError(ValueError):
    """A scene file that cannot be loaded; the message names the file and the field."""


class _Invalid(Exception):
    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}" if field else message)


def load_scene(path) -> World:
    """Read a scene file into a new World; SceneError on any bad input."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise SceneError(f"{path}: not a text file (UTF-8)") from None
    except OSError as exc:
        raise SceneError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return loads_scene(text, str(path))


def loads_scene(text: str, name: str = "<scene>") -> World:
    """Read a scene from TOML text; ``name`` stands for the file in messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SceneError(f"{name}: not valid TOML: {exc}") from None
    try:
        return _build(data)
    except _Invalid as exc:
        raise SceneError(f"{name}: {exc}") from None


# -- reading -------------------------------------------------------------------------

def _table(value, field):
    if not isinstance(value, dict):
        raise _Invalid(field, f"must be a table, got {_show(value)}")
    return value


def _tables(value, field):
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise _Invalid(field, f"must be an array of tables ([[{field}]]), got {_show(value)}")
    return value


def _known(table, allowed, field):
    for key in table:
        if key not in allowed:
            where = f"{field}.{key}" if field else key
            raise _Invalid(where, f"unknown field (expected one of: {', '.join(allowed)})")


def _require(table, key, field):
    if key not in table:
        raise _Invalid(f"{field}.{key}" if field else key, "missing")
    return table[key]


def _number(value, field):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Invalid(field, f"must be a number, got {_show(value)}")
    if not math.isfinite(value):
        raise _Invalid(field, f"must be finite, got {_show(value)}")
    return float(value)


def _string(value, field):
    if not isinstance(value, str):
        raise _Invalid(field, f"must be a string, got {_show(value)}")
    return value


def _vector(value, field):
    if not isinstance(value, list) or len(value) != 2:
        raise _Invalid(field, f"must be a vector of two numbers like [1.0, 2.0], got {_show(value)}")
    return as_vector([_number(v, field) for v in value], field)


def _checked(check, value, field):
    try:
        return check(value)
    except ValueError as exc:
        message = str(exc)
        own = field.rsplit(".", 1)[-1] + ": "  # the checks name their own field; the path says it already
        raise _Invalid(field, message.removeprefix(own)) from None


def _fraction(value, field):
    return _checked(lambda v: check_fraction(v, field.rsplit(".", 1)[-1]), _number(value, field), field)


def _named(value, field, allowed, clash):
    """The entries of an array of tables whose names must differ: (field path, entry, name)."""
    names = set()
    for k, entry in enumerate(_tables(value, field)):
        where = f"{field}[{k}]"
        _known(entry, allowed, where)
        name = _checked(check_name, _require(entry, "name", where), f"{where}.name")
        if name in names:
            raise _Invalid(f"{where}.name", f"{name!r} {clash}")
        names.add(name)
        yield where, entry, name


def _accelerations(value, field):
    return [ConstantAcceleration(name, _vector(_require(entry, "vector", where), f"{where}.vector"))
            for where, entry, name in _named(value, field, _ACCELERATION, "is used twice")]


def _build(data: dict) -> World:
    _known(data, _TOP, "")
    if "format" in data and (isinstance(data["format"], bool) or data["format"] != FORMAT):
        raise _Invalid("format", f"must be {FORMAT}, got {_show(data['format'])}")
    w = _table(data.get("world", {}), "world")
    _known(w, _WORLD, "world")
    gravity = _vector(w["gravity"], "world.gravity") if "gravity" in w else (0.0, -9.81)
    bounds = None
    if "bounds" in w:
        raw = w["bounds"]
        if not isinstance(raw, list) or len(raw) != 4:
            raise _Invalid("world.bounds", f"must be [xmin, ymin, xmax, ymax], got {_show(raw)}")
        bounds = _checked(check_bounds, [_number(v, "world.bounds") for v in raw], "world.bounds")
    restitution = _fraction(w.get("restitution", 1.0), "world.restitution")
    wall = _fraction(w.get("wall_restitution", 1.0), "world.wall_restitution")
    integrator = w.get("integrator", "kinematic")
    if integrator not in INTEGRATORS:
        raise _Invalid("world.integrator", f"must be one of {', '.join(map(repr, INTEGRATORS))}, got {_show(integrator)}")
    world = World(gravity=gravity, bounds=bounds, restitution=restitution, wall_restitution=wall,
                  integrator=integrator, accelerations=_accelerations(w.get("accelerations", []), "world.accelerations"))

    names = set()
    for field, b, name in _named(data.get("bodies", []), "bodies", _BODY, "is used by another body"):
        names.add(name)
        mass = _checked(check_mass, _require(b, "mass", field), f"{field}.mass")
        radius = _checked(check_radius, _require(b, "radius", field), f"{field}.radius")
        position = _vector(_require(b, "position", field), f"{field}.position")
        velocity = _vector(b["velocity"], f"{field}.velocity") if "velocity" in b else (0.0, 0.0)
        if math.isinf(mass) and "velocity" in b and any(velocity):
            raise _Invalid(f"{field}.velocity", "a fixed body cannot move: leave velocity out")
        color = _checked(check_color, b["color"], f"{field}.color") if "color" in b else None
        opt_in = b.get("gravity", True)
        if not isinstance(opt_in, bool):
            raise _Invalid(f"{field}.gravity", f"must be true or false, got {_show(opt_in)}")
        accs = _accelerations(b.get("accelerations", []), f"{field}.accelerations")
        body = Body(name, FIXED if math.isinf(mass) else mass, radius, position, velocity, color, opt_in, accs)
        try:
            world.add_body(body)
        except ValueError as exc:
            raise _Invalid(f"{field}.position", str(exc).removeprefix("position: ")) from None

    world.lesson = _lesson(data, names)
    return world


def _lesson(data, body_names) -> dict:
    out = {}
    if "lesson" in data:
        lesson = _table(data["lesson"], "lesson")
        _known(lesson, _LESSON, "lesson")
        out["lesson"] = {k: _string(v, f"lesson.{k}") for k, v in lesson.items()}
    if "controls" in data:
        controls = []
        for k, c in enumerate(_tables(data["controls"], "controls")):
            field = f"controls[{k}]"
            _known(c, _CONTROL, field)
            control = {"label": _string(_require(c, "label", field), f"{field}.label"),
                       "param": _string(_require(c, "param", field), f"{field}.param")}
            check_param(control["param"], body_names, f"{field}.param")
            lo = _number(_require(c, "min", field), f"{field}.min")
            hi = _number(_require(c, "max", field), f"{field}.max")
            if not lo < hi:
                raise _Invalid(f"{field}.max", f"must be greater than min ({lo!r}), got {hi!r}")
            control["min"], control["max"] = lo, hi
            if "step" in c:
                step = _number(c["step"], f"{field}.step")
                if not step > 0:
                    raise _Invalid(f"{field}.step", f"must be > 0, got {_show(c['step'])}")
                control["step"] = step
            controls.append(control)
        out["controls"] = controls
    if "steps" in data:
        steps = []
        for k, s in enumerate(_tables(data["steps"], "steps")):
            field = f"steps[{k}]"
            _known(s, _STEP, field)
            step = {"title": _string(_require(s, "title", field), f"{field}.title")}
            if "text" in s:
                step["text"] = _string(s["text"], f"{field}.text")
            steps.append(step)
        out["steps"] = steps
    return out


def check_param(param: str, body_names, field: str = "param") -> None:
    """A control's parameter path (see `params`)."""
    try:
        split_param(param, body_names)
    except ValueError as exc:
        raise _Invalid(field, str(exc)) from None


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# -- writing ----------------------------------------------------------------------------

def save_scene(world: World, path) -> None:
    """Write ``world`` (its current state, including live edits) as a scene file, atomically."""
    text = dumps_scene(world)
    write_atomically(path, lambda f: f.write(text))


def dumps_scene(world: World) -> str:
    """The scene file text for ``world``."""
    lines = [f"format = {FORMAT}", ""]
    lesson = world.lesson or {}
    if "lesson" in lesson:
        lines.append("[lesson]")
        lines += [f"{k} = {_toml(v)}" for k, v in lesson["lesson"].items()]
        lines.append("")
    lines.append("[world]")
    lines.append(f"gravity = {_toml(world.gravity.tolist())}")
    if world.bounds is not None:
        lines.append(f"bounds = {_toml(list(world.bounds))}")
    lines.append(f"restitution = {_toml(world.restitution)}")
    lines.append(f"wall_restitution = {_toml(world.wall_restitution)}")
    lines.append(f"integrator = {_toml(world.integrator)}")
    for acc in world.accelerations:
        lines += ["", "[[world.accelerations]]", *_acceleration_lines(acc)]
    for body in world.bodies:
        lines += ["", "[[bodies]]", f"name = {_toml(body.name)}"]
        lines.append(f"mass = {_toml(FIXED if body.fixed else body.mass)}")
        lines.append(f"radius = {_toml(body.radius)}")
        lines.append(f"position = {_toml(body.position.tolist())}")
        if not body.fixed:
            lines.append(f"velocity = {_toml(body.velocity.tolist())}")
        lines.append(f"color = {_toml(body.color)}")
        lines.append(f"gravity = {_toml(body.gravity)}")
        for acc in body.accelerations:
            lines += ["", "[[bodies.accelerations]]", *_acceleration_lines(acc)]
    for key in ("controls", "steps"):
        for entry in lesson.get(key, []):
            lines += ["", f"[[{key}]]", *[f"{k} = {_toml(v)}" for k, v in entry.items()]]
    return "\n".join(lines) + "\n"


def _acceleration_lines(acc):
    if not isinstance(acc, ConstantAcceleration):
        raise ValueError(f"acceleration {acc.name!r}: only constant accelerations can be saved")
    return [f"name = {_toml(acc.name)}", f"vector = {_toml(acc.vector.tolist())}"]


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        # A JSON string is a TOML basic string, but for DEL, which TOML wants escaped.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"cannot save a non-finite number: {value!r}")
        return repr(value)  # round-trips exactly
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} to TOML")
