"""The physics thread: elapsed time, pause and step, reset, commands, snapshots,
recording while running, failures and shutdown."""

import dataclasses
import math
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from classroom_sim import Acceleration, Body, CommandError, Simulation, World, commands, load_scene, read_csv
from classroom_sim.simulation import CYCLE_WORK, FRAME, MAX_STEP, MAX_SUBSTEP

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
G = 9.81


def wait_until(condition, timeout=5.0):
    end = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > end:
            raise AssertionError("timed out")
        time.sleep(0.002)


def falling_world():
    """A ball high above nothing: free fall for many seconds, no walls to meet."""
    w = World(gravity=(0.0, -G))
    w.add_body(Body("ball", 1.0, 0.1, (0.0, 1000.0), (2.0, 0.0)))
    return w


@pytest.fixture
def sim():
    made = []

    def make(world=None, **kw):
        s = Simulation(world if world is not None else falling_world(), **kw)
        made.append(s)
        return s

    yield make
    for s in made:
        s.stop()


def running(make, world=None, **kw):
    s = make(world, **kw)
    s.start()
    wait_until(lambda: s.cycles > 2)
    return s


@pytest.mark.parametrize("scale", [1.0, 0.25])
def test_simulated_time_follows_wall_time(sim, scale):
    s = running(sim)
    s.time_scale = scale
    time.sleep(0.1)
    t0, w0 = s.latest.time, time.perf_counter()
    time.sleep(1.0)
    t1, w1 = s.latest.time, time.perf_counter()
    assert (t1 - t0) / (w1 - w0) == pytest.approx(scale, rel=0.03)


def test_each_cycle_is_the_textbook_step_of_its_elapsed_time(sim):
    s = running(sim)
    time.sleep(0.3)
    snap = s.latest
    t = snap.time
    assert snap.positions[0] == pytest.approx([2.0 * t, 1000.0 - 0.5 * G * t * t], rel=1e-12, abs=1e-9)
    assert snap.velocities[0] == pytest.approx([2.0, -G * t], rel=1e-12, abs=1e-9)


def test_a_long_cycle_advances_at_most_max_step(sim):
    class Stall(commands.Command):
        def apply(self, world):
            time.sleep(0.4)

    s = running(sim)
    before = s.latest.time
    s.send(Stall()).result(timeout=5)
    wait_until(lambda: s.cycles > 0 and s.latest.time > before + MAX_STEP / 2)
    # the 0.4 s stall is one cycle's elapsed time: it advanced the clock by MAX_STEP, not 0.4 s
    time.sleep(0.05)
    assert s.latest.time - before < MAX_STEP + 0.1


class Heavy(Acceleration):
    """No acceleration, worked out slowly: each step of the World takes ``seconds`` more (a
    scene whose steps are heavy)."""

    constant = False

    def __init__(self, seconds):
        super().__init__("heavy")
        self.seconds = seconds

    def at(self, positions, velocities, index):
        time.sleep(self.seconds)
        return np.zeros(2)


def test_a_heavy_scene_still_shows_a_snapshot_every_frame_or_so(sim):
    """Steps of 6 ms (a cycle's 0.1 s in parts of 1/240 s would take 0.15 s): each cycle stops
    once it has worked CYCLE_WORK, so that snapshots come out about every frame, each a few
    parts on from the last, rather than 0.1 s of simulated time at 7 a second. The ball
    still falls by the textbook, only slower than real time."""
    w = World(gravity=(0.0, -G))
    w.add_body(Body("ball", 1.0, 0.1, (0.0, 1000.0), accelerations=[Heavy(0.006)]))
    s = running(sim, w)
    seen, end = [s.latest], time.perf_counter() + 1.0
    while time.perf_counter() < end:
        if s.latest is not seen[-1]:
            seen.append(s.latest)
        time.sleep(0.001)
    times = [snap.time for snap in seen]
    jumps = np.diff(times)
    assert len(times) > 25  # (at least a snapshot every 40 ms)
    assert jumps.max() <= math.ceil(CYCLE_WORK / 0.006) * MAX_SUBSTEP + 1e-9
    assert 0.0 < times[-1] - times[0] < 1.0  # slower than real time
    snap = seen[-1]
    assert snap.positions[0, 1] == pytest.approx(1000.0 - 0.5 * G * snap.time ** 2, rel=1e-12)


def test_step_once_in_a_heavy_scene_still_advances_a_whole_frame(sim):
    """A frame of 6 ms steps takes longer than CYCLE_WORK: asked for, it is taken whole."""
    w = World(gravity=(0.0, -G))
    w.add_body(Body("ball", 1.0, 0.1, (0.0, 1000.0), accelerations=[Heavy(0.006)]))
    s = running(sim, w)
    s.pause().result(timeout=5)
    t0 = s.latest.time
    s.step_once().result(timeout=5)
    t = s.latest.time
    assert t - t0 == pytest.approx(FRAME, rel=1e-9)
    assert s.latest.positions[0, 1] == pytest.approx(1000.0 - 0.5 * G * t * t, rel=1e-12)


def test_pause_freezes_time_and_step_once_advances_one_frame(sim):
    s = running(sim)
    s.pause().result(timeout=1)
    assert s.paused
    t = s.latest.time
    time.sleep(0.2)
    assert s.latest.time == t
    s.step_once().result(timeout=1)
    assert s.latest.time == pytest.approx(t + FRAME, abs=1e-12)
    time.sleep(0.1)
    assert s.latest.time == pytest.approx(t + FRAME, abs=1e-12)
    s.resume().result(timeout=1)
    wait_until(lambda: s.latest.time > t + 2 * FRAME)


def test_step_once_while_running_pauses_after_one_frame(sim):
    s = running(sim)
    s.step_once().result(timeout=1)
    t = s.latest.time
    assert s.paused
    time.sleep(0.1)
    assert s.latest.time == t


def test_reset_restores_the_scene_as_loaded(sim):
    world = load_scene(LESSONS / "projectile.toml")
    start = world.snapshot()
    s = running(sim, world)
    s.send(commands.SetGravity((0.0, -1.62))).result(timeout=1)
    s.start_recording(50.0).result(timeout=1)
    time.sleep(0.3)
    s.reset().result(timeout=1)
    s.pause().result(timeout=1)
    snap = s.latest
    assert snap.time < 0.1
    assert snap.settings.gravity == (0.0, -9.81)
    s.reset().result(timeout=1)
    assert s.latest.time == 0.0
    assert np.array_equal(s.latest.positions, start.positions)
    assert np.array_equal(s.latest.velocities, start.velocities)
    # the recording was cleared and started again at t = 0
    rec = s.recorded().result(timeout=5)
    assert rec.times.tolist() == [0.0]


def test_a_gravity_edit_reaches_the_next_snapshot(sim):
    s = running(sim)
    s.send(commands.SetGravity((0.0, -1.62))).result(timeout=1)
    snap = s.latest
    assert snap.accelerations[0].tolist() == [0.0, -1.62]
    assert snap.settings.gravity == (0.0, -1.62)


def test_commands_apply_while_paused_and_before_the_start(sim):
    s = sim()
    s.send(commands.SetMass("ball", 3.0)).result(timeout=1)
    assert s.latest.masses[0] == 3.0
    s.start()
    s.pause().result(timeout=1)
    s.send(commands.SetPosition("ball", (5.0, 5.0))).result(timeout=1)
    assert s.latest.positions[0].tolist() == [5.0, 5.0]


def test_commands_apply_in_the_order_sent(sim):
    s = running(sim)
    futures = [s.send(commands.SetGravity((0.0, -float(k)))) for k in range(1, 200)]
    for f in futures:
        f.result(timeout=5)
    assert s.latest.settings.gravity == (0.0, -199.0)


@pytest.mark.parametrize("command, message", [
    (commands.SetMass("ball", -1), 'bodies.ball.mass: must be > 0 or "fixed", got -1'),
    (commands.SetMass("nobody", 1.0), "body: there is no body named 'nobody'"),
    ("SetMass", "not a command: 'SetMass'"),
])
def test_a_rejected_command_raises_and_changes_nothing(sim, command, message):
    s = running(sim)
    s.pause().result(timeout=1)
    before = s.latest
    with pytest.raises(CommandError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        s.send(command).result(timeout=1)
    after = s.latest
    assert after.masses.tolist() == before.masses.tolist()
    assert after.positions.tolist() == before.positions.tolist()
    assert after.time == before.time
    assert s.error is None and s.running


def test_snapshots_are_read_only(sim):
    s = running(sim)
    snap = s.latest
    for name in ("positions", "velocities", "accelerations", "masses", "radii", "momentum", "shared_on"):
        with pytest.raises(ValueError):
            getattr(snap, name)[0] = 1.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.time = 0.0


def box_world(n=60, seed=3):
    rng = np.random.default_rng(seed)
    w = World(gravity=(0.0, -G), bounds=(0.0, 0.0, 10.0, 10.0), restitution=0.9)
    cells = rng.choice(400, size=n, replace=False)
    for k, c in enumerate(cells):
        w.add_body(Body(f"b{k}", float(rng.uniform(0.5, 2.0)), 0.1,
                        (0.25 + 0.5 * (c % 20), 0.25 + 0.5 * (c // 20)), tuple(rng.uniform(-2, 2, 2))))
    return w


def random_command(rng: random.Random, names):
    name = rng.choice(names + ["ghost"])
    pick = rng.randrange(12)
    value = rng.choice([rng.uniform(-3, 3), -1.0, 0.0, math.nan, "x"])
    if pick == 0:
        return commands.SetGravity((0.0, value) if rng.random() < 0.8 else "down")
    if pick == 1:
        return commands.SetMass(name, rng.choice([rng.uniform(0.1, 5.0), -1.0, "fixed"]))
    if pick == 2:
        return commands.SetRadius(name, rng.choice([rng.uniform(0.05, 0.15), -0.1, 50.0]))
    if pick == 3:
        return commands.SetPosition(name, (rng.uniform(-1, 11), rng.uniform(-1, 11)))
    if pick == 4:
        return commands.SetVelocity(name, (value, rng.uniform(-3, 3)))
    if pick == 5:
        return commands.AddAcceleration(rng.choice([name, None]), rng.choice(["wind", "push"]), (value, 0.0))
    if pick == 6:
        return commands.RemoveAcceleration(rng.choice([name, None]), rng.choice(["wind", "push"]))
    if pick == 7:
        return commands.SetRestitution(rng.choice([0.5, 1.0, 2.0]))
    if pick == 8:
        return commands.AddBody(f"n{rng.randrange(30)}", 1.0, 0.1, (rng.uniform(-1, 11), rng.uniform(0, 10)))
    if pick == 9:
        return commands.RemoveBody(rng.choice([f"n{rng.randrange(30)}", "ghost"]))
    if pick == 10:
        return commands.SetFixed(name, rng.choice([True, False]))
    return commands.SetParameter(rng.choice(["world.gravity.x", f"bodies.{name}.velocity.y", "world.nothing"]), value)


def consistent(snap):
    n = len(snap.names)
    assert snap.positions.shape == snap.velocities.shape == snap.accelerations.shape == (n, 2)
    assert snap.masses.shape == snap.radii.shape == snap.shared_on.shape == (n,)
    assert len(snap.colors) == len(snap.own_accelerations) == n
    movable = np.isfinite(snap.masses)
    m, v = snap.masses[movable], snap.velocities[movable]
    assert snap.kinetic_energy == pytest.approx(0.5 * float(np.sum(m * (v * v).sum(axis=1))), rel=1e-12, abs=1e-12)
    assert snap.momentum == pytest.approx((m[:, None] * v).sum(axis=0), rel=1e-12, abs=1e-12)
    assert np.all(np.isfinite(snap.positions)) and np.all(np.isfinite(snap.velocities))
    assert not np.any(snap.velocities[~movable])


def test_a_storm_of_commands_from_two_threads_while_a_third_reads(sim):
    s = running(sim, box_world())
    stop = threading.Event()
    problems = []
    outcomes = {"applied": 0, "refused": 0}
    lock = threading.Lock()

    def sender(seed):
        rng = random.Random(seed)
        futures = []
        try:
            for _ in range(2500):
                futures.append(s.send(random_command(rng, [f"b{k}" for k in range(60)])))
                if rng.random() < 0.01:
                    time.sleep(0.001)
            for f in futures:
                try:
                    f.result(timeout=10)
                    with lock:
                        outcomes["applied"] += 1
                except CommandError:
                    with lock:
                        outcomes["refused"] += 1
        except Exception as exc:  # anything else is a failure of the test
            problems.append(exc)

    def reader():
        last = -1.0
        try:
            while not stop.is_set():
                snap = s.latest
                consistent(snap)
                assert snap.time >= last
                last = snap.time
        except Exception as exc:
            problems.append(exc)

    threads = [threading.Thread(target=sender, args=(k,)) for k in (1, 2)] + [threading.Thread(target=reader)]
    for t in threads:
        t.start()
    for t in threads[:2]:
        t.join(timeout=60)
        assert not t.is_alive(), "a sender hung"
    stop.set()
    threads[2].join(timeout=10)
    assert problems == []
    assert outcomes["applied"] + outcomes["refused"] == 5000
    assert outcomes["applied"] > 500 and outcomes["refused"] > 500
    assert s.error is None and s.running
    t = s.latest.time
    wait_until(lambda: s.latest.time > t)  # still running
    consistent(s.latest)


class Exploding(Acceleration):
    """A state-dependent acceleration that fails from a given simulated height down."""

    constant = False

    def __init__(self, below):
        super().__init__("exploding")
        self.below = below

    def at(self, positions, velocities, index):
        if positions[index, 1] < self.below:
            raise RuntimeError("the acceleration cannot be computed here")
        return np.zeros(2)


def test_an_exception_in_a_cycle_pauses_keeps_the_last_good_state_and_reports(sim):
    w = World(gravity=(0.0, -G))
    w.add_body(Body("ball", 1.0, 0.1, (0.0, 1.0), accelerations=[Exploding(below=0.9)]))
    reported = []
    s = running(sim, w, on_error=reported.append)
    wait_until(lambda: s.error is not None)
    assert s.paused and s.running
    assert isinstance(s.error, RuntimeError) and reported == [s.error]
    snap = s.latest
    assert snap.positions[0, 1] >= 0.9  # the last good state, not the failed cycle's
    assert snap.positions[0, 1] == pytest.approx(1.0 - 0.5 * G * snap.time ** 2, abs=1e-9)
    time.sleep(0.1)
    assert s.latest.time == snap.time
    # the thread still answers: lift the ball and go on
    s.send(commands.SetPosition("ball", (0.0, 5.0))).result(timeout=1)
    s.resume().result(timeout=1)
    assert s.error is None
    wait_until(lambda: s.latest.time > snap.time)


def test_a_failing_on_error_callback_does_not_kill_the_thread(sim, capsys):
    w = World(gravity=(0.0, -G))
    w.add_body(Body("ball", 1.0, 0.1, (0.0, 1.0), accelerations=[Exploding(below=0.95)]))

    def broken(exc):
        raise ValueError("callback fails")

    s = running(sim, w, on_error=broken)
    wait_until(lambda: s.error is not None)
    assert s.running
    s.send(commands.SetGravity((0.0, 0.0))).result(timeout=1)
    assert "callback fails" in capsys.readouterr().err


def test_stop_joins_within_a_second_under_load_and_twice_is_safe(sim):
    s = running(sim, box_world(n=300), rate=None)
    futures = [s.send(commands.SetGravity((0.0, -1.0))) for _ in range(1000)]
    t0 = time.perf_counter()
    s.stop()
    assert time.perf_counter() - t0 < 1.0
    assert not s.running
    s.stop()
    for f in futures:
        assert f.done()
    with pytest.raises(CommandError, match="stopped"):
        s.send(commands.SetGravity((0.0, -1.0))).result(timeout=1)


def test_the_thread_is_named_and_does_not_outlive_the_interpreter():
    code = (
        "import threading, time\n"
        "from classroom_sim import Simulation, World, Body\n"
        "w = World(); w.add_body(Body('a', 1.0, 0.1, (0.0, 0.0)))\n"
        "s = Simulation(w, rate=None); s.start(); time.sleep(0.3)\n"
        "print([t.name for t in threading.enumerate() if t.name == 'classroom-sim physics'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['classroom-sim physics']"


def test_recording_while_running_samples_the_textbook_trajectory(sim, tmp_path):
    s = running(sim)
    s.start_recording(100.0).result(timeout=1)
    start = s.latest.time
    assert s.recording
    time.sleep(0.5)
    s.stop_recording().result(timeout=1)
    assert not s.recording
    rec = s.recorded().result(timeout=5)
    times = rec.times
    assert len(times) >= 30
    # on the grid k / 100 s from t = 0, exactly (the recording began a cycle or so before
    # the snapshot read as ``start``)
    first = round(times[0] * 100.0)
    assert start - 0.1 < times[0] < start + 0.01
    assert np.array_equal(times, (first + np.arange(len(times))) / 100.0)
    traj = rec.trajectory("ball")
    t = traj[:, 0]
    assert traj[:, 1] == pytest.approx(2.0 * t, rel=1e-12)
    assert traj[:, 2] == pytest.approx(1000.0 - 0.5 * G * t * t, rel=1e-12)
    assert traj[:, 4] == pytest.approx(-G * t, rel=1e-12, abs=1e-12)

    for layout in ("long", "wide"):
        path = tmp_path / f"out_{layout}.csv"
        s.export_csv(path, layout).result(timeout=10)
        assert np.array_equal(read_csv(path)["ball"], traj)


def test_exporting_holds_from_the_call_until_the_future_is_answered(sim, tmp_path, monkeypatch):
    """`exporting` is True from the moment an export is asked for (before the physics thread
    has taken it) until its Future is answered (not only while the export thread writes):
    the window keeps automatic collection off on it (`ui.bridge`)."""
    from classroom_sim import simulation

    s = running(sim)
    s.start_recording(100.0).result(timeout=1)
    wait_until(lambda: s.latest.time > 0.05)
    s.pause().result(timeout=1)
    seen = []
    copy = simulation._copy_outcome

    def answering(source, target):  # (the export thread, done, answers the caller's Future)
        seen.append(s.exporting)
        copy(source, target)

    monkeypatch.setattr(simulation, "_copy_outcome", answering)
    hold = threading.Event()
    take = s._capture
    monkeypatch.setattr(s, "_capture", lambda: (hold.wait(5), take())[1])  # (the physics thread waits)
    future = s.export_csv(tmp_path / "a.csv")
    assert s.exporting  # (asked for, not yet taken by the physics thread)
    hold.set()
    future.result(timeout=5)
    assert seen == [True]
    assert not s.exporting
    assert read_csv(tmp_path / "a.csv")["ball"].shape[0] >= 5


def test_export_fails_clearly_and_writes_nothing(sim, tmp_path):
    s = running(sim)
    with pytest.raises(CommandError, match="nothing has been recorded"):
        s.export_csv(tmp_path / "a.csv").result(timeout=5)
    with pytest.raises(CommandError, match="layout"):
        s.export_csv(tmp_path / "a.csv", "tall").result(timeout=5)
    s.start_recording(10.0).result(timeout=1)
    time.sleep(0.2)
    with pytest.raises(OSError):
        s.export_csv(tmp_path / "missing" / "a.csv").result(timeout=5)
    assert list(tmp_path.iterdir()) == []
    assert s.error is None and s.running


def test_save_scene_writes_the_live_state(sim, tmp_path):
    s = running(sim)
    s.send(commands.SetGravity((0.0, -1.62))).result(timeout=1)
    s.send(commands.AddAcceleration("ball", "thrust", (0.0, 1.0))).result(timeout=1)
    s.pause().result(timeout=1)
    s.save_scene(tmp_path / "live.toml").result(timeout=5)
    back = load_scene(tmp_path / "live.toml")
    snap = s.latest
    assert back.gravity.tolist() == [0.0, -1.62]
    assert back.body("ball").position.tolist() == snap.positions[0].tolist()
    assert back.body("ball").acceleration.tolist() == [0.0, 1.0 - 1.62]


def test_time_scale_is_checked(sim):
    s = sim()
    for bad in (0.05, 5.0, "fast", True, math.nan):
        with pytest.raises(ValueError, match="time_scale"):
            s.time_scale = bad
    s.time_scale = 4
    assert s.time_scale == 4.0


def test_the_cycle_rate_is_measured_and_zero_while_paused(sim):
    s = running(sim, rate=120.0)
    time.sleep(1.2)
    assert s.cycles_per_second == pytest.approx(120.0, rel=0.1)
    assert 0.0 < s.cycle_time < 1.0 / 120.0
    s.pause().result(timeout=1)
    assert s.cycles_per_second == 0.0


# -- run_until in the physics thread -------------------------------------------------------------------------

def thrown_in_a_box():
    w = World(gravity=(0.0, -G), bounds=(0.0, 0.0, 40.0, 40.0))
    w.add_body(Body("ball", 1.0, 0.5, (2.0, 0.5), (2.0, 8.0)))
    return w


@pytest.mark.parametrize("event", ["apex", "floor"])
def test_run_until_times_from_where_the_run_begins(sim, event):
    s = sim(thrown_in_a_box())
    s.time_scale = 4.0
    s.start()
    wait_until(lambda: s.latest.time > 0.1)
    s.pause().result(timeout=2)
    begun = s.latest
    t0, (x0, y0), (vx, vy) = begun.time, begun.positions[0], begun.velocities[0]
    assert vy > 0.0
    m = s.run_until("ball", event).result(timeout=20)
    assert s.paused
    # the rest of the flight from the paused state, by the textbook
    t = vy / G if event == "apex" else (vy + math.sqrt(vy * vy + 2 * G * (y0 - 0.5))) / G
    assert m.time == pytest.approx(t, abs=1e-9) and m.world_time == pytest.approx(t0 + t, abs=1e-9)
    assert m.start == (float(x0), float(y0))
    snap = s.latest
    assert snap.time == pytest.approx(m.world_time, abs=1e-9)
    assert snap.positions[0] == pytest.approx(m.position, abs=1e-9)
    assert m.position == pytest.approx((x0 + vx * t, y0 + vy * t - G * t * t / 2), abs=1e-9)
    time.sleep(0.05)
    assert s.latest.time == snap.time  # and it stays there


def test_run_until_gives_up_at_its_limit(sim):
    w = World(gravity=(0.0, 0.0))
    w.add_body(Body("ball", 1.0, 0.5, (0.0, 0.0), (1.0, 0.0)))
    s = sim(w)
    s.time_scale = 4.0
    s.pause()
    s.start()
    with pytest.raises(CommandError, match=r"'apex' of 'ball' did not happen within 0.4 s"):
        s.run_until("ball", "apex", limit=0.4).result(timeout=10)
    assert s.paused
    wait_until(lambda: s.latest.time == pytest.approx(0.4, abs=1e-9))


@pytest.mark.parametrize("args, message", [(("ghost", "apex"), "no body named 'ghost'"),
                                           (("ball", "floor"), "'floor' needs walls"),
                                           (("ball", "landing"), "event: must be one of"),
                                           (("ball", "height"), "at: needed")])
def test_run_until_refuses_what_it_cannot_watch(sim, args, message):
    s = sim()
    s.pause()
    s.start()
    with pytest.raises(CommandError, match=message):
        s.run_until(*args).result(timeout=5)
    assert s.paused and s.latest.time == 0.0


def test_a_second_run_until_replaces_the_first(sim):
    s = sim(thrown_in_a_box())
    s.time_scale = 4.0
    s.pause()
    s.start()
    first = s.run_until("ball", "floor")
    second = s.run_until("ball", "apex")
    with pytest.raises(CommandError):
        first.result(timeout=10)
    assert second.result(timeout=10).time == pytest.approx(8.0 / G, abs=1e-9)


def test_restart_then_keep_as_start(sim):
    s = sim(thrown_in_a_box())
    s.start()
    other = World(gravity=(0.0, 0.0))
    other.add_body(Body("x", 1.0, 0.5, (0.0, 0.0), (1.0, 0.0)))
    s.restart(other).result(timeout=2)
    assert s.paused and s.latest.names == ("x",) and s.latest.time == 0.0
    s.send(commands.SetVelocity("x", (0.0, 3.0))).result(timeout=2)
    s.keep_as_start().result(timeout=2)
    s.step_once().result(timeout=2)
    assert s.latest.time > 0.0
    s.reset().result(timeout=2)
    assert s.latest.time == 0.0 and tuple(s.latest.velocities[0]) == (0.0, 3.0)
    assert tuple(s.latest.positions[0]) == (0.0, 0.0)


def test_record_off_and_on_appends_and_clear_throws_away(sim):
    s = running(sim)
    s.start_recording(100.0).result(timeout=1)
    time.sleep(0.2)
    s.stop_recording().result(timeout=1)
    first = s.recorded().result(timeout=5).times
    time.sleep(0.2)  # a gap, not recorded
    s.start_recording(100.0).result(timeout=1)
    time.sleep(0.2)
    s.stop_recording().result(timeout=1)
    both = s.recorded().result(timeout=5).times
    assert np.array_equal(both[:len(first)], first)  # kept, and more after it
    later = both[len(first):]
    assert len(later) > 5 and later[0] - first[-1] > 0.1  # the gap
    assert np.array_equal(both, np.round(both * 100.0) / 100.0)  # every one on the grid k / 100
    s.clear_recording().result(timeout=1)
    with pytest.raises(CommandError, match="nothing has been recorded"):
        s.recorded().result(timeout=5)
    # another rate starts a recording of its own
    s.start_recording(100.0).result(timeout=1)
    time.sleep(0.1)
    s.start_recording(50.0).result(timeout=1)
    time.sleep(0.2)
    s.stop_recording().result(timeout=1)
    times = s.recorded().result(timeout=5).times
    assert np.array_equal(times, np.round(times * 50.0) / 50.0)
