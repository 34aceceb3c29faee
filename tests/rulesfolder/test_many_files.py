"""A commit of 200,000 files (about 14 MB packed) from a hostile remote, and pushed
to ``rulesbook serve`` (issue #28 Must 3 and 4): refused as the pack streams, by
counting its trees' entries and its objects, in seconds and under 400 MB. Before,
the refusal came from the tree's bound after the whole pack was indexed: clone
25.5-26.9 s at 314 MB, sync 31 s, a push to ``serve`` 8.9 s."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import file_bytes
from .hostile import commit_many_files, commit_new_files_each_time
from .servers import git, git_daemon, push_to_serve, rulesbook_serve
from .test_hostile_remote import MAX_RSS_MB, measured, shared
from .test_serve import head, shared_folder

FILES = 200_000
#: the issue asks for 3 s; a slow shared machine is given some margin
MAX_SECONDS = 8
LAYOUTS = {
    "one folder": {},
    "200 to a folder": {"per_folder": 200},
    "one blob under every name": {"same": True},
}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_many_files_are_refused_as_the_pack_streams_by_sync_and_clone(rb, tmp_path, layout):
    (tmp_path / "base").mkdir()
    with git_daemon(tmp_path / "base") as daemon:
        url = daemon + "shared.git"
        bare, _secretary, member = shared(rb, tmp_path, url)
        commit_many_files(bare, FILES, **LAYOUTS[layout])
        before = file_bytes(member)
        code, seconds, rss, err = measured("--data", member, "sync")
        assert code == 2, err
        assert url in err and "files" in err and "internal error" not in err, err
        assert seconds < MAX_SECONDS and rss < MAX_RSS_MB, (seconds, rss, err)
        assert file_bytes(member) == before
        code, seconds, rss, err = measured("clone", url, tmp_path / "new")
        assert code == 2 and url in err and "files" in err, err
        assert seconds < MAX_SECONDS and rss < MAX_RSS_MB, (seconds, rss, err)
        assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_push_of_many_files_is_refused_as_it_arrives(tmp_path, layout):
    with rulesbook_serve(tmp_path / "srv.git") as served:
        shared_folder(tmp_path, served)
        before = head(served.bare)
        local = tmp_path / "local.git"
        git("clone", "-q", "--bare", served.bare, local)
        commit_many_files(local, FILES, **LAYOUTS[layout])
        pushed = push_to_serve(served, local, timeout=120)
        assert pushed.code != 0
        assert "files" in pushed.stderr and "internal error" not in pushed.stderr, \
            pushed.stderr
        assert pushed.seconds < MAX_SECONDS, (pushed.seconds, pushed.stderr)
        peak = pushed.server_peak_mb
        assert peak is None or peak < MAX_RSS_MB, (peak, pushed.stderr)
        assert head(served.bare) == before


#: the tester's histories (#28): 200,000 files over many commits, each
#: commit within the 10,000 files one may hold (here with the seed's 51), clone 28 s
#: and a push to serve 73-264 s before the per-commit bounds refused them
SPREAD = {"20 commits of 9,900 files": (20, 9_900), "100 commits of 2,000": (100, 2_000)}


def _spread(bare: Path, commits: int, files: int) -> None:
    for i in range(commits):
        commit_many_files(bare, files, per_folder=500, salt=b" c%d" % i)


@pytest.mark.parametrize("history", SPREAD)
def test_many_files_over_many_commits_are_refused_as_the_pack_streams(tmp_path, history):
    """Refused by the pack guard (its message: nothing was taken, the bound and the
    number found), not by a commit's check after the pack was indexed: a push to
    serve and a clone from git daemon."""
    commits, files = SPREAD[history]
    with rulesbook_serve(tmp_path / "srv.git") as served:
        shared_folder(tmp_path, served)
        before = head(served.bare)
        local = tmp_path / "local.git"
        git("clone", "-q", "--bare", served.bare, local)
        _spread(local, commits, files)
        pushed = push_to_serve(served, local)
        assert pushed.code != 0
        assert "nothing was taken" in pushed.stderr, pushed.stderr
        # the bound and the number found
        assert "more new files than its commits may bring" in pushed.stderr, pushed.stderr
        assert re.search(r"\(\d[\d,]* new files so far", pushed.stderr), pushed.stderr
        assert "at most 10,000 files" in pushed.stderr, pushed.stderr
        assert head(served.bare) == before
    (tmp_path / "base").mkdir()
    with git_daemon(tmp_path / "base") as daemon:
        url = daemon + "shared.git"
        git("clone", "-q", "--bare", local, tmp_path / "base" / "shared.git")
        code, seconds, rss, err = measured("clone", url, tmp_path / "new")
        print(f"clone: {seconds:.1f} s, {rss} MB: {err.strip()[-400:]}")
        assert code == 2 and "nothing was taken" in err and "new files" in err, err
        assert rss < MAX_RSS_MB, (rss, seconds)
        assert not (tmp_path / "new").exists()


def test_new_files_in_every_commit_are_refused_by_a_clone_from_a_folder_at_once(rb, tmp_path):
    """#28 re-test: commits each replacing its 10,000 files with new ones (each commit
    within a commit's bound, together far over what 20 commits may bring). A folder
    on this computer names every object and its type before one is read, so ``clone``
    and ``sync`` from it refuse before making a pack (60 commits: 49 s and 538 MB, as
    the last objects streamed); over git daemon the pack guard refuses as it streams."""
    (tmp_path / "base").mkdir()
    with git_daemon(tmp_path / "base") as daemon:
        url = daemon + "shared.git"
        bare, _secretary, member = shared(rb, tmp_path, url)
        commit_new_files_each_time(bare, 20, 10_000)
        for argv in (("clone", bare, tmp_path / "new"),
                     ("--data", member, "sync", "--remote", bare)):
            before = file_bytes(member)
            code, seconds, rss, err = measured(*argv)
            print(argv[-2], f"{seconds:.1f} s, {rss} MB: {err.strip()[-300:]}")
            assert code == 2 and str(bare) in err, err
            found = re.search(r"would send a pack of more new files than its commits may "
                              r"bring \(([\d,]+) new files in (\d+) commits\); nothing was "
                              r"taken", err)
            assert found and int(found[1].replace(",", "")) >= 200_000, err
            assert int(found[2]) in (20, 21), err  # the clone: the seed's commit too
            assert "at most 100 new files on average" in err, err
            assert seconds < MAX_SECONDS and rss < MAX_RSS_MB, (seconds, rss, err)
            assert not (tmp_path / "new").exists() and file_bytes(member) == before
        code, seconds, rss, err = measured("clone", url, tmp_path / "new")
        print(f"daemon: {seconds:.1f} s, {rss} MB: {err.strip()[-300:]}")
        assert code == 2 and "more new files than its commits may bring" in err, err
        assert rss < MAX_RSS_MB, (rss, seconds, err)
