"""An SVG diagram of a position: 8x8 board, green and buff squares, red (Black)
and white men, kings marked with a crown ring and "K", squares numbered optionally,
and arrows for moves (the move that was required, the move that was played)."""
from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from .draughts.squares import square_to_algebraic

if TYPE_CHECKING:
    from .draughts.position import Position

GREEN, BUFF = "#2e7d32", "#f0dc9c"
RED, WHITE = "#c62828", "#fafafa"


@dataclass(frozen=True)
class DiagramArrow:
    """A move drawn on the diagram: the squares it passes, in order."""

    path: tuple[int, ...]
    colour: str = "#1565c0"
    dashed: bool = False


def _xy(square: int) -> tuple[int, int]:
    name = square_to_algebraic(square)
    return "abcdefgh".index(name[0]), 8 - int(name[1])


def board_svg(position: Position | None = None, size: int = 320, numbers: bool = True,
              highlight: tuple[int, ...] = (), title: str = "",
              arrows: tuple[DiagramArrow, ...] = ()) -> str:
    """The SVG text of ``position`` (a rulesbook.draughts Position, or None for an empty
    board). ``highlight`` outlines squares (the disputed move's squares); ``arrows``
    are drawn over the pieces (the move that was required)."""
    cell = size / 8
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
           f'viewBox="0 0 {size} {size}" role="img" aria-label="{escape(title or "board")}">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    for row in range(8):
        for col in range(8):
            colour = GREEN if (row + col) % 2 else BUFF
            out.append(f'<rect x="{col * cell:.1f}" y="{row * cell:.1f}" width="{cell:.1f}" '
                       f'height="{cell:.1f}" fill="{colour}"/>')
    for square in range(1, 33):
        x, y = _xy(square)
        if square in highlight:
            out.append(f'<rect x="{x * cell + 1.5:.1f}" y="{y * cell + 1.5:.1f}" '
                       f'width="{cell - 3:.1f}" height="{cell - 3:.1f}" fill="none" '
                       f'stroke="#ffd600" stroke-width="3"/>')
    pieces = position.pieces() if position is not None else {}
    if callable(pieces):  # pragma: no cover - property or method
        pieces = pieces()
    for square, piece in sorted(pieces.items()):
        x, y = _xy(square)
        cx, cy, r = (x + 0.5) * cell, (y + 0.5) * cell, cell * 0.38
        fill = RED if piece.color.name == "BLACK" else WHITE
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" '
                   f'stroke="#212121" stroke-width="1.5"/>')
        if piece.king:
            ink = WHITE if fill == RED else RED
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 0.62:.1f}" fill="none" '
                       f'stroke="{ink}" stroke-width="2"/>')
            out.append(f'<text x="{cx:.1f}" y="{cy + r * 0.3:.1f}" font-size="{r * 0.8:.1f}" '
                       f'text-anchor="middle" font-weight="bold" fill="{ink}" '
                       f'font-family="serif">K</text>')
    for arrow in arrows:
        out.append(_arrow_svg(arrow, cell))
    if numbers:  # last, on a dark tab in the square's corner, so no piece hides them
        for square in range(1, 33):
            x, y = _xy(square)
            width = 6 + 5.5 * len(str(square))
            out.append(f'<rect x="{x * cell + 1:.1f}" y="{y * cell + 1:.1f}" width="{width:.1f}" '
                       f'height="11" rx="2" fill="#1b3d1f" fill-opacity="0.85"/>')
            out.append(f'<text x="{x * cell + 4:.1f}" y="{y * cell + 10:.1f}" font-size="9" '
                       f'fill="#ffffff" font-family="sans-serif">{square}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _arrow_svg(arrow: DiagramArrow, cell: float) -> str:
    points = [((_xy(s)[0] + 0.5) * cell, (_xy(s)[1] + 0.5) * cell) for s in arrow.path]
    if len(points) < 2:
        return ""
    (ax, ay), (bx, by) = points[-2], points[-1]
    length = max(1.0, ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5)
    ux, uy = (bx - ax) / length, (by - ay) / length
    head = cell * 0.34
    base = (bx - ux * head, by - uy * head)
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points[:-1] + [base])
    dash = ' stroke-dasharray="6,4"' if arrow.dashed else ""
    nx, ny = -uy * head * 0.55, ux * head * 0.55
    tip = (f"{bx:.1f},{by:.1f} {base[0] + nx:.1f},{base[1] + ny:.1f} "
           f"{base[0] - nx:.1f},{base[1] - ny:.1f}")
    return (f'<polyline points="{line}" fill="none" stroke="{arrow.colour}" '
            f'stroke-width="{cell * 0.14:.1f}" stroke-linecap="round" '
            f'stroke-linejoin="round" stroke-opacity="0.85"{dash}/>'
            f'<polygon points="{tip}" fill="{arrow.colour}" fill-opacity="0.85"/>')

