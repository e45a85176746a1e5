"""Writing a picture of the canvas: a PNG file, complete or not at all."""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice

from classroom_sim import write_atomically


def save_image(image, path) -> None:
    """Write a QImage as PNG to ``path``, complete or not at all (OSError on failure)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OSError(f"{path}: the picture could not be encoded")
    buffer.close()
    payload = bytes(data)
    write_atomically(path, lambda f: f.write(payload), encoding=None)

