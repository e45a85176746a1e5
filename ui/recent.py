"""The recently opened and saved scenes: kept in the settings, listed in a menu."""

from __future__ import annotations

from pathlib import Path

MAX_RECENT = 8


class RecentFiles:
    """The paths in ``settings`` (newest first, at most `MAX_RECENT`), shown in ``menu``;
    choosing one calls ``open_file(path)``."""

    def __init__(self, settings, menu, open_file):
        self.settings, self.menu, self.open_file = settings, menu, open_file

    def paths(self) -> list:
        value = self.settings.value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value or []]

    def remember(self, path) -> None:
        path = str(Path(path).resolve())
        recent = [p for p in self.paths() if p != path]
        self.settings.setValue("recent", [path] + recent[: MAX_RECENT - 1])
        self.fill()

    def fill(self) -> None:
        self.menu.clear()
        for path in self.paths():
            action = self.menu.addAction(path)
            action.triggered.connect(lambda checked=False, p=path: self.open_file(p))
        self.menu.setEnabled(bool(self.paths()))
