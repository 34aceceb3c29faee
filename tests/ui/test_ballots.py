"""The Ballots workspace on a copy of the data folder, through the real widgets."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.ui.conftest import copy_data

BALLOT = Path("apca") / "ballots" / "2026-committee.yaml"
# Question 10: options 1 apca:10, 2 apca:10A, 3 apca:10B, 4 apca:10C.
# Plurality: 10 and 10C tie with 2 first choices (the original stands);
# IRV: 10B then 10A go out, E's vote moves to 10C, which wins 3 of 5.
VOTES_10 = {"A": "1", "B": "1 4", "C": "4 3", "D": "4 3", "E": "2 4"}


@pytest.fixture
def data(tmp_path) -> Path:
    return copy_data(tmp_path / "data")


@pytest.fixture
def keys(data):
    """Every member has a key (in the test's config folder); A is chair, B secretary."""
    from tests.ballots.helpers import make_keys

    return make_keys(data, open_seed=True)


@pytest.fixture
def app(open_ballots, data, keys):
    return open_ballots(data)


def use_key(ws, member: str) -> None:
    panel = ws.key_panel
    panel.member_combo.setCurrentIndex(panel.member_combo.findData(member))
    panel.use_button.click()
    assert panel.status.text().startswith(f"Signing as {member}"), panel.status.text()


def enter(ws, qtbot, member: str, question: str, text: str) -> None:
    ws.member_combo.setCurrentIndex(ws.member_combo.findData(member))
    row = [q.id for q in ws.ballots.ballot.questions].index(question)
    ws.question_list.setCurrentRow(row)
    ws.ranking_edit.clear()
    qtbot.keyClicks(ws.ranking_edit, text)
    qtbot.keyClick(ws.ranking_edit, "\r")


def test_opens_the_committee_ballot_with_texts_and_settings(app, data):
    win, ws = app
    assert ws.ballots.path == data / BALLOT
    info = ws.info.text()
    for word in ("OPEN", "Instant runoff", "more than half", "quorum: 3 of 5", "A Pecan"):
        assert word in info
    ws.question_list.setCurrentRow([q.id for q in ws.ballots.ballot.questions].index("10"))
    page = ws.options_view.page_html()
    assert "1. 10 (original)" in page and "4. 10C (Kacher)" in page
    assert "How about this - all moves must be legal" in page
    assert "<del" not in page
    ws.diff_box.setChecked(True)  # the diff against the original, a click away
    assert "<del" in ws.options_view.page_html()


def test_votes_tally_seal_verify_tamper_adopt(app, data, qtbot, tmp_path, keys):
    win, ws = app
    path = data / BALLOT
    before = path.read_text(encoding="utf-8")
    win.show_workspace("ballots")
    ws.tabs.setCurrentIndex(ws.TAB_VOTES)
    # without a key nothing can be recorded
    enter(ws, qtbot, "A", "10", "1")
    assert "Choose your key first" in ws.vote_error.text()
    assert ws.ballots.ranking_of("A", "10") is None
    # the secretary signs in and types the paper ballots as proxy votes
    use_key(ws, "B")

    # a secretary types the paper ballots: numbers, Enter, next question
    members = list(VOTES_10)
    for n, (member, text) in enumerate(VOTES_10.items()):
        enter(ws, qtbot, member, "10", text)
        # Enter goes to the next member's paper ballot; after the last, the next question
        if n + 1 < len(members):
            assert ws.current_question_id() == "10"
            assert ws.member_combo.currentData() == members[n + 1]
        else:
            assert ws.current_question_id() == "11" and ws.member_combo.currentData() == "A"
    enter(ws, qtbot, "A", "13", "9")
    assert "no option 9" in ws.vote_error.text()
    assert ws.ballots.ranking_of("A", "13") is None
    assert ws.ballots.ranking_of("C", "10") == ("apca:10C", "apca:10B")
    row10 = [q.id for q in ws.ballots.ballot.questions].index("10")
    # the grid names the options (4 3 = 10C then 10B), not their numbers
    assert ws.grid.item(row10, 2).text() == "10C > 10B (proxy B)"  # C's paper ballot
    assert ws.grid.item(row10, 1).text() == "10 > 10C"  # B's own vote
    assert ws.ballots.dirty and "(unsaved votes)" in ws.info.text()
    assert path.read_text(encoding="utf-8") == before  # nothing written yet

    # a member's signed file with one vote changed after signing: refused whole
    from rulesbook.ballots import Vote, dump_member_ballot
    from rulesbook.ballots.signing import ballot_texts, sign_votes

    ballot_id = ws.ballots.ballot.id
    signed = sign_votes(ballot_id, [Vote("A", q, r, "2026-03-01T10:00:00Z") for q, r in
                                    (("12", ("apca:12A",)), ("13", ("apca:13A", "apca:13")))],
                        keys["A"], ballot_texts(ws.ballots.ballot))
    copy = {"schema_version": 1, "kind": "member-ballot", "ballot": ballot_id, "member": "A",
            "key": keys["A"].public, "at": signed[0].at, "signature": signed[0].signature,
            "votes": [{"question": v.question, "ranking": list(v.ranking)} for v in signed]}
    good = tmp_path / "a-good.yaml"
    good.write_text(dump_member_ballot(copy), encoding="utf-8")
    copy["votes"][1]["ranking"] = ["apca:13"]
    bad = tmp_path / "a-bad.yaml"
    bad.write_text(dump_member_ballot(copy), encoding="utf-8")
    snapshot = ws.ballots.ballot
    assert not ws.import_member(str(bad))
    assert ws.ballots.ballot is snapshot
    assert "do not carry A's signature" in ws.last_error
    assert "nothing imported" in ws.last_error
    ws.error_box.close()
    assert ws.import_member(str(good))
    assert ws.ballots.ranking_of("A", "12") == ("apca:12A",)

    # live tally, under two methods
    ws.tabs.setCurrentIndex(ws.TAB_TALLY)
    ws.show_result("10")
    irv = {r.question: r for r in ws.ballots.results}["10"]
    assert irv.method == "irv" and irv.adopted == "apca:10C"
    working = ws.working.page_html()
    assert "Instant-runoff rounds" in working and "Round 2" in working
    assert ws.chart.bars and any(b[2] for b in ws.chart.bars)
    ws.method_combo.setCurrentIndex(ws.method_combo.findData("plurality"))
    plural = {r.question: r for r in ws.ballots.results}["10"]
    assert plural.method == "plurality" and plural.adopted is None
    assert "tie" in plural.reason
    assert "Preview only" in ws.method_note.text()
    ws.method_combo.setCurrentIndex(ws.method_combo.findData("schulze"))
    ws.show_result("10")
    assert "Pairwise preferences" in ws.working.page_html()
    ws.method_combo.setCurrentIndex(ws.method_combo.findData("irv"))
    assert ws.ballots.ballot.method == "irv"

    # save, close and seal
    ws.save_button.click()
    assert not ws.ballots.dirty
    assert ws.close_and_seal(confirm=False)
    assert ws.ballots.ballot.status == "closed" and ws.ballots.ballot.seal is not None
    assert not ws.ranking_edit.isEnabled()
    sealed = path.read_text(encoding="utf-8")
    assert "seal:" in sealed

    assert ws.verify().ok
    assert ws.banner.isVisible() and "Seal verified" in ws.banner.text()

    # someone edits the file on disk: verify says so plainly
    vote_b = "- member: B\n  question: '10'\n  ranking: ['apca:10', 'apca:10C']\n"
    assert vote_b in sealed
    path.write_text(sealed.replace(vote_b, vote_b.replace("'apca:10', 'apca:10C'",
                                                          "'apca:10C', 'apca:10'")),
                    encoding="utf-8")
    result = ws.verify()
    assert not result.ok
    assert "THE BALLOT DOES NOT VERIFY" in ws.banner.text()
    assert "votes on question '10'" in ws.banner.text()
    assert "the signature does not match the vote" in ws.banner.text()
    assert not ws.adopt("tampered")
    assert "cannot be adopted" in ws.last_error
    ws.error_box.close()

    # the true file back: adopt, and the Editions workspace shows the redline
    path.write_text(sealed, encoding="utf-8")
    assert ws.verify().ok
    # Adopt… asks for the edition's id, title and date and shows the redline first
    from PySide6.QtCore import QTimer

    seen = {}

    def fill_in():
        dialog = ws.adopt_dialog
        dialog.id_edit.setText("2026-ballot")
        dialog.title_edit.setText("Second edition")
        dialog.date_edit.setText("2026-03-15")
        seen["preview"] = dialog.preview.page_html()
        seen["enabled"] = dialog.adopt_button.isEnabled()
        dialog.adopt_button.click()

    QTimer.singleShot(0, fill_in)
    ws.adopt_button.click()
    assert seen["enabled"]
    assert "apca:10 → text of apca:10C" in seen["preview"] and "<ins" in seen["preview"]
    assert win.controller.edition_id == "2026-ballot"
    adopted = win.controller.library.edition("2026-ballot")
    assert adopted.title == "Second edition" and str(adopted.date) == "2026-03-15"
    assert "2026-ballot" in (data / "editions.yaml").read_text(encoding="utf-8")
    # the record is signed by the key in use (issue #15's tester: the newest record too)
    record = yaml.safe_load((data / "editions.yaml").read_text(encoding="utf-8"))["editions"][-1]
    assert record["id"] == "2026-ballot" and record["signature"]
    assert (record["signed_by"], record["key"]) == (ws.ballots.keys.signer.member,
                                                    ws.ballots.keys.signer.public)
    editions = win.workspaces["editions"]
    assert win.current_workspace() is editions
    assert editions.new_combo.currentData() == "2026-ballot"
    redline = editions.redline_view.page_html()
    assert "apca:10" in redline and "changed" in redline
    assert editions.redline.new.id == "2026-ballot"
    assert any(e.ref == "apca:10" for e in editions.redline.changes)


def test_unsaved_votes_ask_before_closing(app, qtbot):
    win, ws = app
    use_key(ws, "B")
    enter(ws, qtbot, "B", "10", "2 1")
    asked = []
    ws.ask_unsaved = lambda: asked.append(1) or "cancel"
    win.close()
    assert asked and win.isVisible()
    ws.ask_unsaved = lambda: "discard"
    win.close()
    assert not win.isVisible()


def test_new_ballot_from_the_library(app, data):
    win, ws = app
    target = data / "apca" / "ballots" / "2027.yaml"
    assert ws.new_ballot("2027", str(target))
    assert ws.ballots.ballot.id == "2027" and ws.ballots.dirty
    assert not target.exists()  # nothing written until saved
    assert ws.save() == target
    assert target.exists()


def test_sealing_warns_about_questions_without_votes_and_below_quorum(app):
    from ui.ballots.views import seal_warnings

    _win, ws = app
    ballot = ws.ballots.ballot
    assert ballot.quorum == 3 and not ballot.votes
    warning = seal_warnings(ballot)
    assert f"{len(ballot.questions)} of {len(ballot.questions)} questions have no votes" in warning
    use_key(ws, "B")
    for member, text in (("A", "1"), ("B", "1 4")):
        ws.member_combo.setCurrentIndex(ws.member_combo.findData(member))
        ws.question_list.setCurrentRow([q.id for q in ballot.questions].index("10"))
        ws.ranking_edit.setText(text)
        assert ws.enter_ranking(), ws.vote_error.text()
    warning = seal_warnings(ws.ballots.ballot)
    assert "Below the quorum: 10 (2 of 3)" in warning
    assert f"{len(ballot.questions) - 1} of {len(ballot.questions)} questions" in warning
