"""The quoted words of a ruling highlighted in its rule text (escaped HTML), so a
referee can show both players the words that decide."""
from __future__ import annotations

import html
from collections.abc import Callable, Iterable

from rulesbook.rulings.quotes import merged_spans

#: How quoted words look: a yellow marker and bold, readable in light and dark themes.
QUOTE_STYLE = "background-color:#fff59d; color:#212121; font-weight:bold"


def highlighted_html(text: str, quotes: Iterable[str],
                     escape: Callable[[str], str] = html.escape) -> str:
    """``text`` escaped with ``escape``, its quoted stretches wrapped in a highlighting
    span (class ``quote``), line breaks as ``<br/>``."""
    out: list[str] = []
    at = 0
    for start, end in merged_spans(text, quotes):
        out.append(escape(text[at:start]))
        out.append(f"<span class='quote' style='{QUOTE_STYLE}'>{escape(text[start:end])}</span>")
        at = end
    out.append(escape(text[at:]))
    return "".join(out).replace("\n", "<br/>")
