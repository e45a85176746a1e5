"""Scene files: every malformed input gives a SceneError naming the file and the field;
nothing else ever escapes; a saved World loads back the same."""

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from classroom_sim import SceneError, World, dumps_scene, load_scene, loads_scene, save_scene

GOOD = """
format = 1
[world]
gravity = [0.0, -9.81]
bounds = [0.0, 0.0, 10.0, 10.0]
[[world.accelerations]]
name = "wind"
vector = [0.5, 0.0]
[[bodies]]
name = "A"
mass = 1.0
radius = 0.25
position = [1.0, 1.0]
[[bodies.accelerations]]
name = "thrust"
vector = [0.0, 2.0]
[[bodies]]
name = "B"
mass = "fixed"
radius = 0.5
position = [5.0, 5.0]
"""

BODY = '[[bodies]]\nname = "A"\nmass = 1.0\nradius = 0.25\nposition = [1.0, 1.0]\n'


def body(**fields):
    base = {"name": '"A"', "mass": "1.0", "radius": "0.25", "position": "[1.0, 1.0]"}
    base.update(fields)
    return "[[bodies]]\n" + "".join(f"{k} = {v}\n" for k, v in base.items() if v is not None)


BAD = [
    (body(mass="-1"), 'bodies[0].mass: must be > 0 or "fixed", got -1'),
    (BODY + body(name='"B"', mass="-1"), 'bodies[1].mass: must be > 0 or "fixed", got -1'),
    (body(mass="0"), "bodies[0].mass: must be > 0"),
    (body(mass='"heavy"'), "bodies[0].mass: must be > 0 or \"fixed\", got 'heavy'"),
    (body(mass="true"), "bodies[0].mass: must be > 0"),
    (body(mass=None), "bodies[0].mass: missing"),
    (body(radius="0"), "bodies[0].radius: must be > 0"),
    (body(radius="nan"), "bodies[0].radius: must be > 0"),
    (body(radius=None), "bodies[0].radius: missing"),
    (body(position="[1.0]"), "bodies[0].position: must be a vector of two numbers"),
    (body(position='["a", 1.0]'), "bodies[0].position: must be a number"),
    (body(position="[1.0, 2.0, 3.0]"), "bodies[0].position: must be a vector of two numbers"),
    (body(velocity="[inf, 0.0]"), "bodies[0].velocity: must be finite"),
    (body(name='""'), "bodies[0].name: must be a non-empty string"),
    (body(name="3"), "bodies[0].name: must be a non-empty string"),
    (body(name='"a,b"'), "bodies[0].name: must not contain commas"),
    (BODY + body(position="[3.0, 3.0]"), "bodies[1].name: 'A' is used by another body"),
    (body(colour='"#ffffff"'), "bodies[0].colour: unknown field"),
    (body(color='"red"'), "bodies[0].color: must be a colour like"),
    (body(gravity='"yes"'), "bodies[0].gravity: must be true or false"),
    (body(mass='"fixed"', velocity="[1.0, 0.0]"), "bodies[0].velocity: a fixed body cannot move"),
    (body(accelerations="3"), "bodies[0].accelerations: must be an array of tables"),
    (BODY + '[[bodies.accelerations]]\nname = "t"\nvector = [0.0, 1.0]\n[[bodies.accelerations]]\nname = "t"\nvector = [1.0, 1.0]\n',
     "bodies[0].accelerations[1].name: 't' is used twice"),
    (BODY + '[[bodies.accelerations]]\nname = "t"\n', "bodies[0].accelerations[0].vector: missing"),
    ("bodies = 3", "bodies: must be an array of tables"),
    ("wrld = 1", "wrld: unknown field"),
    ("format = 2", "format: must be 1, got 2"),
    ("world = 5", "world: must be a table"),
    ("[world]\ngravity = [0.0]", "world.gravity: must be a vector of two numbers"),
    ("[world]\ngravity = 9.81", "world.gravity: must be a vector of two numbers"),
    ("[world]\nbounds = [0.0, 0.0, 1.0]", "world.bounds: must be [xmin, ymin, xmax, ymax]"),
    ("[world]\nbounds = [0.0, 0.0, 0.0, 1.0]", "world.bounds: xmin must be < xmax"),
    ("[world]\nbounds = [0.0, 0.0, 1.0, -inf]", "world.bounds: must be finite"),
    ("[world]\nrestitution = 1.5", "world.restitution: must be from 0 to 1, got 1.5"),
    ("[world]\nwall_restitution = -0.1", "world.wall_restitution: must be from 0 to 1"),
    ("[world]\nintegrator = \"rk4\"", "world.integrator: must be one of 'kinematic'"),
    ("[world]\nfriction = 0.2", "world.friction: unknown field"),
    ("[[world.accelerations]]\nvector = [0.0, 1.0]", "world.accelerations[0].name: missing"),
    ("[world]\nbounds = [0.0, 0.0, 10.0, 10.0]\n" + body(position="[0.1, 5.0]"), "bodies[0].position: (0.1, 5.0) with radius 0.25 is not inside the box"),
    ("[lesson]\ntitle = 3", "lesson.title: must be a string"),
    ("[lesson]\nauthor = \"me\"", "lesson.author: unknown field"),
    (BODY + '[[controls]]\nlabel = "g"\nparam = "world.gravity.z"\nmin = 0.0\nmax = 1.0', "controls[0].param: 'world.gravity.z' names no number"),
    (BODY + '[[controls]]\nlabel = "m"\nparam = "bodies.Z.mass"\nmin = 0.0\nmax = 1.0', "controls[0].param: 'bodies.Z.mass' names no number"),
    (BODY + '[[controls]]\nlabel = "m"\nparam = "bodies.A.mass"\nmin = 2.0\nmax = 1.0', "controls[0].max: must be greater than min"),
    (BODY + '[[controls]]\nparam = "bodies.A.mass"\nmin = 0.0\nmax = 1.0', "controls[0].label: missing"),
    ('[[steps]]\ntext = "hello"', "steps[0].title: missing"),
    ("this is = = not toml", "not valid TOML"),
]


@pytest.mark.parametrize("text, message", BAD, ids=[m for _, m in BAD])
def test_malformed_scene_names_the_file_and_the_field(tmp_path, text, message):
    path = tmp_path / "scene.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SceneError) as info:
        load_scene(path)
    assert str(info.value).startswith(f"{path}: ")
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_the_message_repeats_what_the_file_says(tmp_path):
    path = tmp_path / "scene.toml"
    path.write_text(BODY + body(name='"B"', mass="-1"))
    with pytest.raises(SceneError) as info:
        load_scene(path)
    assert str(info.value) == f'{path}: bodies[1].mass: must be > 0 or "fixed", got -1'


def test_unreadable_files(tmp_path):
    with pytest.raises(SceneError, match="missing.toml: cannot read"):
        load_scene(tmp_path / "missing.toml")
    (tmp_path / "binary.toml").write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(SceneError, match="binary.toml: not a text file"):
        load_scene(tmp_path / "binary.toml")
    with pytest.raises(SceneError, match="cannot read"):
        load_scene(tmp_path)


def test_a_good_scene_loads_as_written():
    w = loads_scene(GOOD)
    assert w.bounds == (0.0, 0.0, 10.0, 10.0)
    assert [a.name for a in w.accelerations] == ["wind"]
    assert w.names == ("A", "B")
    assert w.body("B").fixed and math.isinf(w.body("B").mass)
    assert w.snapshot().accelerations[0] == pytest.approx([0.5, 2.0 - 9.81])
    assert loads_scene("").names == ()  # no world, no bodies: still a scene


def test_save_and_load_round_trip(tmp_path):
    w = load_scene("lessons/collision_1d.toml")
    w.add_acceleration("wind", (0.1, -0.2))
    w.body("A").add_acceleration("thrust", (0.0, 1.0 / 3.0))
    w.body("B").gravity = False
    w.restitution = 0.7
    w.integrator = "euler"
    for _ in range(100):
        w.step(1 / 240)
    path = tmp_path / "saved.toml"
    save_scene(w, path)
    back = load_scene(path)
    assert dumps_scene(back) == dumps_scene(w)
    s1, s2 = w.snapshot(), back.snapshot()
    assert s1.names == s2.names and s1.colors == s2.colors
    for field in ("positions", "velocities", "accelerations", "masses", "radii"):
        assert np.array_equal(getattr(s1, field), getattr(s2, field)), field
    assert (back.restitution, back.wall_restitution, back.integrator, back.bounds) == (0.7, 1.0, "euler", w.bounds)
    assert back.lesson == w.lesson and back.lesson.title == w.lesson.title and w.lesson.title
    assert [b.accelerations for b in back.bodies] == [b.accelerations for b in w.bodies]
    # and from the same instant (a scene holds no clock) the two go on identically
    assert back.time == 0.0
    back.time = w.time
    for _ in range(50):
        w.step(1 / 240)
        back.step(1 / 240)
    assert np.array_equal(w.snapshot().positions, back.snapshot().positions)


def test_saving_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "scene.toml"
    path.write_text("old contents")
    w = World()
    from classroom_sim import saving

    def broken(world):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(saving, "dumps_scene", broken)
    with pytest.raises(OSError):
        save_scene(w, path)
    assert path.read_text() == "old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["scene.toml"]


# -- arbitrary input never raises anything but SceneError ----------------------------

def toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value == math.inf else "-inf" if value == -math.inf else repr(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


KEYS = ["format", "world", "bodies", "lesson", "controls", "steps", "gravity", "bounds", "restitution",
        "wall_restitution", "integrator", "accelerations", "name", "mass", "radius", "position", "velocity",
        "color", "vector", "title", "label", "param", "min", "max", "text", "x"]
scalars = (st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=True)
           | st.sampled_from(["fixed", "kinematic", "euler", "A", "#123456", "world.gravity.y", "bodies.A.mass"])
           | st.text(max_size=8))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=5), max_leaves=25)


@given(st.dictionaries(st.sampled_from(KEYS), values, max_size=6))
def test_arbitrary_toml_raises_nothing_but_scene_error(data):
    text = "\n".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in data.items())
    try:
        loads_scene(text, "x.toml")
    except SceneError as exc:
        assert str(exc).startswith("x.toml: ")


@given(st.text(max_size=200))
def test_arbitrary_text_raises_nothing_but_scene_error(text):
    try:
        loads_scene(text, "x.toml")
    except SceneError:
        pass


def mutations():
    paths = [("world", "gravity"), ("world", "bounds"), ("world", "restitution"), ("bodies", 0, "mass"),
             ("bodies", 0, "radius"), ("bodies", 0, "position"), ("bodies", 1, "velocity"), ("bodies", 0, "name"),
             ("bodies", 0, "accelerations", 0, "vector"), ("world", "accelerations", 0, "name")]
    return st.tuples(st.sampled_from(paths), values)


@given(mutations())
def test_a_good_scene_with_one_field_broken_raises_nothing_but_scene_error(mutation):
    import tomllib
    data = tomllib.loads(GOOD)
    path, value = mutation
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    text = "\n".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in data.items())
    try:
        loads_scene(text, "x.toml")
    except SceneError as exc:
        assert str(exc).startswith("x.toml: ")
