"""Issue 27, part A: what is voted and adopted is signed — the attacks played the way
a committee member (or anyone who can push) plays them: the real ``rulesbook``
command in its own process, a shared bare repository, ``rulesbook clone`` and
``sync``, each member's private keys in their own configuration folder.

Against the code before the issue, each went through: ``validate`` said OK, ``edition
show`` printed the forged text as adopted, and the chair closed a ballot whose
threshold and quorum someone without a key had changed.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from dulwich.objects import Blob, Commit, Tree
from dulwich.repo import Repo

ADOPTED = ("The lone King must be caught before the player with the lone King counts "
           "fifteen, or the game is declared a draw.")
FORGED = ("The lone King must be caught before the player with the lone King counts "
          "fifty, or the game is declared a WIN for the lone King.")


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


class Committee:
    """Runs ``rulesbook`` as a member on their own computer (their config folder)."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("RULESBOOK_")}
        self.env.update(RULESBOOK_AUTHOR="Committee <committee@apca.invalid>",
                        XDG_DATA_HOME=str(tmp / "home-data"), PYTHONDONTWRITEBYTECODE="1")

    def run(self, member: str, *argv: object, code: int | None = 0) -> Run:
        proc = subprocess.run([sys.executable, "-m", "rulesbook", *map(str, argv)],
                              env=dict(self.env, RULESBOOK_CONFIG=str(self.tmp / f"cfg-{member}")),
                              cwd=self.tmp, capture_output=True, text=True, timeout=300)
        result = Run(proc.returncode, proc.stdout, proc.stderr)
        assert "Traceback" not in proc.stderr, proc.stderr
        if code is not None:
            assert proc.returncode == code, (argv, proc.stdout, proc.stderr)
        return result


def _setup(tmp: Path) -> tuple[Committee, Path, Path]:
    """The chair A's folder, shared through a bare repository: keys of A (chair), B and
    C (members, confirmed by A), each in their own configuration folder."""
    rb = Committee(tmp)
    bare = tmp / "shared.git"
    Repo.init_bare(str(bare), mkdir=True, default_branch=b"main").close()
    chair = tmp / "chair"
    rb.run("A", "init", chair)
    for member in "ABC":
        rb.run(member, "--data", chair, "member", "keygen", "--member", member)
    rb.run("A", "--data", chair, "member", "role", "A", "chair")
    for member in "BC":
        rb.run("A", "--data", chair, "member", "role", member, "member")
    rb.run("A", "--data", chair, "sync", "--quiet", "--remote", bare)
    return rb, bare, chair


def _force_push_rewritten(clone: Path, bare: Path, path: str,
                          changes: list[tuple[str, str]]) -> None:
    """What an outsider with push access does (``git filter-branch`` and a force push,
    bypassing rulesbook): every commit of the history rewritten so that ``path`` says
    each ``new`` where it said ``old`` — no commit shows the edit."""
    parts = [p.encode() for p in path.split("/")]
    with Repo(str(clone)) as repo:
        def rewrite(tree_id: bytes, rest: list[bytes]) -> bytes:
            tree = repo[tree_id]
            assert isinstance(tree, Tree)
            if rest[0] not in tree:
                return tree_id
            mode, sha = tree[rest[0]]
            if len(rest) == 1:
                blob = repo[sha]
                assert isinstance(blob, Blob)
                text = blob.data.decode("utf-8")
                for old, new in changes:
                    text = text.replace(old, new)
                replaced = Blob.from_string(text.encode("utf-8"))
                repo.object_store.add_object(replaced)
                new_sha = replaced.id
            else:
                new_sha = rewrite(sha, rest[1:])
            copy = Tree()
            for item in tree.items():
                copy.add(item.path, item.mode, new_sha if item.path == rest[0] else item.sha)
            repo.object_store.add_object(copy)
            return copy.id

        order = [w.commit for w in repo.get_walker()][::-1]  # oldest first
        mapped: dict[bytes, bytes] = {}
        for commit in order:
            forged = commit.copy()
            forged.tree = rewrite(commit.tree, parts)
            forged.parents = [mapped.get(p, p) for p in commit.parents]
            repo.object_store.add_object(forged)
            mapped[commit.id] = forged.id
        head = mapped[repo.head()]
        for old, new in changes:
            assert old not in _blob_at(repo, head, path) and new in _blob_at(repo, head, path)
        with Repo(str(bare)) as remote:
            for sha in repo.object_store:
                if sha not in remote.object_store:
                    remote.object_store.add_object(repo.object_store[sha])
            remote.refs[b"refs/heads/main"] = head


def _push_with_git(clone: Path, bare: Path, path: str) -> None:
    """Commit the file as it is in ``clone`` and push it with plain git (dulwich)."""
    from dulwich import porcelain

    porcelain.add(str(clone), [str(clone / path)])
    porcelain.commit(str(clone), message=b"tidy the ballot", author=b"X <x@invalid>",
                     committer=b"X <x@invalid>")
    with open(os.devnull, "wb") as quiet:
        porcelain.push(str(clone), str(bare), b"refs/heads/main:refs/heads/main",
                       errstream=quiet, outstream=quiet)


def _blob_at(repo: Repo, commit_id: bytes, path: str) -> str:
    commit = repo[commit_id]
    assert isinstance(commit, Commit)
    obj = repo[commit.tree]
    for part in path.split("/"):
        assert isinstance(obj, Tree)
        obj = repo[obj[part.encode()][1]]
    assert isinstance(obj, Blob)
    return obj.data.decode("utf-8")


def test_attack_1_an_adopted_text_rewritten_even_with_history_and_a_fresh_clone(tmp_path):
    rb, bare, chair = _setup(tmp_path)
    proposed = json.loads(rb.run("C", "--data", chair, "propose", "--member", "C", "--rule",
                                 "apca:28", "--kind", "replacement", "--text", ADOPTED,
                                 "--json").out)
    ref = proposed["ref"]
    ballot = chair / "apca" / "ballots" / "2027.yaml"
    rb.run("A", "--data", chair, "ballot", "new", ballot, "--as", "A", "--quorum", "3")
    for member in "ABC":
        rb.run(member, "--data", chair, "ballot", "vote", ballot, "--member", member,
               "--question", "28", "--ranking", ref)
    rb.run("A", "--data", chair, "ballot", "close", ballot, "--as", "A")
    rb.run("A", "--data", chair, "ballot", "adopt", ballot, "--edition", "2027")
    shown = json.loads(rb.run("A", "--data", chair, "edition", "show", "2027", "--json").out)
    assert shown["verified"] is True and shown["mismatches"] == []
    assert shown["texts_recorded"] is True
    rb.run("A", "--data", chair, "sync", "--quiet")

    # member B, in an ordinary clone, changes the adopted text by hand and syncs
    member = tmp_path / "member-b"
    rb.run("B", "clone", bare, member, "--quiet")
    book = member / "apca" / "rulebook.yaml"
    book.write_text(book.read_text(encoding="utf-8").replace(ADOPTED, FORGED),
                    encoding="utf-8")
    checked = rb.run("B", "--data", member, "validate", code=1)
    assert ref in checked.out and "'2027'" in checked.out
    assert f"rulesbook history {ref}" in checked.out
    shown_b = rb.run("B", "--data", member, "edition", "show", "2027", "--json", code=1)
    report = json.loads(shown_b.out)
    assert report["verified"] is False
    assert [m["source"] for m in report["mismatches"]] == [ref]
    assert report["mismatches"][0]["ref"] == "apca:28"
    assert report["mismatches"][0]["history"] == f"rulesbook history {ref}"
    plain = rb.run("B", "--data", member, "edition", "show", "2027", code=1)
    assert "NOT THE ADOPTED TEXT" in plain.err and ref in plain.err

    # the history rewritten (the forged text in the adopting commit itself), force-pushed
    _force_push_rewritten(chair, bare, "apca/rulebook.yaml", [(ADOPTED, FORGED)])
    fresh = tmp_path / "fresh"
    # a fresh clone refuses it, naming the text, the edition and how to see the change
    refused = rb.run("D", "clone", bare, fresh, "--quiet", code=2)
    assert ref in refused.err and "edition '2027'" in refused.err
    assert f"rulesbook history {ref}" in refused.err
    assert not (fresh / "apca" / "rulebook.yaml").exists()
    # and the member whose folder holds it (taken with plain git) is told by validate
    subprocess.run(["git", "-C", str(member), "fetch", "-q", str(bare), "main"], check=True)
    subprocess.run(["git", "-C", str(member), "reset", "-q", "--hard", "FETCH_HEAD"], check=True)
    assert FORGED in (member / "apca" / "rulebook.yaml").read_text(encoding="utf-8")
    checked = rb.run("B", "--data", member, "validate", code=1)
    assert ref in checked.out and "edition '2027'" in checked.out
    assert "ballot '2027', question '28': the text of " + ref in checked.out
    shown_d = json.loads(rb.run("B", "--data", member, "edition", "show", "2027", "--json",
                                code=1).out)
    assert shown_d["verified"] is False and shown_d["mismatches"][0]["source"] == ref


def test_the_seed_edition_is_never_shown_as_verified(tmp_path):
    rb = Committee(tmp_path)
    folder = tmp_path / "folder"
    rb.run("A", "init", folder)
    shown = json.loads(rb.run("A", "--data", folder, "edition", "show", "original",
                              "--json").out)
    assert shown["verified"] is False and shown["texts_recorded"] is False
    assert shown["mismatches"] == []
    text = rb.run("A", "--data", folder, "edition", "show", "original").out
    assert "recorded before text digests" in text


def _take_remote_file(bare: Path, folder: Path, path: str) -> None:
    """The chair takes the remote's file anyway, without rulesbook (a plain git pull)."""
    with Repo(str(bare)) as repo:
        (folder / path).write_text(_blob_at(repo, repo.refs[b"refs/heads/main"], path),
                                   encoding="utf-8")


def test_attack_3_settings_changed_in_a_clone_with_no_key(tmp_path):
    rb, bare, chair = _setup(tmp_path)
    rel = "apca/ballots/2026-committee.yaml"
    seed = chair / rel
    refused = rb.run("A", "--data", chair, "ballot", "vote", seed, "--member", "A",
                     "--question", "28", "--ranking", "28A", code=2)
    assert "ballot sign" in refused.err and "not signed" in refused.err
    rb.run("A", "--data", chair, "ballot", "sign", seed, "--as", "A")
    for member in "AB":
        rb.run(member, "--data", chair, "ballot", "vote", seed, "--member", member,
               "--question", "28", "--ranking", "28A")
    assert yaml.safe_load(seed.read_text())["threshold"] == "simple-majority"
    rb.run("A", "--data", chair, "sync", "--quiet")

    # in a clone with no key: threshold, quorum changed by hand
    clone = tmp_path / "no-key"
    rb.run("X", "clone", bare, clone, "--quiet")
    forged = (clone / rel).read_text()
    forged = forged.replace("threshold: simple-majority", "threshold: three-quarters")
    forged = forged.replace("quorum: 3", "quorum: 1")
    (clone / rel).write_text(forged)
    checked = rb.run("X", "--data", clone, "validate", code=1)
    assert "settings were changed after A signed them" in checked.out
    assert "(threshold)" in checked.out and "(quorum)" in checked.out
    pushed = rb.run("X", "--data", clone, "sync", "--quiet", code=2)  # rulesbook refuses
    assert "(threshold)" in pushed.err
    # ...so the forger commits and pushes with git itself
    _push_with_git(clone, bare, rel)

    synced = rb.run("A", "--data", chair, "sync", "--quiet", code=2)
    assert "(threshold)" in synced.err and "(quorum)" in synced.err
    assert yaml.safe_load(seed.read_text())["threshold"] == "simple-majority"
    # the chair takes the remote's file anyway: close refuses it, verify is not intact
    _take_remote_file(bare, chair, rel)
    assert yaml.safe_load(seed.read_text())["quorum"] == 1
    closing = rb.run("A", "--data", chair, "ballot", "close", seed, "--as", "A", code=2)
    assert "cannot be closed" in closing.err and "(threshold)" in closing.err
    assert "(quorum)" in closing.err
    verified = rb.run("A", "--data", chair, "ballot", "verify", seed, "--json", code=1)
    assert json.loads(verified.out)["ok"] is False
    voting = rb.run("C", "--data", chair, "ballot", "vote", seed, "--member", "C",
                    "--question", "28", "--ranking", "28A", code=2)
    assert "(threshold)" in voting.err


@pytest.mark.parametrize("who", ["B"])
def test_a_member_cannot_open_a_ballot(tmp_path, who):
    rb, _bare, chair = _setup(tmp_path)
    seed = chair / "apca" / "ballots" / "2026-committee.yaml"
    refused = rb.run(who, "--data", chair, "ballot", "sign", seed, "--as", who, code=2)
    assert "only the chair or the secretary opens a ballot" in refused.err
    assert "opened" not in yaml.safe_load(seed.read_text())


def test_a_text_changed_after_the_ballot_opened_is_named_and_not_adopted(data_copy,
                                                                          sealed_file, capsys):
    """10B, the text question 10 adopted, changed after the ballot was opened and
    voted on: validate names it and the ballot's question; adopt refuses it (a new
    edition would otherwise record the changed text as adopted)."""
    from rulesbook.cli import main

    target = data_copy / "apca" / "ballots" / "test.yaml"
    target.write_bytes(sealed_file.read_bytes())
    assert main(["--data", str(data_copy), "validate"]) == 0
    book = data_copy / "apca" / "rulebook.yaml"
    data = yaml.safe_load(book.read_text(encoding="utf-8"))
    rule = next(r for r in data["rules"] if r["id"] == "10")
    proposal = next(p for p in rule["proposals"] if p["id"] == "10B")
    proposal["text"] += " Unless the referee says otherwise."
    book.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                    encoding="utf-8")
    capsys.readouterr()
    assert main(["--data", str(data_copy), "validate"]) == 1
    out = capsys.readouterr().out
    assert ("ballot 'test-ballot', question '10': the text of apca:10B changed after the "
            "ballot was opened") in out and "rulesbook history apca:10B" in out
    editions = (data_copy / "editions.yaml").read_bytes()
    assert main(["--data", str(data_copy), "ballot", "adopt", str(target),
                 "--edition", "2026a"]) == 2
    err = capsys.readouterr().err
    assert "cannot be adopted while texts of the folder are not the ones voted on" in err
    assert "the text of apca:10B changed after the ballot was opened" in err
    assert (data_copy / "editions.yaml").read_bytes() == editions
