"""Issue #27, part B: who signed, and when — each attack played on real clones of a
shared folder (the committee of test_sync: secretary E, chair A, member B), the
decisive steps through the installed command (``python -m rulesbook`` in a child
process, each member with their own configuration folder, so their own key).

Before the fix each of these went through: a vote re-signed with B's key under A's
name validated and was pushed; a vote deleted from an open ballot was pushed; a
vote dated 2019 with a copy of a revoked key was sealed and verified intact; a
registry statement slipped in above others verified; the quorum counted members
without a key; two clones adding a member both got G and `sync` stopped (and
``--take`` dropped one person)."""
from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

from rulesbook.ballots import load_ballot, load_registry, load_signing_key, save_ballot
from rulesbook.ballots.model import Vote
from rulesbook.ballots.registry import last_digest, sign_statement
from rulesbook.ballots.signing import ballot_texts
from rulesbook.ballots.signing import sign_vote as sign_vote_only
from tests.datapaths import REPO

from .computers import config_of, on_computer_of
from .test_sync import as_owner, committee, ok, sync

NEW_BALLOT = "apca/ballots/b27.yaml"


def sign_vote(ballot_id, vote, signer, ballot=None):
    """A vote signed as the program signs it: with the digests of the ballot's texts."""
    return sign_vote_only(ballot_id, vote, signer, ballot_texts(ballot) if ballot else None)


@dataclasses.dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str


def cli(folder: Path, *argv: object, owner: Path | None = None) -> Ran:
    """``rulesbook --data FOLDER ARGV...`` in a child process, on the computer of the
    member who works in ``owner`` (default: ``folder``)."""
    env = {**os.environ, "RULESBOOK_CONFIG": str(config_of(owner or folder)),
           "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "rulesbook", "--data", str(folder),
                           *map(str, argv)], capture_output=True, text=True, env=env,
                          timeout=600)
    assert "Traceback" not in done.stderr, done.stderr
    return Ran(done.returncode, done.stdout, done.stderr)


def head(remote: str) -> bytes:
    from dulwich.repo import Repo

    with Repo(remote) as repo:
        return repo.refs[b"refs/heads/main"]


def signer_of(folder: Path, member: str):
    """The private key of ``member`` (their newest registered, revoked or not) as it is
    on the computer of ``folder``'s owner."""
    public = [k.key for k in load_registry(folder).keys if k.member == member][-1]
    with on_computer_of(folder):
        return load_signing_key(member, public)


def opened_ballot(rb, tmp_path):
    """The committee; the secretary opens a new ballot and shares it; A votes 10B on
    question 10 and syncs; everyone syncs."""
    remote, secretary, a, b = committee(rb, tmp_path)
    ok(as_owner(rb, secretary, "ballot", "new", secretary / NEW_BALLOT, "--as", "E"))
    ok(sync(rb, secretary))
    for folder in (a, b):
        ok(sync(rb, folder))
    ok(as_owner(rb, a, "ballot", "vote", a / NEW_BALLOT, "--member", "A", "--question", "10",
                "--ranking", "10B"))
    ok(sync(rb, a))
    ok(sync(rb, b))
    return remote, secretary, a, b


# -- attack 4: a forged vote lives until the close ------------------------------------

def test_a_vote_resigned_with_bs_key_under_as_name_fails_validate_and_sync(rb, tmp_path):
    remote, secretary, a, b = opened_ballot(rb, tmp_path)
    path = b / NEW_BALLOT
    ballot = load_ballot(path)
    mine = signer_of(b, "B")
    forged = sign_vote(ballot.id, Vote("A", "10", ("apca:10C",), ballot.votes[0].at), mine, ballot)
    save_ballot(path, dataclasses.replace(ballot, votes=(forged,)))
    before = head(remote)

    checked = cli(b, "validate")
    assert checked.code == 1, checked.out + checked.err
    assert f"{NEW_BALLOT}:" in checked.out
    assert "the vote of A on question '10'" in checked.out
    assert "by B's key, not by a key of member A" in checked.out

    pushed = cli(b, "sync", "--quiet")
    assert pushed.code == 2, pushed.out + pushed.err
    assert "nothing was synced" in pushed.err and "the vote of A on question '10'" in pushed.err
    assert head(remote) == before  # nothing reached the shared folder


def test_a_forged_vote_committed_with_git_is_not_pushed(rb, tmp_path):
    """Committed behind rulesbook's back (git commit), the forgery is refused before the
    push: what a sync sends is validated like what it merges."""
    remote, secretary, a, b = opened_ballot(rb, tmp_path)
    path = b / NEW_BALLOT
    ballot = load_ballot(path)
    forged = sign_vote(ballot.id, Vote("A", "10", ("apca:10C",), ballot.votes[0].at),
                       signer_of(b, "B"), ballot)
    save_ballot(path, dataclasses.replace(ballot, votes=(forged,)))
    subprocess.run(["git", "-C", str(b), "-c", "user.name=B", "-c", "user.email=b@x",
                    "commit", "-qam", "tidy"], check=True)
    before = head(remote)
    pushed = cli(b, "sync", "--quiet")
    assert pushed.code == 2, pushed.out + pushed.err
    assert "nothing was pushed" in pushed.err
    assert "the vote of A on question '10'" in pushed.err
    assert head(remote) == before


# -- attack 3 (the vote deleted) --------------------------------------------------------

def test_a_vote_deleted_from_an_open_ballot_is_refused_at_sync(rb, tmp_path):
    remote, secretary, a, b = opened_ballot(rb, tmp_path)
    path = b / NEW_BALLOT
    save_ballot(path, dataclasses.replace(load_ballot(path), votes=()))
    assert cli(b, "validate").code == 0  # the ballot alone is consistent...
    before = head(remote)
    pushed = cli(b, "sync", "--quiet")  # ...but the shared one had A's signed vote
    assert pushed.code == 2, pushed.out + pushed.err
    assert ("the signed vote of member A on question '10' of ballot 'b27'" in pushed.err
            and "disappeared without a newer signed vote" in pushed.err)
    assert head(remote) == before


def test_a_vote_replaced_by_its_member_still_syncs(rb, tmp_path):
    """The append-only rule lets a member change their mind: the newer signed vote
    replaces the old, which stays in the history."""
    remote, secretary, a, b = opened_ballot(rb, tmp_path)
    ok(as_owner(rb, a, "ballot", "vote", a / NEW_BALLOT, "--member", "A", "--question", "10",
                "--ranking", "10A"))
    assert cli(a, "sync", "--quiet").code == 0
    ok(sync(rb, b))
    assert [v.ranking for v in load_ballot(b / NEW_BALLOT).votes] == [("apca:10A",)]


# -- attack 5: back-dating with a copy of a revoked key ----------------------------------

def test_a_backdated_vote_with_a_key_copied_before_its_revocation(rb, tmp_path):
    remote, secretary, a, b = opened_ballot(rb, tmp_path)
    thief = tmp_path / "thief"  # a copy of B's key, taken before the revocation
    shutil.copytree(config_of(b), config_of(thief))
    # times have whole seconds: the revocation must come after the opening's second,
    # or a vote dated at the opening is already one "at or after the revocation"
    time.sleep(1.1)
    ok(cli(a, "member", "revoke", "B"))
    ok(cli(a, "sync", "--quiet"))
    ok(rb("clone", remote, thief, "--quiet"))
    stolen = signer_of(thief, "B")
    path = thief / NEW_BALLOT
    ballot = load_ballot(path)
    for at, why in (("2019-01-01T00:00:00Z", "before the key of member B was registered"),
                    (ballot.opened_at, "the key of B revoked at")):
        vote = sign_vote(ballot.id, Vote("B", "10", ("apca:10C",), at), stolen, ballot)
        save_ballot(path, dataclasses.replace(ballot, votes=(*ballot.votes, vote)))
        before = head(remote)
        pushed = cli(thief, "sync", "--quiet")
        assert pushed.code == 2, pushed.out + pushed.err
        assert why in pushed.err, pushed.err
        assert head(remote) == before
        subprocess.run(["git", "-C", str(thief), "checkout", "-q", "--", "."], check=True)

    # dated 2019 and sealed anyway (by a chair whose program does not check): verify
    # refuses it
    vote = sign_vote(ballot.id, Vote("B", "10", ("apca:10C",), "2019-01-01T00:00:00Z"),
                     stolen, ballot)
    forged = tmp_path / "sealed.yaml"
    from rulesbook.ballots import tally
    from rulesbook.ballots.seal import compute_seal

    sealed = dataclasses.replace(ballot, votes=(*ballot.votes, vote), status="closed")
    sealed = dataclasses.replace(sealed, results=tuple(r.to_dict() for r in tally(sealed)))
    save_ballot(forged, dataclasses.replace(sealed, seal=compute_seal(
        sealed, "2026-12-31T00:00:00Z", signer_of(a, "A"))))
    verified = cli(a, "ballot", "verify", forged)
    assert verified.code == 1, verified.out + verified.err
    assert "before the key of member B was registered" in verified.err + verified.out
    assert "before the ballot was opened" in verified.err + verified.out
    # and the chair's own close refuses such a vote
    save_ballot(forged, dataclasses.replace(ballot, votes=(*ballot.votes, vote)))
    closed = cli(a, "ballot", "close", forged, "--as", "A")
    assert closed.code != 0 and "before the key of member B was registered" in closed.err


# -- the registry's hash chain ---------------------------------------------------------------

def _statements(folder: Path) -> list[dict]:
    return yaml.safe_load((folder / "members.yaml").read_text())["registry"]


def _write_statements(folder: Path, statements: list[dict]) -> None:
    data = yaml.safe_load((folder / "members.yaml").read_text())
    data["registry"] = statements
    (folder / "members.yaml").write_text(yaml.safe_dump(data, sort_keys=False, width=1000))


def test_a_statement_slipped_into_the_past_of_the_registry(rb, tmp_path):
    """With a copy of the chair's key, a role statement dated before the last shared
    statement, inserted above it, unchained (as if appended to an empty registry) or
    chained to the statement above it: validate cannot tell it from a merge of
    statements made on two clones at once, and the sync refuses it (its history
    shows no such fork)."""
    remote, secretary, a, b = committee(rb, tmp_path)
    statements = _statements(b)
    chair = signer_of(a, "A")
    slipped = {"op": "role", "member": "B", "role": "secretary",
               "key": load_registry(b).key_of("B"), "at": statements[-1]["at"]}
    before = head(remote)
    for inserted in (sign_statement(slipped, chair),
                     sign_statement(slipped, chair, last_digest(statements[:-1]))):
        _write_statements(b, statements[:-1] + [inserted] + statements[-1:])
        pushed = cli(b, "sync", "--quiet")
        assert pushed.code == 2, pushed.out + pushed.err
        assert "slipped into the past" in pushed.err, pushed.err
        assert "role statement for member B" in pushed.err
        assert head(remote) == before

    # a statement changed in the middle breaks the chain below it
    statements[1] = {**statements[1], "at": "2026-01-01T00:00:00Z"}
    _write_statements(b, statements)
    checked = cli(b, "validate")
    assert checked.code == 1
    assert "names a previous statement" in checked.out and "that is not above it" in checked.out


def test_statements_added_on_two_clones_at_once_still_chain(rb, tmp_path):
    remote, secretary, a, b = committee(rb, tmp_path)
    c = tmp_path / "member-c"
    ok(rb("clone", remote, c, "--quiet"))
    ok(cli(c, "member", "keygen", "--member", "C"))
    ok(cli(b, "member", "keygen", "--member", "D", owner=b))  # D's key made on B's computer
    assert cli(c, "sync", "--quiet").code == 0
    merged = cli(b, "sync", "--quiet")
    assert merged.code == 0, merged.err
    assert cli(b, "validate").code == 0
    assert {k.member for k in load_registry(b).keys} >= {"C", "D"}


# -- Must 7: the quorum and the letters -------------------------------------------------------

def test_the_default_quorum_counts_the_members_who_hold_a_key(rb, tmp_path):
    remote, secretary, a, b = committee(rb, tmp_path)
    ok(cli(secretary, "member", "add", "Sixth Member"))  # F: A-F on the roll, keys: A, B, E
    out = secretary / "apca" / "ballots" / "q.yaml"
    ok(cli(secretary, "ballot", "new", out))
    ballot = load_ballot(out)
    assert ballot.roll == ("A", "B", "C", "D", "E", "F")
    assert ballot.quorum == 3 // 2 + 1  # a majority of the three who can sign


def test_two_clones_adding_a_member_at_once_keep_both(rb, tmp_path):
    remote, secretary, a, b = committee(rb, tmp_path)
    ok(cli(a, "member", "add", "Ada Lovelace"))
    ok(cli(b, "member", "add", "Bob Newhart"))
    assert cli(a, "sync", "--quiet").code == 0  # A's reaches the shared folder first: F
    merged = cli(b, "sync")
    assert merged.code == 0, merged.err
    assert "Bob Newhart was added here as member F" in merged.out
    assert "Bob Newhart is now member G" in merged.out
    members = {m["id"]: m["name"] for m in
               yaml.safe_load((b / "members.yaml").read_text())["members"]}
    assert members["F"] == "Ada Lovelace" and members["G"] == "Bob Newhart"
    ok(sync(rb, a))
    assert (a / "members.yaml").read_bytes() == (b / "members.yaml").read_bytes()
    assert cli(a, "validate").code == 0


# -- attack 2 / Must 3: proposals signed by their author -----------------------------------

NEW_28 = ("The lone King must be caught before the player with the lone King counts "
          "fifteen, or the game is declared a draw.")


def _rulebook_text(folder: Path) -> str:
    return (folder / "apca" / "rulebook.yaml").read_text(encoding="utf-8")


def test_a_proposal_is_changed_only_by_its_author(rb, tmp_path):
    remote, secretary, a, b = committee(rb, tmp_path)
    made = cli(a, "propose", "--member", "A", "--rule", "28", "--kind", "replacement",
               "--text", NEW_28, "--json")
    assert made.code == 0, made.err
    ok(cli(a, "sync", "--quiet"))
    for folder in (b, secretary):
        ok(sync(rb, folder))

    # B may not edit or withdraw A's proposal through the command...
    before = _rulebook_text(b)
    for argv in (("edit", "28A2", "--text", "counts fifty: a WIN for the lone King."),
                 ("withdraw", "28A2")):
        refused = cli(b, "proposal", *argv, "--member", "B")
        assert refused.code == 2, refused.out
        assert "apca:28A2 is member A's: only A (or the secretary acting for A)" in refused.err
        assert _rulebook_text(b) == before
    # ...nor by hand: validate names it, sync sends nothing
    (b / "apca" / "rulebook.yaml").write_text(before.replace("counts fifteen", "counts fifty"),
                                              encoding="utf-8")
    checked = cli(b, "validate")
    assert checked.code == 1
    assert "proposal apca:28A2 (member A): the signature of A does not match" in checked.out
    shared = head(remote)
    pushed = cli(b, "sync", "--quiet")
    assert pushed.code == 2 and "apca:28A2" in pushed.err and head(remote) == shared
    # ...nor re-signed with B's own key
    from rulesbook.proposing.core import sign_into

    text = sign_into(_rulebook_text(b), "rulebook.yaml", "apca", "apca:28", "28A2",
                     signer_of(b, "B"), "2026-12-31T00:00:00Z")
    (b / "apca" / "rulebook.yaml").write_text(text, encoding="utf-8")
    checked = cli(b, "validate")
    assert checked.code == 1
    assert "is member A's but signed by B, who was not the secretary" in checked.out
    subprocess.run(["git", "-C", str(b), "checkout", "-q", "--", "."], check=True)

    # the secretary acting for A may, recorded as such in the record and the commit
    edited = cli(secretary, "proposal", "edit", "28A2", "--member", "E", "--text",
                 NEW_28.replace("fifteen", "fourteen"))
    assert edited.code == 0, edited.err
    assert 'signed: {by: "E"' in _rulebook_text(secretary)
    from .conftest import log

    assert log(secretary)[0].message == "Proposal 28A2: text edited (by secretary E for member A)"
    ok(cli(secretary, "sync", "--quiet"))
    ok(sync(rb, a))

    # once an open ballot that includes it has votes, even its author cannot edit it
    ok(cli(secretary, "ballot", "new", secretary / NEW_BALLOT, "--as", "E"))
    ok(cli(secretary, "sync", "--quiet"))
    ok(sync(rb, a))
    ok(as_owner(rb, a, "ballot", "vote", a / NEW_BALLOT, "--member", "A", "--question", "28",
                "--ranking", "28A2"))
    before = _rulebook_text(a)
    refused = cli(a, "proposal", "edit", "28A2", "--member", "A", "--text", NEW_28)
    assert refused.code == 2
    assert "cannot be edited: the open ballot 'b27'" in refused.err and "has votes" in refused.err
    assert _rulebook_text(a) == before


def test_a_seed_proposal_changed_by_hand_fails_validate(rb, tmp_path):
    """The source document's proposals carry no signature: they are valid exactly as
    transcribed (their digests are in the program), and changed they need their
    author's signature."""
    remote, secretary, a, b = committee(rb, tmp_path)
    text = _rulebook_text(b)
    assert "counts thirteen. If" in text
    (b / "apca" / "rulebook.yaml").write_text(text.replace("counts thirteen. If",
                                                           "counts twenty. If", 1))
    checked = cli(b, "validate")
    assert checked.code == 1
    assert ("carries no author signature and is not the source document's text"
            in checked.out)


def test_the_seed_list_is_the_shipped_source_documents_proposals():
    """tools/seed_proposal_digests.py's output is what the program holds."""
    made = subprocess.run([sys.executable, str(REPO / "tools" / "seed_proposal_digests.py")],
                          capture_output=True, text=True, check=True)
    shipped = (REPO / "rulesbook" / "proposing" / "seed_proposals.py").read_text(encoding="utf-8")
    assert made.stdout.strip() == shipped.strip()


def test_the_associations_annotations_are_not_the_authors_words(tmp_path):
    """A ruling, note or topic added to a proposal (the rulings audit does this) leaves
    it its author's; a word of its title or text changed does not."""
    from rulesbook.ballots.registry import Registry
    from rulesbook.proposing.checks import proposal_records
    from rulesbook.proposing.signature import proposal_problem
    from rulesbook.yamlio import load_file

    data = load_file(REPO / "rules_data" / "apca" / "rulebook.yaml").data
    book, rule, record, _ = next(r for r in proposal_records(data) if r[2]["id"] == "5A")
    assert proposal_problem(book, rule, record, Registry()) is None
    annotated = dict(record, notes=["added by the audit"], topics=["timing"],
                     rulings=[])
    assert proposal_problem(book, rule, annotated, Registry()) is None
    for field in ("text", "title", "kind", "member"):
        changed = dict(record, **{field: str(record.get(field, "")) + "x"})
        assert proposal_problem(book, rule, changed, Registry()) is not None, field
    assert proposal_problem(book, "apca:6", record, Registry()) is not None
