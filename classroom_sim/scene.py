"""Scene and lesson files (SCENE_FORMAT.md, format 1): load with validation, save.

`load_scene` checks every field (type, range, finite numbers, unique names,
unknown fields, bodies inside the box) and raises `SceneError` with a message
that names the file and the field, e.g.
``scene.toml: bodies[1].mass: must be > 0 or "fixed", got -1``.
Saving is `saving`'s.
"""

from __future__ import annotations

import copy
import json
import math
import os
import stat
import tomllib
from pathlib import Path

from .accelerations import ConstantAcceleration, as_vector
from .body import FIXED, Body, check_color, check_mass, check_name, check_radius
from .commands import CommandError, SetParameter
from .integrators import INTEGRATORS
from .lesson import EVENTS, QUANTITIES, TOLERANCE, Control, Lesson, Prediction, Step, Variant, unit_of
from .params import split_param
from .numbers import check_bounds, check_fraction
from .world import World

FORMAT = 1

_TOP = ("format", "world", "bodies", "lesson", "controls", "steps", "variants")
_WORLD = ("gravity", "bounds", "restitution", "wall_restitution", "integrator", "accelerations")
_BODY = ("name", "mass", "radius", "position", "velocity", "color", "gravity", "accelerations")
_ACCELERATION = ("name", "vector")
_LESSON = ("title", "summary", "audience", "topic", "student")
_CONTROL = ("label", "param", "min", "max", "step")
_STEP = ("title", "text", "controls", "setup", "predict")
_PREDICT = ("question", "body", "event", "quantity", "unit", "tolerance", "at")
_VARIANT = ("param", "min", "max", "step")


class SceneError(ValueError):
    """A scene file that cannot be loaded; the message names the file and the field."""


class _Invalid(Exception):
    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}" if field else message)


MAX_BYTES = 64 * 1024 * 1024
"""The largest scene file read (a million bodies fit in less)."""


def load_scene(path) -> World:
    """Read a scene file into a new World; SceneError on any bad input. Only a regular
    file of at most `MAX_BYTES` is read (a pipe would wait for ever, /dev/zero never end)."""
    path = Path(path)
    try:
        # (not blocking: a FIFO opened for reading would otherwise wait for a writer)
        with os.fdopen(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise SceneError(f"{path}: not a regular file")
            if info.st_size > MAX_BYTES:
                raise SceneError(f"{path}: {info.st_size:,} bytes is too large for a scene "
                                 f"(at most {MAX_BYTES:,})")
            text = f.read(MAX_BYTES + 1).decode("utf-8")
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
    except RecursionError:
        raise SceneError(f"{name}: not valid TOML: arrays or tables nested too deeply") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise SceneError(f"{name}: not valid TOML: {exc}") from None
    try:
        return _build(data)
    except _Invalid as exc:
        raise SceneError(f"{name}: {exc}") from None
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:
        # (every field is checked above: this is a safety net, so that no input gives a traceback)
        raise SceneError(f"{name}: cannot be read as a scene: {type(exc).__name__}: {exc}") from None


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
    try:
        number = float(value)
    except OverflowError:  # an integer beyond 1.8e308
        raise _Invalid(field, f"must be a number below 1e308, got {_show(value)}") from None
    if not math.isfinite(number):
        raise _Invalid(field, f"must be finite, got {_show(value)}")
    return number


def _string(value, field):
    if not isinstance(value, str):
        raise _Invalid(field, f"must be a string, got {_show(value)}")
    return value


def _vector(value, field):
    if not isinstance(value, list) or len(value) != 2:
        raise _Invalid(field, f"must be a vector of two numbers like [1.0, 2.0], got {_show(value)}")
    numbers = [_number(v, field) for v in value]
    try:
        return as_vector(numbers, field)
    except ValueError as exc:
        raise _Invalid(field, str(exc).removeprefix(f"{field}: ")) from None


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
    if not isinstance(integrator, str) or integrator not in INTEGRATORS:
        raise _Invalid("world.integrator", f"must be one of {', '.join(map(repr, INTEGRATORS))}, got {_show(integrator)}")
    world = World(gravity=gravity, bounds=bounds, restitution=restitution, wall_restitution=wall,
                  integrator=integrator, accelerations=_accelerations(w.get("accelerations", []), "world.accelerations"))

    bodies = []
    for field, b, name in _named(data.get("bodies", []), "bodies", _BODY, "is used by another body"):
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
            world._check_inside(position, radius)
        except ValueError as exc:
            raise _Invalid(f"{field}.position", str(exc).removeprefix("position: ")) from None
        bodies.append(body)
    world.add_bodies(bodies)  # (at once: one body at a time copies the arrays each time)

    world.lesson = _lesson(data, world)
    return world


def _lesson(data, world):
    """The scene's Lesson, or None; every field checked against ``world``'s bodies."""
    names = world.names
    controls, labels = [], set()
    for k, c in enumerate(_tables(data.get("controls", []), "controls")):
        field = f"controls[{k}]"
        _known(c, _CONTROL, field)
        label = _string(_require(c, "label", field), f"{field}.label")
        if not label.strip():
            raise _Invalid(f"{field}.label", "must not be empty")
        if label in labels:
            raise _Invalid(f"{field}.label", f"{label!r} is used by another control")
        labels.add(label)
        param = _param(_require(c, "param", field), names, f"{field}.param")
        lo, hi = _range(c, field)
        step = None
        if "step" in c:
            step = _positive(c["step"], f"{field}.step")
        controls.append(Control(label, param, lo, hi, step))

    steps = [_step(s, f"steps[{k}]", labels, world)
             for k, s in enumerate(_tables(data.get("steps", []), "steps"))]

    variants = []
    for k, v in enumerate(_tables(data.get("variants", []), "variants")):
        field = f"variants[{k}]"
        _known(v, _VARIANT, field)
        param = _param(_require(v, "param", field), names, f"{field}.param")
        lo, hi = _range(v, field)
        variants.append(Variant(param, lo, hi, _positive(_require(v, "step", field), f"{field}.step")))

    if "lesson" not in data:
        if controls or steps or variants:
            raise _Invalid("lesson.title", "missing: a scene with [[controls]], [[steps]] or [[variants]] "
                                           "is a lesson and needs a [lesson] table with a title")
        return None
    lesson = _table(data["lesson"], "lesson")
    _known(lesson, _LESSON, "lesson")
    text = {k: _string(lesson[k], f"lesson.{k}") for k in ("title", "summary", "audience", "topic") if k in lesson}
    if not _require(lesson, "title", "lesson").strip():
        raise _Invalid("lesson.title", "must not be empty")
    student = lesson.get("student", False)
    if not isinstance(student, bool):
        raise _Invalid("lesson.student", f"must be true or false, got {_show(student)}")
    return Lesson(**text, student=student, controls=tuple(controls), steps=tuple(steps), variants=tuple(variants))


def _step(s, field, labels, world) -> Step:
    _known(s, _STEP, field)
    title = _string(_require(s, "title", field), f"{field}.title")
    text = _string(s.get("text", ""), f"{field}.text")
    shown = None
    if "controls" in s:
        shown = s["controls"]
        if not isinstance(shown, list):
            raise _Invalid(f"{field}.controls", f"must be a list of control labels, got {_show(shown)}")
        for k, label in enumerate(shown):
            if not isinstance(label, str) or label not in labels:
                raise _Invalid(f"{field}.controls[{k}]",
                               f"{_show(label)} is not the label of a control (the [[controls]] have: "
                               f"{', '.join(map(repr, sorted(labels))) or 'none'})")
        shown = tuple(shown)
    setup = []
    for path, value in _flat(_table(s.get("setup", {}), f"{field}.setup")):
        where = f"{field}.setup.{json.dumps(path, ensure_ascii=False)}"
        setup.append((_param(path, world.names, where), _number(value, where)))
    if setup:  # every value must be one the scene can take (a position inside the box, a mass > 0)
        trial = copy.deepcopy(world)
        for (path, value) in setup:
            try:
                SetParameter(path, value).apply(trial)
            except CommandError as exc:
                raise _Invalid(f"{field}.setup.{json.dumps(path, ensure_ascii=False)}",
                               str(exc).removeprefix(f"{path}: ")) from None
    predict = _prediction(s["predict"], f"{field}.predict", world) if "predict" in s else None
    return Step(title, text, shown, tuple(setup), predict)


def _prediction(p, field, world) -> Prediction:
    p = _table(p, field)
    _known(p, _PREDICT, field)
    question = _string(_require(p, "question", field), f"{field}.question")
    if not question.strip():
        raise _Invalid(f"{field}.question", "must not be empty")
    body = _string(_require(p, "body", field), f"{field}.body")
    if body not in world.names:
        raise _Invalid(f"{field}.body", f"there is no body named {body!r} (the bodies: "
                                        f"{', '.join(map(repr, world.names)) or 'none'})")
    event = _require(p, "event", field)
    if not isinstance(event, str) or event not in EVENTS:
        raise _Invalid(f"{field}.event", f"must be one of {', '.join(map(repr, EVENTS))}, got {_show(event)}")
    if event in ("floor", "wall") and world.bounds is None:
        raise _Invalid(f"{field}.event", f"{event!r} needs walls: give [world] bounds")
    quantity = _require(p, "quantity", field)
    if not isinstance(quantity, str) or quantity not in QUANTITIES:
        raise _Invalid(f"{field}.quantity",
                       f"must be one of {', '.join(map(repr, QUANTITIES))}, got {_show(quantity)}")
    unit = _string(_require(p, "unit", field), f"{field}.unit")
    if unit_of(unit) != QUANTITIES[quantity]:
        raise _Invalid(f"{field}.unit", f"{quantity!r} is measured in {QUANTITIES[quantity]!r}, got {unit!r}")
    tolerance = _number(p.get("tolerance", TOLERANCE), f"{field}.tolerance")
    if not 0.0 < tolerance <= 1.0:
        raise _Invalid(f"{field}.tolerance", f"must be > 0 and <= 1 (a fraction: 0.05 is 5%), got {tolerance!r}")
    at = None
    if event in ("time", "height"):
        at = _number(_require(p, "at", field), f"{field}.at")
        if event == "time" and not at > 0:
            raise _Invalid(f"{field}.at", f"must be > 0 s, got {at!r}")
    elif "at" in p:
        raise _Invalid(f"{field}.at", f"is only for the events 'time' and 'height', not {event!r}")
    return Prediction(question, body, event, quantity, unit, tolerance, at)


def _flat(table, prefix=""):
    """(dotted path, value) of a setup table, in order: a quoted key is a whole path,
    an unquoted dotted one (bodies.ball.speed = 1) a nest of tables."""
    for key, value in table.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _flat(value, path + ".")
        else:
            yield path, value


def _param(value, names, field) -> str:
    param = _string(value, field)
    try:
        split_param(param, names)
    except ValueError as exc:
        raise _Invalid(field, str(exc)) from None
    return param


def _range(table, field):
    lo = _number(_require(table, "min", field), f"{field}.min")
    hi = _number(_require(table, "max", field), f"{field}.max")
    if not lo < hi:
        raise _Invalid(f"{field}.max", f"must be greater than min ({lo!r}), got {hi!r}")
    return lo, hi


def _positive(value, field) -> float:
    step = _number(value, field)
    if not step > 0:
        raise _Invalid(field, f"must be > 0, got {_show(value)}")
    return step


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, int) and abs(value) > 10 ** 30:
        return f"an integer of {len(str(abs(value)))} digits" if abs(value) < 10 ** 4000 else "a huge integer"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
