"""HTML for the ballot views: a question's options as texts (or as changes against
the original), and a result's working (counts, IRV rounds, pairwise table).
Every data text is escaped."""
from __future__ import annotations

import html

from rulesbook import Library
from rulesbook.ballots import STATUS_QUO, Ballot, Question, QuestionResult, Stands
from rulesbook.textdiff import word_diff
from rulesbook.textio import visible_controls

from .ranking import METHOD_LABELS, THRESHOLD_LABELS

esc = html.escape


def option_text(library: Library | None, option: str) -> str:
    if option == STATUS_QUO:
        return "(no change: keep the rulebook as it is)"
    if library is None:
        return option
    try:
        return library.resolve(option).text
    except (LookupError, ValueError, AttributeError):
        return option


def short_option(option: str) -> str:
    """An option as the grid shows it: "10C", "10" (the original), "status quo"."""
    return "status quo" if option == STATUS_QUO else option.split(":", 1)[-1]


def seal_warnings(ballot: Ballot) -> str:
    """What the chair should know before sealing: questions nobody voted on, and
    questions whose votes are below the quorum (empty when there is nothing)."""
    empty, short = [], []
    for q in ballot.questions:
        cast = len({v.member for v in ballot.votes if v.question == q.id})
        if cast == 0:
            empty.append(q.id)
        elif ballot.quorum and cast < ballot.quorum:
            short.append(f"{q.id} ({cast} of {ballot.quorum})")
    lines = []
    if empty:
        lines.append(f"{len(empty)} of {len(ballot.questions)} questions have no votes: "
                     + ", ".join(empty[:12]) + (" …" if len(empty) > 12 else "") + ".")
    if short:
        lines.append("Below the quorum: " + ", ".join(short[:12])
                     + (" …" if len(short) > 12 else "") + ".")
    return ("\n\nWarning: " + " ".join(lines)) if lines else ""


def option_label(library: Library | None, option: str) -> str:
    """ "10A (Pecan)", "10 (original)", "status quo"."""
    if option == STATUS_QUO:
        return "status quo"
    short = option.split(":", 1)[-1]
    if library is None:
        return short
    try:
        entry = library.resolve(option)
    except (LookupError, ValueError):
        return short
    member = getattr(entry, "member", None)
    if member:
        try:
            return f"{short} ({visible_controls(library.member(member).name)})"
        except LookupError:
            return f"{short} ({member})"
    return f"{short} (original)"


def question_html(library: Library | None, question: Question, show_diff: bool = False) -> str:
    parts = [f"<h2>{esc(question.id)}: {esc(question.title or '')}</h2>"]
    kind = ("A yes/no question about new text" if question.is_addition else
            f"Which text for {esc(question.rule or '')}? The original comes first")
    parts.append(f"<p class='muted'>{kind}. Type the option numbers in order of "
                 "preference when recording a vote.</p>")
    original = option_text(library, question.options[0])
    for n, option in enumerate(question.options, start=1):
        text = option_text(library, option)
        parts.append(f"<h3>{n}. {esc(option_label(library, option))} "
                     f"<span class='muted'>{esc(option)}</span></h3>")
        if show_diff and n > 1 and option != STATUS_QUO and question.options[0] != STATUS_QUO:
            body = word_diff(original, text).html()
        else:
            body = esc(text)
        parts.append("<p>" + body.replace("\n", "<br/>") + "</p>")
    if question.endorsements:
        parts.append("<p class='note'>Endorsements of the original: "
                     + esc(", ".join(question.endorsements)) + "</p>")
    return "\n".join(parts)


def member_label(ballot: Ballot, library: Library | None, member: str) -> str:
    """``A Ann Smith``: a member of the roll with the name the ballot (or else the
    library) gives; the id alone when none does."""
    name = dict(ballot.members).get(member)
    if name is None and library is not None:
        try:
            name = library.member(member).name
        except LookupError:
            name = None
    return f"{member} {visible_controls(name)}" if name else member


def settings_text(ballot: Ballot, library: Library | None = None) -> str:
    roll = [member_label(ballot, library, m) for m in ballot.roll]
    base = "ballots cast" if ballot.threshold_base == "cast" else "members on the roll"
    return (f"{ballot.title} ({ballot.id}) — {ballot.status.upper()} · "
            f"method: {METHOD_LABELS.get(ballot.method, ballot.method)} · threshold: "
            f"{THRESHOLD_LABELS.get(ballot.threshold, ballot.threshold)} of the {base} · "
            f"quorum: {ballot.quorum} of {len(ballot.roll)} · roll: {', '.join(roll)} · "
            + (f"settings signed by {ballot.opened.by}" if ballot.opened is not None else
               "settings NOT SIGNED: no vote until the chair or secretary signs them"))


def result_html(library: Library | None, result: QuestionResult) -> str:
    """The working of one question's count."""

    def label(option: str) -> str:
        return esc(option_label(library, option))

    parts = [f"<h2>{esc(result.question)}: "
             + ("adopted " + label(result.winner or "") if result.stands is Stands.ADOPTED else
                "the original stands") + "</h2>",
             f"<p>{esc(result.reason)}</p>",
             f"<p class='muted'>{esc(METHOD_LABELS.get(result.method, result.method))}; "
             f"{result.voting} voting, {result.cast} ballot(s) cast, quorum {result.quorum}, "
             f"threshold {esc(THRESHOLD_LABELS.get(result.threshold, result.threshold))} "
             f"of {result.base}</p>"]
    what = "Approvals" if result.method == "approval" else "First choices"
    parts.append(f"<h3>{what}</h3><table border='1' cellspacing='0' cellpadding='4'>")
    for option in result.options:
        parts.append(f"<tr><td>{label(option)}</td><td align='right'>"
                     f"{result.counts.get(option, 0)}</td></tr>")
    parts.append("</table>")
    if result.rounds:
        parts.append("<h3>Instant-runoff rounds</h3>"
                     "<table border='1' cellspacing='0' cellpadding='4'><tr><th>Option</th>")
        parts += [f"<th>Round {r.number}</th>" for r in result.rounds]
        parts.append("</tr>")
        for option in result.options:
            cells = []
            for r in result.rounds:
                if option in r.counts:
                    mark = " ✗" if option in r.eliminated else ""
                    cells.append(f"<td align='right'>{r.counts[option]}{mark}</td>")
                else:
                    cells.append("<td></td>")
            parts.append(f"<tr><td>{label(option)}</td>{''.join(cells)}</tr>")
        parts.append("<tr><td><i>exhausted</i></td>"
                     + "".join(f"<td align='right'>{r.exhausted}</td>" for r in result.rounds)
                     + "</tr></table><p class='muted'>✗ eliminated in that round</p>")
        for r in result.rounds:
            if r.note:
                parts.append(f"<p class='muted'>Round {r.number}: {esc(r.note)}</p>")
    if result.pairwise:
        d = result.pairwise.get("d", {})
        parts.append("<h3>Pairwise preferences</h3><p class='muted'>Each cell: ballots "
                     "preferring the row's option to the column's.</p>"
                     "<table border='1' cellspacing='0' cellpadding='4'><tr><th></th>")
        parts += [f"<th>{label(o)}</th>" for o in result.options]
        parts.append("</tr>")
        for o in result.options:
            cells = []
            for p in result.options:
                if o == p:
                    cells.append("<td align='center'>—</td>")
                else:
                    n, m = d.get(o, {}).get(p, 0), d.get(p, {}).get(o, 0)
                    cell = f"<b>{n}</b>" if n > m else str(n)
                    cells.append(f"<td align='right'>{cell}</td>")
            parts.append(f"<tr><th>{label(o)}</th>{''.join(cells)}</tr>")
        parts.append("</table>")
    return "\n".join(parts)
