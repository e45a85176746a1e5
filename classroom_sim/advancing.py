"""How a World's clock advances: `step`, `advance_to` (stopping at every sampler's time
on the way), and the one call of the compiled step (`step_call`) with the World's own
arrays, its collisions reported and what cut its work short counted (`World` inherits
`Advancing`, over the World's arrays)."""

from __future__ import annotations

import math

import numpy as np

from . import collisions, step_call, stepping
from .collision_log import collisions_of
from .numbers import real, shown


class Advancing:
    """The clock half of a `World`: stepping it, its samplers, and its motion saved and put
    back."""

    def step(self, dt: float) -> None:
        """Advance simulated time by ``dt`` seconds."""
        if not (type(dt) is float and 0.0 <= dt < math.inf):  # (the usual case, at once: a small step shows it)
            try:
                dt = real(dt)
            except ValueError:
                raise ValueError(f"dt: must be finite and >= 0, got {shown(dt)}") from None
            if not dt >= 0:
                raise ValueError(f"dt: must be finite and >= 0, got {dt!r}")
        self.advance_to(self.time + dt)

    def advance_to(self, time: float) -> None:
        """Advance to the given simulated time in s, stopping at every sample time on the way;
        ValueError for NaN, an infinity or a time behind the clock (within rounding: none).

        A sample time within rounding of ``time`` counts as reached (240 steps of
        1/240 s add up to a hair under 1 s), and the clock then ends on it.
        """
        if not (type(time) is float and time - time == 0.0):  # (finite: as `real`, without its call)
            try:
                time = real(time)
            except ValueError as exc:
                raise ValueError(f"time: {exc}") from None
        now = self.time
        if time < now and time < now - 1e-12 * (abs(now) if abs(now) > 1.0 else 1.0):
            raise ValueError(f"time: {time!r} s is behind the world's clock, {self.time!r} s")
        if self._samplers:
            self._advance_sampled(time)
        if time > self.time:
            self._advance(time)
            self.time = time

    def _advance_sampled(self, time: float) -> None:
        """Advance towards ``time``, stopping at every sample time within rounding of it."""
        reach = time + 1e-12 * max(1.0, abs(time))
        while self._samplers:
            due = [s.next_time for s in self._samplers if s.next_time is not None]
            if not due or min(due) > reach:
                break
            t = max(min(due), self.time)
            if t > self.time:
                self._advance(t)
                self.time = t
            for s in list(self._samplers):
                if s.next_time is not None and s.next_time <= self.time:
                    s.sample(self)

    def _motion(self) -> tuple:
        """The time and every body's position and velocity, and which stand still or are at
        rest, copied (see `_restore_motion`)."""
        return self.time, self._pos.copy(), self._vel.copy(), self._rest.copy(), self._rest_for

    def _restore_motion(self, motion) -> None:
        """Go back to what `_motion` returned (the bodies must be the same)."""
        self.time, self._pos, self._vel = motion[0], motion[1].copy(), motion[2].copy()
        self._rest, self._rest_for = motion[3].copy(), motion[4]

    def attach(self, sampler) -> None:
        """Let ``sampler`` (with ``next_time`` and ``sample(world)``) sample this World at its times."""
        self._samplers.append(sampler)

    def detach(self, sampler) -> None:
        self._samplers.remove(sampler)

    def _rules_now(self) -> tuple:
        """What the compiled step takes of the settings: the box as an array (or empty), the
        restitutions and the integrator's code; kept until the next edit."""
        if self._rules is None or self._rules[0] != self._revision:
            self._rules = (self._revision, (self._bounds_array, float(self._restitution),
                                            float(self._wall_restitution), collisions.METHODS[self._integrator]))
        return self._rules[1]

    def _advance(self, target: float) -> None:
        """Advance every body from ``self.time`` to ``target`` (see `stepping`)."""
        if not self._names:
            return
        # (a step of a hundred bodies takes 11 µs: what is said here once a step shows)
        acc = self._acc_cache if not (self._acc_dirty or self._state_dependent) else self._accelerations_now()
        rules = self._rules
        bounds, e, e_wall, method = rules[1] if rules is not None and rules[0] == self._revision else self._rules_now()
        report = self.collision_report
        size = 0
        if report is not None:
            size = 4 * len(self._names) + 64
            if len(self._scratch) < step_call.log_words(size):  # (the log is written at its head)
                self._scratch = np.zeros(step_call.log_words(size) + len(self._scratch), np.int64)
        rest = self._rest if self._rest_for == self._revision else self._rest_now()
        now = self.time  # (either may be another kind of number: a sampler's exact time)
        count, flags, took = step_call.step(self._pos, self._vel, acc, self._radius, self._inv_mass, bounds, e,
                                           e_wall, method, now if type(now) is float else float(now),
                                           target if type(target) is float else float(target), size,
                                           self._scratch, rest)
        if report is not None and count:
            kept = min(count, size)
            pairs, vectors, times = step_call.log_of(self._scratch, size)
            report.extend(collisions_of(times[:kept], pairs[:kept], vectors[:kept], self._names, self._mass))
        if took > len(self._scratch):  # (the step allocated what did not fit: room for the next ones)
            self._scratch = np.zeros(took + took // 2, np.int64)
        if flags:
            if flags & stepping.CUT_EVENTS:
                self.degraded["contacts"] += 1
            if flags & stepping.CUT_PASSES:
                self.degraded["passes"] += 1
        if report is not None and count > size:
            self.degraded["log"] += 1
