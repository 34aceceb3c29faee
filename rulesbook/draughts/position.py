"""The immutable :class:`Position` value object."""
from __future__ import annotations

from functools import lru_cache

from rulesbook.draughts.errors import (
    AmbiguousMoveError,
    DraughtsError,
    IllegalMoveError,
    PositionError,
)
from rulesbook.draughts.fen import format_fen, parse_fen
from rulesbook.draughts.geometry import BETWEEN, square_at
from rulesbook.draughts.move import Move
from rulesbook.draughts.movecheck import capture_path, quiet_step
from rulesbook.draughts.movegen import (
    BIT,
    FULL,
    Bitboards,
    CompiledRules,
    RawMove,
    apply,
    compile_rules,
    has_capture,
    legal_raw_moves,
    raw_to_move,
)
from rulesbook.draughts.notation import (
    MAX_MOVE_CHARS,
    NotationError,
    bare,
    read_move,
    write_squares,
)
from rulesbook.draughts.variant import VARIANTS, Color, Piece, Variant

__all__ = ["Position"]

_START_BLACK = (1 << 12) - 1
_START_WHITE = ((1 << 32) - 1) ^ ((1 << 20) - 1)
#: the start position of each built-in variant (:meth:`Position.start`)
_STARTS: dict[str, Position] = {}
_PIECE_CACHE = {
    (c, k): Piece(c, k) for c in (Color.BLACK, Color.WHITE) for k in (False, True)
}


_NEW_POSITION = object.__new__
_SET = object.__setattr__


# The quiet moves (one per pair of squares on a diagonal, crowned or not), shared.
_QUIET_MOVES = {
    (i, j, c): Move((i + 1, j + 1), (), c) for (i, j) in BETWEEN for c in (False, True)
}


@lru_cache(maxsize=4096)
def _written_bits(text: str) -> tuple[int, ...] | None:
    """The squares (bit indices, start first) the move text ``text`` writes, as
    :func:`~rulesbook.draughts.notation.read_move` reads it; None when it cannot
    be read or gives no start square (the short form).  Called only on texts no
    longer than a move (:data:`~rulesbook.draughts.notation.MAX_MOVE_CHARS`), so
    the cache keeps no long keys."""
    try:
        written = read_move(text)
    except NotationError:
        return None
    if written.start is None:
        return None
    return tuple(s - 1 for s in written.squares)


@lru_cache(maxsize=64)
def _rules(variant: Variant) -> CompiledRules:
    """The compiled flags of a variant (a frozen, hashable value): compiled once."""
    return compile_rules(variant)


def _or_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


class Position:
    """A board position: the pieces, the side to move and the variant.

    Immutable and hashable; moves return new positions.
    """

    # _legal: (table, moves) once generated; _capture: whether the side to move must
    # capture (None: not yet known); _rules: the compiled variant flags; _step: the
    # last step parse_move found legal, (Move, generated tuple), so play needn't recheck.
    __slots__ = ("_boards", "_black_to_move", "variant", "_legal", "_hash", "_capture",
                 "_rules", "_step")
    # The slots' types (set once, through object.__setattr__: see _init).
    _boards: tuple[int, int, int, int]  # black men, black kings, white men, white kings
    _black_to_move: bool
    variant: Variant
    _legal: tuple[dict[Move, RawMove], list[Move]] | None
    _hash: int | None
    _capture: bool | None
    _rules: CompiledRules
    _step: tuple[Move, RawMove] | None

    def __init__(self, pieces: dict[int, Piece] | None = None, turn: Color | None = None,
                 variant: str | Variant = "pool") -> None:
        v = Variant.named(variant)
        bm = bk = wm = wk = 0
        for square, piece in (pieces or {}).items():
            if not isinstance(square, int) or not 1 <= square <= 32:
                raise PositionError(f"square {square!r} is off the board: squares are 1-32")
            b = BIT[square - 1]
            if piece.color is Color.BLACK:
                if piece.king:
                    bk |= b
                else:
                    bm |= b
            elif piece.king:
                wk |= b
            else:
                wm |= b
        self._init(bm, bk, wm, wk, (turn or v.first_player) is Color.BLACK, v)

    def _init(self, bm: int, bk: int, wm: int, wk: int, black: bool, variant: Variant,
              rules: CompiledRules | None = None) -> None:
        _SET(self, "_boards", (bm, bk, wm, wk))
        _SET(self, "_black_to_move", black)
        _SET(self, "variant", variant)
        _SET(self, "_legal", None)
        _SET(self, "_hash", None)
        _SET(self, "_capture", None)
        _SET(self, "_rules", rules if rules is not None else _rules(variant))
        _SET(self, "_step", None)

    @classmethod
    def _raw(cls, bm: int, bk: int, wm: int, wk: int, black: bool, variant: Variant,
             rules: CompiledRules | None = None) -> Position:
        pos = _NEW_POSITION(cls)
        pos._init(bm, bk, wm, wk, black, variant, rules)
        return pos

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    # ------------------------------------------------------------------ construction
    @classmethod
    def start(cls, variant: str | Variant = "pool") -> Position:
        """The initial position: Black on 1-12, White on 21-32, first player to move.
        One object per built-in variant (a position is a value; its legal moves,
        worked out once, serve every game from the start: reading a file of games
        tries each game in every variant)."""
        v = Variant.named(variant)
        kept = _STARTS.get(v.name)
        if kept is not None and kept.variant is v and cls is Position:
            return kept
        pos = cls._raw(_START_BLACK, 0, _START_WHITE, 0, v.first_player is Color.BLACK, v)
        if cls is Position and VARIANTS.get(v.name) is v:
            _STARTS[v.name] = pos
        return pos

    @classmethod
    def from_fen(cls, fen: str, variant: str | Variant = "pool", check: bool = True) -> Position:
        """Read a PDN FEN; raises FenError, or PositionError when ``check`` finds
        an impossible position (see :meth:`check_sane`)."""
        turn, pieces = parse_fen(fen)
        pos = cls(pieces, turn, variant)
        if check:
            pos.check_sane()
        return pos

    @classmethod
    def from_bitboards(cls, boards: Bitboards | tuple[int, int, int, int, bool],
                       variant: str | Variant = "pool") -> Position:
        """The position of ``boards``: a :class:`~rulesbook.draughts.movegen.Bitboards`
        (or any ``(black_men, black_kings, white_men, white_kings,
        black_to_move)``), bit ``i`` standing for square ``i + 1``.  The inverse
        of :meth:`bitboards`.  Raises PositionError when a board is not a
        32-bit integer or two boards share a square (no other check: see
        :meth:`check_sane`)."""
        if len(boards) != 5:
            raise PositionError(
                f"bitboards: expected (black_men, black_kings, white_men, white_kings, "
                f"black_to_move), got {len(boards)} items")
        bm, bk, wm, wk, black = boards
        seen = 0
        for board in (bm, bk, wm, wk):
            if type(board) is not int or not 0 <= board <= FULL:
                raise PositionError(f"bitboard {board!r} is not a 32-bit board (0 to 2**32 - 1)")
            if seen & board:
                squares = ", ".join(str(i + 1) for i in range(32) if seen & board & BIT[i])
                raise PositionError(f"bitboards: more than one piece on square(s) {squares}")
            seen |= board
        return cls._raw(bm, bk, wm, wk, bool(black), Variant.named(variant))

    def with_turn(self, turn: Color) -> Position:
        """The same pieces with ``turn`` to move."""
        return Position._raw(*self._boards, turn is Color.BLACK, self.variant, self._rules)

    # ------------------------------------------------------------------ value object
    def _key(self) -> tuple[tuple[int, int, int, int], bool, Variant]:
        return (self._boards, self._black_to_move, self.variant)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash(self._key())
            object.__setattr__(self, "_hash", h)
        return h

    def __repr__(self) -> str:
        v = self.variant
        vtext = repr(v.name) if VARIANTS.get(v.name) == v else repr(v)
        return f"Position.from_fen({self.fen()!r}, variant={vtext})"

    def __str__(self) -> str:
        rows = []
        for row in range(8):
            cells = []
            for file in range(8):
                square = square_at(row, file)
                if square is None:
                    cells.append(" ")
                    continue
                piece = self.piece_at(square)
                cells.append(piece.symbol if piece else ".")
            rows.append(f"{8 - row} " + " ".join(cells))
        rows.append("  a b c d e f g h")
        rows.append(f"{self.turn.title} to move")
        return "\n".join(rows)

    # ------------------------------------------------------------------ reading
    @property
    def turn(self) -> Color:
        return Color.BLACK if self._black_to_move else Color.WHITE

    def bitboards(self) -> Bitboards:
        """The pieces and the side to move as four 32-bit boards (bit ``i`` for
        square ``i + 1``): ``Bitboards(black_men, black_kings, white_men,
        white_kings, black_to_move)``, a named tuple.  For searches over many
        positions with :mod:`rulesbook.draughts.movegen`; see
        :meth:`from_bitboards` for the way back."""
        return Bitboards(*self._boards, self._black_to_move)

    def fen(self, algebraic: bool = False) -> str:
        """PDN FEN with plain comma lists: ``B:W21,22,...:B1,2,...``; with
        ``algebraic``, the squares as Russian and Brazilian records write them."""
        return format_fen(self.turn, self.pieces(), algebraic)

    def piece_at(self, square: int) -> Piece | None:
        if not isinstance(square, int) or not 1 <= square <= 32:
            raise DraughtsError(f"unknown square {square!r}: squares are 1-32")
        b = BIT[square - 1]
        bm, bk, wm, wk = self._boards
        if bm & b:
            return _PIECE_CACHE[Color.BLACK, False]
        if bk & b:
            return _PIECE_CACHE[Color.BLACK, True]
        if wm & b:
            return _PIECE_CACHE[Color.WHITE, False]
        if wk & b:
            return _PIECE_CACHE[Color.WHITE, True]
        return None

    def pieces(self) -> dict[int, Piece]:
        """``{square: piece}`` in square order."""
        out = {}
        for s in range(1, 33):
            p = self.piece_at(s)
            if p is not None:
                out[s] = p
        return out

    def count(self, color: Color, king: bool | None = None) -> int:
        """Number of pieces of ``color`` (only kings / only men if ``king`` is given)."""
        bm, bk, wm, wk = self._boards
        men, kings = (bm, bk) if color is Color.BLACK else (wm, wk)
        if king is None:
            return (men | kings).bit_count()
        return (kings if king else men).bit_count()

    def check_sane(self) -> None:
        """Raise PositionError for a position that cannot arise in a game."""
        for color in (Color.BLACK, Color.WHITE):
            n = self.count(color)
            if n > 12:
                kind = "men" if self.count(color, king=True) == 0 else "pieces"
                raise PositionError(
                    f"{n} {color.name.lower()} {kind} on the board: at most 12")
        bm, _bk, wm, _wk = self._boards
        for s in range(29, 33):
            if bm & BIT[s - 1]:
                raise PositionError(
                    f"black man on {s}: a black man on the king row (29-32) is always crowned")
        for s in range(1, 5):
            if wm & BIT[s - 1]:
                raise PositionError(
                    f"white man on {s}: a white man on the king row (1-4) is always crowned")

    # ------------------------------------------------------------------ moves
    def _generate(self) -> tuple[dict[Move, RawMove], list[Move]]:
        cached = self._legal
        if cached is None:
            raw = legal_raw_moves(*self._boards, self._black_to_move, self._rules)
            # One tuple per move; sorting the tuples sorts by (path, captures) since
            # the path of a move decides its captures and crowning.
            raw = sorted(set(raw)) if len(raw) > 1 else raw
            if raw and not raw[0][1]:
                qm = _QUIET_MOVES
                moves = [qm[r[0][0], r[0][1], r[2]] for r in raw]
            else:
                moves = [raw_to_move(r) for r in raw]
            cached = (dict(zip(moves, raw, strict=True)), moves)
            object.__setattr__(self, "_legal", cached)
            object.__setattr__(self, "_capture", bool(raw) and bool(raw[0][1]))
        return cached

    def _must_capture(self) -> bool:
        """True when the side to move has a capture (found without generating moves)."""
        c = self._capture
        if c is None:
            bm, bk, wm, wk = self._boards
            if self._black_to_move:
                c = has_capture(bm, bk, wm | wk, bm | bk | wm | wk, True, self._rules)
            else:
                c = has_capture(wm, wk, bm | bk, bm | bk | wm | wk, False, self._rules)
            object.__setattr__(self, "_capture", c)
        return c

    def _quiet(self, i: int, j: int) -> RawMove | None:
        """The generated tuple of the quiet move from bit ``i`` to bit ``j`` if it is
        legal here (a step of the side to move and no capture on the board)."""
        bm, bk, wm, wk = self._boards
        black = self._black_to_move
        step = quiet_step(bm if black else wm, bk if black else wk, bm | bk | wm | wk,
                          black, self._rules, i, j)
        if step is None or self._must_capture():
            return None
        return step

    def legal_moves(self) -> list[Move]:
        """Every legal move (captures compulsory), one per distinct start, end
        and ordered captures."""
        return list(self._generate()[1])

    def is_legal(self, move: Move) -> bool:
        return move in self._generate()[0]

    def play(self, move: Move | str) -> Position:
        """The position after ``move`` (a Move or a move text); turn switched."""
        if isinstance(move, str):
            move = self.parse_move(move)
        legal = self._legal
        raw = None
        step = self._step
        if step is not None and step[0] is move:
            raw = step[1]  # parse_move has just checked it
        elif legal is None and not move.captures:
            path = move.path
            if len(path) == 2:
                s, e = path
                if type(s) is int and type(e) is int and 1 <= s <= 32 and 1 <= e <= 32:
                    raw = self._quiet(s - 1, e - 1)
                    if raw is not None and raw[2] != move.crowns:
                        raw = None
        if raw is None:
            raw = (legal or self._generate())[0].get(move)
            if raw is None:
                raise self._illegal(move.full_text(), move.path)
        bm, bk, wm, wk = apply(*self._boards, self._black_to_move, raw)
        pos = _NEW_POSITION(Position)
        pos._init(bm, bk, wm, wk, not self._black_to_move, self.variant, self._rules)
        return pos

    def is_game_over(self) -> bool:
        """True when the side to move has no legal move (and so has lost)."""
        return not self._generate()[1]

    def winner(self) -> Color | None:
        return self.turn.opponent if self.is_game_over() else None

    # ------------------------------------------------------------------ notation
    def _matches(self, squares: tuple[int, ...]) -> list[Move]:
        """The legal moves a text stopping on ``squares`` can stand for: the one
        move whose stops are exactly ``squares``, else every move from the first
        to the last square whose stops the squares between name (in order, any
        subset: see :meth:`Move.stops_fit`)."""
        moves = self._generate()[1]
        exact = [m for m in moves if m.path == squares]
        if len(exact) == 1:
            return exact
        inner = squares[1:-1]
        return [m for m in moves
                if m.start == squares[0] and m.end == squares[-1] and m.stops_fit(inner)]

    def move_text(self, move: Move, algebraic: bool = False) -> str:
        """The PDN 3.0 text of ``move``: start and end only (``11-15``,
        ``9x25``) when no other legal move goes from the same square to the
        same square (even one this reader would tell apart), otherwise every
        intermediate stop (``c3xa5xc7xe5xc3``): each square where the piece
        turns and, on a straight run over two pieces, the square immediately
        behind the first.  A single capture whose ends another capture
        shares has no intermediate square to give: it is written start x end,
        which :meth:`parse_move` reads as the move that stops exactly there."""
        if move not in self._generate()[0]:
            raise self._illegal(move.full_text(), move.path)
        start, end = move.start, move.end
        alone = not any(m.start == start and m.end == end and m != move
                        for m in self._generate()[1])
        chosen = (start, end) if alone else move.path
        return write_squares(chosen, move.is_capture, algebraic=algebraic)

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text`` (``11-15``, ``9x25``, ``9x18x25``,
        ``c3-d4``, ``c3:e5:c7``); raises IllegalMoveError / AmbiguousMoveError.

        When several legal moves match ``text`` but all of them lead to the same
        position (a king taking the same pieces in another order), the first of
        them (in ``legal_moves()`` order) is returned."""
        if type(text) is str:
            squares = _written_bits(text) if len(text) <= MAX_MOVE_CHARS else None
            if squares is not None and self._legal is None:
                move = self._fast_parse(squares)
                if move is not None:
                    return move
        return self._parse_move_slow(text)

    def _fast_parse(self, squares: tuple[int, ...]) -> Move | None:
        """The legal move that stops exactly on ``squares`` (bit indices), found on
        the bitboards without generating every legal move; None when not found
        this way (illegal, or a case left to the full generator).

        A step is legal when the side to move has no capture and the piece can
        step there; a capture when it jumps pieces of the opponent at each stop and
        cannot jump on from its last one.  With one such move, a text that lists
        every stop reads as that move, as in :meth:`_matches`."""
        if len(squares) == 2:
            raw = self._quiet(*squares)
            if raw is not None:
                move = _QUIET_MOVES[squares[0], squares[1], raw[2]]
                _SET(self, "_step", (move, raw))
                return move
        if not self._must_capture():
            return None
        bm, bk, wm, wk = self._boards
        black = self._black_to_move
        if black:
            raw = capture_path(bm, bk, wm | wk, bm | bk | wm | wk, True, self._rules, squares)
        else:
            raw = capture_path(wm, wk, bm | bk, bm | bk | wm | wk, False, self._rules, squares)
        if raw is None:
            return None
        move = raw_to_move(raw)
        _SET(self, "_step", (move, raw))
        return move

    def _parse_move_slow(self, text: str) -> Move:
        """:meth:`parse_move` by matching ``text`` against every legal move."""
        if isinstance(text, Move):
            if text in self._generate()[0]:
                return text
            raise self._illegal(text.full_text(), text.path)
        raw = bare(str(text))
        if not raw:
            raise IllegalMoveError("empty move: write a move as from-to, e.g. 11-15",
                                   move=text, explanation="empty move")
        try:
            written = read_move(raw)
        except NotationError as exc:
            raise IllegalMoveError(f"move {exc.shown}: {exc.explanation}", move=raw,
                                   explanation=exc.explanation) from None
        if written.start is None:
            clause = (f"the short form gives only the file the piece leaves "
                      f"({written.start_file}): write the square too, e.g. c3-d4 or 11-15")
            raise IllegalMoveError(f"move {raw}: {clause}", move=raw, explanation=clause)
        squares = written.squares
        found = self._matches(squares)
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            table = self._generate()[0]
            boards, black = self._boards, self._black_to_move
            if len({apply(*boards, black, table[m]) for m in found}) == 1:
                return found[0]  # every reading plays the same: one move
            clause = (f"it could be {_or_list([m.full_text() for m in found])}; "
                      f"give the squares it stops on")
            raise AmbiguousMoveError(f"move {raw} is ambiguous: {clause}", found, move=raw,
                                     explanation=clause)
        raise self._illegal(raw, squares)

    def _illegal(self, text: str, squares: tuple[int, ...]) -> IllegalMoveError:
        """The error for the move ``squares`` (written ``text``), not legal here."""
        clause = self._explain(squares)
        return IllegalMoveError(f"move {text}: {clause}", move=text, explanation=clause)

    def _explain(self, squares: tuple[int, ...]) -> str:
        """Why the move ``squares`` is not legal here."""
        start, end = squares[0], squares[-1]
        moves = self._generate()[1]
        piece = self.piece_at(start)
        if piece is None:
            return f"{start} is empty"
        if piece.color is not self.turn:
            return f"{start} holds a {piece.description}; it is {self.turn.title}'s turn"
        if not moves:
            return f"{self.turn.title} has no legal move; the game is over"
        own = [m for m in moves if m.start == start]
        if moves[0].is_capture and not any(m.end == end for m in own):
            return "you must capture: " + _or_list([self.move_text(m) for m in moves])
        if not own:
            return f"the {piece.description} on {start} cannot move"
        if len(squares) == 2 and self.piece_at(end) is not None and not own[0].is_capture:
            return f"{end} is occupied"
        if any(m.end == end for m in own):
            options = _or_list([m.full_text() for m in own if m.end == end])
            return f"no capture from {start} to {end} goes that way; legal: {options}"
        return (f"the {piece.description} on {start} cannot go to {end}; "
                f"it can play " + _or_list([self.move_text(m) for m in own]))
