"""The installed distribution holds every module of the source tree: `pip install .`
(the README's set-up) must give a working app, not one missing a subpackage."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def modules():
    """Every module of the packages classroom_sim, ui and lessons, dotted."""
    out = []
    for top in ("classroom_sim", "ui", "lessons"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if path.name == "__main__.py":  # (importing it runs the command)
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            if all((ROOT.joinpath(*parts[:k]) / "__init__.py").exists() for k in range(1, len(parts))):
                out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def test_every_module_imports_from_the_installed_distribution(tmp_path):
    names = modules()
    assert "classroom_sim.collisions.schedule" in names and "ui.tools.tape" in names
    # from a folder outside the source tree, so that what is imported is what was installed
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH="")
    code = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"
    done = subprocess.run([sys.executable, "-c", code, *names], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-800:]


def test_the_shipped_lessons_are_installed(tmp_path):
    env = dict(os.environ, PYTHONPATH="")
    code = "from classroom_sim import lesson_files\nprint(len(lesson_files()))"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-800:]
    assert int(done.stdout.split()[-1]) == len(list((ROOT / "lessons").glob("*.toml")))
