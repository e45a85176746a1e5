"""Shared test set-up: Qt never needs a display; hypothesis tolerates the first numba compile;
the engine's step is compiled before the first test."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

settings.register_profile("default", deadline=None)
settings.load_profile("default")


@pytest.fixture(scope="session", autouse=True)
def compiled_step():
    """The engine's step, compiled (or loaded from numba's cache) once, before any test runs.
    Compiled on first use instead, in a physics thread, a step took a minute or two: the
    tests that wait a second or five for that thread failed on a fresh cache (12 of
    tests/engine/test_simulation.py, run on its own after the engine changed)."""
    from classroom_sim import Body, World

    world = World(gravity=(0.0, -9.81), bounds=(0.0, 0.0, 1.0, 1.0))
    world.add_bodies([Body("a", 1.0, 0.1, (0.3, 0.5), (1.0, 0.0)), Body("b", 1.0, 0.1, (0.7, 0.5), (-1.0, 0.0))])
    world.step(1.0 / 240.0)
