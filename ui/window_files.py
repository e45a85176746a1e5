"""The main window's file verbs: open a scene or a lesson, save the scene as it is now,
export the recording as CSV, save the canvas as a picture, print the lesson's
worksheets. A part of `MainWindow` (its ``bridge``, ``messages``, ``path``,
``recent``, ``canvas``, ``start_world``), kept apart because it is one idea."""

from __future__ import annotations

import copy
from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from classroom_sim import SceneError, lesson_files, load_scene

from .browser import LessonBrowser
from .picture import csv_named, save_image

LONG_FILTER = "CSV, one row per body per sample (long) (*.csv)"
WIDE_FILTER = "CSV, one row per sample (wide) (*.csv)"


class FileVerbs:
    """What the File menu does, for `MainWindow`."""

    def print_worksheet(self) -> None:
        """The lesson as it was opened, as printable worksheets (`ui.worksheet`)."""
        from .worksheet import print_dialog

        written = print_dialog(self, self.start_world, self.path.stem if self.path else "worksheet")
        if written is not None:
            self.statusBar().showMessage(f"Wrote {written}", 8000)

    def export_csv(self) -> None:
        if not self.bridge.samples:  # said at once, before asking for a file name
            step = "Play" if self.bridge.recording else "Record and Play"
            self.messages.say(f"Nothing has been recorded yet: press {step}, then export.")
            return
        path, chosen = QFileDialog.getSaveFileName(self, "Export the recording as CSV", self._suggest(".csv"),
                                                   f"{LONG_FILTER};;{WIDE_FILTER}")
        if path:
            self.export_csv_to(path, "wide" if chosen == WIDE_FILTER else "long")

    def export_csv_to(self, path, layout: str = "long"):
        """Write the recording to ``path`` (``.csv`` added if missing) in the background; the
        message bar reports a failure."""
        path = csv_named(path)
        return self.bridge.export_csv(path, layout,
                                      lambda ok: ok and self.statusBar().showMessage(f"Saved {path}", 5000))

    def save_png(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save the picture", self._suggest(".png"), "PNG image (*.png)")
        if path:
            self.save_png_to(path)

    def save_png_to(self, path) -> bool:
        """Save the canvas as it is now as a PNG file (complete, or not at all)."""
        try:
            save_image(self.canvas.render_image(self.canvas.width(), self.canvas.height()), path)
        except OSError as exc:
            self.messages.say(f"{path}: cannot save the picture: {exc.strerror or exc}")
            return False
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def make_browser(self) -> LessonBrowser:
        """The lesson browser, over this window."""
        browser = LessonBrowser(lesson_files(), self.settings, self.recent.paths(), self)
        browser.set_projector(self.canvas.display.projector)
        return browser

    def open_browser(self) -> None:
        """File › Lessons (Ctrl+L), and the start page: open the lesson chosen."""
        if self.student:
            return
        browser = self.make_browser()
        if browser.exec() == LessonBrowser.Accepted and browser.path:
            self.open_scene_file(browser.path)

    def open_scene(self) -> None:
        folder = str(self.path.parent) if self.path else ""
        path, _ = QFileDialog.getOpenFileName(self, "Open a scene", folder, "Scenes (*.toml)")
        if path:
            self.open_scene_file(path)

    def open_scene_file(self, path) -> bool:
        try:
            world = load_scene(path)
        except SceneError as exc:
            self.messages.say(str(exc))
            return False
        self.path = Path(path)
        self.record_action.setChecked(False)
        self.start_world = copy.deepcopy(world)
        self.bridge.replace(world)
        self._show_lesson()
        if world.lesson is not None and world.lesson.student:
            self.set_student_mode(True)
        self._size_docks()
        self.recent.remember(path)
        self._set_title(world)
        return True

    def save_scene(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save the scene as it is now", self._suggest(".toml"),
                                              "Scenes (*.toml)")
        if path:
            self.save_scene_to(path)

    def save_scene_to(self, path):
        def saved(ok):
            if ok:
                self.recent.remember(path)
                self.statusBar().showMessage(f"Saved {path}", 5000)

        return self.bridge.save_scene(path, saved)

    def _suggest(self, suffix: str) -> str:
        stem = self.path.stem if self.path else "scene"
        folder = self.path.parent if self.path else Path.cwd()
        return str(folder / f"{stem}{suffix}")
