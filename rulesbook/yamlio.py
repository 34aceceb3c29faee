"""Safe, line-aware YAML reading.

Files are read as strict UTF-8 (:mod:`rulesbook.textio`), composed with PyYAML's safe composer and
turned into plain Python data while recording the line and column of every
value, so that validation can report ``file:line:col``. Only the standard
YAML tags are accepted (a ``!!python/...`` tag is refused), aliases are
refused (no "billion laughs"), nesting and file size are bounded.
"""
from __future__ import annotations

import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

import yaml

from .errors import DataFileError, Problem, RulesbookError
from .textio import TextDecodeError, decode_bytes, read_text

# LibYAML's parser when PyYAML was built with it (ten times faster), else pure Python.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 64

_SAFE_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
}
#: Where a value stands in a document: the keys and list indices that lead to it.
YamlPath: TypeAlias = tuple[object, ...]

_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"


@dataclass(frozen=True)
class LoadedYaml:
    """A YAML document as plain data plus the position of every value."""

    file: str
    data: Any  # plain data as written: dicts, lists, str, int, float, bool, None
    marks: dict[YamlPath, tuple[int, int]]  # path -> (line, col), both 1-based

    def where(self, path: Sequence[object]) -> tuple[int, int]:
        """The line and column of the value at ``path`` (or of its nearest parent)."""
        path = tuple(path)
        while path and path not in self.marks:
            path = path[:-1]
        return self.marks.get(path, (1, 1))

    def problem(self, path: Sequence[object], message: str) -> Problem:
        line, col = self.where(path)
        return Problem(self.file, line, col, message)


class _Converter:
    def __init__(self, file: str) -> None:
        self.file = file
        self.marks: dict[YamlPath, tuple[int, int]] = {}
        self.constructor = yaml.constructor.SafeConstructor()
        self.seen: set[int] = set()

    def fail(self, node: yaml.Node, message: str) -> DataFileError:
        mark = node.start_mark
        return DataFileError(Problem(self.file, mark.line + 1, mark.column + 1, message))

    def convert(self, node: yaml.Node, path: YamlPath, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise self.fail(node, f"nested more than {MAX_DEPTH} levels deep")
        if id(node) in self.seen:
            raise self.fail(node, "YAML aliases (*name) are not allowed in rules data")
        self.seen.add(id(node))
        self.marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            if node.tag != _MAP_TAG:
                raise self.fail(node, f"unsupported tag {node.tag!r}: only plain YAML is allowed")
            result: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise self.fail(key_node, "YAML merge keys (<<) are not allowed in rules data")
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self.fail(key_node, "a mapping key must be a plain value")
                key = self.scalar(key_node)
                if isinstance(key, (list, dict)):
                    raise self.fail(key_node, "a mapping key must be a plain value")
                if key in result:
                    raise self.fail(key_node, f"duplicate key {key!r}")
                result[key] = self.convert(value_node, path + (key,), depth + 1)
                # Report a value at its key: that is the line a person looks for.
                self.marks[path + (key,)] = (key_node.start_mark.line + 1,
                                             key_node.start_mark.column + 1)
            return result
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ_TAG:
                raise self.fail(node, f"unsupported tag {node.tag!r}: only plain YAML is allowed")
            return [self.convert(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        assert isinstance(node, yaml.ScalarNode)  # PyYAML's third kind of node
        return self.scalar(node)

    def scalar(self, node: yaml.ScalarNode) -> Any:
        if node.tag not in _SAFE_SCALAR_TAGS:
            raise self.fail(node, f"unsupported tag {node.tag!r}: only plain YAML is allowed")
        if node.tag == "tag:yaml.org,2002:timestamp":
            return node.value  # keep dates as the text written
        return self.constructor.construct_object(node)


def loads(text: str, file: str = "<string>") -> LoadedYaml:
    """Parse YAML text; raise :class:`DataFileError` with file:line:col on any problem."""
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = exc.problem or exc.context or "not valid YAML"
        raise DataFileError(Problem(file, line, col, f"not valid YAML: {what}")) from None
    except yaml.YAMLError as exc:
        raise DataFileError(Problem(file, 1, 1, f"not valid YAML: {exc}")) from None
    if node is None:
        raise DataFileError(Problem(file, 1, 1, "the file is empty"))
    converter = _Converter(file)
    try:
        data = converter.convert(node, (), 0)
    except yaml.YAMLError as exc:  # a scalar that the safe constructor refuses
        raise DataFileError(Problem(file, 1, 1, f"not valid YAML: {exc}")) from None
    return LoadedYaml(file, data, converter.marks)


def load_file(path: Path, display: str | None = None) -> LoadedYaml:
    """Read and parse one YAML file safely (size-bounded, strict UTF-8 by the
    policy of :mod:`rulesbook.textio`; a pipe or a device is read up to the
    same bound, never without end)."""
    name = display or str(path)
    try:
        st = path.stat()
    except OSError as exc:
        raise DataFileError(Problem(name, 0, 0, f"cannot read the file: {exc.strerror}")) from None
    if not stat.S_ISREG(st.st_mode):  # a FIFO would block the reader, a device never end
        raise DataFileError(Problem(name, 0, 0, "not a regular file (a folder, a pipe or a "
                                                "device): data files must be plain files"))
    size = st.st_size
    if size > MAX_FILE_BYTES:
        raise DataFileError(Problem(
            name, 0, 0, f"the file is {size:,} bytes; data files may be at most {MAX_FILE_BYTES:,}"))
    try:
        decoded = read_text(path, max_bytes=MAX_FILE_BYTES, what="a data file",
                            fallback=False, name=name)
    except TextDecodeError as exc:
        raise DataFileError(Problem(name, exc.line, exc.col, exc.message)) from None
    except RulesbookError as exc:  # too large (a FIFO, /dev/zero), unreadable
        message = str(exc).removeprefix(f"{name}: ")
        raise DataFileError(Problem(name, 0, 0, message)) from None
    return loads(decoded.text, name)


def read_data_text(path: Path, display: str | None = None) -> str:
    """The text of a data file, decoded and bounded like :func:`load_file`
    (for a file that is rewritten as text, e.g. editions.yaml on adoption)."""
    name = display or str(path)
    try:
        return read_text(path, max_bytes=MAX_FILE_BYTES, what="a data file", fallback=False,
                         name=name).text
    except TextDecodeError as exc:
        raise DataFileError(Problem(name, exc.line, exc.col, exc.message)) from None
    except RulesbookError as exc:
        raise DataFileError(Problem(name, 0, 0, str(exc).removeprefix(f"{name}: "))) from None


def loads_bytes(raw: bytes, name: str = "<bytes>") -> LoadedYaml:
    """Decode strict UTF-8 (a BOM is allowed; :mod:`rulesbook.textio`) and parse;
    errors name the line."""
    if len(raw) > MAX_FILE_BYTES:
        raise DataFileError(Problem(
            name, 0, 0, f"the file is {len(raw):,} bytes; data files may be at most "
            f"{MAX_FILE_BYTES:,}"))
    try:
        text = decode_bytes(raw, name, fallback=False).text
    except TextDecodeError as exc:
        raise DataFileError(Problem(name, exc.line, exc.col, exc.message)) from None
    return loads(text, name)
