"""Energy and momentum of one instant: what a class checks for conservation.

Kinetic energy ½ m v² and momentum m v of every movable body (a fixed body has
infinite mass and never moves: it counts for nothing). Potential energy is that
of the World's gravity, m g h, for every body that feels it: h is measured
against g from where the body would rest on the floor (its lowest point on the
box's lowest wall, or corner for a slanted g), so a ball lying on the floor has
none; without a box, from where each body started (``start``). The other shared
accelerations and a body's own are pushes, not fields with a potential here: their
work shows as a change of the total.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class Energy:
    """Per body (``kinetic``, ``potential``, J; ``momentum``, kg·m/s, (N, 2)) and their totals."""

    kinetic: np.ndarray
    potential: np.ndarray
    momentum: np.ndarray

    @property
    def total_kinetic(self) -> float:
        return float(self.kinetic.sum())

    @property
    def total_potential(self) -> float:
        return float(self.potential.sum())

    @property
    def total(self) -> float:
        """Kinetic plus potential energy (J)."""
        return self.total_kinetic + self.total_potential

    @property
    def total_momentum(self) -> tuple:
        """(px, py) in kg·m/s."""
        p = self.momentum.sum(axis=0) if len(self.momentum) else np.zeros(2)
        return float(p[0]), float(p[1])


def energy(snapshot, start=None) -> Energy:
    """The energy and momentum of ``snapshot``; ``start``: each body's starting position
    (N, 2), the zero of its potential energy when there is no box (the origin if None)."""
    masses = np.asarray(snapshot.masses, dtype=float)
    m = np.where(np.isfinite(masses), masses, 0.0)
    v = np.asarray(snapshot.velocities, dtype=float).reshape(-1, 2)
    pos = np.asarray(snapshot.positions, dtype=float).reshape(-1, 2)
    kinetic = 0.5 * m * (v * v).sum(axis=1)
    momentum = m[:, None] * v
    g = np.asarray(snapshot.settings.gravity if snapshot.settings is not None else (0.0, 0.0), dtype=float)
    strength = float(np.hypot(g[0], g[1]))
    potential = np.zeros(len(m))
    if strength > 0.0 and len(m):
        down = g / strength
        height = -(pos @ down)  # up is against g
        if snapshot.bounds is not None:
            xmin, ymin, xmax, ymax = snapshot.bounds
            corners = np.array([(xmin, ymin), (xmax, ymin), (xmin, ymax), (xmax, ymax)])
            floor = -(corners @ down).max()  # the lowest point of the box, along g
            height = height - floor - np.asarray(snapshot.radii, dtype=float)
        else:
            base = np.zeros_like(pos) if start is None else np.asarray(start, dtype=float).reshape(-1, 2)
            height = height + base @ down
        feels = np.asarray(snapshot.shared_on, dtype=bool) if snapshot.shared_on is not None else np.ones(len(m), bool)
        potential = np.where(feels, m * strength * height, 0.0)
    return Energy(kinetic, potential, momentum)
