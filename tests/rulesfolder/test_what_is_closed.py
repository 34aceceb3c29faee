"""Issue #27, the gaps after its first round: what a close seals and what a signed
opening says, each attack played on real clones of a shared folder (the committee of
test_sync: secretary E, chair A, member B; each on their own computer).

Before the fix each of these went through: ``ballot close`` sealed a ballot whose
proposal's text its author changed (and re-signed) after the votes on it; ``proposal
withdraw`` took a proposal off a ballot that had votes for it, and the close adopted
it all the same (a withdrawal that reached the folder by a merge as well); ``ballot
sign`` signed a draft's quorum counted before the members' keys were confirmed and
said nothing."""
from __future__ import annotations

from pathlib import Path

import yaml

from rulesbook.ballots import load_ballot, load_registry
from rulesbook.ballots.registry import now_utc
from rulesbook.proposing.core import sign_into

from .test_sync import BALLOT, as_owner, committee, ok, sync
from .test_who_signed import NEW_28, NEW_BALLOT, _rulebook_text, cli, signer_of

PROPOSAL = "apca:28A2"


def vote_28(rb, folder: Path, member: str) -> None:
    ok(as_owner(rb, folder, "ballot", "vote", folder / NEW_BALLOT, "--member", member,
                "--question", "28", "--ranking", "28A2"))


def proposed_and_opened(rb, tmp_path):
    """The committee; A proposes 28A2 (a replacement of rule 28, signed by him); the
    secretary opens ballot b27 with it as an option; everyone syncs."""
    remote, secretary, a, b = committee(rb, tmp_path)
    made = cli(a, "propose", "--member", "A", "--rule", "28", "--kind", "replacement",
               "--text", NEW_28, "--json")
    assert made.code == 0, made.err
    ok(sync(rb, a))
    ok(sync(rb, secretary))
    ok(as_owner(rb, secretary, "ballot", "new", secretary / NEW_BALLOT, "--as", "E"))
    ok(sync(rb, secretary))
    for folder in (a, b):
        ok(sync(rb, folder))
    question = load_ballot(a / NEW_BALLOT).find_question("28")
    assert PROPOSAL in question.options
    return remote, secretary, a, b


def close(folder: Path, closer: str):
    return cli(folder, "ballot", "close", folder / NEW_BALLOT, "--as", closer)


def test_close_refuses_a_ballot_whose_text_changed_after_the_votes(rb, tmp_path):
    remote, secretary, a, b = proposed_and_opened(rb, tmp_path)
    vote_28(rb, a, "A")
    ok(sync(rb, a))
    ok(sync(rb, b))
    vote_28(rb, b, "B")
    ok(sync(rb, b))
    ok(sync(rb, a))
    # the author (and chair) rewrites his proposal after the votes for it, by hand, and
    # signs the new text with his own key: the proposal is his, its signature verifies
    changed = NEW_28.replace("counts fifteen, or the game is declared a draw",
                             "counts fifty, or the game is declared a WIN for the lone King")
    text = _rulebook_text(a).replace(NEW_28, changed)
    assert changed in text
    (a / "apca" / "rulebook.yaml").write_text(
        sign_into(text, "rulebook.yaml", "apca", "apca:28", "28A2", signer_of(a, "A"),
                  now_utc()), encoding="utf-8")
    before = (a / NEW_BALLOT).read_bytes()
    refused = close(a, "A")
    assert refused.code == 2, refused.out + refused.err
    err = " ".join(refused.err.split())
    assert "ballot 'b27' cannot be closed" in err and "nothing was sealed" in err
    assert "question '28'" in err and f"the text of {PROPOSAL} changed after the ballot" in err
    assert f"rulesbook history {PROPOSAL}" in err
    assert (a / NEW_BALLOT).read_bytes() == before  # not sealed
    # the text as voted on: the close goes through
    (a / "apca" / "rulebook.yaml").write_text(_rulebook_text(b), encoding="utf-8")
    closed = close(a, "A")
    assert closed.code == 0, closed.err
    assert load_ballot(a / NEW_BALLOT).seal is not None


def test_a_proposal_on_a_ballot_with_votes_cannot_be_withdrawn_nor_adopted_withdrawn(
        rb, tmp_path):
    remote, secretary, a, b = proposed_and_opened(rb, tmp_path)
    vote_28(rb, a, "A")
    before = _rulebook_text(a)
    refused = cli(a, "proposal", "withdraw", "28A2", "--member", "A")
    assert refused.code == 2, refused.out
    assert (f"{PROPOSAL} cannot be withdrawn: the open ballot 'b27'" in refused.err
            and "has votes" in refused.err), refused.err
    assert _rulebook_text(a) == before  # the file unchanged
    ok(sync(rb, a))
    ok(sync(rb, b))
    vote_28(rb, b, "B")
    ok(sync(rb, b))
    # the secretary, who has not seen the votes yet, withdraws it for A: her copy of the
    # ballot has no vote, so she may; the sync merges the withdrawal with the votes
    withdrawn = cli(secretary, "proposal", "withdraw", "28A2", "--member", "E",
                    "--reason", "folded into 28F")
    assert withdrawn.code == 0, withdrawn.err
    ok(sync(rb, secretary))
    ok(sync(rb, a))
    assert "withdrawn:" in _rulebook_text(a) and len(load_ballot(a / NEW_BALLOT).votes) == 2
    tally = cli(a, "ballot", "tally", a / NEW_BALLOT)
    assert tally.code == 0 and f"adopted — {PROPOSAL}" in tally.out, tally.out  # the count
    before = (a / NEW_BALLOT).read_bytes()
    refused = close(a, "A")
    assert refused.code == 2, refused.out + refused.err
    err = " ".join(refused.err.split())
    assert "ballot 'b27' cannot be closed" in err and "nothing was sealed" in err
    assert f"question '28': the count adopts {PROPOSAL}, which was withdrawn on" in err
    assert "folded into 28F" in err and "never adopted" in err
    assert (a / NEW_BALLOT).read_bytes() == before


def test_signing_a_draft_says_when_its_quorum_is_not_the_default_at_signing_time(
        rb, tmp_path):
    """The seed's ballot was written before any key existed: its quorum 3 is a majority
    of the whole roll A-E. Signed once A, B and E hold confirmed keys, a majority of
    those who can vote is 2: the opener is told, and can sign that quorum."""
    remote, secretary, a, b = committee(rb, tmp_path)
    assert load_ballot(a / BALLOT).quorum == 3  # the seed's
    assert load_ballot(a / BALLOT).roll == ("A", "B", "C", "D", "E")
    signed = ok(cli(a, "ballot", "sign", a / BALLOT, "--as", "A"))
    out = " ".join(signed.out.split())
    assert ("quorum 3 is not the default at signing time: a majority of the 3 member(s) "
            "of the roll who hold a confirmed key (A, B, E) is 2") in out, out
    assert f"rulesbook ballot sign {a / BALLOT} --as A --quorum 2" in out
    confirmed = ok(cli(a, "ballot", "sign", a / BALLOT, "--as", "A", "--quorum", "2"))
    assert "not the default" not in confirmed.out
    ballot = load_ballot(a / BALLOT)
    assert ballot.quorum == 2 and ballot.opened is not None and ballot.opened.by == "A"
    assert yaml.safe_load((a / BALLOT).read_text())["quorum"] == 2
    ok(cli(a, "validate"))  # the signed settings hold, quorum 2 among them
    assert load_registry(a).chair == "A"
    # once a vote is in, the quorum is no longer the opener's to change
    ok(as_owner(rb, a, "ballot", "vote", a / BALLOT, "--member", "A", "--question", "10",
                "--ranking", "10B"))
    late = cli(a, "ballot", "sign", a / BALLOT, "--as", "A", "--quorum", "3")
    assert late.code == 2 and load_ballot(a / BALLOT).quorum == 2, late.err
