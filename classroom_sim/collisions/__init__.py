"""Collisions, one idea a module (SCENE_FORMAT.md, "Collisions"):

- `motion`: the bodies of a step in one structure (`Bodies`), the step's
  rules (`Rules`), the collision log (`Log`), and moving a body along its path.
- `broad`: the broad phase, which pairs may touch within a step (a grid).
- `redrawn`: during a step, the new neighbours of a body whose disc was drawn anew.
- `schedule`: the contact schedule, when two bodies or a body and a wall first
  touch (time of impact), and the queue of contacts in time order.
- `contacts`: two bodies' collision (the one-dimensional formula in the frame
  tilted to the line of centres), and when a slow approach is a resting contact.
- `supports`: what touches at an instant, support levels from the ground up, loads.
- `passes`: the passes over resting contacts that settle their velocities.
- `velocities`: the velocities of a step's end's resting contacts (the passes, island
  by island, then level by level), no kinetic energy made.
- `resting`: settling what touches at a step's end: which contacts rest, their
  velocities, positions that follow them, half-overlap separation.
- `separation`: what still overlaps pushed apart, half the overlap each.
- `walls`: reaching a wall, bouncing off it, resting on it, and staying inside the box.
- `scratch`: the memory a step works in, from one block the World keeps.
- `still`: bodies that stand still, put to rest until something reaches them.

Their loops are compiled by numba (see `compiled`), without the GIL, so that the
GUI thread keeps painting while the physics thread is inside one.
"""

from .broad import candidate_pairs, merge_pairs, pairs_again, plan, where
from .motion import Bodies, Log, Rules
from .velocities import VELOCITY_PASSES
from .separation import OVERLAP_TOLERANCE, SEPARATION_PASSES, SEPARATION_PASSES_MOST
from .schedule import METHODS, SQUARE

__all__ = ["Bodies", "Log", "METHODS", "OVERLAP_TOLERANCE", "Rules", "SEPARATION_PASSES",
           "SEPARATION_PASSES_MOST", "SQUARE",
           "VELOCITY_PASSES", "candidate_pairs", "merge_pairs", "pairs_again", "plan", "where"]
