"""The tools in the window: a "Tools" toolbar group and menu, each tool with a
shortcut and a tooltip.

The mouse tools take turns (one at a time: the pointer, which selects, drags and
pans; the tape measure; the launcher); Esc goes back to the pointer. The motion
diagram is shown or not, with its Δt in its own menu. The pointer's coordinates
are always in the status bar.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QToolBar, QToolButton

from .launcher import Launcher
from .motion import INTERVALS, MotionDiagram
from .tape import Tape


class Toolbox:
    """Builds the tools of ``window`` (a MainWindow: its canvas, bridge, status line)."""

    def __init__(self, window, rate: float):
        self.window = window
        canvas = self.canvas = window.canvas
        self.tape = Tape()
        self.launcher = Launcher()
        self.motion = MotionDiagram(window.bridge, rate)
        canvas.overlays.extend([self.motion, self.tape, self.launcher])
        canvas.pointer.connect(window.status_line.point)

        self.group = QActionGroup(window)
        self.group.setExclusive(True)
        self.pointer_action = self._mouse("Pointer", None, "Esc",
                                          "Select, drag and throw bodies, pan the view (Esc)")
        self.tape_action = self._mouse("Tape measure", self.tape, "M",
                                       "Drag between two points to measure the distance; an end snaps to a "
                                       "body's centre (and follows it) or to the floor (M)")
        self.launcher_action = self._mouse("Launcher", self.launcher, "L",
                                           "Drag out from a body to set its velocity: speed and angle show as "
                                           "you drag, Shift for 15° steps (L)")
        self.pointer_action.setChecked(True)

        self.motion_action = QAction("Motion diagram", window, checkable=True)
        self.motion_action.setShortcut("D")
        self.motion_action.setToolTip("The selected body's position as a dot every Δt: the strobe picture (D)")
        self.motion_action.toggled.connect(self.show_motion)
        window.addAction(self.motion_action)
        self.intervals = QMenu("Motion diagram Δt", window)
        every = QActionGroup(self.intervals)
        for dt in INTERVALS:
            a = self.intervals.addAction(f"a dot every {dt:g} s")
            a.setCheckable(True)
            a.setChecked(dt == self.motion.interval)
            a.triggered.connect(lambda _=False, dt=dt: self.set_interval(dt))
            every.addAction(a)

        self.toolbar = QToolBar("Tools")
        self.toolbar.setObjectName("tools")
        self.toolbar.setToolButtonStyle(Qt.ToolButtonTextOnly)
        for action in (self.pointer_action, self.tape_action, self.launcher_action):
            self.toolbar.addAction(action)
        self.toolbar.addAction(self.motion_action)
        button = self.toolbar.widgetForAction(self.motion_action)
        if isinstance(button, QToolButton):
            button.setMenu(self.intervals)
            button.setPopupMode(QToolButton.MenuButtonPopup)
        self.menu = QMenu("&Tools", window)
        for action in (self.pointer_action, self.tape_action, self.launcher_action, self.motion_action):
            self.menu.addAction(action)
        self.menu.addMenu(self.intervals)
        canvas.key_actions.update({Qt.Key_Escape: self.pointer_action, Qt.Key_M: self.tape_action,
                                   Qt.Key_L: self.launcher_action, Qt.Key_D: self.motion_action})
        window.addToolBarBreak()  # a row of its own, under the time controls
        window.addToolBar(self.toolbar)
        menus = window.menuBar()
        titles = [a.text() for a in menus.actions()]
        after = titles.index("&View") + 1 if "&View" in titles else len(titles)
        if after < len(titles):
            menus.insertMenu(menus.actions()[after], self.menu)  # beside View
        else:
            menus.addMenu(self.menu)

    def _mouse(self, text, tool, key, tip) -> QAction:
        action = QAction(text, self.window, checkable=True)
        action.setShortcut(key)
        action.setToolTip(tip)
        action.setStatusTip(tip)
        action.triggered.connect(lambda _=False: self.use(tool))
        self.group.addAction(action)
        self.window.addAction(action)
        return action

    def add(self, action: QAction) -> None:
        """Put another tool's action (the stopwatch's) in the group's toolbar and menu."""
        self.toolbar.addAction(action)
        self.menu.addAction(action)

    def use(self, tool) -> None:
        """Let the mouse work ``tool`` (None: the pointer); the one put away forgets its drawing."""
        canvas = self.canvas
        if canvas.tool is not None and canvas.tool is not tool:
            canvas.tool.stop(canvas)
        canvas.tool = tool
        {None: self.pointer_action, self.tape: self.tape_action,
         self.launcher: self.launcher_action}[tool].setChecked(True)
        if tool is None:
            canvas.unsetCursor()
        else:
            canvas.setCursor(Qt.CrossCursor)
        canvas.update()

    def show_motion(self, on: bool) -> None:
        self.motion.show(on)
        if self.motion_action.isChecked() != bool(on):
            self.motion_action.setChecked(bool(on))
        self.canvas.update()

    def set_interval(self, dt: float) -> None:
        self.motion.set_interval(dt)
        self.canvas.update()
