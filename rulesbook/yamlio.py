"""Safe, line-aware YAML reading.

Files are read as strict UTF-8 (:mod:`rulesbook.textio`) and turned into plain
Python data straight from libyaml's event stream (:class:`_Builder`): no tree
of nodes is kept, so memory is the data's own, and the line and column of each
value are computed only when a problem is reported: the first read keeps only
where each top-level key, its value and each item of a top-level list begin
(:class:`_Records`: three integers a record, 60,000 votes in 1.4 MB), so a
problem at a record is placed at once and one deeper in it by reading that
record's lines again (:meth:`LoadedYaml.where`); only a document those lines do
not read back from (a flow-style top level) is read a second time whole. Only the standard YAML tags are accepted
(a ``!!python/...`` tag is refused), aliases are refused (no "billion
laughs"), nesting, file size and the number of values are bounded.

Plain scalars resolve only to the types the schemas use: str, int, float, bool
and null. YAML 1.1's sexagesimal numbers (``1:00:00``, quadratic to convert)
stay text, an integer may have at most :data:`MAX_INT_DIGITS` digits, and
dates stay the text written; every refusal names file:line:col.
"""
from __future__ import annotations

import re
import stat
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, TypeAlias, TypeVar, cast

import yaml

from .errors import DataFileError, Problem, RulesbookError
from .gcpause import cycles_paused
from .textio import TextDecodeError, decode_bytes, read_text

# LibYAML's parser when PyYAML was built with it (ten times faster), else pure Python.
_PARSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# and its emitter (three times faster; the same text but for where a long quoted
# string is folded, which reads back the same)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 64
#: Most values (scalars, lists and mappings) in one data file: each costs about
#: 100 bytes of memory once read, and a 20 MiB file of one-character items
#: would hold ten million. A 1,000-member x 60-question signed ballot holds
#: about 430,000.
MAX_VALUES = 2_000_000
#: Most digits of an integer: no schema uses more than a handful, and Python
#: refuses to convert more than 4,300 (a quadratic conversion before 3.11).
MAX_INT_DIGITS = 100

_SAFE_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
}
_T = TypeVar("_T")
#: Where a value stands in a document: the keys and list indices that lead to it.
YamlPath: TypeAlias = tuple[object, ...]

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_MERGE = "tag:yaml.org,2002:merge"
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"

# YAML 1.1's implicit types as PyYAML resolves them, less the sexagesimal
# numbers, timestamps (kept as text) and ``=``: (tag, pattern, first characters)
_RESOLVERS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    (_BOOL, re.compile(r"^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE"
                       r"|on|On|ON|off|Off|OFF)$"), "yYnNtTfFoO"),
    (_FLOAT, re.compile(r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?"
                        r"|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
                        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"), "-+0123456789."),
    (_INT, re.compile(r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)"
                      r"|[-+]?0x[0-9a-fA-F_]+)$"), "-+0123456789"),
    (_MERGE, re.compile(r"^(?:<<)$"), "<"),
    (_NULL, re.compile(r"^(?:~|null|Null|NULL|)$"), "~nN"),
)
_BY_FIRST: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
for _tag, _pattern, _firsts in _RESOLVERS:
    for _ch in _firsts:
        _BY_FIRST.setdefault(_ch, []).append((_tag, _pattern))
_BY_FIRST[""] = [(_NULL, _RESOLVERS[-1][1])]
_BOOLS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}


#: a mark: (index in the text, line, column), all 0-based as libyaml gives them
_Mark: TypeAlias = tuple[int, int, int]


@dataclass
class _Top:
    """Where one top-level key of a document and its value begin, where the value ends
    (the next key), and, for a list, where each of its items begins."""

    key: _Mark
    value: _Mark
    end: int = -1
    #: a list's items: index, line, column of each, one after another
    items: array[int] | None = None
    #: the value is a flow collection (``[...]``, ``{...}``): its parts are not read
    #: again apart (an item's text there is not a document of its own)
    flow: bool = False


#: what a :meth:`LoadedYaml.detached` document compares a record read again with
_UNCHECKED = object()


class _Records:
    """The marks the first read keeps: the root's, and :class:`_Top` by top-level key."""

    def __init__(self, root: _Mark) -> None:
        self.root = root
        self.tops: dict[object, _Top] = {}


@dataclass(frozen=True)
class LoadedYaml:
    """A YAML document as plain data plus the position of every value."""

    file: str
    data: Any  # plain data as written: dicts, lists, str, int, float, bool, None
    text: str = field(default="", repr=False, compare=False)  # what was read, for the marks
    #: the marks kept by the first read (None: a document made otherwise, or not a
    #: block mapping)
    records: _Records | None = field(default=None, repr=False, compare=False, hash=False)
    #: ``data`` is the whole document (False: only its top-level keys, :meth:`detached`)
    whole: bool = field(default=True, repr=False, compare=False, hash=False)
    #: what :meth:`derived` built from this document, by builder
    _derived: dict[Callable[[LoadedYaml], object], object] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False)
    #: the marks of the records read again (:meth:`where`), by (key,) or (key, index)
    _parts: dict[YamlPath, dict[YamlPath, tuple[int, int]] | None] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def derived(self, build: Callable[[LoadedYaml], _T]) -> _T:
        """``build(self)``, built once on first use and kept with this document (a
        ballot read from it, the registry of a members file): every check of one
        command reads the same object, so a document is turned into its model once.
        ``build`` must not change the document, and what it returns is shared: a
        caller that changes a part of it copies that part first."""
        try:
            return cast(_T, self._derived[build])
        except KeyError:
            return cast(_T, self._derived.setdefault(build, build(self)))

    @cached_property
    def marks(self) -> dict[YamlPath, tuple[int, int]]:
        """path -> (line, col), both 1-based, of every value: the whole text read a
        second time (what :meth:`where` falls back on; a 5 MB ballot's marks take
        1.8 s and 120 MB)."""
        if not self.text:
            return {}
        builder = _Builder(self.file, record=True)
        builder.build(self.text)
        return builder.marks

    def detached(self) -> LoadedYaml:
        """This document's text and marks without its data (only its top-level keys,
        each None): what places the problems of a model built from it, once the data is
        no longer needed (60,000 votes' dicts freed while ``ballot verify`` checks
        them). A record read again is then taken as it reads, not compared."""
        keys = dict.fromkeys(self.data) if isinstance(self.data, dict) else {}
        return LoadedYaml(self.file, keys, self.text, self.records, whole=False)

    def where(self, path: Sequence[object]) -> tuple[int, int]:
        """The line and column of the value at ``path`` (or of its nearest parent),
        1-based; a value in a mapping is placed at its key. A top-level key, and an
        item of a top-level list, from the marks of the first read; a value deeper
        from its record's lines read again; the whole text again only when they do not
        read back as the record."""
        path = tuple(path)
        records = self.records
        if records is not None:
            found = self._from_records(records, path)
            if found is not None:
                return found
        marks = self.marks
        while path and path not in marks:
            path = path[:-1]
        return marks.get(path, (1, 1))

    def _from_records(self, records: _Records, path: YamlPath) -> tuple[int, int] | None:
        top = records.tops.get(path[0]) if path else None
        if top is None:  # the root, or a key that is not there: the root's place
            return records.root[1] + 1, records.root[2] + 1
        if len(path) == 1:
            return top.key[1] + 1, top.key[2] + 1
        items = top.items
        own = top.key  # where the record itself is placed: a value at its key
        whole = self.whole
        if items is None:
            if top.flow:
                return None
            record: YamlPath = path[:1]
            start, end = top.value, top.end
            value = self.data[path[0]] if whole else _UNCHECKED
        else:
            i = path[1]
            if type(i) is not int or not 0 <= i < len(items) // 3:
                return top.key[1] + 1, top.key[2] + 1
            start = own = (items[3 * i], items[3 * i + 1], items[3 * i + 2])
            if len(path) == 2:
                return start[1] + 1, start[2] + 1
            if top.flow:
                return None
            record = path[:2]
            end = items[3 * i + 3] if 3 * i + 3 < len(items) else top.end
            value = self.data[path[0]][i] if whole else _UNCHECKED
        if record not in self._parts:
            self._parts[record] = self._reread(start, end, value)
        marks = self._parts[record]
        if marks is None:
            return None
        sub = path[len(record):]
        while sub and sub not in marks:
            sub = sub[:-1]
        return marks[sub] if sub else (own[1] + 1, own[2] + 1)

    def _reread(self, start: _Mark, end: int, value: object
                ) -> dict[YamlPath, tuple[int, int]] | None:
        """The marks (absolute) of the record written at ``start``..``end``, its lines
        read again, its columns kept by as many spaces in front; None when they do not
        read back as ``value`` (then :attr:`marks` reads the whole text). A record of a
        block collection is its own lines verbatim, at its own columns, cut before the
        next record's line: it reads as it does in the whole text, which the comparison
        with ``value`` confirms when the data is kept."""
        if end < start[0]:
            return None
        cut = self.text.rfind("\n", start[0], end)  # the next record's line ("- " of it)
        if cut >= 0:
            end = cut + 1
        fragment = " " * start[2] + self.text[start[0]:end]
        builder = _Builder(self.file, record=True)
        try:
            read = builder.build(fragment)
        except DataFileError:
            return None
        if value is not _UNCHECKED and read != value:
            return None
        return {path: (line + start[1], col) for path, (line, col) in builder.marks.items()}

    def problem(self, path: Sequence[object], message: str) -> Problem:
        line, col = self.where(path)
        return Problem(self.file, line, col, message)


class _Builder:
    """Plain data from libyaml's events (a mapping, a list or a scalar at a time),
    with every check of a data file; ``record`` keeps the mark of every value, else
    only those of the records (:class:`_Records`, when the root is a mapping)."""

    def __init__(self, file: str, record: bool = False) -> None:
        self.file = file
        self.record = record
        self.marks: dict[YamlPath, tuple[int, int]] = {}
        self.values = 0
        self.records: _Records | None = None
        self._list_of: _Top | None = None  # the top-level key whose list begins next

    def fail(self, mark: Any, message: str) -> DataFileError:
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        return DataFileError(Problem(self.file, line, col, message))

    def build(self, text: str) -> Any:
        parser = _PARSER(text)
        try:
            with cycles_paused():  # plain data: no cycle to find (:mod:`.gcpause`)
                return self._document(parser, text)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            what = exc.problem or exc.context or "not valid YAML"
            raise self.fail(mark, f"not valid YAML: {what}") from None
        except yaml.YAMLError as exc:
            raise self.fail(None, f"not valid YAML: {exc}") from None
        finally:
            parser.dispose()

    def _document(self, parser: Any, text: str) -> Any:
        get = parser.get_event
        get()  # the stream's start
        event = get()
        if isinstance(event, yaml.StreamEndEvent):
            if text.strip():  # comments (a line of `#`: 19 MiB of them read as nothing)
                raise self.fail(None, "the file holds no data: it has only comments "
                                      "(text after #) and blank lines")
            raise self.fail(None, "the file is empty")
        event = get()
        mark = event.start_mark
        if type(event) is yaml.MappingStartEvent and not self.record and mark is not None \
                and not event.flow_style:
            self.records = _Records((mark.index, mark.line, mark.column))
        value = self._value(get, event, (), 0)
        get()  # the document's end
        event = get()
        if not isinstance(event, yaml.StreamEndEvent):
            raise self.fail(event.start_mark, "not valid YAML: expected a single document "
                                              "in the stream, but found another document")
        return value

    def _value(self, get: Any, event: Any, path: YamlPath, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise self.fail(event.start_mark, f"nested more than {MAX_DEPTH} levels deep")
        self._count(event)
        kind = type(event)
        if self.record:
            self.marks[path] = (event.start_mark.line + 1, event.start_mark.column + 1)
        if kind is yaml.ScalarEvent:
            return self._scalar(event)
        if kind is yaml.SequenceStartEvent:
            if event.tag not in (None, "!", _SEQ_TAG):
                raise self.fail(event.start_mark,
                                f"unsupported tag {event.tag!r}: only plain YAML is allowed")
            items: list[Any] = []
            record = self.record
            scalar, value = self._scalar, self._value
            starts = None  # a top-level key's list: where each item begins (_Top.items)
            if depth == 1 and self._list_of is not None:
                starts = self._list_of.items = array("q")
                self._list_of = None
            while True:
                item = get()
                kind = type(item)
                if kind is yaml.SequenceEndEvent:
                    return items
                if starts is not None:
                    mark = item.start_mark
                    starts.append(mark.index)
                    starts.append(mark.line)
                    starts.append(mark.column)
                if kind is yaml.ScalarEvent and not record:  # the common case, inline
                    self.values += 1  # :meth:`_count`, inline
                    if self.values > MAX_VALUES:
                        raise self._too_many(item)
                    items.append(item.value if item.tag is None and item.value[:1] not in
                                 _BY_FIRST else scalar(item))
                else:
                    items.append(value(get, item, path + (len(items),) if record else path,
                                       depth + 1))
        if kind is yaml.MappingStartEvent:
            if event.tag not in (None, "!", _MAP_TAG):
                raise self.fail(event.start_mark,
                                f"unsupported tag {event.tag!r}: only plain YAML is allowed")
            result: dict[Any, Any] = {}
            tops = self.records.tops if depth == 0 and self.records is not None else None
            top: _Top | None = None
            while True:
                key_event = get()
                kind = type(key_event)
                if tops is not None and top is not None:  # where the last value ends
                    top.end = key_event.start_mark.index
                if kind is yaml.MappingEndEvent:
                    return result
                if kind is yaml.ScalarEvent and key_event.tag is None and \
                        key_event.value[:1] not in _BY_FIRST:
                    # text that no resolver reads (never ``<<``): the common key, inline
                    self.values += 1  # :meth:`_count`, inline
                    if self.values > MAX_VALUES:
                        raise self._too_many(key_event)
                    key = key_event.value
                else:
                    key = self._key(key_event)
                if key in result:
                    raise self.fail(key_event.start_mark, f"duplicate key {key!r}")
                value_event = get()
                if tops is not None:
                    top = tops[key] = self._top(key_event, value_event)
                if type(value_event) is yaml.ScalarEvent and not self.record:  # inline
                    self.values += 1  # :meth:`_count`, inline
                    if self.values > MAX_VALUES:
                        raise self._too_many(value_event)
                    result[key] = (value_event.value if value_event.tag is None and
                                   value_event.value[:1] not in _BY_FIRST
                                   else self._scalar(value_event))
                    continue
                value_path = path + (key,) if self.record else path
                result[key] = self._value(get, value_event, value_path, depth + 1)
                if self.record:  # a value is reported at its key: the line a person looks for
                    self.marks[value_path] = (key_event.start_mark.line + 1,
                                              key_event.start_mark.column + 1)
        if kind is yaml.AliasEvent:
            raise self.fail(event.start_mark, "YAML aliases (*name) are not allowed in rules data")
        raise self.fail(event.start_mark, "not valid YAML")  # pragma: no cover - libyaml's order

    def _top(self, key_event: Any, value_event: Any) -> _Top:
        """The marks of one top-level key and its value (:class:`_Records`)."""
        k, v = key_event.start_mark, value_event.start_mark
        top = _Top((k.index, k.line, k.column), (v.index, v.line, v.column),
                   flow=getattr(value_event, "flow_style", None) is True)
        self._list_of = top if type(value_event) is yaml.SequenceStartEvent else None
        return top

    def _count(self, event: Any) -> None:
        self.values += 1
        if self.values > MAX_VALUES:
            raise self._too_many(event)

    def _too_many(self, event: Any) -> DataFileError:
        return self.fail(event.start_mark, f"more than {MAX_VALUES:,} values: a data file "
                                           f"may hold at most {MAX_VALUES:,}")

    def _key(self, event: Any) -> Any:
        if type(event) is not yaml.ScalarEvent:
            raise self.fail(event.start_mark, "a mapping key must be a plain value")
        if event.implicit[0] and event.tag is None and event.value == "<<":
            raise self.fail(event.start_mark, "YAML merge keys (<<) are not allowed in rules data")
        self._count(event)
        return self._scalar(event)

    def _scalar(self, event: Any) -> Any:
        value: str = event.value
        tag = event.tag
        if tag is None or tag == "!":
            if not event.implicit[0]:  # quoted, or the non-specific tag "!"
                return value
            if value.isdigit() and value.isascii() and (value[0] != "0" or value == "0") \
                    and len(value) <= MAX_INT_DIGITS:  # a plain decimal: what _int gives
                return int(value)
            tag = _STR
            for candidate, pattern in _BY_FIRST.get(value[:1], ()):
                if pattern.match(value):
                    tag = candidate
                    break
        if tag == _STR:
            return value
        if tag not in _SAFE_SCALAR_TAGS:
            if tag == _MERGE:
                raise self.fail(event.start_mark,
                                "YAML merge keys (<<) are not allowed in rules data")
            raise self.fail(event.start_mark,
                            f"unsupported tag {tag!r}: only plain YAML is allowed")
        if tag == _INT:
            return self._int(event, value)
        if tag == _FLOAT:
            return self._float(event, value)
        if tag == _BOOL:
            found = _BOOLS.get(value.lower())
            if found is None:
                raise self.fail(event.start_mark, f"{value[:40]!r} is not a boolean")
            return found
        if tag == _NULL:
            return None
        return value  # a timestamp: kept as the text written

    def _int(self, event: Any, value: str) -> int:
        text = value.replace("_", "")
        sign = -1 if text[:1] == "-" else 1
        text = text.lstrip("+-")
        if ":" in text:
            raise self.fail(event.start_mark, f"{value[:40]!r}: sexagesimal numbers (1:00:00) "
                                              f"are not allowed in rules data; quote it")
        if len(text) > MAX_INT_DIGITS:
            raise self.fail(event.start_mark, f"an integer of {len(text):,} digits: at most "
                                              f"{MAX_INT_DIGITS} are allowed in rules data")
        try:
            if text == "0":
                return 0
            if text.startswith("0b"):
                return sign * int(text[2:], 2)
            if text.startswith("0x"):
                return sign * int(text[2:], 16)
            if text.startswith("0"):
                return sign * int(text, 8)
            return sign * int(text)
        except ValueError:
            raise self.fail(event.start_mark, f"{value[:40]!r} is not an integer") from None

    def _float(self, event: Any, value: str) -> float:
        text = value.replace("_", "").lower()
        sign = -1.0 if text[:1] == "-" else 1.0
        text = text.lstrip("+-")
        if ":" in text:
            raise self.fail(event.start_mark, f"{value[:40]!r}: sexagesimal numbers (1:00:00) "
                                              f"are not allowed in rules data; quote it")
        if len(text) > MAX_INT_DIGITS * 4:
            raise self.fail(event.start_mark, f"a number of {len(text):,} characters: at most "
                                              f"{MAX_INT_DIGITS * 4} are allowed in rules data")
        if text == ".inf":
            return sign * float("inf")
        if text == ".nan":
            return float("nan")
        try:
            return sign * float(text)
        except ValueError:
            raise self.fail(event.start_mark, f"{value[:40]!r} is not a number") from None


def loads(text: str, file: str = "<string>") -> LoadedYaml:
    """Parse YAML text; raise :class:`DataFileError` with file:line:col on any problem."""
    builder = _Builder(file)
    return LoadedYaml(file, builder.build(text), text, builder.records)


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


def dump_text(data: object, *, width: int = 100, flow: bool | None = None,
              sort_keys: bool = False) -> str:
    """``data`` as YAML text, the one way every data file is written: safe types
    only, keys in their order, Unicode as itself, lines folded at ``width``;
    ``flow``: None writes the innermost lists and mappings in flow style, False
    none, True all."""
    text: str = yaml.dump(data, Dumper=_DUMPER, sort_keys=sort_keys, allow_unicode=True,
                          default_flow_style=flow, width=width)
    return text
