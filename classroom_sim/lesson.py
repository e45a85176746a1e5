"""The lesson model: what a scene's ``[lesson]``, ``[[controls]]``, ``[[steps]]`` and
``[[variants]]`` say (SCENE_FORMAT.md, "Lesson"), as frozen values.

`scene` parses and validates them; a World carries its Lesson (``world.lesson``)
and keeps it true when a body is renamed or removed; `Lesson.prepare` builds
the World a step starts from. Units: those of the parameter paths (`params`).
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field, replace

from .params import param_body

EVENTS = ("apex", "floor", "wall", "collision", "height", "time")
"""When a prediction is measured (see `events`)."""

QUANTITIES = {"time": "s", "x": "m", "y": "m", "range": "m", "height": "m", "vx": "m/s", "vy": "m/s",
              "speed": "m/s", "angle": "°", "ke": "J", "px": "kg·m/s", "py": "kg·m/s"}
"""What a prediction measures, and its unit."""

UNIT_SPELLINGS = {"kg m/s": "kg·m/s", "deg": "°"}
"""Other ways of writing a unit, and the unit they mean."""

TOLERANCE = 0.05
"""A prediction within this fraction of the measured value counts as right, by default."""


def unit_of(text: str) -> str:
    """The unit ``text`` writes (``"kg m/s"`` -> ``"kg·m/s"``)."""
    return UNIT_SPELLINGS.get(text, text)


@dataclass(frozen=True)
class Control:
    """A number the students may change live: ``param`` (a parameter path) from
    ``min`` to ``max``, in slider steps of ``step`` (None: the panel chooses)."""

    label: str
    param: str
    min: float
    max: float
    step: float | None = None

    def clamp(self, value: float) -> float:
        """``value`` held within min..max."""
        return min(max(float(value), self.min), self.max)


@dataclass(frozen=True)
class Prediction:
    """A number the class predicts: ``quantity`` of ``body`` at ``event`` (with ``at``
    for the events "time" and "height"), in ``unit``."""

    question: str
    body: str
    event: str
    quantity: str
    unit: str
    tolerance: float = TOLERANCE
    at: float | None = None

    def within(self, predicted: float, measured: float) -> bool:
        """Whether ``predicted`` is within the tolerance of ``measured``: a fraction of
        it, or, where the measured value is 0, that many units."""
        if not (math.isfinite(predicted) and math.isfinite(measured)):
            return False
        scale = abs(measured) if measured != 0.0 else 1.0
        return abs(predicted - measured) <= self.tolerance * scale * (1.0 + 1e-12)


@dataclass(frozen=True)
class Step:
    """One step of a guided lesson: its text (Markdown), the labels of the controls
    it shows (None: all), the parameter values it sets on entry, in order, and
    the prediction it asks for."""

    title: str
    text: str = ""
    controls: tuple | None = None
    setup: tuple = ()
    predict: Prediction | None = None


@dataclass(frozen=True)
class Variant:
    """One parameter drawn per student from min, min + step, ... up to max."""

    param: str
    min: float
    max: float
    step: float


@dataclass(frozen=True)
class Lesson:
    """A scene's lesson: what the lesson panel shows."""

    title: str
    summary: str = ""
    audience: str = ""
    topic: str = ""
    student: bool = False
    controls: tuple = ()
    steps: tuple = ()
    variants: tuple = field(default=())

    def control(self, label: str) -> Control:
        """The control with this label; KeyError if there is none."""
        for c in self.controls:
            if c.label == label:
                return c
        raise KeyError(f"no control labelled {label!r}")

    def step_controls(self, k: int) -> tuple:
        """The controls step ``k`` shows, in file order."""
        shown = self.steps[k].controls
        return self.controls if shown is None else tuple(c for c in self.controls if c.label in shown)

    @property
    def predictions(self) -> tuple:
        """(k, prediction) for every step that asks for one."""
        return tuple((k, s.predict) for k, s in enumerate(self.steps) if s.predict is not None)

    def prepare(self, start, k: int | None = None, values=None):
        """A new World for step ``k``: a copy of ``start`` (the lesson's start, as
        loaded; not changed), with the step's setup applied in order, then
        ``values`` ({parameter path: value}, each held within its control's range).
        CommandError if a value cannot be set."""
        from .commands import SetParameter

        world = copy.deepcopy(start)
        if k is not None:
            for param, value in self.steps[k].setup:
                SetParameter(param, value).apply(world)
        ranges = {c.param: c for c in self.controls}
        for param, value in (values or {}).items():
            if param in ranges:
                value = ranges[param].clamp(value)
            SetParameter(param, value).apply(world)
        return world

    # -- keeping the lesson true to its bodies ----------------------------------------------------
    def without_body(self, name: str) -> Lesson:
        """This lesson without what names the body ``name``: its controls (and their
        labels in the steps' lists), its setup entries, its predictions and variants."""
        gone = {c.label for c in self.controls if param_body(c.param) == name}
        steps = tuple(replace(
            s,
            controls=None if s.controls is None else tuple(c for c in s.controls if c not in gone),
            setup=tuple((p, v) for p, v in s.setup if param_body(p) != name),
            predict=None if s.predict is not None and s.predict.body == name else s.predict,
        ) for s in self.steps)
        return replace(self, controls=tuple(c for c in self.controls if c.label not in gone), steps=steps,
                       variants=tuple(v for v in self.variants if param_body(v.param) != name))

    def renamed(self, old: str, new: str) -> Lesson:
        """This lesson with the body ``old`` called ``new`` in every path and prediction."""
        def path(p):
            if param_body(p) != old:
                return p
            return f"bodies.{new}." + p[len(f"bodies.{old}."):]

        steps = tuple(replace(
            s,
            setup=tuple((path(p), v) for p, v in s.setup),
            predict=(replace(s.predict, body=new) if s.predict is not None and s.predict.body == old
                     else s.predict),
        ) for s in self.steps)
        return replace(self, controls=tuple(replace(c, param=path(c.param)) for c in self.controls), steps=steps,
                       variants=tuple(replace(v, param=path(v.param)) for v in self.variants))
