"""Recorder: samples a World at exact sample times; CSV export of trajectories.

The World stops at every sample time (it splits its step there), so sample k
is taken at exactly t = start + k / rate, computed rather than summed. Samples
go into preallocated numpy chunks; a change in the set of bodies starts a new
segment. `Recorder.recording()` copies what was recorded into a frozen
`Recording`, which can be written out from any thread.

CSV layouts (SCENE_FORMAT.md): ``long``, one row per body per sample,
``t_s,body,x_m,y_m,vx_m_s,vy_m_s,ax_m_s2,ay_m_s2``; ``wide``, one row per
sample, ``t_s`` then six columns per body. Numbers are written with ``repr``,
so that the file holds exactly what the engine computed.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass

import numpy as np

from .files import write_atomically

CHUNK = 256
"""Samples per preallocated chunk."""

QUANTITIES = ("x_m", "y_m", "vx_m_s", "vy_m_s", "ax_m_s2", "ay_m_s2")
LONG_HEADER = ("t_s", "body") + QUANTITIES
LAYOUTS = ("long", "wide")


@dataclass(frozen=True, eq=False)
class Segment:
    """Samples of one fixed set of bodies: ``times`` (K,) in s and ``data`` (K, N, 6):
    x, y (m), vx, vy (m/s), ax, ay (m/s²) per body."""

    names: tuple
    times: np.ndarray
    data: np.ndarray


class Recording:
    """A finished, frozen copy of what a Recorder sampled."""

    def __init__(self, segments):
        self.segments = tuple(segments)
        for seg in self.segments:
            seg.times.flags.writeable = False
            seg.data.flags.writeable = False

    @classmethod
    def from_capture(cls, capture) -> Recording:
        """A Recording of what `Recorder.capture` returned."""
        return cls(Segment(names, np.concatenate(times), np.concatenate(data)) for names, times, data in capture)

    @property
    def names(self) -> tuple:
        """Every body that appears, in order of first appearance."""
        seen = {}
        for seg in self.segments:
            for name in seg.names:
                seen.setdefault(name, None)
        return tuple(seen)

    @property
    def times(self) -> np.ndarray:
        """Every sample time in s."""
        return np.concatenate([s.times for s in self.segments]) if self.segments else np.empty(0)

    def __len__(self) -> int:
        return sum(len(s.times) for s in self.segments)

    def trajectory(self, name: str) -> np.ndarray:
        """One body's samples as rows of (t, x, y, vx, vy, ax, ay); KeyError if it never appears."""
        rows = []
        for seg in self.segments:
            if name in seg.names:
                k = seg.names.index(name)
                rows.append(np.column_stack([seg.times, seg.data[:, k, :]]))
        if not rows:
            raise KeyError(f"no body named {name!r} was recorded")
        return np.concatenate(rows)

    def write_csv(self, path, layout: str = "long") -> None:
        """Write the samples to ``path`` in the given layout; the file appears only when complete."""
        if layout not in LAYOUTS:
            raise ValueError(f"layout: must be 'long' or 'wide', got {layout!r}")
        write_atomically(path, self._write_long if layout == "long" else self._write_wide)

    def _write_long(self, f) -> None:
        f.write(",".join(LONG_HEADER) + "\n")
        for seg in self.segments:
            names = seg.names
            for t, rows in zip(seg.times.tolist(), seg.data.tolist()):
                head = repr(t) + ","
                f.write("".join(head + name + "," + ",".join(map(repr, row)) + "\n" for name, row in zip(names, rows)))

    def _write_wide(self, f) -> None:
        order = self.names
        column = {name: k for k, name in enumerate(order)}
        f.write(",".join(["t_s"] + [f"{name}_{q}" for name in order for q in QUANTITIES]) + "\n")
        for seg in self.segments:
            where = [column[name] for name in seg.names]
            for t, rows in zip(seg.times.tolist(), seg.data.tolist()):
                cells = [""] * (6 * len(order))
                for k, row in zip(where, rows):
                    cells[6 * k: 6 * k + 6] = map(repr, row)
                f.write(repr(t) + "," + ",".join(cells) + "\n")


class Recorder:
    """Samples a World every 1/``rate`` s of simulated time from ``start``, and at ``until`` if given.

    >>> from classroom_sim import World, Body
    >>> w = World(); w.add_body(Body("A", 1.0, 0.1, (0.0, 0.0)))
    >>> r = Recorder(w, rate=10.0, until=1.0)
    >>> w.advance_to(1.0)
    >>> len(r.recording())
    11
    """

    def __init__(self, world, rate: float = 100.0, until: float | None = None, start: float | None = None):
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not (math.isfinite(rate) and rate > 0):
            raise ValueError(f"sample rate: must be > 0 Hz, got {rate!r}")
        self.rate = float(rate)
        self.start = world.time if start is None else float(start)
        self.until = None if until is None else float(until)
        self._k = 0
        self._done = False
        self._segments: list[list] = []  # [names, [chunk times], [chunk data], rows in last chunk]
        self._world = world
        world.attach(self)
        if self.next_time is not None and self.next_time <= world.time:
            self.sample(world)  # the first sample is now

    @property
    def next_time(self):
        """The next sample time in s, or None when finished."""
        if self._done:
            return None
        t = self.start + self._k / self.rate
        return self.until if self.until is not None and t > self.until else t

    def sample(self, world) -> None:
        """Take the sample due now (the World calls this at each sample time)."""
        self._keep(world)
        while self.start + self._k / self.rate <= world.time:
            self._k += 1
        if self.until is not None and world.time >= self.until:
            self._done = True

    def _keep(self, world) -> None:
        """Store this instant's sample."""
        names = world.names
        if not self._segments or self._segments[-1][0] != names:
            self._segments.append([names, [], [], CHUNK])
        seg = self._segments[-1]
        if seg[3] == CHUNK:
            seg[1].append(np.empty(CHUNK))
            seg[2].append(np.empty((CHUNK, len(names), 6)))
            seg[3] = 0
        row = seg[3]
        seg[1][-1][row] = world.time
        out = seg[2][-1][row]
        out[:, 0:2] = world._pos
        out[:, 2:4] = world._vel
        out[:, 4:6] = world._accelerations_now()
        seg[3] += 1

    def stop(self) -> None:
        """Stop sampling and let go of the World."""
        self._done = True
        if self in self._world._samplers:
            self._world.detach(self)

    def capture(self) -> list:
        """What was sampled so far, cheaply, for `Recording.from_capture` in another
        thread: full chunks are shared (they are never written again), the last one copied."""
        out = []
        for names, times, data, rows in self._segments:
            out.append((tuple(names), times[:-1] + [times[-1][:rows].copy()], data[:-1] + [data[-1][:rows].copy()]))
        return out

    def recording(self) -> Recording:
        """A frozen copy of everything sampled so far."""
        return Recording.from_capture(self.capture())


class CsvStream(Recorder):
    """Samples a World as a Recorder does, but writes each sample to the text file ``f``
    as CSV rows at once, keeping nothing: memory does not grow with the run. The bodies
    must stay the same throughout (a headless run)."""

    def __init__(self, world, f, layout: str = "long", rate: float = 100.0, until: float | None = None,
                 start: float | None = None):
        if layout not in LAYOUTS:
            raise ValueError(f"layout: must be 'long' or 'wide', got {layout!r}")
        self._f, self._layout, self._names = f, layout, world.names
        if layout == "long":
            f.write(",".join(LONG_HEADER) + "\n")
        else:
            f.write(",".join(["t_s"] + [f"{name}_{q}" for name in self._names for q in QUANTITIES]) + "\n")
        super().__init__(world, rate, until, start)

    def _keep(self, world) -> None:
        if world.names != self._names:
            raise ValueError("a streamed recording needs the same bodies throughout")
        rows = np.concatenate([world._pos, world._vel, world._accelerations_now()], axis=1).tolist()
        head = repr(world.time)
        if self._layout == "long":
            self._f.write("".join(head + "," + name + "," + ",".join(map(repr, row)) + "\n"
                                  for name, row in zip(self._names, rows)))
        else:
            self._f.write(head + "," + ",".join(repr(v) for row in rows for v in row) + "\n")

    def capture(self) -> list:
        raise ValueError("a streamed recording keeps nothing to capture: it is in its file")


def sample_count(rate: float, until: float, start: float = 0.0) -> int:
    """How many samples a Recorder of ``rate`` takes from ``start`` to ``until`` (s): every
    k / rate on the way, and ``until`` itself."""
    span = (until - start) * rate
    whole = int(span + 1e-9 * max(1.0, span))
    return whole + 1 + (1 if start + whole / rate < until - 1e-12 * max(1.0, abs(until)) else 0)


def read_csv(path) -> dict:
    """Read a CSV file in either layout into {body name: rows of (t, x, y, vx, vy, ax, ay)}."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ValueError(f"{path}: empty file")
    header = tuple(rows[0])
    out: dict[str, list] = {}
    if header == LONG_HEADER:
        for row in rows[1:]:
            out.setdefault(row[1], []).append([float(row[0])] + [float(v) for v in row[2:]])
    elif header and header[0] == "t_s" and (len(header) - 1) % 6 == 0:
        names = [header[1 + 6 * k][: -len("_x_m")] for k in range((len(header) - 1) // 6)]
        for row in rows[1:]:
            for k, name in enumerate(names):
                cells = row[1 + 6 * k: 7 + 6 * k]
                if all(cells):
                    out.setdefault(name, []).append([float(row[0])] + [float(v) for v in cells])
    else:
        raise ValueError(f"{path}: not a classroom-sim CSV (header {','.join(header)!r})")
    return {name: np.array(v) for name, v in out.items()}
