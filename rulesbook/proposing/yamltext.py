"""Precise text insertion into a YAML file: a new record is written as text at
the right line, with the file's own indentation, and nothing else in the file
moves (comments, order, quoting and layout stay as they are, so ``git diff``
shows only the new lines).

The positions come from PyYAML's composer (safe: nodes only, nothing is
constructed). Values written are JSON strings, which are valid YAML
double-quoted scalars, so any text (quotes, colons, new lines, ``#``) lands as
it was typed.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

import yaml

from ..errors import RulesbookError

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlEditError(RulesbookError):
    """The file does not have the shape the edit needs."""


# Characters JSON leaves raw that YAML would not keep: line breaks of its own (NEL,
# U+2028, U+2029 would be folded into spaces) and characters it refuses to read.
_YAML_UNSAFE = re.compile("[\x80-\x9f\u2028\u2029\ufffe\uffff]")


def quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar (JSON escaping, plus ``\\uXXXX`` for the
    characters YAML reads differently), read back exactly as given."""
    return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}",
                            json.dumps(text, ensure_ascii=False))


def compose(text: str, file: str) -> yaml.MappingNode:
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        raise YamlEditError(f"{file} cannot be read as YAML: {exc}") from None
    if not isinstance(node, yaml.MappingNode):
        raise YamlEditError(f"{file} is not a YAML mapping")
    return node


def value(node: yaml.MappingNode, key: str) -> yaml.Node | None:
    for key_node, value_node in node.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
            found: yaml.Node = value_node
            return found
    return None


def key_node(node: yaml.MappingNode, key: str) -> yaml.ScalarNode | None:
    for k, _ in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return k
    return None


def item_with_id(seq: yaml.Node | None, item_id: str) -> yaml.MappingNode | None:
    if not isinstance(seq, yaml.SequenceNode):
        return None
    for item in seq.value:
        if isinstance(item, yaml.MappingNode):
            found = value(item, "id")
            if isinstance(found, yaml.ScalarNode) and found.value == item_id:
                return item
    return None


def last_line(node: yaml.Node) -> int:
    """The 0-based line of the last character of ``node``'s own text (a block
    collection's end mark points at the next token, past any comment lines)."""
    while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style \
            and node.value:
        node = node.value[-1][1] if isinstance(node, yaml.MappingNode) else node.value[-1]
    end = node.end_mark
    # an end mark at column 0 lies just past a line break (a block scalar)
    return end.line - 1 if end.column == 0 and end.line > node.start_mark.line else end.line


@dataclass(frozen=True)
class Insertion:
    after_line: int  # 0-based: the new lines go after this line
    lines: tuple[str, ...]


def insert_lines(text: str, insertion: Insertion) -> str:
    lines = text.splitlines(keepends=True)
    eol = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    at = insertion.after_line + 1
    if at > len(lines):
        raise YamlEditError("the insertion point lies past the end of the file")
    if at == len(lines) and lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += eol
    new = [line + eol for line in insertion.lines]
    return "".join(lines[:at] + new + lines[at:])


def replace_scalar(text: str, node: yaml.Node, new_value: str) -> str:
    """``text`` with the scalar ``node`` replaced by ``new_value`` (quoted)."""
    if not isinstance(node, yaml.ScalarNode):
        raise YamlEditError("the value to replace is not a plain text")
    return text[:node.start_mark.index] + quoted(new_value) + text[node.end_mark.index:]


def flow_mapping(pairs: Mapping[str, object]) -> str:
    """``{key: "value", list: [a, b]}`` on one line."""
    parts = []
    for key, val in pairs.items():
        if isinstance(val, (list, tuple)):
            parts.append(f"{key}: [{', '.join(quoted(v) for v in val)}]")
        else:
            parts.append(f"{key}: {quoted(str(val))}")
    return "{" + ", ".join(parts) + "}"


def block_item(pairs: Mapping[str, object], dash_indent: int) -> tuple[str, ...]:
    """A block-mapping sequence item: ``- id: ...`` then one key a line."""
    lines = []
    pad = " " * (dash_indent + 2)
    for i, (key, val) in enumerate(pairs.items()):
        if isinstance(val, (list, tuple)):
            rendered = f"[{', '.join(str(v) if plain(v) else quoted(v) for v in val)}]"
        elif isinstance(val, dict):
            rendered = flow_mapping(val)
        elif key in _PLAIN_KEYS and plain(str(val)):
            rendered = str(val)
        else:
            rendered = quoted(str(val))
        head = " " * dash_indent + "- " if i == 0 else pad
        lines.append(f"{head}{key}: {rendered}")
    return tuple(lines)


_PLAIN_KEYS = frozenset({"member", "kind"})


def plain(word: str) -> bool:
    """A list item that can stay unquoted, as the shipped files write topics."""
    return bool(word) and all(c.isalnum() or c in "-_" for c in word) and word[0].isalpha() \
        and word.lower() not in ("yes", "no", "true", "false", "on", "off", "null")
