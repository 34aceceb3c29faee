"""Screenshots of the rulings panel, a dispute report and a ballot tally
(offscreen, on a temporary copy of the bundled data).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python -m ui.rulings.screenshots [OUT_DIR]
Writes rulings.png, rulings-compare.png, report.png, report-panel.png, ballot-tally.png.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtGui import QColor, QImage, QPainter  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
FACTS: dict[str, bool | str] = {"discovered": "at_once", "repeated": False,
                                "players_agree": False, "reconstructible": True}
VOTES = {"A": "1", "B": "1 4", "C": "4 3", "D": "4 3", "E": "2 4"}


def document_image(report: str, width: int = 820) -> QImage:
    """The report drawn as the PDF draws it (QTextDocument with the diagram image)."""
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QTextDocument

    from .report import DIAGRAM_URL, QT_CSS, ReportDocument, qt_html

    body, image = qt_html(report)
    doc = ReportDocument(image)
    doc.setDefaultStyleSheet(QT_CSS)
    if image is not None:
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(DIAGRAM_URL), image)
    doc.setHtml(body)
    doc.setTextWidth(width)
    height = int(doc.size().height()) + 20
    out = QImage(width + 40, min(height, 2600), QImage.Format.Format_ARGB32)
    out.fill(QColor("white"))
    painter = QPainter(out)
    painter.translate(20, 10)
    doc.drawContents(painter)
    painter.end()
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else OUT
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(["rulesbook-screenshots"])
    from rulesbook.datapath import bundled_data_dir
    from rulesbook.rulings import GameIncident, RequestOrigin, RulingsRequest, get_case

    from ..controller import AppController
    from ..mainwindow import MainWindow
    from ..screenshots import demo_keys
    from ..workspaces.ballots import BallotsWorkspace
    from ..workspaces.rulings import RulingsWorkspace

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        shutil.copytree(bundled_data_dir(), data,
                        ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        os.environ["RULESBOOK_CONFIG"] = str(Path(tmp) / "config")  # demo keys only
        demo_keys(data, members=tuple("ABCDE"), secretary="B")  # every vote is signed
        controller = AppController()
        library = controller.load(data).library
        if library is None:
            return 1
        window = MainWindow(controller, settings)
        window.resize(1280, 800)
        window.show()
        QTest.qWaitForWindowExposed(window)
        rulings = window.workspace(RulingsWorkspace)

        incident = GameIncident("failure_to_capture", dict(FACTS), move="10-14")
        controller.rulingsRequested.emit(RulingsRequest(incident, RequestOrigin.CHECK_RECORD))
        app.processEvents()
        window.grab().save(str(out / "rulings.png"))
        rulings.tabs.setCurrentIndex(rulings.TAB_COMPARE)
        app.processEvents()
        window.grab().save(str(out / "rulings-compare.png"))

        case = get_case(library, "illegal-move-found-four-moves-later")
        rulings.rulings.load_case(case)
        rulings.rulings.set_field("notes", "White claims the jump 17-10 was agreed; Black "
                                           "denies it.")
        rulings.tabs.setCurrentIndex(rulings.TAB_REPORT)
        rulings.report.refresh_preview()
        app.processEvents()
        window.grab().save(str(out / "report-panel.png"))
        document_image(rulings.rulings.report_html()).save(str(out / "report.png"))

        ballots = window.workspace(BallotsWorkspace)
        window.show_workspace("ballots")
        ballots.ballots.keys.use("B")  # the secretary enters the committee's votes
        ballots.ballots.sign_settings()  # after she signs the settings (#27)
        for member, text in VOTES.items():
            ballots.ballots.cast(member, "10", text)
        for member, text in zip("ABCDE", ["2", "1 2", "2 1", "2", "1"], strict=True):
            ballots.ballots.cast(member, "28", text)
        ballots.tabs.setCurrentIndex(ballots.TAB_TALLY)
        ballots.show_result("10")
        app.processEvents()
        window.grab().save(str(out / "ballot-tally.png"))
        ballots.ask_unsaved = lambda: "discard"
        window.close()
    print(f"screenshots written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
