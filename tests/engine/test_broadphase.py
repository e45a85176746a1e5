"""The grid broad phase finds exactly the pairs a brute-force check finds, each once,
in grid order: sorted by the rank of the first body, then of the second."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from classroom_sim import collisions


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


@given(arrays(bool, st.integers(0, 200)))
def test_where_lists_the_true_places_like_flatnonzero(mask):
    assert collisions.where(mask).tolist() == np.flatnonzero(mask).tolist()
