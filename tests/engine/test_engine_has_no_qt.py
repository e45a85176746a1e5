"""The engine never imports Qt, pyqtgraph or the ui package (ARCHITECTURE.md)."""

import subprocess
import sys


def test_importing_the_engine_loads_no_qt():
    code = (
        "import sys, classroom_sim, classroom_sim.cli, classroom_sim.scene, classroom_sim.recording\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'ui'))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
