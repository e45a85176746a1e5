"""numba's cache: a private folder of the user's, checked before use; the list of compiled
sources derived from the imports, so that a stale cache cannot be."""

import os
import stat

import pytest

from classroom_sim import compiled


def test_the_compiled_sources_are_found_from_the_imports(tmp_path):
    here = compiled.HERE
    names = {p.relative_to(here).as_posix() for p in compiled.compiled_sources()}
    assert {"compiled.py", "stepping.py", "integrators.py", "collisions/__init__.py", "collisions/broad.py",
            "collisions/schedule.py", "collisions/contacts.py", "collisions/resting.py", "collisions/velocities.py",
            "collisions/walls.py",
            "collisions/motion.py", "collisions/supports.py"} <= names
    assert "cli.py" not in names and "scene.py" not in names
    (tmp_path / "compiled.py").write_text("import numba\n")
    (tmp_path / "fast.py").write_text("from .compiled import jit\nfrom . import helper\n")
    (tmp_path / "helper.py").write_text("from .maths import f\n")
    (tmp_path / "maths.py").write_text("x = 1\n")
    (tmp_path / "slow.py").write_text("from .fast import y\n")  # uses compiled code, is not compiled
    assert [p.name for p in compiled.compiled_sources(tmp_path)] == ["compiled.py", "fast.py", "helper.py",
                                                                     "maths.py"]
    # in a subpackage: relative imports one and two levels up, and the package's own __init__
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from .inner import z\n")
    (tmp_path / "pkg" / "inner.py").write_text("from ..compiled import jit\nfrom . import deep\n")
    (tmp_path / "pkg" / "deep.py").write_text("from ..maths import x\n")
    (tmp_path / "pkg" / "unused.py").write_text("y = 2\n")
    (tmp_path / "user.py").write_text("from .compiled import jit\nfrom .pkg.inner import f\n")
    found = [p.relative_to(tmp_path).as_posix() for p in compiled.compiled_sources(tmp_path)]
    assert found == ["compiled.py", "fast.py", "helper.py", "maths.py", "pkg/__init__.py", "pkg/deep.py",
                     "pkg/inner.py", "user.py"]
    # the package's own __init__ hands ``jit`` on: what it imports besides is not compiled code
    (tmp_path / "__init__.py").write_text("from .compiled import jit\nfrom .slow import y\nfrom . import texts\n")
    (tmp_path / "texts.py").write_text("words = 1\n")
    assert [p.relative_to(tmp_path).as_posix() for p in compiled.compiled_sources(tmp_path)] == found


def _mode(path):
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owners and modes")
def test_the_cache_folder_is_private_and_ours(tmp_path, monkeypatch):
    fresh = tmp_path / "a" / "b"
    assert compiled.private_folder(fresh) and _mode(fresh) == 0o700
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    os.chmod(shared, 0o777)
    assert compiled.private_folder(shared) and _mode(shared) == 0o700  # ours: closed to others
    link = tmp_path / "link"
    link.symlink_to(fresh)
    assert not compiled.private_folder(link)
    (tmp_path / "file").write_text("")
    assert not compiled.private_folder(tmp_path / "file")
    uid = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: uid + 1)  # as if another user had made it
    assert not compiled.private_folder(fresh)


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owners and modes")
def test_without_a_safe_user_folder_nothing_is_cached_and_no_temp_folder_is_used(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = compiled._cache_dir()
    assert folder.startswith(str(tmp_path / "cache" / "classroom-sim" / "numba-"))
    # a copy of the engine under another name, with the same sources, keeps a cache of its own
    assert compiled._cache_dir(package="classroom_sim_copy") not in ("", folder)
    assert compiled._cache_dir() == folder
    assert _mode(tmp_path / "cache" / "classroom-sim") == 0o700 and _mode(tmp_path / "cache" / "classroom-sim" / folder.rsplit("/", 1)[1]) == 0o700
    blocked = tmp_path / "blocked"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert compiled._cache_dir() == ""  # no cache rather than a shared temporary folder
    uid = os.getuid()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(os, "getuid", lambda: uid + 1)
    assert compiled._cache_dir() == ""


def test_a_lent_view_is_the_same_array_and_a_lent_tuple_the_same_tuple():
    from collections import namedtuple

    import numpy as np
    from numba import njit

    from classroom_sim.compiled import lent

    Pair = namedtuple("Pair", "values count scale")

    @njit
    def write_through(values, pair):
        view = lent(values)
        view[1] = 7.0
        other = lent(pair)
        other.values[0] = other.scale * view[1]
        other.count[0] += 1
        return view.shape[0], other.scale

    values = np.zeros(3)
    pair = Pair(np.zeros(2), np.zeros(1, np.int64), 2.5)
    assert write_through(values, pair) == (3, 2.5)
    assert values.tolist() == [0.0, 7.0, 0.0]
    assert pair.values.tolist() == [17.5, 0.0] and pair.count[0] == 1


_CHURN = """
from collections import namedtuple
import numpy as np
from numba import njit
from numba.core.runtime import rtsys
from classroom_sim.compiled import lent
Pair = namedtuple("Pair", "values count scale")
@njit
def churn(k):
    total = 0.0
    for m in range(k):
        a = np.full(64, float(m))
        total += lent(a)[3] + lent(Pair(a, np.zeros(1, np.int64), 1.0)).values[5]
    return total
churn(1)
before = rtsys.get_allocation_stats()
assert churn(1000) == 2 * sum(range(1000))
after = rtsys.get_allocation_stats()
print(after.alloc - before.alloc, after.free - before.free)
"""


def test_lending_arrays_neither_frees_them_early_nor_leaks_them():
    """Arrays made and dropped in compiled code, lent on the way, are each freed once."""
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_NRT_STATS="1")
    out = subprocess.run([sys.executable, "-c", _CHURN], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["2000", "2000"]
