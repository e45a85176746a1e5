"""The lesson browser: the shipped lessons grouped by topic, the teacher's own folder
of lessons and the recent ones, each with its title, summary, audience and a small
picture of the scene. File › Lessons (Ctrl+L) opens it; it is also the start page.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QFont, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from classroom_sim import SceneError, load_scene

THUMBNAIL = (180, 110)
"""Pixels of a lesson's picture in the browser."""
TEXT = Qt.UserRole + 1
"""Item data: a lesson's title, summary and audience as plain text."""
FOLDER_KEY = "lessons/folder"
START_KEY = "lessons/show_at_start"

_thumbnails: dict = {}  # (path, modification time) -> QPixmap: drawn once a session


def thumbnail(path: Path, world) -> QPixmap:
    """A small picture of the scene at its start, drawn by the canvas (cached)."""
    key = (str(path), path.stat().st_mtime if path.exists() else 0.0)
    if key not in _thumbnails:
        from .bridge import SimulationBridge
        from .canvas import Canvas
        from .view import scene_extent

        bridge = SimulationBridge(world, start=False)
        try:
            canvas = Canvas(bridge)
            canvas.display.names = canvas.display.velocity = canvas.display.labels = False
            canvas.resize(*THUMBNAIL)
            canvas.view.width, canvas.view.height = THUMBNAIL
            canvas.view.fit(*scene_extent(bridge.latest), margins=(6, 6, 6, 6))
            _thumbnails[key] = QPixmap.fromImage(canvas.render_image(*THUMBNAIL))
        finally:
            bridge.close()
    return _thumbnails[key]


class Card(QWidget):
    """One lesson in the list: its picture, then its title (bold), summary and audience.
    Every string from the file is escaped: shown as text, never as markup."""

    def __init__(self, lines, parent=None):
        super().__init__(parent)
        self.picture = QLabel()
        self.picture.setFixedSize(*THUMBNAIL)
        self.picture.setStyleSheet("border: 1px solid #c0bfbc;")
        self.text = QLabel("<b style='font-size:large'>" + html.escape(lines[0]) + "</b><br>"
                           + "<br>".join(html.escape(line) for line in lines[1:]))
        self.text.setTextFormat(Qt.RichText)
        self.text.setWordWrap(True)
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 4, 4, 4)
        row.addWidget(self.picture)
        row.addWidget(self.text, 1)
        self.setAttribute(Qt.WA_TransparentForMouseEvents)


class LessonList(QTreeWidget):
    """Lesson files grouped by topic; a bad file shows its one-line error."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setHeaderHidden(True)
        self.setWordWrap(True)
        self.setUniformRowHeights(False)
        self.setIndentation(12)
        self._pending: list = []
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._draw_one)

    def show_files(self, paths, group: bool = True) -> None:
        """List ``paths`` (grouped by the lessons' topics if ``group``); pictures come lazily."""
        self.clear()
        self._pending.clear()
        topics: dict = {}
        cards = []
        for path in paths:
            path = Path(path)
            try:
                world = load_scene(path)
            except SceneError as exc:
                item = QTreeWidgetItem([str(exc)])
                item.setForeground(0, QColor("#c01c28"))
                item.setFlags(Qt.ItemIsEnabled)
                item.setToolTip(0, str(exc))
                self.addTopLevelItem(item)
                continue
            lesson = world.lesson
            title = lesson.title if lesson else path.stem
            lines = [title]
            if lesson and lesson.summary:
                lines.append(lesson.summary)
            if lesson and lesson.audience:
                lines.append(f"For {lesson.audience}")
            if lesson and lesson.steps:
                lines.append(f"{len(lesson.steps)} steps, {len(lesson.predictions)} predictions")
            item = QTreeWidgetItem(["\n".join(lines)])  # (the text a test or a screen reader reads)
            item.setData(0, Qt.UserRole, str(path))
            item.setToolTip(0, str(path))
            font = QFont(self.font())
            item.setFont(0, font)
            topic = (lesson.topic if lesson and lesson.topic else "Other") if group else None
            if topic is None:
                self.addTopLevelItem(item)
            else:
                if topic not in topics:
                    head = QTreeWidgetItem([topic])
                    bold = QFont(self.font())
                    bold.setBold(True)
                    bold.setPointSizeF(bold.pointSizeF() * 1.25)
                    head.setFont(0, bold)
                    head.setFlags(Qt.ItemIsEnabled)
                    self.addTopLevelItem(head)
                    topics[topic] = head
                topics[topic].addChild(item)
            self._pending.append((item, path, world))
            cards.append((item, lines))
        self.expandAll()
        for item, lines in cards:
            item.setData(0, TEXT, "\n".join(lines))
            item.setText(0, "")
            self.setItemWidget(item, 0, Card(lines))
        self._timer.start()

    def _draw_one(self) -> None:
        if not self._pending:
            self._timer.stop()
            return
        item, path, world = self._pending.pop(0)
        try:
            self.itemWidget(item, 0).picture.setPixmap(thumbnail(path, world))
        except Exception as exc:  # a scene the canvas cannot draw still lists
            item.setToolTip(0, f"{path}: no picture: {exc}")

    def draw_all(self) -> None:
        """Draw every picture now (tests, and a window about to be grabbed)."""
        while self._pending:
            self._draw_one()

    def chosen(self) -> str | None:
        item = self.currentItem()
        return item.data(0, Qt.UserRole) if item is not None else None


class LessonBrowser(QDialog):
    """Pick a lesson: shipped, from the teacher's folder, or recent. ``path`` holds the choice."""

    def __init__(self, shipped, settings, recent=(), parent=None):
        super().__init__(parent)
        self.setWindowTitle("Lessons")
        self.settings = settings
        self.path: str | None = None
        self.shipped = LessonList()
        self.shipped.show_files(shipped)
        self.mine = LessonList()
        self.recent = LessonList()
        self.recent.show_files([p for p in recent if Path(p).exists()], group=False)
        self.folder_label = QLabel()
        self.folder_label.setWordWrap(True)
        self.folder_label.setTextFormat(Qt.PlainText)
        choose = QPushButton("Choose my lessons folder…")
        choose.clicked.connect(self.choose_folder)
        mine = QWidget()
        col = QVBoxLayout(mine)
        row = QHBoxLayout()
        row.addWidget(self.folder_label, 1)
        row.addWidget(choose)
        col.addLayout(row)
        col.addWidget(self.mine)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.shipped, "Lessons that come with classroom-sim")
        self.tabs.addTab(mine, "My lessons")
        self.tabs.addTab(self.recent, "Recent")
        self.at_start = QCheckBox("Show this list when the app starts")
        self.at_start.setChecked(_true(settings.value(START_KEY, True)))
        self.at_start.toggled.connect(lambda on: settings.setValue(START_KEY, bool(on)))
        buttons = QDialogButtonBox(QDialogButtonBox.Open | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept_chosen)
        buttons.rejected.connect(self.reject)
        self.open_button = buttons.button(QDialogButtonBox.Open)
        bottom = QHBoxLayout()
        bottom.addWidget(self.at_start, 1)
        bottom.addWidget(buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addLayout(bottom)
        for listing in (self.shipped, self.mine, self.recent):
            listing.itemDoubleClicked.connect(lambda item, _col: self.accept_chosen())
        folder = settings.value(FOLDER_KEY, "")
        self.show_folder(folder if folder and Path(str(folder)).is_dir() else None)
        self.resize(760, 620)

    def show_folder(self, folder) -> None:
        """List the teacher's folder of lessons (its ``*.toml`` files)."""
        if folder is None:
            self.folder_label.setText("No folder chosen yet: keep your own lessons in one folder and choose it.")
            self.mine.clear()
            return
        folder = Path(str(folder))
        self.folder_label.setText(str(folder))
        self.mine.show_files(sorted(folder.glob("*.toml")))

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Choose the folder of your lessons",
                                                  str(self.settings.value(FOLDER_KEY, "") or Path.home()))
        if folder:
            self.set_folder(folder)

    def set_folder(self, folder) -> None:
        self.settings.setValue(FOLDER_KEY, str(folder))
        self.show_folder(folder)
        self.tabs.setCurrentIndex(1)

    def current_list(self) -> LessonList:
        return (self.shipped, self.mine, self.recent)[self.tabs.currentIndex()]

    def accept_chosen(self) -> None:
        path = self.current_list().chosen()
        if path:
            self.path = path
            self.accept()

    def set_projector(self, on: bool) -> None:
        font = QFont(self.font())
        font.setPointSizeF(14.0 if on else QFont().pointSizeF())
        self.setFont(font)


def shows_at_start(settings) -> bool:
    """Whether the browser opens when the app starts (the teacher may turn it off)."""
    return _true(settings.value(START_KEY, True))


def _true(value) -> bool:
    return value if isinstance(value, bool) else str(value).lower() in ("true", "1", "yes")
