"""Live graphs: they plot what was recorded, exactly, read only what is new, keep
finished pieces untouched, follow the last seconds, read values at the cursor and
export PNG and SVG."""

import numpy as np
import pytest
from PySide6.QtCore import QSettings

from classroom_sim import Body, World
from tests.ui.helpers import G, FakeBridge, two_balls
from ui.panels import graphs
from ui.panels.graphs import GraphsPanel


@pytest.fixture(autouse=True)
def every_frame(monkeypatch):
    """Draw at every frame (the panel waits `REFRESH_S` between draws; one test checks that)."""
    monkeypatch.setattr(graphs, "REFRESH_S", 0.0)


@pytest.fixture
def panel(qtbot):
    bridge = FakeBridge(two_balls())
    p = GraphsPanel(bridge, 100.0)
    qtbot.addWidget(p)
    p.show()
    assert bridge.recording  # shown, the graphs turned Record on
    return p, bridge


def curve_data(panel, plot, name):
    xs, ys = [], []
    for piece in panel.curves[plot][name]:
        x, y = piece.getData()
        xs.append(x)
        ys.append(y)
    return np.concatenate(xs), np.concatenate(ys)


def test_the_plots_show_the_recorded_motion_exactly_in_the_bodies_colours(panel):
    p, bridge = panel
    for k in range(1, 31):
        bridge.run(k * 0.05)
    assert p.choices[0].currentText() == "y (m)" and p.choices[1].currentText() == "vy (m/s)"
    t, y = curve_data(p, 0, "red")
    assert np.array_equal(np.unique(t), np.arange(151) / 100.0)
    assert y == pytest.approx(100.0 - 0.5 * G * t * t, rel=1e-12)
    t, vy = curve_data(p, 1, "blue")
    assert vy == pytest.approx(4.0 - G * t, rel=1e-12, abs=1e-12)
    assert p.curves[0]["blue"][0].opts["pen"].color().name() == "#2a6fdb"
    legend = [label.text for _, label in p.plots[0].legend.items]
    assert legend == ["red", "blue"]
    p.choices[0].setCurrentText("kinetic energy (J)")
    t, ke = curve_data(p, 0, "blue")
    assert ke == pytest.approx(0.5 * 3.0 * (4.0 - G * t) ** 2, rel=1e-12)
    p.choices[0].setCurrentText("momentum x (kg·m/s)")
    assert curve_data(p, 0, "red")[1] == pytest.approx(np.full(151, 2.0))


def test_each_frame_reads_only_what_is_new_and_finished_pieces_stay(panel, monkeypatch):
    monkeypatch.setattr(graphs, "PIECE", 50)
    p, bridge = panel
    p.choices[0].setCurrentText("y (m)")  # (drawn anew with the smaller pieces)
    bridge.run(1.0)
    first = p.curves[0]["red"][0]
    data = first.getData()[1].copy()
    bridge.asked.clear()
    for k in range(1, 40):
        bridge.run(1.0 + k * 0.1)
    assert bridge.asked == sorted(bridge.asked) and len(set(bridge.asked)) == len(bridge.asked)
    assert p.curves[0]["red"][0] is first and np.array_equal(first.getData()[1], data)
    assert len(p.curves[0]["red"]) == 10  # 491 samples in pieces of 50
    t, y = curve_data(p, 0, "red")
    assert np.array_equal(np.unique(t), np.arange(491) / 100.0)


def test_follow_shows_the_last_seconds_else_the_whole_run(panel):
    p, bridge = panel
    p.window.setValue(2.0)
    bridge.run(5.0)
    lo, hi = p.plots[0].viewRange()[0]
    assert lo == pytest.approx(3.0, abs=0.1) and hi == pytest.approx(5.0, abs=0.1)
    p.follow.setChecked(False)
    lo, hi = p.plots[0].viewRange()[0]
    assert lo == pytest.approx(0.0, abs=0.15) and hi == pytest.approx(5.0, abs=0.15)


def test_the_cursor_reads_the_values_at_its_time(panel):
    p, bridge = panel
    bridge.run(2.0)
    p.cursors[1].setValue(1.2)  # any plot's cursor moves them all
    assert all(c.value() == pytest.approx(1.2) for c in p.cursors)
    text = p.readout.text()
    assert text.startswith("t = 1.200 s")
    assert f"red {100.0 - 0.5 * G * 1.2**2:.3f}" in text
    assert f"blue {4.0 - G * 1.2:.3f}" in text


def test_selecting_a_body_graphs_it_alone_and_a_new_recording_starts_over(panel):
    p, bridge = panel
    bridge.run(1.0)
    p.set_selected("blue")
    assert list(p.curves[0]) == ["blue"]
    p.set_selected(None)
    assert list(p.curves[0]) == ["red", "blue"]
    bridge.recorder.stop()
    bridge.record(True, 100.0)  # a new recording (say, after Clear)
    bridge.run(1.5)
    t, _ = curve_data(p, 0, "red")
    assert t.min() == pytest.approx(1.0) and np.array_equal(np.unique(t), np.arange(100, 151) / 100.0)


def test_export_writes_png_and_svg(panel, tmp_path):
    p, bridge = panel
    bridge.run(1.0)
    png = p.export_to(str(tmp_path / "plots"))
    assert png.endswith(".png") and (tmp_path / "plots.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = p.export_to(str(tmp_path / "plots.svg"))
    from pathlib import Path

    text = Path(svg).read_text(encoding="utf-8")
    assert "<svg" in text and ("<path" in text or "<polyline" in text)


def test_the_window_s_graphs_action_shows_them_and_records(qtbot, tmp_path):
    from ui.main_window import MainWindow

    w = MainWindow(two_balls(), None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(w)
    w.show()
    assert not w.graphs_dock.isVisible()
    w.graphs_action.trigger()
    assert w.graphs_dock.isVisible()
    qtbot.waitUntil(lambda: w.bridge.recording, timeout=5000)
    w.play_action.trigger()
    qtbot.waitUntil(lambda: "red" in w.graphs_panel.curves[0], timeout=5000)
    w.close()


def test_g_on_the_canvas_shows_the_graphs(qtbot, tmp_path):
    from PySide6.QtCore import Qt

    from ui.main_window import MainWindow

    w = MainWindow(two_balls(), None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(w)
    w.show()
    qtbot.keyClick(w.canvas, Qt.Key_G)
    assert w.graphs_dock.isVisible() and w.graphs_action.isChecked()
    qtbot.keyClick(w.canvas, Qt.Key_G)
    assert not w.graphs_dock.isVisible() and not w.graphs_action.isChecked()
    w.close()


def test_only_the_bodies_a_plot_may_show_are_kept_and_a_later_choice_is_read_whole(qtbot):
    w = World(gravity=(0.0, -G))
    for k in range(graphs.MAX_BODIES + 2):
        w.add_body(Body(f"b{k}", 1.0, 0.1, (3.0 * k, 50.0 + k)))
    bridge = FakeBridge(w)
    p = GraphsPanel(bridge, 100.0)
    qtbot.addWidget(p)
    p.show()
    bridge.run(1.0)
    assert list(p.tracks) == [f"b{k}" for k in range(graphs.MAX_BODIES)]
    last = f"b{graphs.MAX_BODIES + 1}"
    p.set_selected(last)
    assert list(p.curves[0]) == [last]
    t, y = curve_data(p, 0, last)
    assert np.array_equal(np.unique(t), np.arange(101) / 100.0)
    assert y == pytest.approx(50.0 + graphs.MAX_BODIES + 1 - 0.5 * G * t * t, rel=1e-12)


def test_the_plots_are_drawn_at_most_every_refresh_and_the_last_frame_is_never_left_out(panel, monkeypatch, qtbot):
    p, bridge = panel
    monkeypatch.setattr(graphs, "REFRESH_S", 0.2)
    drawn = []
    inner = p.pull
    monkeypatch.setattr(p, "pull", lambda snap=None: (drawn.append(bridge.world.time), inner(snap)))
    p._later.timeout.disconnect()
    p._later.timeout.connect(p.pull)
    p._drawn = -1e9
    for k in range(1, 11):  # ten frames at once: one draw now, the rest wait
        bridge.run(k * 0.05)
    assert len(drawn) == 1
    qtbot.waitUntil(lambda: len(drawn) == 2, timeout=2000)  # the last frame is drawn a little later
    assert drawn[-1] == pytest.approx(0.5)
    t, _ = curve_data(p, 0, "red")
    assert t.max() == pytest.approx(0.5)


def on(curve):
    return curve.getViewBox() is not None


def test_pieces_out_of_view_are_taken_off_and_the_legend_stays(panel, monkeypatch):
    monkeypatch.setattr(graphs, "PIECE", 50)
    p, bridge = panel
    p.choices[0].setCurrentText("y (m)")
    p.window.setValue(2.0)  # follow the last 2 s
    for k in range(1, 61):
        bridge.run(k * 0.1)
    pieces = p.curves[0]["red"]
    assert len(pieces) == 13  # 601 samples in pieces of 50
    shown = [c for c in pieces if on(c)]
    assert 1 <= len(shown) <= 6 and all(c.xData[-1] >= 3.9 for c in shown)
    assert not on(pieces[0])
    legend = [label.text for _, label in p.plots[0].legend.items]
    assert legend == ["red", "blue"] and on(p.keys[0]["red"])
    # the y range fits what is shown: not the blue ball's top, 200.8 m at 0.41 s, long gone by
    high = p.plots[0].getViewBox().viewRange()[1][1]
    apex = 200.0 + 4.0 ** 2 / (2 * G)
    assert high < apex
    p.follow.setChecked(False)  # the whole run: every piece shown, the top in the range
    assert all(on(c) for c in pieces)
    assert p.plots[0].getViewBox().viewRange()[1][1] > apex


def test_a_white_body_is_graphed_in_a_grey_that_shows_on_the_white_plot(qtbot):
    from ui.paint import line_color

    w = two_balls()
    w.body("red").color = "#f0f0f0"  # a white cue ball
    bridge = FakeBridge(w)
    p = GraphsPanel(bridge, 100.0)
    qtbot.addWidget(p)
    p.show()
    bridge.run(0.5)
    pen = p.curves[0]["red"][0].opts["pen"].color()
    assert pen.lightnessF() < 0.5
    assert line_color("#2a6fdb") == "#2a6fdb" and line_color("#ffffff") != "#ffffff"


def replay(bridge, k):
    """The bridge shows recorded sample k (as `SimulationBridge.show_sample` does)."""
    bridge.replaying = True
    bridge.snapshot.emit(bridge.recorder.snapshot(k))


def test_a_replayed_instant_is_drawn_at_once_with_the_samples_not_drawn_yet(panel, monkeypatch, qtbot):
    p, bridge = panel
    p.window.setValue(2.0)  # follow the last 2 s
    for k in range(1, 101):
        bridge.run(k * 0.1)
    monkeypatch.setattr(graphs, "REFRESH_S", 0.2)
    bridge.run(10.05)  # drawn now
    bridge.run(10.1)  # put off: not drawn yet
    assert p._later.isActive()
    last = bridge.recorder.count - 1
    replay(bridge, last)  # End: the newest sample, which the plots had not drawn
    assert p.cursors[0].value() == 10.1
    assert "red" in p.readout.text()
    replay(bridge, 200)  # back to t = 2 s; the draw put off must not take the plots back to the end
    qtbot.wait(300)
    lo, hi = p.plots[0].getViewBox().viewRange()[0]
    assert lo < 2.0 < hi and p.cursors[0].value() == 2.0
    p.window.setValue(3.0)  # a new width, around the instant still
    lo, hi = p.plots[0].getViewBox().viewRange()[0]
    assert lo < 2.0 < hi and hi - lo == pytest.approx(3.0 * 1.04)
    bridge.replaying = False  # Live again (paused: nothing new recorded): the plots follow the end
    bridge.snapshot.emit(bridge.world.snapshot())
    lo, hi = p.plots[0].getViewBox().viewRange()[0]
    assert lo < 10.1 < hi and hi - lo == pytest.approx(3.0 * 1.04)


def test_every_piece_on_a_plot_is_thinned_alike_the_new_ones_and_those_put_back_too(panel, monkeypatch):
    monkeypatch.setattr(graphs, "PIECE", 100)
    p, bridge = panel
    p.resize(600, 400)
    p.window.setValue(2.0)
    for k in range(1, 301):
        bridge.run(k * 0.1)  # 30 s, following the last 2 s
    p.follow.setChecked(False)  # the whole run: thinned
    whole = p._ds
    assert whole > 1
    for k in range(301, 321):  # new pieces, on a plot thinned alike
        bridge.run(k * 0.1)
    pieces = p.curves[0]["red"]
    assert p._ds == whole and all(c.opts["downsample"] == whole for c in pieces)
    p.follow.setChecked(True)
    p.window.setValue(20.0)  # following the last 20 s: thinned less
    following = p._ds
    assert 1 < following < whole
    replay(bridge, 500)  # 20 s around t = 5 s: pieces put back on the plot
    shown = [c for c in pieces if on(c)]
    assert shown[0] is pieces[0] and all(c.opts["downsample"] == following for c in shown)


def test_a_plot_shown_again_shows_the_whole_recording_at_once(panel):
    p, bridge = panel
    assert p.count.value() == 2
    for k in range(1, 51):
        bridge.run(k * 0.1)
    p.count.setValue(3)  # paused: no new frame comes to draw it
    t, y = curve_data(p, 2, "red")  # plot 2: x (m)
    assert t.max() == pytest.approx(5.0)
    assert y == pytest.approx(2.0 * t, rel=1e-12)


def test_a_plot_drawn_anew_shows_only_the_pieces_in_view(panel, monkeypatch):
    monkeypatch.setattr(graphs, "PIECE", 50)
    p, bridge = panel
    p.window.setValue(2.0)  # follow the last 2 s
    for k in range(1, 61):
        bridge.run(k * 0.1)
    apex = 200.0 + 4.0 ** 2 / (2 * G)  # the blue ball's top, at 0.41 s, long gone by
    p.set_selected("blue")  # paused: the plots are drawn anew for the one body
    assert not on(p.curves[0]["blue"][0])
    p.choices[0].setCurrentText("y (m)")
    p.choices[0].setCurrentText("x (m)")
    p.choices[0].setCurrentText("y (m)")
    assert not on(p.curves[0]["blue"][0])
    assert p.plots[0].getViewBox().viewRange()[1][1] < apex
