"""Saving a World as a scene file (SCENE_FORMAT.md, format 1): `save_scene` writes a
file that `scene.load_scene` loads back into the same World."""

from __future__ import annotations

import copy
import json
import math

from .accelerations import ConstantAcceleration
from .body import FIXED
from .commands import CommandError, SetParameter
from .files import write_atomically
from .scene import FORMAT
from .world import World


def save_scene(world: World, path) -> None:
    """Write ``world`` (its current state, including live edits) as a scene file, atomically."""
    text = dumps_scene(world)
    write_atomically(path, lambda f: f.write(text))


def dumps_scene(world: World) -> str:
    """The scene file text for ``world``."""
    lines = [f"format = {FORMAT}", ""]
    lesson = world.lesson
    if lesson is not None:
        lines.append("[lesson]")
        for key in ("title", "summary", "audience", "topic"):
            if getattr(lesson, key) or key == "title":
                lines.append(f"{key} = {_toml(getattr(lesson, key))}")
        if lesson.student:
            lines.append("student = true")
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
    if lesson is not None:
        lines += _lesson_lines(_loadable(lesson, world))
    return "\n".join(lines) + "\n"


def _loadable(lesson, world):
    """``lesson`` without the setup entries ``world`` can no longer take (a launch speed
    for a body since fixed, a position outside a box since shrunk): a saved scene
    always loads again."""
    from dataclasses import replace

    steps = []
    for step in lesson.steps:
        if not step.setup:
            steps.append(step)
            continue
        trial, kept = copy.deepcopy(world), []
        for param, value in step.setup:
            try:
                SetParameter(param, value).apply(trial)
                kept.append((param, value))
            except CommandError:
                pass
        steps.append(replace(step, setup=tuple(kept)))
    return replace(lesson, steps=tuple(steps))


def _lesson_lines(lesson) -> list:
    lines = []
    for c in lesson.controls:
        lines += ["", "[[controls]]", f"label = {_toml(c.label)}", f"param = {_toml(c.param)}",
                  f"min = {_toml(c.min)}", f"max = {_toml(c.max)}"]
        if c.step is not None:
            lines.append(f"step = {_toml(c.step)}")
    for s in lesson.steps:
        lines += ["", "[[steps]]", f"title = {_toml(s.title)}"]
        if s.text:
            lines.append(f"text = {_toml(s.text)}")
        if s.controls is not None:
            lines.append(f"controls = {_toml(list(s.controls))}")
        if s.setup:
            lines.append("setup = { " + ", ".join(f"{_toml(p)} = {_toml(v)}" for p, v in s.setup) + " }")
        p = s.predict
        if p is not None:
            lines += ["", "[steps.predict]", f"question = {_toml(p.question)}", f"body = {_toml(p.body)}",
                      f"event = {_toml(p.event)}", f"quantity = {_toml(p.quantity)}", f"unit = {_toml(p.unit)}",
                      f"tolerance = {_toml(p.tolerance)}"]
            if p.at is not None:
                lines.append(f"at = {_toml(p.at)}")
    for v in lesson.variants:
        lines += ["", "[[variants]]", f"param = {_toml(v.param)}", f"min = {_toml(v.min)}", f"max = {_toml(v.max)}",
                  f"step = {_toml(v.step)}"]
    return lines


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
