"""The dispute report on paper: HTML as written by :mod:`rulesbook.report`, and a
PDF made with Qt's own writer (QTextDocument + QPdfWriter).

QTextDocument cannot draw inline SVG, so for the preview and the PDF the
diagram's SVG is rendered to a QImage with QSvgRenderer and given to the
document as an image resource. Every file is written atomically.
"""
from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QByteArray, QObject, QUrl
from PySide6.QtGui import (
    QColor,
    QFont,
    QImage,
    QPainter,
    QTextDocument,
)
from PySide6.QtSvg import QSvgRenderer

from rulesbook.storage import atomic_write_bytes, atomic_write_text

from ..export import document_pdf_bytes

DIAGRAM_URL = "rulesbook-diagram://board.png"
_SVG = re.compile(r"<svg\b.*?</svg>", re.DOTALL)
_SIZE = re.compile(r'<svg[^>]*\bwidth="(\d+)"')
QT_CSS = ("body { font-family: serif; color: #212121; font-size: 10pt; }\n"
           "h1 { font-size: 15pt; } h2 { font-size: 12pt; } h3 { font-size: 10.5pt; }\n"
           "blockquote { color: #37474f; margin-left: 16px; }\n"
           "table { border-collapse: collapse; } td, th { border: 1px solid #bbbbbb; "
           "padding: 3px; }\n")


def diagram_resource(image: QImage | None, name: QUrl | str) -> QImage | None:
    """The one resource a report document may load: the rendered diagram."""
    url = name.toString() if isinstance(name, QUrl) else name
    return image if image is not None and url == DIAGRAM_URL else None


def diagram_svg(report: str) -> str | None:
    found = _SVG.search(report)
    return found.group(0) if found else None


def diagram_image(svg: str, scale: float = 3.0) -> QImage:
    """The SVG rendered on white at ``scale`` times its size."""
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    size = renderer.defaultSize()
    image = QImage(max(1, int(size.width() * scale)), max(1, int(size.height() * scale)),
                   QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def qt_html(report: str, width: int | None = None) -> tuple[str, QImage | None]:
    """The report HTML for a QTextDocument: the inline SVG replaced by an <img> of it,
    and the image to register under :data:`DIAGRAM_URL`."""
    svg = diagram_svg(report)
    if svg is None:
        return report, None
    match = _SIZE.search(svg)
    if width is None:
        width = int(match.group(1)) if match else 320
    image = diagram_image(svg)
    tag = (f'<p align="center"><img src="{DIAGRAM_URL}" width="{width}" height="{width}" '
           f'alt="board diagram"/></p>')
    if f"<figure>{svg}</figure>" in report:
        return report.replace(f"<figure>{svg}</figure>", tag, 1), image
    return report.replace(svg, tag, 1), image


class ReportDocument(QTextDocument):
    """A QTextDocument that knows the diagram image and loads nothing else."""

    def __init__(self, image: QImage | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.image = image

    def loadResource(self, type_: int, name: QUrl | str) -> QImage | None:  # noqa: N802 - Qt API
        return diagram_resource(self.image, name)


def report_pdf_bytes(report: str, title: str = "Dispute report") -> bytes:
    """The report as PDF bytes, in memory (Letter, 18 mm margins)."""
    body, image = qt_html(report, width=240)
    # QTextDocument sizes tables to their content unless told: full width reads better
    body = body.replace("<table>", '<table width="100%" cellspacing="0" cellpadding="2">')
    # the screen stylesheet (a centred column for browsers) is not for paper
    body = re.sub(r"<style>.*?</style>", "", body, count=1, flags=re.DOTALL)
    doc = ReportDocument(image)
    # 10 pt on Letter: a typical dispute (diagram, facts, rulings, the comparison
    # of eight variants, the decision and signatures) fits on two pages
    doc.setDefaultFont(QFont("serif", 10))
    doc.setDefaultStyleSheet(QT_CSS)
    if image is not None:
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(DIAGRAM_URL), image)
    doc.setHtml(body)
    return document_pdf_bytes(doc, title)


def save_report_html(path: str | Path, report: str) -> Path:
    return atomic_write_text(path, report)


def save_report_pdf(path: str | Path, report: str, title: str = "Dispute report") -> Path:
    return atomic_write_bytes(path, report_pdf_bytes(report, title))
