"""JSON Schema validation of data files, with problems placed at file:line:col.

A document is first checked by ``jsonschema_rs`` (Rust: a 1,000-member x
60-question ballot in hundredths of a second instead of seconds); only one it
does not pass (or where it is not installed) is checked by ``jsonschema``, whose
errors give the messages and the "did you mean" hints. The Rust check can only
say "valid" for what jsonschema also accepts (tests/test_schema_fast.py holds
the two to the same answer on every bundled file and their mutations).
"""
from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from .datapath import schema_dir
from .errors import Problem
from .yamlio import LoadedYaml

if TYPE_CHECKING:  # jsonschema is imported when a document fails the fast check
    from jsonschema import Draft202012Validator, ValidationError

KINDS = ("members", "topics", "editions", "rulebook", "incidents", "ballot", "member-ballot", "case")


@lru_cache(maxsize=1)
def _schemas() -> dict[str, Any]:
    """Every schema by its file name (the name a ``$ref`` gives)."""
    return {path.name: json.loads(path.read_text(encoding="utf-8"))
            for path in sorted(schema_dir().glob("*.schema.json"))}


def _inline(node: Any, base: str, depth: int = 0) -> Any:  # Any: JSON Schema as parsed
    """The schema with every ``$ref`` replaced by its target.

    The project's schemas are not recursive; inlining them once saves the
    validator a reference lookup at every value (a third of the load time).
    """
    if depth > 50:
        raise ValueError("schema $ref chain too deep (recursive schema?)")
    if isinstance(node, list):
        return [_inline(item, base, depth) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        ref = node["$ref"]
        doc, _, pointer = ref.partition("#")
        doc = doc or base
        target = _schemas()[doc]
        for part in [p for p in pointer.split("/") if p]:
            target = target[part.replace("~1", "/").replace("~0", "~")]
        merged = {k: v for k, v in node.items() if k != "$ref"}
        resolved = _inline(target, doc, depth + 1)
        return {**resolved, **{k: _inline(v, base, depth) for k, v in merged.items()}}
    return {k: (v if k in ("$defs", "enum", "const") else _inline(v, base, depth))
            for k, v in node.items() if k != "$defs"}


@cache
def _fast_validator(kind: str) -> Any:  # Any: jsonschema_rs has no type stubs
    """The Rust validator of ``kind``'s schema (inlined like :func:`validator_for`'s),
    or None when jsonschema_rs cannot be imported (the Python check then runs alone)."""
    try:
        import jsonschema_rs
    except ImportError:  # pragma: no cover - a platform without its wheel
        return None
    return jsonschema_rs.validator_for(inlined_schema(kind))


def passes_fast(data: Any, kind: str) -> bool:
    """Whether the Rust check passes ``data`` as ``kind`` (False when it cannot tell:
    not installed, or a value it cannot take such as NaN)."""
    fast = _fast_validator(kind)
    if fast is None:
        return False
    try:
        return bool(fast.is_valid(data))
    except (ValueError, TypeError, OverflowError):  # a value with no JSON form (NaN, inf)
        return False


@cache
def inlined_schema(kind: str) -> Any:  # Any: JSON Schema as parsed
    """``kind``'s schema with every ``$ref`` replaced by its target."""
    name = f"{kind}.schema.json"
    return _inline(_schemas()[name], name)


@cache
def validator_for(kind: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(inlined_schema(kind))


def available_kinds() -> list[str]:
    return sorted(p.name.removesuffix(".schema.json") for p in schema_dir().glob("*.schema.json")
                  if p.name != "common.schema.json")


def _unknown_keys(error: ValidationError) -> tuple[list[str], list[object]]:
    """For an ``additionalProperties`` error: the keys the schema allows, and the
    keys of the value that it does not."""
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    allowed = [str(k) for k in schema.get("properties", {})]
    instance = error.instance if isinstance(error.instance, Mapping) else {}
    return allowed, [k for k in instance if k not in allowed]


def _describe(error: ValidationError) -> str:
    """A readable message for one jsonschema error, with a "did you mean" where it helps."""
    where = ".".join(str(p) for p in error.absolute_path)
    prefix = f"{where}: " if where else ""
    if error.validator == "additionalProperties":
        allowed, extra = _unknown_keys(error)
        parts = []
        for key in extra:
            guess = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f" (did you mean {guess[0]!r}?)" if guess else ""
            parts.append(f"unknown key {key!r}{hint}")
        return prefix + "; ".join(parts) + f"; allowed keys: {', '.join(allowed)}"
    if error.validator == "enum":
        values = error.validator_value
        options = [str(o) for o in values] if isinstance(values, (list, tuple)) else []
        guess = difflib.get_close_matches(str(error.instance), options, n=1)
        hint = f" (did you mean {guess[0]!r}?)" if guess else ""
        return f"{prefix}{error.instance!r} is not one of {', '.join(options)}{hint}"
    if error.validator == "required":
        return prefix + error.message.replace("is a required property", "is missing (required)")
    if error.validator == "const":
        return f"{prefix}must be {error.validator_value!r}, not {error.instance!r}"
    if error.validator == "type":
        return f"{prefix}{error.instance!r} should be of type {error.validator_value}"
    if error.validator == "pattern":
        return f"{prefix}{error.instance!r} is not well formed (expected pattern {error.validator_value})"
    if error.validator == "minItems" and error.validator_value == 1:
        return f"{prefix}must not be empty"
    return prefix + error.message


def validate(doc: LoadedYaml, kind: str) -> list[Problem]:
    """Every schema problem of ``doc`` as ``kind``, each at its line."""
    if passes_fast(doc.data, kind):
        return []
    problems: list[Problem] = []
    for error in validator_for(kind).iter_errors(doc.data):
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties":
            _allowed, extra = _unknown_keys(error)
            if extra:
                path = path + (extra[0],)
        problems.append(doc.problem(path, _describe(error)))
    return problems
