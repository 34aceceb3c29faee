"""The Rust schema check (jsonschema_rs) only ever says "valid" where jsonschema,
the reference whose errors are reported, says so too: on every bundled data file
and on random mutations of them (a value replaced by another type, a key removed
or added, a string changed, a list emptied). A document the fast check passes
skips jsonschema entirely, so a laxer fast check would hide a problem.
"""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesbook import schema
from rulesbook.datapath import bundled_data_dir
from rulesbook.yamlio import load_file

pytest.importorskip("jsonschema_rs")


def _documents() -> list[tuple[str, object]]:
    out = []
    for path in sorted(Path(bundled_data_dir()).rglob("*.yaml")):
        data = load_file(path).data
        if isinstance(data, dict) and data.get("kind") in schema.available_kinds():
            out.append((str(data["kind"]), data))
    return out


DOCUMENTS = _documents()


def reference_valid(data: object, kind: str) -> bool:
    return not any(True for _ in schema.validator_for(kind).iter_errors(data))


def test_there_are_documents_of_several_kinds():
    assert len({kind for kind, _ in DOCUMENTS}) >= 5


@pytest.mark.parametrize(("kind", "data"), DOCUMENTS,
                         ids=[f"{k}-{i}" for i, (k, _) in enumerate(DOCUMENTS)])
def test_both_checks_pass_every_bundled_file(kind, data):
    assert reference_valid(data, kind)
    assert schema.passes_fast(data, kind)


_REPLACEMENTS = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**6),
                          st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
                          st.sampled_from(["", "apca:10B", "A", "2026-13-45", "x\n", "١٢",
                                           "apca:", "closed", "irv"]),
                          st.just([]), st.just({}), st.just(["x"]))


def _paths(node: object, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node[:6]):
            found += _paths(value, path + (i,))
    return found


@st.composite
def mutated(draw):
    kind, data = draw(st.sampled_from(DOCUMENTS))
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(data)))
        if not path:
            continue
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "delete":
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "id", "kind", "Title"]))] = \
                copy.deepcopy(draw(_REPLACEMENTS))  # a fresh [] each time: no cycles
        else:
            parent[path[-1]] = copy.deepcopy(draw(_REPLACEMENTS))
    return kind, data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_the_fast_check_is_never_laxer_than_jsonschema(case):
    kind, data = case
    if schema.passes_fast(data, kind):
        assert reference_valid(data, kind), (kind, data)
