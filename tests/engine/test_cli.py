"""The command line: exit codes, one-line errors, no partial files."""

import subprocess
import sys

import numpy as np
import pytest

from classroom_sim import World, read_csv
from classroom_sim.cli import main

SCENE = """
format = 1
[world]
gravity = [0.0, -9.81]
[[bodies]]
name = "A"
mass = 1.0
radius = 0.1
position = [0.0, 10.0]
velocity = [1.0, 0.0]
[[bodies]]
name = "B"
mass = 2.0
radius = 0.1
position = [5.0, 10.0]
"""


@pytest.fixture
def scene(tmp_path):
    path = tmp_path / "scene.toml"
    path.write_text(SCENE)
    return path


@pytest.mark.parametrize("layout", ["long", "wide"])
def test_run_writes_trajectories_sampled_from_zero_to_the_duration(scene, tmp_path, layout):
    out = tmp_path / "out.csv"
    assert main(["run", str(scene), "--duration", "1.5", "--sample-rate", "20", "--csv", str(out), "--layout", layout]) == 0
    data = read_csv(out)
    t = data["A"][:, 0]
    assert np.array_equal(t, [k / 20 for k in range(31)])
    assert data["A"][:, 2] == pytest.approx(10.0 - 0.5 * 9.81 * t * t, abs=1e-9)
    assert data["B"][:, 1] == pytest.approx(5.0)


def test_run_defaults_and_an_off_grid_duration(scene, tmp_path):
    out = tmp_path / "out.csv"
    assert main(["run", str(scene), "--duration", "0.123", "--csv", str(out)]) == 0
    t = read_csv(out)["A"][:, 0]
    assert t[-1] == 0.123 and t[-2] == 0.12 and len(t) == 14


def test_bad_scene_exits_2_with_one_line_and_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(SCENE.replace("mass = 2.0", "mass = -1"))
    out = tmp_path / "out.csv"
    assert main(["run", str(bad), "--duration", "1", "--csv", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and 'bodies[1].mass: must be > 0 or "fixed", got -1' in err and str(bad) in err
    assert not out.exists()


def test_unwritable_destination_exits_2_before_running(scene, tmp_path, capsys):
    out = tmp_path / "missing" / "out.csv"
    assert main(["run", str(scene), "--duration", "1", "--csv", str(out)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["run", str(scene), "--duration", "1", "--csv", str(tmp_path)]) == 2


def test_interrupted_run_writes_nothing(scene, tmp_path, monkeypatch, capsys):
    calls = []

    def interrupted(self, t):
        calls.append(t)
        if len(calls) > 10:
            raise KeyboardInterrupt

    monkeypatch.setattr(World, "advance_to", interrupted)
    out = tmp_path / "out.csv"
    assert main(["run", str(scene), "--duration", "5", "--csv", str(out)]) == 130
    assert not out.exists() and list(tmp_path.iterdir()) == [scene]
    assert "nothing was written" in capsys.readouterr().err


@pytest.mark.parametrize("args", [["--duration", "-1"], ["--duration", "nan"], ["--dt", "0", "--duration", "1"],
                                  ["--sample-rate", "x", "--duration", "1"], ["--duration", "1", "--layout", "tall"],
                                  ["--duration", "1", "--dt", "5e-324"], ["--duration", "1", "--max-rows", "0"],
                                  ["--duration", "inf"]])
def test_bad_options_exit_2_with_one_line(scene, tmp_path, args, capsys):
    with pytest.raises(SystemExit) as info:
        main(["run", str(scene), "--csv", str(tmp_path / "o.csv"), *args])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == [scene]


@pytest.mark.parametrize("args, says", [
    (["--duration", "1e308"], "steps; a run takes at most 1e+09"),
    (["--duration", "1", "--sample-rate", "1e9"], "rows of CSV, more than --max-rows 10,000,000"),
])
def test_runs_too_large_are_refused_before_they_start(scene, tmp_path, args, says, capsys):
    out = tmp_path / "o.csv"
    assert main(["run", str(scene), "--csv", str(out), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0] and not out.exists()


def test_max_rows_counts_the_rows_the_run_would_write(scene, tmp_path, capsys):
    out = tmp_path / "o.csv"
    rows = 2 * 31  # two bodies, samples at 0, 1/20, ..., 1.5 s: the long layout
    assert main(["run", str(scene), "--duration", "1.5", "--sample-rate", "20", "--csv", str(out),
                 "--max-rows", str(rows - 1)]) == 2
    assert f"would write {rows:,} rows" in capsys.readouterr().err and not out.exists()
    assert main(["run", str(scene), "--duration", "1.5", "--sample-rate", "20", "--csv", str(out),
                 "--max-rows", str(rows)]) == 0
    assert len(out.read_text().splitlines()) == rows + 1  # and the header


@pytest.mark.parametrize("layout", ["long", "wide"])
def test_csv_dash_writes_the_same_csv_to_standard_output(scene, tmp_path, capsys, layout):
    out = tmp_path / "o.csv"
    assert main(["run", str(scene), "--duration", "0.5", "--csv", str(out), "--layout", layout]) == 0
    capsys.readouterr()
    assert main(["run", str(scene), "--duration", "0.5", "--csv", "-", "--layout", layout]) == 0
    captured = capsys.readouterr()
    assert captured.out == out.read_text() and captured.err == ""


def test_sigterm_during_a_run_leaves_no_file(scene, tmp_path):
    import signal
    import time

    out = tmp_path / "o.csv"
    proc = subprocess.Popen([sys.executable, "-m", "classroom_sim", "run", str(scene), "--duration", "20000",
                             "--dt", "0.001", "--sample-rate", "1000", "--csv", str(out), "--max-rows", "100000000"], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120

    def writing():  # the run is in its loop: its temporary file has rows in it
        return any(p.name.startswith(".o.csv.") and p.stat().st_size > 0 for p in tmp_path.iterdir())

    while not writing() and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "nothing was written" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == [scene]


def test_validate_prints_one_line_per_bad_file(scene, tmp_path, capsys):
    bad1 = tmp_path / "b1.toml"
    bad1.write_text("[world]\nrestitution = 2.0\n")
    bad2 = tmp_path / "b2.toml"
    bad2.write_text("not [toml")
    assert main(["validate", str(scene)]) == 0
    assert main(["validate", str(scene), str(bad1), str(bad2), str(tmp_path / "none.toml")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3
    assert "b1.toml: world.restitution" in err[0] and "b2.toml: not valid TOML" in err[1] and "cannot read" in err[2]


def test_lessons_lists_the_shipped_lessons(capsys):
    assert main(["lessons"]) == 0
    out = capsys.readouterr().out
    for title in ("Free fall", "Projectile motion", "Elastic collision in one dimension"):
        assert title in out


def test_the_real_command_shows_no_traceback(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(SCENE.replace("radius = 0.1\nposition = [5.0", "radius = 0\nposition = [5.0"))
    out = subprocess.run([sys.executable, "-m", "classroom_sim", "run", str(bad), "--duration", "1", "--csv",
                          str(tmp_path / "o.csv")], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert out.stderr.strip() == f"classroom-sim: {bad}: bodies[1].radius: must be > 0, got 0"
    assert not (tmp_path / "o.csv").exists()


def test_gui_without_a_registered_app_explains_itself(monkeypatch, capsys):
    import classroom_sim.cli as cli
    monkeypatch.setattr(cli, "entry_points", lambda **kw: [])
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "desktop app is not installed" in err and "Traceback" not in err


def test_gui_starts_the_registered_app_on_the_default_lesson(monkeypatch):
    import classroom_sim.cli as cli
    started = []

    class App:
        def load(self):
            return lambda scene, student=False, browse=True: started.append((scene, student, browse)) or 0

    monkeypatch.setattr(cli, "entry_points", lambda **kw: [App()] if kw == {"group": cli.APPS, "name": "gui"} else [])
    assert main([]) == 0
    assert main(["other.toml"]) == 0
    assert main(["gui", "--student", "other.toml"]) == 0
    assert main(["--student"]) == 0
    # the lessons browser opens over the default lesson, not over a scene the teacher chose
    assert started[0][0].endswith("projectile.toml") and started[0][2] and started[1] == ("other.toml", False, False)
    assert started[2] == ("other.toml", True, False) and started[3][0].endswith("projectile.toml") and started[3][1]


# -- answers: the key of a lesson's predictions ---------------------------------------------------------------

LAUNCH = """
[lesson]
title = "Launch"

[world]
gravity = [0.0, -9.81]
bounds = [0.0, 0.0, 60.0, 30.0]

[[bodies]]
name = "ball"
mass = 0.5
radius = 0.25
position = [1.0, 0.25]
velocity = [0.0, 0.0]

[[steps]]
title = "Look"

[[steps]]
title = "Range at 30°"
setup = { "bodies.ball.angle" = 30.0, "bodies.ball.speed" = 12.0 }

[steps.predict]
question = "How far does it land?"
body = "ball"
event = "floor"
quantity = "range"
unit = "m"

[[steps]]
title = "Momentum"
setup = { "bodies.ball.speed" = 12.0, "bodies.ball.angle" = 60.0 }

[steps.predict]
question = "Its vertical momentum at 1 s?"
body = "ball"
event = "time"
at = 1.0
quantity = "py"
unit = "kg m/s"
"""


@pytest.fixture
def launch(tmp_path):
    path = tmp_path / "launch.toml"
    path.write_text(LAUNCH, encoding="utf-8")
    return path


def test_answers_prints_one_line_per_prediction_counting_every_step(launch, capsys):
    import math

    assert main(["answers", str(launch)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2
    vx, vy = 12.0 * math.cos(math.radians(30)), 12.0 * math.sin(math.radians(30))
    step1, step2 = out
    assert step1.startswith("steps[1] Range at 30°: range = ") and step1.endswith(" s)")
    value, time = step1.removeprefix("steps[1] Range at 30°: range = ").split(" m (at t = ")
    assert float(value) == pytest.approx(2 * vx * vy / 9.81, abs=1e-9)
    assert float(time.removesuffix(" s)")) == pytest.approx(2 * vy / 9.81, abs=1e-9)
    assert repr(float(value)) == value  # full precision
    value, time = step2.removeprefix("steps[2] Momentum: py = ").split(" kg m/s (at t = ")
    assert float(value) == pytest.approx(0.5 * (12.0 * math.sin(math.radians(60)) - 9.81), abs=1e-9)
    assert time == "1.0 s)"


def test_answers_json_has_the_documented_keys(launch, capsys):
    assert main(["answers", str(launch)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert main(["answers", str(launch), "--json"]) == 0
    rows = __import__("json").loads(capsys.readouterr().out)
    assert [set(r) for r in rows] == [{"step", "title", "question", "quantity", "unit", "value", "time"}] * 2
    assert [(r["step"], r["title"], r["quantity"], r["unit"]) for r in rows] == \
        [(1, "Range at 30°", "range", "m"), (2, "Momentum", "py", "kg m/s")]
    assert rows[0]["question"] == "How far does it land?"
    for row, line in zip(rows, lines):  # the same numbers as the lines
        assert line == f"steps[{row['step']}] {row['title']}: {row['quantity']} = {row['value']!r} {row['unit']} " \
                       f"(at t = {row['time']!r} s)"


def test_answers_of_a_bad_lesson_is_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(LAUNCH.replace('quantity = "py"', 'quantity = "momentum"'), encoding="utf-8")
    assert main(["answers", str(bad)]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and f"{bad}: steps[2].predict.quantity: must be one of 'time'" in err[0]
    assert captured.out == ""


def test_answers_names_the_step_whose_event_never_happens(launch, capsys, monkeypatch):
    from functools import partial

    import classroom_sim.cli as cli
    from classroom_sim import events

    # the third step's ball has no apex: gravity off; the limit made short to keep this quick
    launch.write_text(LAUNCH.replace('event = "time"\nat = 1.0', 'event = "apex"')
                      .replace('setup = { "bodies.ball.speed" = 12.0, "bodies.ball.angle" = 60.0 }',
                               'setup = { "world.gravity.y" = 0.0, "bodies.ball.speed" = 12.0, '
                               '"bodies.ball.angle" = 60.0 }'), encoding="utf-8")
    monkeypatch.setattr(cli, "answer_key", partial(events.answer_key, limit=3.0))
    assert main(["answers", str(launch)]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"classroom-sim: {launch}: steps[2].predict.event: ")
    assert "did not happen within 3 s" in err[0] and captured.out == ""


def test_answers_of_a_scene_without_predictions_prints_nothing(tmp_path, capsys):
    plain = tmp_path / "plain.toml"
    plain.write_text(SCENE, encoding="utf-8")
    assert main(["answers", str(plain)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and "no step asks for a prediction" in captured.err


def test_lessons_json_files_are_absolute_from_anywhere(tmp_path, monkeypatch, capsys):
    import json
    from pathlib import Path

    from classroom_sim import load_scene

    monkeypatch.chdir(tmp_path)
    assert main(["lessons", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) >= 14
    for row in rows:
        path = Path(row["file"])
        assert path.is_absolute() and path.stem == row["name"]
        lesson = load_scene(path).lesson
        assert (row["title"], row["summary"], row["audience"], row["topic"]) == \
            (lesson.title, lesson.summary, lesson.audience, lesson.topic)
        assert (row["steps"], row["predictions"]) == (len(lesson.steps), len(lesson.predictions))


@pytest.mark.parametrize("log", [False, True])
def test_a_reader_that_stops_early_gets_no_traceback_and_leaves_no_log(scene, tmp_path, log):
    # `classroom-sim run SCENE --csv - | head -2`: the reader closes the pipe after two lines
    extra = ["--collisions", str(tmp_path / "log.csv")] if log else []
    proc = subprocess.Popen([sys.executable, "-m", "classroom_sim", "run", str(scene), "--duration", "60",
                             "--csv", "-", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    first = proc.stdout.readline()
    proc.stdout.close()
    with proc.stderr:
        err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert first.startswith(b"t_s,") and "Traceback" not in err and err == ""
    assert proc.returncode == 1 and not (tmp_path / "log.csv").exists()
