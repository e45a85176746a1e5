"""Simulation: the physics thread that owns a World, with commands in and snapshots out.

One thread advances the World with elapsed-time kinematics: each cycle it
measures the wall-clock time since the last one, multiplies it by the time
scale, clamps it to `MAX_STEP` and steps the World by that much (in parts of
at most `MAX_SUBSTEP`; a heavy scene's cycle stops between parts once it has
worked `CYCLE_WORK`, and the simulation runs slower than real time). Between cycles it
sleeps (no spinning), so that other threads keep the GIL; a command wakes it.
Commands are applied in the order sent, between cycles; each is answered
through a `concurrent.futures.Future`. After every cycle, and after every
batch of commands, the newest `Snapshot` is published by replacing one
reference: readers take `simulation.latest` and never lock. An exception
inside a cycle pauses the simulation with the state of before that cycle,
sets `error` and calls ``on_error``; the thread lives on.

>>> from classroom_sim import Simulation, load_scene, commands   # doctest: +SKIP
>>> sim = Simulation(load_scene("lessons/projectile.toml"))
>>> sim.start()
>>> sim.send(commands.SetGravity((0.0, -1.62))).result(timeout=1)
>>> sim.stop()
"""

from __future__ import annotations

import atexit
import copy
import math
import queue
import sys
import threading
import time
import traceback
import weakref
from concurrent.futures import Future, ThreadPoolExecutor

from .body import Body
from .collision_log import CollisionLog
from .commands import Command, CommandError
from .events import LIMIT, EventError, Watch
from .keeping import Keeping
from .recording import Recorder
from .world import World

FRAME = 1.0 / 60.0
"""s of simulated time that `step_once` advances."""

MAX_STEP = 0.1
"""s: the most simulated time one cycle advances (a machine waking from sleep
must not launch every ball into orbit)."""

MAX_SUBSTEP = 1.0 / 240.0
"""s: a cycle longer than this is carried out in equal parts no longer. A step
costs more than in proportion to its length (each body's reach grows with it,
and the pairs that may touch with the square of that), so without this one
slow cycle would make the next one longer still, until the loop fell behind
real time for good."""

CYCLE_WORK = 1.0 / 60.0
"""s of wall time: a cycle whose parts have taken this long stops after the part under way,
short of its elapsed time (which is not made up later: the simulation runs slower than real
time, as where `MAX_STEP` cuts a cycle short; `Simulation.step_once` still advances a whole
`FRAME`). So a snapshot comes out every frame or so, and commands are applied between,
however heavy the scene: a pile of 1,000 balls settling takes about 5 ms a part, and its
cycles of 24 parts showed the app 8 frames a second and kept a command waiting up to 0.12 s."""

TIME_SCALES = (0.1, 4.0)
"""The slowest and the fastest time scale."""

RATE = 240.0
"""Cycles per second at most, by default: the loop sleeps when it is ahead of that."""

_STOP = object()
_running: weakref.WeakSet = weakref.WeakSet()


@atexit.register
def _stop_all():
    for sim in list(_running):
        sim.stop()


class Simulation(Keeping):
    """A World advanced in real time by its own thread.

    ``rate`` is the most cycles per second (None: as many as the machine can,
    without sleeping); ``on_error(exception)`` is called from the physics
    thread when a cycle fails. The World given belongs to the Simulation from
    now on: change it only through commands.
    """

    def __init__(self, world, *, rate: float | None = RATE, on_error=None, name: str = "classroom-sim physics"):
        if rate is not None and not (isinstance(rate, (int, float)) and math.isfinite(rate) and rate > 0):
            raise ValueError(f"rate: must be > 0 cycles per second or None, got {rate!r}")
        self._initial = copy.deepcopy(world)
        self._world = world
        self._period = 0.0 if rate is None else 1.0 / rate
        self.on_error = on_error
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()  # guards starting and stopping against send()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._started = False
        self._stopped = False
        self._paused = False
        self._time_scale = 1.0
        self._recorder: Recorder | None = None
        self.collisions = CollisionLog()
        """The collisions of the run while `log_collisions` is on, for any thread to follow."""
        self._logging = False
        self._watch = None  # (Watch, Future, the world time it gives up at) while a run waits for an event
        self._events: list = []  # events met in the last cycle: (Future, Measurement), answered after publishing
        self._exports = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"{name} export")
        self._offloaded: list = []  # the callers' Futures of exports, saves, recordings frozen (`exporting`)
        self.error: BaseException | None = None
        """None, or the exception that paused the simulation."""
        self.cycles = 0
        """Cycles run since the start."""
        self.cycles_per_second = 0.0
        """Cycles per second of wall time, over the last half second (0 while paused)."""
        self.cycle_time = 0.0
        """s of wall time one cycle took to compute, on average over the last half second."""
        self._busy = 0.0
        self._window = (0.0, 0, 0.0)  # (wall time, cycles, busy) where the rate's window began
        self.latest = world.snapshot()
        """The newest Snapshot: always one whole, consistent instant."""
        self.degraded = dict(world.degraded)
        """How many steps of the running World a cap cut short, by kind (`World.degraded`,
        explained in `world.DEGRADED`); published with the snapshots."""

    # -- the thread ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start the physics thread (running, unless paused before)."""
        with self._lock:
            if self._started or self._stopped:
                raise RuntimeError("a Simulation starts once")
            self._started = True
            _running.add(self)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the physics thread and wait for it; safe to call twice. Commands not yet
        applied fail with CommandError."""
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        self._queue.put((None, _STOP))
        if not self._thread.is_alive():
            self._cancel_watch("the simulation has stopped")
        if self._thread.is_alive():
            self._thread.join(timeout)
            if self._thread.is_alive():
                raise TimeoutError(f"the physics thread did not stop within {timeout} s")
        self._fail_pending()
        self._exports.shutdown(wait=False)
        _running.discard(self)

    @property
    def exporting(self) -> bool:
        """True from the call of an export, a save or a recording frozen until its Future
        is answered (queued for the physics thread, or in the export thread): it goes on
        after `stop`, until it is done."""
        return any(not work.done() for work in list(self._offloaded))

    @property
    def running(self) -> bool:
        """True while the physics thread is alive."""
        return self._thread.is_alive()

    # -- controls -------------------------------------------------------------------------------
    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def time_scale(self) -> float:
        """Simulated seconds per wall-clock second, from 0.1 to 4."""
        return self._time_scale

    @time_scale.setter
    def time_scale(self, value):
        lo, hi = TIME_SCALES
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
            raise ValueError(f"time_scale: must be from {lo} to {hi}, got {value!r}")
        self._time_scale = float(value)

    def pause(self) -> Future:
        """Stop advancing time (commands still apply)."""
        return self._control(self._do_pause)

    def resume(self) -> Future:
        """Advance time again from now on; clears `error`."""
        return self._control(self._do_resume)

    def step_once(self) -> Future:
        """Pause, then advance one frame (`FRAME`, 1/60 s of simulated time)."""
        return self._control(self._do_step_once)

    def reset(self) -> Future:
        """Back to the World as it was given, with nothing recorded (a recording that was
        on starts again from there)."""
        return self._control(self._do_reset)

    def restart(self, world) -> Future:
        """Run ``world`` from now on, paused, with nothing recorded; `reset` goes back to it
        (a lesson's step: its start). The World given belongs to the Simulation."""
        start = copy.deepcopy(world)
        return self._control(lambda: self._do_restart(world, start))

    def keep_as_start(self) -> Future:
        """From now on `reset` goes back to the World as it is now (live edits kept)."""
        return self._control(lambda: setattr(self, "_initial", copy.deepcopy(self._world)))

    def run_until(self, body: str, event: str, at: float | None = None, limit: float = LIMIT) -> Future:
        """Play until ``event`` happens to ``body`` (see `events`): the World stops exactly at
        it and the simulation pauses. The Future returns the `Measurement` once the snapshot
        shows that instant; it raises CommandError if a reset or a restart comes first, or
        if the event has not happened within ``limit`` s of simulated time."""
        result = Future()

        def watch():
            try:
                w = Watch(body, event, at)
                w.begin(self._world)
            except EventError as exc:
                raise CommandError(str(exc)) from None
            self._cancel_watch("a new run replaced this one before the event")
            self._watch = (w, result, self._world.time + limit)
            self._do_resume()

        started = self._control(watch)
        started.add_done_callback(lambda f: f.exception() is not None and _copy_outcome(f, result))
        return result

    def send(self, command: Command) -> Future:
        """Queue a command; the Future returns None once it is applied, or raises
        CommandError (and the World is unchanged) if it was refused."""
        if not isinstance(command, Command):
            future = Future()
            future.set_exception(CommandError(f"not a command: {command!r}"))
            return future
        return self._control(lambda: command.apply(self._world))

    # -- inside ------------------------------------------------------------------------------------
    def _control(self, action) -> Future:
        """Have the physics thread run ``action`` between cycles; before the start, run it here."""
        future = Future()
        with self._lock:
            if self._stopped:
                future.set_exception(CommandError("the simulation has stopped"))
                return future
            if not self._started:
                answers = []
                self._apply(future, action, answers)
                self._publish()
                self._answer(answers)
                return future
            self._queue.put((future, action))
        return future

    def _offload(self, take, finish) -> Future:
        """``take`` in the physics thread (quick), then ``finish(taken)`` in the export thread."""
        done = Future()

        def hand_over():
            taken = take()
            work = self._exports.submit(finish, taken)
            work.add_done_callback(lambda w: _copy_outcome(w, done))

        # (`exporting` from the call until the caller's Future is answered: while the
        # physics thread has yet to hand the work over, and while the export thread answers)
        with self._lock:  # (callers of more than one thread)
            self._offloaded = [w for w in self._offloaded if not w.done()] + [done]
        taken = self._control(hand_over)
        taken.add_done_callback(lambda t: t.exception() is not None and _copy_outcome(t, done))
        return done

    @staticmethod
    def _apply(future, action, answers: list) -> None:
        """Run ``action`` for ``future``; its answer is added to ``answers``, to be given
        once the snapshot shows the change (see `_answer`)."""
        if not future.set_running_or_notify_cancel():
            return
        try:
            answers.append((future, True, action()))
        except Exception as exc:  # refused, or a fault in the command: it is answered, the loop goes on
            answers.append((future, False, exc))

    @staticmethod
    def _answer(answers: list) -> None:
        for future, ok, value in answers:
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        answers.clear()

    def _fail_pending(self):
        while True:
            try:
                future, _ = self._queue.get_nowait()
            except queue.Empty:
                return
            if future is not None and future.set_running_or_notify_cancel():
                future.set_exception(CommandError("the simulation has stopped"))

    def _publish(self):
        self.latest = self._world.snapshot()
        if self._world.degraded != self.degraded:
            self.degraded = dict(self._world.degraded)
        for future, hit in self._events:  # events met: the snapshot shows their instant now
            if future.set_running_or_notify_cancel():
                future.set_result(hit)
        self._events.clear()

    def _do_pause(self):
        self._paused = True
        self.cycles_per_second = 0.0

    def _do_resume(self):
        self._paused = False
        self.error = None
        self._last = time.perf_counter()
        self._window = (self._last, self.cycles, self._busy)

    def _do_step_once(self):
        self._do_pause()
        self._cycle(FRAME, whole=True)

    def _cancel_watch(self, why: str = "the run was reset before the event") -> None:
        if self._watch is not None:
            future = self._watch[1]
            self._watch = None
            if future.set_running_or_notify_cancel():
                future.set_exception(CommandError(why))

    def _do_restart(self, world, start):
        self._cancel_watch("the run was restarted before the event")
        if self._recorder is not None:
            self._recorder.stop()
        self._recorder = None
        self._world, self._initial = world, start
        self._do_pause()
        self.error = None
        self._new_run()

    def _do_reset(self):
        self._cancel_watch()
        was_recording = self.recording
        rate = self._recorder.rate if self._recorder is not None else None
        self._recorder = None
        self._world = copy.deepcopy(self._initial)
        self.error = None
        self._last = time.perf_counter()
        self._new_run()
        if was_recording:
            self._do_start_recording(rate)

    def _new_run(self):
        """A new World runs: its collisions start a new log."""
        self.collisions.clear()
        self._do_log_collisions(self._logging)

    def _cycle(self, dt: float, whole: bool = False) -> None:
        """Advance by ``dt`` s of simulated time (stopping short once it has worked `CYCLE_WORK`,
        unless ``whole``: a step asked for); on failure, go back to before it and pause."""
        began = time.perf_counter()
        world = self._world
        before = world._motion()
        start, parts = world.time, max(1, math.ceil(dt / MAX_SUBSTEP))
        try:
            for k in range(1, parts + 1):
                if self._watch is None:
                    world.advance_to(start + dt * k / parts)
                elif self._watched(start + dt * k / parts):
                    break
                if not whole and time.perf_counter() - began >= CYCLE_WORK:
                    break  # (the rest of the cycle's time is not made up: see CYCLE_WORK)
        except Exception as exc:
            world._restore_motion(before)
            self.collisions.discard()
            self._fail(exc)
            self._cancel_watch(f"the run stopped on an error: {exc}")
        self.collisions.commit()
        self.cycles += 1
        self._busy += time.perf_counter() - began

    def _watched(self, target: float) -> bool:
        """Advance to ``target`` watching for the event; True (and paused) if it happened."""
        watch, future, give_up = self._watch
        hit = watch.advance(self._world, min(target, give_up))
        if hit is None and self._world.time < give_up:
            return False
        self._watch = None
        self._do_pause()
        if hit is None:
            if future.set_running_or_notify_cancel():
                future.set_exception(CommandError(
                    f"{watch.event!r} of {watch.body!r} did not happen within {give_up - watch.began:g} s"))
        else:
            self._events.append((future, hit))
        return True

    def _fail(self, exc: BaseException) -> None:
        self._paused = True
        self.error = exc
        if self.on_error is not None:
            try:
                self.on_error(exc)
            except Exception:
                traceback.print_exc(file=sys.stderr)

    def _run(self) -> None:
        warm_up()
        self._last = time.perf_counter()
        next_due = self._last
        self._window = (self._last, self.cycles, self._busy)
        answers: list = []
        while True:
            # Sleep until the next cycle is due (or for good while paused); a command wakes us.
            timeout = None if self._paused else max(0.0, next_due - time.perf_counter())
            try:
                item = self._queue.get(timeout=timeout) if timeout != 0.0 else self._queue.get_nowait()
            except queue.Empty:
                item = None
            try:
                while item is not None:  # the commands sent so far, in order
                    if item[1] is _STOP:
                        self._answer(answers)
                        self._cancel_watch("the simulation has stopped")
                        return
                    self._apply(*item, answers)
                    try:
                        item = self._queue.get_nowait()
                    except queue.Empty:
                        item = None
                now = time.perf_counter()
                if not self._paused and now >= next_due:
                    dt = min((now - self._last) * self._time_scale, MAX_STEP)
                    self._last = now
                    next_due = max(next_due + self._period, now)
                    self._cycle(dt)
                window_start, window_cycles, window_busy = self._window
                if now - window_start >= 0.5 and not self._paused:
                    cycles = self.cycles - window_cycles
                    self.cycles_per_second = cycles / (now - window_start)
                    self.cycle_time = (self._busy - window_busy) / cycles if cycles else 0.0
                    self._window = (now, self.cycles, self._busy)
                self._publish()
            except Exception as exc:  # a fault outside a step (a snapshot, a sampler): pause and report
                self._fail(exc)
            finally:
                self._answer(answers)


def warm_up() -> None:
    """Load the compiled step (numba compiles it on a machine's first run, for a minute or
    more): before the physics thread's first cycle, so that its first dt is not swallowed by
    the loading; and before the app's window opens (`ui.app`)."""
    world = World(bounds=(0.0, 0.0, 1.0, 1.0))
    world.add_body(Body("a", 1.0, 0.1, (0.3, 0.5), (1.0, 0.0)))
    world.add_body(Body("b", 1.0, 0.1, (0.55, 0.5)))
    world.step(0.01)


def _copy_outcome(source: Future, target: Future) -> None:
    if target.done():
        return
    if source.exception() is not None:
        target.set_exception(source.exception())
    else:
        target.set_result(source.result())
