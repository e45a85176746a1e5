"""Benchmark: the desktop app, offscreen, running the gas-in-a-box scene of `bench.box`.

For N bodies (settled for 5 s of simulated time first, as in `bench.live`) the
main window runs at 1600x1000 with its default display, and for a few seconds
of wall time this prints: frames painted per second, physics cycles per second,
simulated time / wall time, and how many frames it takes a gravity edit made in
the world panel to show on screen (the worst of ten). As the peer measured in
the same run: how long a pyqtgraph plot of the canvas's size takes to draw the
same bodies with its ScatterPlotItem (its batched drawing of many symbols),
against our canvas drawing its whole frame (grid, bodies, trails, arrows).

    python -m bench.gui [N ...]        (default: 100 1000 5000)
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
from PySide6.QtCore import QCoreApplication, QEventLoop  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from bench.live import settled_world  # noqa: E402

SIZE = (1600, 1000)
WARM_S = 1.0
TIMED_S = 3.0
EDITS = 10


def spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        QCoreApplication.processEvents(QEventLoop.AllEvents, 5)
        time.sleep(0.001)


def frames_to_show_an_edit(window) -> int:
    """Frames painted between a gravity edit in the world panel and the first frame that shows it."""
    worst = 0
    for k in range(EDITS):
        target = -9.0 - 0.1 * k
        before = window.canvas.frames
        window.world_panel.vector.y.setValue(target)
        end = time.perf_counter() + 2.0
        while time.perf_counter() < end:
            QCoreApplication.processEvents(QEventLoop.AllEvents, 5)
            shown = window.canvas.painted
            if shown is not None and shown.settings.gravity[1] == target:
                break
            time.sleep(0.0005)
        worst = max(worst, window.canvas.frames - before)
        spin(0.05)
    return worst


def peer_ms(snapshot, view) -> float:
    """ms for a pyqtgraph plot of the same size to draw the bodies as a ScatterPlotItem
    (discs of their sizes and colours, outlined, in the same view)."""
    import pyqtgraph as pg

    widget = pg.GraphicsLayoutWidget()
    widget.resize(view.width, view.height)
    box = widget.addViewBox(lockAspect=True, enableMouse=False)
    item = pg.ScatterPlotItem(x=snapshot.positions[:, 0], y=snapshot.positions[:, 1],
                              size=2 * snapshot.radii * view.scale, pxMode=True,
                              brush=[pg.mkBrush(c) for c in snapshot.colors], pen=pg.mkPen("#2b2b2b"))
    box.addItem(item)
    x0, y0, x1, y1 = view.visible()
    box.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)
    widget.show()
    spin(0.2)
    times = []
    for _ in range(10):
        t = time.perf_counter()
        widget.grab()
        times.append(time.perf_counter() - t)
    widget.close()
    return 1e3 * float(np.median(times[2:]))


def ours_ms(window) -> float:
    times = []
    for _ in range(10):
        t = time.perf_counter()
        window.canvas.grab()
        times.append(time.perf_counter() - t)
    return 1e3 * float(np.median(times[2:]))


def main(argv=None) -> None:
    sizes = [int(a) for a in (argv if argv else [100, 1000, 5000])]
    app = QApplication.instance() or QApplication(sys.argv[:1])
    from ui.main_window import MainWindow

    print(f"{'N':>6} {'frames/s':>9} {'cycles/s':>9} {'sim/wall':>9} {'edit frames':>12} "
          f"{'frame ms':>9} {'pyqtgraph ms':>13} {'ratio':>6}")
    for n in sizes:
        window = MainWindow(settled_world(n), None)
        window.resize(*SIZE)
        window.show()
        spin(0.2)
        window.canvas.fit()
        window.play_action.trigger()
        sim = window.bridge.simulation
        while sim.cycles < 3:
            spin(0.01)
        spin(WARM_S)
        f0, c0, t0, w0 = window.canvas.frames, sim.cycles, window.bridge.latest.time, time.perf_counter()
        spin(TIMED_S)
        f1, c1, t1, w1 = window.canvas.frames, sim.cycles, window.bridge.latest.time, time.perf_counter()
        edit = frames_to_show_an_edit(window)
        window.play_action.trigger()
        spin(0.1)
        mine = ours_ms(window)
        peer = peer_ms(window.bridge.latest, window.canvas.view)
        window.close()
        print(f"{n:>6} {(f1 - f0) / (w1 - w0):>9.1f} {(c1 - c0) / (w1 - w0):>9.0f} {(t1 - t0) / (w1 - w0):>9.3f} "
              f"{edit:>12d} {mine:>9.2f} {peer:>13.2f} {peer / mine:>6.2f}", flush=True)
    del app


if __name__ == "__main__":
    main(sys.argv[1:])
