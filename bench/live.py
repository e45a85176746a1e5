"""Benchmark: the physics thread live, on the gas-in-a-box scene of `bench.box`.

For N bodies the world is first advanced 5 s of simulated time (the gas has
fallen into its hot lower layer), then a Simulation runs it for a few seconds
of wall time, twice: running free (no sleeping) and at its default rate. Meanwhile
this thread sends a gravity edit every few milliseconds and times each from
send to applied (the Future's answer, given once the snapshot shows it).
Prints cycles per second, simulated time / wall time, the time a cycle takes
to compute,
and command latency (median, 99th percentile) against the goal "p99 under one
cycle plus 2 ms"; and, as the peer measured in the same run, how many 1/240 s
steps per second pymunk manages on the same scene.

    python -m bench.live [N ...]        (default: 100 1000 5000)
"""

from __future__ import annotations

import random
import sys
import time

import numpy as np

from bench.box import DT, box_space, box_world, steps_per_second
from classroom_sim import Simulation, commands
from classroom_sim.simulation import RATE

SETTLE_S = 5.0
WARM_S = 1.0
TIMED_S = 3.0


def settled_world(n: int):
    world = box_world(n)
    for _ in range(int(round(SETTLE_S / DT))):
        world.step(DT)
    return world


def measure(world, rate):
    """(cycles/s, simulated/wall, s of work per cycle, latencies in s) of a Simulation running ``world``."""
    sim = Simulation(world, rate=rate)
    sim.start()
    try:
        while sim.cycles < 3:
            time.sleep(0.01)
        time.sleep(WARM_S)
        rng = random.Random(1)
        sent, applied = [], []
        c0, b0, t0, w0 = sim.cycles, sim._busy, sim.latest.time, time.perf_counter()
        while time.perf_counter() - w0 < TIMED_S:
            k = len(sent)
            sent.append(time.perf_counter())
            applied.append(None)
            future = sim.send(commands.SetGravity((0.0, -9.81 - 1e-9 * (k % 2))))
            future.add_done_callback(lambda f, k=k: applied.__setitem__(k, time.perf_counter()))
            time.sleep(rng.uniform(0.002, 0.012))
        c1, b1, t1, w1 = sim.cycles, sim._busy, sim.latest.time, time.perf_counter()
        while applied[-1] is None:
            time.sleep(0.001)
    finally:
        sim.stop()
    latency = np.array(applied) - np.array(sent)
    return (c1 - c0) / (w1 - w0), (t1 - t0) / (w1 - w0), (b1 - b0) / (c1 - c0), latency


def main(argv=None) -> None:
    sizes = [int(a) for a in (argv if argv else [100, 1000, 5000])]
    print(f"{'N':>6} {'mode':>9} {'cycles/s':>9} {'sim/wall':>9} {'cycle ms':>9} "
          f"{'lat p50 ms':>11} {'lat p99 ms':>11} {'goal p99 ms':>12} {'pymunk 1/240 s steps/s':>23}")
    for n in sizes:
        try:
            peer = f"{steps_per_second(box_space(n).step):.0f}"
        except ImportError:
            peer = "n/a"
        for mode, rate in (("free", None), ("real time", RATE)):
            cps, ratio, cycle, latency = measure(settled_world(n), rate)
            cycle_ms = 1e3 * cycle  # the work of one cycle, in this mode
            goal = cycle_ms + 2.0
            p50, p99 = np.percentile(latency, [50, 99]) * 1e3
            print(f"{n:>6} {mode:>9} {cps:>9.0f} {ratio:>9.3f} {cycle_ms:>9.2f} "
                  f"{p50:>11.2f} {p99:>11.2f} {goal:>12.2f} {peer:>23}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
