"""``classroom-sim variants``: a scene per student and the key, equal to ``answers`` on each
student's file; bad input is one line, exit 2, and no files."""

import csv
from pathlib import Path

import pytest

from classroom_sim import load_scene
from classroom_sim.cli import main
from classroom_sim.variants import draw

LESSON = "lessons/projectile.toml"


def answers_of(path, capsys):
    capsys.readouterr()
    assert main(["answers", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    return [float(line.split(" = ", 1)[1].split()[0]) for line in out]


def test_variants_writes_a_scene_per_student_and_the_key(tmp_path, capsys):
    folder = tmp_path / "class"
    assert main(["variants", LESSON, "--students", "12", "--seed", "4", "-o", str(folder)]) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["answers.csv"] + [f"projectile-{s:02d}.toml" for s in range(1, 13)]
    with open(folder / "answers.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == ["student", "bodies.ball.speed", "step", "question", "quantity", "unit", "value"]
    lesson = load_scene(LESSON).lesson
    assert len(rows) == 12 * len(lesson.predictions)
    for s in (1, 7, 12):
        path = folder / f"projectile-{s:02d}.toml"
        world = load_scene(path)
        assert world.lesson.variants == () and world.lesson.steps == lesson.steps
        mine = [r for r in rows if r["student"] == str(s)]
        (drawn,) = draw(lesson, 4, s)
        assert {r["bodies.ball.speed"] for r in mine} == {repr(drawn.value)}
        assert [int(r["step"]) for r in mine] == [k for k, _ in lesson.predictions]
        # exactly, digit for digit, what `answers` prints for the student's file
        assert [float(r["value"]) for r in mine] == answers_of(path, capsys)
        assert [r["value"] for r in mine] == [repr(v) for v in answers_of(path, capsys)]


def test_the_student_number_is_padded_to_the_width_of_the_class(tmp_path):
    assert main(["variants", LESSON, "--students", "3", "-o", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.toml")) == ["projectile-1.toml", "projectile-2.toml",
                                                              "projectile-3.toml"]


@pytest.mark.parametrize("args, says", [
    (["--students", "0"], "--students must be from 1 to"),
    (["--students", "x"], "--students must be a whole number"),
    (["--students", "3", "--seed", "-1"], "--seed must be at least 0"),
    (["--students", "3", "--seed", "1.5"], "--seed must be a whole number"),
    ([], "--students"),
])
def test_bad_options_are_one_line_exit_2(tmp_path, capsys, args, says):
    with pytest.raises(SystemExit) as exit_:
        main(["variants", LESSON, *args, "-o", str(tmp_path / "out")])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1 and not (tmp_path / "out").exists()


def test_a_lesson_without_variants_says_so(tmp_path, capsys):
    assert main(["variants", "lessons/free_fall.toml", "--students", "3", "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("classroom-sim: lessons/free_fall.toml: has no [[variants]]")
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "out").exists()


def test_a_bad_lesson_or_a_file_in_the_way_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(Path(LESSON).read_text(encoding="utf-8").replace("max = 14.0\nstep = 0.5", "max = 14.0\nstep = -0.5"))
    assert main(["variants", str(bad), "--students", "3", "-o", str(tmp_path / "out")]) == 2
    assert "variants[0].step: must be > 0" in capsys.readouterr().err
    in_the_way = tmp_path / "file"
    in_the_way.write_text("")
    assert main(["variants", LESSON, "--students", "3", "-o", str(in_the_way)]) == 2
    err = capsys.readouterr().err
    assert "is a file, not a folder" in err and len(err.strip().splitlines()) == 1


def test_a_failed_write_takes_back_the_files_it_added(tmp_path, capsys, monkeypatch):
    import classroom_sim.cli as cli

    real, calls = cli.write_atomically, []

    def failing(path, write, encoding="utf-8"):
        calls.append(path)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real(path, write, encoding)

    monkeypatch.setattr(cli, "write_atomically", failing)
    folder = tmp_path / "class"
    assert main(["variants", LESSON, "--students", "5", "-o", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and len(err.strip().splitlines()) == 1
    assert list(folder.iterdir()) == []
