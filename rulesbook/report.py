"""The dispute report: the written statement of facts the Standard Laws ask for
(Law 16). Markdown rendered with the ``markdown`` package to a standalone HTML
file; every text that comes from a data file is escaped, never injected as
HTML; the file is written atomically."""
from __future__ import annotations

import html
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import markdown

from .diagram import DiagramArrow
from .draughts import Position
from .reconstruct.record import written_squares
from .reconstruct.replay import IllegalMove, move_number, replay
from .rulings.vocabulary import Basis
from .storage import atomic_write_text
from .textio import ordinal, visible_controls  # noqa: F401 - ordinal re-exported

if TYPE_CHECKING:
    from .library import Library
    from .rulings.cases import Case

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>])")
_DIAGRAM = "RULESBOOKDIAGRAMPLACEHOLDER"


def md_escape(text: object) -> str:
    """Text made literal for Markdown: bidi overrides and other invisible controls
    shown as ``<U+202E>`` (a name reads as typed), HTML-escaped, then Markdown
    punctuation escaped."""
    return _MD_SPECIAL.sub(r"\\\1", html.escape(visible_controls(str(text)), quote=True))


def _quote(text: str) -> str:
    return "\n".join("> " + md_escape(line) if line.strip() else ">" for line in
                     str(text).splitlines())


def _quote_marked(text: str, quotes: Iterable[str]) -> str:
    """The rule text as a block quote with the deciding words (``quotes``) in bold."""
    from .rulings import merged_spans

    text = " ".join(str(text).split())  # one paragraph: spans never cross a line break
    parts: list[str] = []
    at = 0
    for start, end in merged_spans(text, quotes):
        parts.append(md_escape(text[at:start]))
        parts.append(f"**{md_escape(text[start:end])}**")
        at = end
    parts.append(md_escape(text[at:]))
    return "> " + "".join(parts)


@dataclass(frozen=True)
class RecordView:
    """A case's record as the report shows it: the position at the disputed move
    (or the claim), named as on a scoresheet, and why the move was illegal."""

    position: Position
    caption: str                       # "Position before Black's move 5, 10-14"
    texts: tuple[str, ...]
    start: Position
    illegal: IllegalMove | None         # the disputed move, when it was illegal
    highlight: tuple[int, ...]
    arrows: tuple[DiagramArrow, ...]


def scoresheet_name(start: Position, before: Position, ply: int, text: str) -> str:
    """How a scoresheet names ply ``ply``: "Black's move 5, 10-14" (the move's number:
    from a set-up with White to move, Black's first move is move 2)."""
    return f"{before.turn.title}'s move {move_number(start, ply)}, {text}"


def record_view(case: Case) -> RecordView:
    """Replay the case's record with the reconstruction core; raises GameRecordError
    when a move other than the disputed one cannot be played."""
    from .draughts import DraughtsError
    from .rulings import GameRecordError

    try:
        rep = replay(case.moves or "", start=case.fen or None, variant=case.variant)
    except DraughtsError as exc:
        raise GameRecordError(f"the record cannot be read: {exc}") from None
    illegal = rep.first_illegal
    disputed = case.disputed_ply
    claim = case.claim_ply
    if claim is None and disputed is not None and is_claim(case):
        # a draw claim is made after the ply the board sends, never before it
        disputed, claim = None, disputed
    if illegal is not None and illegal.ply != disputed:
        raise GameRecordError(f"move {illegal.ply} ({illegal.move}) cannot be played: "
                              f"{illegal.message}")
    if disputed and disputed <= len(rep.moves):
        before = rep.positions[min(disputed - 1, len(rep.positions) - 1)]
        text = rep.moves[disputed - 1]
        caption = "Position before " + scoresheet_name(rep.start, before, disputed, text)
        highlight = _squares_of(text)
        arrows: tuple[DiagramArrow, ...] = ()
        if illegal is not None:
            # the moves that were legal, drawn in blue; what was played, dashed red
            legal = before.legal_moves()[:4]
            arrows = tuple(DiagramArrow(tuple(m.path), "#0d47a1") for m in legal)
            if len(highlight) >= 2:
                arrows += (DiagramArrow(highlight, "#c62828", dashed=True),)
        return RecordView(before, caption, rep.moves, rep.start, illegal, highlight, arrows)
    at = min(claim if claim is not None else len(rep.positions) - 1,
             len(rep.positions) - 1)
    position = rep.positions[at]
    if at == 0:
        caption = "The starting position"
    else:
        last = rep.positions[at - 1]
        caption = "Position after " + scoresheet_name(rep.start, last, at, rep.moves[at - 1])
    return RecordView(position, caption, rep.moves, rep.start, None, (), ())


def is_claim(case: Case) -> bool:
    """The case is a draw claim (13-count, stronger side, repetition): its ply is the
    one after which the claim is made."""
    from .rulings import CLAIM_INCIDENTS

    return case.incident in CLAIM_INCIDENTS


def _squares_of(text: str) -> tuple[int, ...]:
    """The squares a move text names, read by the one reader of written moves."""
    return written_squares(text) or ()


def report_markdown(library: Library, case: Case,
                    edition: str | None = None) -> tuple[str, str]:
    """(markdown, svg) of the report for ``case``."""
    from .diagram import board_svg
    from .rulings import (
        compare,
        condition_words,
        fact_words,
        get_incident,
        outcome_words,
        suggest,
        verdict_words,
    )
    from .rulings.governing import guidance_words

    incident = get_incident(library, case.incident)
    result = suggest(library, case.incident, case.facts, edition, case.variant)
    gov = result.governance
    assert gov is not None
    view = record_view(case) if (case.fen or case.moves) else None
    governing = ", ".join(library.rulebook(b).title for b in gov.rulebooks) or \
        "none of the library's rulebooks"
    # the variant and the rulebooks that govern it come first (issue 31)
    lines = [f"# Dispute report: {md_escape(case.title)}", "", md_escape(gov.sentence), ""]
    meta = [("Game", gov.variant_title), ("Rulebooks governing it", governing),
            ("Event", case.event), ("Round", case.round), ("Date", case.date),
            ("Black (red men)", case.players.get("black", "")),
            ("White", case.players.get("white", "")),
            ("Incident", incident.title),
            ("Edition in force", library.edition(result.edition).title
             + ("" if gov.edition_governs else " (not this game's rulebook: guidance only)"))]
    # one paragraph under the title, not a line each: the report fits on two pages
    lines += [" · ".join(f"**{label}:** {md_escape(value)}" for label, value in meta if value),
              ""]
    happened = [md_escape(case.description)] if case.description else []
    if view is not None and view.illegal is not None:
        happened.append(md_escape(view.illegal.message))
        if view.illegal.legal_moves:
            happened.append(md_escape("Legal moves in that position: "
                                      + ", ".join(view.illegal.legal_moves) + "."))
    if happened:
        lines += ["## What happened", "", "\n\n".join(happened), ""]
    svg = ""
    if view is not None:
        position = view.position
        svg = board_svg(position, highlight=view.highlight, title=view.caption,
                        arrows=view.arrows)
        key = (" Blue arrows: the moves that were legal; dashed red: the move played."
               if view.arrows else "")
        lines += ["## Position", "",
                  md_escape(f"{view.caption} ({position.turn.title} to move).{key}"), "",
                  _DIAGRAM, "", f"FEN: `{html.escape(position.fen())}`", ""]
        if view.texts:
            lines += ["## Moves", ""]
            start_first = view.start.turn is view.start.variant.first_player
            items: list[str] = []
            for i, text in enumerate(view.texts, start=1):
                first_of_pair = (i % 2 == 1) == start_first
                prefix = f"{move_number(view.start, i)}\\. " if first_of_pair or i == 1 else ""
                cell = prefix + md_escape(text)
                if i == case.disputed_ply:
                    cell = f"**{cell}** ({'claim made after it' if is_claim(case) else 'disputed'})"
                items.append(cell)
            lines += [" ".join(items), ""]
    lines += ["## Facts established", ""]
    for fact in incident.facts:
        if fact.id in result.facts:
            lines.append(f"- {md_escape(fact.question)} "
                         f"**{md_escape(fact_words(result.facts[fact.id]))}**")
    lines.append("")
    if gov.edition_governs:
        lines += ["## Rulings under the edition in force", ""]
    elif gov.rulebooks:
        names = [library.rulebook(b).name for b in gov.rulebooks]
        lines += [f"## Rulings under {md_escape(' and '.join(names))}", ""]
    else:
        lines += ["## Rulings (guidance only)", ""]
    if not result.binding:
        lines += ["No rule of the rulebooks that govern this game addresses this dispute; "
                  "guidance from other rulebooks:", ""]
    if not result.rulings:
        lines += ["No ruling applies to these facts.", ""]
    for r in result.rulings:
        opts = f" (options: {', '.join(o.replace('_', ' ') for o in r.options)})" \
            if r.options else ""
        cond = "" if r.applies else (" - applies only if: " + "; ".join(
            condition_words(r, incident, f) for f in r.unknown_facts))
        lines += [f"### {md_escape(r.ref)} {md_escape(r.title)}", ""]
        said = guidance_words(library, gov, r.rulebook, r.in_force)
        if said:  # another rulebook's ruling is never given as this game's ruling
            lines += [f"*{md_escape(said[:1].upper() + said[1:])}.*", ""]
        lines += [f"**{md_escape(outcome_words(r.outcome).capitalize())}**{md_escape(opts)}"
                  f"{md_escape(cond)}. {md_escape(r.summary)}", "",
                  _quote_marked(r.text, r.quotes), ""]
        if r.quotes:
            lines += ["*The words in bold decide it.*", ""]
        if r.basis is Basis.INFERRED:
            lines += [f"*Inferred, not in the words of the rule:* {md_escape(r.note)}", ""]
    comp = compare(library, case.incident, case.facts, gov.variant)
    if comp.verdicts:
        base = "the original APCA rule's" if gov.edition_governs or not comp.baseline \
            else f"{comp.baseline}'s"
        lines += ["## How each rulebook and proposal decides it", "",
                  f"An outcome marked *differs* is not {md_escape(base)}; *inferred* "
                  "means the text does not say it in words.", "",
                  "| Variant | Outcome |", "|---|---|"]
        for v in comp.verdicts:
            differs = " **(differs)**" if v.differs else ""
            lines.append(f"| {md_escape(v.label)} | {md_escape(verdict_words(v))}{differs} |")
        lines.append("")
    # the decision and the signatures stay together on one page (see _CSS)
    lines += ['<div class="decision" markdown="1">', "",
              "## Referee's decision", "", md_escape(case.decision or "(to be completed)"), ""]
    if case.notes:
        lines += ["## Notes", "", md_escape(case.notes), ""]
    lines += ["Referee: ______________________   Signed: ______________________", "", "</div>",
              "", _written_by(), ""]
    return "\n".join(lines), svg


def _written_by() -> str:
    """The report's last line: which program wrote it (so that a committee reading a
    report later knows which version's rules engine decided what it says)."""
    from .version import version

    return f"*Report written by Rulesbook {md_escape(version())}.*"


_CSS = """body{font-family:Georgia,serif;max-width:46em;margin:2em auto;color:#212121}
blockquote{border-left:4px solid #2e7d32;margin-left:0;padding-left:1em;color:#37474f}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #bbb;padding:.2em .5em}
figure{margin:1em 0}div.decision{page-break-inside:avoid;break-inside:avoid}"""


def report_html(library: Library, case: Case, edition: str | None = None) -> str:
    """The standalone HTML report for ``case``."""
    from .version import version

    text, svg = report_markdown(library, case, edition)
    body = markdown.markdown(text, extensions=["tables", "md_in_html"], output_format="html")
    body = body.replace(f"<p>{_DIAGRAM}</p>", f"<figure>{svg}</figure>" if svg else "")
    title = html.escape(f"Dispute report: {case.title}")
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta name=\"generator\" content=\"Rulesbook {html.escape(version())}\">\n"
            f"<title>{title}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n{body}\n"
            f"</body>\n</html>\n")


def write_report(library: Library, case: Case, path: str | os.PathLike[str],
                 edition: str | None = None) -> Path:
    """Write the report for ``case`` to ``path`` atomically."""
    return atomic_write_text(path, report_html(library, case, edition))
