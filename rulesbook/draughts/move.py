"""The :class:`Move` value object."""
from __future__ import annotations

from dataclasses import dataclass

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
        return "x" if self.captures else "-"

    def full_text(self) -> str:
        """Every stop: ``"9-14"``, ``"9x18x27"``."""
        return self.separator.join(str(s) for s in self.path)

    def short_text(self) -> str:
        """Start and end only: ``"9x27"`` (may be ambiguous; see ``Position.move_text``)."""
        return f"{self.start}{self.separator}{self.end}"

    def __str__(self) -> str:
        return self.full_text()
