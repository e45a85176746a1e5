"""Printable worksheets: a PDF with one page per student (the lesson's title, the student's
number and numbers, a picture of the scene, each step's text and a ruled box for each
answer) and the teacher's key (every student's numbers and answers, as many pages as it
needs). Drawn with QPdfWriter and QTextDocument; the students' Worlds and answers come
from `classroom_sim.variants`, the picture from the canvas (`ui.app.render`).

`write` is the ``worksheet`` command's entry point; `print_dialog` the app's.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QLocale, QMarginsF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
    QTextBlockFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QMessageBox,
    QSpinBox,
)

from classroom_sim import MAX_STUDENTS, VariantError, sheets, write_atomically

from .panels.predictions import number_text

DPI = 300
"""The PDF painter's resolution: text and lines stay vector; the picture is drawn at it."""

MARGIN_MM = 15.0
"""Each edge of a page left blank: what every office printer can print inside."""

LETTER_TERRITORIES = frozenset(
    getattr(QLocale.Country, name) for name in (
        "UnitedStates", "Canada", "Mexico", "Philippines", "Chile", "Colombia", "Venezuela", "PuertoRico",
        "CostaRica", "Guatemala", "Panama", "DominicanRepublic", "ElSalvador", "Nicaragua")
    if hasattr(QLocale.Country, name))
"""Where paper is US Letter; A4 everywhere else."""

FONT_PT = 11
"""Body text on a page, in points (before a long lesson's page is scaled to fit)."""

KEY_PT = 10
"""The key's text, in points."""

MIN_SCALE = 0.45
"""A page is shrunk at most to this to fit one sheet (11 pt becomes 5 pt: still legible)."""

PICTURE_PX_PER_PT = 2.6
"""The canvas's pixels per printed point for the scene's picture (in projector mode: thick
lines, large type): its labels print at about 6 pt, and the fit's margins stay narrow."""

NARROWEST = 0.6
"""The narrowest picture, width over height: a tall box still leaves room for the axis labels."""

PICTURE_HEIGHTS = (0.4, 0.33, 0.26)
"""The picture's greatest height, as a fraction of the page's printable height: the
largest at which the page fits without shrinking its text (else the smallest)."""

BOX_MM = 16.0
"""The height of an answer box: one line of handwriting, with the working beside it."""

RULE = QColor("#555555")
LIGHT = QColor("#bbbbbb")


def page_size(locale: QLocale | None = None) -> QPageSize:
    """US Letter where the locale's territory uses it, A4 elsewhere."""
    territory = (locale or QLocale()).territory()
    return QPageSize(QPageSize.Letter if territory in LETTER_TERRITORIES else QPageSize.A4)


def write(class_, out_path, key=None, locale: QLocale | None = None) -> int:
    """Write the worksheets of ``class_`` (`classroom_sim.variants.Sheet`s, each a page) to
    ``out_path`` and, if ``key`` is a path, the teacher's key there; each PDF complete or
    not at all (OSError if it cannot be written). Returns the worksheets' page count."""
    from .app import _application

    _application(headless=True)
    size = page_size(locale)
    pages = _pdf(out_path, size, lambda writer: _draw_sheets(writer, class_))
    if key is not None:
        _pdf(key, size, lambda writer: _draw_key(writer, class_))
    return pages


def _pdf(path, size: QPageSize, draw) -> int:
    """Draw a PDF in memory (``draw(writer)`` returns its page count) and write it to
    ``path`` whole or not at all."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(DPI)
    writer.setPageLayout(QPageLayout(size, QPageLayout.Portrait, QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
                                     QPageLayout.Millimeter))
    writer.setCreator("classroom-sim")
    pages = draw(writer)  # (its painter has ended: the PDF is complete in the buffer)
    buffer.close()
    payload = bytes(data)
    write_atomically(path, lambda f: f.write(payload), encoding=None)
    return pages


# -- a student's page --------------------------------------------------------------------------------

def _pt(mm: float) -> float:
    """Millimetres in points, the unit the pages are laid out in."""
    return mm / 25.4 * 72.0


def _area(writer: QPdfWriter) -> QSizeF:
    """The printable part of a page, in points."""
    return writer.pageLayout().paintRect(QPageLayout.Point).size()


def _document(size_pt: float) -> QTextDocument:
    """An empty document laid out in points (one layout unit is 1/72 inch, drawn by a
    painter scaled by DPI / 72), with body text of ``size_pt`` points."""
    doc = QTextDocument()
    font = QFont("Sans Serif")
    font.setPixelSize(round(size_pt))
    doc.setDefaultFont(font)
    doc.setDocumentMargin(0)
    return doc


def _draw_sheets(writer: QPdfWriter, class_) -> int:
    painter = QPainter(writer)
    try:
        painter.scale(DPI / 72.0, DPI / 72.0)
        for n, sheet in enumerate(class_):
            if n:
                writer.newPage()
            _draw_page(painter, sheet, _area(writer))
    finally:
        painter.end()
    return len(class_)


def _draw_page(painter: QPainter, sheet, area: QSizeF) -> None:
    """One student's page, shrunk as little as it takes to fit the printable ``area``."""
    image = _picture(sheet, area.width(), PICTURE_HEIGHTS[-1] * area.height(), PICTURE_HEIGHTS[0] * area.height())
    for share in PICTURE_HEIGHTS:
        doc, spaces = _page_document(sheet, area, image, share * area.height())
        scale = _fit(doc, area)
        if scale == 1.0:
            break
    painter.save()
    painter.scale(scale, scale)
    doc.drawContents(painter, QRectF(0, 0, area.width() / scale, area.height() / scale))
    layout = doc.documentLayout()
    for block, unit in spaces:
        top = layout.blockBoundingRect(block).top()
        rect = QRectF(0, top, doc.textWidth(), block.blockFormat().lineHeight())
        if unit is None:
            _draw_picture(painter, rect, image)
        else:
            _draw_box(painter, rect, unit, doc.defaultFont())
    painter.restore()


def _fit(doc: QTextDocument, area: QSizeF) -> float:
    """The largest scale (at most 1) at which the document, laid out as wide as the page
    allows at that scale, is no taller than the page."""
    def height(scale):
        doc.setTextWidth(area.width() / scale)
        return doc.size().height() * scale

    if height(1.0) <= area.height():
        return 1.0
    lo, hi = MIN_SCALE, 1.0
    for _ in range(12):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if height(mid) <= area.height() else (lo, mid)
    height(lo)
    return lo


def _space(cursor: QTextCursor, height: float, before: float, after: float):
    """An empty block ``height`` points tall (a picture or a box is drawn over it)."""
    fmt = QTextBlockFormat()
    fmt.setTopMargin(before)
    fmt.setBottomMargin(after)
    fmt.setLineHeight(height, QTextBlockFormat.LineHeightTypes.FixedHeight.value)
    cursor.insertBlock(fmt)
    return cursor.block()


def _page_document(sheet, area: QSizeF, image, tallest: float):
    """The page as a QTextDocument in points, with the picture at most ``tallest`` points
    high, and the (block, unit) of each empty block the picture (unit None) or an answer
    box is drawn over."""
    lesson = sheet.world.lesson
    doc = _document(FONT_PT)
    doc.setTextWidth(area.width())
    cursor = QTextCursor(doc)

    who = "" if sheet.student is None else (
        f"<b>Student {sheet.student}</b> <span style='color:#666'>(seed {sheet.seed})</span>&nbsp;&nbsp;&nbsp; ")
    cursor.insertHtml(f"<h2>{html.escape(lesson.title)}</h2>")
    cursor.insertBlock(QTextBlockFormat())
    cursor.insertHtml(f"<p>{who}Name: ______________________________&nbsp;&nbsp; Date: ____________</p>")
    if sheet.values:
        cursor.insertBlock(QTextBlockFormat())
        numbers = "; ".join(f"<b>{html.escape(d.text)}</b>" for d in sheet.values)
        cursor.insertHtml(f"<p>Your numbers: {numbers}</p>")

    height = min(area.width() * image.height() / image.width(), tallest)
    spaces = [(_space(cursor, height, _pt(2), _pt(2)), None)]
    for k, step in enumerate(lesson.steps):
        cursor.insertBlock(QTextBlockFormat())
        cursor.insertHtml(f"<h3>Step {k + 1}: {html.escape(step.title)}</h3>")
        if step.text.strip():
            cursor.insertBlock(QTextBlockFormat())
            cursor.insertMarkdown(step.text.strip() + "\n")
        if step.predict is not None:
            question = QTextBlockFormat()
            question.setTopMargin(_pt(1.5))
            cursor.insertBlock(question)
            cursor.insertHtml(f"<b>{html.escape(step.predict.question)}</b>")
            spaces.append((_space(cursor, _pt(BOX_MM), _pt(1.5), _pt(2.5)), step.predict.unit))
    return doc, spaces


def _draw_picture(painter: QPainter, rect: QRectF, image) -> None:
    """The scene's picture, as large as ``rect`` allows, centred, with a thin frame."""
    width = min(rect.width(), rect.height() * image.width() / image.height())
    height = width * image.height() / image.width()
    target = QRectF(rect.left() + (rect.width() - width) / 2, rect.top(), width, height)
    painter.save()
    painter.setRenderHint(QPainter.SmoothPixmapTransform)
    painter.drawImage(target, image)
    painter.setPen(QPen(LIGHT, _pt(0.2)))
    painter.drawRect(target)
    painter.restore()


def _draw_box(painter: QPainter, rect: QRectF, unit: str, font: QFont) -> None:
    """An answer box: a frame, a ruled line to write on, and the unit at its right end."""
    painter.save()
    painter.setPen(QPen(RULE, _pt(0.3)))
    painter.setBrush(Qt.NoBrush)
    painter.drawRoundedRect(rect, _pt(1.5), _pt(1.5))
    small = QFont(font)
    small.setPixelSize(max(1, round(font.pixelSize() * 0.85)))
    painter.setFont(small)
    inset = _pt(3)
    base = rect.bottom() - rect.height() * 0.28
    unit_width = painter.fontMetrics().horizontalAdvance(unit) if unit else 0
    painter.setPen(QPen(LIGHT, _pt(0.25)))
    painter.drawLine(QPointF(rect.left() + inset, base), QPointF(rect.right() - 2 * inset - unit_width, base))
    painter.setPen(QPen(RULE))
    painter.drawText(QRectF(rect.left() + inset, rect.top() + _pt(1), rect.width() / 2, rect.height() / 2),
                     Qt.AlignLeft | Qt.AlignTop, "Answer")
    if unit:
        painter.drawText(QRectF(rect.left(), rect.top(), rect.width() - inset, base - rect.top()),
                         Qt.AlignRight | Qt.AlignBottom, unit)
    painter.restore()


def _picture(sheet, width: float, low: float, high: float):
    """The scene as the class sees it when the lesson opens (its first step), drawn by the
    canvas as `ui.app.screenshot` draws it, to be printed at most ``width`` points wide and
    ``low`` to ``high`` points high: as wide as the scene, up to ``width`` by ``low``."""
    from .app import render
    from .view import PROJECTOR, margins_for, scene_extent

    world, lesson = sheet.world, sheet.world.lesson
    if lesson is not None and lesson.steps:
        world = lesson.prepare(world, 0)
    x0, y0, x1, y1 = scene_extent(world.snapshot())
    aspect = min(max((x1 - x0) / max(y1 - y0, 1e-9), NARROWEST), width / low)
    # the picture's own proportions are the scene's plus the canvas's margins (its labels,
    # legend and scale bar), so that the scene fills its width
    left, top, right, bottom = margins_for(PROJECTOR)
    across, down, k = left + right, top + bottom, PICTURE_PX_PER_PT
    printed = min(width, ((high * k - down) * aspect + across) / k)
    pixels = round(printed * k)
    return render(world, (pixels, round((pixels - across) / aspect + down)), projector=True)


# -- the teacher's key ---------------------------------------------------------------------------------

def _draw_key(writer: QPdfWriter, class_) -> int:
    """Every student's numbers and answers, a row each, on as many pages as they take."""
    area = _area(writer)
    doc = _document(KEY_PT)
    doc.setPageSize(area)
    doc.setHtml(key_html(class_))
    painter = QPainter(writer)
    try:
        painter.scale(DPI / 72.0, DPI / 72.0)
        pages = doc.pageCount()
        for n in range(pages):
            if n:
                writer.newPage()
            painter.save()
            painter.translate(0, -n * area.height())
            doc.drawContents(painter, QRectF(0, n * area.height(), area.width(), area.height()))
            painter.restore()
    finally:
        painter.end()
    return pages


def key_html(class_) -> str:
    """The key as HTML: the lesson's title, the questions, and a table with a row per student
    (the header row repeated on every page)."""
    first = class_[0]
    lesson = first.world.lesson
    asked = first.answers
    seed = "" if first.student is None else f", seed {first.seed}"
    who = f"{len(class_)} students" if first.student is not None else "the lesson's own numbers"
    parts = [f"<h2>{html.escape(lesson.title)}: the teacher's key</h2>",
             f"<p>{who}{seed}. Answers to 4 significant figures (every digit: "
             f"<tt>classroom-sim variants</tt>, answers.csv).</p><ol>"]
    for a in asked:
        parts.append(f"<li>Step {a.step + 1}, {html.escape(a.title)}: {html.escape(a.question)} "
                     f"<i>({html.escape(a.quantity)}, {html.escape(a.unit)})</i></li>")
    parts.append("</ol><table border='1' cellspacing='0' cellpadding='4' width='100%'><thead><tr>"
                 "<th>Student</th>")
    for d in first.values:
        parts.append(f"<th>{html.escape(d.label)}" + (f" ({html.escape(d.unit)})" if d.unit else "") + "</th>")
    for n, a in enumerate(asked, 1):
        parts.append(f"<th>{n}. {html.escape(a.quantity)} ({html.escape(a.unit)})</th>")
    parts.append("</tr></thead>")
    for sheet in class_:
        parts.append(f"<tr><td align='center'>{'—' if sheet.student is None else sheet.student}</td>")
        for d in sheet.values:
            parts.append(f"<td align='right'>{d.value:.{d.decimals}f}</td>")
        for a in sheet.answers:
            parts.append(f"<td align='right'>{html.escape(number_text(a.value))}</td>")
        parts.append("</tr>")
    parts.append("</table>")
    return "".join(parts)


# -- from the app --------------------------------------------------------------------------------------

def print_dialog(parent, world, name: str = "worksheet"):
    """File › Print worksheet: ask for the number of students (none: one sheet with the
    lesson's own numbers), the seed, the PDF's name and whether to write the key beside it
    (``NAME-key.pdf``); write them. ``world`` is the lesson's start (the scene as loaded:
    not changed), ``name`` the file name offered. The path written, or None if cancelled
    or refused (a message then says why)."""
    if world.lesson is None:
        QMessageBox.information(parent, "Print worksheet", "This scene has no lesson: there is nothing to print.")
        return None
    dialog = WorksheetDialog(world, parent)
    if not dialog.exec():
        return None
    path, _ = QFileDialog.getSaveFileName(parent, "Save the worksheets as PDF", f"{name}.pdf", "PDF (*.pdf)")
    if not path:
        return None
    return dialog.write_to(path)


class WorksheetDialog(QDialog):
    """How many students, which seed, and whether to write the key."""

    def __init__(self, world, parent=None):
        super().__init__(parent)
        self.world = world
        self.setWindowTitle("Print worksheet")
        varied = bool(world.lesson.variants)
        self.students = QSpinBox()
        self.students.setRange(0, MAX_STUDENTS)
        self.students.setSpecialValueText("one sheet, the lesson's own numbers")
        self.students.setValue(0)
        self.students.setEnabled(varied)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2 ** 31 - 1)
        self.seed.setValue(1)
        self.seed.setEnabled(varied)
        self.seed.setToolTip("The same seed and student number give the same numbers again")
        self.key = QCheckBox("Also write the teacher's key (…-key.pdf)")
        self.key.setChecked(True)
        form = QFormLayout(self)
        form.addRow(QLabel("A page per student, each with their own numbers." if varied else
                           "This lesson has no per-student numbers: one sheet to copy."))
        form.addRow("Students", self.students)
        form.addRow("Seed", self.seed)
        form.addRow(self.key)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def write_to(self, path):
        """Write the worksheets (and the key) as chosen; the path written, or None (and a message)."""
        path = Path(path)
        if path.suffix.lower() != ".pdf":
            path = path.with_name(path.name + ".pdf")
        key = path.with_name(f"{path.stem}-key.pdf") if self.key.isChecked() else None
        try:
            write(sheets(self.world, self.students.value() or None, self.seed.value()), path, key=key)
        except (VariantError, OSError) as exc:
            QMessageBox.warning(self, "Print worksheet", f"The worksheets were not written: {exc}")
            return None
        return path
