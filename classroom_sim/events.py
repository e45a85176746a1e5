"""Exact events: run a World until something happens to a body, and measure it there.

The events of SCENE_FORMAT.md ("Lesson"): ``apex``, ``floor``, ``wall``,
``collision``, ``height`` (with ``at`` = Y, m) and ``time`` (with ``at`` = T, s).
A `Watch` advances a World as usual, but cuts the step at the instant the
event happens, found by solving the step's own kinematics (the integrator's
position, a quadratic in the time): exact for constant accelerations, for any
step length. Between two cuts the watched body must have moved as the
integrator says; where it did not (a bounce or a collision changed its course
within the step), the step is halved until the change is pinned down, and
the event is looked for again from there.

`run_until` is the headless run (fixed steps), `answer_key` the key of a
lesson's predictions; the physics thread uses the same `Watch`
(`Simulation.run_until`). Units: s, m, m/s, kg.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .collisions.schedule import METHODS, NONE, SQUARE, contact, crossing
from .integrators import INTEGRATORS
from .lesson import EVENTS, QUANTITIES
from .params import angle_of

DT = 1.0 / 240.0
"""s: the fixed step of a headless run (`run_until`, `answer_key`)."""

LIMIT = 600.0
"""s of simulated time an event may take before the run gives up."""

MIN_WIDTH = 1e-12
"""s (relative to the clock, past 1 s): a move this short is not halved again to
pin down a bounce or a collision (far below the 1e-9 s events are located to)."""

AGREE = 1e-9
"""Relative: how closely the watched body must follow the integrator between two
cuts to count as undisturbed (rounding is ~1e-16; any bounce is far more)."""

def _square(world) -> float:
    """The c of the World's integrator in x + v s + c a s² (`collisions.SQUARE`)."""
    return SQUARE[METHODS[world.integrator]]


class EventError(ValueError):
    """The event did not happen (within the limit), or cannot be watched."""


@dataclass(frozen=True)
class Measurement:
    """Where and how a body was at an event: ``time`` since the run began and
    ``world_time`` (s), ``position`` (m), ``velocity`` (m/s: before a wall's
    bounce, just after a collision), ``mass`` (kg) and ``start``, its position
    when the run began."""

    body: str
    event: str
    time: float
    world_time: float
    position: tuple
    velocity: tuple
    mass: float
    start: tuple

    def value(self, quantity: str) -> float:
        """The named quantity (SCENE_FORMAT.md), in its unit (`lesson.QUANTITIES`)."""
        (x, y), (vx, vy), m = self.position, self.velocity, self.mass
        values = {
            "time": lambda: self.time, "x": lambda: x, "y": lambda: y,
            "range": lambda: abs(x - self.start[0]), "height": lambda: y - self.start[1],
            "vx": lambda: vx, "vy": lambda: vy, "speed": lambda: math.hypot(vx, vy),
            "angle": lambda: angle_of(vx, vy), "ke": lambda: 0.5 * m * (vx * vx + vy * vy),
            "px": lambda: m * vx, "py": lambda: m * vy,
        }
        if quantity not in values:
            raise ValueError(f"quantity: must be one of {', '.join(map(repr, QUANTITIES))}, got {quantity!r}")
        return float(values[quantity]())


def first_crossing(z0: float, w: float, q: float, span: float):
    """The first s in [0, span] where z(s) = z0 + w s + q s² passes downward through
    zero (z' < 0 there), or None (`collisions.schedule.crossing`, which the step uses)."""
    s = crossing(float(z0), float(w), float(q), float(span))
    return None if s == NONE else s


def first_contact(dp, dv, da, reach: float, span: float):
    """The first s in [0, span] where |dp + dv s + da s²| falls to ``reach`` while
    closing, or None: the contact of two discs whose centres are dp apart
    (`collisions.schedule.contact`, which the step uses)."""
    s = contact(float(dp[0]), float(dp[1]), float(dv[0]), float(dv[1]), float(da[0]), float(da[1]),
                float(reach), float(span))
    return None if s == NONE else s


class Watch:
    """Watches ``body`` for ``event`` (with ``at`` for "time" and "height") while a
    World advances. Call `begin` when the run begins, then `advance` instead of
    ``world.advance_to``: it stops the World exactly at the event and returns
    its `Measurement`, or reaches the target and returns None."""

    def __init__(self, body: str, event: str, at: float | None = None):
        if event not in EVENTS:
            raise EventError(f"event: must be one of {', '.join(map(repr, EVENTS))}, got {event!r}")
        if (at is None) == (event in ("time", "height")):
            raise EventError(f"at: {'needed' if at is None else 'only'} for the events 'time' and 'height'")
        self.body, self.event, self.at = body, event, at
        self.began = None
        self.start = None
        self._partner = None  # the body a predicted collision is with
        self._step = 0.0  # s: the step being taken (what a resting contact gains in one)

    def begin(self, world) -> None:
        """The run begins now: times count from here, ``range`` and ``height`` from here."""
        if self.body not in world.names:
            raise EventError(f"body: there is no body named {self.body!r}")
        if self.event in ("floor", "wall") and world.bounds is None:
            raise EventError(f"event: {self.event!r} needs walls, and this scene has no box")
        self.began = world.time
        self.start = tuple(float(c) for c in world.body(self.body).position)

    # -- the search --------------------------------------------------------------------------------
    def advance(self, world, target: float):
        """Advance ``world`` to ``target`` (s), or to the event if it comes first (then
        return its Measurement)."""
        if self.began is None:
            self.begin(world)
        if self.body not in world.names:
            raise EventError(f"body: {self.body!r} was removed before the event")
        own_report = world.collision_report is None
        if own_report:
            world.collision_report = []
        self._step = max(target - world.time, 0.0)
        try:
            return self._search(world, target)
        finally:
            if own_report:
                world.collision_report = None

    def _search(self, world, end: float):
        """Trial moves towards ``end``: each one cut at the predicted event, or halved
        where the body's course changed within it, until the event or ``end``."""
        width = end - world.time
        while world.time < end:
            t = world.time
            i = world._index[self.body]
            p, v = world._pos[i].copy(), world._vel[i].copy()
            a = world._accelerations_now()[i].copy()
            span = min(width, end - t)
            cut = self._predict(world, i, p, v, a, span)
            stop = t + cut if cut is not None else t + span
            if self.event == "collision" and cut is not None:
                stop = min(end, stop + self._overlap_time(world, i, v, a, cut))
            tiny = stop - t <= MIN_WIDTH * max(1.0, abs(t))
            before = world._motion()
            logged = len(world.collision_report)
            self._trial(world, stop)
            self._start_p, self._start_v, self._start_a = p, v, a
            verdict = self._judge(world, i, p, v, a, t, cut, logged, tiny)
            if verdict is not False:
                self._keep(world, before, stop)
                if verdict is not None:
                    return verdict
                width = end - world.time  # past it: whole steps again
                continue
            # The body's course changed within (t, stop): look again at the first half.
            world._restore_motion(before)
            del world.collision_report[logged:]
            width = 0.5 * (stop - t)
        return None

    def _judge(self, world, i, p, v, a, t, cut, logged, tiny):
        """After a trial move: the Measurement (the event), None (no event, and the body
        moved as the integrator says, or the move was too short to halve), or False
        (its course changed within the move: halve it)."""
        span = world.time - t
        if self.event == "time":  # its instant does not depend on the path: measure what is there
            return None if cut is None else self._measure(world, i, world._pos[i], world._vel[i])
        q, u = INTEGRATORS[world.integrator](p, v, a, cut if cut is not None else span)
        free = ~self._resting(world, i, p, v, a)  # a wall that holds the body up is no disturbance
        p, v, a, q, u = p[free], v[free], a[free], q[free], u[free]
        here, moving = world._pos[i][free], world._vel[i][free]
        collided = any(self.body in entry[1:3] for entry in world.collision_report[logged:])
        if self.event == "collision" and collided and (cut is not None or tiny):
            return self._measure(world, i, world._pos[i], world._vel[i])
        undisturbed = not collided and _close(here, q, p, v, span)
        if undisturbed and cut is not None and self.event in ("floor", "wall"):
            # (measured by the step's kinematics: a bounce may begin at the very instant of the contact)
            return self._measure(world, i, *self._at_cut(world, i, free, cut))
        undisturbed = undisturbed and _close(moving, u, v, a, span)
        if undisturbed:
            if cut is None or self.event == "collision":
                return None
            q, u = self._at_cut(world, i, free, cut)
            if self.event == "apex":
                u[1] = 0.0  # the apex is where vy is zero
            return self._measure(world, i, q, u)
        return None if tiny else False

    def _at_cut(self, world, i, free, cut):
        """Position and velocity at the cut: by the integrator along the free axes, as the
        World has them across a wall the body rests on."""
        q, u = INTEGRATORS[world.integrator](self._start_p, self._start_v, self._start_a, cut)
        q, u = np.array(q, float), np.array(u, float)
        q[~free], u[~free] = world._pos[i][~free], world._vel[i][~free]
        return q, u

    def _resting(self, world, i, p, v, a) -> np.ndarray:
        """Per axis (x, y): whether the body rests or slides on a wall across it at the start
        of the move, held there by its acceleration and approaching no faster than one step
        of that acceleration adds (a resting contact, not an impact)."""
        out = np.zeros(2, np.bool_)
        if world.bounds is None:
            return out
        r = world._radius[i]
        lo, hi = world.bounds[:2], world.bounds[2:]
        for k in range(2):
            rest = abs(a[k]) * self._step + 1e-9
            near = 1e-9 * (1.0 + abs(p[k])) + rest * self._step
            out[k] = ((p[k] - r - lo[k] <= near and -v[k] <= rest and a[k] <= 0.0)  # (-v: its approach)
                      or (hi[k] - r - p[k] <= near and v[k] <= rest and a[k] >= 0.0))
        return out

    def _predict(self, world, i, p, v, a, span):
        """The time (s, from now, within ``span``) at which the event would happen if the body
        flew on undisturbed, or None."""
        c = _square(world)
        event = self.event
        if event == "time":
            s = self.began + self.at - world.time
            return max(s, 0.0) if s <= span else None
        if event == "apex":
            if v[1] > 0.0 and a[1] < 0.0 and -v[1] / a[1] <= span:
                return -v[1] / a[1]
            return None
        if event == "height":
            return first_crossing(p[1] - self.at, v[1], c * a[1], span)
        r = world._radius[i]
        if event in ("floor", "wall"):
            xmin, ymin, xmax, ymax = world.bounds
            walls = [(p[1] - r - ymin, v[1], c * a[1], a[1])]  # the floor: z down to zero
            if event == "wall":
                walls += [(p[0] - r - xmin, v[0], c * a[0], a[0]), (xmax - r - p[0], -v[0], -c * a[0], a[0]),
                          (ymax - r - p[1], -v[1], -c * a[1], a[1])]
            times = []
            for z, w, qq, pull in walls:
                s = first_crossing(z, w, qq, span)
                # a contact slower than one step of the acceleration adds is resting, no impact
                if s is not None and -(w + 2.0 * qq * s) > abs(pull) * self._step + 1e-9:
                    times.append(s)
            return min(times) if times else None
        # collision: the first contact with any other body, each flying on undisturbed
        acc = world._accelerations_now()
        best = None
        for j in range(len(world._names)):
            if j == i:
                continue
            dp = world._pos[j] - p
            dv = world._vel[j] - v
            da = c * (acc[j] - a)
            reach = world._radius[i] + world._radius[j]
            # (far apart: no contact within the span, whatever the directions)
            speed = math.sqrt(float(dv @ dv)) * span + math.sqrt(float(da @ da)) * span * span
            if math.sqrt(float(dp @ dp)) - reach > speed:
                continue
            s = first_contact(dp, dv, da, reach, span if best is None else best)
            if s is not None and (best is None or s < best):
                best, self._partner = s, j
        return best

    def _overlap_time(self, world, i, v, a, cut) -> float:
        """A moment past the contact (s) by which the two discs overlap beyond the engine's
        touching tolerance (`collisions.OVERLAP_TOLERANCE`), so that the step's end
        resolves the collision: an overlap of about 1e-11 of the smaller radius."""
        j = self._partner
        closing = np.linalg.norm((world._vel[j] - v) + 2.0 * _square(world) * cut
                                 * (world._accelerations_now()[j] - a))
        radius = min(world._radius[i], world._radius[j])
        return max(1e-11 * radius / max(closing, 1e-300), 1e-12 * max(1.0, abs(world.time + cut)))

    def _trial(self, world, stop: float) -> None:
        """Advance to ``stop`` without the samplers (a trial may be taken back)."""
        samplers, world._samplers = world._samplers, []
        try:
            world.advance_to(stop)
        finally:
            world._samplers = samplers

    def _keep(self, world, before, stop: float) -> None:
        """The trial stands: where a sampler was due within it, do it again with the
        samplers, so that they see every sample time on the way."""
        due = [s.next_time for s in world._samplers if s.next_time is not None]
        if due and min(due) <= stop:
            after = world._motion()
            report = list(world.collision_report)
            world._restore_motion(before)
            world.advance_to(stop)
            world._restore_motion(after)  # the trial's state, which the measurement came from
            world.collision_report[:] = report

    def _measure(self, world, i, position, velocity) -> Measurement:
        mass = float(world._mass[i])
        return Measurement(self.body, self.event, float(world.time - self.began), float(world.time),
                           (float(position[0]), float(position[1])), (float(velocity[0]), float(velocity[1])),
                           mass, self.start)


def _close(actual, expected, base, rate, span) -> bool:
    if not len(actual):
        return True
    scale = 1.0 + float(np.abs(base).max()) + float(np.abs(rate).max()) * span
    return bool(np.abs(actual - expected).max() <= AGREE * scale)


def run_until(world, body: str, event: str, at: float | None = None, *, dt: float = DT,
              limit: float = LIMIT) -> Measurement:
    """Step ``world`` in fixed steps of ``dt`` (s) until ``event`` happens to ``body``,
    the last step cut at it; EventError if it has not happened within ``limit`` s."""
    watch = Watch(body, event, at)
    watch.begin(world)
    t0 = world.time
    k = 0
    while True:
        k += 1
        target = min(t0 + k * dt, t0 + limit)
        hit = watch.advance(world, target)
        if hit is not None:
            return hit
        if target >= t0 + limit:
            raise EventError(f"{event!r} of {body!r} did not happen within {limit:g} s")


@dataclass(frozen=True)
class Answer:
    """One prediction's answer: step ``step`` (from 0) and its title, the question,
    the quantity, its unit, the value and the time of the event (s since the run began)."""

    step: int
    title: str
    question: str
    quantity: str
    unit: str
    value: float
    time: float


def answer_key(world, dt: float = DT, limit: float = LIMIT) -> list:
    """The answers to ``world``'s lesson: each step with a prediction entered (the
    lesson's start, then the step's setup) and run until its event. ``world`` is
    not changed. EventError naming ``steps[k].predict.event`` if one never happens."""
    lesson = world.lesson
    out = []
    if lesson is None:
        return out
    for k, p in lesson.predictions:
        run = lesson.prepare(world, k)
        try:
            m = run_until(run, p.body, p.event, p.at, dt=dt, limit=limit)
        except EventError as exc:
            raise EventError(f"steps[{k}].predict.event: {exc}") from None
        out.append(Answer(k, lesson.steps[k].title, p.question, p.quantity, p.unit, m.value(p.quantity), m.time))
    return out
