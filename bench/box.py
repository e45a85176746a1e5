"""Benchmark: an elastic gas of N balls in a box under gravity, against pymunk.

N balls of radius 5 cm cover 20% of a square box, start apart at random
(fixed seed) with speeds of 0.5-1.5 m/s; gravity -9.81 m/s², restitution 1,
steps of 1/240 s. Each engine warms up for 5 s of simulated time, then steps
for at least 2 s of wall time. Prints steps per second of both, the ratio, and
nanoseconds per body-step (how the cost grows with N: flat is linear), with the
largest N's against N = 1,000's, and the collisions per body-step the scene itself
has at each N (a taller box lets the balls fall further and hit harder and more
often: the work per body grows with N even for a linear engine).

    python -m bench.box [N ...]        (default: 100 1000 5000 20000)
    python -m bench.box --no-gravity [N ...]
    python -m bench.box --gravity G [N ...]

``--no-gravity`` runs the same gas without gravity, in both engines: the density and
the speeds are then the same at every N, so ns per body-step shows how the cost of
the engine alone grows with N. ``--gravity G`` runs it under G m/s² (down) instead of
9.81: the weaker, the fewer collisions per body-step, so that runs at a few values tell
what a collision costs each engine apart from what a step costs it.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from classroom_sim import Body, World

RADIUS = 0.05
COVER = 0.2
DT = 1.0 / 240.0
WARMUP_S = 5.0
TIMED_S = 2.0


def box_start(n: int, seed: int = 1):
    """Side of the box (m), positions (n, 2) and velocities (n, 2) of the benchmark scene."""
    side = math.sqrt(n * math.pi * RADIUS**2 / COVER)
    rng = np.random.default_rng(seed)
    pitch = 2.2 * RADIUS
    per_row = int((side - 2 * RADIUS) // pitch)
    cells = rng.choice(per_row * per_row, size=n, replace=False)
    jitter = rng.uniform(-0.04 * RADIUS, 0.04 * RADIUS, size=(n, 2))
    pos = RADIUS * 1.1 + pitch * np.stack([cells % per_row, cells // per_row], axis=1) + jitter
    speed = rng.uniform(0.5, 1.5, n)
    angle = rng.uniform(0, 2 * math.pi, n)
    vel = np.stack([speed * np.cos(angle), speed * np.sin(angle)], axis=1)
    return side, pos, vel


G = -9.81


def box_world(n: int, seed: int = 1, g: float = G, engine=None) -> World:
    """The benchmark scene in a World of ``engine`` (a package with World and Body; this
    project's own by default, another copy of it for `bench.ab`)."""
    world_type, body_type = (World, Body) if engine is None else (engine.World, engine.Body)
    side, pos, vel = box_start(n, seed)
    world = world_type(gravity=(0.0, g), bounds=(0.0, 0.0, side, side), restitution=1.0, wall_restitution=1.0)
    world.add_bodies([body_type(f"b{k}", 1.0, RADIUS, pos[k], vel[k]) for k in range(n)])
    return world


def box_space(n: int, seed: int = 1, g: float = G):
    import pymunk

    side, pos, vel = box_start(n, seed)
    space = pymunk.Space()
    space.gravity = (0.0, g)
    space.collision_slop = 0.001
    space.use_spatial_hash(0.2, 10 * n)
    corners = [(0, 0), (side, 0), (side, side), (0, side)]
    for a, b in zip(corners, corners[1:] + corners[:1]):
        seg = pymunk.Segment(space.static_body, a, b, 0.0)
        seg.elasticity = 1.0
        seg.friction = 0.0
        space.add(seg)
    for k in range(n):
        body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0, RADIUS))
        body.position = tuple(pos[k])
        body.velocity = tuple(vel[k])
        shape = pymunk.Circle(body, RADIUS)
        shape.elasticity = 1.0
        shape.friction = 0.0
        space.add(body, shape)
    return space


def steps_per_second(step) -> float:
    for _ in range(int(round(WARMUP_S / DT))):
        step(DT)
    steps = 0
    start = time.perf_counter()
    while True:
        for _ in range(20):
            step(DT)
        steps += 20
        elapsed = time.perf_counter() - start
        if elapsed >= TIMED_S:
            return steps / elapsed


def collisions_per_body_step(n: int, steps: int = 60, g: float = G) -> float:
    """How many body-body collisions a body has per step, on average, after the warm-up."""
    world = box_world(n, g=g)
    for _ in range(int(round(WARMUP_S / DT))):
        world.step(DT)
    world.collision_report = []
    for _ in range(steps):
        world.step(DT)
    return len(world.collision_report) / (steps * n)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.box", description="The elastic gas against pymunk.")
    parser.add_argument("sizes", metavar="N", type=int, nargs="*", default=[100, 1000, 5000, 20000])
    parser.add_argument("--no-gravity", action="store_true", help="the gas without gravity")
    parser.add_argument("--gravity", metavar="G", type=float, default=-G, help="gravity down, m/s² (9.81)")
    args = parser.parse_args(argv)
    g = 0.0 if args.no_gravity else -args.gravity
    if args.no_gravity:
        print("The gas without gravity: the same density and speeds at every N.")
    elif g != G:
        print(f"The gas under gravity of {-g:g} m/s².")
    sizes = args.sizes
    print(f"{'N':>6} {'classroom-sim steps/s':>22} {'pymunk steps/s':>15} {'ratio':>6} "
          f"{'ns/body-step':>13} {'pymunk ns/body-step':>20} {'collisions/body-step':>21}")
    per_body = {}
    for n in sizes:
        ours = steps_per_second(box_world(n, g=g).step)
        try:
            peer = steps_per_second(box_space(n, g=g).step)
        except ImportError:
            peer = float("nan")
        per_body[n] = 1e9 / (ours * n)
        print(f"{n:>6} {ours:>22.0f} {peer:>15.0f} {ours / peer:>6.2f} {per_body[n]:>13.0f} "
              f"{1e9 / (peer * n):>20.0f} {collisions_per_body_step(n, g=g):>21.3f}", flush=True)
    top = max(sizes)
    if 1000 in per_body and top > 1000:
        print(f"ns per body-step at N = {top:,} against N = 1,000: {per_body[top] / per_body[1000]:.2f}x "
              f"(goal: at most 1.5x)")


if __name__ == "__main__":
    main(sys.argv[1:])
