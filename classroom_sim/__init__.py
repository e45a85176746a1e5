"""classroom-sim's engine: bodies, accelerations, collisions, scenes, recording. numpy only, never Qt."""

from .accelerations import Acceleration, ConstantAcceleration
from .body import Body
from .snapshot import Snapshot
from .world import World

__all__ = ["Acceleration", "Body", "ConstantAcceleration", "Snapshot", "World"]
