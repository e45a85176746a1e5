"""SimulationBridge: the GUI thread's side of the physics thread.

It owns the Simulation, polls ``simulation.latest`` on a timer at the display's
rate and emits Qt signals in the GUI thread; it never waits for the physics
thread. Widgets reach the Simulation only through its verbs (play, step, time
scale, record, export, save, send); ``simulation`` itself is for tests and benches. Answers to commands (the Futures) are polled on the same timer, so a
refused edit reaches the GUI as a signal in the GUI thread too.

Replay: `show_sample(k)` pauses the physics and shows recorded sample k instead of
the live World (`latest` is then that instant, drawn again exactly, and every
widget that follows the snapshots shows it); `go_live` comes back; an edit, Play,
Step or Reset come back first, since they act on the live World; `continue_from(k)`
makes sample k the live World and plays on from there.
"""

from __future__ import annotations

import gc

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from classroom_sim import Simulation, Snapshot, commands

FRAME_MS = 16
"""Milliseconds between two polls (about 60 a second)."""

_open = 0  # bridges open, whose physics or export threads may run

EXPORT_CHECK_MS = 100
"""Milliseconds between two looks, after a bridge closed, at whether its exports are done."""


def _hold_collection() -> None:
    """Python's cyclic garbage collector runs in whichever thread allocates when its
    counts come due, so with a physics thread beside Qt it may destroy Qt objects (a
    window closed earlier, a timer, a dialog) from the physics thread: a deadlock or a
    crash. While a bridge is open, automatic collection is off and `_collect_due`
    collects in the GUI thread, at each poll (as pyqtgraph's GarbageCollector does)."""
    global _open
    if _open == 0:
        gc.disable()
    _open += 1


def _release_collection() -> None:
    """The last bridge closed: collect here, in the GUI thread, and collect automatically again."""
    global _open
    _open -= 1
    if _open == 0:
        gc.collect()
        gc.enable()


def _release_after(simulation) -> None:
    """`_release_collection` once ``simulation``'s threads are done: its export thread (an
    export goes on after the window closes, and with automatic collection back on, it could
    destroy Qt objects there), and its physics thread if it did not stop in time (it may
    still hand an export over); asked again every `EXPORT_CHECK_MS` in the GUI thread's
    event loop. (If the loop ends first, collection stays off until the process exits.)"""
    if simulation.exporting or simulation.running:
        QTimer.singleShot(EXPORT_CHECK_MS, lambda: _release_after(simulation))
    else:
        _release_collection()


def _collect_due() -> None:
    """Collect the oldest generation whose count the automatic collector would act on."""
    counts, limits = gc.get_count(), gc.get_threshold()
    if counts[0] > limits[0]:
        generation = 0
        while generation < 2 and counts[generation + 1] > limits[generation + 1]:
            generation += 1
        gc.collect(generation)


class SimulationBridge(QObject):
    snapshot = Signal(object)
    """A new Snapshot arrived (at most once a frame)."""
    revised = Signal(object)
    """A snapshot whose settings or bodies were edited (panels refresh then)."""
    refused = Signal(str)
    """A command was refused: its message, naming the field."""
    failed = Signal(str)
    """The physics thread paused on an error: its message."""
    replaced = Signal(object)
    """A new scene was loaded: its first Snapshot."""

    def __init__(self, world, parent=None, start: bool = True, paused: bool = True):
        super().__init__(parent)
        self._start_paused = paused
        self._logging = False
        self._wanting: set = set()  # the owners that want the collision log (`want_collisions`)
        self.simulation = self._simulation(world)
        self._last: Snapshot | None = None
        self._revision = None
        self._pending: list = []
        self._quiet: set = set()  # Futures whose failure is the caller's to show (a run until an event)
        self.edits = 0
        """Edits sent so far."""
        self._since_start: list = []  # Futures of the edits sent since the start, not yet answered
        self._changed = False  # an edit sent since the start was applied
        self._error = None
        self._shown = None  # while replaying: (the recorder, the sample, its Snapshot)
        self._timer = QTimer(self)
        self._timer.setInterval(FRAME_MS)
        self._timer.timeout.connect(self.poll)
        self._timer.start()
        _hold_collection()
        self._holding = True
        if start:
            try:
                self.simulation.start()
            except BaseException:
                self.close()  # (collection back on: no bridge is left open)
                raise

    @property
    def latest(self) -> Snapshot:
        """The instant shown: the live World's newest, or the recorded sample being replayed."""
        return self._shown[2] if self._shown is not None else self.simulation.latest

    @property
    def degraded(self) -> dict:
        """How many steps a cap cut short, by kind (see `Simulation.degraded`)."""
        return self.simulation.degraded

    # -- the clock, the recording and the files: the verbs a widget has (never the Simulation)
    @property
    def paused(self) -> bool:
        return self.simulation.paused

    def toggle_play(self, done=None):
        """Play if paused, else pause; ``done(ok)`` once the physics thread has done so. While
        replaying: back to the live World, playing."""
        if self.replaying:
            self.go_live()
            return self.watch(self.simulation.resume(), done)
        return self.watch(self.simulation.resume() if self.simulation.paused else self.simulation.pause(), done)

    def step_once(self, done=None):
        """Advance one step of the physics thread while paused (from the live World)."""
        self.go_live()
        return self.watch(self.simulation.step_once(), done)

    @property
    def time_scale(self) -> float:
        """Seconds of simulated time per second of wall time."""
        return self.simulation.time_scale

    @time_scale.setter
    def time_scale(self, scale: float) -> None:
        self.simulation.time_scale = scale

    @property
    def cycles_per_second(self) -> float:
        """How often the physics thread steps (its last measure)."""
        return self.simulation.cycles_per_second

    @property
    def recording(self) -> bool:
        return self.simulation.recording

    def record(self, on: bool, rate: float, done=None):
        """Start recording at ``rate`` samples a second, or stop."""
        return self.watch(self.simulation.start_recording(rate) if on else self.simulation.stop_recording(), done)

    def clear_recording(self, done=None):
        """Throw the recording away (recording goes on afresh if it was on)."""
        return self.watch(self.simulation.clear_recording(), done)

    @property
    def recording_full(self) -> bool:
        """Whether sampling stopped because the recording reached its cap."""
        return self.simulation.recording_full

    @property
    def samples(self) -> int:
        """How many samples the recording holds (0 without one): cheap, asked before an export."""
        recorder = self.simulation.recorder
        return recorder.count if recorder is not None else 0

    def samples_since(self, k: int) -> tuple:
        """(recording, segments): the recording being kept (an object to compare by identity:
        a new one means start over from 0), and its samples from the k-th on
        (`Recorder.since`), what a graph reads each frame, never the whole run."""
        recorder = self.simulation.recorder
        return recorder, (recorder.since(k) if recorder is not None else [])

    def sample_times_since(self, k: int) -> tuple:
        """(recording, times): the recording being kept (compare by identity, as with
        `samples_since`) and the times of its samples from the k-th on (s)."""
        recorder = self.simulation.recorder
        return recorder, (recorder.times_since(k) if recorder is not None else [])

    # -- replay --------------------------------------------------------------------------------
    @property
    def replaying(self) -> bool:
        """Whether a recorded sample is shown instead of the live World."""
        return self._shown is not None

    @property
    def shown_sample(self):
        """The recorded sample shown (an index into the recording), or None when live."""
        return self._shown[1] if self._shown is not None else None

    def show_sample(self, k: int) -> bool:
        """Show recorded sample ``k`` (the physics pauses); False if there is no such sample."""
        recorder = self.simulation.recorder
        if recorder is None or not 0 <= k < recorder.count:
            return False
        if self._shown is None and not self.simulation.paused:
            self.watch(self.simulation.pause())
        if self._shown is None or self._shown[:2] != (recorder, k):
            self._shown = (recorder, k, recorder.snapshot(k))
            self.poll()  # shown at once, by every widget that follows the snapshots
        return True

    def go_live(self) -> None:
        """Show the live World again (paused as it was left)."""
        if self._shown is not None:
            self._shown = None
            self.poll()

    def continue_from(self, k: int, done=None):
        """Make recorded sample ``k`` the live World and play on from it: what was recorded
        and logged after it is dropped (`Simulation.continue_from`)."""
        shown = self._shown[0] if self._shown is not None else None  # (the recording it was shown from)
        self._shown = None
        return self.watch(self.simulation.continue_from(k, shown), self._refresh_after(done))

    def recorded_track(self, rows, seconds: float, most: int, spacing: float) -> tuple:
        """Where the bodies ``rows`` were over the last ``seconds`` (inf: the whole run) up to
        the sample shown, or up to the newest when live (`Recorder.track`): what a trail
        shows after a jump in time. Empty arrays without a recording."""
        recorder = self.simulation.recorder
        if recorder is None or recorder.count == 0:
            return np.empty(0), np.empty((0, len(rows), 2))
        end = self._shown[1] + 1 if self._shown is not None and self._shown[0] is recorder else recorder.count
        return recorder.track(rows, 0, end, most, spacing, seconds, self.latest.names)

    def export_csv(self, path, layout: str = "long", done=None):
        """Write the recording to ``path`` in the background (a failure is emitted as ``refused``)."""
        return self.watch(self.simulation.export_csv(path, layout), done)

    # -- the collision log ------------------------------------------------------------------------
    def log_collisions(self, on: bool, done=None):
        """List every body-body collision from now on (kept for the scenes opened later), or stop
        (the log goes on while an owner of `want_collisions` still wants it)."""
        self._logging = bool(on)
        return self.watch(self.simulation.log_collisions(self._logging or bool(self._wanting)), done)

    @property
    def logging_collisions(self) -> bool:
        """Whether the engine lists collisions (turned on, or wanted by an owner)."""
        return self._logging or bool(self._wanting)

    def want_collisions(self, owner, on: bool, done=None):
        """``owner`` (a panel, a tool) wants the collision log kept (``on``), or no longer: the
        log is kept while any owner wants it or `log_collisions` turned it on."""
        (self._wanting.add if on else self._wanting.discard)(owner)
        return self.watch(self.simulation.log_collisions(self._logging or bool(self._wanting)), done)

    def collisions_since(self, k: int) -> tuple:
        """(log, rows): the log being kept (compare ``(log, log.generation)``: another means
        start over from 0) and its collisions from the k-th on (`CollisionLog.since`)."""
        log = self.simulation.collisions
        return log, log.since(k)

    def clear_collisions(self, done=None):
        return self.watch(self.simulation.clear_collisions(), done)

    def save_scene(self, path, done=None):
        """Save the World as it is now to ``path`` in the background."""
        return self.watch(self.simulation.save_scene(path), done)

    def send(self, command: commands.Command, done=None):
        """Send a command; a refusal is emitted as ``refused``; ``done(ok)`` is called in
        the GUI thread once it is answered. Counted in `edits`. An edit is made to the
        live World: sent while replaying, it brings the live World back first."""
        self.go_live()
        self.edits += 1
        future = self.simulation.send(command)
        self._since_start.append(future)
        if len(self._since_start) > 64:  # a drag sends an edit a frame: settle the answered ones
            self._settle()
        return self.watch(future, done)

    def restart(self, world, done=None):
        """Run ``world`` (a lesson's step) from now on, paused; reset goes back to it. The
        panels are sent ``revised`` once it runs (its revision may equal the last one's)."""
        self._new_start()
        self._shown = None
        return self.watch(self.simulation.restart(world), self._refresh_after(done))

    def keep_as_start(self, done=None):
        """From now on reset goes back to the World as it is now."""
        self._new_start()
        return self.watch(self.simulation.keep_as_start(), done)

    def run_until(self, body: str, event: str, at=None, done=None):
        """Play until the event (see `Simulation.run_until`); the Future gives its Measurement.
        A run cut short by a reset or a restart is not reported as a failure."""
        self.go_live()
        future = self.simulation.run_until(body, event, at)
        self._quiet.add(future)
        return self.watch(future, done)

    def reset(self, done=None):
        """Back to the start the Simulation keeps."""
        self._new_start()
        self._shown = None
        return self.watch(self.simulation.reset(), self._refresh_after(done))

    @property
    def edited_since_start(self) -> bool:
        """Whether the class changed the World since it was (re)started, reset or kept: an
        edit sent since then was applied (or is still on its way). A refused one changed
        nothing; playing time is no edit."""
        self._settle()
        return self._changed or bool(self._since_start)

    def _new_start(self) -> None:
        """The World starts afresh: the edits sent before are part of it (or undone)."""
        self._since_start = []
        self._changed = False

    def _settle(self) -> None:
        """Note the answered edits: one applied is a change; a refused one is forgotten."""
        waiting = []
        for future in self._since_start:
            if not future.done():
                waiting.append(future)
            elif future.exception() is None:
                self._changed = True
        self._since_start = [] if self._changed else waiting

    def _refresh_after(self, done):
        """``done``, after which the next poll emits the snapshot as ``revised`` whatever
        its revision number (two Worlds count their edits apart)."""
        def then(ok):
            if ok:
                self._last = self._revision = None
            if done is not None:
                done(ok)
        return then

    def watch(self, future, done=None):
        """Poll a Future of the Simulation (a command, an export, a save) and report its
        outcome: a failure as ``refused``, and ``done(ok)`` if given."""
        self._pending.append((future, done))
        return future

    def poll(self) -> None:
        """Take the newest snapshot and the answers that came in; emit what changed."""
        _collect_due()
        still = []
        for future, done in self._pending:
            if not future.done():
                still.append((future, done))
                continue
            exc = future.exception()
            if exc is not None and future not in self._quiet:
                self.refused.emit(str(exc))
            self._quiet.discard(future)
            if done is not None:
                done(exc is None)
        self._pending = still
        if self._shown is not None and self._shown[0] is not self.simulation.recorder:
            self._shown = None  # the recording shown was cleared or replaced: the live World again
        snap = self.latest
        if snap is not self._last:
            self._last = snap
            if snap.revision != self._revision:
                self._revision = snap.revision
                self.revised.emit(snap)
            self.snapshot.emit(snap)
        error = self.simulation.error
        if error is not self._error:
            self._error = error
            if error is not None:
                self.failed.emit(f"The simulation paused: {type(error).__name__}: {error}")

    def replace(self, world) -> None:
        """Run another scene (a file just opened): the old physics thread is stopped first."""
        self.simulation.stop()
        self._pending.clear()
        self._shown = None
        self.simulation = self._simulation(world)
        self._new_start()
        self._last = None
        self._revision = None
        self._error = None
        self.simulation.start()
        self.replaced.emit(self.simulation.latest)
        self.poll()

    def _simulation(self, world) -> Simulation:
        sim = Simulation(world)
        if self._logging or self._wanting:
            sim.log_collisions(True)
        if self._start_paused:
            sim.pause()  # a lesson starts still: the teacher presses play
        return sim

    def close(self) -> None:
        """Stop polling, stop and join the physics thread (collection is the GUI thread's
        alone until then and until its exports are done, and automatic again once the last
        bridge has closed and its threads are done: `_release_after`)."""
        self._timer.stop()
        try:
            self.simulation.stop()
        finally:
            if self._holding:
                self._holding = False
                _release_after(self.simulation)
