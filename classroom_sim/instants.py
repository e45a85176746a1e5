"""A World's instants for replay: its look (everything but the motion and the masses,
kept by a Recorder once per edit) and putting a recorded instant back (`World` inherits
`Instants`)."""

from __future__ import annotations

import numpy as np

from .body import Body
from .snapshot import Look, frozen


class Instants:
    """The replay half of a `World`: `look` and `restore`, over the World's own arrays."""

    def look(self) -> Look:
        """Everything but the motion and the masses, frozen (`Look`); the same object until
        the next edit, so that a Recorder keeps one per edit."""
        if self._look is None or self._look.revision != self._revision:
            names, colors, own, lists = self._bodies_now()
            last = self._look  # (its arrays serve again where they did not change: a slider's drag)
            radii = last.radii if last is not None and np.array_equal(last.radii, self._radius) \
                else frozen(self._radius)
            shared_on = last.shared_on if last is not None and np.array_equal(last.shared_on, self._shared_on) \
                else frozen(self._shared_on, bool)
            self._look = Look(self._revision, names, colors, radii, shared_on, own, self._settings_now(), lists,
                              tuple(self._shared), tuple(self._free_mass.items()))
        return self._look

    def restore(self, look: Look, time: float, positions, velocities, masses) -> None:
        """Be again the World of a recorded instant: ``look`` (`look`) with that motion and
        those masses at ``time`` s, every body awake (`collisions.still`). The lesson
        stays; bodies the look lacks leave (their handles standalone again), and bodies it
        has that are gone come back."""
        handles = {name: h for name, h in zip(self._names, self._handles)}
        for name in set(handles) - set(look.names):
            self._standalone(self._index[name])
        self._handles = []
        for name in look.names:
            handle = handles.get(name)
            if handle is None:
                handle = Body(name, 1.0, 1.0, (0.0, 0.0))  # a handle: its values live in the arrays
                handle._world, handle._own = self, None
            self._handles.append(handle)
        self._names = list(look.names)
        self._index = {n: k for k, n in enumerate(self._names)}
        self._pos = np.array(positions, float).reshape(-1, 2)
        self._vel = np.array(velocities, float).reshape(-1, 2)
        self._mass = np.array(masses, float)
        with np.errstate(divide="ignore"):
            self._inv_mass = np.where(np.isinf(self._mass), 0.0, 1.0 / self._mass)
        self._radius = np.array(look.radii, float)
        self._shared_on = np.array(look.shared_on, bool)
        self._colors = list(look.colors)
        self._own_acc = [list(lst) for lst in look.own_lists]
        self._shared = list(look.shared)
        settings = look.settings
        self._gravity = np.array(settings.gravity, float)
        self._bounds = settings.bounds
        self._restitution, self._wall_restitution = settings.restitution, settings.wall_restitution
        self._integrator = settings.integrator
        self._angles = dict(settings.rest_angles)
        self._free_mass = dict(look.free_masses)
        self.time = float(time)
        self._changed(bodies=True)
