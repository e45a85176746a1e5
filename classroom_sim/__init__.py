"""classroom-sim's engine: bodies, accelerations, collisions, scenes, recording. numpy only, never Qt.

>>> from classroom_sim import load_scene
>>> world = load_scene("lessons/projectile.toml")    # doctest: +SKIP
>>> world.step(0.01)                                 # doctest: +SKIP
"""

from .accelerations import Acceleration, ConstantAcceleration
from .body import Body
from .recording import Recorder, Recording, read_csv
from .scene import SceneError, dumps_scene, load_scene, loads_scene, save_scene
from .snapshot import Snapshot
from .world import World

__all__ = [
    "Acceleration",
    "Body",
    "ConstantAcceleration",
    "Recorder",
    "Recording",
    "SceneError",
    "Snapshot",
    "World",
    "dumps_scene",
    "load_scene",
    "loads_scene",
    "read_csv",
    "save_scene",
]
