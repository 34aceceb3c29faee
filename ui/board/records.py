"""Qt-free helpers of the board: the record as the referee keeps it, splitting a
PDN file into games quickly, and the text of the counts panel."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulesbook.textio import visible_controls

__all__ = ["RecordMove", "GameChunk", "split_games", "node_line_text", "counts_lines"]


@dataclass(frozen=True)
class RecordMove:
    """One move of the record as written (legal or not), with its PDN comment
    and variations (as PDN text)."""

    text: str
    comment: str = ""
    variations: tuple[str, ...] = ()
    line: int = 0
    col: int = 0

    def to_dict(self) -> dict:
        out: dict = {"text": self.text}
        if self.comment:
            out["comment"] = self.comment
        if self.variations:
            out["variations"] = list(self.variations)
        return out

    @classmethod
    def from_dict(cls, data) -> RecordMove:
        if isinstance(data, str):
            return cls(data)
        return cls(str(data["text"]), str(data.get("comment", "") or ""),
                   tuple(str(v) for v in data.get("variations", ()) or ()))


@dataclass(frozen=True)
class GameChunk:
    """One game of a PDN file: a title for the chooser and its text."""

    index: int
    title: str
    text: str
    first_line: int
    tags: dict = field(default_factory=dict, compare=False)


_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"([^"\\]*(?:\\.[^"\\]*)*)"\s*\]')


def split_games(text: str) -> list[GameChunk]:
    """The games of a PDN text without resolving any move (fast for big files):
    a game starts at a tag line that follows a non-tag line."""
    lines = text.splitlines(keepends=True)
    starts: list[int] = []
    prev_tag = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        is_tag = stripped.startswith("[") and _TAG.match(stripped) is not None
        if is_tag and not prev_tag:
            starts.append(i)
        prev_tag = is_tag
    if not starts:
        return [GameChunk(0, "Game 1", text, 1)] if text.strip() else []
    starts[0] = 0  # a comment block before the first tags belongs to the first game
    out = []
    for k, begin in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        chunk = "".join(lines[begin:end])
        tags = {m.group(1): m.group(2) for m in _TAG.finditer(chunk[:4000])}
        players = " – ".join(visible_controls(tags.get(t, "?")) for t in ("Black", "White"))
        bits = [f"{k + 1}.", players]
        for key in ("Event", "Date"):
            value = tags.get(key, "")
            if value and value != "?" and not value.startswith("?"):
                bits.append(f"· {visible_controls(value)}")
        result = tags.get("Result", "")
        if result and result != "*":
            bits.append(f"· {result}")
        out.append(GameChunk(k, " ".join(bits), chunk, begin + 1, tags))
    return out


def node_line_text(nodes, depth: int = 0) -> str:
    """A variation (list of PdnNode) as PDN-like text, nested variations in brackets."""
    words = []
    for node in nodes:
        if node.pre_comment:
            words.append("{" + node.pre_comment + "}")
        words.append(node.text)
        if node.comment:
            words.append("{" + node.comment + "}")
        if depth < 8:
            for sub in node.variations:
                if sub:
                    words.append("(" + node_line_text(sub, depth + 1) + ")")
    return " ".join(words)


def _limit_text(limit, extension=None) -> str:
    if limit is None:
        return "no limit in force"
    if extension:
        return f"limit {limit} (+{extension - limit} extension = {extension})"
    return f"limit {limit}"


def counts_lines(state, edition: str = "") -> list[tuple[str, str]]:
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
