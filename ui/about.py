"""Help ▸ About Rulesbook: the version, what it runs on, the rules folder in use,
and the licences of everything it ships (Qt's LGPL notice and where its source is).

A window of its own (not modal: a referee can keep it open beside a case); its
text is built by :func:`about_html` from the core's :mod:`rulesbook.version` and
:mod:`rulesbook.licences`, every text escaped. "Copy" puts the same facts as
plain text on the clipboard, for a bug report.
"""
from __future__ import annotations

import html
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import PySide6
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from rulesbook.licences import Component, components, python_component
from rulesbook.version import frozen, version

if TYPE_CHECKING:
    from .controller import AppController

__all__ = ["AboutDialog", "AboutFacts", "QT_SOURCE", "PYSIDE_SOURCE", "about_facts",
           "about_html", "about_text", "licence_folder"]

#: where the source of Qt and of PySide6 (Qt for Python) is published
QT_SOURCE = "https://download.qt.io/official_releases/qt/"
PYSIDE_SOURCE = "https://code.qt.io/cgit/pyside/pyside-setup.git/"


def licence_folder() -> Path:
    """The licence texts shipped with the app (the LGPL and the GPL it builds on)."""
    return Path(__file__).resolve().parent / "licences"  # beside this module, in the bundle too


@dataclass(frozen=True)
class AboutFacts:
    """What the About box says, as data (the tests read it; the box shows it)."""

    version: str
    bundle: bool
    python: str
    qt: str
    pyside: str
    data_dir: str
    edition: str
    gap_search: str
    components: tuple[Component, ...]


def _gap_search() -> str:
    """Whether the gap search runs compiled; never loads numba just to say so."""
    compiled = sys.modules.get("rulesbook.reconstruct.gap.compiled")
    if compiled is None:
        return "not loaded yet (it is prepared in the background after the start)"
    why = compiled.why_unavailable()
    if why:
        return f"the Python search (the compiled one is not available: {why})"
    if getattr(compiled, "KIND", "") == "aot":
        return "compiled ahead of time (the bundle's gap kernel module)"
    numba = sys.modules.get("numba")
    return f"compiled (numba {getattr(numba, '__version__', '?')})"


def about_facts(controller: AppController) -> AboutFacts:
    library = controller.library
    edition = ""
    if library is not None and controller.edition_id:
        ed = library.edition(controller.edition_id)
        edition = f"{ed.title} ({ed.id}, {ed.date})"
    shipped = components()
    qt = Component("Qt", qVersion(), "LGPL-3.0-only", QT_SOURCE)
    return AboutFacts(version(), frozen(), python_component().version, qVersion(),
                      PySide6.__version__, str(controller.data_dir), edition or "none",
                      _gap_search(), (python_component(), qt, *shipped))


def _qt_notice(facts: AboutFacts) -> list[str]:
    """Qt's LGPL notice, paragraph by paragraph (plain text)."""
    where = ("the separate library files in the bundle's _internal folder (Qt6*.dll, "
             "libQt6*.so, Qt*.framework)" if facts.bundle else
             "the PySide6 package installed with it")
    return [
        f"Rulesbook uses the Qt libraries {facts.qt} through PySide6 {facts.pyside} "
        "(Qt for Python), under the GNU Lesser General Public License version 3 "
        "(LGPL-3.0). Qt is a trademark of The Qt Company Ltd; Rulesbook is not made "
        "or endorsed by it.",
        f"The Qt libraries are {where}: you may replace them with a version of your own "
        "that is compatible with them.",
        f"The source code of Qt is published at {QT_SOURCE} and that of PySide6 and "
        f"shiboken6 at {PYSIDE_SOURCE} (tag v{facts.pyside}).",
        f"The texts of the LGPL and of the GPL it builds on are in {licence_folder()}.",
    ]


def about_html(facts: AboutFacts) -> str:
    """The About box's text as HTML; every text escaped."""
    e = html.escape
    kind = " (self-contained bundle)" if facts.bundle else ""
    rows = "".join(
        f"<tr><td>{e(c.name)}</td><td>{e(c.version)}</td><td>{e(c.licence)}</td>"
        f"<td>{_link(c.home)}</td></tr>" for c in facts.components)
    notice = "".join(f"<p>{_linked(e(p))}</p>" for p in _qt_notice(facts))
    return (f"<h2>Rulesbook {e(facts.version)}{e(kind)}</h2>"
            "<p>Rules knowledge and dispute resolution for the American Pool "
            "Checkers Association. MIT licence.</p>"
            "<table cellspacing='0' cellpadding='2'>"
            f"<tr><td><b>Version:</b></td><td>{e(facts.version)}</td></tr>"
            f"<tr><td><b>Python:</b></td><td>{e(facts.python)}</td></tr>"
            f"<tr><td><b>Qt:</b></td><td>{e(facts.qt)} (PySide6 {e(facts.pyside)})</td></tr>"
            f"<tr><td><b>Rules folder:</b></td><td>{e(facts.data_dir)}</td></tr>"
            f"<tr><td><b>Edition in force:</b></td><td>{e(facts.edition)}</td></tr>"
            f"<tr><td><b>Gap search:</b></td><td>{e(facts.gap_search)}</td></tr></table>"
            "<h3>Qt and the LGPL</h3>" + notice +
            "<h3>What Rulesbook ships, and the licence of each</h3>"
            "<table border='1' cellspacing='0' cellpadding='3'>"
            "<tr><th>Component</th><th>Version</th><th>Licence</th><th>Published at</th></tr>"
            f"{rows}</table>")


def _link(url: str) -> str:
    if not url.startswith(("https://", "http://")):
        return html.escape(url)
    return f"<a href='{html.escape(url, quote=True)}'>{html.escape(url)}</a>"


def _linked(text: str) -> str:
    """Escaped text with its two source addresses made links."""
    for url in (QT_SOURCE, PYSIDE_SOURCE):
        text = text.replace(html.escape(url), _link(url))
    return text


def about_text(facts: AboutFacts) -> str:
    """The same facts as plain text (Copy)."""
    lines = [f"Rulesbook {facts.version}{' (bundle)' if facts.bundle else ''}",
             f"Python {facts.python}, Qt {facts.qt}, PySide6 {facts.pyside}",
             f"Rules folder: {facts.data_dir}", f"Edition in force: {facts.edition}",
             f"Gap search: {facts.gap_search}", "", *_qt_notice(facts), "",
             *(f"{c.name} {c.version}: {c.licence}" for c in facts.components)]
    return "\n".join(lines)


class AboutDialog(QDialog):
    """Help ▸ About Rulesbook (see the module)."""

    def __init__(self, controller: AppController, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("About Rulesbook")
        self.setObjectName("about_dialog")
        self.facts = about_facts(controller)
        self.browser = QTextBrowser(self)
        self.browser.setOpenExternalLinks(True)
        self.browser.setHtml(about_html(self.facts))
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.copy_button = self.buttons.addButton("&Copy", QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.setToolTip("Copy these facts as text, for a bug report")
        self.copy_button.clicked.connect(lambda: self.copy())
        self.buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(self.buttons)
        self.resize(720, 600)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(about_text(self.facts))
