"""Member names compared as people read them (issue 34, attack 7), through the real
``rulesbook member add`` in a rules folder: each look-alike of "Alice Smith" was
added as a new member; now it is refused with the existing member named."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulesbook.names import comparison_key, same_name
from tests.datapaths import REPO


def rulesbook(tmp: Path, *argv: object) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), RULESBOOK_CONFIG=str(tmp / "config"),
               RULESBOOK_AUTHOR="Names Test <names@apca.invalid>")
    env.pop("RULESBOOK_DATA", None)
    return subprocess.run([sys.executable, "-m", "rulesbook", *map(str, argv)], env=env,
                          cwd=tmp, capture_output=True, text=True, timeout=120)


LOOK_ALIKES = {
    "Greek capital alpha": "\u0391lice Smith",
    "Cyrillic capital a": "\u0410lice Smith",
    "fullwidth A": "\uff21lice Smith",
    "zero-width space": "Alice\u200bSmith",
    "double space": "Alice  Smith",
    "case": "ALICE SMITH",
    "soft hyphen": "Ali\u00adce Smith",
    "rn for m (TR39: m -> rn)": "Alice Srnith",
    "bidi override before it": "\u202eAlice Smith",
    "isolate around it": "\u2067Alice Smith\u2069",
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("names")
    assert rulesbook(tmp, "init", tmp / "club").returncode == 0
    added = rulesbook(tmp, "--data", tmp / "club", "member", "add", "Alice Smith")
    assert added.returncode == 0, added.stderr
    added = rulesbook(tmp, "--data", tmp / "club", "member", "add", "Alice")
    assert added.returncode == 0, added.stderr
    return tmp / "club"


@pytest.mark.parametrize("kind", sorted(LOOK_ALIKES))
def test_a_look_alike_name_is_refused_naming_the_member(folder, kind):
    result = rulesbook(folder.parent, "--data", folder, "member", "add", LOOK_ALIKES[kind])
    assert result.returncode == 2, (kind, result.stdout)
    assert "is already member F (Alice Smith)" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_reversed_name_behind_a_bidi_override_is_refused_and_shown_as_codes(folder):
    result = rulesbook(folder.parent, "--data", folder, "member", "add", "\u202eecilA")
    assert result.returncode == 2
    assert "'<U+202E>ecilA' is already member G (Alice)" in result.stderr
    assert "\u202e" not in result.stderr


def test_another_name_is_still_a_new_member(folder):
    result = rulesbook(folder.parent, "--data", folder, "member", "add", "Alicia Smith")
    assert result.returncode == 0, result.stderr


def test_comparison_key_by_the_rules_of_the_issue():
    # NFKC (fullwidth), case folding, invisible characters, confusables (TR39)
    assert comparison_key("\uff21lice") == comparison_key("alice")
    assert same_name("ALICE", "Alice") and same_name("Ivan", "lvan")
    assert same_name("\u0391\u0399\u0421\u0395", "AICE")  # Greek/Cyrillic capitals
    assert same_name("Jo\u200dhn", "John") and same_name("\ufeffJohn", "John")
    assert not same_name("Alicé", "Alice")  # a diacritic is read
    assert not same_name("Alice", "Alicia")


def test_member_list_shows_a_bidi_control_in_a_name_as_its_code(folder):
    # U+202E RIGHT-TO-LEFT OVERRIDE would print the rest of the line reversed in a
    # terminal that applies the bidi algorithm: the fingerprint and the state too
    added = rulesbook(folder.parent, "--data", folder, "member", "add", "Zed \u202edlo")
    assert added.returncode == 0, added.stderr
    member = added.stdout.split(":", 1)[0].removeprefix("member ").strip()
    keyed = rulesbook(folder.parent, "--data", folder, "member", "keygen", "--member", member)
    assert keyed.returncode == 0, keyed.stderr
    listed = rulesbook(folder.parent, "--data", folder, "member", "list")
    assert listed.returncode == 0, listed.stderr
    line = next(x for x in listed.stdout.splitlines() if x.startswith(f"{member} "))
    assert "\u202e" not in listed.stdout
    assert line.endswith("  Zed <U+202E>dlo") and "confirmed" in line
    subjects = subprocess.run(["git", "-C", str(folder), "log", "--format=%s"],
                              capture_output=True, text=True, check=True).stdout
    assert f"Member {member}: Zed <U+202E>dlo joins the committee" in subjects
    assert "\u202e" not in subjects


def test_skeletons_are_uts39s_with_multi_character_prototypes():
    # confusables.txt maps m to "rn"; the package lists it both ways
    assert same_name("Alice Srnith", "Alice Smith") and same_name("rn", "m")
    assert same_name("\u217f", "m")  # SMALL ROMAN NUMERAL ONE THOUSAND
    assert same_name("\u0660", ".")  # Arabic-Indic zero behind its marks in the file
    # a prototype with one look-alike (the two list only each other): one skeleton
    assert same_name("\u0338", "\u0337") and same_name("a\u0338", "a\u0337")
    assert not same_name("Alice Smith", "Alice Snith") and not same_name("Smith", "Srith")
