"""The stopwatch's panel and its place in the window.

`StopwatchPanel` works a `stopwatch.Timing`: Start/Stop, Lap and Reset, the
body and event it starts on and the one it stops on, the laps as plain text;
it follows each snapshot the bridge emits (and the collision log while an event
is a collision). `StopwatchTool` puts the panel in a dock, the reading over the
canvas and the "Stopwatch" action (W) in the window's tools.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QFont
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from .stopwatch import EVENTS, HAND, StopwatchOverlay, Timing, lap_lines

TIP = ("A stopwatch on simulated time: start, stop and laps by hand, or started and stopped "
       "by a body's event (floor, apex, collision) at its exact instant (W)")


class CollisionReader:
    """Follows the bridge's collision log (`SimulationBridge.collisions_since`): each call
    gives the collisions new since the last one, up to a simulated time (later ones wait
    for a later call); a log cleared or replaced is read again from its start."""

    def __init__(self, bridge):
        self.bridge = bridge
        self._log = None
        self._generation = None
        self._k = 0

    def new(self, up_to: float) -> list:
        log, rows = self.bridge.collisions_since(self._k)
        if log is not self._log or log.generation != self._generation:
            self._log, self._generation, self._k = log, log.generation, 0
            log, rows = self.bridge.collisions_since(0)
        n = 0
        while n < len(rows) and rows[n].t <= up_to:  # (in time order)
            n += 1
        self._k += n
        return rows[:n]


class StopwatchPanel(QWidget):
    """Start/Stop, Lap, Reset; "Start on" and "Stop on" a body's event; the laps."""

    def __init__(self, bridge, parent=None):
        super().__init__(parent)
        self.bridge = bridge
        self.timing = Timing()
        self.collisions = CollisionReader(bridge)
        self.wants_collisions = False
        self._names = None
        self._shown: tuple = ()
        self.reading = QLabel("0.000 s")
        self.reading.setAlignment(Qt.AlignCenter)
        self.reading.setToolTip("Simulated seconds on the watch")
        self.state = QLabel()
        self.state.setTextFormat(Qt.PlainText)  # (it names bodies)
        self.state.setWordWrap(True)
        self.start_button = self._button("Start", "Start the watch now, or stop it (simulated time)", self.start_stop)
        self.lap_button = self._button("Lap", "Note the time of a lap and its split, while the watch runs", self.lap)
        self.reset_button = self._button("Reset", "Back to zero; an automatic start waits for its event again",
                                         self.reset)
        self.start_body, self.start_event = self._combos("start")
        self.stop_body, self.stop_event = self._combos("stop")
        self.laps = QPlainTextEdit()
        self.laps.setReadOnly(True)
        self.laps.setPlaceholderText("No laps yet")
        self.laps.setToolTip("Each lap: the reading then, and the time since the lap before")

        buttons = QHBoxLayout()
        for b in (self.start_button, self.lap_button, self.reset_button):
            buttons.addWidget(b)
        grid = QGridLayout()  # each label above its two boxes: the panel stays narrow
        for row, (text, body, event) in enumerate((("Start on:", self.start_body, self.start_event),
                                                   ("Stop on:", self.stop_body, self.stop_event))):
            grid.addWidget(QLabel(text), 2 * row, 0, 1, 2)
            grid.addWidget(body, 2 * row + 1, 0)
            grid.addWidget(event, 2 * row + 1, 1)
        grid.setColumnStretch(0, 1)
        col = QVBoxLayout(self)
        col.addWidget(self.reading)
        col.addWidget(self.state)
        col.addLayout(buttons)
        col.addLayout(grid)
        col.addWidget(QLabel("Laps"))
        col.addWidget(self.laps, 1)
        self.set_projector(False)
        bridge.snapshot.connect(self.follow)
        bridge.replaced.connect(self._new_scene)
        self.follow(bridge.latest)

    def _button(self, text, tip, slot) -> QPushButton:
        button = QPushButton(text)
        button.setToolTip(tip)
        button.setFocusPolicy(Qt.TabFocus)  # a click leaves the keys to the canvas
        button.clicked.connect(slot)
        return button

    def _combos(self, which: str):
        body = QComboBox()
        body.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)  # a long name does not
        body.setMinimumContentsLength(6)  # widen the panel
        body.setToolTip(f"The body whose event {which}s the watch")
        event = QComboBox()
        event.addItems([HAND, *EVENTS])
        event.setToolTip(f"What {which}s the watch: by hand (the button), or the body's arrival on the floor, "
                         "its highest point (apex), or its first collision with another body")
        body.currentIndexChanged.connect(lambda _: self._chosen(which))
        event.currentIndexChanged.connect(lambda _: self._chosen(which))
        return body, event

    # -- the class's choices ----------------------------------------------------------------------
    def start_stop(self) -> None:
        t = self.timing.now
        if self.timing.watch.running:
            self.timing.stop(t)
        else:
            self.timing.start(t)
        self._show()

    def lap(self) -> None:
        self.timing.lap(self.timing.now)
        self._show()

    def reset(self) -> None:
        self.timing.reset()
        self._show()

    def choose(self, which: str, body, event: str) -> None:
        """Start (``which`` = "start") or stop on ``body``'s ``event``, as the combo boxes do."""
        boxes = (self.start_body, self.start_event) if which == "start" else (self.stop_body, self.stop_event)
        for box, text in zip(boxes, (body, event)):
            k = box.findText(text, Qt.MatchExactly) if text is not None else -1
            if k >= 0:
                box.setCurrentIndex(k)
        self._chosen(which)

    def _chosen(self, which: str) -> None:
        body, event = (self.start_body, self.start_event) if which == "start" else (self.stop_body, self.stop_event)
        name = body.currentText() if body.count() else None
        if which == "start":
            self.timing.set_start(name, event.currentText())
        else:
            self.timing.set_stop(name, event.currentText())
        self._want_collisions()
        self._show()

    def _want_collisions(self) -> None:
        wants = "collision" in (self.start_event.currentText(), self.stop_event.currentText())
        if wants != self.wants_collisions:
            self.wants_collisions = wants
            self.bridge.want_collisions(self, wants)

    # -- from the physics thread --------------------------------------------------------------------
    def follow(self, snap) -> None:
        """A new snapshot: the triggers look at it, the reading follows it. A recorded instant
        shown again (replay) is not the run going back: the watch keeps timing the live one."""
        if getattr(self.bridge, "replaying", False):
            return
        self.timing.feed(snap, self.collisions.new(snap.time) if self.wants_collisions else ())
        if snap.names != self._names:
            self._names = snap.names
            self._fill(self.start_body, self.timing.start_on, "start")
            self._fill(self.stop_body, self.timing.stop_on, "stop")
        self._show(snap.time)

    def _new_scene(self, snap) -> None:
        """Another scene was opened: its run is timed afresh (whatever its clock reads)."""
        self.timing.last = None
        self.timing.reset(snap.time)
        self._show(snap.time)

    def _fill(self, box: QComboBox, trigger, which: str) -> None:
        """The scene's bodies, the trigger's body chosen (renames were followed by `Timing`);
        a body gone is replaced by the first one, and its trigger waits for that one."""
        names = list(self._names)
        box.blockSignals(True)
        try:
            box.clear()
            box.addItems(names)
            box.setCurrentIndex(names.index(trigger.body) if trigger.body in names else 0)
        finally:
            box.blockSignals(False)
        chosen = box.currentText() if names else None
        if chosen != trigger.body:
            self._chosen(which)

    def _show(self, t: float | None = None) -> None:
        timing = self.timing
        watch = timing.watch
        self.reading.setText(f"{watch.reading(timing.now if t is None else t):.3f} s")
        self.start_button.setText("Stop" if watch.running else "Start")
        self.lap_button.setEnabled(watch.running)
        state = timing.state()
        if state != self.state.text():
            self.state.setText(state)
        laps = tuple(watch.laps)
        if laps != self._shown:
            self._shown = laps
            self.laps.setPlainText("\n".join(lap_lines(laps)))

    def set_projector(self, on: bool) -> None:
        """Larger type for the back of the room."""
        font = QFont(self.font())
        font.setPointSizeF(14.0 if on else QFont().pointSizeF())
        self.setFont(font)
        big = QFont(font)
        big.setPointSizeF(font.pointSizeF() * 2.2)
        big.setBold(True)
        self.reading.setFont(big)


class StopwatchTool:
    """The stopwatch in a window: the panel in a dock on the right (a tab beside the
    other panels, hidden at first), the overlay on the canvas, and the checkable action
    "Stopwatch" (W) that shows or hides both; set on the window as ``stopwatch_action``,
    ``stopwatch_panel`` and ``stopwatch_dock``."""

    def __init__(self, window):
        self.window = window
        self.canvas = window.canvas
        self.panel = StopwatchPanel(window.bridge)
        self.overlay = StopwatchOverlay(self.panel.timing)
        self.canvas.overlays.append(self.overlay)

        scroll = QScrollArea()
        scroll.setWidget(self.panel)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.NoFrame)
        self.dock = QDockWidget("Stopwatch", window)
        self.dock.setObjectName("Stopwatch")
        self.dock.setWidget(scroll)
        self.dock.setFeatures(QDockWidget.DockWidgetMovable | QDockWidget.DockWidgetFloatable)
        window.addDockWidget(Qt.RightDockWidgetArea, self.dock)
        right = [d for d in getattr(window, "docks", []) if window.dockWidgetArea(d) == Qt.RightDockWidgetArea]
        if right:
            window.tabifyDockWidget(right[-1], self.dock)
        self.dock.hide()

        self.action = QAction("Stopwatch", window, checkable=True)
        self.action.setShortcut("W")
        self.action.setToolTip(TIP)
        self.action.setStatusTip(TIP)
        self.action.toggled.connect(self.show)
        window.addAction(self.action)
        self.canvas.key_actions[Qt.Key_W] = self.action
        toolbox = getattr(window, "toolbox", None)
        if toolbox is not None:
            toolbox.add(self.action)
        elif getattr(window, "toolbar", None) is not None:
            window.toolbar.addAction(self.action)
        projector = getattr(window, "projector_action", None)
        if projector is not None:
            projector.toggled.connect(self.panel.set_projector)
        window.stopwatch_action = self.action
        window.stopwatch_panel = self.panel
        window.stopwatch_dock = self.dock

    def show(self, on: bool) -> None:
        """Show the panel (in front of its neighbours) and the reading on the canvas, or hide both."""
        on = bool(on)
        self.dock.setVisible(on)
        if on:
            self.dock.raise_()
        self.overlay.shown = on
        if self.action.isChecked() != on:
            self.action.setChecked(on)
        self.canvas.update()
