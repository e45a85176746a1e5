"""Writing a picture of the canvas: a PNG file, complete or not at all; and the name
an exported CSV file gets."""

from __future__ import annotations

from pathlib import Path

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



def csv_named(path) -> Path:
    """``path``, with ``.csv`` added unless it already ends so (in any case): what a class
    typed as "run 2" or "run.2" is saved as "run 2.csv" or "run.2.csv"."""
    path = Path(path)
    return path if path.suffix.lower() == ".csv" else path.with_name(path.name + ".csv")
