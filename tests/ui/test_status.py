"""The status bar says when a cap simplified steps (a step never degrades silently), and
how fast the canvas paints."""

import time
from collections import deque

import pytest
from PySide6.QtCore import QSettings

from classroom_sim import Body, World, collisions
from ui.bridge import SimulationBridge
from ui.canvas import Canvas
from ui.main_window import MainWindow


def test_simplified_steps_show_in_the_status_bar(qtbot, tmp_path):
    world = World(gravity=(0.0, 0.0))
    n = 3 * collisions.SEPARATION_PASSES_MOST
    for k in range(n):  # pressed half into each other and hit: more links than a step's passes
        world.add_body(Body(f"b{k}", 1.0, 0.5, (0.5 * k, 0.0)))
    world.add_body(Body("hammer", 1.0, 0.5, (0.5 * n + 0.5, 0.0), (-1.0, 0.0)))
    w = MainWindow(world, None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(w)
    w.show()
    assert w.status_line.degraded.text() == ""
    w.play_action.trigger()
    qtbot.waitUntil(lambda: "simplified" in w.status_line.degraded.text(), timeout=10000)
    assert "pressed into each other" in w.status_line.degraded.toolTip()
    w.close()


def test_the_frame_rate_is_of_the_frames_painted_lately(qapp):
    """Paused, the canvas paints now and then; after Play, 60 frames a second. The frame
    rate read 4 frames/s for the first second after Play, the pause's frames still among
    those it counted: it is of the last second's frames, and 0 with none painted in it."""
    world = World(gravity=(0.0, 0.0))
    world.add_body(Body("A", 1.0, 0.5, (0.0, 0.0)))
    bridge = SimulationBridge(world, start=False)
    try:
        canvas = Canvas(bridge)
        now = time.perf_counter()
        paused = [now - 30.0 + 2.0 * k for k in range(13)]  # a frame every 2 s, the last 6 s ago
        playing = [now - 0.5 + k / 60.0 for k in range(31)]  # Play half a second ago
        canvas._frame_times = deque(paused + playing, maxlen=120)
        assert canvas.fps == pytest.approx(60.0, rel=0.01)
        canvas._frame_times = deque(paused, maxlen=120)
        assert canvas.fps == 0.0  # nothing painted in the last second
    finally:
        bridge.close()
