"""Colours derived from the palette, so light and dark themes both read well."""
from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication


def _mix(a: QColor, b: QColor, t: float) -> str:
    r = a.redF() * (1 - t) + b.redF() * t
    g = a.greenF() * (1 - t) + b.greenF() * t
    bl = a.blueF() * (1 - t) + b.blueF() * t
    return QColor.fromRgbF(r, g, bl).name()


def document_css(palette: QPalette | None = None) -> str:
    """The default style sheet of every QTextBrowser showing rules or diffs."""
    pal = palette or QApplication.palette()
    base = pal.color(QPalette.ColorRole.Base)
    text = pal.color(QPalette.ColorRole.Text)
    dark = base.lightnessF() < 0.5
    red = QColor("#ff4040") if dark else QColor("#d00000")
    green = QColor("#40d040") if dark else QColor("#008000")
    muted = _mix(text, base, 0.4)
    return (
        f"del.del {{ text-decoration: line-through; background-color: {_mix(base, red, 0.28)}; }}\n"
        f"ins.ins {{ text-decoration: none; background-color: {_mix(base, green, 0.28)}; }}\n"
        f".muted {{ color: {muted}; }}\n"
        f"p.note {{ color: {muted}; }}\n"
        f"span.tag {{ color: {muted}; }}\n"
        "h1 { font-size: x-large; } h2 { font-size: large; } h3 { font-size: medium; }\n"
    )
