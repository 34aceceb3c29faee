"""HTML for the rule page, the comparison columns and the editions view.

Everything that comes from a data file is escaped with ``html.escape`` before
it goes into Markdown or HTML, so a rule text holding ``<script>`` or
``<img src=file:...>`` shows as text. Internal links use the schemes
``rule:BOOK:ID``, ``topic:ID`` and ``compare:REF``.
"""
from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence

import markdown

from rulesbook import Library, Note, Proposal, Rule
from rulesbook.compare import Comparison, Variant
from rulesbook.editions import ConsolidatedRulebook, Redline
from rulesbook.rulings import Basis

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]#+!-])")
_LIST_START = re.compile(r"^(\s*\d+)\.")
KIND_LABELS = {"endorsement": "endorsement", "replacement": "replacement",
               "comment": "comment", "addition": "addition", "deletion": "deletion",
               "original": "original",
               "section": "section"}


def esc(text: str) -> str:
    """Data text made inert for Markdown and HTML."""
    escaped = html.escape(_MD_SPECIAL.sub(r"\\\1", text), quote=False)
    return _LIST_START.sub(r"\1\\.", escaped)


def paragraphs(text: str) -> str:
    """Each line of a data text as its own Markdown paragraph, escaped."""
    return "\n\n".join(esc(line) for line in text.splitlines() if line.strip()) or "*(empty)*"


def md_to_html(source: str) -> str:
    return markdown.markdown(source, output_format="html")


def rule_link(ref: str, label: str | None = None) -> str:
    return f"[{esc(label or ref)}](rule:{html.escape(ref, quote=True)})"


def book_title(library: Library, book_id: str) -> str:
    try:
        book = library.rulebook(book_id)
    except LookupError:
        return book_id
    return book.short_title or book.title


def _notes_md(notes: Sequence[Note]) -> list[str]:
    if not notes:
        return []
    out = ["", "**Source notes**", ""]
    for note in notes:
        out.append(f"- *{esc(note.kind)}*: {esc(note.text)}")
    out.append("")
    return out


def _topics_md(library: Library, topics: Iterable[str]) -> str:
    names = {t.id: t.title for t in library.topics}
    links = [f"[{esc(names.get(t, t))}](topic:{html.escape(t, quote=True)})" for t in topics]
    return ", ".join(links) if links else "*none*"


def _condition_words(when: Mapping[str, object]) -> str:
    def value(v: object) -> str:
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, list):
            return " or ".join(value(x) for x in v)
        if isinstance(v, dict):
            words = {"min": "at least", "max": "at most", "over": "over", "under": "under"}
            return " and ".join(f"{words.get(k, k)} {n}" for k, n in v.items())
        return str(v).replace("_", " ")
    return "; ".join(f"{k.replace('_', ' ')}: {value(v)}" for k, v in when.items())


def rulings_md(library: Library, entry: Rule | Proposal) -> list[str]:
    """The rulings drawn from a text: each outcome, its conditions and basis, and the
    text with the words that establish it highlighted."""
    from rulesbook.rulings import OUTCOMES, specs_for

    from .rulings.quotes import highlighted_html

    specs = specs_for(library, entry.ref)
    if not specs:
        return []
    out = ["## Rulings drawn from this text", ""]
    for spec in specs:
        meaning = OUTCOMES.get(spec.outcome, spec.outcome)
        head = f"**{esc(meaning[:1].upper() + meaning[1:])}**"
        if spec.options:
            head += ": " + esc(", ".join(o.replace("_", " ") for o in spec.options))
        when = f" — when {esc(_condition_words(spec.when))}" if spec.when else ""
        basis = ("*inferred*" if spec.basis is Basis.INFERRED else "*stated*")
        if spec.suggestion:
            basis += ", *the author's suggestion*"
        out += [f"- {head}{when} ({basis}, {esc(', '.join(spec.incidents))})", ""]
        if spec.note:
            out += [f"  <span class='muted'>{esc(spec.note)}</span>", ""]
        out += [f"  <i>{highlighted_html(entry.text, spec.all_quotes, escape=esc)}</i>", ""]
    return out


def rule_page(library: Library, ref: str, consolidated: ConsolidatedRulebook | None) -> str:
    """The rule page as HTML: text in force, original, proposals, notes, links."""
    entry = library.index[ref]
    if isinstance(entry, Proposal):
        return proposal_page(library, entry)
    rule: Rule = entry
    lines = [f"# {esc(rule.ref)} — {esc(rule.title)}", "",
             f"<span class='muted'>{esc(book_title(library, rule.rulebook))}</span>", ""]
    in_force = None
    if consolidated is not None and consolidated.edition.rulebook == rule.rulebook:
        try:
            in_force = consolidated.rule(rule.ref)
        except KeyError:
            in_force = None
        edition = consolidated.edition
        lines.append(f"## Text in force — {esc(edition.title)}")
        lines.append("")
        if in_force is None:
            lines.append(f"*Repealed in {esc(edition.id)}.*")
        else:
            lines.append(paragraphs(in_force.text))
            if in_force.source != rule.ref:
                lines += ["", f"<span class='muted'>Text of {rule_link(in_force.source)}, "
                          f"adopted in {esc(in_force.adopted_in or '')}"
                          f"{' (ballot ' + esc(in_force.ballot) + ')' if in_force.ballot else ''}"
                          "</span>"]
        lines.append("")
    if in_force is None or in_force.source != rule.ref:
        lines += ["## Original text", "", paragraphs(rule.text), ""]
    lines += _notes_md(rule.notes)
    lines += rulings_md(library, rule)
    lines += ["## Proposals", ""]
    if not rule.proposals:
        lines.append("*No proposals filed under this rule.*")
    for prop in rule.proposals:
        member = library.member(prop.member)
        lines += [f"### {rule_link(prop.ref, prop.id)} — {esc(member.label)}, "
                  f"{esc(KIND_LABELS.get(prop.kind, prop.kind))}", ""]
        lines.append(paragraphs(prop.text))
        lines += _withdrawn_md(prop)
        if prop.concerns:
            lines += ["", "Concerns " + ", ".join(rule_link(c) for c in prop.concerns)]
        if prop.topics and set(prop.topics) != set(rule.topics):
            lines += ["", "Topics: " + _topics_md(library, prop.topics)]
        lines += _notes_md(prop.notes)
        lines.append("")
    elsewhere = [p for b in library.rulebooks for p in b.proposals
                 if rule.ref in p.concerns and p.rule != rule.ref]
    if elsewhere:
        lines += ["## Filed elsewhere but concerning this rule", ""]
        for prop in elsewhere:
            member = library.member(prop.member)
            lines.append(f"- {rule_link(prop.ref, prop.id)} — {esc(member.label)}, "
                         f"{esc(prop.kind)}")
        lines.append("")
    lines += ["## Topics", "", _topics_md(library, rule.topics), ""]
    if rule.see_also:
        lines += ["## See also", "", ", ".join(rule_link(r) for r in rule.see_also), ""]
    lines += ["", f"[Compare the variants of {esc(rule.ref)}](compare:{html.escape(rule.ref)})"]
    return md_to_html("\n".join(lines))


def _withdrawn_md(prop: Proposal) -> list[str]:
    if prop.withdrawn is None:
        return []
    why = f": {esc(prop.withdrawn.reason)}" if prop.withdrawn.reason else ""
    return ["", f"**Withdrawn on {esc(prop.withdrawn.date)}**{why}", ""]


def proposal_page(library: Library, prop: Proposal) -> str:
    member = library.member(prop.member)
    title = prop.title or (library.index[prop.rule].title if prop.rule else None) or prop.id
    lines = [f"# {esc(prop.ref)} — {esc(title)}", "",
             f"Proposal by **{esc(member.label)}**, {esc(prop.kind)}", ""]
    if prop.rule:
        lines += [f"Filed under {rule_link(prop.rule)}", ""]
    else:
        lines += ["Filed in the preamble (outside the numbered rules)", ""]
    lines += _withdrawn_md(prop)
    lines += ["## Text", "", paragraphs(prop.text), ""]
    from rulesbook.proposing.redline import proposal_redline

    in_force, diff = proposal_redline(library, prop)
    if in_force is not None and not prop.is_endorsement:
        lines += [f"## Against the text in force ({esc(in_force.source)}, edition "
                  f"{esc(in_force.edition)})", "",
                  f"<div class=\"redline\">{diff.html()}</div>", ""]
    if prop.concerns:
        lines += ["Concerns " + ", ".join(rule_link(c) for c in prop.concerns), ""]
    lines += _notes_md(prop.notes)
    lines += rulings_md(library, prop)
    lines += ["## Topics", "", _topics_md(library, prop.topics), ""]
    if prop.rule:
        lines += [f"[Compare the variants of {esc(prop.rule)}](compare:{html.escape(prop.rule)})"]
    return md_to_html("\n".join(lines))


def topic_page(library: Library, topic_id: str) -> str:
    """The concordance: every rule and proposal of every rulebook on a topic."""
    topic = library.topic(topic_id)
    lines = [f"# {esc(topic.title)}", ""]
    if topic.description:
        lines += [esc(topic.description), ""]
    if topic.keywords:
        lines += [f"<span class='muted'>Keywords: {esc(', '.join(topic.keywords))}</span>", ""]
    entries = library.entries_for_topic(topic_id)
    for book in library.rulebooks:
        mine = [e for e in entries if e.rulebook == book.id]
        if not mine:
            continue
        lines += [f"## {esc(book.short_title or book.title)}", ""]
        for e in mine:
            if isinstance(e, Proposal):
                member = library.member(e.member)
                head = f"{rule_link(e.ref, e.id)} — {esc(member.label)}, {esc(e.kind)}"
            else:
                head = f"{rule_link(e.ref, e.id)} — **{esc(e.title)}**"
            snippet = e.text if len(e.text) <= 220 else e.text[:217] + "…"
            lines.append(f"- {head}: {esc(snippet)}")
        lines.append("")
    lines += [f"[Compare every variant on this topic](compare:topic:{html.escape(topic.id)})"]
    return md_to_html("\n".join(lines))


def variant_header(variant: Variant, library: Library) -> str:
    """The plain-text heading of a comparison column."""
    if variant.member_name:
        return f"{variant.ref} — {variant.member_name} ({variant.member}), {variant.kind}"
    return f"{variant.ref} — {variant.kind}: {book_title(library, variant.rulebook)}"


def variant_html(variant: Variant, original_ref: str | None) -> str:
    """One column's body: the text with insertions/deletions against the original."""
    head = (f"<p><b>{html.escape(variant.title)}</b><br/>"
            f"<span class='muted'>{html.escape(variant.why)} · similarity "
            f"{variant.diff.similarity:.0%}</span></p>")
    if variant.ref == original_ref:
        body = html.escape(variant.text).replace("\n", "<br/>")
    else:
        body = variant.diff.html().replace("\n", "<br/>")
    return f"{head}<p>{body}</p>"


def comparison_columns(comparison: Comparison) -> list[tuple[str, str]]:
    """(column group, variant ref) for the column chooser."""
    out = []
    for v in comparison.variants:
        if v.kind == "original":
            group = "Original"
        elif v.member:
            group = "Proposals"
        else:
            group = v.rulebook
        out.append((group, v.ref))
    return out


def consolidated_html(book: ConsolidatedRulebook) -> str:
    ed = book.edition
    parts = [f"<h1>{html.escape(ed.title)}</h1>",
             f"<p class='muted'>{html.escape(ed.id)} · {html.escape(ed.date)}"
             f"{' · based on ' + html.escape(ed.base) if ed.base else ''}</p>"]
    if ed.description:
        parts.append(f"<p>{html.escape(ed.description)}</p>")
    for rule in book.rules:
        head = f"Rule {rule.number}" if rule.number is not None else rule.ref
        parts.append(f"<h3><a href='rule:{html.escape(rule.ref, quote=True)}'>"
                     f"{html.escape(head)}</a>. {html.escape(rule.title)}</h3>")
        parts.append("<p>" + html.escape(rule.text).replace("\n", "<br/>") + "</p>")
        if rule.source != rule.ref:
            parts.append(f"<p class='note'>Text of {html.escape(rule.source)}, adopted in "
                         f"{html.escape(rule.adopted_in or '')}.</p>")
    return "\n".join(parts)


def redline_html(red: Redline) -> str:
    counts = {s: sum(1 for e in red.changes if e.status == s)
              for s in ("added", "deleted", "changed")}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items())
    parts = [f"<h1>Changes from {html.escape(red.old.title)} to {html.escape(red.new.title)}</h1>",
             f"<p class='muted'>{html.escape(red.old.id)} → {html.escape(red.new.id)}: "
             f"{summary or 'no changes'}</p>"]
    if not red.changes:
        parts.append("<p>No changes.</p>")
    for entry in red.changes:
        parts.append(f"<h3><a href='rule:{html.escape(entry.ref, quote=True)}'>"
                     f"{html.escape(entry.ref)}</a> {html.escape(entry.title)} "
                     f"<span class='muted'>({entry.status})</span></h3>")
        parts.append("<p>" + entry.diff.html().replace("\n", "<br/>") + "</p>")
        if entry.new_source and entry.new_source != entry.ref:
            parts.append(f"<p class='note'>New text from {html.escape(entry.new_source)}.</p>")
    return "\n".join(parts)


def standalone_html(title: str, body: str, css: str) -> str:
    """A complete HTML file for export."""
    return ("<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
            f"<title>{html.escape(title)}</title><style>\nbody {{ font-family: sans-serif; "
            f"max-width: 50em; margin: 2em auto; }}\n{css}</style></head>"
            f"<body>\n{body}\n</body></html>\n")
