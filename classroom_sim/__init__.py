"""classroom-sim's engine: bodies, accelerations, collisions, scenes, recording. numpy only, never Qt.

>>> from classroom_sim import load_scene
>>> world = load_scene("lessons/projectile.toml")    # doctest: +SKIP
>>> world.step(0.01)                                 # doctest: +SKIP
"""

from . import commands
from .accelerations import Acceleration, ConstantAcceleration
from .body import Body
from .collision_log import COLUMNS as COLLISION_COLUMNS, Collision, CollisionLog, write_collisions_csv
from .recording import Recorder, Recording, read_csv
from .cli import default_lesson, lesson_files
from .commands import CommandError
from .compiled import jit
from .events import Answer, EventError, Measurement, Watch, answer_key, first_crossing, run_until
from .energy import Energy, energy
from .files import write_atomically
from .integrators import INTEGRATORS
from .lesson import Control, Lesson, Prediction, Step, Variant
from .params import param_unit, read_param
from .saving import dumps_scene, save_scene
from .scene import SceneError, load_scene, loads_scene
from .simulation import Simulation, warm_up
from .snapshot import Settings, Snapshot
from .variants import MAX_STUDENTS, Drawn, Sheet, VariantError, sheets, student_world
from .world import DEGRADED, World

__all__ = [
    "Acceleration",
    "Answer",
    "Body",
    "COLLISION_COLUMNS",
    "Collision",
    "CollisionLog",
    "CommandError",
    "ConstantAcceleration",
    "Control",
    "Energy",
    "DEGRADED",
    "Drawn",
    "EventError",
    "INTEGRATORS",
    "Lesson",
    "MAX_STUDENTS",
    "Measurement",
    "Prediction",
    "Recorder",
    "Recording",
    "SceneError",
    "Settings",
    "Sheet",
    "Simulation",
    "Snapshot",
    "Step",
    "Variant",
    "VariantError",
    "Watch",
    "World",
    "answer_key",
    "commands",
    "default_lesson",
    "dumps_scene",
    "energy",
    "first_crossing",
    "jit",
    "lesson_files",
    "load_scene",
    "loads_scene",
    "read_csv",
    "param_unit",
    "read_param",
    "run_until",
    "save_scene",
    "sheets",
    "student_world",
    "warm_up",
    "write_atomically",
    "write_collisions_csv",
]
