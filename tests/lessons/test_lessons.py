"""Every shipped lesson loads, runs headless and is complete; every prediction's answer
equals the textbook formula, computed here from the step's own numbers."""

import copy
import math

import numpy as np
import pytest

from classroom_sim import answer_key, commands, load_scene, read_param
from classroom_sim.cli import lesson_files, main

LESSONS = {p.stem: p for p in lesson_files()}


def test_at_least_twelve_lessons_across_five_topics():
    topics = {load_scene(p).lesson.topic for p in LESSONS.values()}
    assert len(LESSONS) >= 12 and len(topics - {""}) >= 5
    assert {"free_fall", "projectile", "collision_1d"} <= set(LESSONS)


@pytest.mark.parametrize("path", lesson_files(), ids=lambda p: p.stem)
def test_every_lesson_is_complete(path):
    lesson = load_scene(path).lesson
    assert lesson.title and lesson.summary and lesson.audience and lesson.topic
    assert len(lesson.steps) >= 2 and all(s.title and s.text.strip() for s in lesson.steps)
    assert len(lesson.predictions) >= 1 and lesson.controls
    assert all(p.question.endswith("?") or p.question.endswith(")") for _, p in lesson.predictions)


@pytest.mark.parametrize("path", lesson_files(), ids=lambda p: p.stem)
def test_every_lesson_runs_headless(path):
    w = load_scene(path)
    for _ in range(5 * 240):
        w.step(1 / 240)
    snap = w.snapshot()
    assert np.all(np.isfinite(snap.positions)) and np.all(np.isfinite(snap.velocities))
    if w.bounds is not None:
        xmin, ymin, xmax, ymax = w.bounds
        r = snap.radii
        assert np.all(snap.positions[:, 0] >= xmin + r - 1e-9) and np.all(snap.positions[:, 0] <= xmax - r + 1e-9)
        assert np.all(snap.positions[:, 1] >= ymin + r - 1e-9) and np.all(snap.positions[:, 1] <= ymax - r + 1e-9)


# -- the textbook, from each step's own numbers ----------------------------------------------------
# Each function gets the World the step starts from (the lesson's start with the step's setup) and
# returns the answer a student would compute with pencil and paper.

def _g(w):
    return -float(w.gravity[1])


def _drop(w, name):
    """How far the body's centre falls to the floor."""
    b = w.body(name)
    return float(b.position[1]) - b.radius - w.bounds[1]


def fall_time(name):
    return lambda w: math.sqrt(2 * _drop(w, name) / _g(w))


def fall_speed(name):
    return lambda w: math.sqrt(2 * _g(w) * _drop(w, name))


def rise(name):
    return lambda w: float(w.body(name).velocity[1]) ** 2 / (2 * _g(w))


def flight_time(name):  # launched from the floor, back to it
    return lambda w: 2 * float(w.body(name).velocity[1]) / _g(w)


def launch_range(name):  # launched from the floor: v² sin 2θ / g = 2 vx vy / g
    return lambda w: 2 * float(w.body(name).velocity[0]) * float(w.body(name).velocity[1]) / _g(w)


def ledge_range(name):
    return lambda w: float(w.body(name).velocity[0]) * fall_time(name)(w)


def pushed(name, t, what):
    """A body under its own constant acceleration: distance or speed after t s."""
    def answer(w):
        b = w.body(name)
        a, v0 = float(b.acceleration[0]), float(b.velocity[0])
        return v0 * t + 0.5 * a * t * t if what == "range" else v0 + a * t
    return answer


def uniform_x(name, t):
    return lambda w: float(w.body(name).position[0]) + float(w.body(name).velocity[0]) * t


def to_right_wall(name):
    b = lambda w: w.body(name)  # noqa: E731
    return lambda w: (w.bounds[2] - b(w).radius - float(b(w).position[0])) / float(b(w).velocity[0])


def one_d(a, b, which, what="vx"):
    """The 1D collision formula with the world's restitution, B at rest or moving."""
    def answer(w):
        A, B, e = w.body(a), w.body(b), w.restitution
        m1, m2, u1, u2 = A.mass, B.mass, float(A.velocity[0]), float(B.velocity[0])
        v1 = (m1 * u1 + m2 * u2 + m2 * e * (u2 - u1)) / (m1 + m2)
        v2 = (m1 * u1 + m2 * u2 + m1 * e * (u1 - u2)) / (m1 + m2)
        v = v1 if which == a else v2
        m = m1 if which == a else m2
        return {"vx": v, "speed": abs(v), "ke": 0.5 * m * v * v}[what]
    return answer


def bounce_top(name):
    """The centre's height at the top of the first bounce: floor level + e² × drop."""
    def answer(w):
        b = w.body(name)
        return w.bounds[1] + b.radius + w.wall_restitution ** 2 * _drop(w, name)
    return answer


def glancing(cue, target, what):
    def answer(w):
        c, t = w.body(cue), w.body(target)
        offset = float(t.position[1] - c.position[1])
        phi = math.asin(offset / (c.radius + t.radius))  # the line of centres at contact
        u = float(c.velocity[0])
        if what == "target angle":
            return math.degrees(phi)
        if what == "cue angle":
            return math.degrees(phi) - 90.0
        return u * math.cos(phi)
    return answer


ANSWERS = {
    "free_fall": [fall_time("ball"), fall_speed("ball"), fall_time("ball")],
    "heavy_light": [fall_time("heavy"), fall_time("light")],
    "thrown_up": [rise("ball"), flight_time("ball"), rise("ball")],
    "moon": [rise("ball"), rise("ball"), flight_time("ball")],
    "ledge": [fall_time("ball"), ledge_range("ball"), fall_time("ball")],
    "projectile": [launch_range("ball"), launch_range("ball"), launch_range("ball"), rise("ball")],
    "from_rest": [pushed("cart", 3.0, "range"), pushed("cart", 3.0, "speed"), pushed("cart", 3.0, "range")],
    "uniform": [uniform_x("puck", 4.0), to_right_wall("puck"), to_right_wall("puck")],
    "collision_1d": [one_d("A", "B", "B"), one_d("A", "B", "A"), one_d("A", "B", "B")],
    "equal_masses": [one_d("A", "B", "B"), one_d("A", "B", "A")],
    "inelastic": [one_d("A", "B", "B"), one_d("A", "B", "A", "ke")],
    "bouncing": [bounce_top("ball"), bounce_top("ball")],
    # Newton's cradle: touching equal balls pass the first ball's velocity down the row
    "cradle": [lambda w: abs(float(w.body("first").velocity[0])), lambda w: 0.0],
    "glancing": [glancing("cue", "target", "target angle"), glancing("cue", "target", "cue angle"),
                 glancing("cue", "target", "speed")],
}


def test_every_shipped_lesson_has_its_answers_checked_here():
    assert set(ANSWERS) == set(LESSONS)


@pytest.mark.parametrize("stem", sorted(ANSWERS))
def test_predictions_match_the_textbook(stem):
    world = load_scene(LESSONS[stem])
    lesson = world.lesson
    key = answer_key(world)
    formulas = ANSWERS[stem]
    assert len(key) == len(formulas) == len(lesson.predictions)
    for answer, formula in zip(key, formulas):
        expected = formula(lesson.prepare(world, answer.step))
        # constant accelerations: exact to rounding (events are solved, not sampled); a collision
        # is measured a hair (1e-11 of a radius of overlap) after the contact
        assert answer.value == pytest.approx(expected, rel=1e-9, abs=1e-9), (stem, answer)
        assert lesson.predictions[[k for k, _ in lesson.predictions].index(answer.step)][1].within(expected,
                                                                                                   answer.value)


def test_complementary_angles_land_together():
    key = answer_key(load_scene(LESSONS["projectile"]))
    assert key[1].value == pytest.approx(key[2].value, rel=1e-12)  # 30° and 60°
    assert key[0].value > key[1].value  # 45° goes farthest


def test_heavy_and_light_land_at_the_same_instant():
    key = answer_key(load_scene(LESSONS["heavy_light"]))
    assert key[0].value == pytest.approx(key[1].value, rel=1e-12)


def test_answers_command_prints_the_key(capsys):
    assert main(["answers", str(LESSONS["thrown_up"])]) == 0
    lines = capsys.readouterr().out.splitlines()
    w = load_scene(LESSONS["thrown_up"])
    v = float(w.body("ball").velocity[1])
    assert lines[0].startswith("steps[0] How high?: height = ") and lines[0].endswith(" s)")
    value = float(lines[0].split(" = ")[1].split()[0])
    assert value == pytest.approx(v * v / (2 * 9.81), rel=1e-12)


# -- per-student variants: each student's key is the textbook on that student's numbers -------------

VARIED = sorted(stem for stem, p in LESSONS.items() if load_scene(p).lesson.variants)


def test_at_least_three_lessons_have_variants():
    assert {"projectile", "ledge", "collision_1d"} <= set(VARIED)


@pytest.mark.parametrize("stem", VARIED)
def test_each_students_key_matches_the_textbook_on_the_students_numbers(stem):
    from classroom_sim.variants import grid, sheets

    world = load_scene(LESSONS[stem])
    drawn = set()
    for sheet in sheets(world, 6, seed=11):
        w, lesson = sheet.world, sheet.world.lesson
        for d in sheet.values:  # the student's numbers are the start of the student's world
            assert read_param(w.snapshot(), d.param) == pytest.approx(d.value, rel=1e-12, abs=1e-12)
            drawn.add(d.value)
        assert len(sheet.answers) == len(ANSWERS[stem])
        for answer, formula in zip(sheet.answers, ANSWERS[stem]):
            expected = formula(lesson.prepare(w, answer.step))
            assert answer.value == pytest.approx(expected, rel=1e-9, abs=1e-9), (stem, sheet.student, answer)
    assert len(drawn) > 1  # the students got different numbers
    # the ends of each grid keep every event inside the box (no wall in the way): the textbook holds
    for v in world.lesson.variants:
        for value in (grid(v)[0], grid(v)[-1]):
            w = lesson_with(world, v.param, value)
            for answer, formula in zip(answer_key(w), ANSWERS[stem]):
                expected = formula(w.lesson.prepare(w, answer.step))
                assert answer.value == pytest.approx(expected, rel=1e-9, abs=1e-9), (stem, v.param, value)


def lesson_with(world, param, value):
    w = copy.deepcopy(world)
    commands.SetParameter(param, value).apply(w)
    return w
