"""Honest arrows: their scale follows the largest vector in view on a 1-2-5 ladder that
does not flicker, a slow body's arrow still shows, the legend reads the scale, every
arrow has a pale outline, and the named accelerations show when asked."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtGui import QColor

from classroom_sim import Body, World
from classroom_sim.accelerations import ConstantAcceleration
from ui.bridge import SimulationBridge
from ui.canvas import Canvas
from ui.vectors import (
    FRACTION,
    HOLD,
    STILL,
    ArrowScale,
    arrow_segments,
    body_arrows,
    full_length,
    largest_in_view,
    named_accelerations,
    rung_below,
)
from ui.view import NORMAL

G = 9.81


def on_ladder(value: float) -> bool:
    """Whether ``value`` is 1, 2 or 5 times a power of ten."""
    mantissa = value / 10.0 ** math.floor(math.log10(value) + 1e-9)
    return any(math.isclose(mantissa, m, rel_tol=1e-9) for m in (1.0, 2.0, 5.0))


def near(pixel, color: str, tol: int = 40) -> bool:
    a, b = QColor(pixel), QColor(color)
    return max(abs(a.red() - b.red()), abs(a.green() - b.green()), abs(a.blue() - b.blue())) <= tol


@pytest.fixture
def canvas_for(qapp):
    bridges = []

    def make(world, width=600, height=400, **display):
        bridge = SimulationBridge(world, start=False)
        bridges.append(bridge)
        canvas = Canvas(bridge)
        for key, value in display.items():
            setattr(canvas.display, key, value)
        canvas.resize(width, height)
        canvas.fit()
        return canvas

    yield make
    for bridge in bridges:
        bridge.close()


# -- the arithmetic --------------------------------------------------------------------------
def test_the_ladder_steps_down_through_1_2_5():
    assert [rung_below(v) for v in (5.0, 2.0, 1.0, 0.5, 0.2, 0.1, 50.0)] == pytest.approx(
        [2.0, 1.0, 0.5, 0.2, 0.1, 0.05, 20.0])


@given(st.floats(1e-6, 1e6), st.integers(200, 3000), st.integers(200, 3000))
def test_the_longest_arrow_is_the_chosen_fraction_within_a_ladder_step(largest, width, height):
    reference = ArrowScale().update(largest, 0.0)
    assert on_ladder(reference)
    full = full_length(width, height)
    assert full == pytest.approx(FRACTION * min(width, height))
    longest = largest * full / reference
    # the ladder's widest step is 2 -> 5
    assert full / 2.5 * (1 - 1e-9) <= longest <= full * (1 + 1e-9)


def test_a_body_speeding_up_never_draws_a_longer_arrow_than_the_fraction():
    scale, full = ArrowScale(), full_length(800, 500)
    lengths = []
    for t in np.arange(0.0, 30.0, 1.0 / 60.0):
        speed = G * t
        reference = scale.update(speed, t)
        if speed > 0:
            lengths.append(speed * full / reference)
    assert max(lengths) <= full * (1 + 1e-9)
    assert min(lengths[60:]) >= full / 2.5 * (1 - 1e-9)  # and never dwindles away


def test_the_scale_holds_still_while_a_ball_bounces_and_shrinks_once_it_has_slowed():
    scale = ArrowScale()
    v0 = 10.0
    period = 2 * v0 / G
    seen = set()
    for t in np.arange(0.0, 10 * period, 1.0 / 60.0):
        seen.add(scale.update(abs(v0 - G * (t % period)), t))  # speed 0 at every apex
    assert len(seen) == 1
    # the ball now crawls: after a while the scale comes down to suit it
    t0 = 10 * period
    for t in np.arange(t0, t0 + 2 * HOLD, 1.0 / 60.0):
        reference = scale.update(0.3, t)
    assert 0.3 <= reference < 0.3 * 2.5


def test_a_speed_wavering_at_a_rung_does_not_flicker_the_scale():
    scale = ArrowScale()
    references = [scale.update(2.0 + (0.01 if k % 2 else -0.01), k / 60.0) for k in range(600)]
    assert sum(a != b for a, b in zip(references, references[1:])) <= 1


def test_a_reset_starts_the_scale_afresh():
    scale = ArrowScale()
    assert scale.update(40.0, 5.0) >= 40.0
    assert scale.update(1.0, 0.0) < 2.5  # time went back: no memory of the fast past


def test_only_the_bodies_in_view_set_the_scale():
    vectors = np.array([[100.0, 0.0], [3.0, 0.0]])
    sx, sy, rs = np.array([-500.0, 50.0]), np.array([50.0, 50.0]), np.array([5.0, 5.0])
    assert largest_in_view(vectors, sx, sy, rs, 200, 100) == pytest.approx(3.0)


def test_a_slow_vector_gets_a_visible_arrow_and_a_zero_one_none():
    reference = ArrowScale().update(100.0, 0.0)
    k = full_length(600, 400) / reference
    vectors = np.array([[100.0, 0.0], [0.0, 0.01], [0.0, 0.0]])
    assert 0.01 * k < 1.0  # honestly scaled, it would not show
    xs, ys = body_arrows(np.array([10.0, 50.0, 90.0]), np.array([100.0] * 3), vectors, k, 10.0, 10.0)
    assert len(xs) == 2  # the body at rest has none
    slow_x, slow_y = xs[1], ys[1]
    assert slow_x[1] == pytest.approx(50.0) and slow_y[0] - slow_y[1] == pytest.approx(10.0)  # up, 10 px


def test_a_still_body_draws_no_velocity_arrow_and_does_not_shrink_the_scale():
    """SCENE_FORMAT calls a body under 1e-3 m/s still: a pile at rest keeps speeds of a
    tenth of a mm/s, which drew every ball a full-length arrow (legend "0.0001 m/s")."""
    assert STILL == 1e-3
    scale = ArrowScale(rest=STILL)
    assert scale.update(4.0, 0.0) == 5.0  # the pile falling
    for t in np.arange(0.0, 5 * HOLD, 1.0 / 60.0):
        reference = scale.update(4e-4, 1.0 + t)  # at rest, a ghost of a speed left
    assert reference == 5.0
    k = full_length(600, 400) / reference
    vectors = np.array([[4e-4, -3e-4], [0.0, 2e-3], [1e-3, 0.0]])
    xs, _ = body_arrows(np.array([10.0, 50.0, 90.0]), np.array([100.0] * 3), vectors, k, 10.0, 10.0, STILL)
    # the ones moving at 2 mm/s and at 1 mm/s (the launcher's smallest step on a scale of
    # 0.01 m/s: not still, as SCENE_FORMAT has it, "under 1e-3 m/s")
    assert list(xs[:, 0]) == [50.0, 90.0]
    # accelerations keep the finer zero: a body held at rest still shows what pulls it
    assert ArrowScale().update(1e-6, 0.0) == pytest.approx(1e-6)


def test_a_pile_at_rest_shows_no_velocity_arrows(canvas_for):
    world = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, 10.0, 10.0))
    for k, v in enumerate([(4e-4, 0.0), (0.0, -6e-4), (-2e-4, 1e-4)]):
        world.add_body(Body(f"p{k}", 1.0, 0.5, (2.0 + 3.0 * k, 5.0), velocity=v, color="#2ca02c"))
    canvas = canvas_for(world, 600, 600, names=False)
    image = canvas.render_image(600, 600)
    assert canvas.vectors.legend == []
    assert not any(near(image.pixel(x, y), NORMAL.velocity, 30) for x in range(0, 600, 2) for y in range(0, 600, 2))
    world.body("p1").velocity = (0.0, -0.05)  # one of them moving: its arrow, the others none
    canvas.render_image(600, 600, world.snapshot())
    (text, _, _), = canvas.vectors.legend
    assert text == "velocity 0.05 m/s"
    world.body("p1").velocity = (0.0, 2e-4)  # still again: no arrow, and no legend of a scale it kept
    canvas.render_image(600, 600, world.snapshot())
    assert canvas.vectors.legend == []
    assert canvas.vectors.velocity.update(0.0, world.time) == 0.05  # the scale kept for when it moves again


def test_arrow_heads_are_barbs_either_side_of_the_tip():
    xs, ys = arrow_segments([0.0], [0.0], [100.0], [0.0], 10.0)
    assert (xs[0, 1], ys[0, 1]) == (100.0, 0.0)
    assert xs[0, 3] < 100.0 and xs[0, 5] < 100.0 and ys[0, 3] * ys[0, 5] < 0


def test_named_accelerations_are_the_bodys_own_then_gravity_and_the_shared_ones():
    world = World(gravity=(0.0, -G), accelerations=[ConstantAcceleration("wind", (2.0, 0.0))])
    world.add_body(Body("A", 1.0, 0.2, (0.0, 0.0), accelerations=[ConstantAcceleration("thrust", (0.0, 4.0))]))
    world.add_body(Body("B", 1.0, 0.2, (1.0, 0.0), gravity=False))
    world.add_body(Body("C", "fixed", 0.2, (2.0, 0.0)))
    rows, names, vectors = named_accelerations(world.snapshot(), range(3))
    assert list(rows) == [0, 0, 0] and names == ["thrust", "gravity", "wind"]
    assert vectors.sum(axis=0) == pytest.approx(world.snapshot().accelerations[0])


# -- drawn ---------------------------------------------------------------------------------
def test_the_legend_says_what_a_full_arrow_stands_for_and_the_arrow_follows_it(canvas_for):
    world = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, 20.0, 10.0))
    world.add_body(Body("A", 1.0, 0.3, (5.0, 5.0), velocity=(7.0, 0.0), color="#2ca02c"))
    canvas = canvas_for(world, 800, 500, names=False)
    image = canvas.render_image(800, 500)
    (text, px, per_unit), = canvas.vectors.legend
    value = float(text.split()[1])
    assert text == f"velocity {value:g} m/s" and on_ladder(value)
    assert 7.0 <= value < 7.0 * 2.5
    assert px == pytest.approx(FRACTION * 500) and value * per_unit == pytest.approx(px)
    sx, sy = (float(v) for v in canvas.view.to_screen(5.0, 5.0))
    blue = [x for x in range(int(sx), 800) if near(image.pixel(x, int(sy)), NORMAL.velocity)]
    assert max(blue) == pytest.approx(sx + 7.0 * per_unit, abs=3)


def test_a_falling_ball_keeps_its_arrow_inside_the_view(canvas_for):
    world = World(gravity=(0.0, -G), bounds=(0.0, -2000.0, 40.0, 10.0))
    world.add_body(Body("A", 1.0, 0.5, (20.0, 5.0), color="#2ca02c"))
    canvas = canvas_for(world, 400, 600, names=False)
    full = full_length(400, 600)
    for t in np.arange(0.25, 12.0, 0.25):
        world.advance_to(t)
        snap = world.snapshot()
        image = canvas.render_image(400, 600, snap)
        sx, sy = (float(v) for v in canvas.view.to_screen(*snap.positions[0]))
        assert 0 < sy < 600
        rows = [y for y in range(int(sy), 600) if near(image.pixel(int(sx), y), NORMAL.velocity)]
        drawn = max(rows) - sy
        assert full / 2.5 - 3 <= drawn <= full + 3, t


def test_a_slow_body_among_fast_ones_still_shows_which_way_it_goes(canvas_for):
    world = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, 10.0, 10.0))
    world.add_body(Body("fast", 1.0, 0.2, (2.0, 8.0), velocity=(30.0, 0.0), color="#2ca02c"))
    world.add_body(Body("slow", 1.0, 0.2, (7.0, 3.0), velocity=(0.0, 0.005), color="#2ca02c"))
    world.add_body(Body("still", 1.0, 0.2, (3.0, 3.0), color="#2ca02c"))
    canvas = canvas_for(world, 600, 600, names=False)
    image = canvas.render_image(600, 600)
    per_unit = canvas.vectors.legend[0][2]
    assert 0.005 * per_unit < 0.5  # honestly scaled it would be less than a pixel

    def blue_near(x, y, above):
        ys = range(int(y) - 25, int(y)) if above else range(int(y) + 1, int(y) + 26)
        return [(i, j) for i in range(int(x) - 6, int(x) + 7) for j in ys if near(image.pixel(i, j), NORMAL.velocity)]

    sx, sy = canvas.view.to_screen(7.0, 3.0)
    assert blue_near(sx, sy, above=True) and not blue_near(sx, sy, above=False)  # up, as it goes
    sx, sy = canvas.view.to_screen(3.0, 3.0)
    assert not blue_near(sx, sy, above=True) and not blue_near(sx, sy, above=False)


def test_an_arrow_on_a_ball_of_its_own_colour_shows_by_its_pale_outline(canvas_for):
    world = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, 10.0, 10.0))
    world.add_body(Body("A", 1.0, 2.5, (5.0, 5.0), velocity=(3.0, 0.0), color=NORMAL.velocity))
    canvas = canvas_for(world, 600, 600, names=False)
    image = canvas.render_image(600, 600)
    sx, sy = (float(v) for v in canvas.view.to_screen(5.0, 5.0))
    length = 3.0 * canvas.vectors.legend[0][2]
    assert 2.5 * canvas.view.scale > length + 10  # the whole arrow lies on the ball
    pale = lambda pixel: min(QColor(pixel).red(), QColor(pixel).green(), QColor(pixel).blue()) > 200  # noqa: E731
    for x in np.linspace(sx + 0.2 * length, sx + 0.6 * length, 5):
        column = range(int(sy) - 8, int(sy) + 9)
        halo = [y for y in column if pale(image.pixel(int(x), y))]
        assert any(y + 0.5 < sy - 1 for y in halo) and any(y + 0.5 > sy + 1 for y in halo)  # either side of the shaft
        assert near(image.pixel(int(x), int(sy) - 8), NORMAL.velocity, 10)  # and around it, the ball


def test_named_accelerations_show_as_labelled_arrows_only_when_asked(canvas_for):
    world = World(gravity=(0.0, -G), bounds=(0.0, 0.0, 10.0, 10.0),
                  accelerations=[ConstantAcceleration("wind", (4.0, 0.0))])
    world.add_body(Body("A", 1.0, 0.3, (3.0, 5.0), color="#2ca02c",
                        accelerations=[ConstantAcceleration("thrust", (0.0, 5.0))]))
    world.add_body(Body("B", 1.0, 0.3, (7.0, 5.0), color="#2ca02c", gravity=False))
    canvas = canvas_for(world, 600, 600, names=False, velocity=False, acceleration=True)
    plain = canvas.render_image(600, 600)
    assert canvas.vectors.labels == []
    canvas.display.named = True
    named = canvas.render_image(600, 600)
    assert sorted(canvas.vectors.labels) == ["gravity", "thrust", "wind"]

    def count(image, color):
        return sum(near(image.pixel(x, y), color, 30) for x in range(0, 600, 2) for y in range(100, 500, 2))

    assert count(named, NORMAL.acceleration) > count(plain, NORMAL.acceleration)  # the thin arrows
    assert count(named, NORMAL.label) > count(plain, NORMAL.label)  # their labels
    # B, with neither its own nor the shared ones, has nothing drawn around it
    sx, sy = canvas.view.to_screen(7.0, 5.0)
    box = [(x, y) for x in range(int(sx) - 60, int(sx) + 60) for y in range(int(sy) - 60, int(sy) + 60)]
    assert all(named.pixel(x, y) == plain.pixel(x, y) for x, y in box)


def test_the_acceleration_legend_goes_with_its_arrows(canvas_for):
    """Gravity turned off live: the scale is kept for when it comes back, but a legend over
    no arrow would tell of arrows that are not there."""
    world = World(gravity=(0.0, -G), bounds=(0.0, 0.0, 10.0, 10.0))
    world.add_body(Body("A", 1.0, 0.3, (5.0, 5.0), color="#2ca02c"))
    canvas = canvas_for(world, 600, 600, names=False, velocity=False, acceleration=True)
    canvas.render_image(600, 600)
    (text, _, _), = canvas.vectors.legend
    assert text.startswith("acceleration ") and float(text.split()[1]) >= G
    world.gravity = (0.0, 0.0)
    canvas.render_image(600, 600, world.snapshot())
    assert canvas.vectors.legend == []


def test_no_legend_for_arrows_out_of_view(canvas_for):
    """The one moving ball panned out of the view: its arrow is not on screen, nor is the
    legend that would tell of it; panned back, both are."""
    world = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, 10.0, 10.0))
    world.add_body(Body("A", 1.0, 0.3, (5.0, 5.0), velocity=(1.0, 0.0), color="#2ca02c"))
    canvas = canvas_for(world, 600, 600, names=False)
    canvas.render_image(600, 600)
    assert [text for text, _, _ in canvas.vectors.legend] == ["velocity 1 m/s"]
    canvas.view.pan(-5000.0, 0.0)
    image = canvas.render_image(600, 600)
    assert canvas.vectors.legend == []
    assert not any(near(image.pixel(x, y), NORMAL.velocity, 30) for x in range(0, 600, 3) for y in range(0, 600, 3))
    canvas.view.pan(5000.0, 0.0)
    canvas.render_image(600, 600)
    assert [text for text, _, _ in canvas.vectors.legend] == ["velocity 1 m/s"]
