"""The command line: ``classroom-sim [gui] [--student] [SCENE]``, ``run``, ``screenshot``,
``validate``, ``lessons``, ``answers``, ``variants``, ``worksheet``, ``set-pin``.

Bad input exits with status 2 and one line naming the file and the field;
never a traceback, and never a partial output file.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import signal
import sys
import time
from importlib import resources
from importlib.metadata import entry_points
from pathlib import Path

from .collision_log import COLUMNS as COLLISION_COLUMNS, format_row
from .events import EventError, answer_key
from .files import write_atomically
from .recording import LAYOUTS, CsvStream, sample_count
from .saving import dumps_scene
from .scene import SceneError, load_scene
from .variants import MAX_STUDENTS, VariantError, sheets

COMMANDS = ("gui", "run", "screenshot", "validate", "lessons", "answers", "variants", "worksheet", "set-pin")
DEFAULT_LESSON = "projectile"


MIN_DT = 1e-6
"""s: the shortest step `run` takes."""
MAX_STEPS = 1e9
"""The most steps one `run` takes (more would run for days)."""
MAX_ROWS = 10_000_000
"""The most data rows `run` writes unless --max-rows says otherwise (about 1 GB of CSV)."""


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line (no usage block), exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def lesson_files() -> list[Path]:
    """The shipped lessons, sorted by file name."""
    folder = resources.files("lessons")
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".toml"))


def default_lesson() -> Path:
    """The scene the app opens when given none."""
    return Path(str(resources.files("lessons").joinpath(f"{DEFAULT_LESSON}.toml")))


def _positive(what):
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a number, got {text!r}") from None
        if not (math.isfinite(value) and value > 0):
            raise argparse.ArgumentTypeError(f"{what} must be > 0, got {text!r}")
        return value
    return parse


def _step(text):
    value = _positive("--dt")(text)
    if value < MIN_DT:
        raise argparse.ArgumentTypeError(f"--dt must be at least {MIN_DT:g} s, got {text!r}")
    return value


def _whole(option: str, low: int, high: int | None = None):
    """The parser of a whole-number option from ``low`` (to ``high``, if given)."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{option} must be a whole number, got {text!r}") from None
        if high is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{option} must be from {low} to {high}, got {text!r}")
        if value < low:
            raise argparse.ArgumentTypeError(f"{option} must be at least {low}, got {text!r}")
        return value
    return parse


def _at(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--at must be a number of seconds, got {text!r}") from None
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"--at must be >= 0, got {text!r}")
    return value


def _size(text):
    width, sep, height = text.lower().partition("x")
    if sep and width.isdigit() and height.isdigit() and 16 <= int(width) <= 8192 and 16 <= int(height) <= 8192:
        return int(width), int(height)
    raise argparse.ArgumentTypeError(f"--size must be WIDTHxHEIGHT, each 16 to 8192 pixels, got {text!r}")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="classroom-sim", description="A physics simulator for teaching kinematics.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    g = sub.add_parser("gui", help="open the desktop app (the default command)")
    g.add_argument("scene", nargs="?", help="a scene file; the built-in default lesson if left out")
    g.add_argument("--student", action="store_true",
                   help="student mode: only the lesson panel and the time controls work")
    r = sub.add_parser("run", help="run a scene headless and write trajectories as CSV")
    r.add_argument("scene")
    r.add_argument("--duration", type=_positive("--duration"), required=True, help="simulated seconds")
    r.add_argument("--dt", type=_step, default=1.0 / 240.0, help=f"step in s (default 1/240, at least {MIN_DT:g})")
    r.add_argument("--sample-rate", type=_positive("--sample-rate"), default=100.0, help="samples per s (default 100)")
    r.add_argument("--csv", required=True, help="the CSV file to write; - for standard output")
    r.add_argument("--max-rows", type=_whole("--max-rows", 1), default=MAX_ROWS,
                   help=f"refuse a run that would write more data rows than this (default {MAX_ROWS:,})")
    r.add_argument("--collisions", default=None, metavar="LOG.csv",
                   help="also write one row per body-body collision to this CSV file")
    r.add_argument("--layout", choices=LAYOUTS, default="long", help="long (default): a row per body per sample; wide: a row per sample")
    s = sub.add_parser("screenshot", help="run a scene headless to a time and save its picture as PNG")
    s.add_argument("scene")
    s.add_argument("--at", type=_at, required=True, help="simulated seconds")
    s.add_argument("-o", "--output", required=True, help="the PNG file to write")
    s.add_argument("--size", type=_size, default=None, help="WIDTHxHEIGHT in pixels (default 1200x800)")
    s.add_argument("--projector", action="store_true", help="large type, thick lines")
    v = sub.add_parser("validate", help="check scene files; one line per bad file")
    v.add_argument("files", nargs="+")
    ls = sub.add_parser("lessons", help="list the shipped lessons")
    ls.add_argument("--json", action="store_true", help="a JSON list of objects, with summaries and counts")
    a = sub.add_parser("answers", help="the answer key: each prediction of a lesson, measured")
    a.add_argument("scene")
    a.add_argument("--json", action="store_true", help="a JSON list of objects")
    va = sub.add_parser("variants", help="one scene per student with their own numbers, and the key as CSV")
    va.add_argument("scene")
    va.add_argument("--students", type=_whole("--students", 1, MAX_STUDENTS), required=True, help="how many students (files)")
    va.add_argument("--seed", type=_whole("--seed", 0), default=1, help="which draw of numbers (default 1)")
    va.add_argument("-o", "--output", required=True, metavar="FOLDER", help="the folder to write (made if missing)")
    ws = sub.add_parser("worksheet", help="a printable PDF: a page per student; --key: the teacher's key")
    ws.add_argument("scene")
    ws.add_argument("--students", type=_whole("--students", 1, MAX_STUDENTS), default=None,
                    help="a page per student with their own numbers (default: one page, the file's numbers)")
    ws.add_argument("--seed", type=_whole("--seed", 0), default=1, help="which draw of numbers (default 1)")
    ws.add_argument("-o", "--output", required=True, metavar="OUT.pdf", help="the worksheets' PDF")
    ws.add_argument("--key", default=None, metavar="KEY.pdf", help="also write the teacher's key (PDF)")
    sub.add_parser("set-pin", help="set the teacher's PIN that leaves student mode")
    return p


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help")):
        argv.insert(0, "gui")
    args = _parser().parse_args(argv)
    try:
        return {"gui": _gui, "run": _run, "screenshot": _screenshot, "validate": _validate,
                "lessons": _lessons, "answers": _answers, "variants": _variants, "worksheet": _worksheet,
                "set-pin": _set_pin}[args.command](args)
    except (SceneError, UsageError) as exc:
        print(f"classroom-sim: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nclassroom-sim: interrupted; nothing was written", file=sys.stderr)
        return 130
    except BrokenPipeError:  # what reads the standard output stopped (`| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # (no second error at exit)
        return 1


APPS = "classroom_sim.apps"
"""The entry-point group where a desktop app registers itself as ``gui``: the
engine starts it without knowing it (it never imports the ui)."""


def _app(name: str):
    """The desktop app's function registered as ``name`` (see APPS)."""
    found = entry_points(group=APPS, name=name)
    if not found:
        raise UsageError(
            "the desktop app is not installed; "
            "try 'classroom-sim lessons' and 'classroom-sim run SCENE --duration S --csv OUT'"
        )
    try:
        return next(iter(found)).load()
    except ImportError as exc:
        raise UsageError(f"the desktop app cannot start: {exc}") from None


def _gui(args) -> int:
    if args.scene:  # the teacher chose the scene: no start page over it
        return _app("gui")(args.scene, student=args.student, browse=False)
    return _app("gui")(str(default_lesson()), student=args.student)


def _set_pin(args) -> int:
    return _app("set-pin")()


def _screenshot(args) -> int:
    world = load_scene(args.scene)
    out = _writable(args.output)
    render = _app("screenshot")

    def advance(each) -> None:  # the app samples the trail as the world advances
        _advance(world, args.scene, args.at, 1.0 / 240.0, lambda: each(world))

    try:
        render(world, str(out), args.size or (1200, 800), args.projector, advance=advance)
    except OSError as exc:
        raise UsageError(f"{out}: cannot write: {exc.strerror or exc}") from None
    return 0


def _writable(path) -> Path:
    """``path`` as a Path, if a file can be written there; UsageError saying why not otherwise."""
    out = Path(path)
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"{out}: cannot write: the folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"{out}: cannot write: the folder {str(folder)!r} is not writable")
    if out.is_dir():
        raise UsageError(f"{out}: cannot write: it is a folder")
    return out


def _advance(world, name, duration: float, dt: float, each=None) -> None:
    """Step ``world`` to ``duration`` s in steps of ``dt``, with a progress bar on a terminal
    (and ``each()`` after every step, if given)."""
    steps = max(1, math.ceil(duration / dt - 1e-9)) if duration > 0 else 0
    progress = _Progress(name, duration) if sys.stderr.isatty() and steps else None
    for k in range(1, steps + 1):
        world.advance_to(min(k * dt, duration))
        if each is not None:
            each()
        if progress:
            progress.show(world.time)
    if progress:
        progress.done()


def _run(args) -> int:
    world = load_scene(args.scene)
    steps = args.duration / args.dt
    if not steps <= MAX_STEPS:
        raise UsageError(f"--duration {args.duration:g} s in steps of --dt {args.dt:g} s is {steps:.3g} steps; "
                         f"a run takes at most {MAX_STEPS:.0e}")
    samples = sample_count(args.sample_rate, args.duration)
    rows = samples * (len(world) if args.layout == "long" else 1)
    if rows > args.max_rows:
        raise UsageError(f"{args.scene}: the run would write {rows:,} rows of CSV, more than --max-rows "
                         f"{args.max_rows:,} (sample less often, run shorter, or raise --max-rows)")

    log = _writable(args.collisions) if args.collisions is not None else None
    if log is not None and args.csv != "-" and log.resolve() == Path(args.csv).resolve():
        raise UsageError(f"--collisions {args.collisions}: must be another file than --csv")

    def write(f, each=None):
        stream = CsvStream(world, f, args.layout, rate=args.sample_rate, until=args.duration, start=0.0)
        try:
            _advance(world, args.scene, args.duration, args.dt, each)
        finally:
            stream.stop()

    def write_both(f):
        if log is None:
            return write(f)
        _write_file(log, lambda g: write(f, _collision_rows(world, g)))

    with _terminated_as_interrupt():
        if args.csv == "-":
            write_both(sys.stdout)
            sys.stdout.flush()
            return 0
        _write_file(_writable(args.csv), write_both)
    return 0


def _write_file(path, write) -> None:
    """`write_atomically`, with a failure to write said in one line naming the file."""
    try:
        write_atomically(path, write)
    except BrokenPipeError:
        raise  # (the standard output's reader stopped, not this file: see `main`)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _collision_rows(world, f):
    """Have ``world`` list its collisions; the function that writes the new ones to
    ``f`` as CSV rows (`COLLISION_COLUMNS`), to be called after each step."""
    out = csv.writer(f, lineterminator="\n")
    out.writerow(COLLISION_COLUMNS)
    world.collision_report = listed = []

    def each():
        out.writerows(format_row(c.row()) for c in listed)
        listed.clear()
    return each


class _terminated_as_interrupt:
    """While a run writes, SIGTERM is handled like Ctrl-C: the partial file is removed."""

    def __enter__(self):
        self._previous = None
        try:
            self._previous = signal.signal(signal.SIGTERM, _interrupt)
        except ValueError:  # not the main thread: leave signals alone
            pass
        return self

    def __exit__(self, *exc):
        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)
        return False


def _interrupt(signum, frame):
    raise KeyboardInterrupt


class _Progress:
    """A one-line progress bar on stderr, redrawn at most ten times a second."""

    def __init__(self, name, total):
        self.name, self.total, self.last = name, total, 0.0

    def show(self, t):
        now = time.monotonic()
        if now - self.last < 0.1:
            return
        self.last = now
        frac = min(t / self.total, 1.0)
        bar = "#" * int(30 * frac)
        sys.stderr.write(f"\r{self.name}: [{bar:<30}] {100 * frac:5.1f}%  t = {t:.2f} of {self.total:g} s")
        sys.stderr.flush()

    def done(self):
        self.last = 0.0
        self.show(self.total)
        sys.stderr.write("\n")


def _validate(args) -> int:
    bad = 0
    for name in args.files:
        try:
            load_scene(name)
            print(f"{name}: ok")
        except SceneError as exc:
            print(exc, file=sys.stderr)
            bad += 1
    return 2 if bad else 0


def _lessons(args) -> int:
    rows = []
    for path in lesson_files():
        lesson = load_scene(path).lesson
        rows.append({"name": path.stem, "file": str(path.resolve()), "title": lesson.title if lesson else path.stem,
                     "summary": lesson.summary if lesson else "", "audience": lesson.audience if lesson else "",
                     "topic": lesson.topic if lesson else "", "steps": len(lesson.steps) if lesson else 0,
                     "predictions": len(lesson.predictions) if lesson else 0})
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for row in rows:
            print(f"{row['name']:<20} {row['title']}    ({row['file']})")
    return 0


def _answers(args) -> int:
    world = load_scene(args.scene)
    if world.lesson is None or not world.lesson.predictions:
        print(f"classroom-sim: {args.scene}: no step asks for a prediction: no answers", file=sys.stderr)
        return 0
    try:
        key = answer_key(world)
    except EventError as exc:
        raise UsageError(f"{args.scene}: {exc}") from None
    if args.json:
        print(json.dumps([{"step": a.step, "title": a.title, "question": a.question, "quantity": a.quantity,
                           "unit": a.unit, "value": a.value, "time": a.time} for a in key], ensure_ascii=False,
                         indent=2))
    else:
        for a in key:
            print(f"steps[{a.step}] {a.title}: {a.quantity} = {a.value!r} {a.unit} (at t = {a.time!r} s)")
    return 0


KEY_COLUMNS = ("step", "question", "quantity", "unit", "value")
"""The answer columns of ``variants``' answers.csv, after ``student`` and the varied parameters."""


def _class(args, world):
    """The class's `Sheet`s (one, with the file's numbers, for ``--students`` left out);
    UsageError naming the file for a lesson that cannot give them."""
    if world.lesson is None:
        raise UsageError(f"{args.scene}: has no [lesson]: there are no steps or questions to hand out")
    if args.students is not None and not world.lesson.variants:
        instead = "leave out --students for one sheet to copy" if args.command == "worksheet" else \
            "docs/LESSONS.md, 'Per-student variants', says how to add them"
        raise UsageError(f"{args.scene}: has no [[variants]], so every student would get the same numbers ({instead})")
    try:
        return sheets(world, args.students, args.seed)
    except VariantError as exc:
        raise UsageError(f"{args.scene}: {exc}") from None


def _variants(args) -> int:
    world = load_scene(args.scene)
    folder = Path(args.output)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: cannot write: it is a file, not a folder")
    class_ = _class(args, world)
    stem, width = Path(args.scene).stem, len(str(args.students))
    files = {}
    for sheet in class_:
        numbers = ", ".join(d.text for d in sheet.values)
        files[folder / f"{stem}-{sheet.student:0{width}d}.toml"] = (
            f"# Student {sheet.student} (seed {sheet.seed}) of {Path(args.scene).name}: {numbers}\n"
            + dumps_scene(sheet.world))
    out = io.StringIO()
    rows = csv.writer(out, lineterminator="\n")
    rows.writerow(("student", *(v.param for v in world.lesson.variants), *KEY_COLUMNS))
    for sheet in class_:
        for a in sheet.answers:
            rows.writerow((sheet.student, *(repr(d.value) for d in sheet.values), a.step, a.question, a.quantity,
                           a.unit, repr(a.value)))
    files[folder / "answers.csv"] = out.getvalue()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{folder}: cannot make the folder: {exc.strerror or exc}") from None
    written = []
    try:
        for path, text in files.items():
            new = not path.exists()
            _write_file(path, lambda f, text=text: f.write(text))
            if new:
                written.append(path)
    except BaseException:  # (all or nothing: take back the files this run added)
        for path in written:
            path.unlink(missing_ok=True)
        raise
    print(f"{folder}: {len(class_)} students' scenes and answers.csv (seed {args.seed})")
    return 0


def _worksheet(args) -> int:
    world = load_scene(args.scene)
    out = _writable(args.output)
    key = _writable(args.key) if args.key is not None else None
    if key is not None and key.resolve() == out.resolve():
        raise UsageError(f"--key {args.key}: must be another file than -o")
    write = _app("worksheet")
    class_ = _class(args, world)
    try:
        pages = write(class_, str(out), key=None if key is None else str(key))
    except OSError as exc:
        raise UsageError(f"{exc.filename or out}: cannot write: {exc.strerror or exc}") from None
    print(f"{out}: {pages} page{'s' if pages != 1 else ''}" + (f"; the key: {key}" if key is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
