"""Shared test set-up: Qt never needs a display; hypothesis tolerates the first numba compile."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from hypothesis import settings  # noqa: E402

settings.register_profile("default", deadline=None)
settings.load_profile("default")
