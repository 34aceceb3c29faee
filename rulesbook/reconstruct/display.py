"""What the board shows about a record, as text and HTML for a rich-text view:
the counts panel's rows, the check result, a move's comment and variations, the
strip of a gap sequence.  Pure functions of core values (no Qt), so that every
view of the board says the same thing."""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from rulesbook.draughts import CountRules, CountState
from rulesbook.draughts.notation import plies_text
from rulesbook.reconstruct.replay import Replay
from rulesbook.reconstruct.session import GameRecord

__all__ = ["counts_lines", "check_html", "comment_html", "sequence_html", "CHECK_LINK",
           "SEQUENCE_LINK"]

#: the link scheme of a ply in :func:`check_html` (``ply:7``)
CHECK_LINK = "ply:"
#: the link scheme of a ply of a gap sequence in :func:`sequence_html` (``gap-ply:3``)
SEQUENCE_LINK = "gap-ply:"


def check_html(result: Replay, let_stand: bool, titles: Mapping[str, str] | None = None,
               verdict: str = "") -> str:
    """The result of "Check record": every move legal, or the first illegal move
    (every one when ``let_stand``) with the reason and the legal moves. ``titles``:
    the incidents' titles by id (a referee reads "Failure to capture", never the
    id); ``verdict``: the ruling of the first illegal move in words, with its rule
    and the rulebook that governs the game, shown under it."""
    parts = []
    titles = titles or {}
    if result.ok:
        parts.append(f"<p><b>Every move is legal</b> ({plies_text(len(result.moves))}).</p>")
    for item in result.illegal if let_stand else result.illegal[:1]:
        legal = ", ".join(item.legal_moves) or "none"
        parts.append(
            f"<p><a href='{CHECK_LINK}{item.ply}'><b>Ply {item.ply}</b> (move "
            f"{item.move_number}, {item.side.title})</a>: written "
            f"<b>{html.escape(item.move)}</b></p>"
            f"<p style='font-size:large'>{html.escape(item.message)}</p>"
            f"<p>Legal moves were: {html.escape(legal)}</p>"
            f"<p class='muted'>Incident: "
            f"{html.escape(titles.get(item.incident, item.incident.replace('_', ' ')))}"
            f"{' · stood as played' if item.applied else ''}</p>")
        if verdict and item is result.illegal[0]:
            parts.append(f"<p><b>{html.escape(verdict)}</b></p>")
    if result.illegal:
        parts.append("<p class='muted'>On the board: the move as written in red, "
                     "the legal moves in blue.</p>")
    if result.illegal and not let_stand:
        parts.append("<p><i>The replay stops at the first illegal move; tick \"Let "
                     "illegal moves stand\" to see every one.</i></p>")
    elif not result.complete:
        parts.append("<p><i>The replay stopped there: the move cannot be put on the "
                     "board as written.</i></p>")
    return "".join(parts)


def comment_html(record: GameRecord, ply: int) -> str:
    """The comment and variations of ``ply`` (at ply 0: the game's comment)."""
    parts = []
    if ply == 0 and record.comment:
        parts.append(html.escape(record.comment))
    if 1 <= ply <= len(record.moves):
        move = record.moves[ply - 1]
        if move.comment:
            parts.append(html.escape(move.comment))
        for v in move.variations:
            parts.append(f"<i>Variation:</i> ({html.escape(v)})")
    return "<br>".join(parts)


def sequence_html(record: GameRecord, base_ply: int, texts: Sequence[str], number: int,
                  current: int, branches: Sequence[int], branch_colour: str,
                  certain: Sequence[int] = (), certain_words: Sequence[str] = ()) -> str:
    """The strip of gap sequence ``number`` (1-based) played after ply ``base_ply``
    of ``record``: numbered moves, each a link (:data:`SEQUENCE_LINK`), the ply
    ``current`` highlighted, the plies in ``branches`` (where the sequences part)
    marked ▼ in ``branch_colour`` and those in ``certain`` (every sequence plays
    that move) marked ✓, said in the legend by ``certain_words`` ("Black's 9th
    move was certainly 10-14")."""
    parts = []
    for i, text in enumerate(texts, 1):
        prefix = record.ply_prefix(base_ply + i)
        shown = f"{prefix} " if prefix.endswith(".") or i == 1 else ""
        cell = html.escape(text)
        if i in certain:
            cell = f"<u>✓{cell}</u>"
        if i in branches:
            cell = f"<span style='color:{branch_colour}'>▼{cell}</span>"
        if i == current:
            cell = f"<span style='background:#ffe27a; font-weight:bold'>{cell}</span>"
        parts.append(f"{shown}<a href='{SEQUENCE_LINK}{i}' style='text-decoration:none; "
                     f"color:palette(text)'>{cell}</a>")
    legend = (f" <span style='color:{branch_colour}'>▼ the sequences part here</span>"
              if branches else " (no other sequence parts from this one)")
    if certain and len(certain) < len(texts):
        legend += (" · ✓ " + html.escape("; ".join(certain_words)) if certain_words else
                   " · ✓ certain: every sequence plays it")
    return f"Sequence {number}: " + " ".join(parts) + "<br><small>" + legend + "</small>"


def _limit_text(limit: int | None, extension: int | None = None) -> str:
    if limit is None:
        return "no limit in force"
    if extension:
        return f"limit {limit} (+{extension - limit} extension = {extension})"
    return f"limit {limit}"


def _three_vs_one(state: CountState) -> str | None:
    if not state.three_vs_one_active:
        return None
    limit = state.three_vs_one_limit
    n = state.three_vs_one_moves
    # the count stops at the limit: "13 of 13", then the moves played past it
    counted = min(n, limit) if limit is not None else n
    text = f"{counted} of {limit if limit is not None else '—'} moves of the lone king"
    if state.long_line:
        text += " · lone king on the long line"
    if not state.three_vs_one_reached:
        return text
    past = n - counted
    return text + " · LIMIT REACHED" + (f" ({past} more move{'' if past == 1 else 's'} of "
                                        f"the lone king since)" if past else "")


def _strong_side(state: CountState) -> str | None:
    if state.strong_side is None:
        return None
    n = state.strong_side_moves
    extended = state.strong_side_extended_limit
    text = (f"{state.strong_side.title} is stronger: {n} move{'' if n == 1 else 's'} "
            f"since the last capture or man move · "
            + _limit_text(state.strong_side_limit,
                          extended if extended != state.strong_side_limit else None))
    if state.strong_side_extended_reached:
        return text + " · EXTENDED LIMIT REACHED"
    return text + (" · LIMIT REACHED" if state.strong_side_reached else "")


def counts_lines(state: CountState | None, edition: str = "", rules: CountRules | None = None,
                 source: str = "") -> list[tuple[str, str]]:
    """``(label, text)`` rows of the counts panel for a CountState (or None).
    ``rules``: the limits the state was counted with (the 13-count row is left out
    when they have none: the Standard Laws count no lone king's moves); ``source``:
    which rules they come from (:func:`rulesbook.rulings.counts_source`), a row."""
    if state is None:
        rows = [("Counts", "not available: the record has an illegal move before this ply")]
        return rows + ([("Counts from", source)] if source else [])
    rows = []
    if rules is None or rules.three_vs_one_limit is not None \
            or rules.long_line_limit is not None:
        rows.append(("13-count (3 kings v 1)",
                     _three_vs_one(state) or "not running (not three kings against one)"))
    rows.append(("Stronger side's count",
                 _strong_side(state) or "not running (material is even)"))
    rep = f"this position has occurred {state.repetitions} time" + \
        ("s" if state.repetitions != 1 else "")
    if state.repetition_limit is not None:
        rep += f" · limit {state.repetition_limit}"
    if state.repetition_reached:
        rep += " · LIMIT REACHED"
    rows.append(("Repetition", rep))
    if source:
        rows.append(("Counts from", source))
    if edition:
        rows.append(("Edition in force", edition))
    return rows
