"""Measure: a change to the engine against a commit of it, the two stepping in turns in one process.

This machine's speed drifts from minute to minute: one engine measured 128 to 186
ns/body-step at N = 100 within an hour. Two runs of ``bench.box``, one after the other,
cannot tell a change of a few percent. Here the engine of REF (a git commit) is
unpacked beside the working tree's under another package name. Both step bench.box's
gas from the same start, in turns, block by block (each block about 0.2 s; which engine
goes first alternates). Prints, for each N:

- each engine's median ns/body-step;
- the median of the per-block ratios (working tree / REF), and their quartiles;
- whether the two states are still the same to the bit. A change meant to do the same
  work must leave them so; a change of physics may not.

    python -m bench.ab REF [--blocks B] [N ...]      (default: 40 blocks, N = 100 1000)
    python -m bench.ab HEAD 1000                      (what the uncommitted change does)

Know the noise first: the same engine against itself (``python -m bench.ab HEAD`` with
nothing changed) gave medians of 1.004 at N = 100 and 1.032 at N = 1,000, quartiles
0.95-1.04 and 0.99-1.10. A median nearer 1 than that has shown nothing.

Both engines compile anew in each run (a minute or two), into a folder of the run's own
that is removed after it: two copies of the engine in one process must not write into the
engine's own numba cache (compiled code there would name the other copy's types).
"""

from __future__ import annotations

import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REF_NAME = "classroom_sim_ref"


def unpack(ref: str, into: Path) -> None:
    """The engine of commit ``ref`` as the package `REF_NAME` in ``into``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "classroom_sim"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    (into / "classroom_sim").rename(into / REF_NAME)


def quartiles(values: list) -> tuple:
    ordered = sorted(values)
    return ordered[len(ordered) // 4], statistics.median(ordered), ordered[(3 * len(ordered)) // 4]


def compare(ref_pkg, new_pkg, n: int, blocks: int) -> str:
    from bench.box import DT, WARMUP_S, box_world

    old, new = box_world(n, engine=ref_pkg), box_world(n, engine=new_pkg)
    for _ in range(int(round(WARMUP_S / DT))):
        old.step(DT)
        new.step(DT)
    steps = max(5, 200_000 // n)
    times = {id(old): [], id(new): []}
    for b in range(blocks):
        for world in ((old, new) if b % 2 == 0 else (new, old)):
            start = time.perf_counter()
            for _ in range(steps):
                world.step(DT)
            times[id(world)].append((time.perf_counter() - start) / steps / n * 1e9)
    t_old, t_new = times[id(old)], times[id(new)]
    low, mid, high = quartiles([a / b for a, b in zip(t_new, t_old)])
    same = bool((old._pos == new._pos).all() and (old._vel == new._vel).all())
    return (f"{n:>6} {statistics.median(t_old):>8.1f} {statistics.median(t_new):>8.1f} "
            f"{mid:>8.3f} [{low:.3f}, {high:.3f}] {'yes' if same else 'no':>5}")


def _stop(signum, frame):
    raise SystemExit(128 + signum)


def main(argv=None) -> None:
    argv = list(argv if argv is not None else sys.argv[1:])
    if not argv or argv[0].startswith("-"):
        raise SystemExit("usage: python -m bench.ab REF [--blocks B] [N ...]")
    ref = argv.pop(0)
    blocks = 40
    try:
        if "--blocks" in argv:
            k = argv.index("--blocks")
            blocks = int(argv[k + 1])
            del argv[k:k + 2]
        sizes = [int(a) for a in argv] or [100, 1000]
    except (ValueError, IndexError):
        raise SystemExit("usage: python -m bench.ab REF [--blocks B] [N ...] (B and N whole numbers)") from None
    if blocks < 1 or min(sizes) < 2:
        raise SystemExit("bench.ab: at least 1 block and 2 bodies")
    into = Path(tempfile.mkdtemp(prefix="classroom-sim-ab-"))
    try:
        try:
            unpack(ref, into)
        except subprocess.CalledProcessError as exc:
            raise SystemExit(f"bench.ab: git cannot give the engine of {ref!r}: "
                             f"{exc.stderr.decode(errors='replace').strip()}") from None
        env = dict(os.environ, NUMBA_CACHE_DIR=str(into / "numba"))
        code = "import sys; from bench.ab import measure; measure(*sys.argv[1:])"
        child = subprocess.Popen([sys.executable, "-c", code, str(into), ref, str(blocks), *map(str, sizes)],
                                 cwd=ROOT, env=env)
        signal.signal(signal.SIGTERM, _stop)  # (so that the child and the folder go too)
        try:
            if child.wait():
                raise SystemExit(1)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
    finally:
        shutil.rmtree(into, ignore_errors=True)


def measure(into: str, ref: str, blocks: str, *sizes: str) -> None:
    """The measurement, in a process whose numba cache is the run's own (`main`)."""
    sys.path.insert(0, into)
    import classroom_sim as new_pkg
    ref_pkg = __import__(REF_NAME)
    print(f"The working tree against {ref}, {blocks} blocks each, ns/body-step (bench.box's gas):")
    print(f"{'N':>6} {'ref':>8} {'new':>8} {'new/ref':>8} {'quartiles':>16} {'same':>5}")
    for n in map(int, sizes):
        print(compare(ref_pkg, new_pkg, n, int(blocks)), flush=True)


if __name__ == "__main__":
    main()
