"""The dispute report on paper: HTML as written by :mod:`rulesbook.report`, and a
PDF made with Qt's own writer (QTextDocument + QPdfWriter).

QTextDocument cannot draw inline SVG, so for the preview and the PDF the
diagram's SVG is rendered to a QImage with QSvgRenderer and given to the
document as an image resource. Every file is written atomically.
"""
from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QByteArray, QObject, QRectF, QUrl
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
           # Qt's own margins (12 px above and below every paragraph) made a typical
           # dispute three pages: half a line between paragraphs is enough on paper
           "p, ul, blockquote { margin-top: 4px; margin-bottom: 4px; }\n"
           "h1 { font-size: 15pt; margin-bottom: 6px; }\n"
           "h2 { font-size: 12pt; margin-top: 12px; margin-bottom: 4px; }\n"
           "h3 { font-size: 10.5pt; margin-top: 8px; margin-bottom: 2px; }\n"
           "blockquote { color: #37474f; margin-left: 16px; }\n"
           "table { border-collapse: collapse; } td, th { border: 1px solid #bbbbbb; "
           "padding: 3px; font-size: 9pt; }\n")


def diagram_resource(image: QImage | None, name: QUrl | str) -> QImage | None:
    """The one resource a report document may load: the rendered diagram."""
    url = name.toString() if isinstance(name, QUrl) else name
    return image if image is not None and url == DIAGRAM_URL else None


def diagram_svg(report: str) -> str | None:
    found = _SVG.search(report)
    return found.group(0) if found else None


def diagram_image(svg: str, scale: float = 3.0, left_margin: float = 0.0) -> QImage:
    """The SVG rendered on white at ``scale`` times its size, with a white margin of
    ``left_margin`` times its width on the left."""
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    size = renderer.defaultSize()
    width, height = max(1, int(size.width() * scale)), max(1, int(size.height() * scale))
    margin = int(width * left_margin)
    image = QImage(width + margin, height, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(margin, 0, width, height))
    painter.end()
    return image


#: the white gap between a diagram set beside the text and the text (of its width)
BESIDE_GAP = 0.06


def qt_html(report: str, width: int | None = None,
            beside: bool = False) -> tuple[str, QImage | None]:
    """The report HTML for a QTextDocument: the inline SVG replaced by an <img> of it,
    and the image to register under :data:`DIAGRAM_URL`. ``beside``: the diagram on
    the right, the text from its caption on beside it (on paper a centred diagram
    alone on its lines took a quarter of the page)."""
    svg = diagram_svg(report)
    if svg is None:
        return report, None
    match = _SIZE.search(svg)
    if width is None:
        width = int(match.group(1)) if match else 320
    gap = BESIDE_GAP if beside else 0.0
    image = diagram_image(svg, left_margin=gap)
    align = 'align="right" ' if beside else ""
    img = (f'<img src="{DIAGRAM_URL}" width="{round(width * (1 + gap))}" height="{width}" '
           f'{align}alt="board diagram"/>')
    figure = f"<figure>{svg}</figure>"
    caption = re.search(r"<p>(?:(?!</p>).)*</p>\s*" + re.escape(figure), report,
                        re.DOTALL) if beside else None
    if caption is not None:  # floated from the paragraph before it (its caption) on
        start, end = caption.start(), caption.end() - len(figure)
        return report[:start] + img + report[start:end] + report[caption.end():], image
    tag = img if beside else f'<p align="center">{img}</p>'
    if figure in report:
        return report.replace(figure, tag, 1), image
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
    body, image = qt_html(report, width=240, beside=True)
    # QTextDocument sizes tables to their content unless told: full width reads better
    body = body.replace("<table>", '<table width="100%" cellspacing="0" cellpadding="2">')
    # the screen stylesheet (a centred column for browsers) is not for paper
    body = re.sub(r"<style>.*?</style>", "", body, count=1, flags=re.DOTALL)
    doc = ReportDocument(image)
    # 10 pt on Letter (the comparison 9 pt), the diagram beside its caption: a typical
    # dispute (its variant and rulebooks, diagram, facts, rulings, the comparison of
    # nine variants, the decision and signatures) fits on two pages
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
