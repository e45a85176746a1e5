"""The engine refuses what it cannot honour, with a clear message, and never hangs on it."""

import threading

import pytest

from classroom_sim import Body, Recorder, World


def _world():
    w = World(gravity=(0.0, -9.81))
    w.add_body(Body("A", 1.0, 0.1, (0.0, 0.0), (1.0, 2.0)))
    return w


@pytest.mark.parametrize("call, value, message", [
    ("advance_to", float("nan"), "time: must be finite"),
    ("advance_to", float("inf"), "time: must be finite"),
    ("advance_to", -1.0, "is behind the world's clock"),
    ("advance_to", "1", "time: must be a number"),
    ("step", float("nan"), "dt: must be finite and >= 0"),
    ("step", float("inf"), "dt: must be finite and >= 0"),
    ("step", -0.5, "dt: must be finite and >= 0"),
])
def test_bad_times_are_refused_at_once_even_while_recording(call, value, message):
    w = _world()
    Recorder(w, rate=100.0)
    w.advance_to(0.5)
    before = (w.time, w.body("A").position.copy())
    outcome = []

    def attempt():
        try:
            getattr(w, call)(value)
        except ValueError as exc:
            outcome.append(str(exc))

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(5.0)
    assert not worker.is_alive(), f"{call}({value!r}) did not return"
    assert outcome and message in outcome[0]
    assert w.time == before[0] and (w.body("A").position == before[1]).all()


def test_a_time_behind_the_clock_by_rounding_is_no_step_back():
    w = _world()
    for _ in range(240):
        w.step(1 / 240)
    w.advance_to(1.0 - 1e-15)  # 240 steps of 1/240 s may end a hair past or before 1 s
    assert w.time == pytest.approx(1.0, abs=1e-12)


# -- the loader never tracebacks ---------------------------------------------------------------------

import os  # noqa: E402
import sys  # noqa: E402

from hypothesis import given, settings, strategies as st  # noqa: E402

from classroom_sim import SceneError, lesson_files, load_scene, loads_scene  # noqa: E402

LITERALS = st.recursive(
    st.one_of(st.integers(min_value=-(10 ** 400), max_value=10 ** 400).map(str),
              st.floats(allow_nan=True, allow_infinity=True).map(lambda f: repr(f).replace("inf", "inf")),
              st.sampled_from(['"a"', '""', "true", "false", '"fixed"', '"#zzzzzz"', "1979-05-27", "-0.0",
                               '"kinematic"', '"floor"', '"range"', '"m"', '"bodies.ball.speed"']),
              st.text(max_size=8).map(lambda t: '"' + t.replace("\\", "").replace('"', "").replace("\n", "") + '"')),
    lambda inner: st.one_of(st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
                            st.dictionaries(st.sampled_from(["a", "name", "vector", "x"]), inner, max_size=3)
                            .map(lambda d: "{ " + ", ".join(f"{k} = {v}" for k, v in d.items()) + " }")),
    max_leaves=6)

SOURCES = [p.read_text(encoding="utf-8") for p in lesson_files()]


@settings(max_examples=300)
@given(source=st.sampled_from(SOURCES), line=st.integers(min_value=0), value=LITERALS, drop=st.booleans())
def test_a_mutated_lesson_loads_or_gives_one_line_never_a_traceback(source, line, value, drop):
    lines = source.splitlines()
    assignments = [k for k, text in enumerate(lines) if " = " in text and not text.startswith("#")]
    k = assignments[line % len(assignments)]
    key = lines[k].split(" = ", 1)[0]
    lines[k] = "" if drop else f"{key} = {value}"
    text = "\n".join(lines)
    try:
        loads_scene(text, "fuzz.toml")
    except SceneError as exc:
        assert "\n" not in str(exc).strip() or "not valid TOML" in str(exc)


@pytest.mark.parametrize("text, says", [
    ('[world]\nintegrator = ["a"]', "world.integrator: must be one of"),
    ("x = " + "[" * 3000 + "]" * 3000, "nested too deeply"),
    ("[world]\nrestitution = 1" + "0" * 400, "world.restitution: must be a number below 1e308"),
    ("[world]\nrestitution = 1" + "0" * 5000, "not valid TOML"),
])
def test_the_fuzzers_four_causes_give_one_line(text, says):
    with pytest.raises(SceneError) as caught:
        loads_scene(text, "s.toml")
    assert says in str(caught.value) and len(str(caught.value)) < 400


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev/zero")
def test_what_is_not_a_regular_file_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    outcome = []
    worker = threading.Thread(target=lambda: outcome.append(_error(fifo)), daemon=True)
    worker.start()
    worker.join(5.0)
    if worker.is_alive():  # (open() of a FIFO waits for a writer: give it one, then fail)
        with open(fifo, "w"):
            pass
        worker.join(5.0)
        pytest.fail("load_scene waited on a FIFO")
    assert "not a regular file" in outcome[0]
    assert "not a regular file" in _error("/dev/zero")
    assert "is a directory" in _error(tmp_path) or "cannot read" in _error(tmp_path)


def _error(path):
    try:
        load_scene(path)
    except SceneError as exc:
        return str(exc)
    return ""


# -- commands refuse bad values with CommandError, one number check for every path ----------------

import numpy as np  # noqa: E402

from classroom_sim import CommandError, commands, dumps_scene  # noqa: E402

HUGE = 10 ** 400


@pytest.mark.parametrize("command", [
    commands.SetMass("A", HUGE), commands.SetRadius("A", HUGE), commands.SetPosition("A", (HUGE, 0)),
    commands.SetVelocity("A", (0, HUGE)), commands.SetGravity((HUGE, 0)), commands.SetRestitution(HUGE),
    commands.SetParameter("bodies.A.speed", HUGE), commands.SetParameter("world.gravity.y", HUGE),
    commands.AddAcceleration("A", "push", (HUGE, 0)), commands.AddBody("B", HUGE, 0.1, (1.0, 1.0)),
    commands.AddBody("B", 1.0, 0.1, (1.0, 1.0), accelerations=(("push", None),)),
    commands.AddBody("B", 1.0, 0.1, (1.0, 1.0), accelerations=(("push", (1.0, "x")),)),
    commands.AddBody("B", 1.0, 0.1, (1.0, 1.0), accelerations=(5,)),
    commands.SetMass("A", float("nan")), commands.SetRadius("A", True), commands.SetParameter("bodies.A.mass", None),
])
def test_bad_values_are_refused_with_a_command_error_and_change_nothing(command):
    w = _world()
    before = dumps_scene(w)
    with pytest.raises(CommandError) as caught:
        command.apply(w)
    assert len(str(caught.value)) < 200
    assert dumps_scene(w) == before


@pytest.mark.parametrize("command, check", [
    (commands.SetMass("A", np.float32(2.5)), lambda w: w.body("A").mass == 2.5),
    (commands.SetMass("A", np.int64(3)), lambda w: w.body("A").mass == 3.0),
    (commands.SetRadius("A", np.float64(0.2)), lambda w: w.body("A").radius == 0.2),
    (commands.SetRestitution(np.float32(0.5)), lambda w: w.restitution == 0.5),
    (commands.SetGravity((np.int32(0), np.float64(-1.62))), lambda w: list(w.gravity) == [0.0, -1.62]),
    (commands.SetParameter("bodies.A.velocity.x", np.float64(4.0)), lambda w: w.body("A").velocity[0] == 4.0),
    (commands.SetParameter("bodies.A.angle", np.int64(90)), lambda w: abs(w.body("A").velocity[0]) < 1e-12),
])
def test_numpy_numbers_are_numbers_on_every_path(command, check):
    w = _world()
    command.apply(w)
    assert check(w)


def test_no_colour_means_the_palettes_and_the_scene_still_saves():
    w = _world()
    commands.SetColor("A", None).apply(w)
    assert w.body("A").color.startswith("#")
    assert "color = \"#" in dumps_scene(w)


# -- values the engine cannot honour are refused; no valid scene kills the process -------------------

import subprocess  # noqa: E402


@pytest.mark.parametrize("text, says", [
    ('[[bodies]]\nname = "A"\nmass = 1.0\nradius = 0.5\nposition = [1e308, 0.0]', "bodies[0].position: must be within"),
    ('[[bodies]]\nname = "A"\nmass = 1.0\nradius = 0.5\nposition = [0.0, 0.0]\nvelocity = [3e8, 0.0]',
     "bodies[0].velocity: must be within ±1e+08 m/s"),
    ('[world]\ngravity = [1e308, 1e308]', "world.gravity: must be within ±1e+08 m/s²"),
    ('[world]\nbounds = [0.0, 0.0, 1e10, 1.0]', "world.bounds: must be within ±1e+09 m"),
    ('[[world.accelerations]]\nname = "w"\nvector = [1e9, 0.0]', "world.accelerations[0].vector: must be within"),
    ('[[bodies]]\nname = "A"\nmass = 1.0\nradius = 1e10\nposition = [0.0, 0.0]', "bodies[0].radius: must be within"),
])
def test_values_beyond_what_the_engine_honours_are_refused(text, says):
    with pytest.raises(SceneError) as caught:
        loads_scene(text, "s.toml")
    assert says in str(caught.value)


def test_commands_keep_to_the_same_limits():
    w = _world()
    for command in (commands.SetPosition("A", (2e9, 0.0)), commands.SetVelocity("A", (0.0, -2e8)),
                    commands.SetGravity((0.0, -1e9)), commands.AddAcceleration(None, "wind", (1e9, 0.0))):
        with pytest.raises(CommandError, match="must be within"):
            command.apply(w)


EXTREME = """
[world]
gravity = [1e8, -1e8]
restitution = 0.3

[[bodies]]
name = "far"
mass = 1e-300
radius = 1e-9
position = [1e9, -1e9]
velocity = [-1e8, 1e8]

[[bodies]]
name = "other"
mass = 1e300
radius = 1e9
position = [-1e9, 1e9]
velocity = [1e8, -1e8]

[[bodies]]
name = "tiny"
mass = 1.0
radius = 1e-9
position = [0.0, 0.0]
"""


def test_a_scene_at_every_limit_runs_in_a_process_that_survives(tmp_path):
    scene = tmp_path / "extreme.toml"
    scene.write_text(EXTREME)
    out = subprocess.run([sys.executable, "-m", "classroom_sim", "run", str(scene), "--duration", "2",
                          "--csv", str(tmp_path / "o.csv")], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]


# -- a step never degrades silently ---------------------------------------------------------------------

from classroom_sim import DEGRADED, Simulation  # noqa: E402
from classroom_sim import collisions as _collisions  # noqa: E402


def _pressed_row(n):
    """n balls pressed half into each other, the last hit from the right: pushing
    them apart takes more passes the longer the row."""
    w = World(gravity=(0.0, 0.0))
    for k in range(n):
        w.add_body(Body(f"b{k}", 1.0, 0.5, (0.5 * k, 0.0)))
    w.add_body(Body("hammer", 1.0, 0.5, (0.5 * n + 0.5, 0.0), (-1.0, 0.0)))
    return w


def test_overlaps_beyond_the_first_passes_are_pushed_apart_within_the_step():
    """Eight balls placed half into each other: 16 passes leave more than 1% of a radius
    of overlap, so the passes go on (up to SEPARATION_PASSES_MOST) until none is left
    over that; half the overlap each, the row keeps its centre of mass, and nothing moves
    (no pull, no speed)."""
    w = _pressed_row(8)
    w.remove_body("hammer")
    start = w.snapshot().positions.copy()
    w.step(1 / 240)
    snap = w.snapshot()
    x = np.sort(snap.positions[:, 0])
    assert (np.diff(x) > 2 * 0.5 - 0.01 * 0.5).all()  # every overlap under 1% of r (0.5 m)
    assert snap.positions[:, 0].mean() == pytest.approx(start[:, 0].mean(), abs=1e-12)
    assert (snap.positions[:, 1] == 0.0).all() and (snap.velocities == 0.0).all()
    assert w.degraded["passes"] == 0


def test_a_chain_longer_than_the_passes_is_reported_not_hidden():
    short = _pressed_row(3)
    for _ in range(240):
        short.step(1 / 240)
    assert short.degraded == {"contacts": 0, "passes": 0, "log": 0}
    long = _pressed_row(3 * _collisions.SEPARATION_PASSES_MOST)
    for _ in range(240):
        long.step(1 / 240)
    assert long.degraded["passes"] > 0 and set(long.degraded) == set(DEGRADED)


def test_the_simulation_publishes_the_counts():
    sim = Simulation(_pressed_row(3 * _collisions.SEPARATION_PASSES_MOST))
    sim.start()
    try:
        deadline = __import__("time").monotonic() + 20
        while not sim.degraded["passes"] and __import__("time").monotonic() < deadline:
            __import__("time").sleep(0.01)
        assert sim.degraded["passes"] > 0
    finally:
        sim.stop()


def test_a_simulation_at_the_limits_stops_within_a_second():
    import time

    rng = np.random.default_rng(1)
    w = World(gravity=(1e8, -1e8), bounds=(-1e9, -1e9, 1e9, 1e9))
    for k in range(500):
        w.add_body(Body(f"b{k}", 1.0, float(rng.uniform(1e-9, 1e6)), tuple(rng.uniform(-9e8, 9e8, 2)),
                        tuple(rng.uniform(-1e8, 1e8, 2))))
    sim = Simulation(w)
    sim.start()
    time.sleep(0.5)
    sim.stop(timeout=1.0)  # (TimeoutError if the physics thread is still inside a cycle after 1 s)
    assert not sim.running and sim.error is None and sim.cycles > 0
