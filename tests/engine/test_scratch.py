"""The memory a step works in (`collisions.scratch`): arrays taken from the World's block
never share memory, a block too small allocates instead and says how much it needed, and
the physics is the same to the last bit whichever way the step got its memory."""

import numpy as np
import pytest

from classroom_sim import Body, World, step_call
from classroom_sim.collisions import scratch
from classroom_sim.compiled import jit


@jit
def _take_three(block, n):
    a, b, c = scratch.ints(block, n), scratch.floats(block, n), scratch.flags(block, n)
    a[:] = 7
    b[:] = 0.5
    c[:] = True
    return a.copy(), b.copy(), c.copy(), a.sum() + b.sum() + c.sum()


def _aligned(words):
    return -(-words // scratch.ALIGN) * scratch.ALIGN


def _room_of_three(n):
    """The words taken by `_take_three`: the top word, then each array at a cache line."""
    return _aligned(_aligned(_aligned(1) + n) + n) + (n + 7) // 8


def test_arrays_taken_from_a_block_do_not_overlap_and_the_block_counts_them():
    block = np.zeros(64, np.int64)
    scratch.start(block)
    a, b, c, total = _take_three(block, 5)
    assert total == 5 * 7 + 5 * 0.5 + 5  # each kept what was written to it: none overlaps another
    assert a.tolist() == [7] * 5 and b.tolist() == [0.5] * 5 and c.tolist() == [True] * 5
    assert scratch.room(block) == _room_of_three(5) == 8 + 8 + 8 + 1
    assert block[scratch.FIRST:scratch.FIRST + 5].tolist() == [7] * 5  # the ints, where the first array starts


def test_a_block_too_small_allocates_and_counts_what_was_asked_for():
    block = np.zeros(4, np.int64)
    scratch.start(block)
    _, _, _, total = _take_three(block, 100)
    assert total == 100 * 7 + 100 * 0.5 + 100
    assert scratch.room(block) == _room_of_three(100)
    alone = scratch.none()
    _, _, _, total = _take_three(alone, 3)
    assert total == 3 * 7 + 3 * 0.5 + 3


def test_an_array_larger_than_large_is_allocated_and_not_counted():
    block = np.zeros(10 * scratch.LARGE, np.int64)
    scratch.start(block)
    n = scratch.LARGE + 1
    _, _, _, total = _take_three(block, n)
    assert total == n * 7 + n * 0.5 + n
    words = (n + 7) // 8
    assert scratch.room(block) == scratch.FIRST + words  # the flags alone came from the block
    assert block[scratch.FIRST:scratch.FIRST + words].view(bool)[:n].all()
    assert not block[scratch.FIRST + words:].any()  # the ints and floats were not written in it


def _pile(report: bool) -> World:
    rng = np.random.default_rng(11)
    world = World(gravity=(1.0, -9.7), bounds=(0.0, 0.0, 1.2, 3.0), restitution=0.6)
    world.add_bodies([Body(f"b{k}", float(rng.uniform(0.5, 2.0)), float(rng.uniform(0.05, 0.09)),
                           (0.1 + 0.19 * (k % 6) + rng.uniform(-0.01, 0.01), 0.2 + 0.2 * (k // 6)),
                           (float(rng.uniform(-1, 1)), 0.0)) for k in range(60)])
    if report:
        world.collision_report = []
    return world


@pytest.mark.parametrize("report", [False, True])
def test_a_step_moves_the_bodies_alike_whether_its_memory_came_from_the_block_or_not(report):
    """One World keeps its block; the other has it taken away before every step, so that
    every array of every step is allocated: the two must agree to the last bit, over a
    pile's fall, bounces and settling (and their collision logs too)."""
    kept, starved = _pile(report), _pile(report)
    for _ in range(600):
        kept.step(1.0 / 240.0)
        starved._scratch = np.ones(1, np.int64)
        starved.step(1.0 / 240.0)
    assert np.array_equal(kept._pos, starved._pos) and np.array_equal(kept._vel, starved._vel)
    assert len(kept._scratch) > 1000  # (the block did grow: the first World used it)
    if report:
        assert len(kept.collision_report) > 100
        assert len(kept.collision_report) == len(starved.collision_report)
        for x, y in zip(kept.collision_report, starved.collision_report):
            assert (x.t, x.a, x.b, x.ma, x.mb) == (y.t, y.a, y.b, y.ma, y.mb)
            assert all(np.array_equal(u, v) for u, v in zip(x[3:8], y[3:8]))


def test_the_block_stops_growing_once_it_fits_the_steps():
    world = _pile(False)
    for _ in range(240):
        world.step(1.0 / 240.0)
    size = len(world._scratch)
    for _ in range(240):
        world.step(1.0 / 240.0)
        assert scratch.room(world._scratch) <= len(world._scratch)
    assert len(world._scratch) <= 2 * size


def test_the_collision_log_is_read_from_the_block_as_written():
    """Two equal balls head on, 1 m/s each: one collision at the instant they touch, read
    from the block (`step_call.log_of`), with the velocities the textbook gives."""
    world = World(gravity=(0.0, 0.0), bounds=None, restitution=1.0)
    world.add_bodies([Body("a", 1.0, 0.1, (0.0, 0.0), (1.0, 0.0)), Body("b", 1.0, 0.1, (1.0, 0.0), (-1.0, 0.0))])
    world.collision_report = []
    for _ in range(120):
        world.step(1.0 / 120.0)
    (hit,) = world.collision_report
    assert hit.t == pytest.approx(0.4, abs=1e-12)  # 0.8 m closed at 2 m/s
    assert (hit.a, hit.b) == ("a", "b")
    assert np.allclose(hit.normal, (1.0, 0.0))
    assert np.allclose(hit.va_after, (-1.0, 0.0)) and np.allclose(hit.vb_after, (1.0, 0.0))


def test_log_of_reads_the_rows_where_the_step_writes_them():
    world = World(gravity=(0.0, 0.0), bounds=None, restitution=1.0)
    world.add_bodies([Body("a", 1.0, 0.1, (0.0, 0.0), (1.0, 0.0)), Body("b", 2.0, 0.1, (0.3, 0.0), (-1.0, 0.0))])
    world.collision_report = []
    world.step(0.01)  # (the block grows to what a step takes: the next step fits in it)
    size = len(world._scratch)
    world.step(0.09)  # they touch at 0.05 s
    assert len(world._scratch) == size  # the same block: what the step wrote is still there
    rows = 4 * 2 + 64
    pairs, vectors, times = step_call.log_of(world._scratch, rows)
    assert sorted(pairs[0].tolist()) == [0, 1]
    assert times[0] == pytest.approx(0.05, abs=1e-12)
    # before: 1 and -1 m/s; after, by the textbook (m1 = 1, m2 = 2, e = 1): -5/3 and 1/3
    first = 0 if pairs[0, 0] == 0 else 1
    assert vectors[0, 1 + first, 0] == pytest.approx(1.0) and vectors[0, 2 - first, 0] == pytest.approx(-1.0)
    assert vectors[0, 3 + first, 0] == pytest.approx(-5.0 / 3.0) and vectors[0, 4 - first, 0] == pytest.approx(1.0 / 3.0)


def test_a_world_copied_gets_an_empty_block_of_its_own_and_steps_alike():
    import copy

    world = _pile(True)
    for _ in range(120):
        world.step(1.0 / 240.0)
    twin = copy.deepcopy(world)
    assert len(twin._scratch) == 1 and len(world._scratch) > 1000  # (not megabytes copied for nothing)
    assert np.array_equal(twin._pos, world._pos) and twin._pos is not world._pos
    assert twin.collision_report is not world.collision_report
    for _ in range(240):
        world.step(1.0 / 240.0)
        twin.step(1.0 / 240.0)
    assert np.array_equal(twin._pos, world._pos) and np.array_equal(twin._vel, world._vel)


def test_a_clock_that_is_not_a_float_still_steps_and_compiles_nothing_new():
    """The World's clock is public: set to an int (or a numpy float32), the step still gets
    floats, so that it neither compiles a second time nor refuses the type."""
    world = _pile(False)
    world.time = 1
    world.step(0.01)
    world.time = np.float32(2.0)
    world.step(0.01)
    assert world.time == pytest.approx(2.01)
    assert all(sig[9:11] == (sig[9],) * 2 and str(sig[9]) == "float64" for sig in step_call.step.signatures)


def test_a_sampler_with_exact_times_is_reached_exactly():
    """A sampler may keep its times as exact fractions: the clock stops on each one as it
    is, so that the sampler sees its time reached (a time rounded to a float below it
    would never be reached, and the World would wait for it for ever)."""
    from fractions import Fraction

    class Thirds:
        def __init__(self):
            self.next_time, self.seen = Fraction(1, 3), []

        def sample(self, world):
            self.seen.append(world.time)
            self.next_time = self.next_time + Fraction(1, 3) if len(self.seen) < 3 else None

    world = _pile(False)
    thirds = Thirds()
    world.attach(thirds)
    world.advance_to(1.0)
    assert thirds.seen == [Fraction(1, 3), Fraction(2, 3), Fraction(1, 1)]
    assert world.time == 1.0
