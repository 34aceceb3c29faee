"""Loading and validating data folders: every problem reported at file:line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesbook import LibraryError, UnknownReferenceError, load_library, validate_folder
from rulesbook.datapath import bundled_data_dir


def yaml_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.yaml"))


def line_of(path: Path, pattern: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if re.search(pattern, line):
            return number
    raise AssertionError(f"{pattern!r} not in {path}")


def problems_of(folder: Path) -> list[str]:
    return [str(p) for p in validate_folder(folder)]


@pytest.mark.parametrize("name", yaml_files(bundled_data_dir()))
def test_schema_rejects_an_unknown_key_in_every_file(data_copy, name):
    path = data_copy / name
    text = path.read_text(encoding="utf-8")
    path.write_text(text.rstrip("\n") + "\nbogus_key: 1\n", encoding="utf-8")
    last = len(path.read_text(encoding="utf-8").splitlines())
    problems = problems_of(data_copy)
    assert any(p.startswith(f"{name}:{last}:") and "unknown key 'bogus_key'" in p
               for p in problems), problems


@pytest.mark.parametrize("name", yaml_files(bundled_data_dir()))
def test_schema_rejects_a_wrong_schema_version_in_every_file(data_copy, name):
    path = data_copy / name
    line = line_of(path, r"^schema_version:")
    path.write_text(re.sub(r"(?m)^schema_version: 1$", "schema_version: 99",
                           path.read_text(encoding="utf-8")), encoding="utf-8")
    problems = problems_of(data_copy)
    assert any(p.startswith(f"{name}:{line}:") and "schema_version" in p for p in problems), \
        problems


def test_dangling_member_reference_with_did_you_mean(data_copy):
    path = data_copy / "apca" / "rulebook.yaml"
    text = path.read_text(encoding="utf-8")
    line = line_of(path, r"^\s+member: D\s*$")
    path.write_text(text.replace("member: D\n", "member: DD\n", 1), encoding="utf-8")
    problems = problems_of(data_copy)
    assert f"apca/rulebook.yaml:{line}:" in "\n".join(problems)
    assert any("unknown member 'DD'" in p and "did you mean 'D'" in p for p in problems)


def test_unknown_topic_with_did_you_mean(data_copy):
    path = data_copy / "standard-laws" / "rulebook.yaml"
    text = path.read_text(encoding="utf-8")
    assert "touch-move" in text
    path.write_text(text.replace("touch-move", "tuch-move", 1), encoding="utf-8")
    problems = problems_of(data_copy)
    assert any(p.startswith("standard-laws/rulebook.yaml:") and "unknown topic 'tuch-move'" in p
               and "did you mean 'touch-move'" in p for p in problems), problems


def test_all_problems_are_reported_together(data_copy):
    (data_copy / "topics.yaml").write_text(
        (data_copy / "topics.yaml").read_text(encoding="utf-8") + "extra: 1\n", encoding="utf-8")
    members = data_copy / "members.yaml"
    members.write_text(members.read_text(encoding="utf-8") + "more: 2\n", encoding="utf-8")
    files = {p.split(":")[0] for p in problems_of(data_copy)}
    assert {"topics.yaml", "members.yaml"} <= files


def test_unsafe_tag_is_refused(data_copy):
    path = data_copy / "members.yaml"
    path.write_text(path.read_text(encoding="utf-8")
                    + "evil: !!python/object/apply:os.system ['touch /tmp/pwned']\n",
                    encoding="utf-8")
    problems = problems_of(data_copy)
    assert any(p.startswith("members.yaml:") and "unsupported tag" in p for p in problems)


def test_not_utf8_file(data_copy):
    path = data_copy / "topics.yaml"
    path.write_bytes(path.read_bytes() + "\n# caf\xe9\n".encode("latin-1"))
    problems = problems_of(data_copy)
    assert any(p.startswith("topics.yaml:") and "not UTF-8" in p for p in problems), problems


def test_broken_yaml(data_copy):
    path = data_copy / "editions.yaml"
    path.write_text("schema_version: 1\nkind: editions\neditions: [\n", encoding="utf-8")
    problems = problems_of(data_copy)
    assert any(re.match(r"editions\.yaml:\d+:\d+: not valid YAML", p) for p in problems)


def test_duplicate_rule_id(data_copy):
    path = data_copy / "standard-laws" / "rulebook.yaml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r'(?m)^(\s+- id: )"?2"?$', r'\g<1>"1"', text, count=1)
    path.write_text(text, encoding="utf-8")
    problems = problems_of(data_copy)
    assert any("id '1' is already used" in p for p in problems), problems


def test_edition_naming_a_missing_proposal(data_copy):
    path = data_copy / "editions.yaml"
    path.write_text(path.read_text(encoding="utf-8") + (
        "  - id: second\n    title: Second\n    date: '2027-01-01'\n    rulebook: apca\n"
        "    base: original\n    adopted:\n      - proposal: apca:28Z\n"), encoding="utf-8")
    line = len(path.read_text(encoding="utf-8").splitlines())
    problems = problems_of(data_copy)
    assert any(p.startswith(f"editions.yaml:{line}:") and "apca:28Z" in p
               and "did you mean 'apca:28" in p for p in problems), problems


def test_edition_cannot_adopt_an_endorsement(data_copy):
    path = data_copy / "editions.yaml"
    path.write_text(path.read_text(encoding="utf-8") + (
        "  - id: second\n    title: Second\n    date: '2027-01-01'\n    rulebook: apca\n"
        "    base: original\n    adopted:\n      - proposal: apca:1A\n"), encoding="utf-8")
    assert any("endorsement" in p for p in problems_of(data_copy))


def test_missing_folder_and_missing_files(tmp_path):
    assert "does not exist" in problems_of(tmp_path / "nope")[0]
    (tmp_path / "empty").mkdir()
    messages = "\n".join(problems_of(tmp_path / "empty"))
    assert "members.yaml: the file is missing" in messages


def test_load_library_raises_one_error_listing_everything(data_copy):
    (data_copy / "members.yaml").write_text("kind: members\n", encoding="utf-8")
    with pytest.raises(LibraryError) as err:
        load_library(data_copy)
    assert isinstance(err.value, ValueError)
    assert "members.yaml:1:1:" in str(err.value)


@pytest.mark.parametrize("text, ref", [
    ("apca:28", "apca:28"), ("28", "apca:28"), ("rule 28", "apca:28"), ("Rule 10B", "apca:10B"),
    ("10b", "apca:10B"), ("standard-laws:10", "standard-laws:10"), ("law 16", "apca:16"),
    ("RULE-24B", "apca:24B"), ("9?", None), ("apca:99", None), ("xyz", None),
])
def test_reference_resolution(library, text, ref):
    assert library.normalise_ref(text) == ref


def test_resolve_unknown_reference_says_did_you_mean(library):
    with pytest.raises(UnknownReferenceError, match="did you mean"):
        library.resolve("apca:28Z")


def test_topic_concordance(library):
    refs = {e.ref for e in library.entries_for_topic("thirteen-count")}
    assert {"apca:28", "apca:28A", "apca:24B"} <= refs
    assert any(r.startswith("spanish-pool:") for r in refs)


def test_derived_data_is_kept_by_its_library():
    """The rulings catalogue is built once per library and owned by it: a changed copy
    builds its own, and it goes when the library goes."""
    import dataclasses
    import gc
    import weakref

    from rulesbook.rulings.catalogue import catalogue_of

    library = load_library(bundled_data_dir())
    first = catalogue_of(library)
    assert catalogue_of(library) is first
    copy = dataclasses.replace(library, in_force=None)
    assert catalogue_of(copy) is not first and catalogue_of(copy) == first
    kept = weakref.ref(first)
    del library, first
    gc.collect()
    assert kept() is None
