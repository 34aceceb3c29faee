"""Issue 27 (part A): in the app, the seed's ballot takes no vote until the chair (or
the secretary) signs its settings with the key in use; a plain member cannot."""
from __future__ import annotations

from tests.ui.conftest import copy_data


def test_the_chair_signs_the_settings_then_the_ballot_takes_votes(open_ballots, tmp_path,
                                                                  qtbot):
    from tests.ballots.helpers import make_keys

    data = copy_data(tmp_path / "data")
    make_keys(data)
    win, ws = open_ballots(data)
    win.resize(1024, 700)
    win.show_workspace("ballots")
    assert ws.ballots.ballot.opened is None and ws.sign_button.isEnabled()
    panel = ws.key_panel
    panel.member_combo.setCurrentIndex(panel.member_combo.findData("C"))  # a member
    panel.use_button.click()
    ws.sign_button.click()
    assert "only the chair or the secretary opens a ballot" in ws.last_error
    assert ws.ballots.ballot.opened is None
    try:
        ws.ballots.cast("C", "10", ["10A"])
    except Exception as exc:  # noqa: BLE001 - the message is what the user reads
        assert "not signed" in str(exc) and "ballot sign" in str(exc)
    else:  # pragma: no cover - the refusal above failed
        raise AssertionError("an unsigned ballot took a vote")
    panel.member_combo.setCurrentIndex(panel.member_combo.findData("A"))  # the chair
    panel.use_button.click()
    ws.sign_button.click()
    assert ws.ballots.ballot.opened is not None and ws.ballots.ballot.opened.by == "A"
    assert not ws.sign_button.isEnabled()
    ws.ballots.cast("A", "10", ["10A"])
    assert ws.ballots.ranking_of("A", "10") == ("apca:10A",)
    ws.save()
    from rulesbook.ballots import load_ballot, load_registry, settings_failures

    saved = load_ballot(ws.ballots.path)
    assert saved.opened is not None and settings_failures(saved, load_registry(data)) == []
    win.grab().save("/tmp/i27a-sign.png")
