"""Recorder: samples a World at exact sample times; CSV export of trajectories.

The World stops at every sample time (it splits its step there), so sample k
is taken at exactly t = start + k / rate, computed rather than summed; a
recording begun mid-run keeps to the grid k / rate from t = 0 (it starts at the
next grid time, not at whatever instant Record was pressed). Samples go into
preallocated numpy chunks; a change in the set of bodies starts a new segment.
Each sample keeps every body's mass too (energy and momentum need it, and a
class changes masses live). `Recorder.since(k)` copies only the samples from
the k-th on, for a graph that follows a running recording from another thread;
`Recorder.recording()` copies everything into a frozen `Recording`, which can be
written out from any thread. A recording stopped can go on (`Recorder.resume`),
appending; memory is capped (`MAX_BYTES`).

For replay, a Recorder also keeps the World's `Look` (colours, radii, box,
settings, acceleration lists) once per edit, not per sample: `Recorder.snapshot(k)`
draws sample k again exactly as the World had it, and `Recorder.state(k)` gives
what `World.restore` needs to go on from there; `Recorder.cut(k)` keeps the
samples before k (a run that goes on from a recorded instant drops what came
after it).

CSV layouts (SCENE_FORMAT.md): ``long``, one row per body per sample,
``t_s,body,x_m,y_m,vx_m_s,vy_m_s,ax_m_s2,ay_m_s2``; ``wide``, one row per
sample, ``t_s`` then six columns per body. Numbers are written with ``repr``,
so that the file holds exactly what the engine computed.
"""

from __future__ import annotations

import bisect
import csv
import math
from dataclasses import dataclass

import numpy as np

from .files import write_atomically

CHUNK = 256
"""Samples per preallocated chunk."""

MAX_BYTES = 512 * 2**20
"""The most a Recorder keeps (times, states and masses: 8 + 56 bytes a body a sample). When
the next chunk would pass it, sampling stops, what was recorded is kept, and the
Recorder says so (``full``): 100 samples a second of 30 bodies fill it in about 50
minutes, of 1,000 bodies in about a minute and a half."""

QUANTITIES = ("x_m", "y_m", "vx_m_s", "vy_m_s", "ax_m_s2", "ay_m_s2")
LONG_HEADER = ("t_s", "body") + QUANTITIES
LAYOUTS = ("long", "wide")


@dataclass(frozen=True, eq=False)
class Segment:
    """Samples of one fixed set of bodies: ``times`` (K,) in s, ``data`` (K, N, 6):
    x, y (m), vx, vy (m/s), ax, ay (m/s²) per body, and ``masses`` (K, N) in kg (inf for
    a fixed body)."""

    names: tuple
    times: np.ndarray
    data: np.ndarray
    masses: np.ndarray


class Recording:
    """A finished, frozen copy of what a Recorder sampled."""

    def __init__(self, segments):
        self.segments = tuple(segments)
        for seg in self.segments:
            for a in (seg.times, seg.data, seg.masses):
                a.flags.writeable = False

    @classmethod
    def from_capture(cls, capture) -> Recording:
        """A Recording of what `Recorder.capture` returned."""
        return cls(Segment(names, *(np.concatenate(part) for part in parts)) for names, *parts in capture)

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


class _Piece:
    """The chunks of one segment while it is being recorded; ``first``: the number of its
    first sample in the recording."""

    def __init__(self, names, first):
        self.names, self.first = names, first
        self.times, self.data, self.masses = [], [], []


def _chunk_bytes(bodies: int) -> int:
    """What one chunk of samples of this many bodies holds: times, states and masses."""
    return CHUNK * (8 + 56 * bodies)


def _rows(chunks, a, b):
    """Rows a..b (b excluded) of the chunks laid end to end, copied."""
    parts = []
    while a < b:
        c, r = divmod(a, CHUNK)
        take = min(b - a, CHUNK - r)
        parts.append(chunks[c][r:r + take])
        a += take
    return np.concatenate(parts) if parts else chunks[0][:0].copy()


class Recorder:
    """Samples a World every 1/``rate`` s of simulated time, at start + k / rate, and at
    ``until`` if given. Without ``start``, the samples keep to the grid k / rate from t = 0,
    beginning with the first grid time not before the World's clock.

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
        self.start = 0.0 if start is None else float(start)
        self.until = None if until is None else float(until)
        self.count = 0
        """Samples taken so far (set only once a sample is wholly written: a reader in
        another thread may read every sample below it)."""
        self.full = False
        """Whether sampling stopped at `MAX_BYTES`."""
        self._bytes = 0
        self._pieces: list[_Piece] = []
        self._looks: list = []  # (the first sample it holds for, the World's Look), one per edit
        self._attach(world)

    def _attach(self, world) -> None:
        """Sample ``world`` from its clock on, from the first sample time not before it."""
        self._world = world
        self._done = False
        k = max(0, math.ceil((world.time - self.start) * self.rate))
        while k > 0 and self.start + (k - 1) / self.rate >= world.time:
            k -= 1  # (rounding)
        while self.start + k / self.rate < world.time:
            k += 1
        self._k = k
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
        fresh = not self._pieces or self._pieces[-1].names != names
        row = 0 if fresh else (self.count - self._pieces[-1].first) % CHUNK
        if row == 0:
            size = _chunk_bytes(len(names))
            if self._bytes + size > MAX_BYTES:
                self.full = True
                self.stop()
                return
            if fresh:
                self._pieces.append(_Piece(names, self.count))
            piece = self._pieces[-1]
            piece.times.append(np.empty(CHUNK))
            piece.data.append(np.empty((CHUNK, len(names), 6)))
            piece.masses.append(np.empty((CHUNK, len(names))))
            self._bytes += size
        piece = self._pieces[-1]
        look = world.look()
        if not self._looks or self._looks[-1][1] is not look:
            self._looks.append((self.count, look))
        c = (self.count - piece.first) // CHUNK
        piece.times[c][row] = world.time
        out = piece.data[c][row]
        out[:, 0:2] = world._pos
        out[:, 2:4] = world._vel
        out[:, 4:6] = world._accelerations_now()
        piece.masses[c][row] = world._mass
        self.count += 1

    def stop(self) -> None:
        """Stop sampling and let go of the World (what was recorded stays)."""
        self._done = True
        if self in self._world._samplers:
            self._world.detach(self)

    def resume(self, world) -> None:
        """Go on sampling ``world`` (the same or another), appending, from its clock on and
        on the same grid of times; nothing if the recording is full."""
        if self.full:
            return
        self.stop()
        self._attach(world)

    def _spans(self, count):
        """Each segment's (piece, first, end) among the first ``count`` samples."""
        pieces = list(self._pieces)  # (a piece added meanwhile starts at or after count)
        out = []
        for p, piece in enumerate(pieces):
            end = min(count, pieces[p + 1].first if p + 1 < len(pieces) else count)
            if end > piece.first:
                out.append((piece, piece.first, end))
        return out

    def since(self, k: int) -> list:
        """The samples from the k-th on (0 is the first), as Segments copied from the
        recording: a graph that reads what is new each frame copies only that. Safe to call
        from another thread while sampling goes on: it gives what was complete when asked."""
        count = self.count
        out = []
        for piece, first, end in self._spans(count):
            a, b = max(k, first) - first, end - first
            if a < b:
                out.append(Segment(piece.names, _rows(piece.times, a, b), _rows(piece.data, a, b),
                                   _rows(piece.masses, a, b)))
        return out

    def times_since(self, k: int) -> np.ndarray:
        """The times of the samples from the k-th on (s), copied: what a timeline follows."""
        count = self.count
        parts = [_rows(piece.times, max(k, first) - first, end - first)
                 for piece, first, end in self._spans(count) if max(k, first) < end]
        return np.concatenate(parts) if parts else np.empty(0)

    def state(self, k: int) -> tuple:
        """Sample k (0 ≤ k < count) as (time, look, positions, velocities, accelerations,
        masses): the instant as the World had it (`World.restore` takes it back)."""
        if not 0 <= k < self.count:
            raise IndexError(f"sample {k}: the recording holds {self.count}")
        piece = next(p for p, first, end in self._spans(self.count) if first <= k < end)
        c, r = divmod(k - piece.first, CHUNK)
        data = piece.data[c][r]
        look = self._looks[bisect.bisect_right(self._looks, k, key=lambda entry: entry[0]) - 1][1]
        return (float(piece.times[c][r]), look, data[:, 0:2].copy(), data[:, 2:4].copy(), data[:, 4:6].copy(),
                piece.masses[c][r].copy())

    def snapshot(self, k: int):
        """Sample k drawn again: the Snapshot the World gave at that instant (bodies, colours,
        radii, box, settings and accelerations as they were then)."""
        t, look, positions, velocities, accelerations, masses = self.state(k)
        return look.snapshot(t, positions, velocities, accelerations, masses)

    def track(self, rows, a: int, b: int, most: int, spacing: float = 0.0, seconds: float = math.inf,
              names=None) -> tuple:
        """Where the bodies ``rows`` were over samples a..b-1 (of the segment that sample b-1
        is in, and no more than ``seconds`` s before it: a recording stopped and resumed
        has a gap in time): (times (K,), positions (K, len(rows), 2)), a sample every
        ``spacing`` s at least and ``most`` at the most, the last one always kept; what a
        trail of a recorded instant shows. Given ``names`` (the bodies ``rows`` count in),
        a segment of other bodies gives nothing."""
        rows = np.asarray(rows, int)
        b = min(int(b), self.count)
        found = [(piece, first, end) for piece, first, end in self._spans(b) if first < b <= end]
        if not found or b <= a or not len(rows) or (names is not None and tuple(found[0][0].names) != tuple(names)):
            return np.empty(0), np.empty((0, len(rows), 2))
        piece, first, _ = found[0]
        a = max(int(a), first)
        if math.isfinite(seconds):
            def time_of(k):
                c, r = divmod(k - first, CHUNK)
                return piece.times[c][r]
            since = time_of(b - 1) - seconds - 1e-9
            a += bisect.bisect_left(range(a, b), since, key=time_of)
        stride = max(1, math.ceil(spacing * self.rate - 1e-9), math.ceil((b - a) / max(most, 1)))
        ks = np.arange(b - 1, a - 1, -stride)[::-1] - first  # (counted back from the last)
        times, positions = np.empty(len(ks)), np.empty((len(ks), len(rows), 2))
        chunk = ks // CHUNK
        for c in np.unique(chunk):
            at = chunk == c
            r = ks[at] - c * CHUNK
            times[at] = piece.times[c][r]
            positions[at] = piece.data[c][r][:, rows, 0:2]
        return times, positions

    def cut(self, k: int) -> Recorder:
        """A new Recorder of this one's first ``k`` samples, stopped (`resume` goes on from
        the World's clock); this one stops. Chunks that are never written again are
        shared; the one that sample k falls in is copied, so this one stays whole."""
        self.stop()
        k = max(0, min(int(k), self.count))
        out = object.__new__(Recorder)
        out.rate, out.start, out.until = self.rate, self.start, self.until
        out.count, out.full, out._bytes, out._pieces = k, False, 0, []
        out._looks = [entry for entry in self._looks if entry[0] < k]
        out._world, out._done, out._k = self._world, True, 0
        for piece, first, end in self._spans(k):
            kept = _Piece(piece.names, first)
            whole, rest = divmod(end - first, CHUNK)
            for attr in ("times", "data", "masses"):
                chunks = getattr(piece, attr)
                setattr(kept, attr, chunks[:whole] + ([chunks[whole].copy()] if rest else []))
            out._pieces.append(kept)
            out._bytes += len(kept.times) * _chunk_bytes(len(piece.names))
        return out

    def capture(self) -> list:
        """What was sampled so far, cheaply, for `Recording.from_capture` in another
        thread: full chunks are shared (they are never written again), the last one copied."""
        out = []
        for piece, first, end in self._spans(self.count):
            n = end - first
            whole, rest = divmod(n, CHUNK)
            parts = []
            for chunks in (piece.times, piece.data, piece.masses):
                parts.append(chunks[:whole] + ([chunks[whole][:rest].copy()] if rest else []))
            out.append((tuple(piece.names), *parts))
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
