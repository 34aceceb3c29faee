"""What a new user found in the rules folder (issue #16, second round): files that are
not rules data are never shared, pushes of a few MB through `rulesbook serve`, ..."""
from __future__ import annotations

import base64
import json
import os

from dulwich.repo import Repo

from .conftest import bare_repo, log


def ok(result):
    assert result.code == 0, result.err
    return result


def tree_paths(folder) -> set[str]:
    from rulesbook.rulesfolder.repo import commit_files

    with Repo(str(folder)) as repo:
        return set(commit_files(repo, repo.head()))


def test_sync_shares_only_the_rules_data_files(rb, tmp_path):
    folder, remote = tmp_path / "mine", bare_repo(tmp_path / "shared.git")
    ok(rb("init", folder))
    (folder / "mynotes.txt").write_text("what I think of member B\n")
    (folder / "big.bin").write_bytes(os.urandom(1024 * 1024))
    members = folder / "members.yaml"
    members.write_text(members.read_text().replace("name: Moochie", "name: Moochie Jr."))
    result = ok(rb("--data", folder, "sync", "--remote", remote))
    assert "mynotes.txt" in result.err and "big.bin" in result.err and "not shared" in result.err
    assert log(folder)[0].message == "Edit by hand: members.yaml"
    paths = tree_paths(remote)
    assert "members.yaml" in paths
    assert "mynotes.txt" not in paths and "big.bin" not in paths
    assert (folder / "mynotes.txt").exists()  # left alone
    as_json = json.loads(ok(rb("--data", folder, "sync", "--json")).out)
    assert sorted(as_json["not_shared"]) == ["big.bin", "mynotes.txt"]
    assert as_json["committed_edits"] == []


def test_a_push_of_several_megabytes_goes_through_rulesbook_serve(rb, tmp_path, http_remote):
    url, bare = http_remote
    folder = tmp_path / "mine"
    ok(rb("init", folder))
    ok(rb("--data", folder, "sync", "--remote", url))
    members = folder / "members.yaml"
    # 4 MB of comment lines that do not compress: a commit of a few MB, each data file
    # well under the 20 MiB limit of docs/rules-folder.md
    noise = base64.b64encode(os.urandom(3 * 1024 * 1024)).decode()
    lines = "".join(f"# {noise[i:i + 76]}\n" for i in range(0, len(noise), 76))
    members.write_text(members.read_text() + lines)
    result = rb("--data", folder, "sync")
    assert result.code == 0, result.err
    assert log(bare)[0].id == log(folder)[0].id
    other = tmp_path / "other"
    ok(rb("clone", url, other))
    assert (other / "members.yaml").read_bytes() == members.read_bytes()
