"""Saving and opening the referee's case file: the core's dispute case
(:class:`rulesbook.reconstruct.DisputeCase`, YAML ``kind: dispute``), written
atomically and checked before writing by :func:`rulesbook.reconstruct.save_case`.

The record is kept as written: a plain move list, or PDN text when the record
has tags, comments or variations (so that nothing typed is lost).
"""
from __future__ import annotations

import re
from pathlib import Path

from rulesbook.draughts import Position

__all__ = ["case_from_controller", "write_case", "read_case"]

_EDITION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_FACT_TYPES = (bool, int, float, str)


def _record_text(controller) -> str:
    if controller.comment or any(m.comment or m.variations for m in controller.moves) or \
            any(k not in ("GameType", "Result", "FEN", "SetUp", "Setup") for k in controller.tags):
        return controller.export_pdn()
    return " ".join(m.text for m in controller.moves)


def case_from_controller(controller):
    from rulesbook.reconstruct import DisputeCase

    tags = controller.tags
    start = controller.start
    start_text = "start" if start == Position.start(controller.variant) else start.fen()
    findings: dict = {}
    first = controller.first_illegal
    checked = controller.checked
    if checked is not None:
        findings["first_illegal"] = first.to_dict() if first is not None else None
        findings["summary"] = first.message if first is not None else \
            f"every move is legal ({len(controller.moves)} plies)"
        if first is not None:
            findings["facts"] = {k: v for k, v in first.facts.items()
                                 if isinstance(v, _FACT_TYPES)}
            findings["restored_fen"] = first.fen_before
    gap = controller.gap_result
    if gap is not None and not gap.cancelled:
        findings["gap"] = {"status": gap.status.value,
                           "sequences": [list(t) for t in gap.texts],
                           "diverge_at": [d for d in gap.diverge_at if d >= 1],
                           "explanation": gap.explanation}
    edition = controller.edition_id or ""
    return DisputeCase(
        record=_record_text(controller), variant=controller.variant.name, start=start_text,
        event=tags.get("Event", "") if tags.get("Event", "?") != "?" else "",
        round=tags.get("Round", "") if tags.get("Round", "?") != "?" else "",
        date=tags.get("Date", "") if tags.get("Date", "?") != "?" else "",
        black=tags.get("Black", "") if tags.get("Black", "?") != "?" else "",
        white=tags.get("White", "") if tags.get("White", "?") != "?" else "",
        edition=edition if _EDITION_ID.match(edition) else "",
        board=controller.gap_target.fen() if controller.gap_target is not None else None,
        notes=controller.notes, findings=findings)


def write_case(controller, path: Path) -> Path:
    """Save atomically (the core checks the document before it writes)."""
    from rulesbook.reconstruct import save_case

    return Path(save_case(case_from_controller(controller), path, backup=True))


def read_case(path: Path) -> tuple[dict, str]:
    """``(session dict, record text)`` of a case file; raises CaseFileError."""
    from rulesbook.reconstruct import load_case

    case = load_case(path)
    tags = {k: v for k, v in (("Event", case.event), ("Round", case.round),
                              ("Date", case.date), ("Black", case.black),
                              ("White", case.white)) if v}
    session = {
        "variant": case.variant,
        "start": case.start_position().fen(),
        "moves": [],
        "tags": tags,
        "gap_target": case.board,
        "notes": case.notes,
        "edition": case.edition,
    }
    return session, case.record
