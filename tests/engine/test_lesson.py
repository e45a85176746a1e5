"""The lesson model: parsing, validation messages that name the field, saving back,
and keeping the lesson true when a body is renamed or removed; speed and angle paths."""

import math

import pytest

from classroom_sim import CommandError, SceneError, commands, dumps_scene, load_scene, loads_scene, read_param
from classroom_sim.cli import main
from classroom_sim.lesson import Control, Prediction, Step, Variant

SCENE = """
format = 1

[lesson]
title = "Launch"
summary = "A ball and a post."
audience = "ages 14-16"
topic = "Projectiles"

[world]
gravity = [0.0, -9.81]
bounds = [0.0, 0.0, 30.0, 10.0]

[[bodies]]
name = "ball"
mass = 0.5
radius = 0.25
position = [1.0, 0.25]
velocity = [3.0, 4.0]

[[bodies]]
name = "post"
mass = "fixed"
radius = 0.5
position = [20.0, 0.5]

[[controls]]
label = "Angle"
param = "bodies.ball.angle"
min = 0.0
max = 90.0
step = 1.0

[[controls]]
label = "Post x"
param = "bodies.post.position.x"
min = 5.0
max = 25.0

[[steps]]
title = "First"
text = "Go."
controls = ["Angle", "Post x"]
setup = { "bodies.ball.speed" = 10.0, "bodies.post.position.x" = 12.0, "bodies.ball.angle" = 30.0 }

[steps.predict]
question = "How far?"
body = "ball"
event = "floor"
quantity = "range"
unit = "m"

[[steps]]
title = "Second"

[steps.predict]
question = "When does it hit the post?"
body = "post"
event = "time"
at = 1.5
quantity = "x"
unit = "m"
tolerance = 0.1

[[variants]]
param = "bodies.ball.speed"
min = 8.0
max = 14.0
step = 0.5
"""


def test_a_lesson_parses_into_frozen_values():
    lesson = loads_scene(SCENE).lesson
    assert (lesson.title, lesson.summary, lesson.audience, lesson.topic, lesson.student) == \
        ("Launch", "A ball and a post.", "ages 14-16", "Projectiles", False)
    assert lesson.controls == (Control("Angle", "bodies.ball.angle", 0.0, 90.0, 1.0),
                               Control("Post x", "bodies.post.position.x", 5.0, 25.0, None))
    first = lesson.steps[0]
    assert first.setup == (("bodies.ball.speed", 10.0), ("bodies.post.position.x", 12.0), ("bodies.ball.angle", 30.0))
    assert first.predict == Prediction("How far?", "ball", "floor", "range", "m", 0.05, None)
    assert lesson.steps[1] == Step("Second", "", None, (),
                                   Prediction("When does it hit the post?", "post", "time", "x", "m", 0.1, 1.5))
    assert lesson.variants == (Variant("bodies.ball.speed", 8.0, 14.0, 0.5),)
    assert lesson.step_controls(1) == lesson.controls and [c.label for c in lesson.step_controls(0)] == ["Angle",
                                                                                                     "Post x"]
    with pytest.raises(AttributeError):
        lesson.title = "other"


def test_prepare_applies_the_setup_in_order_and_leaves_the_start_alone():
    start = loads_scene(SCENE)
    world = start.lesson.prepare(start, 0)
    ball = world.body("ball")
    # speed 10 first (along the starting direction), then the angle: 10 m/s at 30°
    assert ball.velocity == pytest.approx([10 * math.cos(math.radians(30)), 10 * math.sin(math.radians(30))])
    assert world.body("post").position[0] == 12.0
    assert list(start.body("ball").velocity) == [3.0, 4.0] and start.body("post").position[0] == 20.0
    # control values are held within their ranges
    world = start.lesson.prepare(start, 0, {"bodies.ball.angle": 120.0, "bodies.post.position.x": 1.0})
    assert read_param(world.snapshot(), "bodies.ball.angle") == pytest.approx(90.0)
    assert world.body("post").position[0] == 5.0


def test_speed_and_angle_paths():
    w = loads_scene(SCENE)
    commands.SetParameter("bodies.ball.angle", 90.0).apply(w)
    assert w.body("ball").velocity == pytest.approx([0.0, 5.0], abs=1e-12)  # keeps the speed, 5 m/s
    commands.SetParameter("bodies.ball.speed", 2.0).apply(w)
    assert w.body("ball").velocity == pytest.approx([0.0, 2.0], abs=1e-12)  # keeps the direction
    commands.SetParameter("bodies.ball.speed", 0.0).apply(w)
    commands.SetParameter("bodies.ball.angle", 135.0).apply(w)  # at rest: remembered...
    assert read_param(w.snapshot(), "bodies.ball.angle") == 135.0
    commands.SetParameter("bodies.ball.speed", math.sqrt(2)).apply(w)  # ...and used by the next speed
    assert w.body("ball").velocity == pytest.approx([-1.0, 1.0], abs=1e-12)
    commands.SetVelocity("ball", (-1.0, -0.0)).apply(w)
    assert read_param(w.snapshot(), "bodies.ball.angle") == 180.0  # in (-180, 180]
    commands.SetVelocity("ball", (0.0, -2.0)).apply(w)
    assert read_param(w.snapshot(), "bodies.ball.angle") == -90.0
    fresh = loads_scene(SCENE.replace("velocity = [3.0, 4.0]", "velocity = [0.0, 0.0]"))
    commands.SetParameter("bodies.ball.speed", 3.0).apply(fresh)  # never given an angle: along +x
    assert fresh.body("ball").velocity == pytest.approx([3.0, 0.0])
    with pytest.raises(CommandError, match=r"bodies.ball.speed: must be >= 0"):
        commands.SetParameter("bodies.ball.speed", -1.0).apply(w)
    with pytest.raises(CommandError, match=r"bodies.post.speed"):
        commands.SetParameter("bodies.post.speed", 1.0).apply(w)  # a fixed body cannot move


def test_saved_lessons_load_back_equal():
    w = loads_scene(SCENE)
    back = loads_scene(dumps_scene(w))
    assert back.lesson == w.lesson
    assert dumps_scene(back) == dumps_scene(w)


def test_removing_a_body_drops_what_names_it_and_the_file_still_loads():
    w = loads_scene(SCENE)
    commands.RemoveBody("post").apply(w)
    lesson = w.lesson
    assert [c.label for c in lesson.controls] == ["Angle"]
    assert lesson.steps[0].controls == ("Angle",)
    assert lesson.steps[0].setup == (("bodies.ball.speed", 10.0), ("bodies.ball.angle", 30.0))
    assert lesson.steps[1].predict is None and lesson.steps[0].predict is not None
    back = loads_scene(dumps_scene(w))
    assert back.lesson == lesson
    commands.RemoveBody("ball").apply(back)
    assert back.lesson.variants == () and back.lesson.controls == ()
    assert loads_scene(dumps_scene(back)).lesson == back.lesson


def test_renaming_a_body_renames_it_everywhere():
    w = loads_scene(SCENE)
    commands.RenameBody("ball", "shot").apply(w)
    lesson = w.lesson
    assert lesson.controls[0].param == "bodies.shot.angle" and lesson.variants[0].param == "bodies.shot.speed"
    assert lesson.steps[0].setup[0] == ("bodies.shot.speed", 10.0) and lesson.steps[0].predict.body == "shot"
    assert w.names == ("shot", "post") and w.body("shot").mass == 0.5
    back = loads_scene(dumps_scene(w))
    assert back.lesson == lesson
    with pytest.raises(CommandError, match=r"bodies.shot.name: 'post' is used by another body"):
        commands.RenameBody("shot", "post").apply(w)
    with pytest.raises(CommandError, match=r"body: there is no body named 'ball'"):
        commands.RenameBody("ball", "x").apply(w)


def _with(old, new):
    assert old in SCENE
    return SCENE.replace(old, new, 1)


BAD = [
    (_with('label = "Post x"', 'label = "Angle"'), "controls[1].label: 'Angle' is used by another control"),
    (_with('controls = ["Angle", "Post x"]', 'controls = ["Angle", "Speed"]'),
     "steps[0].controls[1]: 'Speed' is not the label of a control"),
    (_with('"bodies.ball.speed" = 10.0', '"bodies.ball.pace" = 10.0'),
     'steps[0].setup."bodies.ball.pace": \'bodies.ball.pace\' names no number'),
    (_with('"bodies.post.position.x" = 12.0', '"bodies.post.position.x" = 40.0'),
     'steps[0].setup."bodies.post.position.x": (40.0, 0.5) with radius 0.5 is not inside the box'),
    (_with('body = "ball"', 'body = "bal"'), "steps[0].predict.body: there is no body named 'bal'"),
    (_with('event = "floor"', 'event = "landing"'), "steps[0].predict.event: must be one of 'apex', 'floor'"),
    (_with('quantity = "range"', 'quantity = "distance"'), "steps[0].predict.quantity: must be one of 'time', 'x'"),
    (_with('unit = "m"', 'unit = "cm"'), "steps[0].predict.unit: 'range' is measured in 'm', got 'cm'"),
    (_with('question = "How far?"\n', ''), "steps[0].predict.question: missing"),
    (_with("at = 1.5\n", ""), "steps[1].predict.at: missing"),
    (_with('quantity = "range"', 'quantity = "range"\nat = 2.0'),
     "steps[0].predict.at: is only for the events 'time' and 'height'"),
    (_with("tolerance = 0.1", "tolerance = 0.0"), "steps[1].predict.tolerance: must be > 0 and <= 1"),
    (_with("tolerance = 0.1", "tolerance = 1.5"), "steps[1].predict.tolerance: must be > 0 and <= 1"),
    (_with("bounds = [0.0, 0.0, 30.0, 10.0]\n", ""), "steps[0].predict.event: 'floor' needs walls"),
    (_with("max = 14.0", "max = 8.0"), "variants[0].max: must be greater than min (8.0), got 8.0"),
    (_with("step = 0.5", "step = 0.0"), "variants[0].step: must be > 0"),
    (_with("step = 0.5\n", ""), "variants[0].step: missing"),
    (_with('student = false' if 'student = false' in SCENE else 'topic = "Projectiles"',
           'topic = "Projectiles"\nstudent = "yes"'), 'lesson.student: must be true or false, got \'yes\''),
    (_with('[lesson]\ntitle = "Launch"\nsummary = "A ball and a post."\naudience = "ages 14-16"\n'
           'topic = "Projectiles"\n', ''), "lesson.title: missing"),
    (_with('event = "floor"', 'event = "floor"\nwhen = 3'), "steps[0].predict.when: unknown field"),
]


@pytest.mark.parametrize("text, message", BAD, ids=[m.split(":")[0] + f"-{k}" for k, (_, m) in enumerate(BAD)])
def test_each_bad_field_gets_one_line_naming_it(text, message):
    with pytest.raises(SceneError) as caught:
        loads_scene(text, "lesson.toml")
    line = str(caught.value)
    assert line.startswith("lesson.toml: ") and "\n" not in line
    assert message in line


def test_units_may_be_written_two_ways():
    text = _with('quantity = "range"\nunit = "m"', 'quantity = "px"\nunit = "kg m/s"')
    assert loads_scene(text).lesson.steps[0].predict.unit == "kg m/s"
    text = _with('quantity = "range"\nunit = "m"', 'quantity = "angle"\nunit = "deg"')
    assert loads_scene(text).lesson.steps[0].predict.quantity == "angle"


def test_validate_prints_one_line_for_a_bad_lesson(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(_with('unit = "m"', 'unit = "s"'), encoding="utf-8")
    assert main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{bad}: steps[0].predict.unit: 'range' is measured in 'm', got 's'"]


# -- more of the model: the rules not listed above, the file's name in messages, save edge cases -------------

BAD_MORE = [
    (_with('event = "time"\nat = 1.5', 'event = "height"'), "steps[1].predict.at: missing"),
    (_with('event = "floor"', 'event = "apex"\nat = 2.0'),
     "steps[0].predict.at: is only for the events 'time' and 'height', not 'apex'"),
    (_with('event = "floor"', 'event = "wall"').replace("bounds = [0.0, 0.0, 30.0, 10.0]\n", ""),
     "steps[0].predict.event: 'wall' needs walls"),
    (_with("at = 1.5", "at = 0.0"), "steps[1].predict.at: must be > 0 s, got 0.0"),
    (_with("max = 14.0", "max = 7.5"), "variants[0].max: must be greater than min (8.0), got 7.5"),
    (_with("step = 0.5", "step = -0.5"), "variants[0].step: must be > 0"),
    (_with('param = "bodies.ball.speed"', 'param = "bodies.ball.spin"'), "variants[0].param: 'bodies.ball.spin'"),
    (_with("step = 0.5", "step = 0.5\nseed = 3"), "variants[0].seed: unknown field"),
    (_with("max = 90.0", "max = 0.0"), "controls[0].max: must be greater than min (0.0), got 0.0"),
    (_with("step = 1.0", "step = 0.0"), "controls[0].step: must be > 0"),
    (_with('param = "bodies.ball.angle"', 'param = "bodies.bal.angle"'), "controls[0].param: 'bodies.bal.angle'"),
    (_with('controls = ["Angle", "Post x"]', 'controls = "Angle"'), "steps[0].controls: must be a list"),
    (_with('"bodies.ball.speed" = 10.0', '"bodies.post.speed" = 1.0'),
     'steps[0].setup."bodies.post.speed": a fixed body cannot move'),
    (_with('"bodies.ball.speed" = 10.0', '"bodies.ball.mass" = 0.0'), 'steps[0].setup."bodies.ball.mass": must be > 0'),
    (_with('"bodies.ball.speed" = 10.0', '"bodies.ball.speed" = "fast"'),
     'steps[0].setup."bodies.ball.speed": must be a number'),
    (_with('unit = "m"', 'unit = "kg*m/s"'), "steps[0].predict.unit: 'range' is measured in 'm', got 'kg*m/s'"),
    (_with('question = "How far?"', 'question = "  "'), "steps[0].predict.question: must not be empty"),
    # [[steps]] (or [[controls]], [[variants]]) without a [lesson] table: the error names lesson.title
    ('[[bodies]]\nname = "b"\nmass = 1.0\nradius = 0.5\nposition = [0.0, 0.0]\n\n[[steps]]\ntitle = "Alone"\n',
     "lesson.title: missing"),
    ('[[bodies]]\nname = "b"\nmass = 1.0\nradius = 0.5\nposition = [0.0, 0.0]\n\n'
     '[[variants]]\nparam = "bodies.b.mass"\nmin = 1.0\nmax = 2.0\nstep = 0.5\n', "lesson.title: missing"),
]


@pytest.mark.parametrize("text, message", BAD_MORE,
                         ids=[m.split(":")[0] + f"-{k}" for k, (_, m) in enumerate(BAD_MORE)])
def test_more_bad_fields_get_one_line_naming_them(text, message):
    with pytest.raises(SceneError) as caught:
        loads_scene(text, "lesson.toml")
    line = str(caught.value)
    assert line.startswith("lesson.toml: ") and "\n" not in line
    assert message in line


def test_the_quantity_message_lists_every_quantity():
    with pytest.raises(SceneError) as caught:
        loads_scene(_with('quantity = "range"', 'quantity = "distance"'), "q.toml")
    assert str(caught.value) == ("q.toml: steps[0].predict.quantity: must be one of 'time', 'x', 'y', 'range', "
                                 "'height', 'vx', 'vy', 'speed', 'angle', 'ke', 'px', 'py', got 'distance'")


def test_load_scene_names_the_file_in_the_one_line(tmp_path):
    path = tmp_path / "launch.toml"
    path.write_text(_with('body = "ball"', 'body = "bal"'), encoding="utf-8")
    with pytest.raises(SceneError) as caught:
        load_scene(path)
    assert str(caught.value).startswith(f"{path}: steps[0].predict.body: there is no body named 'bal'")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("tolerance", ["1.0", "1e-6"])
def test_the_tolerance_bounds_themselves_are_accepted(tolerance):
    lesson = loads_scene(_with("tolerance = 0.1", f"tolerance = {tolerance}")).lesson
    assert lesson.steps[1].predict.tolerance == float(tolerance)


def test_all_twelve_quantities_take_their_units():
    from classroom_sim.lesson import QUANTITIES

    for quantity, unit in QUANTITIES.items():
        p = loads_scene(_with('quantity = "range"\nunit = "m"', f'quantity = "{quantity}"\nunit = "{unit}"')) \
            .lesson.steps[0].predict
        assert (p.quantity, p.unit) == (quantity, unit)


def test_prediction_within_is_a_fraction_of_the_measured_value():
    p = Prediction("?", "ball", "apex", "height", "m")
    assert p.tolerance == 0.05
    assert p.within(10.5, 10.0) and p.within(9.5, 10.0) and not p.within(10.51, 10.0)
    assert p.within(-10.4, -10.0) and not p.within(10.0, -10.0)
    assert p.within(0.05, 0.0) and not p.within(0.06, 0.0)  # measured 0: that many units
    assert not p.within(float("nan"), 1.0) and not p.within(1.0, float("inf"))


def test_the_lesson_finds_its_controls_and_predictions():
    lesson = loads_scene(SCENE).lesson
    assert lesson.control("Post x").param == "bodies.post.position.x"
    with pytest.raises(KeyError):
        lesson.control("Speed")
    assert [k for k, _ in lesson.predictions] == [0, 1]
    assert lesson.predictions[1][1].at == 1.5


def test_a_lesson_with_odd_text_saves_back_equal():
    text = (_with('title = "Launch"', 'title = "Émoji 🚀 \\"quoted\\" back\\\\slash\\ttab"\nstudent = true')
            .replace('text = "Go."', 'text = """Two\nlines with ``` and \\\\ and a tab\\t."""')
            .replace('"bodies.ball.speed" = 10.0', '"bodies.ball.speed" = 10'))
    w = loads_scene(text)
    assert w.lesson.student is True and "🚀" in w.lesson.title and w.lesson.steps[0].text.startswith("Two\nlines")
    assert w.lesson.steps[0].setup[0] == ("bodies.ball.speed", 10.0)
    back = loads_scene(dumps_scene(w))
    assert back.lesson == w.lesson


def test_a_step_whose_controls_all_went_shows_none_not_all():
    w = loads_scene(_with('controls = ["Angle", "Post x"]', 'controls = ["Post x"]'))
    commands.RemoveBody("post").apply(w)
    assert w.lesson.steps[0].controls == ()  # () shows no control; None would show them all
    assert w.lesson.step_controls(0) == () and w.lesson.step_controls(1) == w.lesson.controls
    back = loads_scene(dumps_scene(w))
    assert back.lesson == w.lesson and back.lesson.step_controls(0) == ()


def test_renaming_touches_only_the_body_named():
    text = (SCENE.replace('name = "post"', 'name = "ball2"').replace("bodies.post.", "bodies.ball2.")
            .replace('body = "post"', 'body = "ball2"'))
    w = loads_scene(text)
    commands.RenameBody("ball", "b").apply(w)
    lesson = w.lesson
    assert [c.param for c in lesson.controls] == ["bodies.b.angle", "bodies.ball2.position.x"]
    assert lesson.steps[0].setup == (("bodies.b.speed", 10.0), ("bodies.ball2.position.x", 12.0),
                                     ("bodies.b.angle", 30.0))
    assert lesson.steps[1].predict.body == "ball2"
    assert loads_scene(dumps_scene(w)).lesson == lesson


def test_renaming_to_a_bad_or_the_same_name():
    w = loads_scene(SCENE)
    with pytest.raises(CommandError, match=r"^bodies\.ball\.name: must not contain commas"):
        commands.RenameBody("ball", "a,b").apply(w)
    with pytest.raises(CommandError, match=r"^bodies\.ball\.name: must be a non-empty string"):
        commands.RenameBody("ball", " ").apply(w)
    assert w.names == ("ball", "post")
    before = w.lesson
    commands.RenameBody("ball", "ball").apply(w)
    assert w.names == ("ball", "post") and w.lesson == before


def test_a_renamed_body_at_rest_keeps_its_remembered_angle():
    w = loads_scene(SCENE)
    commands.SetParameter("bodies.ball.speed", 0.0).apply(w)
    commands.SetParameter("bodies.ball.angle", 60.0).apply(w)
    commands.RenameBody("ball", "shot").apply(w)
    assert read_param(w.snapshot(), "bodies.shot.angle") == 60.0
    commands.SetParameter("bodies.shot.speed", 2.0).apply(w)
    assert w.body("shot").velocity == pytest.approx([1.0, math.sqrt(3.0)], abs=1e-12)


def test_a_removed_and_added_again_body_forgets_its_angle():
    w = loads_scene(SCENE)
    commands.SetParameter("bodies.ball.speed", 0.0).apply(w)
    commands.SetParameter("bodies.ball.angle", 60.0).apply(w)
    commands.RemoveBody("ball").apply(w)
    commands.AddBody("ball", 1.0, 0.25, (3.0, 3.0)).apply(w)
    assert read_param(w.snapshot(), "bodies.ball.angle") == 0.0
    commands.SetParameter("bodies.ball.speed", 2.0).apply(w)
    assert list(w.body("ball").velocity) == [2.0, 0.0]


ANGLES = [(0.0, 0.0), (45.0, 45.0), (180.0, 180.0), (-180.0, 180.0), (270.0, -90.0), (-90.0, -90.0), (540.0, 180.0)]


@pytest.mark.parametrize("speed", [2.0, 0.0], ids=["moving", "at-rest"])
def test_the_angle_reads_back_within_minus_180_and_180(speed):
    """BUG (found while writing this), the at-rest case: a body at rest reads back the raw angle
    set (-180, 270, 540), while the same angle set on a moving body reads 180, -90, 180."""
    w = loads_scene(SCENE)
    commands.SetParameter("bodies.ball.speed", speed).apply(w)
    read = []
    for angle, _ in ANGLES:
        commands.SetParameter("bodies.ball.angle", angle).apply(w)
        read.append(read_param(w.snapshot(), "bodies.ball.angle"))
    assert read == pytest.approx([e for _, e in ANGLES], abs=1e-9)
    assert all(-180.0 < a <= 180.0 for a in read)


def test_angle_then_speed_launches_in_that_direction():
    w = loads_scene(SCENE.replace("velocity = [3.0, 4.0]", "velocity = [0.0, 0.0]"))
    commands.SetParameter("bodies.ball.angle", -30.0).apply(w)
    assert list(w.body("ball").velocity) == [0.0, 0.0]  # still at rest
    commands.SetParameter("bodies.ball.speed", 4.0).apply(w)
    assert w.body("ball").velocity == pytest.approx([4 * math.cos(math.radians(30)), -2.0], abs=1e-12)
    commands.SetParameter("bodies.ball.angle", 150.0).apply(w)  # moving: the speed is kept
    assert read_param(w.snapshot(), "bodies.ball.speed") == pytest.approx(4.0, abs=1e-12)
    assert read_param(w.snapshot(), "bodies.ball.angle") == pytest.approx(150.0, abs=1e-12)
    commands.SetParameter("bodies.ball.speed", 1.0).apply(w)  # and the angle
    assert read_param(w.snapshot(), "bodies.ball.angle") == pytest.approx(150.0, abs=1e-12)


def test_prepare_applies_values_after_the_setup_and_without_a_step():
    start = loads_scene(SCENE)
    before = dumps_scene(start)
    world = start.lesson.prepare(start, 0, {"bodies.ball.speed": 5.0, "world.gravity.y": -1.62})
    # the setup's 30° survives a later speed; a path no control names is set as given, not clamped
    assert world.body("ball").velocity == pytest.approx([5 * math.cos(math.radians(30)), 2.5], abs=1e-12)
    assert world.gravity[1] == -1.62
    bare = start.lesson.prepare(start)  # no step: only a copy
    assert dumps_scene(bare) == before and bare is not start
    assert start.lesson.prepare(start, 1).body("post").position[0] == 20.0  # step 1 has no setup
    assert dumps_scene(start) == before and start.time == 0.0


def test_prepare_applies_the_setup_in_file_order():
    # the same entries in two orders give two different launches
    text = _with('setup = { "bodies.ball.speed" = 10.0, "bodies.post.position.x" = 12.0, "bodies.ball.angle" = 30.0 }',
                 'setup = { "bodies.ball.speed" = 0.0, "bodies.ball.angle" = 120.0, "bodies.ball.velocity.x" = -1.0 }')
    start = loads_scene(text)
    world = start.lesson.prepare(start, 0)
    # at rest, angle 120 is only remembered; then velocity.x = -1 leaves vy = 0
    assert list(world.body("ball").velocity) == [-1.0, 0.0]
    reordered = _with('setup = { "bodies.ball.speed" = 10.0, "bodies.post.position.x" = 12.0, '
                      '"bodies.ball.angle" = 30.0 }',
                      'setup = { "bodies.ball.velocity.x" = -1.0, "bodies.ball.angle" = 120.0 }')
    start = loads_scene(reordered)
    world = start.lesson.prepare(start, 0)
    speed = math.hypot(-1.0, 4.0)
    assert world.body("ball").velocity == pytest.approx([speed * math.cos(math.radians(120)),
                                                         speed * math.sin(math.radians(120))], abs=1e-12)


def test_a_scene_saved_after_fixing_a_launched_body_loads_again():
    """BUG (found while writing this): SCENE_FORMAT.md says a saved scene always loads again, but
    once the ball a step's setup launches is fixed, its saved file is refused:
    steps[0].setup."bodies.ball.speed": a fixed body cannot move."""
    w = loads_scene(SCENE)
    commands.SetFixed("ball", True).apply(w)
    loads_scene(dumps_scene(w), "saved.toml")
