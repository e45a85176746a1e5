"""The engine never imports Qt, pyqtgraph or the ui package (ARCHITECTURE.md)."""

import ast
import subprocess
import sys
from pathlib import Path

import classroom_sim

FORBIDDEN = ("PySide6", "shiboken6", "pyqtgraph", "ui")


def test_importing_the_engine_loads_no_qt():
    code = (
        "import sys, classroom_sim, classroom_sim.cli, classroom_sim.scene, classroom_sim.recording\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'ui'))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_no_engine_source_names_qt_or_the_ui_even_inside_a_function():
    for path in Path(classroom_sim.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name}:{node.lineno} imports {name}"
