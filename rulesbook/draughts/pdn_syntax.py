"""The syntax layer of the PDN reader: tokens, tags, comments, variations.

This module knows nothing about the rules: it turns a text stream into raw
games (tags, a tree of move texts with their line and column, comments,
NAGs, the result) and collects every syntax problem as a :class:`PdnError`.
Move resolution against positions is done by :mod:`rulesbook.draughts.pdn`.

One streaming pass, one compiled regular expression per token, an explicit
stack for variations (never recursion), nesting capped at
:data:`MAX_VARIATION_DEPTH`: the cost is linear in the size of the input.
"""
from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from rulesbook.draughts.notation import MOVE_PATTERN
from rulesbook.draughts.pdn_model import (  # noqa: F401 - re-exported for callers
    MARK_NAGS,
    MAX_COMMENT_CHARS,
    MAX_ERRORS,
    MAX_GAMES,
    MAX_LINE_CHARS,
    MAX_MESSAGE_CHARS,
    MAX_PLIES,
    MAX_TAG_CHARS,
    MAX_TAGS,
    MAX_TOKEN_CHARS,
    MAX_VARIATION_DEPTH,
    NAG_SYMBOLS,
    RESULTS,
    PdnError,
    PdnLimitError,
    PdnNode,
    RawGame,
    normalize_result,
)

__all__ = [
    "MAX_GAMES",
    "MAX_LINE_CHARS",
    "MAX_PLIES",
    "MAX_TAG_CHARS",
    "MAX_VARIATION_DEPTH",
    "NAG_SYMBOLS",
    "PdnLimitError",
    "RESULTS",
    "PdnError",
    "PdnNode",
    "RawGame",
    "SyntaxReader",
    "normalize_result",
]

_STOP = r"(?=[\s\[\]{}();]|$)"
# Whitespace before a token is skipped by the same match (the token starts at
# ``m.start(m.lastgroup)``); a match fails only on trailing whitespace.
_TOKEN = re.compile(
    r"\s*(?:"
    r"(?P<lbrace>\{)"
    r"|(?P<semi>;)"
    r'|(?P<tag>\[\s*(?P<tname>[A-Za-z0-9_]+)\s*"(?P<tval>[^"\\]*(?:\\.[^"\\]*)*)"\s*\])'
    # the name taken whole (a look-ahead and a back-reference: an atomic group), so
    # that no character can go to either the name or the value: a '[' with a long
    # name or many spaces and no ']' fails in one pass, not in one per character
    r'|(?P<badtag>\[\s*(?=(?P<bname>[A-Za-z0-9_]+))(?P=bname)(?P<bval>[^\]\[]*)\])'
    r"|(?P<lparen>\()"
    r"|(?P<rparen>\))"
    r"|(?P<result>(?:1/2-1/2|1/2:1/2|1-0|0-1|2-0|0-2|1-1|0-0|1:0|0:1|2:0|0:2|1:1|0:0|\*)"
    + _STOP + ")"
    r"|(?P<num>\d+\s*\.(?:\s*\.\.)?)"
    r"|(?P<ellipsis>\.\.\.?)"
    # a move as the notation module writes one; 11-999... is one unreadable word, never
    # the move 11-99 (a word glued after a move, 8-11Red..., is still read apart: real
    # files have them)
    r"|(?P<move>" + MOVE_PATTERN + r"(?!\d))"
    r"|(?P<nag>\$\d{1,3}(?!\d))"
    r"|(?P<mark>!!|\?\?|!\?|\?!|!|\?)"
    r"|(?P<placeholder>--?" + _STOP + ")"
    r"|(?P<junk>[^\s\[\]{}();]+|[\]}\[])"
    r")"
)
_TAG_LINE = re.compile(r"\s*\[\s*(?=([A-Za-z0-9_]+))\1[^\]]*\]\s*$")  # linear, as badtag
_BRACKET_RUN = re.compile(r"[\[\]}]*")
#: Most lines looked ahead for the ')' that closes a '(' (see _scan_groups).
MAX_PAREN_LINES = 40
_WS = re.compile(r"\s+")


_PROSE = frozenset(("junk", "result", "semi", "tag", "badtag"))


def _scan_groups(lineno: int, text: str, fetch: Callable[[int], tuple[int, str] | None]
                 ) -> tuple[dict[tuple[int, int], tuple[int, int, bool]], set[int]]:
    """Every ``( )`` group opened on line ``lineno`` (``text``) and on the lines
    after it that a group still open at the end of a line reaches into
    (``fetch(k)``: the k-th line after this one, or None), at most
    :data:`MAX_PAREN_LINES` of them, and never past a tag line.

    Returns ``{(line, position of "("): (line, position of ")", is prose)}``
    and the lines scanned.  A group is prose (a comment written in
    parentheses) when a word that is no move, number, NAG or mark, or a
    result, stands in it directly (not in a group nested in it)."""
    groups: dict[tuple[int, int], tuple[int, int, bool]] = {}
    stack: list[list[Any]] = []  # [line, position, prose]
    lines = {lineno}
    in_brace = False
    k = 0
    while True:
        pos, n = 0, len(text)
        while pos < n:
            if in_brace:
                close = text.find("}", pos)
                if close < 0:
                    break
                in_brace = False
                pos = close + 1
                continue
            m = _TOKEN.match(text, pos)
            if m is None:
                break
            kind = m.lastgroup
            assert kind is not None  # every alternative of _TOKEN is a named group
            start = m.start(kind)
            if kind == "lbrace":
                in_brace = True
                pos = start + 1
                continue
            if kind == "lparen":
                stack.append([lineno, start, False])
            elif kind == "rparen":
                if stack:
                    opened = stack.pop()
                    groups[opened[0], opened[1]] = (lineno, start, opened[2])
            elif kind in _PROSE and stack:
                stack[-1][2] = True
            pos = m.end()
        if not stack or k >= MAX_PAREN_LINES:
            return groups, lines
        item = fetch(k)
        k += 1
        if item is None or _TAG_LINE.match(item[1]):
            return groups, lines
        lineno, text = item
        lines.add(lineno)


def _clean_comment(text: str) -> str:
    return _WS.sub(" ", text).strip()


def _unescape(value: str) -> str:
    return value.replace('\\"', '"').replace("\\\\", "\\") if "\\" in value else value


class _Errors(list[PdnError]):
    """A game's error list that keeps at most :data:`MAX_ERRORS` errors."""

    capped = False

    def append(self, error: PdnError) -> None:
        if len(self) < MAX_ERRORS:
            super().append(error)
        elif not self.capped:
            self.capped = True
            super().append(PdnError(error.line, error.col,
                                    f"more than {MAX_ERRORS:,} errors in one game: the "
                                    "others are not listed"))


class _Frame:
    """One open line on the variation stack."""

    __slots__ = ("nodes", "pending", "line", "col")

    def __init__(self, nodes: list[PdnNode], line: int, col: int) -> None:
        self.nodes = nodes
        self.pending = ""  # comment waiting for the first move of this line
        self.line = line
        self.col = col


class SyntaxReader:
    """Reads raw games one after the other from a text stream.

    Keeps the line count and the unread rest of a line between games, so the
    line numbers in errors are those of the file.
    """

    def __init__(self, handle: TextIO, *, max_depth: int = MAX_VARIATION_DEPTH,
                 first_line: int = 1) -> None:
        self._handle = handle
        self._lineno = first_line - 1  # a part of a file: its lines keep the file's numbers
        self._pending: tuple[int, str, int] | None = None  # (lineno, line, pos)
        self._max_depth = max_depth
        self._eof = False
        self._line_errors: list[PdnError] = []  # the current game's error list
        self._games = 0
        self._ahead: deque[tuple[int, str]] = deque()  # lines read ahead, not yet used
        self._groups: dict[tuple[int, int], tuple[int, int, bool]] = {}
        self._groups_lines: set[int] = set()  # the lines self._groups was scanned from

    # -- input -------------------------------------------------------------
    def _next_line(self) -> tuple[int, str, int] | None:
        if self._pending is not None:
            item, self._pending = self._pending, None
            return item
        if self._ahead:
            lineno, text = self._ahead.popleft()
            return lineno, text, 0
        if self._eof:
            return None
        line = self._handle.readline(MAX_LINE_CHARS)
        if not line:
            self._eof = True
            return None
        self._lineno += 1
        if len(line) >= MAX_LINE_CHARS and not line.endswith("\n"):
            skipped = 0
            while True:  # skip the rest of the line without holding it
                rest = self._handle.readline(MAX_LINE_CHARS)
                skipped += len(rest)
                if not rest or rest.endswith("\n"):
                    break
            self._line_errors.append(PdnError(
                self._lineno, MAX_LINE_CHARS + 1,
                f"line longer than {MAX_LINE_CHARS:,} characters: the last {skipped:,} "
                f"characters were skipped"))
        return self._lineno, line.rstrip("\r\n"), 0

    def __iter__(self) -> Iterator[RawGame]:
        while True:
            game = self.read()
            if game is None:
                return
            yield game

    # -- ( ) written as comments --------------------------------------------
    def _read_ahead(self, index: int) -> tuple[int, str] | None:
        """The ``index``-th line after the current one (read into the
        look-ahead queue if need be); None at the end of the input."""
        while len(self._ahead) <= index:
            saved, self._ahead = self._ahead, deque()
            try:
                item = self._next_line()
            finally:
                self._ahead = saved
            if item is None:
                return None
            self._ahead.append((item[0], item[1]))
        return self._ahead[index]

    def _group_at(self, lineno: int, text: str, pos: int) -> tuple[int, int, bool] | None:
        """``(close line, close position, is prose)`` of the ``( )`` group opened
        at ``text[pos]`` (line ``lineno``), or None when no ``)`` closes it
        within :data:`MAX_PAREN_LINES` lines.  The lines are scanned once for
        all the groups they open (linear time, however deep the nesting)."""
        if lineno not in self._groups_lines:
            self._groups, self._groups_lines = _scan_groups(lineno, text, self._read_ahead)
        return self._groups.get((lineno, pos))

    # -- the game reader ---------------------------------------------------
    # -- the game reader ---------------------------------------------------
    def read(self) -> RawGame | None:
        """The next raw game, or None at the end; raises :class:`PdnLimitError`
        past :data:`MAX_GAMES` games."""
        game = self._read()
        if game is None:
            return None
        self._games += 1
        if self._games > MAX_GAMES:
            raise PdnLimitError(game.line, f"more than {MAX_GAMES:,} games in one file "
                                           f"(the limit); reading stopped at game "
                                           f"{self._games:,}")
        return game

    def _read(self) -> RawGame | None:  # noqa: C901 - one state machine, kept in one place
        game = RawGame(errors=_Errors())
        errors = game.errors
        self._line_errors = errors
        tags = game.tags
        in_moves = False  # past the tag section
        seen_anything = False
        blank_after_tags = False
        preamble_reported = False
        stack: list[_Frame] = [_Frame(game.mainline, 0, 0)]
        depth_error = False
        sink_depth = 0  # '(' opened beyond the depth cap, not attached
        comment_parts: list[str] | None = None  # inside a multi-line comment
        comment_at = (0, 0)
        comment_size = [0]  # characters held in comment_parts
        junk_run: list[Any] | None = None  # [lineno, start, end, line text]: unreadable text
        plies = 0
        limit_hit: set[str] = set()  # the limits already reported in this game
        last_end = (0, 0)
        unterminated = False
        finished = False
        max_depth = self._max_depth

        def over_limit(name: str, lineno: int, col: int, message: str) -> None:
            """Report a limit once per game."""
            if name not in limit_hit:
                limit_hit.add(name)
                errors.append(PdnError(lineno, col, message))

        def flush_junk() -> None:
            nonlocal junk_run
            if junk_run is None:
                return
            lineno, start, stop, line_text = junk_run
            junk_run = None
            token = line_text[start:stop]
            if len(token) > MAX_TOKEN_CHARS:
                token = token[:MAX_TOKEN_CHARS] + "…"
            errors.append(PdnError(lineno, start + 1, f"unreadable text {token!r}", token))

        def add_comment(text: str, lineno: int, col: int) -> None:
            nonlocal preamble_reported
            text = _clean_comment(text)
            if len(text) > MAX_COMMENT_CHARS:
                over_limit("comment", lineno, col,
                           f"comment longer than {MAX_COMMENT_CHARS:,} characters: the rest "
                           "is skipped")
                text = text[:MAX_COMMENT_CHARS]
            if not in_moves:
                if not tags and not preamble_reported:
                    errors.append(PdnError(lineno, col, "comment before the tags "
                                                        "(kept as the game's opening comment)"))
                    preamble_reported = True
                if len(game.comment) + len(text) > MAX_COMMENT_CHARS:
                    over_limit("comment", lineno, col,
                               f"comments longer than {MAX_COMMENT_CHARS:,} characters: the "
                               "rest is skipped")
                    return
                game.comment = f"{game.comment} {text}".strip() if game.comment else text
                return
            if sink_depth:
                return
            frame = stack[-1]
            held = frame.nodes[-1].comment if frame.nodes else frame.pending
            if len(held) + len(text) > MAX_COMMENT_CHARS:
                over_limit("comment", lineno, col,
                           f"comments longer than {MAX_COMMENT_CHARS:,} characters: the "
                           "rest is skipped")
                return
            if frame.nodes:
                node = frame.nodes[-1]
                node.comment = f"{node.comment} {text}" if node.comment else text
            else:
                frame.pending = f"{frame.pending} {text}" if frame.pending else text

        def close_open_variations(lineno: int, col: int) -> None:
            if len(stack) > 1 or sink_depth:
                opened = stack[1] if len(stack) > 1 else None
                where = (f" (opened at line {opened.line} col {opened.col})"
                         if opened is not None else "")
                errors.append(PdnError(lineno, col, f"unterminated variation{where}"))
                del stack[1:]

        while not finished:
            item = self._next_line()
            if item is None:
                break
            lineno, text, pos = item
            n = len(text)
            flush_junk()
            if comment_parts is not None:
                end = text.find("}", pos)
                if end < 0:
                    if _TAG_LINE.match(text):
                        errors.append(PdnError(*comment_at, "unterminated comment"))
                        unterminated = True
                        add_comment(" ".join(comment_parts), *comment_at)
                        comment_parts = None
                    else:
                        if comment_size[0] <= MAX_COMMENT_CHARS:
                            comment_parts.append(text[pos:])
                            comment_size[0] += n - pos
                        continue
                else:
                    comment_parts.append(text[pos:end])
                    add_comment(" ".join(comment_parts), *comment_at)
                    comment_parts = None
                    pos = end + 1
                    last_end = (lineno, end + 2)
            if pos == 0 and text.startswith("%"):
                continue  # PDN escape line
            if pos == 0 and not text.strip():
                if tags and not in_moves:
                    blank_after_tags = True
                continue
            while pos < n:
                m = _TOKEN.match(text, pos)
                if m is None:
                    break  # only whitespace is left (junk matches any other character)
                kind = m.lastgroup or ""  # every token is a named group
                pos = m.start(kind)
                col = pos + 1
                end = m.end()
                if kind == "tag" or kind == "badtag":
                    if in_moves or (blank_after_tags and tags):
                        # the next game starts here
                        self._pending = (lineno, text, pos)
                        finished = True
                        break
                    if kind == "tag":
                        name = m.group("tname")
                        value = _unescape(m.group("tval"))
                    else:
                        name = m.group("bname")
                        value = m.group("bval").strip().strip('"')
                        errors.append(PdnError(lineno, col,
                                               f"malformed tag {m.group(kind)!r}: the value must "
                                               "be in double quotes (read as "
                                               f"{value!r})"))
                    if len(value) > MAX_TAG_CHARS:
                        errors.append(PdnError(lineno, col,
                                               f"tag {name} is longer than {MAX_TAG_CHARS:,} "
                                               f"characters ({len(value):,}): cut to the "
                                               f"first {MAX_TAG_CHARS:,}"))
                        value = value[:MAX_TAG_CHARS]
                    if name in tags:
                        errors.append(PdnError(lineno, col, f"duplicate tag {name!r}"))
                    elif len(tags) >= MAX_TAGS:
                        over_limit("tags", lineno, col, f"more than {MAX_TAGS:,} tags in one "
                                                        "game: the others are skipped")
                        pos = end
                        continue
                    tags[name] = value
                    game.tag_pos[name] = (lineno, col)
                    if not game.line:
                        game.line = lineno
                    seen_anything = True
                    pos = end
                    last_end = (lineno, end + 1)
                    continue
                if not game.line:
                    game.line = lineno
                seen_anything = True
                if kind == "lbrace":
                    close = text.find("}", pos + 1)
                    if close < 0:
                        comment_parts = [text[pos + 1:]]
                        comment_size[0] = n - pos
                        comment_at = (lineno, col)
                        pos = n
                        break
                    add_comment(text[pos + 1:close], lineno, col)
                    pos = close + 1
                    last_end = (lineno, pos + 1)
                    continue
                if kind == "semi":
                    add_comment(text[pos + 1:], lineno, col)
                    last_end = (lineno, n + 1)
                    pos = n
                    break
                in_moves = True
                last_end = (lineno, end + 1)
                if kind == "junk":
                    if end == pos + 1 and text[pos] in "[]}":
                        # a run of stray brackets at once (one token each was 15 s
                        # per MB); only its last '[' may open a tag: it stays
                        found = _BRACKET_RUN.match(text, end)  # matches "" at least
                        run = found.end() if found else end
                        end = run - 1 if run > end and text[run - 1] == "[" else run
                        last_end = (lineno, end + 1)
                    # neighbouring unreadable words are one error, built once the
                    # run ends (linear in the length of the line)
                    if junk_run is not None and not text[junk_run[2]:pos].strip():
                        junk_run[2] = end
                    else:
                        flush_junk()
                        junk_run = [lineno, pos, end, text]
                    pos = end
                    continue
                flush_junk()
                if kind == "move" or kind == "placeholder":
                    plies += 1
                    if plies > MAX_PLIES:
                        over_limit("plies", lineno, col,
                                   f"more than {MAX_PLIES:,} moves in one game: the rest "
                                   "are skipped")
                    elif not sink_depth:
                        frame = stack[-1]
                        node = PdnNode(m.group(kind), lineno, col)
                        if frame.pending:
                            node.pre_comment, frame.pending = frame.pending, ""
                        frame.nodes.append(node)
                elif kind == "num" or kind == "ellipsis":
                    pass  # move numbers are optional and not checked
                elif kind == "nag" or kind == "mark":
                    if not sink_depth:
                        nodes = stack[-1].nodes
                        if not nodes:
                            errors.append(PdnError(lineno, col,
                                                   f"{m.group(kind)!r} does not follow a move"))
                        else:
                            nag = (int(m.group(kind)[1:]) if kind == "nag"
                                   else MARK_NAGS[m.group(kind)])
                            nodes[-1].nags.append(nag)
                elif kind == "lparen" and not sink_depth and \
                        (group := self._group_at(lineno, text, pos)) is not None and group[2]:
                    # a comment written in parentheses: prose or a result inside
                    # never ends the game and is no variation
                    close_no, after = group[0], group[1] + 1
                    errors.append(PdnError(
                        lineno, col, "comment written in parentheses: read as a comment "
                                     "(PDN comments go in braces { }; ( ) holds variations)"))
                    if close_no == lineno:
                        add_comment(text[pos + 1:after - 1], lineno, col)
                        last_end = (lineno, after + 1)
                        pos = after
                        continue
                    body = [text[pos + 1:]]
                    while True:
                        ahead_no, ahead_text = self._ahead.popleft()
                        if ahead_no == close_no:
                            body.append(ahead_text[:after - 1])
                            break
                        body.append(ahead_text)
                    add_comment(" ".join(body), lineno, col)
                    last_end = (close_no, after + 1)
                    self._pending = (close_no, ahead_text, after)  # go on after the ')'
                    break
                elif kind == "lparen":
                    if sink_depth:
                        sink_depth += 1
                    elif len(stack) > max_depth:
                        if not depth_error:
                            errors.append(PdnError(
                                lineno, col,
                                f"variations nested deeper than {max_depth}; "
                                "the deeper ones are skipped"))
                            depth_error = True
                        sink_depth = 1
                    else:
                        nodes = stack[-1].nodes
                        line_nodes: list[PdnNode] = []
                        if nodes:
                            nodes[-1].variations.append(line_nodes)
                        else:
                            errors.append(PdnError(lineno, col,
                                                   "variation does not follow a move "
                                                   "(skipped)"))
                        stack.append(_Frame(line_nodes, lineno, col))
                elif kind == "rparen":
                    if sink_depth:
                        sink_depth -= 1
                    elif len(stack) == 1:
                        errors.append(PdnError(lineno, col, "')' without a '('"))
                    else:
                        stack.pop()
                elif kind == "result":
                    close_open_variations(lineno, col)
                    sink_depth = 0
                    token = m.group(kind)
                    game.result_text = token
                    game.result = normalize_result(token)
                    game.result_pos = (lineno, col)
                    if end < n and text[end:].strip():
                        self._pending = (lineno, text, end)
                    finished = True
                    break
                pos = end

        flush_junk()
        if comment_parts is not None:
            errors.append(PdnError(*comment_at, "unterminated comment"))
            add_comment(" ".join(comment_parts), *comment_at)
            unterminated = True
        if not seen_anything:
            return None
        if game.result_pos is None:
            close_open_variations(*last_end)
            if (in_moves or tags) and not unterminated:
                errors.append(PdnError(*last_end, "the game has no result "
                                                  "(expected 1-0, 0-1, 1/2-1/2, ... or *)"))
        if stack[0].pending:
            # a comment after the tags but before the first move
            game.comment = f"{game.comment} {stack[0].pending}".strip()
        tag_result = tags.get("Result")
        if (game.result_pos is not None and tag_result is not None
                and normalize_result(tag_result.strip()) != game.result
                and tag_result.strip() not in ("", "?")):
            errors.append(PdnError(*game.result_pos,
                                   f"result {game.result_text} differs from the Result tag "
                                   f"{tag_result!r}"))
        errors.sort(key=lambda e: (e.line, e.col))
        return game
