"""Replay: a recording draws any recorded instant again exactly as the World had it, and
a run that goes on from a recorded instant follows the same trajectory as the original."""

import copy
import math

import numpy as np
import pytest

from classroom_sim import Body, CommandError, Recorder, Simulation, World
from classroom_sim import recording as recording_module

DT = 1.0 / 240.0
RATE = 50.0


def gas(n=12, seed=3):
    """Balls in a box with gravity, bouncing off the walls and each other."""
    rng = np.random.default_rng(seed)
    world = World(gravity=(0.0, -9.81), bounds=(0.0, 0.0, 4.0, 4.0), restitution=0.9, wall_restitution=0.95)
    for k in range(n):
        world.add_body(Body(f"b{k}", float(rng.uniform(0.5, 2.0)), 0.15,
                            (0.4 + 0.6 * (k % 6), 0.6 + 1.2 * (k // 6)),
                            tuple(rng.uniform(-3.0, 3.0, 2))))
    return world


class Spy:
    """A sampler that keeps the World's own snapshot at the Recorder's sample times."""

    def __init__(self, world, rate):
        self.rate, self.k, self.snaps = rate, 0, []
        world.attach(self)

    @property
    def next_time(self):
        return self.k / self.rate

    def sample(self, world):
        self.snaps.append(world.snapshot())
        while self.k / self.rate <= world.time:
            self.k += 1


def edits(world, t):
    """Edits a class makes while the run goes on (each a new look)."""
    if t == 40:
        world.gravity = (0.0, -4.0)
    if t == 80:
        world.body("b3").color = "#123456"
        world.body("b3").radius = 0.1  # (smaller: it fits wherever the ball is)
    if t == 120:
        world.body("b5").add_acceleration("thrust", (1.0, 2.0))
        world.add_acceleration("wind", (0.5, 0.0))
    if t == 160:
        world.body("b7").mass = 7.5
        world.restitution = 0.5


def run(world, steps, recorder=None, edit=edits):
    """Fixed steps of DT, with the class's edits between them; the targets stepped to."""
    targets = []
    for j in range(steps):
        edit(world, j)
        world.step(DT)
        targets.append(world.time)
    return targets


def same_snapshot(a, b):
    assert a.time == b.time and a.names == b.names and a.colors == b.colors and a.bounds == b.bounds
    for field in ("positions", "velocities", "accelerations", "masses", "radii", "shared_on"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert a.own_accelerations == b.own_accelerations
    assert a.kinetic_energy == b.kinetic_energy and np.array_equal(a.momentum, b.momentum)
    for field in ("gravity", "accelerations", "restitution", "wall_restitution", "integrator", "bounds",
                  "rest_angles"):
        assert getattr(a.settings, field) == getattr(b.settings, field), field


def test_every_recorded_instant_is_drawn_again_exactly_as_the_world_had_it():
    world = gas()
    recorder = Recorder(world, RATE)
    spy = Spy(world, RATE)
    run(world, 240)
    assert recorder.count == len(spy.snaps) == 51
    for k, snap in enumerate(spy.snaps):
        same_snapshot(recorder.snapshot(k), snap)
    # the edits show at their instants: gravity before and after, the new colour, the wind
    assert recorder.snapshot(5).settings.gravity == (0.0, -9.81)
    assert recorder.snapshot(50).settings.gravity == (0.0, -4.0)
    assert recorder.snapshot(50).colors[3] == "#123456" and recorder.snapshot(5).colors[3] != "#123456"
    assert recorder.snapshot(50).radii[3] == 0.1 and recorder.snapshot(5).radii[3] == 0.15
    assert [name for name, _ in recorder.snapshot(50).settings.accelerations] == ["wind"]
    assert len(recorder._looks) == 5  # one look per edit, not one per sample


def test_a_run_that_goes_on_from_a_recorded_instant_follows_the_original_to_the_last_bit():
    start = gas()
    original = copy.deepcopy(start)
    recorder = Recorder(original, RATE)
    targets = run(original, 300)
    for k in (7, 30, 41):  # before the edits, between them, after a few
        t, look, positions, velocities, _, masses = recorder.state(k)
        again = copy.deepcopy(start)
        again.restore(look, t, positions, velocities, masses)
        follow = Recorder(again, RATE)
        j0 = int(np.searchsorted(targets, t, side="right"))
        for j in range(j0, len(targets)):
            edits(again, j)  # the class makes the same edits at the same steps
            again.advance_to(targets[j])
        assert follow.count == recorder.count - k
        for m in range(follow.count):
            same_snapshot(follow.snapshot(m), recorder.snapshot(k + m))


def test_restoring_brings_back_a_body_removed_since_and_drops_one_added_since():
    world = gas(4)
    recorder = Recorder(world, RATE)
    world.advance_to(0.2)
    removed = world.remove_body("b1")
    world.add_body(Body("late", 1.0, 0.1, (3.0, 3.0)))
    world.advance_to(0.4)
    late = world.body("late")
    t, look, positions, velocities, _, masses = recorder.state(3)
    world.restore(look, t, positions, velocities, masses)
    assert world.names == ("b0", "b1", "b2", "b3") and world.time == t == 3 / RATE
    assert np.array_equal(world.body("b1").position, positions[1])
    assert late.world is None and removed.world is None  # the handles that left are standalone
    world.advance_to(0.5)  # and the World runs


def test_a_cut_keeps_the_samples_before_it_and_leaves_the_original_whole(monkeypatch):
    monkeypatch.setattr(recording_module, "CHUNK", 8)
    world = gas(3)
    recorder = Recorder(world, RATE)
    world.advance_to(1.0)
    before = recorder.recording()
    kept = recorder.cut(21)
    assert kept.count == 21 and recorder.next_time is None
    assert np.array_equal(kept.times_since(0), before.times[:21])
    t, look, positions, velocities, _, masses = recorder.state(21)
    world.restore(look, t, positions, velocities, masses)
    kept.resume(world)  # takes sample 21 again, then goes on in the chunk it copied
    world.advance_to(2.0)
    assert kept.count == 101
    assert np.array_equal(recorder.recording().segments[0].data, before.segments[0].data)  # untouched
    assert np.array_equal(kept.times_since(0), np.arange(101) / RATE)


def test_the_simulation_goes_on_from_a_recorded_sample_dropping_what_came_after():
    sim = Simulation(gas(6))  # not started: each verb runs at once, here
    sim.start_recording(RATE)
    sim.log_collisions(True)
    for _ in range(90):
        sim.step_once()
    recorder = sim.recorder
    count = recorder.count
    k = 20
    t = recorder.state(k)[0]
    expected = recorder.snapshot(k)
    logged_before = [c for c in sim.collisions.since(0) if c.t <= t]
    generation = sim.collisions.generation
    sim.continue_from(k).result()
    assert sim.recorder is not recorder and sim.recorder.count == k + 1  # sample k taken again
    same_snapshot(sim.recorder.snapshot(k), expected)
    assert sim.latest.time == t and np.array_equal(sim.latest.positions, expected.positions)
    assert sim.collisions.generation == generation + 1 and sim.collisions.since(0) == logged_before
    assert not sim.paused  # it goes on live
    assert count > k + 1
    with pytest.raises(CommandError, match="not in the recording"):
        sim.continue_from(10_000).result()
    assert math.isfinite(sim.latest.time)


def test_a_track_reads_the_recorded_positions_of_some_bodies_spaced_and_capped(monkeypatch):
    monkeypatch.setattr(recording_module, "CHUNK", 8)
    world = gas(4)
    recorder = Recorder(world, 100.0)
    world.advance_to(1.0)
    whole = recorder.recording().segments[0]
    times, positions = recorder.track([1, 3], 10, 61, most=1000, spacing=1.0 / 30.0)
    ks = np.arange(60, 9, -4)[::-1]  # every 4th sample (1/30 s at 100 Hz), ending on the last
    assert np.array_equal(times, whole.times[ks])
    assert np.array_equal(positions, whole.data[ks][:, [1, 3], 0:2])
    times, _ = recorder.track([0], 0, 101, most=10)
    assert len(times) <= 11 and times[-1] == 1.0 and times[0] >= 0.0
    assert recorder.track([0], 50, 50, most=10)[0].size == 0


def test_a_track_keeps_to_its_seconds_across_a_gap_and_to_the_bodies_it_is_asked_for():
    world = gas(3)
    recorder = Recorder(world, 100.0)
    world.advance_to(1.0)
    recorder.stop()  # Record off for 4 s, then on again
    world.advance_to(5.0)
    recorder.resume(world)
    world.advance_to(5.5)
    assert recorder.count == 101 + 51
    times, positions = recorder.track([0, 2], 0, recorder.count, most=1000, seconds=2.0)
    assert times[0] == 5.0 and times[-1] == 5.5 and len(times) == 51  # not the samples before the gap
    times, _ = recorder.track([0], 0, 101, most=1000, seconds=0.5)
    assert np.array_equal(times, np.arange(50, 101) / 100.0)
    assert recorder.track([0], 0, recorder.count, most=1000, names=world.names)[0].size == 152
    world.add_body(Body("late", 1.0, 0.1, (3.5, 3.5)))  # (recording stopped: no sample of it yet)
    recorder.stop()
    times, positions = recorder.track([0, 3], 0, recorder.count, most=1000, names=world.names)
    assert times.size == 0 and positions.shape == (0, 2, 2)


def test_going_on_from_a_full_recording_records_again_and_a_stale_recording_is_refused(monkeypatch):
    monkeypatch.setattr(recording_module, "CHUNK", 8)
    monkeypatch.setattr(recording_module, "MAX_BYTES", 4 * 8 * (8 + 56 * 6))  # four chunks: 32 samples
    sim = Simulation(gas(6))  # not started: each verb runs at once, here
    sim.start_recording(RATE)
    for _ in range(80):
        sim.step_once()
    recorder = sim.recorder
    assert sim.recording_full and not sim.recording and recorder.count == 32
    sim.continue_from(20).result()
    assert sim.recording and sim.recorder.count == 21  # it records again, from sample 20
    with pytest.raises(CommandError, match="recording changed"):
        sim.continue_from(10, recorder).result()  # the one shown was replaced meanwhile
