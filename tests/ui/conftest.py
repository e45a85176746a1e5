"""The windows' tests wait for the physics thread in seconds; on a machine whose numba
cache is empty, its first step compiles for a minute or more. The step is compiled (or
loaded from the cache) once, before the first test here, as the physics thread does
before its first cycle, so that a run of these tests alone on a new machine waits for
it rather than failing (run after the engine's tests, it finds the step loaded already)."""

import pytest

from classroom_sim.simulation import _warm_up


@pytest.fixture(scope="session", autouse=True)
def compiled_step():
    _warm_up()
