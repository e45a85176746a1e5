"""The stopwatch: simulated time measured by hand or by a body's events.

`Stopwatch` is the watch itself: start, stop, laps and reset on the simulated
clock (no Qt). `Trigger` notices a body's event (``floor``, ``apex``,
``collision``) between two snapshots the GUI sees (it sees only some of the
physics cycles, about one a frame) and gives its exact simulated time: under the
constant acceleration of the earlier snapshot the body's height is a quadratic
in the time, and the collision log has each impact's instant. `Timing` joins
them: the watch starts on one trigger and stops on the other, at the events'
own instants, not when the GUI noticed.

The watch is drawn over the canvas (`StopwatchOverlay`) and worked from a panel
(`StopwatchPanel`, in ``stopwatch_panel``) in a dock; `install` puts both and
the "Stopwatch" action (W) into the window.
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPen

from classroom_sim import first_crossing

from ..paint import panel
from . import Tool

HAND = "by hand"
EVENTS = ("floor", "apex", "collision")
"""The events a trigger watches for."""
TOUCH = 1e-9
"""m: a body nearer the floor than this is on it: coming down from there is no arrival."""
SHOWN_LAPS = 3
"""The most recent laps drawn on the canvas."""


class Lap(NamedTuple):
    """One lap: the watch's reading at the lap (``total``) and the time since the lap
    before (``split``), in s."""

    total: float
    split: float


class Stopwatch:
    """Elapsed simulated time: running, it reads the time since the last start plus what
    was gathered before a stop; stopped, it holds its reading."""

    def __init__(self):
        self.running = False
        self.laps: list[Lap] = []
        self._started = 0.0  # s of simulated time at the last start
        self._gathered = 0.0  # s gathered before the last start
        self._seen = None  # the latest clock reading seen (`follow`)

    def start(self, t: float) -> None:
        """Start at simulated time ``t`` (a running watch runs on)."""
        if not self.running:
            self.running = True
            self._started = float(t)

    def stop(self, t: float) -> None:
        """Stop at simulated time ``t``: the reading holds from then on."""
        if self.running:
            self._gathered = self.reading(t)
            self.running = False

    def lap(self, t: float) -> Lap | None:
        """Note a lap at simulated time ``t`` (only while running)."""
        if not self.running:
            return None
        total = self.reading(t)
        lap = Lap(total, total - (self.laps[-1].total if self.laps else 0.0))
        self.laps.append(lap)
        return lap

    def reset(self) -> None:
        """Stopped, at zero, no laps."""
        self.running = False
        self.laps = []
        self._started = self._gathered = 0.0

    def reading(self, t: float) -> float:
        """Seconds on the watch at simulated time ``t``."""
        if not self.running:
            return self._gathered
        return self._gathered + max(float(t) - self._started, 0.0)

    def follow(self, t: float) -> bool:
        """The simulated clock reads ``t`` now. If it went back (the scene was reset, a
        lesson step began, another scene opened), the run the watch was timing is gone:
        it resets, and True is returned."""
        back = self._seen is not None and t < self._seen
        self._seen = float(t)
        if back:
            self.reset()
        return back


# -- events between two snapshots --------------------------------------------------------------
def apex_time(t0: float, vy0: float, ay: float, t1: float) -> float | None:
    """The instant in (t0, t1] where vy falls to zero, for a body rising at ``vy0`` m/s
    at ``t0`` under a constant ``ay`` < 0: t0 - vy0 / ay; None if it does not."""
    if not (t1 > t0 and vy0 > 0.0 and ay < 0.0):
        return None
    t = t0 - vy0 / ay
    return t if t <= t1 else None


def floor_time(t0: float, gap: float, vy0: float, ay: float, t1: float) -> float | None:
    """The instant in (t0, t1] where a body ``gap`` m above the floor at ``t0``, moving at
    ``vy0`` under a constant ``ay``, comes down onto it (exact for the kinematic
    integrator, whose step is that quadratic); None if it does not. Only an arrival
    counts: a body within `TOUCH` of the floor is already on it."""
    if not (t1 > t0 and gap > TOUCH):
        return None
    s = first_crossing(gap, vy0, 0.5 * ay, t1 - t0)
    return None if s is None else t0 + s


def event_time(event: str, body: str, before, after, since: float, collisions=()) -> float | None:
    """The first instant in (``since``, ``after.time``] at which ``body`` meets ``event``
    between the snapshots ``before`` and ``after`` (``collisions``: the log's new rows,
    `Collision`); None if it did not. The body's motion is taken from ``before``; an
    edit between the two (another revision) or a body missing from either gives none."""
    if event == "collision":
        for c in collisions:
            if body in (c.a, c.b) and since < c.t <= after.time:
                return float(c.t)
        return None
    if before is None or before.revision != after.revision or body not in before.names or body not in after.names:
        return None
    i = before.index(body)
    t0, t1 = before.time, after.time
    y0, vy0, ay = (float(v) for v in (before.positions[i, 1], before.velocities[i, 1], before.accelerations[i, 1]))
    floor = None
    if before.bounds is not None:
        floor = floor_time(t0, y0 - float(before.radii[i]) - before.bounds[1], vy0, ay, t1)
    if event == "floor":
        return floor if floor is not None and floor > since else None
    if event == "apex":
        t = apex_time(t0, vy0, ay, t1)
        # falling at the end, or bounced on the floor after the apex: the apex was reached
        # (rising still, with no bounce between, something pushed it: no apex)
        if t is not None and t > since and (after.velocities[after.index(body), 1] <= 0.0 or floor is not None):
            return t
        return None
    raise ValueError(f"event: must be one of {', '.join(map(repr, EVENTS))}, got {event!r}")


class Trigger:
    """Waits for ``body``'s ``event`` (`EVENTS`, or `HAND`: never) once armed; fires once
    per arming, at the event's exact simulated time."""

    def __init__(self, body: str | None = None, event: str = HAND):
        self.body = body
        self.event = event
        self.armed = False
        self.since = 0.0
        """s: only events after this instant count (when it was armed)."""

    @property
    def automatic(self) -> bool:
        return self.event in EVENTS and self.body is not None

    def arm(self, t: float) -> None:
        """Wait for the event from simulated time ``t`` on (if there is one to wait for)."""
        self.armed = self.automatic
        self.since = float(t)

    def disarm(self) -> None:
        self.armed = False

    def check(self, before, after, collisions=()) -> float | None:
        """The event's instant if it happened between ``before`` and ``after`` (after the
        arming); it then disarms. None otherwise."""
        if not self.armed:
            return None
        t = event_time(self.event, self.body, before, after, self.since, collisions)
        if t is not None:
            self.armed = False
        return t

    def describe(self) -> str:
        return f"{self.body}: {self.event}"


class Timing:
    """A `Stopwatch` with a start trigger and a stop trigger, fed each snapshot the GUI
    sees (`feed`). The start trigger is armed when it is chosen while the watch is
    stopped, and on each reset (of the watch, or of the scene's clock); it starts a new
    measurement (from zero, without laps) at the event's instant. The stop trigger is
    armed whenever the watch starts, by hand or by the start trigger."""

    def __init__(self):
        self.watch = Stopwatch()
        self.start_on = Trigger()
        self.stop_on = Trigger()
        self.last = None
        """The latest snapshot fed."""
        self.fired: tuple | None = None
        """(trigger, time) of the last trigger that fired, since the last reset."""

    @property
    def now(self) -> float:
        """s: the simulated time of the latest snapshot fed."""
        return self.last.time if self.last is not None else 0.0

    # -- by hand ---------------------------------------------------------------------------------
    def start(self, t: float) -> None:
        if not self.watch.running:
            self.watch.start(t)
            self.start_on.disarm()
            self.stop_on.arm(t)

    def stop(self, t: float) -> None:
        self.watch.stop(t)
        self.stop_on.disarm()

    def lap(self, t: float):
        return self.watch.lap(t)

    def reset(self, t: float | None = None) -> None:
        """Zero, stopped; the start trigger waits again from ``t`` (default: now)."""
        self.watch.reset()
        self.fired = None
        self.stop_on.disarm()
        self.start_on.arm(self.now if t is None else t)

    def set_start(self, body, event: str) -> None:
        """Start on ``body``'s ``event`` (`HAND`: by hand); armed now if the watch is stopped."""
        self.start_on = Trigger(body, event)
        if not self.watch.running:
            self.start_on.arm(self.now)

    def set_stop(self, body, event: str) -> None:
        """Stop on ``body``'s ``event``; armed now if the watch runs."""
        self.stop_on = Trigger(body, event)
        if self.watch.running:
            self.stop_on.arm(self.now)

    # -- from the snapshots ----------------------------------------------------------------------
    def feed(self, snap, collisions=()) -> None:
        """The GUI sees ``snap`` (``collisions``: the log's rows new since the last feed, up
        to ``snap.time``): follow renamed bodies, a clock gone back, and fire the triggers."""
        before, self.last = self.last, snap
        if before is not None and before.names != snap.names and len(before.names) == len(snap.names):
            for trigger in (self.start_on, self.stop_on):  # a rename keeps the body's row
                if trigger.body in before.names and trigger.body not in snap.names:
                    trigger.body = snap.names[before.index(trigger.body)]
        if self.watch.follow(snap.time):
            self.reset(snap.time)
            return
        if before is None:
            return
        if not self.watch.running:
            t = self.start_on.check(before, snap, collisions)
            if t is not None:  # a new measurement, from zero
                self.watch.reset()
                self.start(t)
                self.fired = (self.start_on, t)
        if self.watch.running:
            t = self.stop_on.check(before, snap, collisions)
            if t is not None:
                self.stop(t)
                self.fired = (self.stop_on, t)

    def state(self) -> str:
        """One line for the class: what the watch is doing or waiting for."""
        if self.watch.running:
            if self.stop_on.armed:
                return f"Running; stops on {self.stop_on.describe()}"
            return "Running"
        if self.start_on.armed:
            return f"Waiting for {self.start_on.describe()}"
        if self.fired is not None and self.fired[0] is self.stop_on:
            return f"Stopped on {self.stop_on.describe()} at t = {self.fired[1]:.3f} s"
        return "Stopped"


def lap_lines(laps, last: int | None = None) -> list[str]:
    """The laps as lines of text (the ``last`` ones only, if given)."""
    first = 0 if last is None else max(len(laps) - last, 0)
    return [f"lap {k + 1}   {lap.total:.3f} s   (+{lap.split:.3f} s)"
            for k, lap in enumerate(laps[first:], first)]


class StopwatchOverlay(Tool):
    """The watch's reading in large type in the canvas's top right corner (below the
    arrows' legend), with the last laps; drawn only while ``shown``."""

    name = "Stopwatch"

    def __init__(self, timing: Timing):
        self.timing = timing
        self.shown = False
        self.box: QRectF | None = None
        """Where the last frame drew the reading (None when hidden)."""

    def draw(self, p, canvas, snap, theme) -> None:
        self.box = None
        if not self.shown:
            return
        timing = self.timing
        text = f"{timing.watch.reading(snap.time):.3f} s"
        state = "running" if timing.watch.running else ("waiting" if timing.start_on.armed else "stopped")
        laps = lap_lines(timing.watch.laps, SHOWN_LAPS)
        p.save()
        try:
            big = QFont(p.font())
            big.setPointSizeF(theme.font_pt * 2.6)
            big.setBold(True)
            small = QFont(p.font())
            small.setPointSizeF(theme.font_pt)
            bm, sm = QFontMetricsF(big), QFontMetricsF(small)
            pad = 0.6 * theme.font_pt + 4.0
            lines = [state, *laps]
            w = max([bm.horizontalAdvance(text)] + [sm.horizontalAdvance(s) for s in lines]) + 2.0 * pad
            h = bm.height() + len(lines) * sm.height() + 2.0 * pad
            box = QRectF(canvas.view.width - w - 12.0, _below_legend(canvas, theme), w, h)
            panel(p, theme, box)
            p.setPen(QPen(QColor(theme.label), 1.0 + 0.5 * theme.outline_px))
            p.drawRoundedRect(box, 6.0, 6.0)
            inner = box.adjusted(pad, pad, -pad, -pad)
            p.setFont(big)
            p.drawText(QRectF(inner.left(), inner.top(), inner.width(), bm.height()), Qt.AlignRight | Qt.AlignVCenter,
                       text)
            p.setFont(small)
            y = inner.top() + bm.height()
            for line in lines:
                p.drawText(QRectF(inner.left(), y, inner.width(), sm.height()), Qt.AlignRight | Qt.AlignVCenter, line)
                y += sm.height()
            self.box = box
        finally:
            p.restore()


def _below_legend(canvas, theme) -> float:
    """px: the top of the watch's panel, clear of the arrows' legend in the same corner
    (`vectors.Vectors`: a row of 2.2 type sizes and 6 px each, from 4 px down, 8 px more)."""
    vectors = getattr(canvas, "vectors", None)
    rows = len(getattr(vectors, "legend", ()) or ())
    return 4.0 + rows * (2.2 * theme.font_pt + 6.0) + 8.0 + 6.0 if rows else 8.0


def install(window):
    """Give ``window`` (a MainWindow) the stopwatch: its panel in a dock (a tab beside the
    right-hand panels, hidden at first), its overlay on the canvas and its action
    "Stopwatch" (W), which shows or hides both (`StopwatchTool`)."""
    from .stopwatch_panel import StopwatchTool

    return StopwatchTool(window)


def __getattr__(name: str):
    """The panel and its dock live in ``stopwatch_panel`` (the widgets), and are found here too."""
    if name in ("StopwatchPanel", "StopwatchTool"):
        from . import stopwatch_panel

        return getattr(stopwatch_panel, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
