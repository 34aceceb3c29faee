"""Issue 33 Must 5, titles and labels say what is on screen (real widgets,
offscreen): the record's title follows a set-up start and a new record; the Gap
tab numbers the ply its search starts from as the caption under the board does."""
from __future__ import annotations

from rulesbook.reconstruct import import_record, replay
from tests.datapaths import CORPUS
from tests.ui.archive import write_archive
from tests.ui.board_helpers import (  # noqa: F401 - fixtures ws, autosave_dir
    board_workspace,
    private_autosave_dir,
)

OCA = CORPUS / "english-oca-2.0.pdn"


def test_start_record_from_here_and_new_retitle_the_record(qtbot, ws, tmp_path):
    assert ws.open_pdn(write_archive(tmp_path), 1)
    bc = ws.board_controller
    assert ws.record_title.text().startswith("Imported record · ACF archive game 2 ·")
    ws.mode_actions["setup"].trigger()
    bc.setup.set_fen("W:WK29:BK1,K2,K3")
    ws.use_start_button.click()
    assert bc.start.fen() == "W:WK29:BK1,K2,K3" and not bc.moves
    title = ws.record_title.text()
    assert not title.startswith("Imported record"), title
    assert title.startswith("Record from a set-up position")
    ws.undo_action.trigger()  # the imported record again, and its title
    assert ws.record_title.text().startswith("Imported record · ACF archive game 2 ·")
    ws.confirm_replace = lambda _what: "discard"
    ws.new_record()
    assert ws.record_title.text().startswith("New record")
    assert "ACF archive" not in ws.record_title.text()


def test_a_record_from_a_set_up_position_has_none_of_the_old_players(
        qtbot, ws, tmp_path, monkeypatch):
    """Found by the #33 retest: after Set Up and Start Record from Here the new record
    kept the previous game's White, Black and Event; the title named them and Export
    PDN wrote them. Driven as the referee does: the file opened, Set Up, a FEN typed,
    the button, More > Export PDN…; Undo brings the game back with its players."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QFileDialog

    tinsley = CORPUS / "english-tinsley-1946-1960s.pdn"
    assert ws.open_pdn(tinsley, 0)
    bc = ws.board_controller
    old = ("MF Tinsley", "M Rex", "Ohio State Ty 1946")
    assert all(name in ws.record_title.text() for name in old), ws.record_title.text()
    toolbar = ws.toolbar
    toolbar.widgetForAction(toolbar.mode_actions["setup"]).click()
    ws.fen_edit.setText("W:WK29:BK1,K2,K3")
    qtbot.keyClick(ws.fen_edit, Qt.Key.Key_Return)
    ws.confirm_replace = lambda _what: "discard"
    qtbot.mouseClick(ws.use_start_button, Qt.MouseButton.LeftButton)
    assert bc.mode == "play" and bc.start.fen() == "W:WK29:BK1,K2,K3" and not bc.moves
    title = ws.record_title.text()
    assert title.startswith("Record from a set-up position · English"), title
    assert not any(name in title for name in old), title
    assert "not kept" in ws.status_text(), ws.status_text()
    out = tmp_path / "setup.pdn"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(out), "")))
    export = next(a for a in ws.toolbar.more_menu.actions() if a.text() == "Export PDN…")
    export.trigger()
    text = out.read_text(encoding="utf-8")
    assert not any(name in text for name in old), text
    assert not any(f"[{tag} " in text for tag in ("White", "Black", "Event")), text
    assert '[FEN "W:WK29:BK1,K2,K3"]' in text and '[GameType "21' in text, text
    ws.undo_action.trigger()  # the game again, with its players
    assert all(name in ws.record_title.text() for name in old)
    assert bc.record.tags["White"] == "M Rex"


def test_the_gap_label_numbers_plies_as_the_board_does(qtbot, ws):
    """A 52-ply record whose ply 22 cannot be put on the board (from an empty square):
    the board stops at ply 21 of 52 and so does the Gap tab's label; the end of the
    record is ply 52, not 21."""
    text = OCA.read_text(encoding="utf-8")
    moves = [m.text for m in import_record(text, 1, None).record.moves]
    assert len(moves) == 52
    stop = next(f"{a}-{a + 4}" for a in range(1, 29)
                if len(replay(moves[:21] + [f"{a}-{a + 4}"], variant="english",
                              let_stand=True).positions) == 22)
    broken = moves[:21] + [stop] + moves[22:]
    assert ws.import_text(f'[GameType "21"]\n{" ".join(broken)} *\n')
    bc = ws.board_controller
    assert len(bc.moves) == 52 and bc.available_plies == 21
    target = replay(moves, variant="english").final
    assert bc.gap.mark_board_now(target)
    ws.gap_panel.show_target()
    label = ws.gap_target_label.text()
    bc.go(21)
    from ui.board.panels.boardview import caption

    assert caption(bc).startswith("Ply 21/52 ")
    assert "ply 21/52 " in label, label
    assert "end of the record" not in label
    assert "ply 22 cannot be played" in label
