"""The bridge is the GUI's only way to the physics thread: its verbs do what they say,
and no widget reaches around it to the Simulation or into the engine's modules."""

import ast
from pathlib import Path

import pytest

from classroom_sim import read_csv
from tests.ui.helpers import falling_world
from ui.bridge import SimulationBridge

UI = Path(__file__).resolve().parents[2] / "ui"
G = 9.81


@pytest.fixture
def bridge(qtbot):
    b = SimulationBridge(falling_world())
    yield b
    b.close()


def answered(qtbot, future):
    qtbot.waitUntil(future.done, timeout=5000)
    assert future.exception() is None


def test_play_pause_and_step_go_through_the_bridge(qtbot, bridge):
    assert bridge.paused
    answered(qtbot, bridge.toggle_play())
    assert not bridge.paused
    qtbot.waitUntil(lambda: bridge.latest.time > 0.05, timeout=5000)
    answered(qtbot, bridge.toggle_play())
    assert bridge.paused
    t = bridge.latest.time
    done = []
    answered(qtbot, bridge.step_once(done.append))
    qtbot.waitUntil(lambda: done == [True], timeout=5000)
    qtbot.waitUntil(lambda: bridge.latest.time > t, timeout=5000)
    # free fall from rest, exact at whatever time the steps reached
    snap = bridge.latest
    assert snap.positions[0, 1] == pytest.approx(10.0 - 0.5 * G * snap.time**2, abs=1e-9)


def test_time_scale_is_checked_and_kept(bridge):
    bridge.time_scale = 0.25
    assert bridge.time_scale == 0.25
    with pytest.raises(ValueError, match="time_scale"):
        bridge.time_scale = -1.0
    assert bridge.time_scale == 0.25


def test_record_export_and_save_through_the_bridge(qtbot, bridge, tmp_path):
    answered(qtbot, bridge.record(True, 100.0))
    assert bridge.recording
    answered(qtbot, bridge.toggle_play())
    qtbot.waitUntil(lambda: bridge.latest.time > 0.2, timeout=5000)
    answered(qtbot, bridge.toggle_play())
    answered(qtbot, bridge.record(False, 100.0))
    assert not bridge.recording
    out = tmp_path / "fall.csv"
    answered(qtbot, bridge.export_csv(out, "long"))
    rows = read_csv(out)["ball"]
    assert len(rows) >= 20
    for t, x, y, *_ in rows:
        assert y == pytest.approx(10.0 - 0.5 * G * t * t, abs=1e-9)
    scene = tmp_path / "now.toml"
    answered(qtbot, bridge.save_scene(scene))
    assert "ball" in scene.read_text()


def test_a_refused_export_reaches_the_gui_as_a_message(qtbot, bridge, tmp_path):
    messages = []
    bridge.refused.connect(messages.append)
    future = bridge.export_csv(tmp_path / "nowhere" / "x.csv", "long")
    qtbot.waitUntil(future.done, timeout=5000)
    qtbot.waitUntil(lambda: bool(messages), timeout=5000)
    assert future.exception() is not None
    assert len(messages) == 1 and "\n" not in messages[0]


def _python_files():
    return sorted(p for p in UI.rglob("*.py"))


def test_no_widget_reaches_around_the_bridge():
    """Only the bridge names the Simulation; everything else uses its verbs."""
    offenders = []
    for path in _python_files():
        if path.name == "bridge.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "simulation":
                offenders.append(f"{path.relative_to(UI)}:{node.lineno}")
            if isinstance(node, ast.Name) and node.id == "Simulation":
                offenders.append(f"{path.relative_to(UI)}:{node.lineno}")
    assert offenders == []


def test_the_ui_imports_the_engine_by_its_public_names():
    """`from classroom_sim import ...` only: the engine's modules are its own business.
    The one exception is the engine's way of compiling (`classroom_sim.compiled`), which the
    raster shares so that its compiled code is cached in the same private folder."""
    offenders = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("classroom_sim."):
                if node.module != "classroom_sim.compiled":
                    offenders.append(f"{path.relative_to(UI)}: {node.module}")
            if isinstance(node, ast.Import):
                offenders += [f"{path.relative_to(UI)}: {a.name}" for a in node.names
                              if a.name.startswith("classroom_sim.")]
    assert offenders == []


def test_clear_recording_from_the_window_throws_the_recording_away(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from ui.main_window import MainWindow

    w = MainWindow(falling_world(), None, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(w)
    w.record_action.trigger()
    w.play_action.trigger()
    qtbot.waitUntil(lambda: w.bridge.latest.time > 0.1, timeout=5000)
    w.record_action.trigger()  # off: kept
    answered(qtbot, w.bridge.export_csv(tmp_path / "kept.csv"))
    w.clear_record_action.trigger()
    qtbot.waitUntil(lambda: "cleared" in w.statusBar().currentMessage(), timeout=5000)
    future = w.bridge.export_csv(tmp_path / "gone.csv")
    qtbot.waitUntil(future.done, timeout=5000)
    assert "nothing has been recorded" in str(future.exception())
    w.close()


def test_garbage_is_collected_in_the_gui_thread_while_the_physics_runs(qtbot):
    """Python's cyclic collector runs in whichever thread happens to allocate: in the
    physics thread it would destroy Qt objects of the GUI thread (a window closed earlier,
    a timer), which deadlocked a run. While a bridge is open, collection is the GUI thread's."""
    import gc
    import threading
    import weakref

    from PySide6.QtCore import QObject

    from classroom_sim import Body, World

    world = World(gravity=(0.0, -G))
    for k in range(300):  # a World whose copy allocates thousands of objects
        world.add_body(Body(f"b{k}", 1.0, 0.1, (k * 1.0, 10.0)))
    b = SimulationBridge(world)
    where = []

    class Held(QObject):
        pass

    gc.collect()
    for _ in range(50):
        held = Held()
        held.me = held  # a cycle: only the collector frees it
        weakref.finalize(held, lambda: where.append(threading.current_thread().name))
    del held
    try:
        for _ in range(30):  # the physics thread allocates (a copy of the World each time)
            b.keep_as_start().result(timeout=10)
        qtbot.waitUntil(lambda: len(where) == 50, timeout=5000)
    finally:
        b.close()
    assert set(where) == {threading.main_thread().name}
    assert gc.isenabled()  # the last bridge closed: automatic collection is back


def test_collection_stays_the_gui_threads_until_an_export_running_at_close_is_done(qtbot, tmp_path, monkeypatch):
    """An export goes on in its own thread after the window closed. Until it is done,
    automatic collection stays off (it would run in that thread, among Qt objects of the
    closed window), and the file is written whole; then collection is back on."""
    import gc
    import threading

    from classroom_sim.recording import Recording

    release = threading.Event()
    write = Recording.write_csv

    def slow(self, path, layout="long"):
        assert release.wait(10)
        return write(self, path, layout)

    monkeypatch.setattr(Recording, "write_csv", slow)
    b = SimulationBridge(falling_world())
    out = tmp_path / "late.csv"
    try:
        try:
            answered(qtbot, b.record(True, 100.0))
            answered(qtbot, b.step_once())
            future = b.export_csv(out, "long")
            qtbot.waitUntil(lambda: b.simulation.exporting, timeout=5000)
        finally:
            b.close()
        assert not gc.isenabled()  # (the export still runs)
    finally:
        release.set()  # (whatever failed: the export ends, and collection comes back)
    future.result(timeout=5)
    qtbot.waitUntil(gc.isenabled, timeout=5000)
    assert "ball" in out.read_text()
