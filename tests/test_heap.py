"""The memory a step frees is kept for the next step (classroom_sim.heap)."""

import os
import subprocess
import sys
import textwrap

import pytest

from classroom_sim import heap

GLIBC = hasattr(os, "confstr") and (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc")


@pytest.mark.skipif(not GLIBC or "LD_PRELOAD" in os.environ,
                    reason="the thresholds are glibc's (another allocator may be preloaded)")
def test_large_steps_touch_no_fresh_pages():
    """A gas of 10,000 balls: each step allocates blocks of a number or two a body, over
    glibc's first mmap threshold (128 KiB). Before the heap kept them, a fresh process
    faulted in about 260 pages a step, every step."""
    script = textwrap.dedent("""
        import math, resource
        import numpy as np
        from classroom_sim import Body, World
        n, r = 10_000, 0.05
        side = math.sqrt(n * math.pi * r * r / 0.2)
        rng = np.random.default_rng(1)
        per_row = int((side - 2 * r) // (2.2 * r))
        cells = rng.choice(per_row * per_row, size=n, replace=False)
        pos = 1.1 * r + 2.2 * r * np.stack([cells % per_row, cells // per_row], axis=1)
        vel = rng.uniform(-1.0, 1.0, size=(n, 2))
        world = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, side, side), restitution=1.0)
        world.add_bodies([Body(f"b{k}", 1.0, r, pos[k], vel[k]) for k in range(n)])
        for _ in range(10):
            world.step(1 / 240)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for _ in range(40):
            world.step(1 / 240)
        print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 40)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    faults = float(out.stdout.split()[-1])
    assert faults < 20, f"{faults} page faults a step"


def test_keeps_freed_memory_on_glibc_only(monkeypatch):
    assert heap.keep_freed() is GLIBC
    monkeypatch.setattr(heap.os, "confstr", lambda name: "musl")
    assert heap.keep_freed() is False

    def unknown(name):
        raise ValueError(f"unrecognized configuration name: {name}")

    monkeypatch.setattr(heap.os, "confstr", unknown)
    assert heap.keep_freed() is False
