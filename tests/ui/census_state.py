"""The control census's sensible states: a corpus record on the Board, a record
with an illegal move, a gap search, the committee ballot with votes, unsaved votes
of an earlier session, a saved case (tests/ui/test_census.py)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from tests.long_gap import LONG_GAP
from tests.ui.census import Dialogs, Watchdog, pdn_moves

BALLOT = Path("apca") / "ballots" / "2026-committee.yaml"
PLANTED = "11-15 23-19 8-11 22-17 15-18 19-15 9-13 24-20"  # ply 7 misses a capture
GAME = "pool-3-kings-vs-1-theory.pdn"
#: the interview's gap: plies 21-28 of the first Tinsley game (tests/ui/test_board_gap_interview)
INTERVIEW_BEFORE, INTERVIEW_PLIES = 20, 8
#: the lone king (White, on 32) makes its 13th move at ply 26 (tests/ui/test_board_claims)
THREE_V_ONE = "B:WK32:BK1,K2,K3"
THREE_V_ONE_LINE = ("1-5 32-28 2-7 28-1 3-12 1-6 5-1 6-2 7-3 2-9 1-5 9-2 3-10 2-13 5-1 13-2 "
                    "10-14 2-13 1-5 13-2 12-3 2-6 3-7 6-1 5-9 1-5 7-2")



@dataclass
class Census:
    window: object
    dialogs: Dialogs
    qtbot: object
    data: Path
    tmp: Path
    pdn: Path
    watchdog: Watchdog | None = None
    #: each member's signing key (tests/ballots/helpers.make_keys: A chair, B secretary)
    keys: dict = field(default_factory=dict)
    #: receipts members were given for the signed ballots they sent (member -> code)
    receipts: dict = field(default_factory=dict)

    # -- shortcuts to the parts ---------------------------------------------------
    def ws(self, name: str):
        return self.window.workspaces[name]

    @property
    def bc(self):
        return self.ws("board").board_controller

    @property
    def ballots(self):
        return self.ws("ballots").ballots

    def clipboard(self) -> str:
        return QGuiApplication.clipboard().text()

    # -- sensible states --------------------------------------------------------------
    def record(self) -> None:
        """The corpus game on the Board, at its start, not in a preview."""
        self.window.show_workspace("board")
        bc = self.bc
        bc.gap.stop_preview()
        if [m.text for m in bc.moves] != pdn_moves(self.pdn) or bc.mode != "play":
            bc.set_mode("play")
            if bc.unsaved_work:  # the earlier state's typed moves: asked, and discarded
                self.dialogs.buttons.append("&Discard")
            assert self.ws("board").open_pdn(self.pdn)
        bc.go(0)

    def planted(self) -> None:
        """A typed record whose ply 7 is illegal, checked."""
        self.window.show_workspace("board")
        bc = self.bc
        bc.set_mode("play")
        bc.editing.new_game()
        assert bc.editing.type_moves(PLANTED)
        bc.set_mode("check")
        assert bc.check.first_illegal is not None

    def claim(self) -> None:
        """Three kings against one, played past the 13-count (rule 28): the draw claim
        announced under the board."""
        from rulesbook.draughts import Position

        self.window.show_workspace("board")
        bc = self.bc
        bc.set_mode("play")
        bc.editing.new_game(start=Position.from_fen(THREE_V_ONE))
        assert bc.editing.type_moves(THREE_V_ONE_LINE)
        assert self.ws("board").claim_bar.button.isVisible()

    def gap(self, plies: int = 2) -> list[str]:
        """The board now is ``plies`` after the record: returns the missing moves."""
        self.window.show_workspace("board")
        bc = self.bc
        bc.set_mode("play")
        bc.editing.new_game()
        moves = PLANTED.split()[:4 + plies]
        assert bc.editing.type_moves(" ".join(moves))
        target = bc.position()
        bc.editing.new_game()
        assert bc.editing.type_moves(" ".join(moves[:4]))
        assert bc.gap.mark_board_now(target)
        ws = self.ws("board")
        ws.gap_kind.setCurrentIndex(ws.gap_kind.findData("exact"))
        ws.gap_plies.setValue(plies)
        return moves[4:]

    def gap_result(self):
        assert self.bc.gap.wait()
        self.qtbot.waitUntil(lambda: self.bc.gap.result is not None)
        return self.bc.gap.result

    def long_gap(self) -> None:
        """A search of minutes (a pool gap of 16 plies with many captures, as in
        tests/reconstruct/test_gap_progress.py), running. (The English gap of 12
        plies from the start it was takes 0.07 s since the search got faster: it
        could end before Cancel was clicked.)"""
        from rulesbook.draughts import Position

        self.window.show_workspace("board")
        bc = self.bc
        bc.set_mode("play")
        bc.editing.new_game(LONG_GAP.variant, Position.from_fen(LONG_GAP.earlier, LONG_GAP.variant))
        assert bc.gap.mark_board_now(Position.from_fen(LONG_GAP.board, LONG_GAP.variant))
        assert bc.gap.start(plies=LONG_GAP.plies)

    def gap_found(self) -> list[str]:
        missing = self.gap()
        ws = self.ws("board")
        assert ws.start_gap()
        self.gap_result()
        self.qtbot.waitUntil(lambda: ws.gap_list.count() > 0)
        ws.gap_list.setCurrentRow(0)
        return missing

    def interview(self):
        """The Gap tab interviewing the players (issue 30): the gap of 8 plies cut from
        the first Tinsley game (as tests/ui/test_board_gap_interview.py), searched,
        its sequences counted and the first of its questions asked. Returns the result."""
        from tests.ui.test_board_gap_strip import tinsley

        self.window.show_workspace("board")
        bc = self.bc
        bc.set_mode("play")
        moves, _start = tinsley(0)
        _moves, now = tinsley(INTERVIEW_BEFORE + INTERVIEW_PLIES)
        bc.editing.new_game("english", tinsley(0)[1])
        assert bc.editing.type_moves(" ".join(moves[:INTERVIEW_BEFORE]))
        assert bc.gap.mark_board_now(now)
        ws = self.ws("board")
        ws.gap_kind.setCurrentIndex(ws.gap_kind.findData("exact"))
        ws.gap_plies.setValue(INTERVIEW_PLIES)
        assert ws.start_gap()
        result = self.gap_result()
        assert len(result.questions) >= 2 and bc.gap.question() == result.questions[0]
        return result

    def sign_as(self, member: str) -> None:
        """``member``'s key in use, chosen through the key panel's own widgets."""
        signer = self.ballots.keys.signer
        if signer is not None and signer.member == member:
            return
        panel = self.ws("ballots").key_panel
        panel.member_combo.setCurrentIndex(panel.member_combo.findData(member))
        panel.use_button.click()
        assert panel.status.text().startswith(f"Signing as {member}"), panel.status.text()

    def ballot(self, votes: bool = False) -> None:
        """The committee ballot of the data folder, open and saved, with the
        secretary's key (B) in use: every vote entered is signed."""
        self.window.show_workspace("ballots")
        b = self.ballots
        self.sign_as("B")
        if b.dirty or b.path != self.data / BALLOT or b.ballot is None or \
                not b.ballot.is_open:
            if b.dirty:  # an earlier state's unsaved changes (a draft, votes): dropped
                b.discard_changes()
            b.open(self.data / BALLOT)  # the file as saved (signed at its opening)
        if votes:
            ws = self.ws("ballots")
            ws.tabs.setCurrentIndex(ws.TAB_VOTES)
            ws.member_combo.setCurrentIndex(ws.member_combo.findData("B"))
            ws.question_list.setCurrentRow(self.question_row("10"))
            ws.ranking_edit.setText("2 1")
            self.qtbot.keyClick(ws.ranking_edit, Qt.Key.Key_Return)
            assert b.dirty

    def question_row(self, qid: str) -> int:
        return [q.id for q in self.ballots.ballot.questions].index(qid)

    def recovery(self) -> None:
        """Unsaved votes of an "earlier session" offered for the ballot."""
        self.ballot(votes=True)
        b = self.ballots
        kept = b.recovery_file.read_bytes()
        b.discard_changes()
        b.open(self.data / BALLOT)
        b.recovery_file.write_bytes(kept)
        assert b.check_recovery() is not None

    def member_file(self, member: str, question: str, ranking: str) -> Path:
        """A member's own ballot, as `ballot export` writes it on their computer: their
        vote signed with their key; the receipt they were given is kept."""
        from rulesbook.ballots import cast_vote, dump_member_ballot, export_member_ballot

        self.ballot()
        registry = self.ballots.keys.registry()
        signer = self.keys[member]
        at = "2026-05-01T10:00:00Z"
        theirs = cast_vote(self.ballots.ballot, member, question, ranking, at=at,
                           signer=signer, registry=registry)
        doc, receipt = export_member_ballot(theirs, member, signer, at)
        path = self.tmp / f"member-{member.lower()}.yaml"
        path.write_text(dump_member_ballot(doc), encoding="utf-8")
        self.receipts[member] = receipt
        return path

    def case_file(self) -> Path:
        path = self.tmp / "saved-case.yaml"
        if not path.exists():
            self.record()
            assert self.bc.files.save_case(path) is not None
        return path
