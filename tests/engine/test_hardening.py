"""The engine refuses what it cannot honour, with a clear message, and never hangs on it."""

import threading

import pytest

from classroom_sim import Body, Recorder, World


def _world():
    w = World(gravity=(0.0, -9.81))
    w.add_body(Body("A", 1.0, 0.1, (0.0, 0.0), (1.0, 2.0)))
    return w


@pytest.mark.parametrize("call, value, message", [
    ("advance_to", float("nan"), "time: must be finite"),
    ("advance_to", float("inf"), "time: must be finite"),
    ("advance_to", -1.0, "is behind the world's clock"),
    ("advance_to", "1", "time: must be a number"),
    ("step", float("nan"), "dt: must be finite and >= 0"),
    ("step", float("inf"), "dt: must be finite and >= 0"),
    ("step", -0.5, "dt: must be finite and >= 0"),
])
def test_bad_times_are_refused_at_once_even_while_recording(call, value, message):
    w = _world()
    Recorder(w, rate=100.0)
    w.advance_to(0.5)
    before = (w.time, w.body("A").position.copy())
    outcome = []

    def attempt():
        try:
            getattr(w, call)(value)
        except ValueError as exc:
            outcome.append(str(exc))

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(5.0)
    assert not worker.is_alive(), f"{call}({value!r}) did not return"
    assert outcome and message in outcome[0]
    assert w.time == before[0] and (w.body("A").position == before[1]).all()


def test_a_time_behind_the_clock_by_rounding_is_no_step_back():
    w = _world()
    for _ in range(240):
        w.step(1 / 240)
    w.advance_to(1.0 - 1e-15)  # 240 steps of 1/240 s may end a hair past or before 1 s
    assert w.time == pytest.approx(1.0, abs=1e-12)
