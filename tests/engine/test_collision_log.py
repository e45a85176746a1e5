"""The collision log against the textbook: the 1D formula, the energy lost, the
measured restitution; following it from another thread; ``run --collisions``."""

import csv
import math
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from classroom_sim import COLLISION_COLUMNS, Body, Collision, CollisionLog, Simulation, World, write_collisions_csv
from classroom_sim.cli import main

ROOT = Path(__file__).resolve().parents[2]


def one_d(m1, m2, u1, u2, e):
    """SCENE_FORMAT.md's formula, written out as a textbook states it."""
    v1 = (m1 * u1 + m2 * u2 + m2 * e * (u2 - u1)) / (m1 + m2)
    v2 = (m1 * u1 + m2 * u2 + m1 * e * (u1 - u2)) / (m1 + m2)
    return v1, v2


def head_on(m1, m2, u1, u2, e, first="A"):
    """Two discs on the x axis closing in; the first in the file is ``first``."""
    w = World(gravity=(0.0, 0.0), restitution=e)
    bodies = [Body("A", m1, 0.1, (0.0, 0.0), (u1, 0.0)), Body("B", m2, 0.1, (1.0, 0.0), (u2, 0.0))]
    for b in bodies if first == "A" else bodies[::-1]:
        w.add_body(b)
    return w


def run(w, seconds, dt=1 / 240):
    for _ in range(int(round(seconds / dt))):
        w.step(dt)


@pytest.mark.parametrize("m1, m2, u1, u2, e", [(1.0, 3.0, 2.0, -1.0, 0.5), (2.0, 2.0, 3.0, 0.0, 1.0),
                                               (0.5, 4.0, 1.5, 0.5, 0.0), (5.0, 1.0, 1.0, -2.0, 0.8)])
def test_one_row_per_collision_exact_against_the_1d_formula(m1, m2, u1, u2, e):
    w = head_on(m1, m2, u1, u2, e)
    w.collision_report = []
    run(w, 1.2)
    assert len(w.collision_report) == 1
    c = w.collision_report[0]
    assert isinstance(c, Collision) and (c.a, c.b) == ("A", "B")
    t_touch = (1.0 - 0.2) / (u1 - u2)
    assert abs(c.t - t_touch) < 1e-9
    assert (c.ma, c.mb) == (m1, m2)
    v1, v2 = one_d(m1, m2, u1, u2, e)
    assert np.abs(c.va - [u1, 0.0]).max() < 1e-9 and np.abs(c.vb - [u2, 0.0]).max() < 1e-9
    assert np.abs(c.va_after - [v1, 0.0]).max() < 1e-9 and np.abs(c.vb_after - [v2, 0.0]).max() < 1e-9
    reduced = m1 * m2 / (m1 + m2)
    assert abs(c.dke - (-0.5 * reduced * (1 - e * e) * (u1 - u2) ** 2)) < 1e-9
    assert abs(c.e - e) < 1e-9


def test_the_pair_is_named_in_file_order_with_its_velocities():
    """B is first in the file: the row is (B, A), the normal from B to A, B's velocities first."""
    w = head_on(1.0, 3.0, 2.0, -1.0, 0.5, first="B")
    w.collision_report = []
    run(w, 1.2)
    (c,) = w.collision_report
    v1, v2 = one_d(1.0, 3.0, 2.0, -1.0, 0.5)
    assert (c.a, c.b, c.ma, c.mb) == ("B", "A", 3.0, 1.0)
    assert c.normal == pytest.approx([-1.0, 0.0])
    assert c.va == pytest.approx([-1.0, 0.0]) and c.vb == pytest.approx([2.0, 0.0])
    assert c.va_after == pytest.approx([v2, 0.0]) and c.vb_after == pytest.approx([v1, 0.0])
    assert c.e == pytest.approx(0.5, abs=1e-9)


def test_oblique_collision_keeps_the_tangential_components_and_e():
    """A hits a resting B off-centre: along the line of centres the 1D formula, across it nothing changes."""
    e, b = 0.7, 0.1  # impact parameter 0.1 m, radii sum 0.2 m
    w = World(gravity=(0.0, 0.0), restitution=e)
    w.add_body(Body("A", 1.0, 0.1, (0.0, 0.0), (3.0, 0.0)))
    w.add_body(Body("B", 1.0, 0.1, (1.0, b)))
    w.collision_report = []
    run(w, 0.6)
    (c,) = w.collision_report
    n = np.array([math.sqrt(0.2 ** 2 - b * b), b]) / 0.2  # the line of centres at the touch
    assert c.normal == pytest.approx(n, abs=1e-9)
    v1, v2 = one_d(1.0, 1.0, 3.0 * n[0], 0.0, e)
    tangent = np.array([-n[1], n[0]])
    assert c.va_after == pytest.approx(v1 * n + (3.0 * tangent[0]) * tangent, abs=1e-9)
    assert c.vb_after == pytest.approx(v2 * n, abs=1e-9)
    assert c.e == pytest.approx(e, abs=1e-9)


def test_a_fixed_body_has_infinite_mass_and_adds_no_energy():
    w = World(gravity=(0.0, 0.0), restitution=0.6)
    w.add_body(Body("ball", 2.0, 0.1, (0.0, 0.0), (1.0, 0.0)))
    w.add_body(Body("post", "fixed", 0.1, (1.0, 0.0)))
    w.collision_report = []
    run(w, 1.2)
    (c,) = w.collision_report
    assert c.mb == math.inf and c.vb_after == pytest.approx([0.0, 0.0])
    assert c.va_after == pytest.approx([-0.6, 0.0], abs=1e-9)
    assert c.dke == pytest.approx(0.5 * 2.0 * (0.36 - 1.0), abs=1e-9)
    assert c.e == pytest.approx(0.6, abs=1e-9)
    assert c.row()[4] == math.inf


def test_no_log_unless_asked():
    w = head_on(1.0, 1.0, 1.0, 0.0, 1.0)
    run(w, 1.2)
    assert w.collision_report is None and w.degraded["log"] == 0


def test_csv_of_the_log(tmp_path):
    w = head_on(1.0, 3.0, 2.0, -1.0, 0.5)
    w.collision_report = []
    run(w, 1.2)
    path = tmp_path / "log.csv"
    write_collisions_csv(path, w.collision_report)
    rows = list(csv.reader(path.read_text().splitlines()))
    assert tuple(rows[0]) == COLLISION_COLUMNS and len(rows) == 2
    row = dict(zip(rows[0], rows[1]))
    v1, v2 = one_d(1.0, 3.0, 2.0, -1.0, 0.5)
    assert (row["a"], row["b"]) == ("A", "B")
    assert float(row["vax_after_m_s"]) == pytest.approx(v1, abs=1e-9)
    assert float(row["vbx_after_m_s"]) == pytest.approx(v2, abs=1e-9)
    assert float(row["e"]) == pytest.approx(0.5, abs=1e-9)
    assert float(row["t_s"]) == pytest.approx(0.8 / 3.0, abs=1e-9)


def test_log_caps_and_says_so():
    log = CollisionLog(limit=3)
    c = Collision(0.0, "a", "b", *([np.zeros(2)] * 5), 1.0, 1.0)
    log.extend([c, c])
    assert len(log) == 2 and not log.full
    log.extend([c, c])
    assert len(log) == 3 and log.full
    log.clear()
    assert len(log) == 0 and not log.full and log.generation == 1


def test_a_reader_on_another_thread_follows_the_simulation_log():
    """A gas in a box: a reader that asks only for what is new ends with every row once, in time order."""
    w = World(gravity=(0.0, 0.0), bounds=(0.0, 0.0, 4.0, 4.0))
    rng = np.random.default_rng(3)
    for k in range(40):
        w.add_body(Body(f"b{k}", 1.0, 0.1, (0.3 + 0.45 * (k % 8), 0.3 + 0.7 * (k // 8)), rng.normal(0, 3, 2)))
    sim = Simulation(w, rate=None)
    sim.log_collisions(True)
    sim.start()
    seen: list = []
    stop = threading.Event()

    def read():
        while not stop.is_set():
            seen.extend(sim.collisions.since(len(seen)))
    reader = threading.Thread(target=read)
    reader.start()
    try:
        deadline = time.monotonic() + 20
        while sim.latest.time < 2.0 and time.monotonic() < deadline:
            time.sleep(0.01)
        sim.pause().result(5)
    finally:
        stop.set()
        reader.join()
    seen.extend(sim.collisions.since(len(seen)))
    sim.stop()
    assert len(seen) == len(sim.collisions) > 10
    times = [c.t for c in seen]
    assert times == sorted(times) and times[-1] <= sim.latest.time
    for c in seen:  # each an impact: equal masses and e = 1 swap the normal components
        assert c.e == pytest.approx(1.0, abs=1e-9) and abs(c.dke) < 1e-9


def test_the_simulation_logs_only_when_asked_and_starts_afresh_on_reset():
    sim = Simulation(head_on(1.0, 3.0, 2.0, -1.0, 0.5), rate=None)
    sim.start()
    try:
        sim.resume().result(5)
        deadline = time.monotonic() + 20
        while sim.latest.time < 0.5 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(sim.collisions) == 0  # it collided at 0.27 s, unasked
        sim.reset().result(5)
        sim.log_collisions(True).result(5)
        sim.resume().result(5)
        while sim.latest.time < 0.5 and time.monotonic() < deadline:
            time.sleep(0.01)
        sim.pause().result(5)
        assert [(c.a, c.b) for c in sim.collisions.since(0)] == [("A", "B")]
        sim.reset().result(5)
        assert len(sim.collisions) == 0
    finally:
        sim.stop()


SCENE = """
[world]
gravity = [0.0, 0.0]
restitution = 0.5
[[bodies]]
name = "A"
mass = 1.0
radius = 0.1
position = [0.0, 0.0]
velocity = [2.0, 0.0]
[[bodies]]
name = "B"
mass = 3.0
radius = 0.1
position = [1.0, 0.0]
velocity = [-1.0, 0.0]
"""


def test_run_collisions_writes_the_log_csv(tmp_path):
    scene = tmp_path / "two.toml"
    scene.write_text(SCENE)
    out, log = tmp_path / "out.csv", tmp_path / "log.csv"
    assert main(["run", str(scene), "--duration", "1", "--csv", str(out), "--collisions", str(log)]) == 0
    rows = list(csv.DictReader(log.read_text().splitlines()))
    assert len(rows) == 1
    row = rows[0]
    v1, v2 = one_d(1.0, 3.0, 2.0, -1.0, 0.5)
    assert (row["a"], row["b"], float(row["ma_kg"]), float(row["mb_kg"])) == ("A", "B", 1.0, 3.0)
    assert float(row["t_s"]) == pytest.approx(0.8 / 3.0, abs=1e-9)
    assert [float(row[k]) for k in ("vax_m_s", "vay_m_s", "vbx_m_s", "vby_m_s")] == [2.0, 0.0, -1.0, 0.0]
    assert float(row["vax_after_m_s"]) == pytest.approx(v1, abs=1e-9)
    assert float(row["vbx_after_m_s"]) == pytest.approx(v2, abs=1e-9)
    assert float(row["dke_j"]) == pytest.approx(-0.5 * 0.75 * 0.75 * 9.0, abs=1e-9)
    assert float(row["e"]) == pytest.approx(0.5, abs=1e-9)
    assert out.exists()


def test_run_collisions_with_csv_to_standard_output(tmp_path, capsys):
    scene = tmp_path / "two.toml"
    scene.write_text(SCENE)
    log = tmp_path / "log.csv"
    assert main(["run", str(scene), "--duration", "0.5", "--csv", "-", "--collisions", str(log)]) == 0
    assert capsys.readouterr().out.startswith("t_s,body,")
    assert len(list(csv.DictReader(log.read_text().splitlines()))) == 1


def test_run_collisions_refuses_the_same_file_and_a_missing_folder(tmp_path, capsys):
    scene = tmp_path / "two.toml"
    scene.write_text(SCENE)
    out = tmp_path / "out.csv"
    assert main(["run", str(scene), "--duration", "1", "--csv", str(out), "--collisions", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert "--collisions" in err and "\n" not in err
    missing = tmp_path / "no" / "log.csv"
    assert main(["run", str(scene), "--duration", "1", "--csv", str(out), "--collisions", str(missing)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["two.toml"]


def test_an_interrupted_run_leaves_neither_file(tmp_path):
    """SIGTERM while the run writes: neither CSV, nor any temporary file, is left."""
    scene = tmp_path / "gas.toml"
    bodies = "".join(f'[[bodies]]\nname = "b{k}"\nmass = 1.0\nradius = 0.05\nposition = [{0.2 + 0.3 * (k % 20)}, '
                     f'{0.2 + 0.3 * (k // 20)}]\nvelocity = [{(-1) ** k * 2.0}, 1.0]\n' for k in range(200))
    scene.write_text('[world]\ngravity = [0.0, -9.81]\nbounds = [0.0, 0.0, 6.5, 6.5]\n' + bodies)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "classroom_sim", "run", str(scene), "--duration", "3000",
                             "--csv", str(tmp_path / "out.csv"), "--collisions", str(tmp_path / "log.csv"),
                             "--sample-rate", "1", "--max-rows", "100000000"],
                            cwd=tmp_path, env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not any(p.name.startswith(".log.csv.") for p in tmp_path.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    proc.wait(30)
    assert proc.returncode != 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gas.toml"]
