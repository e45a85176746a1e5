"""Measure: how many piles come to rest (SCENE_FORMAT, "Resting contact").

100 balls (r 0.1 m, 1 kg, restitution 0.5 with each other and the walls) are dropped
from a loose grid, as the engine's pile test drops them, into boxes of several widths,
under gravity of 9.81 m/s² tilted sideways by several pulls (a student tilting gravity),
from several jitters of the grid (seeds). After ``--seconds`` (20 by default), a pile is:

- at rest: every speed under 1e-3 m/s and the kinetic energy under 1e-6 J;
- bouncing: bodies still collided in the last second;
- moving: no collision, speeds or energy over those limits, and some ball got at least
  1 mm (1e-3 m/s for the last second) from where it was as the second began, or half as
  far as the largest speed would carry a ball in the second: frictionless balls keep
  sliding (a pile dropped with some sideways momentum slides along the floor as a block,
  down to a creep that is put to rest, `collisions.still.STATIC`; a ball slides down a
  wall into a gap), as the textbook has them;
- a ghost: no collision, speeds or energy over those limits, and no ball got that far
  (the pile stands still on screen while the engine reports it moving).

Then how many piles boil: hold more than `BOILING` of kinetic energy at the end, and
how much they hold in all (energy the engine made: mixed piles under tilted gravity did,
until the level solve was kept from making it, `collisions.velocities._no_energy_made`).
And the deepest overlap at the end of any pile, of two balls or of a ball into a wall
(SCENE_FORMAT's resting piles keep overlaps under 1% of a radius).

``--peg`` drops, instead, 20-40 balls (as many as the seed draws) onto a fixed peg in the
middle of a box 1.2 m wide, as the engine's test of bodies at rest does (a teacher's round
numbers: a row of six balls fills the box from wall to wall), one pile a seed, seeds 0-159
unless ``--seeds`` says; balls lean on each other between the peg and the walls, arches
that the level solve must let give way (`classroom_sim.collisions.velocities`).

``--mixed`` drops balls of mixed sizes and masses instead (radius 0.08-0.1 m and mass
0.5-2 kg, each drawn at random from the seed, the grid as before), as a class's
assorted balls would be: they pack into no crystal, and a pile of them flows further
before it stands.

Prints one line a pile and the four counts. Each pile is chaotic (a change in the
order in which contacts are taken moves single piles either way): compare counts over
many piles, not single piles, and know the noise: one engine gave 492 / 7 / 39 / 2
(at rest / moving / ghost / bouncing) over seeds 5-22 and 485 / 12 / 35 / 8 over
seeds 23-40, 540 piles each. A change that moves the counts of 540 piles by less than
about 15 has not shown that it does anything.

    python -m bench.piles [--mixed | --peg] [--seconds S] [--seeds 5 6 7 8]
"""

from __future__ import annotations

import math
import os
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from classroom_sim import Body, World

DT = 1.0 / 240.0
G = 9.81
WIDTHS = (2.0, 2.05, 2.1, 2.2, 2.33, 2.5)
SIDEWAYS = (0.0, 0.5, 2.0, -1.0, 4.0)
SEEDS = (5, 6, 7, 8)
PEG_SEEDS = tuple(range(160))
PEG_WIDTH = 1.2
SPEED_AT_REST = 1e-3
ENERGY_AT_REST = 1e-6
BOILING = 0.1
"""J: a pile holding more kinetic energy than this at the end boils (nothing in a pile
supplies energy: the engine made it). A pile of 100 balls of 1 kg at rest holds none; 0.1 J
is every ball moving at 4.5 cm/s."""
MOVED = SPEED_AT_REST * 1.0
"""m: a ball that got this far in the last second moved (what the speed limit covers in it)."""


def pile(sideways: float, width: float, seed: int, seconds: float, mixed: bool = False) -> tuple:
    """Drop the pile (of mixed balls if ``mixed``); returns (largest speed, kinetic energy,
    collisions in the last second, the farthest any ball got in the last second from where
    it was as it began, the deepest overlap at the end: `deepest`)."""
    gravity = (sideways, -math.sqrt(G * G - sideways * sideways))
    world = World(gravity=gravity, bounds=(0.0, 0.0, width, 6.0), restitution=0.5, wall_restitution=0.5)
    rng = np.random.default_rng(seed)
    sizes = np.random.default_rng([seed, 1])  # (its own stream: the grid is the same either way)
    radius = sizes.uniform(0.08, 0.1, 100) if mixed else np.full(100, 0.1)
    mass = sizes.uniform(0.5, 2.0, 100) if mixed else np.ones(100)
    for k in range(100):
        row, col = divmod(k, 9)
        world.add_body(Body(f"p{k}", float(mass[k]), float(radius[k]),
                            (0.15 + 0.21 * col + rng.uniform(-0.02, 0.02), 0.3 + 0.3 * row)))
    return last_second(world, seconds, radius, width)


def peg_pile(seed: int, seconds: float) -> tuple:
    """Drop the pile of ``--peg``; returns what `pile` does."""
    world = World(gravity=(0.0, -G), bounds=(0.0, 0.0, PEG_WIDTH, 4.0), restitution=0.5, wall_restitution=0.5)
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 41))
    world.add_body(Body("peg", "fixed", 0.1, (0.5 * PEG_WIDTH, 0.5)))
    for k in range(n):
        world.add_body(Body(f"p{k}", 1.0, 0.1, (0.12 + 0.24 * (k % 4) + float(rng.uniform(-0.02, 0.02)),
                                                1.0 + 0.25 * (k // 4))))
    return last_second(world, seconds, np.full(n + 1, 0.1), PEG_WIDTH)


def last_second(world: World, seconds: float, radius: np.ndarray, width: float) -> tuple:
    """Step ``world`` for ``seconds`` in all; returns what `pile` does."""
    last = int(round(1.0 / DT))
    for _ in range(int(round(seconds / DT)) - last):
        world.step(DT)
    world.collision_report = []
    start = world.snapshot().positions
    farthest = 0.0
    for _ in range(last):
        world.step(DT)
        farthest = max(farthest, float(np.linalg.norm(world.snapshot().positions - start, axis=1).max()))
    snap = world.snapshot()
    return float(np.linalg.norm(snap.velocities, axis=1).max()), float(snap.kinetic_energy), \
        len(world.collision_report), farthest, deepest(snap.positions, radius, width)


def deepest(pos: np.ndarray, radius: np.ndarray, width: float) -> float:
    """The deepest overlap of two balls, as a fraction of the smaller radius, or of a ball
    into a wall of the box (0 to ``width`` wide), as a fraction of its radius (0 if none)."""
    gap = np.linalg.norm(pos[:, None, :] - pos[None, :, :], axis=-1) - (radius[:, None] + radius[None, :])
    np.fill_diagonal(gap, np.inf)
    balls = float((-gap / np.minimum(radius[:, None], radius[None, :])).max())
    into = np.maximum.reduce([radius - pos[:, 0], radius - pos[:, 1], pos[:, 0] + radius - width]) / radius
    return max(balls, float(into.max()), 0.0)


def _one(case):
    return case, (peg_pile(case[2], case[3]) if case[5] else pile(*case[:5]))


def main(argv=None) -> None:
    argv = list(argv or [])
    seconds = 20.0
    seeds = SEEDS
    mixed, peg = "--mixed" in argv, "--peg" in argv
    for flag in ("--mixed", "--peg"):
        if flag in argv:
            argv.remove(flag)
    if peg:
        seeds = PEG_SEEDS
    if "--seconds" in argv:
        k = argv.index("--seconds")
        seconds = float(argv[k + 1])
        del argv[k:k + 2]
    if "--seeds" in argv:
        k = argv.index("--seeds")
        seeds = tuple(int(a) for a in argv[k + 1:])
        del argv[k:]
    if argv:
        sys.exit(f"piles: unknown arguments {' '.join(argv)} (usage: python -m bench.piles "
                 "[--mixed | --peg] [--seconds S] [--seeds N ...])")
    if mixed and peg:
        sys.exit("piles: --mixed or --peg, not both")
    if peg:
        cases = [(0.0, PEG_WIDTH, seed, seconds, False, True) for seed in seeds]
    else:
        cases = [(s, w, seed, seconds, mixed, False) for seed in seeds for w in WIDTHS for s in SIDEWAYS]
    counts = {"at rest": 0, "moving": 0, "ghost": 0, "bouncing": 0}
    energies = []
    worst = 0.0
    kind = "20-40 balls on a peg" if peg else "100 mixed balls" if mixed else "100 balls"
    print(f"{len(cases)} piles of {kind}, {seconds:g} s each; at rest: speeds < {SPEED_AT_REST:g} m/s "
          f"and energy < {ENERGY_AT_REST:g} J")
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for (s, w, seed, *_), (speed, energy, hits, farthest, overlap) in pool.map(_one, cases):
            if hits:
                verdict = "bouncing"
            elif speed < SPEED_AT_REST and energy < ENERGY_AT_REST:
                verdict = "at rest"
            elif farthest >= min(MOVED, 0.5 * speed * 1.0):
                verdict = "moving"
            else:
                verdict = "ghost"
            counts[verdict] += 1
            energies.append(energy)
            worst = max(worst, overlap)
            print(f"seed {seed} width {w:4} m sideways {s:+4} m/s²: {verdict:8} largest speed {speed:.1e} m/s, "
                  f"energy {energy:.1e} J, {hits} collisions in the last second, "
                  f"farthest moved {farthest:.1e} m, deepest overlap {100 * overlap:.2g}% of a radius", flush=True)
    print(", ".join(f"{k}: {v}" for k, v in counts.items()))
    boiling = [e for e in energies if e > BOILING]
    print(f"boiling (over {BOILING:g} J at the end): {len(boiling)} piles, {sum(boiling):.3g} J in all"
          + (f", the most {max(boiling):.3g} J" if boiling else ""))
    print(f"deepest overlap at the end, in any pile: {100 * worst:.2g}% of a radius (of the smaller of two balls)")


if __name__ == "__main__":
    main(sys.argv[1:])
