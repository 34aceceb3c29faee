"""Property (issue #27): any single-field change to a signed record — a vote of an
open ballot, a statement of the members' registry, a proposal signed by its author —
makes ``rulesbook validate`` exit 1."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesbook.ballots import build_ballot, cast_vote, load_registry, save_ballot
from rulesbook.cli import main
from rulesbook.loading import load_library
from rulesbook.proposing import propose
from tests.ballots.helpers import make_keys

BALLOT = "apca/ballots/p.yaml"
BOOK = "apca/rulebook.yaml"


@pytest.fixture(scope="module")
def signed_folder(tmp_path_factory):
    """A data folder with keys (chair A, secretary B), an open ballot with signed votes
    and a proposal signed by its author C."""
    from rulesbook.datapath import bundled_data_dir

    root = tmp_path_factory.mktemp("signed") / "data"
    shutil.copytree(bundled_data_dir(), root,
                    ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    config = root.parent / "config"
    saved = os.environ.get("RULESBOOK_CONFIG")
    os.environ["RULESBOOK_CONFIG"] = str(config)
    try:
        keys = make_keys(root)
        registry = load_registry(root)
        ballot = build_ballot(load_library(root), "p", quorum=2, signer=keys["A"],
                              at="2026-02-15T09:00:00Z", registry=registry)
        for member, ranking, at in (("A", "10B,10A", "2026-03-01T10:00:00Z"),
                                    ("C", "10C", "2026-03-01T11:00:00Z")):
            ballot = cast_vote(ballot, member, "10", ranking, at=at, signer=keys[member],
                               registry=registry)
        save_ballot(root / BALLOT, ballot)
        propose(root, member="C", rule="apca:28", kind="replacement",
                text="The lone King must be caught within fifteen moves.",
                topics=["thirteen-count"], signer=keys["C"])
        assert main(["--data", str(root), "validate"]) == 0
    finally:
        if saved is None:
            os.environ.pop("RULESBOOK_CONFIG", None)
        else:
            os.environ["RULESBOOK_CONFIG"] = saved
    return root


def _records(root: Path):
    """(file, path to the record in the file's data, its fields) of every signed record."""
    out = []
    ballot = yaml.safe_load((root / BALLOT).read_text())
    for i, row in enumerate(ballot["signatures"]):
        out.append((BALLOT, ("signatures", i), sorted(row)))
    for i, vote in enumerate(ballot["votes"]):
        out.append((BALLOT, ("votes", i), sorted(k for k in vote if k != "signed")))
    members = yaml.safe_load((root / "members.yaml").read_text())
    for i, statement in enumerate(members["registry"]):
        out.append(("members.yaml", ("registry", i), sorted(statement)))
    book = yaml.safe_load((root / BOOK).read_text())
    for i, rule in enumerate(book["rules"]):
        for k, prop in enumerate(rule.get("proposals", ())):
            if "signed" in prop:
                out.append((BOOK, ("rules", i, "proposals", k), sorted(prop)))
                out.append((BOOK, ("rules", i, "proposals", k, "signed"),
                            sorted(prop["signed"])))
    return out


def _changed(value: object, salt: int) -> object:
    """A different value of the same kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1 + salt
    if isinstance(value, str):
        if value and salt % 2:  # one character changed in place
            i = salt % len(value)
            return value[:i] + ("B" if value[i] != "B" else "C") + value[i + 1:]
        return value + "x"
    if isinstance(value, list):
        return value[:-1] if value and salt % 2 else [*value, "apca:10A"]
    if isinstance(value, dict):
        return {**value, "zz": "x"}
    return "x"


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(pick=st.integers(min_value=0, max_value=10_000),
       field=st.integers(min_value=0, max_value=100), salt=st.integers(0, 50))
def test_any_single_field_change_of_a_signed_record_fails_validate(signed_folder, tmp_path,
                                                                  pick, field, salt,
                                                                  capsys):
    records = _records(signed_folder)
    file, where, fields = records[pick % len(records)]
    name = fields[field % len(fields)]
    work = tmp_path / f"w{pick}-{field}-{salt}"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(signed_folder, work)
    data = yaml.safe_load((work / file).read_text(encoding="utf-8"))
    record = data
    for step in where:
        record = record[step]
    new = _changed(record[name], salt)
    assert new != record[name]
    record[name] = new
    (work / file).write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True,
                                            width=1000), encoding="utf-8")
    code = main(["--data", str(work), "validate"])
    out = capsys.readouterr().out
    assert code == 1, f"{file} {where} {name}: {record[name]!r} validated:\n{out}"
    shutil.rmtree(work, ignore_errors=True)
