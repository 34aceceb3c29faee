"""Save PNG screenshots of each workspace into docs/screenshots/ (offscreen).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python -m ui.screenshots [OUT_DIR]
"""
from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

if TYPE_CHECKING:
    from rulesbook.ballots import SigningKey

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"


def grab(widget: QWidget, path: Path, settle_ms: int = 30) -> Path:
    """Let pending layout and paint events run, then save ``widget`` as a PNG."""
    for _ in range(3):
        QApplication.processEvents()
        QTest.qWait(settle_ms)
    widget.grab().save(str(path))
    return path


def demo_keys(data: Path, members: Sequence[str] = ("A", "B", "C"),
              secretary: str | None = None) -> dict[str, SigningKey]:
    """Demo signing keys of ``members`` (in ``$RULESBOOK_CONFIG``), registered in
    ``data``/members.yaml; the first member is chair and names ``secretary``."""
    from rulesbook.ballots import append_statement, generate_key

    at = "2026-05-01T10:00:00Z"
    keys: dict[str, SigningKey] = {}
    for member in members:
        keys[member], _ = generate_key(member, rules_folder=data)
        append_statement(data, {"op": "key", "member": member,
                                               "key": keys[member].public, "at": at},
                                              keys[member])
    chair = keys[members[0]]
    append_statement(data, {"op": "role", "member": chair.member,
                                           "role": "chair", "key": chair.public, "at": at},
                                          chair)
    if secretary:
        append_statement(data, {"op": "role", "member": secretary,
                                               "role": "secretary",
                                               "key": keys[secretary].public, "at": at},
                                              chair)
    return keys


def _adopt_demo_edition(data: Path) -> None:
    """A demo edition adopting 28A and 27A, the way the committee makes one: members
    with keys vote, the chair closes and signs, the ballot is adopted."""
    from rulesbook.ballots import (
        adopt_ballot,
        build_ballot,
        cast_vote,
        close_ballot,
        load_registry,
        open_ballot,
        save_ballot,
    )
    from rulesbook.loading import load_library

    at = "2026-05-01T10:00:00Z"
    keys = demo_keys(data)
    registry = load_registry(data)
    ballot = build_ballot(load_library(data), "demo", quorum=3)
    ballot = open_ballot(load_library(data), ballot, keys["A"], at=at, registry=registry)
    for member in keys:
        for question, option in (("28", "28A"), ("27", "27A")):
            ballot = cast_vote(ballot, member, question, option, at=at, signer=keys[member],
                               registry=registry)
    ballot = close_ballot(ballot, keys["A"], registry, at="2026-06-01T12:00:00Z")
    save_ballot(data / "apca" / "ballots" / "demo.yaml", ballot)
    adopt_ballot(load_library(data), ballot, "demo-2026", signer=keys["A"],
                 title="Demo edition (adopts 28A and 27A)", date="2026-06-01")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else OUT
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(["rulesbook-screenshots"])
    from .controller import AppController
    from .mainwindow import MainWindow
    from .workspaces.editions import EditionsWorkspace

    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        # A copy of the bundled data with a second (demo) edition, for the redline.
        import shutil

        from rulesbook.datapath import bundled_data_dir
        data = Path(tmp) / "data"
        shutil.copytree(bundled_data_dir(), data,
                        ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
        os.environ["RULESBOOK_CONFIG"] = str(Path(tmp) / "config")  # demo keys only
        _adopt_demo_edition(data)
        controller = AppController()
        result = controller.load(data)
        if not result.ok:
            print("\n".join(str(p) for p in result.problems))
            return 1
        window = MainWindow(controller, settings)
        window.resize(1280, 800)
        window.show()
        QTest.qWaitForWindowExposed(window)

        def shot(name: str) -> None:
            print(grab(window, out / f"{name}.png"))

        controller.open_ref("28")
        shot("rules")
        controller.open_topic("thirteen-count")
        shot("rules-topic")
        window.show_workspace("rules")
        window.search_field.setText("touched a piece")
        window.search.run()
        shot("search")
        window.search_results.hide()
        window.search_field.clear()
        controller.compare("28")
        shot("compare")
        window.show_workspace("editions")
        shot("editions")
        editions = window.workspace(EditionsWorkspace)
        editions.tabs.setCurrentIndex(1)
        shot("editions-redline")
        from rulesbook import Problem

        from .problems import ProblemsDialog
        dialog = ProblemsDialog("/path/to/rules_data", [
            Problem("apca/rulebook.yaml", 42, 17, "unknown member 'Z' (did you mean 'A'?)"),
            Problem("topics.yaml", 3, 9, "expected ',' or ']', but got '<stream end>'"),
            Problem("editions.yaml", 12, 5, "in_force names edition 'secnd', which does "
                    "not exist"),
        ])
        dialog.show()
        QTest.qWaitForWindowExposed(dialog)
        app.processEvents()
        dialog.grab().save(str(out / "problems.png"))
        print(out / "problems.png")
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
