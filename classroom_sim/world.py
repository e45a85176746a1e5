"""World: the bodies, the shared accelerations, the box and the settings; `step` (`advancing`).

The World keeps every body's state in arrays (one row a body) so that a step
moves all of them at once. `step(t)` applies the integrator once over t; it
splits the step only where a contact may happen within it (and then only for
the bodies that may touch) or where a sample time falls inside it.
"""

from __future__ import annotations

import copy
import math

import numpy as np

from . import heap
from .accelerations import Acceleration, add_named, as_vector, remove_named, replace_named
from .body import PALETTE, Body
from .collisions import still
from .advancing import Advancing
from .instants import Instants
from .integrators import INTEGRATORS
from .numbers import check_bounds, check_fraction
from .snapshot import Settings, Snapshot, named_vectors

EARTH_GRAVITY = (0.0, -9.81)

DEGRADED = {
    "contacts": "a body had more contacts in one step than it may resolve one by one; its rest were settled at the step's end",
    "passes": "bodies pressed into each other were more than a step separates; they part over the next steps",
    "log": "more collisions happened in one step than the collision log holds; some were not listed",
}
"""What each of `World.degraded`'s counters means, in words for a status bar."""


NO_REST = np.empty((0, still.COLUMNS))
"""The ``rest`` of a World whose bodies are never put to rest (`collisions.still`)."""

heap.keep_freed()  # (the arrays a step frees are kept for the next: see `heap`)


class World(Advancing, Instants):
    """A 2D world of discs. Units: m, s, kg.

    >>> w = World(gravity=(0.0, -10.0))
    >>> w.add_body(Body("A", mass=1.0, radius=0.1, position=(0.0, 0.0)))
    >>> w.step(1.0)
    >>> w.body("A").position
    array([ 0., -5.])
    """

    _put_to_rest = True

    @property
    def put_to_rest(self) -> bool:
        """Whether bodies that stand still are put to rest until something reaches them
        (`collisions.still`); set, every body wakes. (Off, a pile comes to rest by its
        resting contacts alone.)"""
        return self._put_to_rest

    @put_to_rest.setter
    def put_to_rest(self, value):
        self._put_to_rest = bool(value)
        self._rest_for = None

    def __init__(self, gravity=EARTH_GRAVITY, bounds=None, restitution=1.0, wall_restitution=1.0,
                 integrator="kinematic", accelerations=()):
        self.time = 0.0
        self._acc_dirty = True  # the summed accelerations must be computed anew
        self._revision = 0  # counts edits of anything but the motion (see `snapshot`)
        self._body_revision = 0  # counts edits of the bodies' names, colours and own lists
        self._own_for = -1  # the body revision that _own_sum was computed for
        self._own_sum, self._own_state = np.empty((0, 2)), False
        self._settings = self._body_part = self._look = None
        self._names: list[str] = []
        self._index: dict[str, int] = {}
        self._handles: list[Body] = []
        self._pos = np.empty((0, 2))
        self._vel = np.empty((0, 2))
        self._mass = np.empty(0)
        self._inv_mass = np.empty(0)
        self._radius = np.empty(0)
        self._shared_on = np.empty(0, dtype=bool)
        self._colors: list[str] = []
        self._free_mass: dict[str, float] = {}  # kg: what a fixed body weighed before it was fixed
        self._own_acc: list[list[Acceleration]] = []
        self._gravity = as_vector(gravity, "gravity")
        self._shared: list[Acceleration] = []
        for acc in accelerations:
            self.add_acceleration(acc)
        self._bounds = check_bounds(bounds)
        self._box = None  # (the bounds, as an array for the compiled step)
        self._rules = None  # (what the compiled step takes of the settings: `_rules_now`)
        self._restitution = check_fraction(restitution, "restitution")
        self._wall_restitution = check_fraction(wall_restitution, "wall_restitution")
        self.integrator = integrator
        self._acc_cache = np.empty((0, 2))
        self._scratch = np.ones(1, np.int64)  # the memory a step works in (`collisions.scratch`), grown as needed
        self._state_dependent = False
        self._rest = NO_REST  # which bodies stand still, and which are at rest (`collisions.still`)
        self._rest_for = None  # the revision it holds for (None: every body awake, from the next step)
        self._samplers: list = []
        self.collision_report: list | None = None
        """Set to a list to have each body-body collision appended to it as a `Collision`
        (the time of impact, the bodies in file order, their masses, velocities
        just before and just after)."""
        self.lesson = None
        """The scene's `Lesson` (None for a scene without one), kept true to the bodies and saved with them."""
        self._angles: dict[str, float] = {}  # degrees: the last direction set for a body (for one at rest)
        self.degraded = {"contacts": 0, "passes": 0, "log": 0}
        """How many steps a cap cut short: "contacts" (`stepping.EVENTS_PER_BODY`: a
        body's further contacts in the step were settled at its end), "passes"
        (`collisions.SEPARATION_PASSES_MOST`: overlaps were left for the next steps), "log"
        (more collisions in one step than `collision_report` holds: some went
        unlisted). See `DEGRADED`."""

    # -- settings ---------------------------------------------------------------
    @property
    def gravity(self) -> np.ndarray:
        """The shared gravity vector in m/s²."""
        return self._gravity.copy()

    @gravity.setter
    def gravity(self, value):
        self._gravity = as_vector(value, "gravity")
        self._changed()

    @property
    def bounds(self):
        """The box (xmin, ymin, xmax, ymax) in m, or None for no walls."""
        return self._bounds

    @bounds.setter
    def bounds(self, value):
        bounds = check_bounds(value)
        if bounds is not None and len(self._radius):
            widest = 2.0 * float(self._radius.max())
            if bounds[2] - bounds[0] < widest or bounds[3] - bounds[1] < widest:
                raise ValueError("bounds: the box is narrower than the largest body")
        self._bounds = bounds
        self._changed()

    @property
    def _bounds_array(self) -> np.ndarray:
        if self._box is None or self._box[0] != self._bounds:
            self._box = (self._bounds, np.array(self._bounds if self._bounds is not None else (), dtype=float))
        return self._box[1]

    @property
    def restitution(self) -> float:
        """Body-body restitution, 0 (perfectly inelastic) to 1 (elastic)."""
        return self._restitution

    @restitution.setter
    def restitution(self, value):
        self._restitution = check_fraction(value, "restitution")
        self._changed()

    @property
    def wall_restitution(self) -> float:
        """Body-wall restitution, 0 to 1."""
        return self._wall_restitution

    @wall_restitution.setter
    def wall_restitution(self, value):
        self._wall_restitution = check_fraction(value, "wall_restitution")
        self._changed()

    @property
    def integrator(self) -> str:
        """"kinematic", "semi-implicit-euler" or "euler"."""
        return self._integrator

    @integrator.setter
    def integrator(self, name):
        if name not in INTEGRATORS:
            raise ValueError(f"integrator: must be one of {', '.join(map(repr, INTEGRATORS))}, got {name!r}")
        self._integrator = name
        self._changed()

    # -- shared accelerations --------------------------------------------------------
    @property
    def accelerations(self) -> tuple:
        """The shared named accelerations besides gravity."""
        return tuple(self._shared)

    def add_acceleration(self, acceleration: Acceleration | str, vector=None) -> None:
        """Add a shared named acceleration: ``world.add_acceleration("wind", (0.5, 0))``."""
        add_named(self._shared, acceleration, vector)
        self._changed()

    def remove_acceleration(self, name: str) -> None:
        """Remove the named shared acceleration; KeyError if there is none."""
        remove_named(self._shared, name, "the world")
        self._changed()

    def set_acceleration(self, name: str, vector) -> None:
        """Give the named shared acceleration a new vector in m/s², keeping its place in the list."""
        replace_named(self._shared, name, vector, "the world")
        self._changed()

    # -- bodies ---------------------------------------------------------------------
    @property
    def bodies(self) -> tuple:
        """Every body, in the order they were added."""
        return tuple(self._handles)

    @property
    def names(self) -> tuple:
        return tuple(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def body(self, name: str) -> Body:
        """The named body; KeyError if there is none."""
        try:
            return self._handles[self._index[name]]
        except KeyError:
            raise KeyError(f"no body named {name!r}") from None

    def add_body(self, body: Body) -> None:
        """Add a standalone Body; from then on it is a handle onto this World."""
        self.add_bodies([body])

    def add_bodies(self, bodies) -> None:
        """Add standalone Bodies, all or none (ValueError naming the first bad one); the
        arrays grow once, however many there are."""
        bodies = list(bodies)
        names = set(self._index)
        for body in bodies:
            if body.world is not None:
                raise ValueError(f"body {body.name!r} already belongs to a world")
            if body.name in names:
                raise ValueError(f"name: {body.name!r} is used by another body")
            names.add(body.name)
            self._check_inside(body._own["position"], body._own["radius"])
        if not bodies:
            return
        own = [body._own for body in bodies]
        start = len(self._names)
        self._pos = np.concatenate([self._pos, np.array([o["position"] for o in own], float).reshape(-1, 2)])
        self._vel = np.concatenate([self._vel, np.array([o["velocity"] for o in own], float).reshape(-1, 2)])
        mass = np.array([o["mass"] for o in own], float)
        self._mass = np.concatenate([self._mass, mass])
        with np.errstate(divide="ignore"):
            self._inv_mass = np.concatenate([self._inv_mass, np.where(np.isinf(mass), 0.0, 1.0 / mass)])
        self._radius = np.concatenate([self._radius, np.array([o["radius"] for o in own], float)])
        self._shared_on = np.concatenate([self._shared_on, np.array([o["gravity"] for o in own], bool)])
        for k, (body, o) in enumerate(zip(bodies, own)):
            self._names.append(body.name)
            self._index[body.name] = start + k
            self._handles.append(body)
            self._colors.append(o["color"] or PALETTE[(start + k) % len(PALETTE)])
            self._own_acc.append(list(o["accelerations"]))
            body._world = self
            body._own = None
        self._changed(bodies=True)

    def remove_body(self, name: str) -> Body:
        """Remove the named body and return it, standalone again."""
        body = self.body(name)
        i = self._index[name]
        self._standalone(i)
        self._free_mass.pop(name, None)
        self._angles.pop(name, None)
        if self.lesson is not None:
            self.lesson = self.lesson.without_body(name)
        for attr in ("_pos", "_vel", "_mass", "_inv_mass", "_radius", "_shared_on"):
            setattr(self, attr, np.delete(getattr(self, attr), i, axis=0))
        for lst in (self._names, self._handles, self._colors, self._own_acc):
            del lst[i]
        self._index = {n: k for k, n in enumerate(self._names)}
        self._changed(bodies=True)
        return body

    def _standalone(self, i) -> None:
        """Make body i's handle standalone, with its values as they are now."""
        body = self._handles[i]
        body._own = {
            "mass": float(self._mass[i]), "radius": float(self._radius[i]),
            "position": self._pos[i].copy(), "velocity": self._vel[i].copy(),
            "color": self._colors[i], "gravity": bool(self._shared_on[i]),
            "accelerations": self._own_acc[i],
        }
        body._world = None

    def rename_body(self, old: str, new: str) -> None:
        """Call the body ``old`` ``new`` from now on, in the lesson's paths and predictions too."""
        from .body import check_name

        self.body(old)  # KeyError if there is none
        i = self._index[old]
        new = check_name(new)
        if new == old:
            return
        if new in self._index:
            raise ValueError(f"name: {new!r} is used by another body")
        self._handles[i]._name = new
        self._names[i] = new
        self._index = {n: k for k, n in enumerate(self._names)}
        for memo in (self._free_mass, self._angles):
            if old in memo:
                memo[new] = memo.pop(old)
        if self.lesson is not None:
            self.lesson = self.lesson.renamed(old, new)
        self._changed(bodies=True, physics=False)

    def _changed(self, bodies: bool = False, physics: bool = True):
        """Note an edit of the settings or the bodies (not of the motion); ``bodies``:
        of the set of bodies, their colours or their own acceleration lists; ``physics``:
        an edit that may change how they move, which wakes every body at rest (not a
        colour or a name)."""
        kept = not physics and self._rest_for == self._revision
        self._acc_dirty = True
        self._revision += 1
        if bodies:
            self._body_revision += 1
        if kept:
            self._rest_for = self._revision

    def _check_inside(self, position, radius):
        if self._bounds is None:
            return
        xmin, ymin, xmax, ymax = self._bounds
        x, y = (float(c) for c in position)
        radius = float(radius)
        if not (xmin + radius <= x <= xmax - radius and ymin + radius <= y <= ymax - radius):
            raise ValueError(
                f"position: ({x!r}, {y!r}) with radius {radius!r} is not inside the box {list(self._bounds)!r}"
            )

    def _set_mass(self, i, mass):
        if math.isinf(mass) and math.isfinite(self._mass[i]):
            self._free_mass[self._names[i]] = float(self._mass[i])  # for freeing it again
        self._mass[i] = mass
        self._inv_mass[i] = 0.0 if math.isinf(mass) else 1.0 / mass
        if math.isinf(mass):
            self._vel[i] = 0.0
        self._changed()

    def _set_radius(self, i, radius):
        self._check_inside(self._pos[i], radius)
        self._radius[i] = radius
        self._changed()

    def _set_position(self, i, vec):
        self._check_inside(vec, self._radius[i])
        self._pos[i] = vec
        self._rest_for = None

    def _set_velocity(self, i, vec):
        self._vel[i] = vec
        self._rest_for = None

    def _rest_now(self) -> np.ndarray:
        """Which bodies stand still and which are at rest (`collisions.still`): all awake
        after any edit (of the settings, the bodies, or a body's motion), and none ever
        at rest while an acceleration depends on the state."""
        if self._rest_for != self._revision or len(self._rest) != len(self._names) + 1:
            self._rest = still.awake(self._pos, self._vel, self.time) if self.put_to_rest and not self._state_dependent \
                else NO_REST
            self._rest_for = self._revision
        return self._rest

    # -- accelerations -----------------------------------------------------------------
    def _accelerations_now(self) -> np.ndarray:
        """Every body's summed acceleration (m/s²): its own list plus, where it opts in, the shared ones."""
        if self._acc_dirty:
            if self._own_for != self._body_revision:  # the sums of the bodies' own lists
                own = np.zeros((len(self._names), 2))
                state = False
                for i, lst in enumerate(self._own_acc):
                    for acc in lst:
                        if acc.constant:
                            own[i] += acc.vector
                        else:
                            state = True
                self._own_sum, self._own_state, self._own_for = own, state, self._body_revision
            shared = self._gravity.copy()
            state = self._own_state
            for acc in self._shared:
                if acc.constant:
                    shared += acc.vector
                else:
                    state = True
            total = self._own_sum + self._shared_on[:, None] * shared
            total[self._inv_mass == 0.0] = 0.0
            self._acc_cache = total
            self._state_dependent = state
            self._acc_dirty = False
        if not self._state_dependent:
            return self._acc_cache
        total = self._acc_cache.copy()
        for i in range(len(self._names)):
            if self._inv_mass[i] == 0.0:
                continue
            for acc in self._own_acc[i]:
                if not acc.constant:
                    total[i] += acc.at(self._pos, self._vel, i)
            if self._shared_on[i]:
                for acc in self._shared:
                    if not acc.constant:
                        total[i] += acc.at(self._pos, self._vel, i)
        return total

    # -- copying ----------------------------------------------------------------------------
    def __deepcopy__(self, memo):
        """A copy of everything but the block a step works in (`collisions.scratch`): the copy
        starts with an empty one of its own, rather than a copy of megabytes it may never use."""
        out = self.__class__.__new__(self.__class__)
        memo[id(self)] = out
        out.__dict__.update({name: np.ones(1, np.int64) if name == "_scratch" else copy.deepcopy(value, memo)
                             for name, value in self.__dict__.items()})
        return out

    # -- output -------------------------------------------------------------------------------
    def _settings_now(self) -> Settings:
        if self._settings is None or self._settings[0] != self._revision:
            self._settings = (self._revision, Settings(
                tuple(float(g) for g in self._gravity), named_vectors(self._shared), self._restitution,
                self._wall_restitution, self._integrator, self._bounds, tuple(self._angles.items())))
        return self._settings[1]

    def _bodies_now(self) -> tuple:
        """(names, colours, own lists as `named_vectors`, own lists), kept until a body is edited."""
        if self._body_part is None or self._body_part[0] != self._body_revision:
            self._body_part = (self._body_revision, tuple(self._names), tuple(self._colors),
                               tuple(named_vectors(lst) for lst in self._own_acc),
                               tuple(tuple(lst) for lst in self._own_acc))
        return self._body_part[1:]

    def snapshot(self) -> Snapshot:
        """A frozen copy of this instant."""
        names, colors, own, _ = self._bodies_now()
        return Snapshot.build(self.time, names, self._pos, self._vel, self._accelerations_now(),
                              self._mass, self._radius, colors, self._bounds,
                              self._settings_now(), own, self._shared_on, self._revision)
