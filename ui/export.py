"""Exporting a view to HTML or PDF. Every file is written atomically."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QSizeF
from PySide6.QtGui import (
    QPageLayout,
    QPageSize,
    QPdfWriter,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)

from rulesbook.storage import atomic_write_bytes, atomic_write_text

from .render import standalone_html
from .theme import document_css

# Printed output is always dark text on white paper, whatever the screen theme.
_PRINT_CSS = (
    "del.del { text-decoration: line-through; background-color: #f8c8c8; }\n"
    "ins.ins { text-decoration: none; background-color: #c8f0c8; }\n"
    ".muted, p.note, span.tag { color: #555555; }\n"
)


def export_html(path: str | Path, title: str, body: str) -> Path:
    """Write a standalone HTML file (escaped body as rendered by ui.render)."""
    return atomic_write_text(path, standalone_html(title, body, _PRINT_CSS))


def pdf_bytes(title: str, body: str) -> bytes:
    """Render HTML to PDF with QPdfWriter, in memory."""
    doc = QTextDocument()
    doc.setDefaultStyleSheet(_PRINT_CSS)
    doc.setHtml(body)
    return document_pdf_bytes(doc, title)


def document_pdf_bytes(doc: QTextDocument, title: str) -> bytes:
    """Print a prepared QTextDocument to PDF bytes (Letter, 18 mm margins, 300 dpi)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setTitle(title)
    writer.setCreator("Rulesbook")
    writer.setResolution(300)
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.Letter))
    writer.setPageMargins(QMarginsF(18, 18, 18, 18), QPageLayout.Unit.Millimeter)
    doc.setMetaInformation(QTextDocument.MetaInformation.DocumentTitle, title)
    # Lay the document out on the writer's own page: without a page size,
    # print_() adds 2 cm margins of its own inside the page margins.
    doc.documentLayout().setPaintDevice(writer)
    doc.setPageSize(QSizeF(writer.width(), writer.height()))
    keep_headings_with_next(doc)
    doc.print_(writer)
    del writer  # finishes the PDF
    buffer.close()
    return bytes(data.data())


def keep_headings_with_next(doc: QTextDocument, follow_lines: int = 3) -> None:
    """No heading alone at the foot of a page: a heading with less room under it than
    ``follow_lines`` lines of text starts the next page (Qt has no
    ``page-break-after: avoid``). Moving one heading moves the ones after it, so the
    layout is looked at again until nothing moves."""
    height = doc.pageSize().height()
    if height <= 0:
        return
    layout = doc.documentLayout()
    for _ in range(64):
        moved = False
        block = doc.begin()
        while block.isValid():
            fmt = block.blockFormat()
            if fmt.headingLevel() > 0 and not (
                    fmt.pageBreakPolicy() & QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore):
                rect = layout.blockBoundingRect(block)
                line = rect.height() or 1.0
                room = height - (rect.top() % height) - rect.height()
                if room < follow_lines * line and rect.top() % height > line:
                    fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                    QTextCursor(block).setBlockFormat(fmt)
                    # Qt lays out again only near the changed block: the blocks after
                    # it kept their old places, and print_() then left some of them
                    # (a rule's quote, the decision and the signatures) off the pages
                    doc.markContentsDirty(0, doc.characterCount())
                    moved = True
                    break  # the layout below has changed: look again from the top
            block = block.next()
        if not moved:
            return


def export_pdf(path: str | Path, title: str, body: str) -> Path:
    return atomic_write_bytes(path, pdf_bytes(title, body))


__all__ = ["export_html", "export_pdf", "pdf_bytes", "document_css"]
