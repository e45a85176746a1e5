"""Snapshot: one instant of a World, frozen, with read-only arrays.

Only snapshots cross threads: the physics thread builds one after a cycle and
publishes it by a single reference assignment; readers never lock. Besides the
motion, a snapshot carries the settings and every acceleration list, so that a
panel can show the true values without asking the physics thread.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def frozen(array, dtype=float) -> np.ndarray:
    """A read-only copy of ``array``."""
    out = np.array(array, dtype=dtype, copy=True)
    out.flags.writeable = False
    return out


def named_vectors(accelerations) -> tuple:
    """An acceleration list as ((name, (ax, ay)), ...) in m/s²; the vector is None
    for a kind that depends on the state."""
    return tuple((a.name, (float(a.vector[0]), float(a.vector[1])) if a.constant else None)
                 for a in accelerations)


@dataclass(frozen=True, eq=False)
class Settings:
    """The World's settings at one instant: ``gravity`` (m/s²), the shared named
    ``accelerations`` (as `named_vectors`), restitutions, integrator and box;
    ``rest_angles``: (body, degrees) of the last direction set for a body, which
    a body at rest keeps for its next launch."""

    gravity: tuple
    accelerations: tuple
    restitution: float
    wall_restitution: float
    integrator: str
    bounds: tuple | None
    rest_angles: tuple = ()


@dataclass(frozen=True, eq=False)
class Snapshot:
    """The state of every body at one instant. Units: s, m, m/s, m/s², kg.

    ``masses`` holds ``inf`` for fixed bodies; ``kinetic_energy`` (J) and
    ``momentum`` (kg·m/s) are totals over the movable bodies. ``own_accelerations``
    holds each body's own list (as `named_vectors`), ``shared_on`` whether the
    shared ones apply to it; ``revision`` changes whenever anything but the
    motion was edited (a panel refreshes only then).
    """

    time: float
    names: tuple
    positions: np.ndarray
    velocities: np.ndarray
    accelerations: np.ndarray
    masses: np.ndarray
    radii: np.ndarray
    colors: tuple
    bounds: tuple | None
    kinetic_energy: float
    momentum: np.ndarray
    settings: Settings | None = None
    own_accelerations: tuple = ()
    shared_on: np.ndarray | None = None
    revision: int = 0

    @classmethod
    def build(cls, time, names, positions, velocities, accelerations, masses, radii, colors, bounds,
              settings=None, own_accelerations=(), shared_on=None, revision=0):
        """Copy the given arrays into a new, frozen Snapshot."""
        masses = frozen(masses)
        velocities = frozen(velocities).reshape(-1, 2)
        m = np.where(np.isfinite(masses), masses, 0.0)  # a fixed body is at rest: it adds nothing
        ke = 0.5 * float(((velocities * velocities) @ np.ones(2)) @ m)  # (a row sum is slow in numpy)
        p = frozen(m @ velocities if len(m) else np.zeros(2))
        return cls(
            time=float(time),
            names=tuple(names),
            positions=frozen(positions).reshape(-1, 2),
            velocities=velocities,
            accelerations=frozen(accelerations).reshape(-1, 2),
            masses=masses,
            radii=frozen(radii),
            colors=tuple(colors),
            bounds=None if bounds is None else tuple(float(b) for b in bounds),
            kinetic_energy=ke,
            momentum=p,
            settings=settings,
            own_accelerations=tuple(own_accelerations),
            shared_on=frozen(np.ones(len(masses), bool) if shared_on is None else shared_on, bool),
            revision=int(revision),
        )

    @property
    def fixed(self) -> np.ndarray:
        """A boolean per body: True where the body is fixed."""
        return ~np.isfinite(self.masses)

    def index(self, name: str) -> int:
        """The row of the named body; ValueError if there is none."""
        return self.names.index(name)

    def __len__(self) -> int:
        return len(self.names)


@dataclass(frozen=True, eq=False)
class Look:
    """Everything of a World at one instant but its motion and masses: what a recording
    keeps once per edit (not once per sample), so that any recorded instant can be drawn
    again (`snapshot`) and put back into a World (`World.restore`). ``own`` and
    ``settings`` are as in a Snapshot; ``own_lists`` and ``shared`` are the acceleration
    lists themselves (their entries are never changed in place); ``free_masses``:
    (body, kg) that a fixed body weighed before it was fixed."""

    revision: int
    names: tuple
    colors: tuple
    radii: np.ndarray
    shared_on: np.ndarray
    own: tuple
    settings: Settings
    own_lists: tuple
    shared: tuple
    free_masses: tuple = ()

    def snapshot(self, time, positions, velocities, accelerations, masses) -> Snapshot:
        """The Snapshot of an instant with this look and the given motion and masses."""
        return Snapshot.build(time, self.names, positions, velocities, accelerations, masses, self.radii,
                              self.colors, self.settings.bounds, self.settings, self.own, self.shared_on,
                              self.revision)
