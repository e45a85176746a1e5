"""The window's status line and message bar: what the app says about itself.

`StatusLine`: where the pointer is (m), the time, the number of bodies, physics cycles and frames per second,
and "⚠ N steps simplified" when a cap cut a step's work short (its tooltip says
why). `MessageBar`: a visible strip above the canvas for what went wrong.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton

from classroom_sim import DEGRADED


class MessageBar(QFrame):
    """A visible strip above the canvas for what went wrong (a refused edit, a failed save)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setStyleSheet("MessageBar { background: #fde2e1; border: 1px solid #c01c28; border-radius: 4px; }"
                           "QLabel { color: #5c0a0f; }")
        self.label = QLabel()
        self.label.setTextFormat(Qt.PlainText)  # messages quote the user's names and files: never markup
        self.label.setWordWrap(True)
        close = QPushButton("Dismiss")
        close.clicked.connect(self.hide)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 8, 4)
        row.addWidget(self.label, 1)
        row.addWidget(close)
        self.hide()

    def say(self, text: str) -> None:
        self.label.setText(text)
        self.show()


class StatusLine:
    """The permanent labels of a status bar, filled by `show`."""

    def __init__(self, bar):
        self.time = QLabel()
        self.cycles = QLabel()
        self.fps = QLabel()
        self.bodies = QLabel()
        self.degraded = QLabel()
        self.degraded.setStyleSheet("color: #9c4a00;")
        self.degraded.setTextFormat(Qt.PlainText)
        self.pointer = QLabel()
        self.pointer.setToolTip("Where the pointer is over the canvas, in metres")
        for label in (self.pointer, self.degraded, self.time, self.bodies, self.cycles, self.fps):
            bar.addPermanentWidget(label)

    def point(self, x: float, y: float) -> None:
        """The pointer is at (x, y) m over the canvas (NaN: it left the canvas)."""
        self.pointer.setText("" if x != x else f"pointer x = {x:.3f} m, y = {y:.3f} m")

    def show(self, snap, cycles_per_second: float, fps: float, degraded: dict) -> None:
        """The newest snapshot, the physics rate, the canvas's frame rate and the steps cut short by kind."""
        self.time.setText(f"t = {snap.time:8.2f} s")
        self.bodies.setText(f"{len(snap)} {'body' if len(snap) == 1 else 'bodies'}")
        self.cycles.setText(f"physics {cycles_per_second:5.0f} cycles/s")
        self.fps.setText(f"{fps:3.0f} frames/s")
        cut = {kind: n for kind, n in degraded.items() if n}
        self.degraded.setText(f"⚠ {sum(cut.values())} steps simplified" if cut else "")
        self.degraded.setToolTip("\n".join(f"{n} × {DEGRADED[kind]}" for kind, n in cut.items()))
