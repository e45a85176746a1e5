"""The windows' tests wait for the physics thread in seconds; on a machine whose numba
cache is empty, its first step compiles for a minute or more. The step is compiled (or
loaded from the cache) once, before the first test here, so that a run of these tests
alone on a new machine waits for it rather than failing (run after the engine's tests,
it finds the step loaded already)."""

import pytest

from classroom_sim import Body, World


@pytest.fixture(scope="session", autouse=True)
def compiled_step():
    world = World(gravity=(0.0, -9.81), bounds=(0.0, 0.0, 1.0, 1.0))
    world.add_body(Body("a", 1.0, 0.1, (0.3, 0.5), (1.0, 0.0)))
    world.add_body(Body("b", 1.0, 0.1, (0.55, 0.5)))
    world.step(0.01)
