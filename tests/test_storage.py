import os

import pytest

from rulesbook.storage import SaveError, atomic_write_bytes, atomic_write_text


def test_write_replace_and_backup(tmp_path):
    target = tmp_path / "ballot.yaml"
    atomic_write_text(target, "one")
    atomic_write_text(target, "two", backup=True)
    assert target.read_text() == "two"
    assert (tmp_path / "ballot.yaml~").read_text() == "one"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_mode_of_existing_file_is_kept(tmp_path):
    target = tmp_path / "f.txt"
    target.write_text("x")
    os.chmod(target, 0o640)
    atomic_write_bytes(target, b"y")
    assert target.stat().st_mode & 0o777 == 0o640


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(SaveError, match="does not exist"):
        atomic_write_text(tmp_path / "nope" / "f.txt", "x")


def test_failed_save_leaves_the_old_file_and_no_temp(tmp_path, monkeypatch):
    target = tmp_path / "case.yaml"
    target.write_text("old")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(SaveError, match="No space left"):
        atomic_write_text(target, "new")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["case.yaml"]


def test_crash_during_saves_never_corrupts(load_tool):
    trials, corrupted, messages = load_tool("crash_test").run(trials=25, seed=7)
    assert trials == 25
    assert corrupted == 0, messages


def test_crash_test_catches_a_naive_writer(load_tool):
    """The crash test must be able to fail: a plain open/write loses data."""
    _, corrupted, _ = load_tool("crash_test").run(trials=25, seed=7, writer="direct")
    assert corrupted > 0
