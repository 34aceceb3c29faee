"""Keys in the app, through the real widgets: a missing key and a wrong passphrase
said plainly, creating and importing a key, a plain member cannot enter votes for
others, a failed verification listed and adoption refused, a hand-edited edition
shown as a problem instead of being put in force."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import yaml
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.ui.conftest import copy_data

BALLOT = Path("apca") / "ballots" / "2026-committee.yaml"


@pytest.fixture
def data(tmp_path) -> Path:
    """A, B and C have keys (A chair, B secretary); D and E have none yet."""
    from tests.ballots.helpers import make_keys

    folder = copy_data(tmp_path / "data")
    make_keys(folder, members=("A", "B", "C"), open_seed=True)
    return folder


def choose(panel, member: str) -> None:
    panel.member_combo.setCurrentIndex(panel.member_combo.findData(member))


def type_passphrase(qtbot, panel, text: str) -> None:
    panel.passphrase_edit.clear()
    qtbot.keyClicks(panel.passphrase_edit, text)


def enter(ws, qtbot, member: str, question: str, text: str) -> None:
    ws.tabs.setCurrentIndex(ws.TAB_VOTES)
    ws.member_combo.setCurrentIndex(ws.member_combo.findData(member))
    ws.question_list.setCurrentRow([q.id for q in ws.ballots.ballot.questions].index(question))
    ws.ranking_edit.clear()
    qtbot.keyClicks(ws.ranking_edit, text)
    qtbot.keyClick(ws.ranking_edit, "\r")


def test_missing_key_create_and_passphrase(open_ballots, data, qtbot):
    win, ws = open_ballots(data)
    panel = ws.key_panel
    config = Path(os.environ["RULESBOOK_CONFIG"])
    # D has no key at all
    choose(panel, "D")
    panel.use_button.click()
    assert "member D has no key in members.yaml" in panel.status.text()
    assert ws.ballots.keys.signer is None
    # C's key is registered but not on this computer (another laptop)
    [c_file] = (config / "keys").glob("C-*.pem")
    c_file.rename(c_file.with_suffix(".away"))
    choose(panel, "C")
    panel.use_button.click()
    assert "No key of member C on this computer" in panel.status.text()
    # D creates a key protected by a passphrase
    choose(panel, "D")
    type_passphrase(qtbot, panel, "pool checkers 13")
    panel.create_button.click()
    assert "created and registered in members.yaml" in panel.status.text()
    assert "counts once the chair (A) confirms it" in panel.status.text()
    assert panel.passphrase_edit.text() == ""  # never kept in the widget
    [d_file] = (config / "keys").glob("D-*.pem")
    assert stat.S_IMODE(d_file.stat().st_mode) == 0o600
    assert "ENCRYPTED" in d_file.read_text()
    assert not list(data.rglob("*.pem"))
    members = yaml.safe_load((data / "members.yaml").read_text())
    assert [s["member"] for s in members["registry"] if s["op"] == "key"][-1] == "D"
    # a wrong passphrase, then none, then the right one
    ws.ballots.keys.forget()
    type_passphrase(qtbot, panel, "pool checkers 31")
    panel.use_button.click()
    assert "Wrong or missing passphrase for the key of member D" in panel.status.text()
    assert "pool checkers" not in panel.status.text()
    panel.use_button.click()
    assert "Wrong or missing passphrase" in panel.status.text()
    type_passphrase(qtbot, panel, "pool checkers 13")
    qtbot.keyClick(panel.passphrase_edit, "\r")
    assert ws.ballots.keys.signer.member == "D"
    # until the chair confirms it, D's key signs nothing
    enter(ws, qtbot, "D", "10", "2")
    assert "never confirmed by the chair" in ws.vote_error.text()


def test_import_a_key_and_a_member_cannot_vote_for_others(open_ballots, data, qtbot,
                                                          tmp_path):
    win, ws = open_ballots(data)
    panel = ws.key_panel
    # E brings the key made on another computer
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"e's secret"))
    key_file = tmp_path / "e.pem"
    key_file.write_bytes(pem)
    choose(panel, "E")
    type_passphrase(qtbot, panel, "wrong")
    panel.open_dialog = lambda *a: (str(key_file), "")
    panel.import_button.click()
    assert "Wrong or missing passphrase for the key file" in panel.status.text()
    type_passphrase(qtbot, panel, "e's secret")
    panel.import_button.click()
    assert "created and registered in members.yaml" in panel.status.text()
    assert ws.ballots.keys.signer.member == "E"
    # C, a plain member, may vote only for C
    choose(panel, "C")
    panel.use_button.click()
    assert panel.status.text().startswith("Signing as C")
    enter(ws, qtbot, "A", "10", "2")
    assert "not the chair or the secretary" in ws.vote_error.text()
    assert ws.ballots.ranking_of("A", "10") is None
    enter(ws, qtbot, "C", "10", "4")
    assert ws.ballots.ranking_of("C", "10") == ("apca:10C",)
    assert "receipt" in win.statusBar().currentMessage() or ws.ballots.last_receipt
    # C exports their own votes, signed, and keeps the receipt
    target = tmp_path / "c-votes.yaml"
    ws.save_dialog = lambda *a: (str(target), "")
    ws.export_button.click()
    receipt = ws.ballots.last_receipt
    assert f"Your receipt: {receipt}" in ws.banner.text() and target.exists()
    # the secretary imports it: C's own signed vote, not a proxy vote
    choose(panel, "B")
    panel.use_button.click()
    ws.ballots.discard_changes()
    ws.ballots.open(data / BALLOT)
    assert ws.import_member(str(target))
    row10 = [q.id for q in ws.ballots.ballot.questions].index("10")
    assert ws.grid.item(row10, 2).text() == "10C"  # option 4, by name
    # ... and C cannot close the ballot
    choose(panel, "C")
    panel.use_button.click()
    ws.save_button.click()
    assert not ws.close_and_seal(confirm=False)
    assert "only the chair or the secretary closes" in ws.last_error
    ws.error_box.close()


def test_verify_lists_failures_adoption_refused_and_a_broken_chain(open_ballots, data, qtbot,
                                                                  settings):
    win, ws = open_ballots(data)
    panel = ws.key_panel
    choose(panel, "B")
    panel.use_button.click()
    for member, text in (("A", "4"), ("B", "4"), ("C", "4 1")):
        enter(ws, qtbot, member, "10", text)
    receipt = ws.ballots.last_receipt  # C's paper ballot, entered by B
    ws.save_button.click()
    assert ws.close_and_seal(confirm=False)
    ws.receipt_edit.setText(receipt)
    ws.receipt_button.click()
    assert "are in the ballot unchanged" in ws.banner.text()

    # someone recomputes nothing and just edits the title: listed, adoption refused
    path = data / BALLOT
    sealed = path.read_text(encoding="utf-8")
    path.write_text(sealed.replace("title: 'APCA proposed rules: committee ballot'",
                                   "title: 'Unanimous ballot'"), encoding="utf-8")
    assert sealed != path.read_text(encoding="utf-8")
    ws.verify_button.click()
    assert "THE BALLOT DOES NOT VERIFY" in ws.banner.text()
    assert "the title changed after the seal" in ws.banner.text()
    ws.adopt_button.setEnabled(True)
    assert not ws.adopt("tampered")
    assert "cannot be adopted" in ws.last_error
    ws.error_box.close()
    assert "tampered" not in (data / "editions.yaml").read_text()

    # the true file: adopted; then the edition is edited by hand (10C -> 10A)
    path.write_text(sealed, encoding="utf-8")
    assert ws.adopt("2026-ballot")
    editions = data / "editions.yaml"
    editions.write_text(editions.read_text().replace("proposal: apca:10C",
                                                     "proposal: apca:10A"))
    from ui.app import Launcher

    launcher = Launcher(settings)
    launcher.start(data, background=False)
    assert launcher.controller.library is None  # no edition with 10A's text in force
    dialog = launcher.problems_dialog
    assert dialog is not None and dialog.isVisible()
    assert "editions.yaml:" in dialog.text() and "adopts apca:10A" in dialog.text()
    dialog.hide()


def test_importing_another_members_key_is_refused(open_ballots, data, qtbot):
    """Issue #15's tester: C's private key imported as E's (so that E's votes would be
    signed with C's key) is refused, naming both members, and nothing is stored."""
    win, ws = open_ballots(data)
    panel = ws.key_panel
    config = Path(os.environ["RULESBOOK_CONFIG"])
    [c_file] = (config / "keys").glob("C-*.pem")
    members = (data / "members.yaml").read_bytes()
    choose(panel, "E")
    panel.open_dialog = lambda *a: (str(c_file), "")
    panel.import_button.click()
    assert "already registered to member C" in panel.status.text()
    assert "cannot also be member E's" in panel.status.text()
    assert ws.ballots.keys.signer is None or ws.ballots.keys.signer.member != "E"
    assert (data / "members.yaml").read_bytes() == members
    assert not list((config / "keys").glob("E-*.pem"))
