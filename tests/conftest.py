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
    """The engine's step, compiled (or loaded from numba's cache) once, before any test runs,
    as the physics thread does before its first cycle. On a machine whose cache is empty (and
    after any change to the engine) the first step compiles for a minute or more: in a physics
    thread, the tests that wait a second or five for that thread failed (12 of
    tests/engine/test_simulation.py, run on its own)."""
    from classroom_sim import warm_up

    warm_up()
