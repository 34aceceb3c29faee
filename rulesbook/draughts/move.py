"""The :class:`Move` value object."""
from __future__ import annotations

from dataclasses import dataclass

from rulesbook.draughts.geometry import stop_choices
from rulesbook.draughts.notation import full_form, separator, short_form

__all__ = ["Move"]


@dataclass(frozen=True)
class Move:
    """One move: every square it stops on (start first), the captured squares
    in the order they are jumped, and whether the moving man is crowned."""

    path: tuple[int, ...]
    captures: tuple[int, ...] = ()
    crowns: bool = False

    @property
    def start(self) -> int:
        return self.path[0]

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    @property
    def separator(self) -> str:
        return separator(bool(self.captures))

    def stops_fit(self, inner: tuple[int, ...] | list[int]) -> bool:
        """Whether the intermediate squares ``inner`` of a written move (square
        numbers, in order; any subset of the stops) name stops of this move: a
        square where it turns, or, on a straight run over two pieces, any square
        between them (the square immediately behind the first piece is the
        one :attr:`path` holds, as PDN 3.0 writes it)."""
        if not inner:
            return True
        if not self.captures:
            return False
        masks = stop_choices(tuple(s - 1 for s in self.path), tuple(s - 1 for s in self.captures))
        it = iter(masks)
        for square in inner:
            if not isinstance(square, int) or not 1 <= square <= 32:
                return False
            bit = 1 << (square - 1)
            if not any(mask & bit for mask in it):
                return False
        return True

    def full_text(self) -> str:
        """Every stop: ``"9-14"``, ``"9x18x27"``."""
        return full_form(self)

    def short_text(self) -> str:
        """Start and end only: ``"9x27"`` (may be ambiguous; see ``Position.move_text``)."""
        return short_form(self)

    def __str__(self) -> str:
        return self.full_text()
