"""Reading and writing PDN (Portable Draughts Notation) game records.

In the spirit of python-chess's ``chess.pgn``::

    with open("games.pdn") as handle:
        while (game := read_game(handle)) is not None:
            print(game.headers.get("White"), game.result, game.errors)

    for game in iter_games(text, variant="english"):
        ...

:func:`resolve_move` reads one move text as written in PDN (numeric,
algebraic or short algebraic) in a position; when the text is ambiguous the
:class:`~rulesbook.draughts.AmbiguousMoveError` it raises lists the legal
moves it could be (``candidates``) and :func:`disambiguate` picks the one
that lets the following moves be played.

The reader is lenient by default: every problem (unreadable text, an illegal
or ambiguous move, an unterminated comment or variation, a bad FEN) is
collected on the game as a :class:`PdnError` with its line and column, and the
rest of the file is still read.  Once the main line hits a move that cannot
be played, the rest of that game's moves are kept as text but not resolved.
With ``strict=True`` the first problem raises :class:`PdnParseError`.

:func:`write_game` / :meth:`PdnGame.to_pdn` write PDN 3.0 that this reader
and pydraughts read back to the same moves.
"""
from __future__ import annotations

import dataclasses
import io
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple, TextIO

from rulesbook.draughts import (
    AmbiguousMoveError,
    Color,
    DraughtsError,
    IllegalMoveError,
    Move,
    Position,
    Variant,
)
from rulesbook.draughts.notation import PLACEHOLDERS
from rulesbook.draughts.pdn_moves import LOOKAHEAD, disambiguate, resolve_move
from rulesbook.draughts.pdn_syntax import (
    MAX_VARIATION_DEPTH,
    NAG_SYMBOLS,
    RESULTS,
    PdnError,
    PdnNode,
    RawGame,
    SyntaxReader,
    normalize_result,
)
from rulesbook.draughts.pdn_variant import VariantGuess, guess_variant, settled
from rulesbook.draughts.variant import VARIANTS

__all__ = [
    "MAX_VARIATION_DEPTH",
    "LOOKAHEAD",
    "RESULTS",
    "PdnError",
    "PdnGame",
    "PdnNode",
    "PdnParseError",
    "PdnReader",
    "disambiguate",
    "iter_games",
    "read_game",
    "read_games",
    "resolve_move",
    "write_game",
]

#: The long ``GameType`` form written for each variant.
LONG_GAMETYPES: dict[int, str] = {
    20: "20,W,10,10,N2,0",
    21: "21,B,8,8,N1,0",
    23: "23,B,8,8,N1,0",
    25: "25,W,8,8,A0,0",
    26: "26,W,8,8,A0,0",
}
#: Tags written first, in this order, when present.
TAG_ORDER = ("Event", "Site", "Date", "Round", "Black", "White", "Result",
             "GameType", "SetUp", "FEN")
LINE_WIDTH = 80


class PdnParseError(DraughtsError):
    """Raised in strict mode on the first problem of a PDN file."""

    def __init__(self, line: int, col: int, message: str) -> None:
        super().__init__(f"line {line} col {col}: {message}")
        self.line = line
        self.col = col
        self.message = message

    @classmethod
    def from_error(cls, error: PdnError) -> PdnParseError:
        return cls(error.line, error.col, error.message)


@dataclass(eq=False)
class PdnGame:
    """One game of a PDN file.

    ``mainline`` is the list of :class:`PdnNode` of the main line; each node
    keeps the move text as written, the resolved :class:`Move` (or None),
    its comment, NAGs and variations (lists of nodes), and where it was read.
    """

    tags: dict[str, str] = field(default_factory=dict)
    variant: Variant = field(default_factory=lambda: Variant.named("pool"))
    start: Position | None = None
    mainline: list[PdnNode] = field(default_factory=list)
    result: str = "*"
    comment: str = ""
    errors: list[PdnError] = field(default_factory=list)
    line: int = 0
    #: how the variant was chosen when the record has no GameType tag and the
    #: reader was given no variant (:func:`~rulesbook.draughts.pdn_variant.guess_variant`)
    variant_guess: VariantGuess | None = None

    def __post_init__(self) -> None:
        if self.start is None:
            self.start = Position.start(self.variant)

    # -- convenience -------------------------------------------------------
    @property
    def headers(self) -> dict[str, str]:
        """The tags (same object as :attr:`tags`)."""
        return self.tags

    @property
    def ok(self) -> bool:
        """True when the record has no problem."""
        return not self.errors

    def mainline_moves(self) -> list[Move]:
        """The resolved moves of the main line (up to the first unresolved one)."""
        moves = []
        for node in self.mainline:
            if node.move is None:
                break
            moves.append(node.move)
        return moves

    def positions(self) -> list[Position]:
        """The start position and the position after each resolved main-line move."""
        position = self.start
        assert position is not None
        out = [position]
        for move in self.mainline_moves():
            position = position.play(move)
            out.append(position)
        return out

    def end(self) -> Position:
        """The position after the last resolved main-line move."""
        return self.positions()[-1]

    def winner(self) -> Color | None:
        """The winner by the result: ``1-0`` (or ``2-0``) is the first player's win
        (Black in English and pool checkers, GameType 21 and 23; White in Russian
        and Brazilian), ``0-1`` (``0-2``) the second player's; None otherwise."""
        first = self.variant.first_player
        if self.result in ("1-0", "2-0"):
            return first
        if self.result in ("0-1", "0-2"):
            return first.opponent
        return None

    def to_pdn(self) -> str:
        """This game as PDN 3.0 text (see :func:`write_game`)."""
        return write_game(self)

    @classmethod
    def from_moves(cls, moves: Iterable[Move | str], variant: str | Variant = "pool",
                   start: Position | str | None = None, tags: dict[str, str] | None = None,
                   result: str = "*") -> PdnGame:
        """A game from moves (engine moves or move texts) played from ``start``.

        Raises :class:`~rulesbook.draughts.IllegalMoveError` for a move that
        cannot be played.
        """
        variant = Variant.named(variant)
        if isinstance(start, str):
            start = Position.from_fen(start, variant)
        position = start if start is not None else Position.start(variant)
        game = cls(tags=dict(tags or {}), variant=variant, start=position,
                   result=normalize_result(result))
        for item in moves:
            move = position.parse_move(item) if isinstance(item, str) else item
            if move not in position.legal_moves():
                raise IllegalMoveError(f"{move.full_text()} is not legal in {position.fen()}")
            game.mainline.append(PdnNode(position.move_text(move), move=move))
            position = position.play(move)
        return game

    def __repr__(self) -> str:
        who = " - ".join(self.tags.get(k, "?") for k in self._player_tags())
        return (f"<PdnGame {who!r} {self.variant.name} plies={len(self.mainline)} "
                f"result={self.result!r} errors={len(self.errors)}>")

    def _player_tags(self) -> tuple[str, str]:
        if self.variant.first_player is Color.BLACK:
            return ("Black", "White")
        return ("White", "Black")

    def title(self) -> str:
        """``"Tinsley - Chinook"``: the players, first player first."""
        return " - ".join(self.tags.get(k, "?") for k in self._player_tags())


# ---------------------------------------------------------------------------
# move resolution (rulesbook.draughts.pdn_moves)

def _move_error(text: str, exc: DraughtsError, where: str) -> str:
    if text in PLACEHOLDERS:
        return f"move missing{where}: placeholder {text!r} instead of a move"
    kind = "ambiguous" if isinstance(exc, AmbiguousMoveError) else "illegal"
    why = exc.explanation if isinstance(exc, IllegalMoveError) else str(exc)
    return f"move {text} is {kind}{where}: {why}"


def _resolve_tree(game: PdnGame, errors: list[PdnError]) -> None:
    """Resolve every node against its position: an explicit stack, no recursion."""
    assert game.start is not None
    todo: list[tuple[list[PdnNode], Position, int]] = [(game.mainline, game.start, 0)]
    while todo:
        nodes, position, depth = todo.pop()
        where = "" if depth == 0 else " (in a variation)"
        for index, node in enumerate(nodes):
            for line in node.variations:
                todo.append((line, position, depth + 1))
            try:
                move = resolve_move(position, node.text)
            except AmbiguousMoveError as exc:
                following = (n.text for n in nodes[index + 1:index + 1 + LOOKAHEAD])
                chosen = disambiguate(position, exc.candidates, following)
                if chosen is None:
                    errors.append(PdnError(node.line, node.col,
                                           _move_error(node.text, exc, where)))
                    break
                move = chosen
            except DraughtsError as exc:
                errors.append(PdnError(node.line, node.col, _move_error(node.text, exc, where)))
                break  # the rest of the line (and its variations) stays text
            node.move = move
            position = position.play(move)


def _select_variant(raw: RawGame, default: Variant | None, errors: list[PdnError],
                    settled_guess: VariantGuess | None = None
                    ) -> tuple[Variant, VariantGuess | None]:
    """The GameType tag's variant; without one (or with one the engine does not
    know) ``default``, or when that is None the variant in which the whole record
    is legal (:func:`~rulesbook.draughts.pdn_variant.guess_variant`)."""
    gametype = raw.tags.get("GameType")
    if gametype is not None and gametype.strip():
        try:
            return Variant.from_gametype(gametype), None
        except DraughtsError as exc:
            guess = dataclasses.replace(guess_variant(raw), why=f"Unknown GameType "
                                        f"{gametype.strip()[:20]!r}") \
                if default is None else None
            chosen = guess.chosen if guess is not None else default
            assert chosen is not None
            line, col = raw.tag_pos.get("GameType", (raw.line, 1))
            errors.append(PdnError(line, col, f"{exc}; read as {chosen.name}"))
            return chosen, guess
    if default is not None:
        return default, None
    guess = settled_guess if settled_guess is not None else guess_variant(raw)
    return guess.chosen, guess


def build_game(raw: RawGame, variant: str | Variant | None = None,
               guess: VariantGuess | None = None) -> PdnGame:
    """Turn a raw game of the syntax layer into a :class:`PdnGame`, resolving moves.
    ``variant`` is for a game without a GameType tag; None: the variant in which
    the whole record is legal (pool first; ``variant_guess`` says why), or ``guess``
    when the file's other games settled it (:func:`~rulesbook.draughts.pdn_variant.settled`)."""
    errors = list(raw.errors)
    default = Variant.named(variant) if variant is not None else None
    chosen, guess = _select_variant(raw, default, errors, guess)
    start = Position.start(chosen)
    fen = raw.tags.get("FEN")
    fen_ok = True
    if fen is not None and fen.strip():
        try:
            start = Position.from_fen(fen.strip(), chosen)
        except DraughtsError as exc:
            line, col = raw.tag_pos.get("FEN", (raw.line, 1))
            errors.append(PdnError(line, col, f"bad FEN {fen!r}: {exc}"))
            fen_ok = False
    game = PdnGame(tags=raw.tags, variant=chosen, start=start, mainline=raw.mainline,
                   result=raw.result, comment=raw.comment, errors=errors, line=raw.line,
                   variant_guess=guess)
    if fen_ok:
        move_errors: list[PdnError] = []
        _resolve_tree(game, move_errors)
        if move_errors:
            errors.extend(move_errors)
            errors.sort(key=lambda e: (e.line, e.col))
    return game


# ---------------------------------------------------------------------------
# reading

class PdnReader:
    """Reads the games of one text stream, one after the other.

    ``variant`` is used for games without a ``GameType`` tag (default: the
    variant in which the whole record is legal, pool first).
    """

    def __init__(self, handle: TextIO, variant: str | Variant | None = None,
                 strict: bool = False, *, first_line: int = 1) -> None:
        self.variant = Variant.named(variant) if variant is not None else None
        self.strict = strict
        self._syntax = SyntaxReader(handle, first_line=first_line)
        self.count = 0
        # a game legal in several variants takes the one the file's other games need
        self._games = settled(iter(self._syntax.read, None), lambda: self.variant is None)

    def read_game(self) -> PdnGame | None:
        item = next(self._games, None)
        if item is None:
            return None
        raw, guess = item
        self.count += 1
        game = build_game(raw, self.variant, guess)
        if self.strict and game.errors:
            raise PdnParseError.from_error(game.errors[0])
        return game

    def __iter__(self) -> Iterator[PdnGame]:
        while (game := self.read_game()) is not None:
            yield game


_READERS: weakref.WeakKeyDictionary[object, PdnReader] = weakref.WeakKeyDictionary()


def read_game(handle: TextIO, variant: str | Variant | None = None,
              strict: bool = False) -> PdnGame | None:
    """The next game of ``handle``, or None at the end.

    Successive calls on the same handle keep counting lines, so errors carry
    the line numbers of the file.
    """
    try:
        reader = _READERS.get(handle)
        remember = True
    except TypeError:  # not weak-referenceable: no state kept between calls
        reader, remember = None, False
    if reader is None:
        reader = PdnReader(handle, variant, strict)
        if remember:
            _READERS[handle] = reader
    else:
        reader.variant = Variant.named(variant) if variant is not None else None
        reader.strict = strict
    return reader.read_game()


def iter_games(source: TextIO | str, variant: str | Variant | None = None,
               strict: bool = False, *, first_line: int = 1) -> Iterator[PdnGame]:
    """Every game of ``source`` (an open text stream or the PDN text itself);
    ``first_line`` is the file's number of its first line (a part of a file)."""
    handle = io.StringIO(source) if isinstance(source, str) else source
    return iter(PdnReader(handle, variant, strict, first_line=first_line))


def read_games(source: TextIO | str, variant: str | Variant | None = None,
               strict: bool = False) -> list[PdnGame]:
    """All games of ``source`` as a list."""
    return list(iter_games(source, variant, strict))


# ---------------------------------------------------------------------------
# writing

def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment_tokens(text: str) -> list[str]:
    words = text.replace("}", ")").replace("{", "(").split()
    if not words:
        return []
    words[0] = "{ " + words[0]
    words[-1] = words[-1] + " }"
    return words


def _move_text(position: Position, move: Move, algebraic: bool) -> str:
    return position.move_text(move, algebraic=algebraic)


#: the GameType numbers of the engine's variants
_ENGINE_GAMETYPES = frozenset(v.gametype for v in VARIANTS.values() if v.gametype is not None)


def _gametype_number(gametype: str) -> int | None:
    """The number of a GameType tag ("21" of "21,B,8,8,N1,0"), None when it has none."""
    try:
        return int(gametype.split(",")[0].strip())
    except ValueError:
        return None


def write_game(game: PdnGame, as_written: bool = False, *, stamp_variant: bool = True) -> str:
    """PDN 3.0 text of ``game``: tags (the GameType the record had, verbatim, while the
    game is still of its variant; none when the record had none and its variant was
    guessed (``variant_guess``); the long form of a variant the caller chose), FEN when not the standard start), numbered moves with ``x`` for captures (algebraic squares
    for GameType 25 and 26, numbers for 21 and 23), comments, NAGs,
    variations, the result; no line longer than 80 characters.

    ``as_written``: every move keeps the text it was read from (``10x14`` for
    a plain move, ``24x6`` for a double jump) instead of the standard form —
    for a referee's case file, where how a move was written is evidence; the
    text reads back to the same moves, as it was read the first time.

    ``stamp_variant=False``: the GameType the record had, or none, whatever the
    variant (for a file that says the variant itself, as a case file does)."""
    variant = game.variant
    tags = dict(game.tags)
    for key in ("GameType", "FEN", "SetUp", "Setup", "Result"):
        tags.pop(key, None)
    # the GameType the record had (or the variant its writer chose); a variant the
    # reader guessed for a record without the tag is never stamped into the file
    had = (game.tags.get("GameType") or "").strip()
    number = _gametype_number(had) if had else None
    known = number is not None and number in _ENGINE_GAMETYPES
    if had and (number == variant.gametype or not known):
        # the record's own GameType, verbatim ("21" stays "21"; one the engine does not
        # know is written back as the record had it too)
        tags["GameType"] = had
    elif variant.gametype is not None and game.variant_guess is None and (stamp_variant or had):
        # the variant the writer chose (a record typed in, or read as another variant)
        tags["GameType"] = LONG_GAMETYPES.get(variant.gametype, str(variant.gametype))
    elif had:
        tags["GameType"] = had
    tags["Result"] = game.result
    assert game.start is not None
    if game.start.fen() != Position.start(variant).fen():
        tags["SetUp"] = "1"
        # GameType 25/26 files write squares algebraically, FEN included
        tags["FEN"] = game.start.fen(algebraic=variant.gametype in (25, 26))
    ordered = [k for k in TAG_ORDER if k in tags] + [k for k in tags if k not in TAG_ORDER]
    lines = [f'[{k} "{_quote(str(tags[k]))}"]' for k in ordered]
    lines.append("")
    tokens = _join_parens(_write_tokens(game, as_written))
    tokens.append(game.result)
    current = ""
    for token in tokens:
        if not current:
            current = token
        elif len(current) + 1 + len(token) <= LINE_WIDTH:
            current += " " + token
        else:
            lines.append(current)
            current = token
    if current:
        lines.append(current)
    return "\n".join(lines) + "\n"


class _Token(NamedTuple):
    """A work item of :func:`_write_tokens`: a token to write as it is."""

    text: str


class _Line(NamedTuple):
    """A work item of :func:`_write_tokens`: the moves of a line from ``first``
    on, the first played from ``position`` (None after an unresolved move)
    at ply ``ply``."""

    nodes: list[PdnNode]
    first: int
    position: Position | None
    ply: int


def _write_tokens(game: PdnGame, as_written: bool = False) -> list[str]:
    """Movetext tokens; variations are written with an explicit stack."""
    algebraic = game.variant.gametype in (25, 26)
    out: list[str] = []
    if game.comment:
        out += _comment_tokens(game.comment)
    assert game.start is not None
    start_offset = 0 if game.start.turn is game.variant.first_player else 1
    work: list[_Token | _Line] = [_Line(game.mainline, 0, game.start, 0)]
    while work:
        item = work.pop()
        if isinstance(item, _Token):
            out.append(item.text)
            continue
        nodes, index, position, ply = item
        # the moves played since ``position``: played only when a position is needed
        # (a move's standard text, a variation), so that a record written as it was
        # (a case file) is not played again move by move
        pending: list[Move] = []
        need_number = True
        for i in range(index, len(nodes)):
            node = nodes[i]
            if node.pre_comment:
                out += _comment_tokens(node.pre_comment)
                need_number = True
            half = ply + start_offset
            number = ""
            if half % 2 == 0:
                number = f"{half // 2 + 1}. "
            elif need_number:
                number = f"{half // 2 + 1}... "
            variations = [line for line in node.variations if line]
            if pending and (variations or not (as_written and node.text)):
                position = _played(position, pending)
            after: Position | None
            if position is not None and node.move is not None:
                text = node.text if as_written and node.text else \
                    _move_text(position, node.move, algebraic)
                pending.append(node.move)
                after = position
            else:
                text, after = node.text, None
                pending = []
            marks = "".join(NAG_SYMBOLS[n] for n in node.nags if n in NAG_SYMBOLS)
            out.append(number + text + marks)
            out += [f"${n}" for n in node.nags if n not in NAG_SYMBOLS]
            need_number = False
            if node.comment:
                out += _comment_tokens(node.comment)
                need_number = True
            if variations:
                work.append(_Line(nodes, i + 1, _played(after, pending), ply + 1))
                for line in reversed(variations):
                    work.append(_Token(")"))
                    work.append(_Line(line, 0, position, ply))
                    work.append(_Token("("))
                break
            position, ply = after, ply + 1
    return out


def _played(position: Position | None, pending: list[Move]) -> Position | None:
    """``position`` after the moves of ``pending`` (emptied: they are played)."""
    if position is not None:
        for move in pending:
            position = position.play(move)
    pending.clear()
    return position


def _join_parens(tokens: list[str]) -> list[str]:
    """Glue ``(`` to the next token and ``)`` to the previous one."""
    words: list[str] = []
    opening = ""
    for token in tokens:
        if token == "(":
            opening += "("
        elif token == ")" and words and not opening:
            words[-1] += ")"
        else:
            words.append(opening + token)
            opening = ""
    if opening:
        words.append(opening)
    return words
