"""Unsaved votes survive a crash (recovery file, Restore / Discard, stale recoveries
refused), and a save never silently overwrites a ballot file that changed on disk."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesbook.ballots import BallotError, close_file, load_ballot
from tests.ballots.helpers import cli_vote
from tests.ui.conftest import copy_data

BALLOT = Path("apca") / "ballots" / "2026-committee.yaml"


@pytest.fixture
def data(tmp_path) -> Path:
    return copy_data(tmp_path / "data")


@pytest.fixture
def keys(data):
    """Every member has a key; A is chair, B secretary (who types the votes here)."""
    from tests.ballots.helpers import make_keys

    return make_keys(data, open_seed=True)


@pytest.fixture
def registry(data, keys):
    from rulesbook.ballots import load_registry

    return load_registry(data)


@pytest.fixture
def autosave(tmp_path) -> Path:
    return tmp_path / "autosave" / "ballots"  # RULESBOOK_AUTOSAVE_DIR, see conftest


@pytest.fixture
def session(open_ballots, data, keys):
    """Start "the app" on ``data``: a new window each call (a new session), the
    secretary B signing."""
    def start():
        win, ws = open_ballots(data)
        panel = ws.key_panel
        panel.member_combo.setCurrentIndex(panel.member_combo.findData("B"))
        panel.use_button.click()
        assert ws.ballots.keys.signer is not None, panel.status.text()
        return win, ws
    return start


def vote(ws, member: str, question: str, text: str) -> None:
    ws.member_combo.setCurrentIndex(ws.member_combo.findData(member))
    ws.question_list.setCurrentRow([q.id for q in ws.ballots.ballot.questions].index(question))
    ws.ranking_edit.setText(text)
    assert ws.enter_ranking(), ws.vote_error.text()


def recovery_files(autosave: Path) -> list[Path]:
    return sorted(autosave.glob("*.json"))


def test_every_change_is_autosaved_and_saving_or_discarding_removes_it(session, data,
                                                                        autosave):
    win, ws = session()
    before = (data / BALLOT).read_bytes()
    vote(ws, "B", "10", "2 1")
    [file] = recovery_files(autosave)
    saved = json.loads(file.read_text(encoding="utf-8"))
    [change] = saved["changes"]
    assert {k: change[k] for k in ("op", "member", "question", "ranking", "source")} == {
        "op": "vote", "member": "B", "question": "10", "ranking": ["apca:10A", "apca:10"],
        "source": "app"}
    assert change["vote"]["signature"]  # the signed vote, re-applied as it was
    assert saved["path"] == str((data / BALLOT).resolve())
    # the method is a signed setting of the open ballot: choosing another is refused
    assert not ws.choose_method_button.isEnabled()
    with pytest.raises(BallotError, match="cannot change now"):
        ws.ballots.choose_method("plurality")
    saved = json.loads(file.read_text(encoding="utf-8"))
    assert [c["op"] for c in saved["changes"]] == ["vote"]
    assert "method: irv" in saved["ballot"]
    assert (data / BALLOT).read_bytes() == before  # the ballot file waits for Save

    assert ws.save() == data / BALLOT
    assert recovery_files(autosave) == []
    vote(ws, "C", "10", "3")
    assert len(recovery_files(autosave)) == 1
    assert ws.may_discard()  # the user discards the unsaved vote
    assert recovery_files(autosave) == []


def test_restore_after_a_crash_then_discard(session, autosave):
    _first, ws = session()
    vote(ws, "B", "10", "2 1")
    vote(ws, "A", "12", "-")
    # the app dies here: nothing is closed; a new session starts
    _win, ws2 = session()
    assert ws2.recovery_banner.isVisibleTo(ws2) and ws2.restore_button.isVisibleTo(ws2)
    assert "2 vote(s) (B on 10, A on 12)" in ws2.recovery_label.text()
    assert not ws2.ballots.dirty and ws2.ballots.ranking_of("B", "10") is None
    assert ws2.restore_recovery()
    assert ws2.ballots.dirty and not ws2.recovery_banner.isVisibleTo(ws2)
    assert ws2.ballots.ranking_of("B", "10") == ("apca:10A", "apca:10")
    assert ws2.ballots.ranking_of("A", "12") == ()
    assert "(unsaved votes)" in ws2.info.text()
    assert len(recovery_files(autosave)) == 1  # still kept until saved or discarded

    # a third session: this time the secretary discards them
    _win, ws3 = session()
    assert ws3.restore_button.isVisibleTo(ws3)
    ws3.discard_recovery_button.click()
    assert recovery_files(autosave) == [] and not ws3.ballots.dirty
    assert ws3.ballots.ranking_of("B", "10") is None


def test_a_stale_recovery_is_refused_and_kept_aside(session, data, autosave):
    _first, ws = session()
    vote(ws, "B", "10", "2 1")
    cli_vote(data, "E", "10", "apca:10B")  # a member's vote, saved by the CLI
    _win, ws2 = session()
    assert not ws2.restore_button.isVisibleTo(ws2)
    text = ws2.recovery_label.text()
    assert ws2.recovery_banner.isVisibleTo(ws2) and "NOT restored" in text
    assert "has changed since" in text and "1 vote(s) (B on 10)" in text
    [aside] = (autosave / "set-aside").glob("*.json")
    assert str(aside) in text and recovery_files(autosave) == []
    assert json.loads(aside.read_text(encoding="utf-8"))["changes"][0]["member"] == "B"
    assert ws2.ballots.ranking_of("E", "10") == ("apca:10B",)  # the file as it is now


def test_the_file_changing_between_the_offer_and_restore_is_refused(session, data, autosave):
    _first, ws = session()
    vote(ws, "B", "10", "2 1")
    _win, ws2 = session()
    assert ws2.restore_button.isVisibleTo(ws2)
    cli_vote(data, "E", "10", "apca:10B")
    assert not ws2.restore_recovery()
    assert "NOT restored" in ws2.last_recovery_notice
    assert len(list((autosave / "set-aside").glob("*.json"))) == 1
    assert ws2.ballots.ranking_of("B", "10") is None


def test_typing_before_deciding_keeps_the_old_recovery_aside(session, autosave):
    _first, ws = session()
    vote(ws, "B", "10", "2 1")
    _win, ws2 = session()
    assert ws2.restore_button.isVisibleTo(ws2)
    vote(ws2, "C", "11", "1")  # ignores the banner and goes on typing
    assert "were not restored; they are kept at" in ws2.last_recovery_notice
    [aside] = (autosave / "set-aside").glob("*.json")
    assert json.loads(aside.read_text(encoding="utf-8"))["changes"][0]["member"] == "B"
    [current] = recovery_files(autosave)
    assert json.loads(current.read_text(encoding="utf-8"))["changes"][0]["member"] == "C"


def test_a_new_ballot_never_saved_is_recovered(session, data, autosave):
    _first, ws = session()
    target = data / "apca" / "ballots" / "2027.yaml"
    assert ws.new_ballot("2027", str(target))
    vote(ws, "A", "10", "1")
    _win, ws2 = session()  # opens the committee ballot, offers the other one
    assert ws2.restore_button.isVisibleTo(ws2) and "2027.yaml" in ws2.recovery_label.text()
    assert ws2.restore_recovery()
    assert ws2.ballots.ballot.id == "2027" and ws2.ballots.path == target
    assert ws2.ballots.ranking_of("A", "10") == ("apca:10",) and not target.exists()
    assert ws2.save() == target and load_ballot(target).id == "2027"


def changed_meanwhile(session, data):
    """B and C vote in the app; meanwhile the file gets E's vote and another B vote."""
    win, ws = session()
    vote(ws, "B", "10", "2 1")
    vote(ws, "C", "10", "4")
    cli_vote(data, "E", "10", "apca:10B")
    cli_vote(data, "B", "10", "apca:10C")
    return win, ws, (data / BALLOT).read_bytes()


def test_save_over_a_changed_file_asks_and_cancel_writes_nothing(session, data, autosave):
    _win, ws, theirs = changed_meanwhile(session, data)
    asked = []
    ws.ask_conflict = lambda conflict: asked.append(str(conflict)) or "cancel"
    assert ws.save() is None
    assert asked and "changed on disk since it was opened" in asked[0]
    assert "2 vote(s) (B on 10, C on 10)" in asked[0]
    assert (data / BALLOT).read_bytes() == theirs
    assert ws.ballots.dirty and len(recovery_files(autosave)) == 1


def test_reload_and_reapply_keeps_both_and_the_history(session, data, autosave):
    _win, ws, _theirs = changed_meanwhile(session, data)
    ws.ask_conflict = lambda conflict: "reload"
    assert ws.save() == data / BALLOT
    saved = load_ballot(data / BALLOT)
    votes = {(v.member, v.question): v.ranking for v in saved.votes}
    assert votes == {("E", "10"): ("apca:10B",), ("B", "10"): ("apca:10A", "apca:10"),
                     ("C", "10"): ("apca:10C",)}
    [replaced] = saved.history  # the other secretary's vote for B, replaced by ours
    assert (replaced.member, replaced.ranking, replaced.source) == ("B", ("apca:10C",), "app")
    assert "B on 10: the vote recorded in the file (apca:10C) was replaced" \
        in ws.last_recovery_notice
    assert not ws.ballots.dirty and recovery_files(autosave) == []
    vote(ws, "D", "10", "1")  # the new base: saving again is no conflict
    ws.ask_conflict = lambda conflict: pytest.fail("no conflict expected")
    assert ws.save() == data / BALLOT


def test_overwrite_keeps_the_version_on_disk_as_a_backup(session, data):
    _win, ws, theirs = changed_meanwhile(session, data)
    ws.ask_conflict = lambda conflict: "overwrite"
    assert ws.save() == data / BALLOT
    backup = data / BALLOT.with_name(BALLOT.name + "~")
    assert backup.read_bytes() == theirs
    saved = load_ballot(data / BALLOT)
    assert {v.member for v in saved.votes} == {"B", "C"}


def test_a_ballot_closed_on_disk_refuses_the_reapply_plainly(session, data, keys, registry):
    win, ws = session()
    vote(ws, "B", "10", "2 1")
    close_file(data / BALLOT, keys["A"], registry)
    sealed = (data / BALLOT).read_bytes()
    ws.ask_conflict = lambda conflict: "reload"
    assert ws.save() is None
    assert "closed and sealed on disk" in ws.last_error
    ws.error_box.close()
    assert (data / BALLOT).read_bytes() == sealed
    assert ws.ballots.dirty and ws.ballots.ranking_of("B", "10") == ("apca:10A", "apca:10")


def test_close_and_seal_over_a_changed_file_asks_too(session, data):
    _win, ws, _theirs = changed_meanwhile(session, data)
    ws.ask_conflict = lambda conflict: "reload"
    assert ws.close_and_seal(confirm=False)
    sealed = load_ballot(data / BALLOT)
    assert sealed.status == "closed" and sealed.seal is not None
    assert {v.member for v in sealed.votes} == {"B", "C", "E"}
    assert ws.verify().ok


def test_opening_another_ballot_withdraws_the_offer_but_keeps_the_file(session, data,
                                                                      autosave):
    _first, ws = session()
    vote(ws, "B", "10", "2 1")
    _win, ws2 = session()
    assert ws2.restore_button.isVisibleTo(ws2)
    assert ws2.new_ballot("2028", str(data / "apca" / "ballots" / "2028.yaml"))
    assert not ws2.recovery_banner.isVisibleTo(ws2) and ws2.ballots.pending is None
    assert not ws2.restore_recovery()
    assert len(recovery_files(autosave)) == 2  # the committee's, and the new ballot's


def test_a_recovery_still_in_use_by_another_running_app_is_not_offered(session, autosave):
    import subprocess
    import sys

    from ui.autosave import owner_lock_path, release

    _first, ws = session()
    vote(ws, "B", "10", "2 1")
    [file] = recovery_files(autosave)
    release(file)  # the other app (a child process) owns it now, through the OS lock
    hold = ("import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT);"
            " fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)")
    other = subprocess.Popen([sys.executable, "-c", hold, str(owner_lock_path(file))],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "held"
        _win, ws2 = session()
        assert not ws2.restore_button.isVisibleTo(ws2)
        # never hidden silently: the banner says whose it is
        assert ws2.recovery_banner.isVisibleTo(ws2)
        assert "still running" in ws2.recovery_label.text()
    finally:
        other.kill()
        other.wait()
        if other.stdout is not None:
            other.stdout.close()
    _win, ws3 = session()  # that app is gone: its unsaved votes are offered
    assert ws3.restore_button.isVisibleTo(ws3)


def test_a_live_pid_in_a_recovery_does_not_hide_it(session, autosave):
    """After a reboot the recorded pid may be any live process: still offered."""
    import subprocess
    import sys

    from ui.autosave import release

    _first, ws = session()
    vote(ws, "B", "10", "2 1")
    [file] = recovery_files(autosave)
    release(file)  # as if that app had crashed
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        data["pid"] = stranger.pid
        file.write_text(json.dumps(data), encoding="utf-8")
        _win, ws2 = session()
        assert ws2.restore_button.isVisibleTo(ws2)
    finally:
        stranger.kill()
        stranger.wait()
