"""Per-student variants: each student's own numbers for a lesson's ``[[variants]]``.

Student s (1, 2, ...) of seed S gets, for each variant in file order, a value from
its grid min, min + step, ... up to max, drawn by a generator seeded with (S, s)
alone: the same on every machine, whatever the class size. `student_world` is
that student's scene (the drawn values as its start, no ``[[variants]]``) and
`sheets` the whole class with each student's answer key, for the ``variants`` and
``worksheet`` commands and the lesson panel's student box. Units: those of the
parameter paths (`params`).
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, replace
from decimal import Decimal

import numpy as np

from .commands import CommandError, SetParameter
from .events import EventError, answer_key
from .params import param_unit, param_words

MAX_STUDENTS = 1000
"""The most students one class of worksheets has (more is a typo: the files and pages add up)."""

GRID_SLACK = 1e-9
"""Of a step: how far past ``max`` the last grid value may land and still count, so that
min = 0.1, step = 0.1, max = 0.3 gives three values whatever binary rounding does."""


class VariantError(ValueError):
    """Variants that cannot be drawn: the message is one line naming the field."""


@dataclass(frozen=True)
class Drawn:
    """One variant's value for a student: ``param`` (a parameter path), ``value`` (rounded
    to the grid's decimals), ``label`` (what a worksheet calls it), ``unit`` and
    ``decimals`` (how many the grid's numbers have)."""

    param: str
    value: float
    label: str
    unit: str
    decimals: int

    @property
    def text(self) -> str:
        """As a worksheet writes it: ``"Launch speed = 9.5 m/s"``."""
        return f"{self.label} = {self.value:.{self.decimals}f} {self.unit}".rstrip()


@dataclass(frozen=True)
class Sheet:
    """One student's worksheet: ``student`` (None: the file's own numbers), ``seed``, the
    drawn values (`Drawn`, in file order), the student's World and its answers (`Answer`)."""

    student: int | None
    seed: int
    values: tuple
    world: object
    answers: tuple


def decimals(number: float) -> int:
    """How many decimals ``number`` is written with (0.25 -> 2, 12.0 -> 0, 1e-3 -> 3)."""
    exponent = Decimal(repr(float(number))).normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def grid_size(variant) -> int:
    """How many values ``variant`` can take (see `grid`)."""
    return math.floor((variant.max - variant.min) / variant.step + GRID_SLACK) + 1


def grid_value(variant, k: int) -> float:
    """The k-th value of ``variant``'s grid (see `grid`), without making the grid: a fine
    step over a wide range has more values than memory holds."""
    places = max(decimals(variant.min), decimals(variant.step))
    return min(round(variant.min + k * variant.step, places), variant.max)


def grid(variant) -> list:
    """Every value ``variant`` can take: min + k * step up to max, each rounded to the
    decimals of min and step, so that 8.5 is 8.5 and not 8.500000000000002."""
    return [grid_value(variant, k) for k in range(grid_size(variant))]


def check_class(students: int | None = None, seed: int = 1) -> None:
    """VariantError unless ``students`` (if given) is a whole number from 1 to MAX_STUDENTS
    and ``seed`` a whole number >= 0."""
    if students is not None and (isinstance(students, bool) or not isinstance(students, int)
                                 or not 1 <= students <= MAX_STUDENTS):
        raise VariantError(f"students: must be a whole number from 1 to {MAX_STUDENTS}, got {students!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise VariantError(f"seed: must be a whole number >= 0, got {seed!r}")


def _pick(bits: np.random.PCG64, count: int) -> int:
    """A whole number 0 <= k < count, each equally likely, from the raw 64-bit outputs of
    ``bits`` (bit generators give the same stream in every numpy version; Generator's
    methods may not)."""
    span = 1 << 64
    limit = span - span % count  # (above it, k = raw % count would favour the small k)
    while True:
        raw = int(bits.random_raw())
        if raw < limit:
            return raw % count


def _label(lesson, param: str) -> str:
    """What a worksheet calls a varied parameter: its control's label without the unit in
    brackets ("Launch speed (m/s)" -> "Launch speed"), else its words ("ball speed")."""
    for c in lesson.controls:
        if c.param == param:
            label = c.label.strip()
            if label.endswith(")") and " (" in label:
                label = label[:label.rindex(" (")].strip()
            return label or param_words(param)
    return param_words(param)


def check_variants(lesson) -> None:
    """VariantError if a step's setup sets a varied parameter again: the drawn value would
    be lost in that step, and the student's numbers would not be the student's."""
    for k, v in enumerate(lesson.variants):
        for j, step in enumerate(lesson.steps):
            if any(param == v.param for param, _ in step.setup):
                raise VariantError(f"variants[{k}].param: steps[{j}].setup sets {v.param!r} too, so that step "
                                   f"would lose the student's value (leave it out of the setup)")


def draw(lesson, seed: int, student: int) -> tuple:
    """Student ``student``'s values of seed ``seed``: a `Drawn` for each of the lesson's
    variants, in file order. VariantError for a student < 1 or a seed < 0."""
    check_class(None, seed)
    if isinstance(student, bool) or not isinstance(student, (int, np.integer)) or student < 1:
        raise VariantError(f"student: must be a whole number >= 1, got {student!r}")
    bits = np.random.PCG64(np.random.SeedSequence([int(seed), int(student)]))
    out = []
    for v in lesson.variants:
        out.append(Drawn(v.param, grid_value(v, _pick(bits, grid_size(v))), _label(lesson, v.param), param_unit(v.param),
                         max(decimals(v.min), decimals(v.step))))
    return tuple(out)


def student_world(world, seed: int, student: int):
    """(the student's World, their `Drawn` values): a copy of ``world`` (not changed) with
    the values set in order, as a step's setup is (an angle after a speed works), as its
    start, and a lesson without variants: what its scene file, written and read again,
    holds. VariantError naming the variant if a value cannot be set."""
    from .saving import dumps_scene
    from .scene import loads_scene

    lesson = world.lesson
    if lesson is None or not lesson.variants:
        raise VariantError("variants: the lesson has no [[variants]]: there are no student's numbers to draw")
    check_variants(lesson)
    values = draw(lesson, seed, student)
    out = copy.deepcopy(world)
    for k, d in enumerate(values):
        try:
            SetParameter(d.param, d.value).apply(out)
        except CommandError as exc:
            raise VariantError(f"variants[{k}]: student {student} (seed {seed}) drew {d.value!r}, which the "
                               f"scene cannot take: {str(exc).removeprefix(f'{d.param}: ')}") from None
    out.lesson = replace(lesson, variants=())
    # (through the file's text: the key is then exactly what `answers` says of the student's file)
    return loads_scene(dumps_scene(out), f"student {student}"), values


def _answers(world, student) -> tuple:
    try:
        return tuple(answer_key(world))
    except EventError as exc:
        who = "" if student is None else f"student {student}: "
        raise VariantError(f"{who}{exc}") from None


def sheets(world, students: int | None = None, seed: int = 1) -> list:
    """Each student's `Sheet`, students 1..``students``; one with the file's own numbers
    (student None, no values) if ``students`` is None. VariantError, one line, for a bad
    count or seed, a lesson without variants given a class, or an event that never happens."""
    check_class(students, seed)
    lesson = world.lesson
    if students is None:
        return [Sheet(None, seed, (), world, _answers(world, None))]
    if lesson is None or not lesson.variants:
        raise VariantError("variants: the lesson has no [[variants]], so every student would get the same "
                           "numbers (add [[variants]], or leave out the number of students)")
    out = []
    for s in range(1, students + 1):
        w, values = student_world(world, seed, s)
        out.append(Sheet(s, seed, values, w, _answers(w, s)))
    return out
