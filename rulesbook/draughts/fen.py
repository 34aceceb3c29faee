"""Reading and writing PDN 3.0 FEN strings: ``B:W21-32:B1-12``.

Input accepts: ``K`` prefixes for kings, ranges (``1-12``, ``K1-3``), algebraic
squares (``W:Wa1,Kc1:Bb8``), a trailing dot, surrounding quotes, either side
empty or missing, and ignores lidraughts-style ``H0``/``F1`` fields.
Output is plain comma lists, White first: ``B:W21,22,...:B1,2,...``.
"""
from __future__ import annotations

from rulesbook.draughts.errors import DraughtsError, FenError
from rulesbook.draughts.squares import parse_square, square_to_algebraic
from rulesbook.draughts.variant import Color, Piece

__all__ = ["parse_fen", "format_fen"]


def _squares(item: str, fen: str) -> list[int]:
    if "-" in item:
        lo_text, _, hi_text = item.partition("-")
        try:
            lo, hi = parse_square(lo_text), parse_square(hi_text)
        except DraughtsError as exc:
            raise FenError(f"FEN {fen!r}: {exc}") from None
        if lo > hi:
            raise FenError(f"FEN {fen!r}: range {item} runs backwards")
        return list(range(lo, hi + 1))
    try:
        return [parse_square(item)]
    except DraughtsError as exc:
        raise FenError(f"FEN {fen!r}: {exc}") from None


def parse_fen(fen: str) -> tuple[Color, dict[int, Piece]]:
    """``(side to move, {square: piece})``; raises :class:`FenError`."""
    if not isinstance(fen, str):
        raise FenError(f"a FEN must be text, not {type(fen).__name__}")
    text = fen.strip().strip('"').strip()
    if text.endswith("."):
        text = text[:-1].rstrip()
    if not text:
        raise FenError("empty FEN: expected something like B:W21-32:B1-12")
    parts = [p.strip() for p in text.split(":")]
    turn_text = parts[0].upper()
    if turn_text not in ("B", "W"):
        raise FenError(
            f"FEN {fen!r}: it must start with the side to move, B or W (as in B:W21-32:B1-12)")
    turn = Color(turn_text)
    pieces: dict[int, Piece] = {}
    seen_sides: set[str] = set()
    for part in parts[1:]:
        if not part:
            continue
        side = part[0].upper()
        if side in ("H", "F") and part[1:].isdigit():
            continue  # half-move clock / move number (lidraughts)
        if side not in ("B", "W"):
            raise FenError(f"FEN {fen!r}: field {part!r} must start with W or B")
        if side in seen_sides:
            raise FenError(f"FEN {fen!r}: the {Color(side).name.lower()} pieces are listed twice")
        seen_sides.add(side)
        color = Color(side)
        for raw in part[1:].split(","):
            item = raw.strip()
            if not item:
                continue
            king = item[0] in "Kk"
            if king:
                item = item[1:].strip()
            if not item:
                raise FenError(f"FEN {fen!r}: 'K' without a square")
            for square in _squares(item, fen):
                if square in pieces:
                    raise FenError(f"FEN {fen!r}: square {square} is listed twice")
                pieces[square] = Piece(color, king)
    return turn, dict(sorted(pieces.items()))


def format_fen(turn: Color, pieces: dict[int, Piece], algebraic: bool = False) -> str:
    """``W:W21,K22:B1,2`` (plain comma lists, kings prefixed with K); with
    ``algebraic``, squares as Russian and Brazilian files write them
    (``W:Wa1,Kc1:Bb8``)."""
    name = square_to_algebraic if algebraic else str

    def side(color: Color) -> str:
        return ",".join(
            ("K" if p.king else "") + name(sq)
            for sq, p in sorted(pieces.items()) if p.color is color)
    return f"{turn.value}:W{side(Color.WHITE)}:B{side(Color.BLACK)}"
