"""MainWindow: the canvas, the toolbar (time, recording, export), the lesson panel, the
world panel and the inspector in docks, the status bar, the message bar, menus, recent
files, reset that respects live edits, and the switches of student mode."""

from __future__ import annotations

import copy
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QFrame,
    QLabel,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from classroom_sim import commands

from .bridge import SimulationBridge
from .canvas import Canvas
from .panels.energy import EnergyPanel, Starts
from .panels.collisions import CollisionsPanel
from .panels.graphs import GraphsPanel
from .tools.toolbox import Toolbox
from .tools import stopwatch
from . import timeline
from .panels.inspector import Inspector
from .panels.lesson import LessonPanel
from .panels.table import TablePanel
from .keys import KeysToEditors
from .panels.world_panel import WorldPanel
from .window_files import FileVerbs
from .recent import RecentFiles
from .status import MessageBar, StatusLine
from .student import StudentLock
from .trails import length_box

TIME_SCALES = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
RECORD_RATE = 100.0
FULL = ("The recording is full, so recording stopped. What was recorded is kept: export it, "
        "or clear it (Simulation › Clear recording) to record again.")
"""Samples per simulated second while recording."""


class MainWindow(FileVerbs, QMainWindow):
    def __init__(self, world, path=None, settings: QSettings | None = None, student: bool = False):
        super().__init__()
        self.settings = settings or QSettings("classroom-sim", "classroom-sim")
        self.lock = StudentLock(self)
        self.start_world = copy.deepcopy(world)  # the scene as loaded: each lesson step starts from it
        self.bridge = SimulationBridge(world, self)
        try:
            self._build(world, path, student)
        except BaseException as failure:
            # (its physics thread stopped, and no bridge left open to keep collection off:
            # `bridge`; the build's own error is the one raised, whatever closing says)
            try:
                self.bridge.close()
            except Exception as closing:
                failure.add_note(f"and closing the window's simulation failed: {closing!r}")
            raise

    def _build(self, world, path, student) -> None:
        """Everything of the window but its bridge (`__init__`)."""
        self.path = Path(path) if path else None
        self.canvas = Canvas(self.bridge)
        self.messages = MessageBar()
        central = QWidget()
        col = QVBoxLayout(central)
        col.setContentsMargins(4, 4, 4, 4)
        col.addWidget(self.messages)
        col.addWidget(self.canvas, 1)
        self.central_column = col
        self.setCentralWidget(central)

        self.docks: list = []
        self.world_panel = WorldPanel(self.bridge)
        self.starts = Starts()
        self.inspector = Inspector(self.bridge, self.starts)
        self.energy_panel = EnergyPanel(self.bridge, self.starts)
        world_dock = self._dock("World", self.world_panel)
        self.inspector_dock = self._dock("Selected body", self.inspector)
        self.energy_dock = self._dock("Energy", self.energy_panel)
        self.tabifyDockWidget(world_dock, self.inspector_dock)  # one column, full height each
        self.tabifyDockWidget(self.inspector_dock, self.energy_dock)
        world_dock.raise_()
        self.graphs_panel = GraphsPanel(self.bridge, RECORD_RATE)
        self.graphs_dock = QDockWidget("Graphs", self)  # below the canvas; not one of the side panels
        self.graphs_dock.setObjectName("Graphs")
        self.graphs_dock.setWidget(self.graphs_panel)
        self.addDockWidget(Qt.BottomDockWidgetArea, self.graphs_dock)
        self.graphs_dock.hide()
        self.table_panel = TablePanel(self.bridge, RECORD_RATE)
        self.table_dock = self.table_panel.dock_in(self, beside=self.graphs_dock)  # a tab beside the graphs
        self.collisions_panel = CollisionsPanel(self.bridge)
        self.collisions_dock = self.collisions_panel.dock_in(self, beside=self.table_dock)
        self.lesson_panel = LessonPanel(self.bridge)
        self.lesson_dock = self._dock("Lesson", self.lesson_panel, Qt.LeftDockWidgetArea)
        self.lesson_dock.widget().setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.lesson_dock.setMinimumWidth(360)
        self.lesson_panel.marker.connect(self.canvas.set_marker)

        self._build_actions()
        self._build_toolbar()
        self._build_menus()
        self._build_status()
        self.toolbox = Toolbox(self, RECORD_RATE)  # the classroom's tools: a toolbar group, a menu, shortcuts
        self.stopwatch = stopwatch.install(self)  # its panel, overlay and action (W): `stopwatch_action`
        self.timeline = timeline.install(self)  # replay, under the canvas: , . Home End
        replay = self.simulation_menu.addMenu("Replay")
        for action in self.timeline.menu_actions:
            replay.addAction(action)

        self.bridge.revised.connect(self._revised)
        self.bridge.snapshot.connect(self._snapshot)
        self.bridge.refused.connect(self._refused)
        self.bridge.failed.connect(self.messages.say)
        self.bridge.replaced.connect(self._replaced)
        self.canvas.selected.connect(self._selected)
        self.canvas.selected.connect(self.graphs_panel.set_selected)
        self.canvas.selected.connect(self.table_panel.set_selected)
        self._said_full = False
        self._status_timer = QTimer(self)
        self._status_timer.setInterval(250)
        self._status_timer.timeout.connect(self._update_status)
        self._status_timer.start()
        self._set_title(world)
        self.resize(1280, 800)
        self._show_lesson()
        self._revised(self.bridge.latest)
        self.canvas.setFocus()
        self._keys = KeysToEditors(self)
        QApplication.instance().installEventFilter(self._keys)
        self.set_student_mode(student or bool(self.start_world.lesson and self.start_world.lesson.student))
        QTimer.singleShot(0, self._size_docks)

    # -- building ---------------------------------------------------------------------------
    def _dock(self, title, widget, area=Qt.RightDockWidgetArea) -> QDockWidget:
        scroll = QScrollArea()
        scroll.setWidget(widget)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.NoFrame)
        dock = QDockWidget(title, self)
        dock.setObjectName(title)
        dock.setWidget(scroll)
        dock.setFeatures(QDockWidget.DockWidgetMovable | QDockWidget.DockWidgetFloatable)
        self.addDockWidget(area, dock)
        self.docks.append(dock)
        return dock

    def _action(self, text, slot, shortcut=None, checkable=False, tip=None) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcuts([QKeySequence(s) for s in (shortcut if isinstance(shortcut, tuple) else (shortcut,))])
        action.setCheckable(checkable)
        if tip:
            action.setToolTip(tip)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        d = self.canvas.display
        self.play_action = self._action("Play", self.toggle_play, "Space", tip="Play or pause (Space)")
        self.step_action = self._action("Step", self.step, "Right", tip="Advance one frame, 1/60 s (→)")
        self.reset_action = self._action("Reset", self.reset, "R",
                                         tip="Back to the start of the step, or of the scene (R)")
        self.lesson_start_action = self._action("Back to lesson start", self.back_to_lesson_start,
                                                tip="Back to the first step of the lesson, as it was opened")
        self.record_action = self._action("Record", self.toggle_record, checkable=True,
                                          tip=f"Record every body {RECORD_RATE:g} times a simulated second")
        self.clear_record_action = self._action("Clear recording", self.clear_recording,
                                                tip="Throw the recording away (Record off and on again appends)")
        self.export_action = self._action("Export CSV…", self.export_csv, "Ctrl+E", tip="Save the recording as CSV")
        self.png_action = self._action("Save picture…", self.save_png, "Ctrl+P", tip="Save the canvas as a PNG")
        self.worksheet_action = self._action("Print worksheet…", self.print_worksheet,
                                             tip="The lesson as a PDF worksheet, a page per student, and its key")
        self.lessons_action = self._action("Lessons…", self.open_browser, "Ctrl+L",
                                           tip="Choose a lesson: by topic, your own, or recent (Ctrl+L)")
        self.open_action = self._action("Open scene…", self.open_scene, QKeySequence.Open)
        self.save_action = self._action("Save scene as…", self.save_scene, QKeySequence.SaveAs)
        self.quit_action = self._action("Quit", self.close, QKeySequence.Quit)
        self.delete_action = self._action("Delete selected body", self.delete_selected, ("Delete", "Backspace"))
        self.zoom_in_action = self._action("Zoom in", lambda: self.canvas.zoom(1.25),
                                           (QKeySequence(Qt.Key_Plus), QKeySequence(Qt.Key_Equal)))
        self.zoom_out_action = self._action("Zoom out", lambda: self.canvas.zoom(0.8), QKeySequence(Qt.Key_Minus))
        self.fit_action = self._action("Fit to view", self.canvas.fit, "F")
        self.velocity_action = self._action("Velocity arrows", lambda on: self._show("velocity", on), "V", True)
        self.acceleration_action = self._action("Acceleration arrows", lambda on: self._show("acceleration", on),
                                                "A", True)
        self.named_action = self._action("Named accelerations", lambda on: self._show("named", on), checkable=True)
        self.trails_action = self._action("Trails", lambda on: self._show("trails", on), "T", True)
        self.names_action = self._action("Names", lambda on: self._show("names", on), "N", True)
        self.projector_action = self._action("Projector mode", self.set_projector, "F5", True,
                                             tip="Larger type, thicker lines, high contrast")
        self.student_action = self._action("Student mode", lambda: self.set_student_mode(True),
                                           tip="Lock editing: only the lesson and the time controls work")
        self.unlock_action = self._action("Leave student mode…", self.unlock,
                                          tip="The teacher's PIN unlocks editing again")
        self.canvas.key_actions = {
            Qt.Key_Space: self.play_action, Qt.Key_Right: self.step_action, Qt.Key_R: self.reset_action,
            Qt.Key_Delete: self.delete_action, Qt.Key_Backspace: self.delete_action,
            Qt.Key_Plus: self.zoom_in_action, Qt.Key_Equal: self.zoom_in_action, Qt.Key_Minus: self.zoom_out_action,
            Qt.Key_F: self.fit_action,
        }
        self.velocity_action.setChecked(d.velocity)
        self.acceleration_action.setChecked(d.acceleration)
        self.trails_action.setChecked(d.trails)
        self.names_action.setChecked(d.names)

    def _build_toolbar(self) -> None:
        bar = QToolBar("Time")
        bar.setObjectName("time")
        bar.setMovable(False)
        bar.setToolButtonStyle(Qt.ToolButtonTextOnly)
        self.toolbar = bar
        for action in (self.play_action, self.step_action, self.reset_action):
            bar.addAction(action)
        bar.addSeparator()
        bar.addWidget(QLabel(" Speed "))
        self.speed = QComboBox()
        for s in TIME_SCALES:
            self.speed.addItem(f"{s:g}×", s)
        self.speed.setCurrentIndex(TIME_SCALES.index(1.0))
        self.speed.setToolTip("Time scale: slow motion below 1×, fast forward above")
        self.speed.currentIndexChanged.connect(lambda k: self.set_time_scale(self.speed.itemData(k)))
        bar.addWidget(self.speed)
        bar.addSeparator()
        self.graphs_action = self._action("Graphs", self.show_graphs, "G", checkable=True,
                                          tip="Live graphs of the recording against time (G)")
        self.graphs_dock.visibilityChanged.connect(lambda _: self.graphs_action.setChecked(self.graphs_dock.isVisible()))
        self.canvas.key_actions[Qt.Key_G] = self.graphs_action
        for action in (self.record_action, self.export_action, self.png_action, self.graphs_action):
            bar.addAction(action)
        bar.addSeparator()
        for action in (self.velocity_action, self.acceleration_action, self.trails_action):
            bar.addAction(action)
        self.trail_seconds = length_box(self.canvas.display, self.canvas.update)
        bar.addWidget(self.trail_seconds)
        bar.addAction(self.fit_action)
        self.addToolBar(bar)

    def _build_menus(self) -> None:
        menus = self.menuBar()
        file = menus.addMenu("&File")
        file.addAction(self.lessons_action)
        file.addAction(self.open_action)
        self.recent_menu = file.addMenu("Open recent")
        file.addAction(self.save_action)
        file.addSeparator()
        file.addAction(self.export_action)
        file.addAction(self.png_action)
        file.addAction(self.worksheet_action)
        file.addSeparator()
        file.addAction(self.quit_action)
        sim = self.simulation_menu = menus.addMenu("&Simulation")
        for action in (self.play_action, self.step_action, self.reset_action, self.lesson_start_action,
                       self.record_action, self.clear_record_action):
            sim.addAction(action)
        sim.addSeparator()
        sim.addAction(self.delete_action)
        view = menus.addMenu("&View")
        for action in (self.velocity_action, self.acceleration_action, self.named_action, self.trails_action,
                       self.names_action):
            view.addAction(action)
        view.addSeparator()
        for action in (self.zoom_in_action, self.zoom_out_action, self.fit_action):
            view.addAction(action)
        view.addSeparator()
        view.addAction(self.projector_action)
        view.addSeparator()
        view.addAction(self.graphs_action)
        view.addAction(self.table_dock.toggleViewAction())
        view.addAction(self.collisions_dock.toggleViewAction())
        self.panel_actions = [dock.toggleViewAction() for dock in self.docks]
        for action in self.panel_actions:
            action.setText(f"{action.text()} panel")
            view.addAction(action)
        teacher = menus.addMenu("&Teacher")
        teacher.addAction(self.student_action)
        teacher.addAction(self.unlock_action)
        self.recent = RecentFiles(self.settings, self.recent_menu, self.open_scene_file)
        self.recent.fill()

    def _build_status(self) -> None:
        self.status_line = StatusLine(self.statusBar())

    # -- time ---------------------------------------------------------------------------------
    def toggle_play(self) -> None:
        self.bridge.toggle_play(lambda ok: self._update_play())

    def step(self) -> None:
        self.bridge.step_once(lambda ok: self._update_play())

    def reset(self) -> None:
        """In a lesson, back to the start of the current step. In a free scene, back to its
        start; live edits are not thrown away without asking."""
        self.canvas.trails.clear()
        if self.lesson_panel.lesson is not None and self.lesson_panel.lesson.steps:
            self.lesson_panel.enter_step(self.lesson_panel.step)
            return
        if self.bridge.edited_since_start:
            choice = self.ask_keep_edits()
            if choice == "cancel":
                return
            if choice == "keep":
                self.bridge.keep_as_start()
                self.statusBar().showMessage("Kept the current state as the new start", 5000)
                return
        self.bridge.reset()

    def ask_keep_edits(self) -> str:
        """Ask whether live edits become the new start: "keep", "discard" or "cancel"."""
        box = QMessageBox(QMessageBox.Question, "Reset", "The scene was changed since it started.\n\n"
                          "Keep the current state as the new start?", parent=self)
        keep = box.addButton("Keep as new start", QMessageBox.AcceptRole)
        discard = box.addButton("Discard changes and reset", QMessageBox.DestructiveRole)
        box.addButton(QMessageBox.Cancel)
        box.setDefaultButton(keep)
        box.exec()
        return {keep: "keep", discard: "discard"}.get(box.clickedButton(), "cancel")

    def back_to_lesson_start(self) -> None:
        """The lesson's first step, as the lesson was opened."""
        self.canvas.trails.clear()
        if self.lesson_panel.lesson is not None and self.lesson_panel.lesson.steps:
            self.lesson_panel.enter_step(0)
        else:
            self.bridge.reset()

    def _show_lesson(self) -> None:
        """The lesson dock shows whenever the open scene has a lesson; the world panel and the
        inspector then wait in the View menu, so that the canvas keeps its room."""
        lesson = self.start_world.lesson
        self.lesson_dock.setVisible(lesson is not None)
        for dock in self.docks:
            if dock is not self.lesson_dock:
                dock.setVisible(lesson is None and not self.student)
        self.lesson_start_action.setEnabled(lesson is not None and bool(lesson.steps))
        self.lesson_panel.set_lesson(self.start_world)

    def show_graphs(self, on: bool) -> None:
        """Show the graphs below the canvas (two fifths of the height), or hide them."""
        self.graphs_dock.setVisible(bool(on))
        if on:
            self.graphs_dock.raise_()  # in front of the data table, its neighbour tab
            self.resizeDocks([self.graphs_dock], [int(0.4 * self.height())], Qt.Vertical)
        QTimer.singleShot(0, self.canvas.refit)  # once the canvas has its new height

    def set_time_scale(self, scale: float) -> None:
        self.bridge.time_scale = scale

    def _update_play(self) -> None:
        paused = self.bridge.paused
        self.play_action.setText("Play" if paused else "Pause")

    # -- recording and files --------------------------------------------------------------------
    def toggle_record(self, on: bool) -> None:
        self.bridge.record(on, RECORD_RATE)

    def clear_recording(self) -> None:
        self.bridge.clear_recording(lambda ok: ok and self.statusBar().showMessage("Recording cleared", 3000))

    # -- bodies and view -------------------------------------------------------------------------
    def delete_selected(self) -> None:
        if self.canvas.selection is not None and not self.student:
            self.bridge.send(commands.RemoveBody(self.canvas.selection))

    def _show(self, what: str, on: bool) -> None:
        setattr(self.canvas.display, what, bool(on))
        if what == "trails":
            self.canvas.trails.clear()
        self.canvas.update()

    def set_projector(self, on: bool) -> None:
        """Larger type, thicker lines and arrows, high contrast: for the back of the room."""
        self.canvas.display.projector = bool(on)
        font = QFont(self.font())
        font.setPointSizeF(14.0 if on else QFont().pointSizeF())
        for widget in (self.world_panel, self.inspector, self.energy_panel, self.graphs_panel, self.table_panel,
                       self.collisions_panel, self.toolbar, self.toolbox.toolbar, self.statusBar()):
            widget.setFont(font)
        self.graphs_panel.set_projector(bool(on))
        self.lesson_panel.set_fonts(bool(on))
        self.projector_action.setChecked(bool(on))
        # wider panels for the larger type (the canvas keeps the rest)
        self._size_docks()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() > 0 and event.oldSize().width() != event.size().width():
            QTimer.singleShot(0, self._size_docks)  # the panels keep their share; the canvas refits

    def _size_docks(self) -> None:
        """Share the width: the lesson panel, the canvas, the world panel and inspector."""
        on = self.canvas.display.projector
        if self.lesson_dock.isVisible():
            lesson, side = (0.32, 0.3) if on else (0.29, 0.26)
        else:
            lesson, side = 0.0, (0.36 if on else 0.26)
        shown = [d for d in self.docks if not d.isHidden()]
        self.resizeDocks(shown, [max(1, int(self.width() * (lesson if d is self.lesson_dock else side)))
                                 for d in shown], Qt.Horizontal)
        QTimer.singleShot(0, self.canvas.refit)  # once the docks have their new width

    # -- updates from the physics thread -------------------------------------------------------------
    def _revised(self, snap) -> None:
        self.world_panel.refresh(snap)
        self.inspector.refresh(snap)

    def _snapshot(self, snap) -> None:
        self.inspector.refresh(snap)

    def _refused(self, message: str) -> None:
        self.messages.say(message)
        snap = self.bridge.latest
        self.world_panel.refresh(snap, force=True)
        self.inspector.refresh(snap, force=True)

    def _selected(self, name) -> None:
        self.inspector.set_body(name, self.bridge.latest)
        if name is not None:
            self.inspector_dock.raise_()

    def _replaced(self, snap) -> None:
        self.inspector.set_body(None, None)
        self._revised(snap)
        self._update_play()

    # -- student mode (see `student.StudentLock`) --------------------------------------------------
    @property
    def student(self) -> bool:
        """Whether student mode is on."""
        return self.lock.on

    def set_student_mode(self, on: bool) -> None:
        self.lock.set(on)

    def unlock(self) -> None:
        self.lock.unlock()

    def unlock_with(self, pin: str) -> bool:
        return self.lock.unlock_with(pin)

    def _set_title_suffix(self) -> None:
        title = self.windowTitle().removesuffix(" (student mode)")
        self.setWindowTitle(title + (" (student mode)" if self.student else ""))

    def _update_status(self) -> None:
        self.status_line.show(self.bridge.latest, self.bridge.cycles_per_second, self.canvas.fps,
                              self.bridge.degraded)
        self._update_play()
        if self.record_action.isChecked() != self.bridge.recording:
            self.record_action.setChecked(self.bridge.recording)
        if self.bridge.recording_full != self._said_full:  # said once, when sampling stops at the cap
            self._said_full = self.bridge.recording_full
            if self._said_full:
                self.messages.say(FULL)

    def _set_title(self, world) -> None:
        title = (world.lesson.title if world.lesson else "") or (self.path.stem if self.path else "")
        self.setWindowTitle(f"{title} — classroom-sim" if title else "classroom-sim")
        self._set_title_suffix()

    def closeEvent(self, event) -> None:
        QApplication.instance().removeEventFilter(self._keys)
        self._status_timer.stop()
        self.bridge.close()
        super().closeEvent(event)
