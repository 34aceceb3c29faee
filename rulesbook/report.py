"""The dispute report: the written statement of facts the Standard Laws ask for
(Law 16). Markdown rendered with the ``markdown`` package to a standalone HTML
file; every text that comes from a data file is escaped, never injected as
HTML; the file is written atomically."""
from __future__ import annotations

import html
import re
from pathlib import Path

import markdown

from .rulings.vocabulary import OUTCOMES
from .storage import atomic_write_text
from .textio import visible_controls

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>])")
_DIAGRAM = "RULESBOOKDIAGRAMPLACEHOLDER"


def md_escape(text) -> str:
    """Text made literal for Markdown: bidi overrides and other invisible controls
    shown as ``<U+202E>`` (a name reads as typed), HTML-escaped, then Markdown
    punctuation escaped."""
    return _MD_SPECIAL.sub(r"\\\1", html.escape(visible_controls(str(text)), quote=True))


def _quote(text: str) -> str:
    return "\n".join("> " + md_escape(line) if line.strip() else ">" for line in
                     str(text).splitlines())


def _answer(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def report_markdown(library, case, edition: str | None = None) -> tuple[str, str]:
    """(markdown, svg) of the report for ``case``."""
    from .diagram import board_svg
    from .rulings import compare, get_incident, suggest
    from .rulings.cases import case_game, move_tokens

    incident = get_incident(library, case.incident)
    result = suggest(library, case.incident, case.facts, edition)
    lines = [f"# Dispute report: {md_escape(case.title)}", ""]
    meta = [("Event", case.event), ("Date", case.date),
            ("Black (red men)", case.players.get("black", "")),
            ("White", case.players.get("white", "")),
            ("Incident", f"{incident.title} ({incident.id})"),
            ("Edition in force", library.edition(result.edition).title)]
    for label, value in meta:
        if value:
            lines.append(f"- **{label}:** {md_escape(value)}")
    lines.append("")
    if case.description:
        lines += ["## What happened", "", md_escape(case.description), ""]
    svg = ""
    if case.fen or case.moves:
        record = case_game({"fen": case.fen, "moves": case.moves,
                            "disputed_ply": case.disputed_ply})
        game = record.game
        at = (case.disputed_ply - 1) if case.disputed_ply else (case.claim_ply or game.ply)
        at = min(at, game.ply)
        position = game.positions[at]
        squares: tuple[int, ...] = ()
        if case.disputed_ply and case.disputed_ply <= len(record.texts):
            squares = tuple(int(s) for s in re.split(r"[-x:]", record.texts[case.disputed_ply - 1])
                            if s.isascii() and s.isdigit() and len(s) <= 2)
        caption = (f"Position before move {case.disputed_ply}" if case.disputed_ply
                   else f"Position after {at} plies")
        svg = board_svg(position, highlight=squares, title=caption)
        lines += ["## Position", "", md_escape(caption + f" ({position.turn} to move)"), "",
                  _DIAGRAM, "", f"FEN: `{html.escape(position.fen())}`", ""]
        tokens = move_tokens(case.moves or "")
        if tokens:
            lines += ["## Moves", ""]
            start_black = game.start.turn.name == "BLACK"
            items = []
            for i, text in enumerate(tokens, start=1):
                n = (i + (0 if start_black else 1) + 1) // 2
                prefix = f"{n}\\. " if (i % 2 == 1) == start_black or i == 1 else ""
                cell = prefix + md_escape(text)
                if i == case.disputed_ply:
                    cell = f"**{cell}** (disputed)"
                items.append(cell)
            lines += [" ".join(items), ""]
    lines += ["## Facts established", ""]
    for fact in incident.facts:
        if fact.id in result.facts:
            lines.append(f"- {md_escape(fact.question)} **{md_escape(_answer(result.facts[fact.id]))}**")
    lines.append("")
    lines += ["## Rulings under the edition in force", ""]
    if not result.binding:
        lines += ["No rule in force addresses this dispute; guidance from other rulebooks:", ""]
    if not result.rulings:
        lines += ["No ruling applies to these facts.", ""]
    for r in result.rulings:
        opts = f" (options: {', '.join(r.options)})" if r.options else ""
        cond = "" if r.applies else f" - applies only if: {', '.join(r.unknown_facts)}"
        lines += [f"### {md_escape(r.ref)} {md_escape(r.title)}", "",
                  f"**{md_escape(_plain(r.outcome).capitalize())}**{md_escape(opts)}"
                  f"{md_escape(cond)}. {md_escape(r.summary)}", "", _quote(r.text), ""]
    comp = compare(library, case.incident, case.facts)
    if comp.verdicts:
        lines += ["## How each rulebook and proposal decides it", "",
                  "| Variant | Outcome | Differs from the original |", "|---|---|---|"]
        for v in comp.verdicts:
            outcome = _plain(v.outcome) if v.outcome else "does not decide it"
            lines.append(f"| {md_escape(v.label)} | {md_escape(outcome)} | "
                         f"{'yes' if v.differs else ''} |")
        lines.append("")
    lines += ["## Referee's decision", "", md_escape(case.decision or "(to be completed)"), ""]
    if case.notes:
        lines += ["## Notes", "", md_escape(case.notes), ""]
    lines += ["Referee: ______________________   Signed: ______________________", ""]
    return "\n".join(lines), svg


_CSS = """body{font-family:Georgia,serif;max-width:46em;margin:2em auto;color:#212121}
blockquote{border-left:4px solid #2e7d32;margin-left:0;padding-left:1em;color:#37474f}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.2em .5em}
figure{margin:1em 0}"""


def report_html(library, case, edition: str | None = None) -> str:
    """The standalone HTML report for ``case``."""
    text, svg = report_markdown(library, case, edition)
    body = markdown.markdown(text, extensions=["tables"], output_format="html")
    body = body.replace(f"<p>{_DIAGRAM}</p>", f"<figure>{svg}</figure>" if svg else "")
    title = html.escape(f"Dispute report: {case.title}")
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{title}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n{body}\n"
            f"</body>\n</html>\n")


def write_report(library, case, path, edition: str | None = None) -> Path:
    """Write the report for ``case`` to ``path`` atomically."""
    return atomic_write_text(path, report_html(library, case, edition))


def _plain(outcome: str) -> str:
    """An outcome code in the plain words a player reads (the code itself if unknown)."""
    return OUTCOMES.get(outcome, outcome.replace("_", " "))
