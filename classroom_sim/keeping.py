"""What a Simulation keeps, and the files written from it: its recording (`Recorder`),
its collision log, the CSV and scene files, and going on from a recorded sample
(`continue_from`). A part of `Simulation`: every verb is carried out by the physics
thread between cycles (`Simulation._control`), as all its verbs are."""

from __future__ import annotations

from concurrent.futures import Future

from .commands import CommandError
from .files import write_atomically
from .recording import LAYOUTS, Recorder, Recording
from .saving import dumps_scene


class Keeping:
    """The recording, the collision log, files and replay, for `Simulation`."""

    @property
    def recording(self) -> bool:
        """True while samples are being taken."""
        return self._recorder is not None and self._recorder.next_time is not None

    @property
    def recording_full(self) -> bool:
        """Whether sampling stopped because the recording reached its cap (`recording.MAX_BYTES`)."""
        return self._recorder is not None and self._recorder.full

    @property
    def recorder(self):
        """The Recorder (or None), for readers that follow it from another thread with
        `Recorder.since`; only the physics thread changes it."""
        return self._recorder

    def log_collisions(self, on: bool) -> Future:
        """List every body-body collision from now on in `collisions` (or stop listing)."""
        return self._control(lambda: self._do_log_collisions(bool(on)))

    def clear_collisions(self) -> Future:
        return self._control(self.collisions.clear)

    def start_recording(self, rate: float = 100.0) -> Future:
        """Sample every body ``rate`` times per simulated second from now on: appended to
        the recording there is (stopped), if it was taken at the same rate; else a new one."""
        return self._control(lambda: self._do_start_recording(rate))

    def stop_recording(self) -> Future:
        """Stop sampling; what was recorded stays, to be exported or to go on."""
        return self._control(self._do_stop_recording)

    def clear_recording(self) -> Future:
        """Throw the recording away (sampling goes on, afresh, if it was on)."""
        return self._control(self._do_clear_recording)

    def recorded(self) -> Future:
        """A Future of a frozen Recording of everything sampled so far (built outside the physics thread)."""
        return self._offload(self._capture, Recording.from_capture)

    def export_csv(self, path, layout: str = "long") -> Future:
        """Write the recording to a CSV file in the background (the physics loop does
        not wait), atomically; the Future returns once the file is complete."""
        if layout not in LAYOUTS:
            future = Future()
            future.set_exception(CommandError(f"layout: must be 'long' or 'wide', got {layout!r}"))
            return future
        return self._offload(self._capture, lambda c: Recording.from_capture(c).write_csv(path, layout))

    def save_scene(self, path) -> Future:
        """Write the current state, with every live edit, as a scene file that loads back."""
        return self._offload(lambda: dumps_scene(self._world),
                             lambda text: write_atomically(path, lambda f: f.write(text)))

    def continue_from(self, k: int, recorder=None) -> Future:
        """Go on from recorded sample ``k``: the World becomes exactly what it was then
        (`World.restore`), but with every body awake (the recording keeps no account of
        what stood still: bodies at rest then go on as if just reached, `collisions.still`,
        and a pile that stood at rest goes on 1e-10 m from the original's), the samples
        and collisions after it are dropped, sampling goes
        on if it was on (or stopped only because the recording was full), and the
        simulation plays. CommandError if there is no such sample, or if ``recorder`` is
        given and is no longer the recording (cleared or replaced meanwhile)."""
        return self._control(lambda: self._do_continue(k, recorder))

    def _capture(self):
        if self._recorder is None:
            raise CommandError("recording: nothing has been recorded")
        return self._recorder.capture()

    def _do_continue(self, k, expected=None):
        recorder = self._recorder
        if expected is not None and recorder is not expected:
            raise CommandError("the recording changed before the run could go on from it: nothing was changed")
        if recorder is None or isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < recorder.count:
            held = recorder.count if recorder is not None else 0
            raise CommandError(f"sample {k!r}: not in the recording ({held} samples)")
        t, look, positions, velocities, _, masses = recorder.state(k)
        self._cancel_watch("the run went back to a recorded instant before the event")
        sampling = self.recording or recorder.full  # (a full recording has room again once cut)
        self._world.restore(look, t, positions, velocities, masses)
        self._recorder = recorder.cut(k)
        if sampling:
            self._recorder.resume(self._world)  # (sample k again, as it was)
        self.collisions.cut(t)
        self._do_resume()

    def _do_log_collisions(self, on):
        self._logging = on
        self.collisions.commit()
        if on:
            self.collisions.follow(self._world)
        else:
            self._world.collision_report = None

    def _do_start_recording(self, rate):
        old = self._recorder
        if old is not None and old.rate == float(rate) and not old.full:
            old.resume(self._world)
            return
        recorder = Recorder(self._world, rate)
        if old is not None:
            old.stop()
        self._recorder = recorder

    def _do_clear_recording(self):
        was_recording = self.recording
        if self._recorder is not None:
            self._recorder.stop()
            rate = self._recorder.rate
            self._recorder = None
            if was_recording:
                self._do_start_recording(rate)

    def _do_stop_recording(self):
        if self._recorder is not None:
            self._recorder.stop()
