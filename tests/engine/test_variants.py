"""Per-student variants: reproducible, on their grid, independent of the class size, applied in
order like a setup, and refused with one line where they cannot be drawn."""

import math

import pytest

from classroom_sim import load_scene, loads_scene, read_param
from classroom_sim.lesson import Variant
from classroom_sim.params import param_unit, param_words
from classroom_sim.variants import (MAX_STUDENTS, VariantError, decimals, draw, grid, sheets,
                                    student_world)

SCENE = """
[lesson]
title = "t"

[world]
gravity = [0.0, -9.81]
bounds = [0.0, 0.0, 40.0, 20.0]

[[bodies]]
name = "ball"
mass = 1.0
radius = 0.25
position = [1.0, 0.25]
velocity = [6.0, 8.0]

[[steps]]
title = "s"
{setup}

[steps.predict]
question = "How far?"
body = "ball"
event = "floor"
quantity = "range"
unit = "m"

[[variants]]
param = "bodies.ball.speed"
min = 8.0
max = 14.0
step = 0.5

[[variants]]
param = "bodies.ball.angle"
min = 20.0
max = 70.0
step = 2.5
"""


def scene(setup=""):
    return loads_scene(SCENE.replace("{setup}", setup))


def values(lesson, seed, student):
    return [d.value for d in draw(lesson, seed, student)]


def test_the_same_seed_and_student_draw_the_same_values():
    lesson = scene().lesson
    assert values(lesson, 1, 7) == values(lesson, 1, 7) == values(scene().lesson, 1, 7)


def test_students_differ():
    lesson = scene().lesson
    drawn = [tuple(values(lesson, 1, s)) for s in range(1, 31)]
    assert len(set(drawn)) > 20  # 13 x 21 combinations: thirty students rarely share one
    assert len({d[0] for d in drawn}) > 5 and len({d[1] for d in drawn}) > 5
    assert values(lesson, 1, 3) != values(lesson, 2, 3) or values(lesson, 1, 4) != values(lesson, 2, 4)


def test_values_lie_on_their_grid_within_min_and_max():
    lesson = scene().lesson
    for s in range(1, 200):
        for d, v in zip(draw(lesson, 5, s), lesson.variants):
            assert v.min <= d.value <= v.max
            k = (d.value - v.min) / v.step
            assert k == pytest.approx(round(k), abs=1e-9)
            assert repr(d.value) == f"{d.value:.{d.decimals}f}" or d.decimals == 0


def test_every_grid_value_is_drawn_in_a_large_class():
    lesson = scene().lesson
    seen = {d[0].value for d in (draw(lesson, 1, s) for s in range(1, 500))}
    assert seen == set(grid(lesson.variants[0]))


def test_a_student_does_not_depend_on_the_class_size():
    world = scene()
    small, large = sheets(world, 5, seed=3), sheets(world, 40, seed=3)
    assert small[2].student == large[2].student == 3
    assert small[2].values == large[2].values
    assert [a.value for a in small[2].answers] == [a.value for a in large[2].answers]


def test_the_grid_prints_cleanly_and_includes_max_where_it_lands():
    assert grid(Variant("p", 0.1, 0.3, 0.1)) == [0.1, 0.2, 0.3]
    assert grid(Variant("p", 8.0, 9.0, 0.5)) == [8.0, 8.5, 9.0]
    assert grid(Variant("p", 1.0, 2.0, 0.3)) == [1.0, 1.3, 1.6, 1.9]  # 2.2 is past max
    assert grid(Variant("p", 0.0, 1.0, 0.7)) == [0.0, 0.7]
    assert decimals(0.25) == 2 and decimals(12.0) == 0 and decimals(1e-3) == 3 and decimals(8.5) == 1


def test_the_values_are_applied_in_order_and_become_the_start():
    world = scene()
    w, drawn = student_world(world, 1, 4)
    speed, angle = (d.value for d in drawn)
    snap = w.snapshot()
    # the angle set after the speed keeps the speed
    assert read_param(snap, "bodies.ball.speed") == pytest.approx(speed, rel=1e-12)
    assert read_param(snap, "bodies.ball.angle") == pytest.approx(angle, abs=1e-9)
    assert w.lesson.variants == () and w.lesson.steps == world.lesson.steps
    assert read_param(world.snapshot(), "bodies.ball.speed") == 10.0  # the lesson itself is unchanged
    # the key is the student's: range v² sin 2θ / g from the floor
    (answer,) = sheets(world, 4, 1)[3].answers
    assert answer.value == pytest.approx(speed ** 2 * math.sin(math.radians(2 * angle)) / 9.81, rel=1e-9)


def test_the_files_own_numbers_without_a_class():
    world = scene()
    (sheet,) = sheets(world)
    assert sheet.student is None and sheet.values == () and sheet.world is world
    assert sheet.answers[0].value == pytest.approx(2 * 6.0 * 8.0 / 9.81, rel=1e-9)  # 2 vx vy / g


def test_a_value_reads_as_a_teacher_writes_it():
    lesson = load_scene("lessons/projectile.toml").lesson
    (d,) = draw(lesson, 1, 1)
    assert d.text == f"Launch speed = {d.value:.1f} m/s"  # the control's label, without "(m/s)"
    (d,) = draw(scene().lesson, 1, 1)[:1]
    assert d.text.startswith("ball speed = ") and d.text.endswith(" m/s")
    assert param_words("bodies.A.velocity.x") == "A velocity (x)" and param_words("world.gravity.y") == "gravity (y)"
    assert param_unit("bodies.A.mass") == "kg" and param_unit("world.restitution") == ""


@pytest.mark.parametrize("students, seed, field", [
    (0, 1, "students"), (-3, 1, "students"), (MAX_STUDENTS + 1, 1, "students"), (2.5, 1, "students"),
    (3, -1, "seed"), (3, 1.5, "seed"), (3, "1", "seed"), (True, 1, "students"),
])
def test_bad_class_sizes_and_seeds_are_one_line(students, seed, field):
    with pytest.raises(VariantError) as err:
        sheets(scene(), students, seed)
    assert str(err.value).startswith(f"{field}: ") and "\n" not in str(err.value)


def test_a_student_number_below_one_is_refused():
    with pytest.raises(VariantError, match="^student: must be a whole number >= 1, got 0$"):
        draw(scene().lesson, 1, 0)


def test_a_lesson_without_variants_gets_no_class():
    world = load_scene("lessons/free_fall.toml")
    with pytest.raises(VariantError, match="no \\[\\[variants\\]\\]"):
        sheets(world, 3)
    assert len(sheets(world)) == 1


def test_a_setup_that_overwrites_a_variant_is_named():
    world = scene('setup = { "bodies.ball.speed" = 10.0 }')
    with pytest.raises(VariantError, match=r"^variants\[0\]\.param: steps\[0\]\.setup sets 'bodies.ball.speed'"):
        sheets(world, 2)


def test_a_value_the_scene_cannot_take_is_named():
    world = loads_scene(SCENE.replace("{setup}", "").replace('param = "bodies.ball.angle"',
                                                             'param = "bodies.ball.position.y"'))
    with pytest.raises(VariantError, match=r"^variants\[1\]: student \d+ \(seed 1\) drew "):
        sheets(world, 5)


def test_an_event_that_never_happens_names_the_student():
    text = SCENE.replace("{setup}", "").replace('event = "floor"', 'event = "collision"')
    with pytest.raises(VariantError, match=r"^student 1: steps\[0\]\.predict\.event: "):
        sheets(loads_scene(text), 2)


def test_a_fine_step_over_a_wide_range_is_drawn_without_making_its_grid():
    from dataclasses import replace

    import time

    lesson = scene().lesson
    fine = replace(lesson, variants=(Variant("bodies.ball.velocity.x", 0.0, 100.0, 1e-9),))  # 1e11 values
    began = time.perf_counter()
    values = [draw(fine, 1, s)[0].value for s in range(1, 31)]
    assert time.perf_counter() - began < 1.0
    assert all(0.0 <= v <= 100.0 and v == round(v, 9) for v in values) and len(set(values)) == 30
    coarse = lesson.variants[0]  # and the values are those the grid has
    assert {draw(lesson, 7, s)[0].value for s in range(1, 60)} <= set(grid(coarse))
