"""The desktop app's entry points: ``main`` opens the window on a scene; ``screenshot``
renders a scene's canvas at a given time to a PNG with no window (`render`: the image).

The engine's command line finds both through the ``classroom_sim.apps`` entry
points, so the engine never imports this package.
"""

from __future__ import annotations

import getpass
import os
import signal
import sys
import threading

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QPixmap
from PySide6.QtWidgets import QApplication, QSplashScreen

from classroom_sim import load_scene

SCREENSHOT_SIZE = (1200, 800)
"""Pixels of a screenshot when no --size is given."""


def _application(headless: bool = False) -> QApplication:
    """The application (made once). ``headless``: for what draws no window (a picture, a
    worksheet), on Qt's offscreen platform, so that it works with no display at all (a
    server, a terminal over ssh), unless QT_QPA_PLATFORM names another."""
    if headless and QApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("classroom-sim")
    app.setOrganizationName("classroom-sim")
    return app


PREPARING = ("classroom-sim: getting the physics and the drawing ready\n"
             "The first run on a computer takes about two minutes; later ones a few seconds.")
"""What the notice says while the app prepares (`prepare`)."""


def prepare(app: QApplication) -> QSplashScreen:
    """Compile (or load from numba's cache) the canvas's drawing and the engine's step before
    the window opens, a notice on screen meanwhile (the step compiles in a thread, while this
    one keeps the notice drawn): on a machine's first run they take about two minutes, and a
    window opened first stayed black all that time, as if hung. Returns the notice, to be
    closed once the window shows (``finish``)."""
    from classroom_sim import warm_up
    from .raster import warm_up as warm_up_drawing

    picture = QPixmap(900, 160)
    picture.fill(QColor("#f4f4f0"))
    notice = _Notice(picture)
    font = notice.font()
    font.setPointSizeF(font.pointSizeF() * 1.5)  # (read from the back of a classroom too)
    notice.setFont(font)
    notice.showMessage(PREPARING, Qt.AlignCenter, QColor("#202020"))
    notice.show()
    app.processEvents()
    warm_up_drawing()  # (first: numba compiles one thing at a time, and this takes a second)
    step = threading.Thread(target=warm_up, name="classroom-sim prepare", daemon=True)
    step.start()
    while step.is_alive():
        app.processEvents()
        step.join(0.05)
    return notice


class _Notice(QSplashScreen):
    """A notice that stays up when clicked (a splash screen hides on a click by default, and
    the screen would then stay empty until the window opens)."""

    def mousePressEvent(self, event) -> None:
        event.accept()


def main(scene_path: str, student: bool = False, browse: bool = True) -> int:
    """Open the main window on the scene file (SceneError, before any window, if it is bad);
    in student mode if ``student`` or if the lesson says so; with the lessons browser over it
    if ``browse`` (the default lesson: the start page), as the teacher's settings allow."""
    world = load_scene(scene_path)
    app = _application()
    notice = prepare(app)
    from .main_window import MainWindow

    try:
        window = MainWindow(world, scene_path, student=student)
    except BaseException:
        notice.close()
        raise
    window.show()
    notice.finish(window)
    window.canvas.fit()
    from .browser import shows_at_start

    if browse and not window.student and shows_at_start(window.settings):
        QTimer.singleShot(0, window.open_browser)  # the start page: the lessons, over the default one
    # Ctrl-C in the terminal closes the window (and so stops the physics thread). Python
    # handles signals only between bytecodes: a timer lets it look now and then.
    previous = signal.signal(signal.SIGINT, lambda *_: window.close())
    tick = QTimer()
    tick.timeout.connect(lambda: None)
    tick.start(200)
    try:
        return app.exec()
    finally:
        tick.stop()
        signal.signal(signal.SIGINT, previous)
        window.bridge.close()


def screenshot(world, out_path: str, size=SCREENSHOT_SIZE, projector: bool = False, advance=None,
               trail_seconds: float | None = None) -> None:
    """Render ``world`` as the canvas would show it, fitted to an image of ``size``
    pixels, and write it to ``out_path`` as PNG (complete or not at all).

    ``advance(each)``, if given, first brings the world to the picture's time and calls
    ``each(world)`` after every step: the trail the bodies leave on the way is drawn
    too, its last ``trail_seconds`` (the canvas's own length unless given)."""
    from .picture import save_image

    save_image(render(world, size, projector, advance, trail_seconds), out_path)


def render(world, size=SCREENSHOT_SIZE, projector: bool = False, advance=None,
           trail_seconds: float | None = None):
    """The QImage `screenshot` writes: ``world`` as the canvas shows it, with no window."""
    _application(headless=True)
    from .bridge import SimulationBridge
    from .canvas import Canvas
    from .trails import Trails, trail_rows
    from .view import Display

    seconds = Display().trail_seconds if trail_seconds is None else float(trail_seconds)
    trails = Trails()

    def sample(w) -> None:
        if trails.due(w.time):
            snap = w.snapshot()
            trails.add(snap, seconds, trail_rows(snap, None))

    if advance is not None:
        sample(world)
        advance(sample)
    bridge = SimulationBridge(world, start=False)
    try:
        canvas = Canvas(bridge)
        canvas.trails = trails
        canvas.display.trail_seconds = seconds
        canvas.display.projector = projector
        canvas.resize(*size)
        canvas.view.width, canvas.view.height = size
        canvas.fit()
        return canvas.render_image(*size)
    finally:
        bridge.close()


def set_pin(ask=getpass.getpass, settings=None) -> int:
    """``classroom-sim set-pin``: ask twice for the teacher's PIN (not echoed) and keep its
    salted hash in the user's settings. Exit status 2, with one line, if it is refused."""
    from PySide6.QtCore import QSettings

    from .student import pin_problem, store_pin

    try:
        first = ask("Teacher's PIN: ")
        second = ask("The same PIN again: ")
    except (EOFError, KeyboardInterrupt):
        print("\nclassroom-sim: no PIN was set", file=sys.stderr)
        return 2
    problem = pin_problem(first, second)
    if problem:
        print(f"classroom-sim: {problem}; no PIN was set", file=sys.stderr)
        return 2
    settings = settings or QSettings("classroom-sim", "classroom-sim")
    store_pin(settings, first)
    print("The teacher's PIN is set: the app asks for it to leave student mode.")
    return 0
