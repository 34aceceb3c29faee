"""The referee's case file: YAML of kind ``dispute`` (schema
``rules_data/schema/dispute.schema.json``).

It keeps the event, round, players, variant, the edition in force, the start
(``start`` or a FEN), the record as written, the board at discovery, the
referee's notes and what the reconstruction found.  :func:`save_case` writes
atomically (temp file, fsync, rename) and checks the document *before*
writing, so a save that fails never touches the file on disk;
:func:`load_case` reads with the line-aware safe loader and reports every
problem as ``file:line:col``.

>>> case = DisputeCase(record="11-15 23-19", event="Ohio Open")
>>> DisputeCase.from_dict(case.to_dict()) == case
True
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesbook.documents import DocumentError, load_document
from rulesbook.draughts import DraughtsError, Position
from rulesbook.draughts.notation import plies_text
from rulesbook.errors import DataFileError, Problem
from rulesbook.reconstruct.importing import import_record
from rulesbook.reconstruct.record import looks_like_pdn
from rulesbook.reconstruct.session import BoardSession, GameRecord, record_case_text
from rulesbook.storage import atomic_write_text
from rulesbook.yamlio import LoadedYaml, dump_text

if TYPE_CHECKING:
    from rulesbook.reconstruct.gap import GapResult
    from rulesbook.reconstruct.replay import Replay

__all__ = ["DisputeCase", "CaseFileError", "load_case", "save_case", "case_to_yaml",
           "checked_case_text",
           "case_findings", "case_from_session", "session_from_case", "record_tag_fields",
           "RecordTags"]

KIND = "dispute"
_EDITION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_FACT_TYPES = (bool, int, float, str)
#: the case's fields that come from the record's PDN tags
_TAG_FIELDS = (("event", "Event"), ("round", "Round"), ("date", "Date"),
               ("black", "Black"), ("white", "White"))


class CaseFileError(DataFileError):
    """A case file that cannot be used; ``problems`` lists every problem."""

    def __init__(self, problems: list[Problem]):
        super().__init__(problems[0])
        self.problems = sorted(problems)
        self.args = ("\n".join(str(p) for p in self.problems),)

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class DisputeCase:
    """One dispute at the board (see the module docstring)."""

    record: str = ""
    variant: str = "pool"
    start: str = "start"
    event: str = ""
    round: str = ""
    date: str = ""
    black: str = ""
    white: str = ""
    edition: str = ""
    board: str | None = None
    notes: str = ""
    findings: dict[str, Any] = field(default_factory=dict)

    def start_position(self) -> Position:
        if self.start.strip().lower() == "start":
            return Position.start(self.variant)
        return Position.from_fen(self.start, self.variant)

    def board_position(self) -> Position | None:
        return None if self.board is None else Position.from_fen(self.board, self.variant)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"schema_version": 1, "kind": KIND}
        for key in ("event", "round", "date"):
            value = getattr(self, key)
            if value:
                out[key] = value
        if self.black or self.white:
            out["players"] = {"black": self.black, "white": self.white}
        out["variant"] = self.variant
        if self.edition:
            out["edition"] = self.edition
        out["start"] = self.start
        out["record"] = self.record
        out["board"] = self.board
        if self.notes:
            out["notes"] = self.notes
        if self.findings:
            out["findings"] = self.findings
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DisputeCase:
        players = data.get("players") or {}
        return cls(record=data.get("record", ""), variant=data.get("variant", "pool"),
                   start=data.get("start", "start"), event=data.get("event", ""),
                   round=str(data.get("round", "")), date=str(data.get("date", "")),
                   black=players.get("black", ""), white=players.get("white", ""),
                   edition=data.get("edition", ""), board=data.get("board"),
                   notes=data.get("notes", ""), findings=dict(data.get("findings") or {}))


def case_to_yaml(case: DisputeCase) -> str:
    """The YAML text of a case file."""
    header = "# Rulesbook referee case file (kind: dispute)\n"
    body: str = dump_text(case.to_dict(), flow=False, width=88)
    return header + body


def _positions(doc: LoadedYaml) -> list[Problem]:
    """The start position and the board of a schema-valid case file can be set up."""
    problems: list[Problem] = []
    data = doc.data
    variant = data["variant"]
    start = data["start"]
    if start.strip().lower() != "start":
        try:
            Position.from_fen(start, variant)
        except DraughtsError as exc:
            problems.append(doc.problem(("start",), f"start: {exc}"))
    if data.get("board") is not None:
        try:
            Position.from_fen(data["board"], variant)
        except DraughtsError as exc:
            problems.append(doc.problem(("board",), f"board: {exc}"))
    return problems


def _read(path: str | Path, text: str | None = None) -> LoadedYaml:
    try:
        return load_document(path, KIND, [_positions], text=text)
    except DocumentError as exc:
        raise CaseFileError(list(exc.problems)) from None


def load_case(path: str | Path) -> DisputeCase:
    """Read a case file; raises :class:`CaseFileError` (``file:line:col``)."""
    return DisputeCase.from_dict(_read(Path(path)).data)


def checked_case_text(case: DisputeCase, path: str | Path) -> str:
    """The text :func:`save_case` writes for ``case`` to ``path``, checked: a case
    that would not load back raises :class:`CaseFileError` (``path`` names the file
    in its problems). Pure work, no file touched: the Board works it out off the GUI
    thread for a long record, then writes it with :func:`atomic_write_text`."""
    text = case_to_yaml(case)
    _read(path, text)
    return text


def save_case(case: DisputeCase, path: str | Path, backup: bool = False) -> Path:
    """Write ``case`` atomically.  The text is checked first
    (:func:`checked_case_text`): a case that would not load back raises
    :class:`CaseFileError` and the file on disk (even a damaged one) is left as it is."""
    return atomic_write_text(path, checked_case_text(case, path), backup=backup)


def case_findings(checked: Replay | None, gap: GapResult | None) -> dict[str, Any]:
    """What the reconstruction found, as a case file keeps it: the record check
    (``checked``: None when the record was not checked) and the gap search."""
    findings: dict[str, Any] = {}
    if checked is not None:
        first = checked.first_illegal
        findings["first_illegal"] = first.to_dict() if first is not None else None
        findings["summary"] = first.message if first is not None else \
            f"every move is legal ({plies_text(len(checked.moves))})"
        if first is not None:
            findings["facts"] = {k: v for k, v in first.facts.items()
                                 if isinstance(v, _FACT_TYPES)}
            findings["restored_fen"] = first.fen_before
    if gap is not None and not gap.cancelled:
        findings["gap"] = {"status": gap.status.value,
                           "sequences": [list(t) for t in gap.texts],
                           "diverge_at": [d for d in gap.diverge_at if d >= 1],
                           "explanation": gap.explanation}
    return findings


@dataclass(frozen=True)
class RecordTags:
    """The record's event, round, date and players as its PDN tags give them, each as
    written ("" when missing or ``?``): what a case file and the dispute report take
    from the record."""

    event: str = ""
    round: str = ""
    date: str = ""
    black: str = ""
    white: str = ""

    @classmethod
    def of(cls, record: GameRecord) -> RecordTags:
        return cls(**{key: record.tag(tag) for key, tag in _TAG_FIELDS})


def record_tag_fields(record: GameRecord) -> dict[str, str]:
    """The case's fields that the record's PDN tags fill (``event``, ``round``,
    ``date``, ``black``, ``white``): :class:`RecordTags` as keyword arguments."""
    fields: dict[str, str] = asdict(RecordTags.of(record))
    return fields


def case_from_session(session: BoardSession, findings: dict[str, Any] | None = None,
                      edition: str = "", previous: Replay | None = None) -> DisputeCase:
    """The case file of a board session (an edition id that cannot be one is left out).
    ``previous``: a replay of the record with illegal moves let stand (the board's):
    taken over, not replayed again (:func:`~rulesbook.reconstruct.session.record_pdn`)."""
    record = session.record
    start = "start" if record.starts_at_standard else record.start.fen()
    return DisputeCase(
        record=record_case_text(record, previous), variant=record.variant.name, start=start,
        **record_tag_fields(record),
        edition=edition if _EDITION_ID.match(edition) else "",
        board=session.target.fen() if session.target is not None else None,
        notes=session.notes, findings=dict(findings or {}))


def session_from_case(case: DisputeCase) -> BoardSession:
    """The board session of a case file: its record (PDN with comments, or a plain
    move list from the case's start), the players and event as tags, the board at
    discovery as the board now, the notes.  Raises a DraughtsError for a record
    that cannot be read."""
    start = case.start_position()
    if case.record.strip():
        record = import_record(case.record, 0, case.variant).record
        if not looks_like_pdn(case.record):
            record = record.replace(start=start)
    else:
        record = GameRecord.empty(case.variant, start)
    tags = dict(record.tags)
    tags.update({tag: getattr(case, key) for key, tag in _TAG_FIELDS if getattr(case, key)})
    return BoardSession(record.replace(tags=tags), target=case.board_position(),
                        notes=case.notes)
