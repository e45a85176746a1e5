"""The collision log: each body-body collision the engine resolved, as a class reads it.

A World lists its collisions only when asked (`World.collision_report` set to a
list): each is a `Collision`, with the time of impact, the two bodies in file
order, their masses, their velocities just before and just after, and from those
the change of kinetic energy and the measured restitution. `CollisionLog` keeps
them for a reader on another thread (the app's collisions panel), and `COLUMNS`
and `Collision.row` are the CSV of ``classroom-sim run --collisions``.
"""

from __future__ import annotations

import csv
import math
import threading
from typing import NamedTuple

import numpy as np

from .files import write_atomically

COLUMNS = ("t_s", "a", "b", "ma_kg", "mb_kg", "vax_m_s", "vay_m_s", "vbx_m_s", "vby_m_s",
           "vax_after_m_s", "vay_after_m_s", "vbx_after_m_s", "vby_after_m_s", "dke_j", "e")
"""The columns of a collision log's CSV (see SCENE_FORMAT.md, Command line)."""

MAX_ROWS = 200_000
"""How many collisions a `CollisionLog` keeps (about 60 MB): at the cap it stops
taking more, keeps what it has and says so (`CollisionLog.full`)."""


class Collision(NamedTuple):
    """One body-body collision: ``t`` (s, the instant of impact), ``a`` and ``b`` (the
    bodies' names, in file order), ``normal`` (the unit vector from a to b), ``va``,
    ``vb`` (m/s, just before), ``va_after``, ``vb_after`` (m/s, just after), ``ma``,
    ``mb`` (kg; inf for a fixed body)."""

    t: float
    a: str
    b: str
    normal: np.ndarray
    va: np.ndarray
    vb: np.ndarray
    va_after: np.ndarray
    vb_after: np.ndarray
    ma: float
    mb: float

    @property
    def dke(self) -> float:
        """The change of kinetic energy in J (negative: lost); a fixed body, which never
        moves, adds nothing."""
        return _ke_change(self.ma, self.va, self.va_after) + _ke_change(self.mb, self.vb, self.vb_after)

    @property
    def e(self) -> float:
        """The measured restitution: the relative normal speed after over before."""
        before = float(np.dot(self.va - self.vb, self.normal))
        after = float(np.dot(self.vb_after - self.va_after, self.normal))
        return after / before if before > 0.0 else math.nan

    def row(self) -> list:
        """The collision as a row of the log's CSV (`COLUMNS`)."""
        return [self.t, self.a, self.b, self.ma, self.mb, *map(float, self.va), *map(float, self.vb),
                *map(float, self.va_after), *map(float, self.vb_after), self.dke, self.e]


def _ke_change(mass: float, before, after) -> float:
    if math.isinf(mass):
        return 0.0
    return 0.5 * mass * (float(np.dot(after, after)) - float(np.dot(before, before)))


def collisions_of(times, pairs, vectors, names, masses) -> list[Collision]:
    """The `Collision` of each row of a step's log (`collisions.Log`: ``pairs`` (i, j),
    ``vectors`` (normal, v_i, v_j before, v_i, v_j after), ``times``), named from
    ``names`` and weighed from ``masses`` (kg, by body index), each pair in file order."""
    if len(times) == 0:
        return []
    pairs = np.asarray(pairs)
    swap = pairs[:, 0] > pairs[:, 1]
    first = np.where(swap, pairs[:, 1], pairs[:, 0])
    second = np.where(swap, pairs[:, 0], pairs[:, 1])
    v = np.array(vectors, dtype=float)
    v[swap, 0] *= -1.0  # the normal from the first to the second
    v[swap, 1:3] = v[swap, 2:0:-1]
    v[swap, 3:5] = v[swap, 4:2:-1]
    m = np.asarray(masses, dtype=float)
    return [Collision(t, names[i], names[j], n, va, vb, va2, vb2, ma, mb)
            for t, i, j, (n, va, vb, va2, vb2), ma, mb
            in zip(np.asarray(times, dtype=float).tolist(), first.tolist(), second.tolist(), v,
                   m[first].tolist(), m[second].tolist())]


class CollisionLog:
    """Collisions appended by the physics thread and read by any other, each reader
    following it with `since` (nothing is ever removed but by `clear`, so a count
    read once stays valid until then)."""

    def __init__(self, limit: int = MAX_ROWS):
        self._rows: list[Collision] = []
        self._lock = threading.Lock()
        self._limit = limit
        self._pending: list[Collision] = []
        self.full = False
        """True once the log reached its cap (`MAX_ROWS`) and took no more."""
        self.generation = 0
        """Counts the clears: a reader that saw another generation starts again from 0."""

    def __len__(self) -> int:
        return len(self._rows)

    def extend(self, collisions) -> None:
        """Append collisions (up to the cap)."""
        room = self._limit - len(self._rows)
        if len(collisions) > room:
            self.full = True
            collisions = collisions[:max(room, 0)]
        with self._lock:
            self._rows.extend(collisions)

    def since(self, k: int) -> list[Collision]:
        """The collisions from the k-th on."""
        with self._lock:
            return self._rows[k:]

    def clear(self) -> None:
        self.cut(-math.inf)

    def cut(self, t: float) -> None:
        """Keep only the collisions up to ``t`` s (a run that goes on from a recorded
        instant drops what came after it): a new generation for the readers."""
        with self._lock:
            self._rows = [c for c in self._rows if c.t <= t]
            self.full = False
            self.generation += 1
        self._pending.clear()

    # -- the physics thread's side --------------------------------------------------------------
    def follow(self, world) -> None:
        """Have ``world`` list its collisions for this log (kept back until `commit`)."""
        world.collision_report = self._pending

    def commit(self) -> None:
        """Take in what the followed world listed since the last commit (a whole cycle:
        trial moves taken back, as an event search does, are no longer in it)."""
        if self._pending:
            self.extend(self._pending)
            self._pending.clear()

    def discard(self) -> None:
        """Forget what was listed since the last commit (the cycle was taken back)."""
        self._pending.clear()


def format_row(row) -> list[str]:
    """A CSV row with numbers written exactly (repr), infinities as ``inf``."""
    return [value if isinstance(value, str) else repr(float(value)) for value in row]


def write_collisions_csv(path, collisions) -> None:
    """Write ``collisions`` to a CSV file (`COLUMNS`), whole or not at all."""
    def write(f):
        out = csv.writer(f, lineterminator="\n")
        out.writerow(COLUMNS)
        for c in collisions:
            out.writerow(format_row(c.row()))
    write_atomically(path, write)
