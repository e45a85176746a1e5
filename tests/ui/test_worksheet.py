"""Worksheets: one page per student, the key on as many pages as it takes, Letter or A4 by
the locale, written whole or not at all; bad input is one line and exit 2."""

import re

import pytest
from PySide6.QtCore import QLocale

from classroom_sim import loads_scene
from classroom_sim.cli import main
from classroom_sim.variants import sheets
from ui import worksheet

LESSON = "lessons/projectile.toml"

QUICK = """
[lesson]
title = "Quick"

[world]
gravity = [0.0, -9.81]

[[bodies]]
name = "ball"
mass = 1.0
radius = 0.25
position = [0.0, 0.0]
velocity = [3.0, 0.0]

[[controls]]
label = "Speed (m/s)"
param = "bodies.ball.velocity.x"
min = 1.0
max = 9.0

[[steps]]
title = "Where after 0.1 s?"
text = "The ball moves at **your speed**."

[steps.predict]
question = "How far does it go in 0.1 s?"
body = "ball"
event = "time"
at = 0.1
quantity = "x"
unit = "m"

[[variants]]
param = "bodies.ball.velocity.x"
min = 1.0
max = 9.0
step = 0.5
"""


def pages(path) -> int:
    """The page count of a PDF, from its page tree (and a check that it is a whole PDF)."""
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    counts = re.findall(rb"/Type\s*/Pages\b[^>]*?/Count\s+(\d+)", data, re.S)
    assert len(counts) == 1, counts
    return int(counts[0])


def media_box(path):
    boxes = set(re.findall(rb"/MediaBox\s*\[0 0 ([\d.]+) ([\d.]+)\]", path.read_bytes()))
    assert len(boxes) == 1
    (w, h), = boxes
    return round(float(w)), round(float(h))


def test_a_page_per_student_and_the_key(tmp_path, capsys):
    out, key = tmp_path / "sheets.pdf", tmp_path / "key.pdf"
    assert main(["worksheet", LESSON, "--students", "3", "--seed", "2", "-o", str(out), "--key", str(key)]) == 0
    assert pages(out) == 3 and pages(key) == 1
    assert capsys.readouterr().out.startswith(f"{out}: 3 pages")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["key.pdf", "sheets.pdf"]  # no temporary files left


def test_without_a_class_one_page_with_the_files_numbers(tmp_path):
    out = tmp_path / "one.pdf"
    assert main(["worksheet", "lessons/free_fall.toml", "-o", str(out)]) == 0
    assert pages(out) == 1


def test_every_shipped_lesson_fits_one_page(tmp_path):
    from classroom_sim.cli import lesson_files
    from classroom_sim import load_scene

    class_ = [sheets(load_scene(p))[0] for p in lesson_files()]
    out = tmp_path / "all.pdf"
    assert worksheet.write(class_, out) == len(class_)
    assert pages(out) == len(class_)


def test_the_key_takes_as_many_pages_as_it_needs(tmp_path):
    class_ = sheets(loads_scene(QUICK), 90, seed=1)
    out, key = tmp_path / "s.pdf", tmp_path / "k.pdf"
    assert worksheet.write(class_, out, key=key) == 90
    assert pages(out) == 90 and pages(key) >= 2


def test_the_keys_table_holds_every_students_numbers_and_answers():
    class_ = sheets(loads_scene(QUICK), 4, seed=1)
    text = worksheet.key_html(class_)
    for sheet in class_:
        speed = sheet.values[0].value
        assert f"<td align='right'>{speed:.1f}</td>" in text
        assert f"<td align='right'>{speed * 0.1:.4g}</td>" in text  # x = v t, to 4 significant figures


@pytest.mark.parametrize("name, size", [("en_US", (612, 792)), ("en_CA", (612, 792)), ("de_DE", (595, 842)),
                                        ("en_GB", (595, 842)), ("C", (595, 842))])
def test_letter_or_a4_by_the_locale(tmp_path, name, size):
    out = tmp_path / "s.pdf"
    worksheet.write(sheets(loads_scene(QUICK)), out, locale=QLocale(name))
    assert media_box(out) == size


@pytest.mark.parametrize("args, says", [
    (["--students", "0"], "--students must be from 1 to"),
    (["--seed", "-2", "--students", "2"], "--seed must be at least 0"),
])
def test_bad_options_are_one_line(tmp_path, capsys, args, says):
    with pytest.raises(SystemExit) as exit_:
        main(["worksheet", LESSON, *args, "-o", str(tmp_path / "s.pdf")])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1 and not list(tmp_path.iterdir())


@pytest.mark.parametrize("scene, args, says", [
    ("lessons/free_fall.toml", ["--students", "3"], "has no [[variants]]"),
    (LESSON, ["--key", "{out}"], "must be another file than -o"),
    (LESSON, ["-o", "{missing}/s.pdf"], "does not exist"),
])
def test_bad_input_exits_2_with_one_line_and_no_file(tmp_path, capsys, scene, args, says):
    out = tmp_path / "s.pdf"
    args = [a.format(out=out, missing=tmp_path / "nowhere") for a in args]
    assert main(["worksheet", scene, "-o", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1 and not list(tmp_path.iterdir())


def test_a_failed_write_leaves_no_file(tmp_path, monkeypatch, capsys):
    def full(path, write, encoding="utf-8"):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(worksheet, "write_atomically", full)
    out = tmp_path / "s.pdf"
    assert main(["worksheet", LESSON, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_the_apps_dialog_writes_the_sheets_and_the_key(qtbot, tmp_path):
    from classroom_sim import load_scene

    dialog = worksheet.WorksheetDialog(load_scene(LESSON))
    qtbot.addWidget(dialog)
    assert dialog.students.isEnabled() and dialog.seed.value() == 1
    dialog.students.setValue(2)
    written = dialog.write_to(tmp_path / "class 7b")
    assert written == tmp_path / "class 7b.pdf"
    assert pages(written) == 2 and pages(tmp_path / "class 7b-key.pdf") == 1


def test_the_dialog_offers_one_sheet_for_a_lesson_without_variants(qtbot, tmp_path):
    from classroom_sim import load_scene

    dialog = worksheet.WorksheetDialog(load_scene("lessons/free_fall.toml"))
    qtbot.addWidget(dialog)
    assert not dialog.students.isEnabled()
    dialog.key.setChecked(False)
    assert pages(dialog.write_to(tmp_path / "f.pdf")) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.pdf"]
