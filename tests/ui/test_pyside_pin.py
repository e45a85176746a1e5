"""PySide6 6.12.0 on CPython 3.11 dies (none_dealloc) after a few thousand calls that
return None; pyproject.toml keeps 3.11 below 6.12. This makes 100,000 such calls."""

import subprocess
import sys

import pytest


def test_many_void_pyside_calls_do_not_kill_the_interpreter():
    pytest.importorskip("PySide6")
    code = (
        "from PySide6.QtCore import QObject\n"
        "o = QObject()\n"
        "for i in range(100_000):\n"
        "    o.setObjectName('n')\n"
        "print('survived')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "survived"
