"""Issue 19 (part A), driven through the real widgets: opening or pasting over
unsaved work asks Save / Discard / Cancel; New clears the tags; the record's
event, round, date and players flow into the case file and the dispute report
(HTML and PDF)."""
from __future__ import annotations

import io
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog

from tests.datapaths import CORPUS
from tests.ui.board_helpers import (  # noqa: F401 - fixtures ws, autosave_dir
    board_workspace,
    private_autosave_dir,
)

TYPED = "11-15 23-19 8-11 22-17"
TAGS = {"Event": "Ohio Open", "Round": "4", "Date": "2026.05.02", "Black": "Ann Lee",
        "White": "Bob <b>Ray</b>"}


def pdn(moves: str = "1. 9-14 22-18 2. 5-9 *", comment: str = "", **tags: str) -> str:
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
    body = (f"{{{comment}}} " if comment else "") + moves
    return f'{head}[GameType "23"]\n\n{body}\n'




class Asked:
    """Stands in for the Save / Discard / Cancel question: answers ``answer``, keeps
    what was asked."""

    def __init__(self, answer: str):
        self.answer = answer
        self.questions: list[str] = []

    def __call__(self, what: str) -> str:
        self.questions.append(what)
        return self.answer


def type_moves(qtbot, ws, text: str = TYPED) -> None:
    ws.move_entry.setText(text)
    qtbot.keyClick(ws.move_entry, Qt.Key.Key_Return)


def texts(ws) -> list[str]:
    return [m.text for m in ws.board_controller.moves]


def paste(ws, text: str) -> None:
    QGuiApplication.clipboard().setText(text)
    ws.paste_action.trigger()


def test_cancel_leaves_the_typed_record_as_it_was(qtbot, ws):
    type_moves(qtbot, ws)
    ws.confirm_replace = asked = Asked("cancel")
    paste(ws, pdn(**TAGS))
    assert asked.questions == ["the pasted record"]
    assert texts(ws) == TYPED.split() and ws.board_controller.record.tags == {}
    assert ws.board_controller.unsaved_work
    assert "Nothing was replaced" in ws.status_text()


def test_discard_replaces(qtbot, ws):
    type_moves(qtbot, ws)
    ws.confirm_replace = asked = Asked("discard")
    paste(ws, pdn(**TAGS))
    assert len(asked.questions) == 1
    assert texts(ws) == ["9-14", "22-18", "5-9"]
    assert ws.board_controller.record.tags["Black"] == "Ann Lee"


def test_save_saves_first_and_a_cancelled_save_replaces_nothing(qtbot, ws, tmp_path,
                                                                 monkeypatch):
    from rulesbook.reconstruct import load_case

    type_moves(qtbot, ws)
    ws.confirm_replace = Asked("save")
    # the save dialog is cancelled: nothing saved, nothing replaced
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: ("", ""))
    paste(ws, pdn(**TAGS))
    assert texts(ws) == TYPED.split() and ws.board_controller.unsaved_work
    # the save goes through: the typed record is in the case file, then replaced
    target = tmp_path / "typed.yaml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    paste(ws, pdn(**TAGS))
    assert load_case(target).record.split() == TYPED.split()
    assert texts(ws) == ["9-14", "22-18", "5-9"]


def test_no_question_when_nothing_is_unsaved(qtbot, ws, tmp_path, monkeypatch):
    ws.confirm_replace = asked = Asked("cancel")
    paste(ws, pdn(**TAGS))                 # the board as started: nothing to lose
    paste(ws, pdn("1. 10-14 *"))           # a record just imported is not unsaved work
    assert texts(ws) == ["10-14"]
    ws.new_action.trigger()                # nor is it to New
    assert texts(ws) == []
    # saved work is not unsaved either
    type_moves(qtbot, ws)
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "c.yaml"), ""))
    ws.save_case_action.trigger()
    paste(ws, pdn())
    assert asked.questions == []


def test_open_pdn_new_and_another_game_of_the_file_ask(qtbot, ws, monkeypatch):
    bc = ws.board_controller
    path = CORPUS / "english-tinsley-1946-1960s.pdn"
    ws.variant_combo.setCurrentIndex(ws.variant_combo.findData("english"))
    ws.choose_game = lambda chunks: 2
    type_moves(qtbot, ws, "11-15 23-19")
    ws.confirm_replace = asked = Asked("cancel")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    ws.open_action.trigger()                # Open PDN…
    assert asked.questions == [path.name] and texts(ws) == ["11-15", "23-19"]
    ws.new_action.trigger()                 # New
    assert asked.questions[-1] == "a new record" and texts(ws) == ["11-15", "23-19"]
    asked.answer = "discard"
    ws.open_action.trigger()
    assert bc.record.tags["Black"] == "E Fuller"
    # another game of the same file over a changed record asks again
    bc.go(0)
    bc.editing.set_comment(1, "noted")              # an edit of the user's
    asked.answer = "cancel"
    ws.choose_game = lambda chunks: 3
    assert not ws.open_pdn(path)
    assert bc.record.tags["Black"] == "E Fuller" and bc.moves[0].comment == "noted"


def test_new_clears_the_tags_and_the_comment(qtbot, ws):
    bc = ws.board_controller
    paste(ws, pdn(comment="Played in the final", **TAGS))
    assert "Ann Lee" in ws.record_title.text()
    # just imported: nothing would be lost by replacing it, and the title says so
    assert "unsaved changes" not in ws.record_title.text()
    assert "not saved as a case" in ws.record_title.text()
    assert "Played in the final" in ws.comment_view.toPlainText()
    bc.set_notes("the referee's notes")
    assert "unsaved changes (autosaved)" in ws.record_title.text()  # work to keep now
    ws.confirm_replace = Asked("discard")
    ws.new_action.trigger()
    assert bc.record.tags == {} and bc.notes == "" and bc.case_path is None
    assert ws.record_title.text().startswith("New record")
    assert "Ann Lee" not in ws.record_title.text() and "Ohio" not in ws.record_title.text()
    assert "Played in the final" not in ws.comment_view.toPlainText()


def test_tags_go_into_the_case_file_and_come_back(qtbot, ws, tmp_path, monkeypatch):
    from rulesbook.reconstruct import load_case

    bc = ws.board_controller
    paste(ws, pdn(**TAGS))
    target = tmp_path / "case.yaml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    ws.save_case_action.trigger()
    case = load_case(target)
    assert (case.event, case.round, case.date, case.black, case.white) == \
        ("Ohio Open", "4", "2026.05.02", "Ann Lee", "Bob <b>Ray</b>")
    ws.confirm_replace = Asked("discard")
    ws.new_action.trigger()
    assert "Ann Lee" not in ws.record_title.text()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(target), ""))
    ws.open_case_action.trigger()
    title = ws.record_title.text()
    assert "Ann Lee – Bob <b>Ray</b>" in title and "Ohio Open" in title
    assert ws.record_title.textFormat() == Qt.TextFormat.PlainText
    assert bc.record.tags["Round"] == "4" and bc.record.tags["Date"] == "2026.05.02"


def test_tags_reach_the_dispute_report(qtbot, window, tmp_path):
    from pypdf import PdfReader

    board = window.workspaces["board"]
    board.confirm_close = lambda: "discard"
    board.confirm_replace = Asked("cancel")
    rulings = window.workspaces["rulings"]
    window.show_workspace("board")
    # Black has to capture 10x19 at ply 7 but plays 9-13
    paste(board, pdn("1. 11-15 23-19 2. 8-11 22-17 3. 15-18 19-15 4. 9-13 24-20 *", **TAGS))
    qtbot.mouseClick(board.check_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(board.rulings_button, Qt.MouseButton.LeftButton)
    fields = rulings.rulings.fields
    assert (fields["event"], fields["round"], fields["date"], fields["black"],
            fields["white"]) == ("Ohio Open", "4", "2026.05.02", "Ann Lee", "Bob <b>Ray</b>")
    html_path = rulings.save_report("html", str(tmp_path / "report.html"))
    page = Path(html_path).read_text(encoding="utf-8")
    for value in ("Ohio Open", "2026.05.02", "Ann Lee"):
        assert value in page
    assert "Bob &lt;b&gt;Ray&lt;/b&gt;" in page and "<b>Ray</b>" not in page
    pdf_path = rulings.save_report("pdf", str(tmp_path / "report.pdf"))
    reader = PdfReader(io.BytesIO(Path(pdf_path).read_bytes()))
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    for value in ("Ohio Open", "Round: 4", "2026.05.02", "Ann Lee", "Bob <b>Ray</b>"):
        assert value in text, value


def test_the_real_question_names_the_choices_and_escape_cancels(qtbot, ws):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    type_moves(qtbot, ws)
    seen: list[tuple[str, list[str]]] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        seen.append((box.text(), sorted(b.text().replace("&", "") for b in box.buttons())))
        qtbot.keyClick(box, Qt.Key.Key_Escape)

    QTimer.singleShot(0, answer)
    paste(ws, pdn(**TAGS))
    assert seen and "the pasted record would replace it" in seen[0][0]
    assert seen[0][1] == ["Cancel", "Discard", "Save"]
    assert texts(ws) == TYPED.split()


def test_a_case_saved_under_another_extension_gets_yaml(qtbot, ws, tmp_path, monkeypatch):
    """A case typed as "report.pdf" in the save dialog is written as report.pdf.yaml:
    a plain-text case file must never pose as a PDF (found by a new-user check)."""
    paste(ws, pdn(**TAGS))
    typed = tmp_path / "report.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(typed), ""))
    ws.save_case_action.trigger()
    assert not typed.exists()
    assert (tmp_path / "report.pdf.yaml").is_file()
    assert ws.board_controller.case_path == tmp_path / "report.pdf.yaml"


def test_start_record_from_here_asks_before_replacing_unsaved_work(qtbot, ws):
    """Start Record from Here replaces the record: the same question as an import."""
    bc = ws.board_controller
    type_moves(qtbot, ws)
    typed = [m.text for m in bc.moves]
    asked = ws.confirm_replace = Asked("cancel")
    ws.mode_actions["setup"].trigger()
    bc.setup.set_fen("W:WK29:BK1,K2,K3")
    ws.use_start_button.click()
    assert asked.questions == ["a new record from the position set up"]
    assert [m.text for m in bc.moves] == typed  # Cancel: nothing replaced
    asked.answer = "discard"
    ws.use_start_button.click()
    assert bc.start.fen() == "W:WK29:BK1,K2,K3" and bc.moves == ()
