"""Benchmark: the desktop app measuring while it runs: two live graphs of ten bodies,
the energy meter, over the gas-in-a-box scene of `bench.box`.

For N bodies (settled first, as in `bench.live`) the main window runs at
1600x1000 with the graphs shown (two plots; nothing selected, so they plot the
first ten bodies recorded) and the energy panel in front. At each checkpoint of
simulated time it prints, over a few seconds of wall time: frames painted per
second, physics cycles per second, simulated time / wall time, the samples
recorded, and the graphs' own cost per frame of the canvas (ms the GUI thread
spent reading the new samples, drawing them and painting the plots). The peer,
measured at the same instant: redrawing each graphed curve from the whole
recording (what a graph that is not incremental would do at every draw), whose
cost grows with the run, against ours per draw (the plots are drawn at most ten
times a second: `graphs.REFRESH_S`).

The recording keeps at most `recording.MAX_BYTES`: 5,000 bodies at 100 Hz fill it
in about 17 s, after which nothing new is recorded (and the graphs have nothing
new to draw). So the default runs two scenes: 5,000 bodies at 10 s (the frame
rate with the graphs drawing), and 100 bodies at 10 s and at 300 s (the graphs'
cost against the run's length, with the whole run recorded).

    python -m bench.graphs                         (5000 at 10 s, then 100 at 10 and 300 s)
    python -m bench.graphs N [--at S ...]          (one scene)
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pyqtgraph as pg  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from bench.gui import SIZE, spin  # noqa: E402
from bench.live import settled_world  # noqa: E402

TIMED_S = 3.0


def timed(obj, name: str, spent: list):
    """Wrap ``obj.name`` so that each call adds its wall time to ``spent``."""
    inner = getattr(obj, name)

    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - t0)
    setattr(obj, name, wrapper)


def peer_ms(window) -> float:
    """ms to draw every graphed curve again from the whole recording (two plots)."""
    bridge = window.bridge
    _, segments = bridge.samples_since(0)
    names = window.graphs_panel.graphed()[:10]
    plot = pg.PlotWidget()
    plot.resize(SIZE[0], 300)
    curves = [plot.plot() for _ in range(2 * len(names))]
    t0 = time.perf_counter()
    k = 0
    for quantity in (0, 1):  # x and y of each body, as the two default plots
        for name in names:
            times = np.concatenate([s.times for s in segments if name in s.names])
            values = np.concatenate([s.data[:, s.names.index(name), quantity] for s in segments if name in s.names])
            curves[k].setData(times, values)
            k += 1
    plot.grab()
    ms = 1000 * (time.perf_counter() - t0)
    plot.close()
    return ms


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.graphs")
    parser.add_argument("n", nargs="?", type=int, default=None)
    parser.add_argument("--at", type=float, nargs="+", default=[10.0, 300.0], help="checkpoints, s of simulated time")
    args = parser.parse_args(argv)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    runs = [(args.n, args.at)] if args.n is not None else [(5000, [10.0]), (100, [10.0, 300.0])]
    for n, at in runs:
        run(n, at)
    del app


def run(n: int, checkpoints) -> None:
    from ui.main_window import MainWindow

    window = MainWindow(settled_world(n), None)
    window.resize(*SIZE)
    window.show()
    spin(0.2)
    window.show_graphs(True)
    window.graphs_panel.count.setValue(2)
    window.energy_dock.raise_()
    spent: list = []
    draws: list = []
    view = window.graphs_panel.view
    timed(window.graphs_panel, "pull", draws)  # (called by the panel's own timer and slot)
    window.graphs_panel._later.timeout.disconnect()
    window.graphs_panel._later.timeout.connect(window.graphs_panel.pull)
    painted = type(view).paintEvent  # the plots' paint, where most of their cost is

    def paint(self, event):
        t0 = time.perf_counter()
        try:
            return painted(self, event)
        finally:
            if self is view:
                spent.append(time.perf_counter() - t0)
    type(view).paintEvent = paint
    window.play_action.trigger()
    start = window.bridge.latest.time
    print(f"N = {n}: two graphs of {min(10, n)} bodies, the energy meter, recording at 100 Hz")
    print(f"{'run s':>7} {'samples':>8} {'frames/s':>9} {'cycles/s':>9} {'sim/wall':>9} {'graphs ms/frame':>16} "
          f"{'ms/draw':>8} {'redraw-all ms':>14} {'ratio':>6}")
    sim = window.bridge.simulation
    for at in checkpoints:
        while window.bridge.latest.time - start < at - TIMED_S:
            spin(0.25)
        spent.clear()
        draws.clear()
        f0, c0, t0, w0 = window.canvas.frames, sim.cycles, window.bridge.latest.time, time.perf_counter()
        spin(TIMED_S)
        f1, c1, t1, w1 = window.canvas.frames, sim.cycles, window.bridge.latest.time, time.perf_counter()
        frames = max(f1 - f0, 1)
        total = 1000 * (sum(spent) + sum(draws))
        graphs, per_draw = total / frames, total / max(len(draws), 1)
        peer = peer_ms(window)
        print(f"{t1 - start:>7.1f} {window.bridge.samples:>8d} {frames / (w1 - w0):>9.1f} {(c1 - c0) / (w1 - w0):>9.0f} "
              f"{(t1 - t0) / (w1 - w0):>9.3f} {graphs:>16.2f} {per_draw:>8.2f} {peer:>14.2f} "
              f"{peer / per_draw if draws else 0:>6.1f}", flush=True)
        if window.bridge.recording_full:
            print("        the recording is full (recording.MAX_BYTES): nothing new is recorded or drawn from here")
    type(view).paintEvent = painted
    window.close()


if __name__ == "__main__":
    main(sys.argv[1:])
