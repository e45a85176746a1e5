"""The contact schedule against analytic roots: `schedule.crossing` (a wall's axis),
`schedule.contact` (two discs, degree 2 and degree 4), and the queue of contacts.

Every expected time is computed here, from the problem as set up: a contact point
and time chosen first and the motion built backwards from it, or the roots of a
quadratic written out (in exact decimal arithmetic where the float formula would
cancel)."""

import heapq
import math
from decimal import Decimal, getcontext

import numpy as np
from numpy.polynomial import Polynomial
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from classroom_sim.collisions import schedule, scratch
from classroom_sim.collisions.schedule import NONE, contact, crossing, grown, pop, push, queue

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def offset(p, v, a, s):
    """The relative centre offset p + v s + a s² (the form `contact` takes)."""
    return np.asarray(p, float) + np.asarray(v, float) * s + np.asarray(a, float) * s * s


def distance(p, v, a, s):
    """|p + v s + a s²|, for one s or an array of them."""
    s = np.asarray(s, float)[..., None]
    return np.linalg.norm(np.asarray(p, float) + np.asarray(v, float) * s + np.asarray(a, float) * s * s, axis=-1)


def built_backwards(q_angle, reach, s_star, w, a):
    """p and v such that the offset is ``reach`` along ``q_angle`` at ``s_star`` and its
    velocity there is ``w`` (acceleration term ``a``): d(s*) = q, d'(s*) = w."""
    q = reach * np.array([math.cos(q_angle), math.sin(q_angle)])
    w, a = np.asarray(w, float), np.asarray(a, float)
    v = w - 2.0 * a * s_star
    p = q - v * s_star - a * s_star * s_star
    return p, v


def smallest_distance(p, v, a, lo, hi):
    """The least |p + v s + a s²| over s in [lo, hi]: at the ends and where the derivative
    of the squared distance (a cubic) vanishes, plus a dense sample for good measure."""
    p, v, a = (np.asarray(x, float) for x in (p, v, a))
    cubic = [4.0 * a @ a, 6.0 * a @ v, 2.0 * (v @ v + 2.0 * a @ p), 2.0 * p @ v]  # d/ds |d|², highest first
    scale = max(abs(c) for c in cubic)
    while cubic and abs(cubic[0]) <= 1e-12 * scale:  # (a vanishing leading term: a lower degree)
        cubic = cubic[1:]
    candidates = [lo, hi]
    if len(cubic) > 1:
        candidates += [r.real for r in np.roots(cubic) if abs(r.imag) < 1e-9 and lo <= r.real <= hi]
    candidates += list(np.linspace(lo, hi, 2001))
    return float(distance(p, v, a, np.array(candidates)).min())


def decimal_roots(z0, w, q):
    """The real roots of z0 + w s + q s² in 60-digit arithmetic, as floats, ascending."""
    getcontext().prec = 60
    z0, w, q = Decimal(z0), Decimal(w), Decimal(q)
    disc = w * w - 4 * q * z0
    if disc < 0:
        return []
    root = disc.sqrt()
    return sorted(float((-w + sign * root) / (2 * q)) for sign in (-1, 1))


# ---------------------------------------------------------------------------
# crossing: one axis
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("z0, w, q, span, expected", [
    (1.0, -2.0, 0.0, 1.0, 0.5),                         # straight down through zero
    (1.0, -2.0, 0.0, 0.4, NONE),                        # ... but after the span
    (1.0, 2.0, 0.0, 10.0, NONE),                        # moving away
    (-1.0, 2.0, 0.0, 10.0, NONE),                       # passes upward through zero: not a fall
    (2.0, -3.0, 1.0, 5.0, 1.0),                         # roots 1 and 2: falls through at 1, rises at 2
    (2.0, -3.0, 1.0, 0.9, NONE),                        # first root after the span
    (-1.0, 0.0, 1.0, 5.0, NONE),                        # roots -1, 1: at 1 it rises
    (1.0, 0.0, -1.0, 5.0, 1.0),                         # roots -1, 1: at 1 it falls
    (1.0, 2.0, -1.0, 5.0, 1.0 + math.sqrt(2.0)),        # rises first, then falls through 1 + sqrt 2
    (1.0, -1.0, 1.0, 5.0, NONE),                        # turns back above zero (no real root)
    (0.0, -1.0, 0.0, 5.0, 0.0),                         # at zero now and falling
    (0.0, 1.0, -1.0, 5.0, 1.0),                         # at zero now and rising, back down at 1
])
def test_crossing_is_the_first_downward_root(z0, w, q, span, expected):
    s = crossing(z0, w, q, span)
    if expected == NONE:
        assert s == NONE
    else:
        assert s == pytest.approx(expected, rel=1e-15, abs=1e-15)
        assert w + 2.0 * q * s < 0.0  # falling there


@pytest.mark.parametrize("z0, w, q", [(1e-8, -1e4, 1.0), (1e-8, -1e4, -3.0), (1e-12, -1.0, 1e6), (3.0, -1e9, 1e-3)])
def test_crossing_keeps_full_precision_where_the_textbook_formula_cancels(z0, w, q):
    """A small root next to a huge coefficient: the naive (-w - sqrt(w² - 4qz0)) / 2q loses
    every digit; the answer must agree with 60-digit arithmetic to a few ulps."""
    exact = [r for r in decimal_roots(z0, w, q) if r >= 0.0 and w + 2.0 * q * r < 0.0][0]
    assert crossing(z0, w, q, 1e12) == pytest.approx(exact, rel=1e-14)


# ---------------------------------------------------------------------------
# contact: two discs
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("angle, reach, s_star, speed, heading", [
    (0.0, 1.0, 0.5, 2.0, math.pi),            # head-on along x
    (2.0, 0.3, 1.7, 0.5, 2.0 + math.pi),      # head-on along a tilted line
    (0.3, 1.0, 0.01, 300.0, math.pi + 0.9),   # oblique, fast
    (4.0, 0.05, 1.234, 7.0, 4.0 + math.pi - 1.2),  # oblique: 1.2 rad off head-on (0.37 from grazing)
])
def test_contact_straight_line_root_built_backwards(angle, reach, s_star, speed, heading):
    """No relative acceleration: the discs touch at q (|q| = reach) at s*, closing in
    (q · w < 0); a straight line enters a circle once, so s* is the first contact."""
    w = speed * np.array([math.cos(heading), math.sin(heading)])
    p, v = built_backwards(angle, reach, s_star, w, (0.0, 0.0))
    assert (reach * np.array([math.cos(angle), math.sin(angle)])) @ w < 0.0  # closing in at s*
    s = contact(p[0], p[1], v[0], v[1], 0.0, 0.0, reach, 2.0 * s_star)
    assert s == pytest.approx(s_star, rel=1e-12)


@pytest.mark.parametrize("g", [(0.0, -9.81), (3.0, 400.0), (-1e3, 2.5)])
@pytest.mark.parametrize("square", schedule.SQUARE)
def test_contact_of_two_bodies_under_the_same_acceleration_is_the_straight_line_root(g, square):
    """Both bodies on x + v s + c g s²: the relative offset has no s² term at all, and they
    meet where their straight relative line enters the circle of reach. Here: along x,
    offset (3, 0.6), closing at 2 m/s, reach 1: 3 - 2 s = 0.8 at s = 1.1."""
    pi, vi = np.array([1.0, 5.0]), np.array([4.0, -1.0])
    pj, vj = pi + (3.0, 0.6), vi + (-2.0, 0.0)
    ci, cj = square * np.array(g), square * np.array(g)
    rel = pj - pi, vj - vi, cj - ci
    assert np.array_equal(rel[2], [0.0, 0.0])
    s = contact(*rel[0], *rel[1], *rel[2], 1.0, 5.0)
    assert s == pytest.approx(1.1, rel=1e-12)


@pytest.mark.parametrize("angle, reach, s_star, w, a", [
    (0.0, 1.0, 0.8, (-1.0, 0.0), (-0.5, 0.0)),          # accelerating towards each other, along x
    (1.2, 0.5, 0.3, (-3.0, -4.0), (2.0, -1.0)),         # oblique, pulled sideways
    (0.0, 1.0, 1.0, (-0.5, -0.2), (0.0, -4.9)),          # a ball falling past a fixed one, curving in
    (2.5, 0.2, 2.0, (0.3, -0.1), (-1.0, 3.0)),           # slow, long, strongly curved
    (5.0, 2.0, 0.05, (-150.0, 80.0), (600.0, -10.0)),    # fast, short
])
def test_contact_with_a_relative_acceleration_finds_the_root_built_backwards(angle, reach, s_star, w, a):
    """Degree 4: the offset is ``reach`` along ``angle`` at s*, closing in there. The test
    first checks (by the cubic's roots and dense sampling) that nothing touches
    earlier, so that s* is the answer."""
    p, v = built_backwards(angle, reach, s_star, w, a)
    q = offset(p, v, a, s_star)
    assert abs(np.linalg.norm(q) - reach) < 1e-12 * reach and q @ np.asarray(w) < 0.0
    assert smallest_distance(p, v, a, 0.0, s_star * (1 - 1e-6)) > reach  # the set-up: no earlier touch
    s = contact(p[0], p[1], v[0], v[1], a[0], a[1], reach, 1.5 * s_star)
    assert s == pytest.approx(s_star, rel=1e-9)


def test_contact_curving_into_a_disc_a_straight_line_would_miss():
    """Relative path (3 - 3 s, 1.5 - 1.2 s²), reach 1: the straight line (no s² term)
    passes 1.5 from the centre and misses; curved, it comes within 0.3 at s = 1. The
    answer is the first real root of x(s)² + y(s)² - 1, from numpy's polynomials."""
    p, v, a, reach = (3.0, 1.5), (-3.0, 0.0), (0.0, -1.2), 1.0
    assert contact(p[0], p[1], v[0], v[1], 0.0, 0.0, reach, 10.0) == NONE
    x = Polynomial([p[0], v[0], a[0]])
    y = Polynomial([p[1], v[1], a[1]])
    roots = sorted(r.real for r in (x * x + y * y - reach * reach).roots() if abs(r.imag) < 1e-9 and r.real >= 0)
    assert roots and roots[0] < 1.0, "the set-up: the curved path must reach the disc"
    s = contact(p[0], p[1], v[0], v[1], a[0], a[1], reach, 10.0)
    assert s == pytest.approx(roots[0], rel=1e-9)
    assert distance(p, v, a, s) == pytest.approx(reach, rel=1e-12)


@pytest.mark.parametrize("a", [(0.0, 0.0), (0.1, 0.05)])
def test_contact_misses_when_closest_approach_is_beyond_reach(a):
    """Passing 1.5 from the centre with reach 1 (straight; the slight curve keeps it
    beyond reach too, checked here)."""
    p, v, reach = (-5.0, 1.5), (2.0, 0.0), 1.0
    assert smallest_distance(p, v, a, 0.0, 10.0) > reach
    assert contact(p[0], p[1], v[0], v[1], a[0], a[1], reach, 10.0) == NONE


@pytest.mark.parametrize("a", [(0.0, 0.0), (-0.01, 0.0)])
def test_contact_after_the_span_is_none_and_within_it_is_found(a):
    p, v, reach = (5.0, 0.0), (-1.0, 0.0), 1.0
    first = 4.0 if a == (0.0, 0.0) else decimal_roots(4.0, -1.0, -0.01)[1]  # 5 - s - 0.01 s² = 1, the root > 0
    assert contact(p[0], p[1], v[0], v[1], a[0], a[1], reach, first * (1 - 1e-9)) == NONE
    assert contact(p[0], p[1], v[0], v[1], a[0], a[1], reach, first * (1 + 1e-9)) == pytest.approx(first, rel=1e-12)


@pytest.mark.parametrize("a", [(0.0, 0.0), (0.3, -0.2)])
@pytest.mark.parametrize("gap", [0.0, 0.5e-9, -0.01, -0.5])
def test_contact_touching_or_overlapping_now_and_closing_is_zero(gap, a):
    """Touching (within `schedule.TOUCH` of reach) or overlapping, and closing in: at once."""
    reach = 0.7
    p = ((reach * (1 + gap)) * math.cos(0.4), (reach * (1 + gap)) * math.sin(0.4))
    v = (-math.cos(0.4) + 0.3 * math.sin(0.4), -math.sin(0.4) - 0.3 * math.cos(0.4))  # closing at 1 m/s
    assert contact(p[0], p[1], v[0], v[1], a[0], a[1], reach, 1.0) == 0.0


@pytest.mark.parametrize("gap", [0.0, -0.01, -0.5])
def test_contact_touching_or_overlapping_and_parting_in_a_straight_line_is_none(gap):
    reach = 0.7
    p = (reach * (1 + gap), 0.0)
    assert contact(p[0], p[1], 1.0, 0.2, 0.0, 0.0, reach, 100.0) == NONE


def test_contact_touching_and_parting_then_pulled_back_meets_again_after_being_apart():
    """1D: d(s) = 1 + s - s² (touching now, reach 1, parting at 1 m/s, pulled back): apart
    on (0, 1), back at reach at s = 1 closing in. Not at 0, where it parts."""
    s = contact(1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 5.0)
    assert s == pytest.approx(1.0, rel=1e-12)
    assert contact(1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.999) == NONE


@pytest.mark.parametrize("sideways", [0.0, 0.2])
def test_contact_decelerating_approach_that_turns_back_before_touching_is_none(sideways):
    """d_x(s) = 2 - s + 0.3 s²: the least is 2 - 1/1.2 = 1.1667 at s = 1/0.6, beyond reach
    0.5; it then recedes for ever (a tiny sideways drift changes nothing)."""
    p, v, a, reach = (2.0, 0.0), (-1.0, sideways), (0.3, 0.0), 0.5
    assert smallest_distance(p, v, a, 0.0, 100.0) > 1.1
    assert contact(p[0], p[1], v[0], v[1], a[0], a[1], reach, 100.0) == NONE
    # the same approach without the deceleration does hit: 2 - s = 0.5 at 1.5 (without drift)
    if sideways == 0.0:
        assert contact(p[0], p[1], v[0], v[1], 0.0, 0.0, reach, 100.0) == pytest.approx(1.5, rel=1e-12)


# ---------------------------------------------------------------------------
# contact: the property
# ---------------------------------------------------------------------------

coordinate = st.floats(-5.0, 5.0)
rate = st.floats(-10.0, 10.0)
pull = st.one_of(st.just(0.0), st.floats(-10.0, 10.0))


@settings(max_examples=300, deadline=None)
@given(coordinate, coordinate, rate, rate, pull, pull, st.floats(0.1, 2.0), st.floats(0.0, 2.0))
def test_contact_is_the_first_touch_from_outside(px, py, vx, vy, ax, ay, reach, span):
    """From a start outside reach: a returned s lies in [0, span], the discs are at reach
    there (relative 1e-9) and closing in or grazing, and no earlier moment brings
    them within reach; NONE means no moment of [0, span] brings them within reach
    (beyond a relative 1e-6 for rounding)."""
    p, v, a = (px, py), (vx, vy), (ax, ay)
    assume(math.hypot(px, py) > reach * (1 + 1e-6))
    s = contact(px, py, vx, vy, ax, ay, reach, span)
    if s == NONE:
        assert smallest_distance(p, v, a, 0.0, span) >= reach * (1 - 1e-6)
        return
    assert 0.0 <= s <= span
    d = offset(p, v, a, s)
    assert abs(np.linalg.norm(d) - reach) <= 1e-9 * reach
    rate_of_d = np.asarray(v) + 2.0 * np.asarray(a) * s
    assert d @ rate_of_d <= 1e-9 * reach * (1.0 + np.linalg.norm(rate_of_d))  # closing in (or grazing)
    if s > 0.0:
        assert smallest_distance(p, v, a, 0.0, s) >= reach * (1 - 1e-9)


# ---------------------------------------------------------------------------
# The queue
# ---------------------------------------------------------------------------

times = st.floats(-1e6, 1e6, allow_nan=False)


def pushed(q, t, body, other=0, stamps=0):
    """Push as `stepping.advance` does: make room first (`schedule.grown`) when the queue is full."""
    if q.size[0] + 1 > len(q.time):
        q = grown(q, 1)
    push(q, t, body, other, stamps)
    return q


@given(st.lists(times, max_size=200), st.sampled_from([0, 1, 4, 64]))
def test_queue_pops_in_time_order_and_grows(values, room):
    """Push everything (growing beyond the room the queue started with), pop everything:
    the times come out as sorted() has them, each with its own body, other and stamps."""
    q = queue(room, scratch.none())
    for k, t in enumerate(values):
        q = pushed(q, t, k, -1 - k, 1000 + k)
    assert q.size[0] == len(values)
    assert len(q.time) >= len(values)
    out = [pop(q) for _ in range(len(values))]
    assert q.size[0] == 0
    assert [t for t, *_ in out] == sorted(values)
    assert sorted(body for _, body, _, _ in out) == list(range(len(values)))
    for t, body, other, stamps in out:
        assert t == values[body] and other == -1 - body and stamps == 1000 + body


@given(st.lists(times, max_size=60), st.integers(0, 100))
def test_grown_keeps_the_heap_and_makes_the_room_asked_for(values, need):
    q = queue(len(values), scratch.none())
    for k, t in enumerate(values):
        push(q, t, k, 0, 0)
    bigger = grown(q, need)
    assert bigger.size[0] == len(values)
    assert len(bigger.time) >= len(values) + need
    for k in range(need):  # the room really is there
        push(bigger, float(k), len(values) + k, 0, 0)
    everything = values + [float(k) for k in range(need)]
    assert [pop(bigger)[0] for _ in range(len(everything))] == sorted(everything)


@given(st.lists(st.one_of(times, st.none()), max_size=300))
def test_queue_interleaved_with_pops_matches_heapq(ops):
    """A float pushes it, None pops the earliest (when there is one): each pop gives the
    same time as Python's heapq would, with the body it was pushed with."""
    q = queue(2, scratch.none())
    model = []
    values = []
    for op in ops:
        if op is None:
            if not model:
                continue
            t, body, _, _ = pop(q)
            assert t == heapq.heappop(model)
            assert values[body] == t
        else:
            q = pushed(q, op, len(values))
            heapq.heappush(model, op)
            values.append(op)
        assert q.size[0] == len(model)


apart = st.floats(-3.0, 3.0, allow_nan=False)
relative_pull = st.just(0.0) | st.floats(-20, 20)  # (mostly none: bodies under the same gravity)


@settings(max_examples=400, deadline=None)
@given(apart, apart, st.floats(-30, 30), st.floats(-30, 30), relative_pull, relative_pull, st.floats(0.01, 1.0),
       st.floats(1e-4, 0.1))
def test_the_quick_rejection_never_turns_down_a_pair_that_meets(px, py, vx, vy, ax, ay, reach, span):
    """`stepping._too_far` turns most pairs down before their time is worked out: never one
    whose discs do touch within the span (checked against `contact`, and against the
    distance at a fine grid of instants), and always one too far apart to close in or, flying
    straight, one that stays apart."""
    from classroom_sim.stepping import _too_far

    s = np.linspace(0.0, span, 257)
    dist = np.hypot(px + (vx + ax * s) * s, py + (vy + ay * s) * s)
    meets = contact(px, py, vx, vy, ax, ay, reach, span) != NONE or bool((dist <= reach).any())
    if meets:
        assert not _too_far(px, py, vx, vy, ax, ay, reach, span)
    # and it does turn pairs down: those farther apart than the most they can close in,
    # and those flying straight whose closest approach within the span is clear apart
    if math.hypot(px, py) > 1.01 * (reach + ((abs(vx) + abs(vy)) + (abs(ax) + abs(ay)) * span) * span):
        assert _too_far(px, py, vx, vy, ax, ay, reach, span)
    if ax == 0.0 and ay == 0.0:
        speed2 = vx * vx + vy * vy
        s_min = min(max(-(px * vx + py * vy) / speed2, 0.0), span) if speed2 > 0.0 else 0.0
        if math.hypot(px + vx * s_min, py + vy * s_min) > 1.001 * reach:
            assert _too_far(px, py, vx, vy, ax, ay, reach, span)


@settings(max_examples=300, deadline=None)
@given(st.floats(-300, 300), st.floats(-300, 300), st.floats(-50, 50), st.floats(-50, 50), st.floats(0.001, 1.0),
       st.sampled_from([0, 1, 2]), st.floats(0.0, 1.0), st.sampled_from([1 / 60, 1 / 240]))
def test_a_body_s_disc_holds_its_whole_path_to_the_step_s_end(vx, vy, ax, ay, r, method, into, dt):
    """`stepping._midway`: the disc drawn for a body at ``t`` (as the step begins, or after a
    collision within it), about the middle of its straight path, holds the body at every
    instant of its path to the step's end, by each integrator (checked at a fine grid of
    instants): a smaller disc would lose the pairs that the broad phase must find."""
    from classroom_sim.collisions.motion import Bodies, Rules
    from classroom_sim.collisions.schedule import SQUARE
    from classroom_sim.stepping import _midway

    t = into * dt
    pos, vel, acc = np.array([[1.0, 2.0]]), np.array([[vx, vy]]), np.array([[ax, ay]])
    b = Bodies(pos, vel, acc, acc.copy(), np.array([r]), np.ones(1), np.array([t]))
    rules = Rules(np.empty(0), 1.0, 1.0, method, SQUARE[method], 0.0, dt)
    cx, cy, extent = _midway(b, 0, t, rules)
    s = np.linspace(0.0, dt - t, 1025)
    c = SQUARE[method]
    x = 1.0 + (vx + c * ax * s) * s
    y = 2.0 + (vy + c * ay * s) * s
    assert float(np.hypot(x - cx, y - cy).max()) + r <= extent * (1.0 + 1e-12) + 1e-15
    # and it is the smaller disc, by half the straight way the body travels
    speed = math.hypot(vx, vy)
    assert extent <= r * (1.0 + 1e-9) + 0.5 * speed * (dt - t) + (abs(ax) + abs(ay)) * (0.5 * (dt - t) ** 2 + dt * dt) \
        + 1e-12
