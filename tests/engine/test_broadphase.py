"""The grid broad phase finds exactly the pairs a brute-force check finds, each once,
in grid order: sorted by the rank of the first body, then of the second; and, during a
step, exactly the partners of a body whose disc was drawn anew."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from classroom_sim import collisions
from classroom_sim.collisions import broad, redrawn, scratch


def brute(pos, extent, skip, chosen=None):
    out = []
    n = len(pos)
    for i in range(n):
        for j in range(i + 1, n):
            if skip[i] and skip[j]:
                continue
            if chosen is not None and not (chosen[i] or chosen[j]):
                continue
            if np.hypot(*(pos[j] - pos[i])) < extent[i] + extent[j]:
                out.append((i, j))
    return out


@st.composite
def scenes(draw):
    n = draw(st.integers(0, 60))
    pos = draw(arrays(float, (n, 2), elements=st.floats(-5, 5)))
    extent = draw(arrays(float, n, elements=st.floats(0.01, 0.6)))
    if n and draw(st.booleans()):
        extent[draw(st.integers(0, n - 1))] = draw(st.floats(1.0, 8.0))  # a planet among pebbles
    skip = draw(arrays(bool, n))
    chosen = draw(arrays(bool, n))
    return pos, extent, skip, chosen


def as_found(i, j, rank):
    """The pairs as (lower, higher) numbers, sorted, after checking that they come
    in the order of ``rank``, each once."""
    keys = [(rank[a], rank[b]) for a, b in zip(i.tolist(), j.tolist())]
    assert all(a < b for a, b in keys)
    assert keys == sorted(set(keys))
    return sorted((min(a, b), max(a, b)) for a, b in zip(i.tolist(), j.tolist()))


@given(scenes())
def test_candidate_pairs_match_brute_force(scene):
    pos, extent, skip, _ = scene
    i, j, rank, *_ = collisions.plan(pos, extent, skip)
    assert as_found(i, j, rank) == brute(pos, extent, skip)
    assert np.array_equal(np.sort(rank), np.arange(len(pos)))


@given(scenes(), st.data())
def test_pairs_again_finds_every_pair_of_discs_drawn_anew(scene, data):
    """After the plan, some bodies get new discs (moved earlier, or chosen now);
    the pairs of the chosen ones must be exactly what brute force finds."""
    pos, extent, skip, chosen = scene
    n = len(pos)
    _, _, rank, grid, loose, biggest = collisions.plan(pos, extent, skip)
    moved = chosen.copy()
    if n:
        moved |= data.draw(arrays(bool, n))  # drawn anew earlier in the step
    centre, ext = pos.copy(), extent.copy()
    for k in np.flatnonzero(moved):
        centre[k] += data.draw(arrays(float, 2, elements=st.floats(-3, 3)))
        ext[k] = data.draw(st.floats(0.01, 2.0))
    i, j = collisions.pairs_again(centre, ext, skip, grid, biggest, chosen, loose | moved)
    assert as_found(i, j, rank) == brute(centre, ext, skip, chosen)


def test_far_apart_bodies_do_not_blow_up_the_grid():
    pos = np.array([[0.0, 0.0], [1e6, 1e6], [1e6 + 0.1, 1e6]])
    i, j = collisions.candidate_pairs(pos, np.full(3, 0.06), np.zeros(3, bool))
    assert sorted(zip(i.tolist(), j.tolist())) == [(1, 2)]


def test_merge_pairs_is_a_sorted_union():
    a = (np.array([0, 0, 2]), np.array([1, 3, 5]))
    b = (np.array([0, 1, 2]), np.array([3, 2, 4]))
    i, j = collisions.merge_pairs(*a, *b, np.arange(6))
    assert list(zip(i, j)) == [(0, 1), (0, 3), (1, 2), (2, 4), (2, 5)]


pair_sets = st.sets(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=80)


@given(pair_sets, pair_sets)
def test_merge_pairs_matches_the_union_of_sets(a, b):
    """Lists of any lengths: a few pairs into many, many into a few, overlapping or not."""
    def arrays_of(pairs):
        pairs = sorted(pairs)
        return np.array([p[0] for p in pairs], np.int64), np.array([p[1] for p in pairs], np.int64)

    i, j = collisions.merge_pairs(*arrays_of(a), *arrays_of(b), np.arange(31))
    assert list(zip(i.tolist(), j.tolist())) == sorted(a | b)


@given(arrays(float, st.integers(2, 300), elements=st.floats(0.0, 10.0)))
def test_the_grid_cell_is_sized_by_the_nine_in_ten_mark_of_an_even_sample(extent):
    """The mark the grid's cell is sized from is the sample's element that sorting puts at
    nine tenths: the sample every ceil(n / 64)-th extent."""
    sample = np.sort(extent[:: (len(extent) + 63) // 64])
    assert broad._nine_in_ten(extent, scratch.none()) == sample[(9 * len(sample)) // 10]


@given(arrays(bool, st.integers(0, 200)))
def test_where_lists_the_true_places_like_flatnonzero(mask):
    assert collisions.where(mask).tolist() == np.flatnonzero(mask).tolist()


# ---------------------------------------------------------------------------
# Discs drawn anew during a step: `redrawn.loose_add` and `redrawn.partners`
# ---------------------------------------------------------------------------

def overlapping(centre, extent, skip, b):
    """Brute force, in the very arithmetic of `broad._near` (squared distance strictly
    under the squared sum of extents): the bodies j != b whose discs overlap b's, less
    those that would pair two ``skip`` bodies."""
    out = []
    for j in range(len(centre)):
        if j == b or (skip[b] and skip[j]):
            continue
        dx = centre[j, 0] - centre[b, 0]
        dy = centre[j, 1] - centre[b, 1]
        lim = extent[b] + extent[j]
        if dx * dx + dy * dy < lim * lim:
            out.append(j)
    return out


def found_by_partners(b, centre, extent, skip, grid, biggest, loose, spare):
    """What `partners` finds for ``b``, as a sorted list of distinct bodies (see
    `test_partners_lists_each_body_once` for repeats)."""
    found = np.full(len(centre), -1, np.int64)
    k = redrawn.partners(b, centre, extent, skip, grid, biggest, loose, spare, found)
    return sorted(set(found[:k].tolist()))


@given(scenes(), st.data())
def test_partners_of_discs_drawn_anew_match_brute_force(scene, data):
    """As `stepping.advance` does: plan the step, list the bodies the plan left out of its
    grid (`loose_start`); then, one after another, give a body a new disc (a new centre
    up to 3 m away, an extent from 0.01 m to 8 m: smaller or larger than before, up to
    larger than a cell), mark it loose, `loose_add` it, and ask `partners` for it. Each
    answer must be exactly the brute-force set. After the last one, every body's
    partners are checked too (those in the grid, redrawn or not)."""
    pos, extent, skip, _ = scene
    n = len(pos)
    if n < 2:
        return
    _, _, _, grid, loose, biggest = collisions.plan(pos, extent, skip)
    centre, ext, loose = pos.copy(), extent.copy(), loose.copy()
    spare = redrawn.loose_start(centre, ext, grid, loose, scratch.none())
    for _ in range(data.draw(st.integers(1, 8), label="redraws")):
        x = data.draw(st.integers(0, n - 1), label="body")
        centre[x] += data.draw(arrays(float, 2, elements=st.floats(-3, 3)), label="moved by")
        ext[x] = data.draw(st.floats(0.01, 8.0), label="extent")
        loose[x] = True
        redrawn.loose_add(spare, centre, ext, grid, x)
        found = found_by_partners(x, centre, ext, skip, grid, biggest, loose, spare)
        assert found == overlapping(centre, ext, skip, x)
    for b in range(n):
        found = found_by_partners(b, centre, ext, skip, grid, biggest, loose, spare)
        assert found == overlapping(centre, ext, skip, b), b


def test_partners_leave_out_pairs_of_two_skipped_bodies():
    """Three fixed (skipped) bodies and a movable one, all overlapping: a fixed body's
    partners are the movable one alone; the movable one's are all three."""
    pos = np.array([[0.0, 0.0], [0.1, 0.0], [0.0, 0.1], [0.1, 0.1]])
    extent = np.full(4, 0.2)
    skip = np.array([True, True, True, False])
    _, _, _, grid, loose, biggest = collisions.plan(pos, extent, skip)
    spare = redrawn.loose_start(pos, extent, grid, loose, scratch.none())
    assert found_by_partners(0, pos, extent, skip, grid, biggest, loose, spare) == [3]
    assert found_by_partners(3, pos, extent, skip, grid, biggest, loose, spare) == [0, 1, 2]


def test_partners_lists_each_body_once():
    """Bodies 0, 1 and 2 start too large for the grid (extent 1 m against cells of 0.75 m:
    `plan` leaves them loose, `loose_start` lists them among the big ones); drawn anew
    at 0.5 m they are listed by their cells. Body 5, whose disc overlaps every other,
    must find each once: 39 bodies, within the room for every body that `partners`
    asks for (`stepping.advance` gives it exactly n). (Today it finds 0, 1 and 2 twice:
    42 entries, two past the end of an array of 40; this test gives it room for 80.)"""
    n = 40
    pos = np.zeros((n, 2))
    extent = np.array([1.0] * 3 + [0.25] * (n - 3))
    skip = np.zeros(n, bool)
    _, _, _, grid, loose, biggest = collisions.plan(pos, extent, skip)
    assert grid.cell == 0.75 and loose[:3].all()  # the set-up
    spare = redrawn.loose_start(pos, extent, grid, loose, scratch.none())
    for x in range(3):
        extent[x] = 0.5
        redrawn.loose_add(spare, pos, extent, grid, x)
    found = np.full(2 * n, -1, np.int64)
    k = redrawn.partners(5, pos, extent, skip, grid, biggest, loose, spare, found)
    assert k <= n
    assert sorted(found[:k].tolist()) == [j for j in range(n) if j != 5]
