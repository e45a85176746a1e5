"""What the ui tests share: a bridge over a World the test steps itself, and small scenes."""

from PySide6.QtCore import QObject, Signal

from classroom_sim import Body, Recorder, World

G = 9.81


class FakeBridge(QObject):
    """The bridge's recording verbs over a World stepped by the test (no thread: exact and quick)."""

    snapshot = Signal(object)

    def __init__(self, world):
        super().__init__()
        self.world = world
        self.recorder = None
        self.asked = []
        self.replaying = False

    @property
    def recording(self):
        return self.recorder is not None and self.recorder.next_time is not None

    def record(self, on, rate, done=None):
        self.recorder = Recorder(self.world, rate) if on else self.recorder
        if done is not None:
            done(True)

    def samples_since(self, k):
        self.asked.append(k)
        return self.recorder, (self.recorder.since(k) if self.recorder is not None else [])

    def run(self, until):
        self.world.advance_to(until)
        self.snapshot.emit(self.world.snapshot())


def two_balls():
    w = World(gravity=(0.0, -G))
    w.add_body(Body("red", 1.0, 0.1, (0.0, 100.0), (2.0, 0.0), color="#d9534f"))
    w.add_body(Body("blue", 3.0, 0.1, (5.0, 200.0), (0.0, 4.0), color="#2a6fdb"))
    return w


def falling_world():
    world = World(gravity=(0.0, -G))
    world.add_body(Body("ball", 1.0, 0.1, (0.0, 10.0)))
    return world
