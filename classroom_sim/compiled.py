"""The one way the engine compiles a function: numba, without the GIL, cached on disk.

numba notices only a change in a cached function's own file, not in the
functions it calls from other files (stepping calls collisions, which calls
integrators). So the cache lives in a folder named after a digest of the
engine's compiled sources: every module that uses `jit` and every module of the
engine those import, found by reading their imports (`compiled_sources`), so
that the list can never go stale. Change any of them and everything compiles anew.

numba's cache is pickled code: whoever can write the folder can make the app run
theirs. The folder is the user's own cache folder, made private (mode 0700)
and checked to belong to the user before it is used; never a shared temporary
folder. Where no such folder can be had, functions compile in memory, every
run. A NUMBA_CACHE_DIR set by the user wins.
"""

from __future__ import annotations

import ast
import hashlib
import os
import stat
from pathlib import Path

import numba
import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

HERE = Path(__file__).parent


def _module(path: Path, folder: Path) -> tuple:
    """A source's module name below ``folder``, as parts ("collisions", "broad"); a
    package's ``__init__`` is the package."""
    parts = path.relative_to(folder).with_suffix("").parts
    return parts[:-1] if parts[-1] == "__init__" else parts


def compiled_sources(folder: Path = HERE) -> list:
    """The engine's modules whose code a compiled function may run: those that import
    ``compiled``, and every module of the package they import, transitively (with the
    packages that hold them), in subpackages too. The package's own ``__init__`` only
    hands names on (``jit`` among them, for the ui): it runs in no compiled function, and
    what it imports counts only where a compiled module imports it too."""
    paths = {_module(path, folder): path for path in sorted(folder.rglob("*.py"))}
    imports = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name[:-1]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or node.level == 0:
                continue
            base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
            target = base + tuple(node.module.split(".")) if node.module else base
            found.add(target)
            found.update(target + (alias.name,) for alias in node.names)  # (a submodule, if one)
        imports[name] = {m[:k] for m in found if m in paths for k in range(1, len(m) + 1)} & set(paths)
    todo = [name for name, names in imports.items()
            if name != () and (("compiled",) in names or name == ("compiled",))]
    needed = set()
    while todo:
        name = todo.pop()
        if name in needed:
            continue
        needed.add(name)
        todo.extend(imports[name])
    return [paths[name] for name in sorted(needed)]


def private_folder(path: Path) -> bool:
    """Make ``path`` (and its missing parents) a folder only this user can read or write,
    or check that it is one: a real folder (not a link), owned by this user, closed to
    others. False if it cannot be had."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.lstat()
        if not stat.S_ISDIR(info.st_mode):
            return False
        if hasattr(os, "getuid"):
            if info.st_uid != os.getuid():
                return False  # another user's folder: its contents cannot be trusted
            if info.st_mode & 0o077:
                os.chmod(path, 0o700)  # ours, but open to others: close it
        return os.access(path, os.W_OK)
    except OSError:
        return False


def _cache_dir(package: str = __name__.rpartition(".")[0]) -> str:
    """The folder for numba's cache, or "" for none (compile in memory). Named after the
    package too: numba's cached code names the modules it came from, and a copy of the
    engine under another name with the same sources must not load it. (Two copies loaded
    in one process still may leave code here that names the other's types: `bench.ab`
    gives its process a cache of its own.)"""
    digest = hashlib.sha256(package.encode() + b"\0")
    for path in compiled_sources():
        digest.update(str(path.relative_to(HERE)).encode() + b"\0" + path.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "classroom-sim"
    if private_folder(base):
        leaf = base / f"numba-{digest.hexdigest()[:16]}"
        if private_folder(leaf):
            return str(leaf)
    return ""


_CACHE_DIR = None if os.environ.get("NUMBA_CACHE_DIR") else _cache_dir()


def jit(function=None, *, inline: bool = False):
    """Compile ``function`` with numba (nopython, nogil, numpy's float errors), cached
    on disk where a folder can be written (else compiled anew in each process).

    ``inline=True`` (as ``@jit(inline=True)``) has numba copy a small function into each
    compiled caller: a call that passes the step's structures costs more than the
    arithmetic of a helper called once per pair."""
    if function is None:
        return lambda f: jit(f, inline=inline)
    options = {"nogil": True, "error_model": "numpy", "inline": "always" if inline else "never"}
    if _CACHE_DIR == "":
        return njit(**options)(function)
    if _CACHE_DIR is None:
        return njit(cache=True, **options)(function)
    # numba picks a function's cache folder as it decorates it: point it at ours meanwhile.
    previous = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = _CACHE_DIR
    try:
        return njit(cache=True, **options)(function)
    finally:
        numba.config.CACHE_DIR = previous


@jit(inline=True)
def unsigned(i):
    """``i``, a place in an array (never negative), as an unsigned integer: indexed with
    it, an array skips numba's test for a negative place and its wrap to the end, which
    it makes at every read and write with a signed one (unless the compiler can prove the
    place is not negative: a loop over ``range(n)`` from 0). In the hottest loops, which
    read a few numbers a turn, that test costs more than the arithmetic: the broad
    phase's scan runs 45% faster with unsigned places (measured at 1,000 to 20,000
    bodies).

    Only for indexing and for counting up, and within one kind (``unsigned(i) +
    unsigned(1)``, or ``unsigned(i + 1)``): numba works out a signed and an unsigned
    integer together as a signed one (``unsigned(i) + 1`` is signed), and indexing with
    that tests it again."""
    return np.uint64(i)


@intrinsic
def lent(typingctx, value):
    """``value`` (an array, or a tuple of arrays and numbers) as compiled code sees it, but
    without the count of references to its arrays.

    numba counts a reference each time an array is handed to a helper and again when
    the helper is done with it: an atomic operation each. In the contact loop, which
    hands the step's structures to a helper per contact, those cost more than the
    arithmetic (a quarter of a step at 1,000 bodies). A lent array is the same array
    with no owner recorded, so its counts do nothing. Only for an array that something
    else keeps alive while the view is used: an argument a caller passed, or a variable
    of the calling function still in use (lend at the call, ``helper(lent(q))``, so the
    view lasts no longer than the call).

    A compiled function lends its own arguments again as it begins (``b = lent(b)``):
    a lent view handed over as an argument is not known to be lent any more, and a
    structure's arrays would be counted at each use (measured: a pass over a step's
    pairs took 40 ns a pair so, 14 ns lent again)."""
    if isinstance(value, types.Array):
        places = None
    elif isinstance(value, types.BaseTuple):
        places = [k for k, member in enumerate(value) if isinstance(member, types.Array)]
    else:
        return None

    def unowned(context, builder, array_type, array):
        view = context.make_array(array_type)(context, builder, value=array)
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    def codegen(context, builder, signature, args):
        if places is None:
            return unowned(context, builder, value, args[0])
        out = args[0]
        for k in places:
            member = unowned(context, builder, value[k], builder.extract_value(out, k))
            out = builder.insert_value(out, member, k)
        return out

    return value(value), codegen
