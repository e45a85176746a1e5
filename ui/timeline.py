"""The timeline under the canvas: replay of the recording.

It appears once the recording holds two samples. Dragging it (or `,` and `.` for
one sample, Home and End for the ends) shows that recorded instant instead of the
live World (`SimulationBridge.show_sample`): the canvas, the graphs, the inspector
and the energy panel all follow the snapshots, so they all show it, and the physics
waits. The recording plays forwards or backwards at the speed chosen; *Continue
from here* makes the instant shown the live World and plays on from it, dropping
what was recorded after it (asked first, said after); *Live* shows the live World
again, as do Play, Step, Reset and any edit. The timeline reads only the times
recorded since the last frame (`SimulationBridge.sample_times_since`).
"""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QMessageBox, QPushButton, QSlider, QWidget

SPEEDS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
"""Simulated seconds of recording played per second of wall time."""
TICK_MS = 16
"""Milliseconds between two frames of a recording played."""


class Timeline(QWidget):
    def __init__(self, bridge, parent=None):
        super().__init__(parent)
        self.bridge = bridge
        self.times = np.empty(0)
        """The recorded sample times (s), as far as read."""
        self._recording = None
        self._direction = 0  # +1 or -1 while the recording plays
        self._clock = (0.0, 0.0)  # (recorded time, wall time) where the play began
        self.say = None
        """Called with a sentence for the class (the window's status bar), if set."""

        self.back = QPushButton("◀ Replay")
        self.back.setToolTip("Play the recording backwards")
        self.forward = QPushButton("Replay ▶")
        self.forward.setToolTip("Play the recording forwards")
        for button in (self.back, self.forward):
            button.setCheckable(True)
        self.speed = QComboBox()
        for s in SPEEDS:
            self.speed.addItem(f"{s:g}×", s)
        self.speed.setCurrentIndex(SPEEDS.index(1.0))
        self.speed.setToolTip("How fast the recording plays")
        self.slider = QSlider(Qt.Horizontal)
        self.slider.setToolTip("Drag to any recorded instant (, and . step one sample; Home and End)")
        self.slider.setFocusPolicy(Qt.ClickFocus)
        self.label = QLabel()
        self.label.setTextFormat(Qt.PlainText)
        self.label.setMinimumWidth(self.fontMetrics().horizontalAdvance("REPLAY  t = 0000.00 s of 0000.00 s"))
        self.here = QPushButton("Continue from here")
        self.here.setToolTip("Go on live from the instant shown: what was recorded after it is dropped")
        self.live = QPushButton("Live")
        self.live.setToolTip("Show the live simulation again")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 2, 0, 0)
        for w in (self.back, self.forward, self.speed):
            row.addWidget(w)
        row.addWidget(self.slider, 1)
        for w in (self.label, self.here, self.live):
            row.addWidget(w)

        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)
        self.back.clicked.connect(lambda: self.play(-1))
        self.forward.clicked.connect(lambda: self.play(+1))
        self.slider.valueChanged.connect(self._dragged)
        self.here.clicked.connect(self.continue_here)
        self.live.clicked.connect(self.go_live)
        bridge.snapshot.connect(self.follow)
        self.setVisible(False)
        self._show_state()

    # -- following the recording -------------------------------------------------------------------
    def follow(self, snap=None) -> None:
        """Take the sample times recorded since the last frame; show, or hide, the timeline."""
        recording, new = self.bridge.sample_times_since(len(self.times))
        if recording is not self._recording:  # a new recording (or a cut one): start over
            self._recording = recording
            self.stop()
            recording, new = self.bridge.sample_times_since(0)
            self.times = np.empty(0)
        if len(new):
            self.times = np.concatenate([self.times, new])
        self.setVisible(len(self.times) >= 2)
        self._show_state()

    @property
    def sample(self) -> int:
        """The sample shown, or the last one while live."""
        shown = self.bridge.shown_sample
        return shown if shown is not None else len(self.times) - 1

    # -- moving through it --------------------------------------------------------------------------
    def show(self, k: int) -> None:
        """Show recorded sample ``k`` (kept within the recording)."""
        if not len(self.times):
            return
        k = int(min(max(k, 0), len(self.times) - 1))
        self.bridge.show_sample(k)
        self._show_state()

    def step(self, by: int) -> None:
        """One sample (or ``by``) on, or back; the recording stops playing."""
        self.stop()
        self.show(self.sample + by)

    def home(self) -> None:
        self.stop()
        self.show(0)

    def end(self) -> None:
        self.stop()
        self.show(len(self.times) - 1)

    def play(self, direction: int) -> None:
        """Play the recording forwards (+1) or backwards (-1) from the instant shown; again stops it."""
        if self._direction == direction or len(self.times) < 2:
            self.stop()
            return
        k = self.sample
        if (direction > 0 and k >= len(self.times) - 1) or (direction < 0 and k <= 0):
            k = 0 if direction > 0 else len(self.times) - 1  # at the end: from the other end
        self.show(k)
        self._direction = direction
        self._clock = (float(self.times[k]), time.perf_counter())
        self._timer.start()
        self._show_state()

    def stop(self) -> None:
        """Stop playing the recording (the instant shown stays)."""
        self._direction = 0
        self._timer.stop()
        self._show_state()

    def _tick(self) -> None:
        t0, w0 = self._clock
        t = t0 + self._direction * float(self.speed.currentData()) * (time.perf_counter() - w0)
        if t >= self.times[-1] or t <= self.times[0]:
            self.show(len(self.times) - 1 if t >= self.times[-1] else 0)
            self.stop()
            return
        k = int(np.searchsorted(self.times, t))
        if k > 0 and t - self.times[k - 1] < self.times[k] - t:
            k -= 1
        self.show(k)

    def _dragged(self, value: int) -> None:
        if value != self.sample or not self.bridge.replaying:
            self.stop()
            self.show(value)

    # -- leaving it -----------------------------------------------------------------------------------
    def go_live(self) -> None:
        self.stop()
        self.bridge.go_live()
        self._show_state()

    def confirm(self, question: str) -> bool:
        """Ask the teacher (a dialog; tests replace it)."""
        return QMessageBox.question(self, "Continue from here", question,
                                    QMessageBox.Yes | QMessageBox.Cancel) == QMessageBox.Yes

    def continue_here(self) -> None:
        """Go on live from the instant shown, dropping what was recorded after it."""
        k = self.bridge.shown_sample
        if k is None:
            return
        self.stop()
        t, dropped = float(self.times[k]), float(self.times[-1] - self.times[k])
        if dropped > 0 and not self.confirm(
                f"Go on from t = {t:.2f} s?\n\nWhat was recorded after it ({dropped:.2f} s) will be dropped."):
            return
        word = f"Continued from t = {t:.2f} s" + (f": the {dropped:.2f} s recorded after it were dropped"
                                                   if dropped > 0 else "")

        def done(ok):
            if ok and self.say is not None:
                self.say(word)
        self.bridge.continue_from(k, done)
        self._show_state()

    # -- what it shows ------------------------------------------------------------------------------------
    def _show_state(self) -> None:
        n = len(self.times)
        replaying = self.bridge.replaying
        self.slider.blockSignals(True)
        self.slider.setRange(0, max(n - 1, 0))
        self.slider.setValue(max(self.sample, 0))
        self.slider.blockSignals(False)
        for button, direction in ((self.back, -1), (self.forward, +1)):
            button.setChecked(self._direction == direction)
        self.here.setEnabled(replaying)
        self.live.setEnabled(replaying)
        if n == 0:
            self.label.setText("")
        elif replaying:
            self.label.setText(f"REPLAY  t = {self.times[self.sample]:.2f} s of {self.times[-1]:.2f} s")
        else:
            self.label.setText(f"Live  ({self.times[-1] - self.times[0]:.2f} s recorded)")
        self.label.setStyleSheet("color: #b03a00; font-weight: bold;" if replaying else "")


def install(window) -> Timeline:
    """Put a timeline under the window's canvas, with its keys (`,` `.` Home End); its
    actions, for a menu, are ``menu_actions``."""
    timeline = Timeline(window.bridge)
    timeline.say = lambda text: window.statusBar().showMessage(text, 8000)
    window.central_column.addWidget(timeline)
    keys = ((",", Qt.Key_Comma, "Replay: one sample back", lambda: timeline.step(-1)),
            (".", Qt.Key_Period, "Replay: one sample on", lambda: timeline.step(+1)),
            ("Home", Qt.Key_Home, "Replay: the first sample", timeline.home),
            ("End", Qt.Key_End, "Replay: the last sample", timeline.end))
    timeline.menu_actions = []
    for shortcut, key, text, slot in keys:
        action = QAction(text, window)
        action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        window.addAction(action)
        window.canvas.key_actions[key] = action
        timeline.menu_actions.append(action)
    here = QAction("Continue from here", window)
    here.triggered.connect(timeline.continue_here)
    live = QAction("Back to live", window)
    live.triggered.connect(timeline.go_live)
    timeline.menu_actions += [here, live]
    return timeline
