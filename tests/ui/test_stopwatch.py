"""The stopwatch reads simulated time, and its triggers find a body's events at their
exact instants although the GUI sees only some of the physics cycles: checked
against the textbook's times for a ball thrown up, a ball dropped, a head-on
collision."""

import math

import pytest
from PySide6.QtCore import QSettings, Qt

from classroom_sim import Body, World
from ui.tools.stopwatch import HAND, Lap, Stopwatch, Timing, Trigger, apex_time, floor_time

G = 9.81
R = 0.1


def thrown_up(vy0=7.0, y0=3.0, bounds=(0.0, 0.0, 10.0, 10.0), e=1.0):
    w = World(gravity=(0.0, -G), bounds=bounds, wall_restitution=e)
    w.add_body(Body("ball", 1.0, R, (5.0, y0), (0.0, vy0)))
    return w


def snapshots(world, dt, steps, every=4):
    """The World's snapshots as the GUI sees them: one of each ``every`` steps of ``dt``."""
    out = [world.snapshot()]
    for k in range(1, steps + 1):
        world.step(dt)
        if k % every == 0:
            out.append(world.snapshot())
    return out


def fired(trigger, snaps, collisions=()):
    """Every instant ``trigger`` fired at, fed consecutive pairs of ``snaps``."""
    times = []
    for before, after in zip(snaps, snaps[1:]):
        t = trigger.check(before, after, [c for c in collisions if before.time < c.t <= after.time])
        if t is not None:
            times.append(t)
    return times


# -- the watch ------------------------------------------------------------------------------------
def test_the_watch_counts_simulated_time_while_running_and_holds_it_when_stopped():
    w = Stopwatch()
    assert w.reading(5.0) == 0.0 and not w.running
    w.start(1.0)
    assert w.running and w.reading(3.5) == pytest.approx(2.5)
    w.start(2.0)  # already running: it runs on from 1.0
    assert w.reading(4.0) == pytest.approx(3.0)
    w.stop(4.0)
    assert not w.running and w.reading(10.0) == pytest.approx(3.0)
    w.start(6.0)  # it goes on from what it held
    assert w.reading(7.5) == pytest.approx(4.5)
    assert w.lap(7.5) == Lap(pytest.approx(4.5), pytest.approx(4.5))
    assert w.lap(8.0) == Lap(pytest.approx(5.0), pytest.approx(0.5))
    w.stop(9.0)
    assert w.lap(9.5) is None  # no laps while stopped
    assert [lap.total for lap in w.laps] == pytest.approx([4.5, 5.0])
    assert w.reading(20.0) == pytest.approx(6.0)
    w.reset()
    assert w.reading(20.0) == 0.0 and w.laps == [] and not w.running


def test_a_clock_that_goes_back_resets_the_watch():
    w = Stopwatch()
    assert not w.follow(0.0)
    w.start(0.5)
    assert not w.follow(2.0) and not w.follow(2.0)  # paused: the same time again is no going back
    w.lap(2.0)
    assert w.follow(0.0)  # the scene was reset
    assert not w.running and w.reading(1.0) == 0.0 and w.laps == []


# -- the triggers, against the textbook ------------------------------------------------------------
def test_apex_and_floor_by_formula():
    assert apex_time(1.0, 4.905, -G, 2.0) == pytest.approx(1.5)
    assert apex_time(1.0, 4.905, -G, 1.4) is None  # not yet
    assert apex_time(1.0, -1.0, -G, 2.0) is None  # falling already
    # dropped from 2 m above the floor at t = 1: there at 1 + sqrt(2 * 2 / g)
    assert floor_time(1.0, 2.0, 0.0, -G, 2.0) == pytest.approx(1.0 + math.sqrt(4.0 / G), abs=1e-12)
    assert floor_time(1.0, 2.0, 0.0, -G, 1.5) is None
    assert floor_time(1.0, 0.0, -1.0, -G, 2.0) is None  # on the floor already: no arrival


@pytest.mark.parametrize("dt", [1.0 / 60.0, 1.0 / 240.0, 0.013])
def test_apex_of_a_ball_thrown_up_is_exact_though_the_gui_sees_every_fourth_cycle(dt):
    vy0, y0 = 7.0, 3.0
    snaps = snapshots(thrown_up(vy0, y0), dt, int(4.0 / dt))
    apex = Trigger("ball", "apex")
    apex.arm(0.0)
    assert fired(apex, snaps) == [pytest.approx(vy0 / G, abs=1e-9)]  # once per arming
    # armed again after the first bounce: the next apex, as high as the first (e = 1)
    top = y0 + vy0 ** 2 / (2 * G)
    fall = math.sqrt(2 * (top - R) / G)
    floor = vy0 / G + fall
    apex.arm(floor)
    assert fired(apex, [s for s in snaps if s.time >= floor - 0.1]) == [pytest.approx(floor + fall, abs=1e-9)]


@pytest.mark.parametrize("ymin, h", [(0.0, 3.0), (0.5, 4.0)])
def test_a_dropped_ball_reaches_the_floor_at_the_textbook_time(ymin, h):
    snaps = snapshots(thrown_up(0.0, h, bounds=(0.0, ymin, 10.0, 10.0)), 1.0 / 60.0, 120)
    floor = Trigger("ball", "floor")
    floor.arm(0.0)
    assert fired(floor, snaps) == [pytest.approx(math.sqrt(2 * (h - R - ymin) / G), abs=1e-9)]


def test_a_ball_resting_on_the_floor_never_arrives():
    w = thrown_up(0.0, 2.0, e=0.0)  # it stops dead where it lands
    snaps = snapshots(w, 1.0 / 60.0, 240)
    floor = Trigger("ball", "floor")
    floor.arm(0.0)
    assert fired(floor, snaps) == [pytest.approx(math.sqrt(2 * (2.0 - R) / G), abs=1e-9)]
    rest = [s for s in snaps if s.time > 1.0]
    assert rest[0].positions[0, 1] == pytest.approx(R)
    floor.arm(rest[0].time)
    assert fired(floor, rest) == []
    apex = Trigger("ball", "apex")
    apex.arm(rest[0].time)
    assert fired(apex, rest) == []


def head_on():
    """a at x = 1 m moving at 2 m/s toward b at rest at x = 3 m, radii 0.1 m: they touch
    when the 1.8 m between their rims has closed, at 0.9 s; c is far away."""
    w = World(gravity=(0.0, 0.0))
    w.add_body(Body("a", 1.0, R, (1.0, 0.0), (2.0, 0.0)))
    w.add_body(Body("b", 1.0, R, (3.0, 0.0)))
    w.add_body(Body("c", 1.0, R, (0.0, 5.0)))
    w.collision_report = []
    return w


def test_the_collision_trigger_reads_the_impact_s_instant_from_the_log():
    w = head_on()
    snaps = snapshots(w, 1.0 / 60.0, 120)
    log = list(w.collision_report)
    assert len(log) == 1
    for body, expected in (("a", [pytest.approx(0.9, abs=1e-9)]), ("b", [pytest.approx(0.9, abs=1e-9)]), ("c", [])):
        trigger = Trigger(body, "collision")
        trigger.arm(0.0)
        assert fired(trigger, snaps, log) == expected
    late = Trigger("a", "collision")
    late.arm(1.0)  # armed after the impact: it waits for the next one
    assert fired(late, snaps, log) == []


def test_a_trigger_by_hand_never_fires():
    trigger = Trigger("ball", HAND)
    trigger.arm(0.0)
    assert not trigger.armed
    assert fired(trigger, snapshots(thrown_up(), 1.0 / 60.0, 60)) == []


# -- the watch and its triggers together ----------------------------------------------------------
def feed(timing, snaps, collisions=()):
    before = None
    for snap in snaps:
        timing.feed(snap, [c for c in collisions if (before is None or before.time < c.t) and c.t <= snap.time])
        before = snap


def test_started_on_the_floor_and_stopped_at_the_apex_it_reads_the_rise():
    h = 3.0
    timing = Timing()
    timing.set_start("ball", "floor")
    timing.set_stop("ball", "apex")
    feed(timing, snapshots(thrown_up(0.0, h), 1.0 / 60.0, 240))
    rise = math.sqrt(2 * (h - R) / G)  # e = 1: as long as the fall
    assert not timing.watch.running
    assert timing.watch.reading(100.0) == pytest.approx(rise, abs=1e-9)
    assert "ball: apex" in timing.state()


def test_apex_then_floor_within_one_look_are_both_found_in_order():
    vy0, y0 = 1.0, 0.3
    timing = Timing()
    timing.set_start("ball", "apex")
    timing.set_stop("ball", "floor")
    # the GUI looks once every half second: apex (0.10 s) and landing (0.33 s) fall between two looks
    feed(timing, snapshots(thrown_up(vy0, y0), 1.0 / 60.0, 30, every=30))
    top = y0 + vy0 ** 2 / (2 * G)
    assert timing.watch.reading(100.0) == pytest.approx(math.sqrt(2 * (top - R) / G), abs=1e-9)


def test_stopped_on_a_collision_after_a_start_by_hand():
    w = head_on()
    timing = Timing()
    timing.set_stop("b", "collision")
    timing.feed(w.snapshot())
    timing.start(timing.now)
    snaps = snapshots(w, 1.0 / 60.0, 120)
    feed(timing, snaps[1:], w.collision_report)
    assert timing.watch.reading(100.0) == pytest.approx(0.9, abs=1e-9)


def test_a_reset_scene_resets_the_watch_and_waits_for_the_event_again():
    timing = Timing()
    timing.set_start("ball", "floor")
    timing.set_stop("ball", "apex")
    feed(timing, snapshots(thrown_up(0.0, 3.0), 1.0 / 60.0, 240))
    assert timing.watch.reading(100.0) > 0.0
    fresh = thrown_up(0.0, 3.0)
    timing.feed(fresh.snapshot())  # time went back to 0
    assert timing.watch.reading(100.0) == 0.0 and timing.start_on.armed
    feed(timing, snapshots(fresh, 1.0 / 60.0, 240)[1:])
    assert timing.watch.reading(100.0) == pytest.approx(math.sqrt(2 * (3.0 - R) / G), abs=1e-9)


def test_a_renamed_body_is_still_watched():
    from classroom_sim import commands

    w = thrown_up(0.0, 3.0)
    timing = Timing()
    timing.set_start("ball", "floor")
    timing.feed(w.snapshot())
    w.step(0.1)
    commands.RenameBody("ball", "red").apply(w)
    w.step(0.1)
    timing.feed(w.snapshot())
    assert timing.start_on.body == "red" and timing.start_on.armed
    feed(timing, snapshots(w, 1.0 / 60.0, 60)[1:])
    assert timing.watch.running
    assert timing.fired[1] == pytest.approx(math.sqrt(2 * (3.0 - R) / G), abs=1e-9)


def test_the_collision_reader_gives_each_row_once_and_starts_over_on_a_new_log():
    from types import SimpleNamespace

    from ui.tools.stopwatch_panel import CollisionReader

    class Log(list):
        generation = 0

    log = Log(SimpleNamespace(t=t) for t in (0.1, 0.2, 0.5))
    bridge = SimpleNamespace(collisions_since=lambda k: (log, log[k:]))
    reader = CollisionReader(bridge)
    assert [c.t for c in reader.new(0.3)] == [0.1, 0.2]  # the one at 0.5 s waits
    assert [c.t for c in reader.new(0.3)] == []
    assert [c.t for c in reader.new(1.0)] == [0.5]
    log[:] = [SimpleNamespace(t=0.05)]
    log.generation = 1  # cleared (a reset), then one more
    assert [c.t for c in reader.new(1.0)] == [0.05]


# -- in the window ----------------------------------------------------------------------------------
def open_window(qtbot, tmp_path, world):
    from ui.main_window import MainWindow

    w = MainWindow(world, None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(w)
    w.show()
    return w


def test_the_panel_times_the_rise_after_the_first_bounce_on_the_running_simulation(qtbot, tmp_path):
    h = 2.0
    w = open_window(qtbot, tmp_path, thrown_up(0.0, h))
    panel = w.stopwatch_panel
    panel.choose("start", "ball", "floor")
    panel.choose("stop", "ball", "apex")
    assert panel.timing.start_on.armed and panel.state.text() == "Waiting for ball: floor"
    w.bridge.time_scale = 4.0
    w.play_action.trigger()
    timing = panel.timing
    qtbot.waitUntil(lambda: timing.fired is not None and timing.fired[0] is timing.stop_on, timeout=10000)
    w.play_action.trigger()
    rise = math.sqrt(2 * (h - R) / G)
    assert panel.timing.watch.reading(w.bridge.latest.time) == pytest.approx(rise, abs=1e-9)
    assert panel.reading.text() == f"{rise:.3f} s" and panel.start_button.text() == "Start"
    w.close()


def test_the_panel_stops_on_a_collision_from_the_log(qtbot, tmp_path):
    world = head_on()
    world.collision_report = None
    w = open_window(qtbot, tmp_path, world)
    panel = w.stopwatch_panel
    panel.choose("stop", "b", "collision")
    qtbot.waitUntil(lambda: w.bridge.logging_collisions, timeout=5000)
    panel.start_button.click()  # at t = 0, paused
    assert panel.timing.watch.running and panel.start_button.text() == "Stop"
    w.play_action.trigger()
    qtbot.waitUntil(lambda: not panel.timing.watch.running, timeout=10000)
    w.play_action.trigger()
    assert panel.timing.watch.reading(w.bridge.latest.time) == pytest.approx(0.9, abs=1e-9)
    panel.choose("stop", "b", HAND)
    assert not panel.wants_collisions
    w.close()


def test_the_collision_log_is_kept_while_anyone_wants_it(qtbot):
    from ui.bridge import SimulationBridge

    bridge = SimulationBridge(head_on())
    try:
        bridge.want_collisions("stopwatch", True)
        bridge.want_collisions("panel", True)
        bridge.want_collisions("panel", True)  # (wanting twice is wanting)
        bridge.want_collisions("panel", False)
        assert bridge.logging_collisions
        bridge.log_collisions(False)  # by hand: the stopwatch still wants it
        answered = bridge.want_collisions("stopwatch", True)
        qtbot.waitUntil(answered.done, timeout=5000)
        bridge.toggle_play()
        qtbot.waitUntil(lambda: len(bridge.collisions_since(0)[1]) == 1, timeout=10000)
        assert bridge.collisions_since(0)[1][0].t == pytest.approx(0.9, abs=1e-9)
        bridge.want_collisions("stopwatch", False)
        assert not bridge.logging_collisions
    finally:
        bridge.close()


def test_w_shows_the_stopwatch_and_its_reading_on_the_canvas(qtbot, tmp_path):
    w = open_window(qtbot, tmp_path, thrown_up())
    assert not w.stopwatch_dock.isVisible() and not w.stopwatch_action.isChecked()
    assert w.stopwatch_action.toolTip() and w.stopwatch_action.shortcut().toString() == "W"
    qtbot.keyClick(w.canvas, Qt.Key_W)
    assert w.stopwatch_dock.isVisible() and w.stopwatch_action.isChecked()
    qtbot.keyClick(w.canvas, Qt.Key_W)
    assert not w.stopwatch_dock.isVisible() and not w.stopwatch_action.isChecked()
    w.close()


def test_the_overlay_paints_the_reading_at_the_top_right_larger_for_a_projector(qtbot, tmp_path):
    w = open_window(qtbot, tmp_path, thrown_up())
    canvas = w.canvas
    size = (800, 600)
    hidden = canvas.render_image(*size)
    w.stopwatch_action.trigger()
    w.stopwatch_panel.start_button.click()
    shown = canvas.render_image(*size)
    box = w.stopwatch.overlay.box
    assert box is not None and box.left() > size[0] / 2 and box.right() <= size[0] and box.top() < size[1] / 4
    changed = sum(hidden.pixel(x, y) != shown.pixel(x, y)
                  for x in range(int(box.left()), int(box.right())) for y in range(int(box.top()), int(box.bottom())))
    assert changed > 0.1 * box.width() * box.height()  # its border and its type
    outside = sum(hidden.pixel(x, y) != shown.pixel(x, y) for x in range(0, 300) for y in range(300, 600))
    assert outside == 0
    normal = box.height()
    w.projector_action.trigger()
    canvas.render_image(*size)
    assert w.stopwatch.overlay.box.height() > 1.4 * normal
    w.stopwatch_action.trigger()
    canvas.render_image(*size)
    assert w.stopwatch.overlay.box is None
    w.close()


def test_a_body_named_like_markup_is_shown_as_its_name(qtbot, tmp_path):
    markup = "<b>bold</b><img src=x>"
    world = thrown_up()
    world.rename_body("ball", markup)
    w = open_window(qtbot, tmp_path, world)
    panel = w.stopwatch_panel
    panel.choose("start", markup, "apex")
    assert panel.start_body.currentText() == markup
    assert panel.state.text() == f"Waiting for {markup}: apex" and panel.state.textFormat() == Qt.PlainText
    w.close()


def test_another_scene_is_timed_afresh(qtbot, tmp_path):
    w = open_window(qtbot, tmp_path, thrown_up())
    panel = w.stopwatch_panel
    panel.start_button.click()
    panel.choose("start", "ball", "floor")
    other = World(gravity=(0.0, -G), bounds=(0.0, 0.0, 4.0, 4.0))
    other.add_body(Body("red", 1.0, R, (2.0, 3.0)))
    w.bridge.replace(other)
    assert not panel.timing.watch.running and panel.timing.watch.reading(10.0) == 0.0
    assert panel.start_body.currentText() == "red" and panel.state.text() == "Waiting for red: floor"
    w.close()


def test_looking_back_at_the_recording_keeps_the_watch_and_its_triggers(qtbot, tmp_path):
    h = 2.0
    w = open_window(qtbot, tmp_path, thrown_up(0.0, h))
    panel, timing = w.stopwatch_panel, w.stopwatch_panel.timing
    panel.choose("start", "ball", "floor")
    panel.choose("stop", "ball", "apex")
    w.record_action.trigger()
    w.bridge.time_scale = 4.0
    w.play_action.trigger()
    qtbot.waitUntil(lambda: timing.fired is not None and timing.fired[0] is timing.stop_on, timeout=10000)
    w.play_action.trigger()
    qtbot.waitUntil(lambda: w.bridge.paused and len(w.timeline.times) == w.bridge.samples > 2, timeout=5000)
    rise = math.sqrt(2 * (h - R) / G)
    state = panel.state.text()
    w.timeline.home()  # back to t = 0, and on a little: the class looks at the fall again
    assert w.bridge.replaying and w.bridge.latest.time == 0.0
    for k in range(0, 30, 3):
        w.timeline.show(k)
    w.timeline.go_live()
    assert timing.watch.reading(w.bridge.latest.time) == pytest.approx(rise, abs=1e-9)
    assert panel.reading.text() == f"{rise:.3f} s" and panel.state.text() == state
    w.close()
