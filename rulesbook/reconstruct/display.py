"""What the board shows about a record, as text and HTML for a rich-text view:
the counts panel's rows, the check result, a move's comment and variations, the
strip of a gap sequence.  Pure functions of core values (no Qt), so that every
view of the board says the same thing."""
from __future__ import annotations

from rulesbook.draughts import CountState

__all__ = ["counts_lines"]


def _limit_text(limit: int | None, extension: int | None = None) -> str:
    if limit is None:
        return "no limit in force"
    if extension:
        return f"limit {limit} (+{extension - limit} extension = {extension})"
    return f"limit {limit}"


def counts_lines(state: CountState | None, edition: str = "") -> list[tuple[str, str]]:
    """``(label, text)`` rows of the counts panel for a CountState (or None)."""
    if state is None:
        return [("Counts", "not available: the record has an illegal move before this ply")]
    rows = []
    if state.three_vs_one_active:
        limit = state.three_vs_one_limit
        text = f"{state.three_vs_one_moves} of {limit if limit is not None else '—'} moves"
        if state.long_line:
            text += " · lone king on the long line"
        if state.three_vs_one_reached:
            text += " · LIMIT REACHED"
        rows.append(("13-count (3 kings v 1)", text))
    else:
        rows.append(("13-count (3 kings v 1)", "not running (not three kings against one)"))
    if state.strong_side is not None:
        who = state.strong_side.title
        n = state.strong_side_moves
        text = (f"{who} is stronger: {n} move{'' if n == 1 else 's'} · "
                + _limit_text(state.strong_side_limit, state.strong_side_extended_limit
                              if state.strong_side_extended_limit != state.strong_side_limit
                              else None))
        if state.strong_side_extended_reached:
            text += " · EXTENDED LIMIT REACHED"
        elif state.strong_side_reached:
            text += " · LIMIT REACHED"
        rows.append(("Stronger side's count", text))
    else:
        rows.append(("Stronger side's count", "not running (material is even)"))
    rep = f"this position has occurred {state.repetitions} time" + \
        ("s" if state.repetitions != 1 else "")
    if state.repetition_limit is not None:
        rep += f" · limit {state.repetition_limit}"
    if state.repetition_reached:
        rep += " · LIMIT REACHED"
    rows.append(("Repetition", rep))
    if edition:
        rows.append(("Edition in force", edition))
    return rows
