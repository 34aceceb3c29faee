"""Property (issue 27, part A): any single-field change to a record that is signed or
bound by a digest — an open ballot's settings and its questions' digests, an adopted
edition's record and the texts it recorded, the adopted text itself — makes
``rulesbook validate`` exit 1. The folder validates (exit 0) before each change."""
from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesbook.ballots import METHODS, THRESHOLD_BASES, THRESHOLDS, build_ballot, save_ballot
from rulesbook.cli import main
from rulesbook.datapath import bundled_data_dir
from rulesbook.loading import load_library
from tests.ballots.helpers import adopt_edition

OPEN = "apca/ballots/next.yaml"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """A copy of the seed with edition 2027 adopted (28A, by ballot b1) and an open
    ballot ``next`` whose settings the chair signed."""
    root = tmp_path_factory.mktemp("signed")
    data = root / "data"
    shutil.copytree(bundled_data_dir(), data,
                    ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULESBOOK_CONFIG", str(root / "config"))
        adopt_edition(data, "2027", {"28": "28A"})
        from rulesbook.ballots import load_registry, load_signing_key

        registry = load_registry(data)
        chair = load_signing_key("A", registry.key_of("A"))
        save_ballot(data / OPEN, build_ballot(load_library(data), "next", quorum=2,
                                              signer=chair, registry=registry,
                                              at="2026-06-01T09:00:00Z"))
    assert main(["--data", str(data), "validate"]) == 0
    return data


def _other(values, current):
    return st.sampled_from([v for v in values if v != current])


def _digest(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


@st.composite
def changes(draw):
    """(file, a function changing one field of its data, what it changes)."""
    kind = draw(st.sampled_from(["settings", "digest", "edition", "texts", "adopted",
                                 "text"]))
    word = draw(st.text(st.characters(whitelist_categories=("Ll", "Lu")), min_size=1,
                        max_size=8))
    if kind == "settings":
        field = draw(st.sampled_from(["title", "description", "method", "threshold",
                                      "threshold_base", "quorum", "roll", "edition"]))

        def change(d):
            if field == "method":
                d[field] = draw(_other(METHODS, d[field]))
            elif field == "threshold":
                d[field] = draw(_other(THRESHOLDS, d[field]))
            elif field == "threshold_base":
                d[field] = draw(_other(THRESHOLD_BASES, d[field]))
            elif field == "quorum":
                d[field] = draw(_other(range(len(d["roll"]) + 1), d[field]))
            elif field == "roll":
                d[field] = d[field][:-1]
            elif field == "edition":
                d[field] = "original" if d[field] != "original" else "2027"
            else:
                d[field] = str(d.get(field, "")) + " " + word
        return OPEN, change, f"ballot {field}"
    if kind == "digest":
        def change(d):
            q = draw(st.sampled_from([q for q in d["questions"] if q.get("digests")]))
            option = draw(st.sampled_from(sorted(q["digests"])))
            q["digests"][option] = _digest(word + option)
        return OPEN, change, "a question's digest"
    if kind == "edition":
        field = draw(st.sampled_from(["title", "description", "date"]))

        def change(d):
            record = d["editions"][-1]
            record[field] = ("2027-02-03" if record[field] != "2027-02-03" else "2027-02-04") \
                if field == "date" else record[field] + " " + word
        return "editions.yaml", change, f"edition {field}"
    if kind == "texts":
        def change(d):
            texts = d["editions"][-1]["texts"]
            ref = draw(st.sampled_from(sorted(texts)))
            texts[ref] = _digest(word + ref)
        return "editions.yaml", change, "a recorded text digest"
    if kind == "adopted":
        def change(d):
            d["editions"][-1]["adopted"][0]["digest"] = _digest(word)
        return "editions.yaml", change, "the adopted proposal's digest"

    def change(d):  # the text in force of a rule, or the adopted proposal's text
        rule = draw(st.sampled_from(d["rules"]))
        if rule["id"] == "28" and draw(st.booleans()):
            rule = next(p for p in rule["proposals"] if p["id"] == "28A")
        field = draw(st.sampled_from(["text", "title"]))
        rule[field] = str(rule.get(field) or "") + " " + word  # the quotes stay in it
    return "apca/rulebook.yaml", change, "an adopted text"


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes())
def test_any_change_to_a_signed_field_fails_validate(folder, capsys, change):
    path, apply, what = change
    file = folder / path
    before = file.read_bytes()
    try:
        data = yaml.safe_load(before)
        apply(data)
        file.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                        encoding="utf-8")
        capsys.readouterr()
        assert main(["--data", str(folder), "validate"]) == 1, what
        assert re.search(r"\d+ problems? in ", capsys.readouterr().out)
    finally:
        file.write_bytes(before)
