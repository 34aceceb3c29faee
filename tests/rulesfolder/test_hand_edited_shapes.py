"""Data of the wrong shape where the merge and the history read a rules folder
before (or without) its validation: a hand edit or an old commit may hold a scalar
where a list or a mapping belongs. Each is left for the validation to report (the
merge) or skipped (the history), never a crash. Found by the strict type check."""
from __future__ import annotations

import pytest
import yaml
from dulwich.objects import Blob

from rulesbook.ballots.records import inline_signatures, table_signatures
from rulesbook.loading import load_library
from rulesbook.rulesfolder.errors import RulesFolderError
from rulesbook.rulesfolder.history import record_history
from rulesbook.rulesfolder.merge import merge_file
from rulesbook.rulesfolder.repo import (
    Identity,
    build_tree,
    commit_files,
    head_id,
    init_folder,
    make_commit,
    open_repo,
    set_head,
)

BALLOT = "apca/ballots/b.yaml"
WHO = Identity("Tester", "tester@example.org")


def _dump(data: object) -> bytes:
    return yaml.safe_dump(data, sort_keys=False).encode()


def test_a_ballot_whose_votes_are_not_a_list_is_kept_for_the_validation():
    # `votes: 5` next to a signatures table (a hand edit): nothing to inline or collect
    data = {"kind": "ballot", "id": "b", "signatures": [], "votes": 5}
    assert inline_signatures(data) == {"kind": "ballot", "id": "b", "votes": 5}
    assert table_signatures({"kind": "ballot", "id": "b", "history": 7}) == {
        "kind": "ballot", "id": "b", "history": 7}


def test_a_merge_of_a_ballot_with_a_scalar_votes_entry_does_not_crash():
    base = {"kind": "ballot", "id": "b", "status": "open", "signatures": [], "votes": []}
    ours = dict(base, votes=5)
    theirs = dict(base, status="closed")
    result = merge_file(BALLOT, _dump(base), _dump(ours), _dump(theirs))
    assert not result.conflicts
    assert yaml.safe_load(result.data or b"") == {
        "kind": "ballot", "id": "b", "status": "closed", "votes": 5}


def test_a_seal_that_is_not_a_mapping_is_left_for_the_validation():
    # the remote "sealed" the ballot with a hand-written text while a vote was made here
    vote = {"member": "A", "question": "10", "ranking": ["x"], "signature": "s"}
    base = {"kind": "ballot", "id": "b", "status": "open", "votes": []}
    ours = dict(base, votes=[vote])
    theirs = dict(base, status="closed", seal="sealed by hand")
    result = merge_file(BALLOT, _dump(base), _dump(ours), _dump(theirs))
    assert [c.record for c in result.after_seal] == ["votes[member=A, question=10]"]
    assert "sealed on the remote" in result.after_seal[0].note


def test_history_skips_an_old_commit_whose_editions_file_is_not_a_mapping(tmp_path):
    folder = tmp_path / "folder"
    init_folder(folder, identity=WHO)
    with open_repo(folder) as repo:
        first = head_id(repo)
        assert first is not None
        files = commit_files(repo, first)
        for text in (b"- not\n- a mapping\n", b"editions: 5\n"):
            blob = Blob.from_string(text)
            repo.object_store.add_object(blob)
            broken = make_commit(repo, build_tree(repo, {**files, "editions.yaml": blob.id}),
                                 [first], "Break editions.yaml by hand", WHO)
            set_head(repo, broken, first)
            # and put it back, so that the folder as it is now validates
            restored = make_commit(repo, build_tree(repo, files), [broken],
                                   "Restore editions.yaml", WHO)
            set_head(repo, restored, broken)
            first = restored
    library = load_library(folder)
    entries = record_history(folder, library, "apca:28")
    assert [e.change for e in entries] == ["added"]  # only the folder's creation


def test_a_commit_whose_tree_is_not_a_tree_is_refused_readably(tmp_path):
    # a commit received from a remote names its tree by id only: a hostile or damaged
    # one may name a blob there
    folder = tmp_path / "folder"
    init_folder(folder, identity=WHO)
    with open_repo(folder) as repo:
        blob = Blob.from_string(b"not a tree\n")
        repo.object_store.add_object(blob)
        bad = make_commit(repo, blob.id, [], "A commit whose tree is a blob", WHO)
        with pytest.raises(RulesFolderError, match="is a blob, not a tree"):
            commit_files(repo, bad)
