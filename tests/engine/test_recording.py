"""Recording at exact sample times, CSV layouts that hold exactly what was computed, atomic files."""

import os

import numpy as np
import pytest

from classroom_sim import Body, Recorder, World, read_csv
from classroom_sim.recording import LONG_HEADER

G = 9.81


def falling_world():
    w = World(gravity=(0.0, -G))
    w.add_body(Body("A", 1.0, 0.1, (0.0, 100.0), (2.0, 3.0)))
    w.add_body(Body("B", 2.0, 0.1, (10.0, 50.0), gravity=False))
    w.body("B").add_acceleration("thrust", (1.0, 0.0))
    return w


def test_samples_are_taken_at_exactly_k_over_rate_and_at_the_end():
    w = falling_world()
    rec = Recorder(w, rate=100.0, until=1.0)
    for _ in range(240):
        w.step(1 / 240)
    r = rec.recording()
    assert np.array_equal(r.times, np.array([k / 100 for k in range(101)]))
    w2 = falling_world()
    rec2 = Recorder(w2, rate=3.0, until=1.1)
    w2.advance_to(2.0)
    assert np.array_equal(rec2.recording().times, [0.0, 1 / 3, 2 / 3, 1.0, 1.1])


def test_sampled_values_are_the_analytic_ones():
    w = falling_world()
    rec = Recorder(w, rate=7.0, until=2.0)
    rng = np.random.default_rng(5)
    while w.time < 2.0:
        w.step(rng.uniform(0.001, 0.05))  # steps that never land on a sample time
    traj = rec.recording().trajectory("A")
    t = traj[:, 0]
    expected = np.column_stack([2.0 * t, 100.0 + 3.0 * t - 0.5 * G * t * t, np.full_like(t, 2.0),
                                3.0 - G * t, np.zeros_like(t), np.full_like(t, -G)])
    assert np.allclose(traj[:, 1:], expected, rtol=0, atol=1e-9)
    b = rec.recording().trajectory("B")
    assert np.allclose(b[:, 1], 10.0 + 0.5 * b[:, 0] ** 2, atol=1e-9)


@pytest.mark.parametrize("layout", ["long", "wide"])
def test_csv_holds_exactly_what_was_recorded(tmp_path, layout):
    w = falling_world()
    rec = Recorder(w, rate=50.0, until=0.5)
    w.advance_to(0.5)
    r = rec.recording()
    path = tmp_path / f"{layout}.csv"
    r.write_csv(path, layout)
    header = path.read_text().splitlines()[0]
    if layout == "long":
        assert header == ",".join(LONG_HEADER)
        assert len(path.read_text().splitlines()) == 1 + 2 * len(r)
    else:
        assert header == ("t_s,A_x_m,A_y_m,A_vx_m_s,A_vy_m_s,A_ax_m_s2,A_ay_m_s2,"
                          "B_x_m,B_y_m,B_vx_m_s,B_vy_m_s,B_ax_m_s2,B_ay_m_s2")
        assert len(path.read_text().splitlines()) == 1 + len(r)
    back = read_csv(path)
    for name in ("A", "B"):
        assert np.array_equal(back[name], r.trajectory(name))  # bit for bit


def test_a_body_removed_while_recording(tmp_path):
    w = falling_world()
    rec = Recorder(w, rate=10.0)
    w.advance_to(0.25)
    w.remove_body("B")
    w.advance_to(0.5)
    r = rec.recording()
    assert [s.names for s in r.segments] == [("A", "B"), ("A",)]
    r.write_csv(tmp_path / "wide.csv", "wide")
    r.write_csv(tmp_path / "long.csv", "long")
    wide = read_csv(tmp_path / "wide.csv")
    assert len(wide["A"]) == 6 and len(wide["B"]) == 3
    assert np.array_equal(read_csv(tmp_path / "long.csv")["B"], wide["B"])
    assert ",,,,,," in (tmp_path / "wide.csv").read_text()


def test_csv_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    w = falling_world()
    rec = Recorder(w, rate=10.0, until=1.0)
    w.advance_to(1.0)
    r = rec.recording()
    with pytest.raises(OSError):
        r.write_csv(tmp_path / "no" / "such" / "folder.csv")
    target = tmp_path / "out.csv"
    target.write_text("previous export")
    from classroom_sim.recording import Recording

    def full_disk(self, f):
        f.write("t_s,body,half a line")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Recording, "_write_long", full_disk)
    with pytest.raises(OSError):
        r.write_csv(target)
    assert target.read_text() == "previous export"
    assert os.listdir(tmp_path) == ["out.csv"]


def test_recording_is_frozen_and_recorder_stops():
    w = falling_world()
    rec = Recorder(w, rate=10.0)
    w.advance_to(0.3)
    r = rec.recording()
    with pytest.raises(ValueError):
        r.segments[0].data[0, 0, 0] = 1.0
    rec.stop()
    w.advance_to(1.0)
    assert len(rec.recording()) == len(r) == 4
    with pytest.raises(ValueError):
        Recorder(w, rate=0.0)


def test_written_files_get_ordinary_permissions(tmp_path):
    w = falling_world()
    rec = Recorder(w, rate=10.0, until=0.2)
    w.advance_to(0.2)
    mask = os.umask(0)
    os.umask(mask)
    new = tmp_path / "new.csv"
    rec.recording().write_csv(new)
    assert new.stat().st_mode & 0o777 == 0o666 & ~mask
    old = tmp_path / "old.csv"
    old.write_text("x")
    old.chmod(0o640)
    rec.recording().write_csv(old)
    assert old.stat().st_mode & 0o777 == 0o640


# -- a recorder that graphs can follow ------------------------------------------------------

def _falling(mass=2.0):
    from classroom_sim import Body, World

    w = World(gravity=(0.0, -9.81))
    w.add_body(Body("ball", mass, 0.1, (0.0, 100.0), (3.0, 0.0)))
    return w


def test_a_recording_begun_mid_run_keeps_to_the_grid_k_over_rate():
    from classroom_sim import Recorder

    w = _falling()
    w.advance_to(0.2563193169999067)
    r = Recorder(w, rate=100.0)
    w.advance_to(1.0)
    times = r.recording().times
    assert np.array_equal(times, np.arange(26, 101) / 100.0)  # bitwise: 0.26, 0.27, ... 1.0


def test_masses_are_kept_with_every_sample_and_follow_a_live_change():
    from classroom_sim import Recorder, commands

    w = _falling(mass=2.0)
    r = Recorder(w, rate=10.0)
    w.advance_to(0.5)
    commands.SetMass("ball", 3.5).apply(w)
    w.advance_to(1.0)
    seg = r.recording().segments[0]
    expected = np.where(seg.times <= 0.5, 2.0, 3.5)
    assert seg.masses[:, 0].tolist() == expected.tolist()


def test_since_gives_only_what_is_new_exactly_as_recorded():
    from classroom_sim import Body, Recorder

    w = _falling()
    r = Recorder(w, rate=50.0)
    w.advance_to(0.3)
    first = r.since(0)
    assert r.count == 16 and sum(len(s.times) for s in first) == 16
    assert r.since(r.count) == []
    seen = r.count
    w.advance_to(7.0)  # past a chunk's end
    w.add_body(Body("late", 1.0, 0.1, (5.0, 100.0)))  # a new segment
    w.advance_to(7.5)
    new = r.since(seen)
    assert [s.names for s in new] == [("ball",), ("ball", "late")]
    times = np.concatenate([s.times for s in new])
    assert np.array_equal(times, np.arange(seen, r.count) / 50.0)
    whole = r.recording()
    assert np.array_equal(np.concatenate([whole.times[:seen], times]), whole.times)
    # and the values are the textbook's free fall at those exact times
    for s in new:
        t = s.times
        k = s.names.index("ball")
        assert s.data[:, k, 0] == pytest.approx(3.0 * t, rel=1e-12)
        assert s.data[:, k, 1] == pytest.approx(100.0 - 0.5 * 9.81 * t * t, rel=1e-12)


def test_since_from_another_thread_while_sampling_never_sees_a_half_written_sample():
    import threading

    from classroom_sim import Recorder

    w = _falling()
    r = Recorder(w, rate=1000.0)
    got, stop = [], threading.Event()

    def follow():
        k = 0
        while not stop.is_set():
            for s in r.since(k):
                got.append(s)
                k += len(s.times)

    reader = threading.Thread(target=follow)
    reader.start()
    for m in range(1, 201):
        w.advance_to(m * 0.01)
    stop.set()
    reader.join()
    got += r.since(sum(len(s.times) for s in got))
    times = np.concatenate([s.times for s in got])
    assert np.array_equal(times, np.arange(0, 2001) / 1000.0)
    ys = np.concatenate([s.data[:, 0, 1] for s in got])
    assert ys == pytest.approx(100.0 - 0.5 * 9.81 * times * times, rel=1e-12)


def test_at_its_memory_cap_a_recorder_stops_and_keeps_what_it_has(monkeypatch):
    from classroom_sim import Recorder, recording

    per_chunk = recording.CHUNK * (8 + 56)
    monkeypatch.setattr(recording, "MAX_BYTES", 3 * per_chunk)
    w = _falling()
    r = Recorder(w, rate=100.0)
    w.advance_to(20.0)
    assert r.full and r.next_time is None
    assert r.count == 3 * recording.CHUNK
    assert np.array_equal(r.recording().times, np.arange(3 * recording.CHUNK) / 100.0)


def test_a_stopped_recorder_resumes_appending_on_the_same_grid():
    from classroom_sim import Recorder

    w = _falling()
    r = Recorder(w, rate=10.0)
    w.advance_to(1.0)
    r.stop()
    w.advance_to(2.05)
    r.resume(w)
    w.advance_to(3.0)
    times = r.recording().times
    assert np.array_equal(times, np.concatenate([np.arange(0, 11), np.arange(21, 31)]) / 10.0)
