"""Colours, pieces and rule variants.

The engine is one move generator driven by the flags of a :class:`Variant`.
"""
from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from rulesbook.draughts.errors import DraughtsError

__all__ = ["CapturePrecedence", "Color", "MidCaptureCrowning", "Piece", "Variant", "VARIANTS"]


class Color(enum.Enum):
    """The two sides.  Black always starts on 1-12, White on 21-32."""

    BLACK = "B"
    WHITE = "W"

    @property
    def opponent(self) -> Color:
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def title(self) -> str:
        """``"Black"`` / ``"White"``."""
        return self.name.capitalize()

    def __repr__(self) -> str:
        return f"Color.{self.name}"

    def __str__(self) -> str:
        return self.title


@dataclass(frozen=True)
class Piece:
    """A man or a king of one colour."""

    color: Color
    king: bool = False

    @property
    def symbol(self) -> str:
        """``b``/``w`` for men, ``B``/``W`` for kings."""
        s = self.color.value
        return s if self.king else s.lower()

    @property
    def description(self) -> str:
        """``"black man"``, ``"white king"``..."""
        return f"{self.color.name.lower()} {'king' if self.king else 'man'}"


class CapturePrecedence(str, enum.Enum):
    """Which capture a player must choose when several are possible."""

    FREE = "free"  # any of them
    MOST = "most"  # one that takes the most pieces

    def __str__(self) -> str:
        return self.value


class MidCaptureCrowning(str, enum.Enum):
    """What a man passing through the king row during a capture does (see
    :class:`Variant`)."""

    NO = "no"
    ENDS = "ends"
    CONTINUES = "continues"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Variant:
    """The rule switches of one game of draughts on the 32-square board.

    ``mid_capture_crowning``:

    * ``"no"``: a man passing through the king row during a capture stays a
      man (and must jump on if it can); it is crowned only if the move ends
      there (pool, Brazilian).
    * ``"ends"``: reaching the king row ends the move and crowns (English).
    * ``"continues"``: the man is crowned at once and goes on capturing as a
      king (Russian).
    """

    name: str
    men_capture_backward: bool
    flying_kings: bool
    capture_precedence: CapturePrecedence = CapturePrecedence.FREE
    mid_capture_crowning: MidCaptureCrowning = MidCaptureCrowning.NO
    first_player: Color = Color.BLACK
    gametype: int | None = None

    def __post_init__(self) -> None:
        # the flags may be given by their names ("most"): kept as the enum members
        for name, kind in (("capture_precedence", CapturePrecedence),
                           ("mid_capture_crowning", MidCaptureCrowning)):
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, kind(value))
            except (ValueError, TypeError):
                raise DraughtsError(
                    f"{name} must be one of {', '.join(m.value for m in kind)}, "
                    f"not {value!r}") from None
        if not isinstance(self.first_player, Color):
            raise DraughtsError(f"first_player must be a Color, not {self.first_player!r}")

    @staticmethod
    def named(name: str | Variant) -> Variant:
        """The built-in variant called ``name`` (``pool``, ``english``, ``russian``, ``brazilian``)."""
        if isinstance(name, Variant):
            return name
        key = str(name).strip().lower()
        key = _ALIASES.get(key, key)
        try:
            return VARIANTS[key]
        except KeyError:
            raise DraughtsError(
                f"unknown variant {name!r}: choose one of {', '.join(VARIANTS)}") from None

    @staticmethod
    def from_gametype(gametype: int | str) -> Variant:
        """The variant of a PDN ``GameType`` number (21, 23, 25, 26)."""
        try:
            number = int(str(gametype).split(",")[0].strip())
        except ValueError:
            raise DraughtsError(f"unknown PDN game type {gametype!r}") from None
        for variant in VARIANTS.values():
            if variant.gametype == number:
                return variant
        known = ", ".join(f"{v.gametype} ({v.name})" for v in VARIANTS.values())
        raise DraughtsError(f"unsupported PDN game type {number}: supported are {known}")

    @staticmethod
    def custom(base: str | Variant = "pool", **flags: object) -> Variant:
        """A "what if" variant: ``base`` with some flags changed.

        Unless given, the name is ``"<base>-custom"`` and the game type is None.
        """
        base_variant = Variant.named(base)
        fields = {f.name for f in dataclasses.fields(Variant)}
        unknown = sorted(set(flags) - fields)
        if unknown:
            raise DraughtsError(
                f"unknown variant flag {unknown[0]!r}: flags are {', '.join(sorted(fields))}")
        flags.setdefault("name", f"{base_variant.name}-custom")
        flags.setdefault("gametype", None)
        # flags take any object (one signature for every field): the names are checked
        # above, the enum flags and first_player by value in __post_init__, so the
        # values go on as Any: they are checked when the new Variant is made
        changes: dict[str, Any] = dict(flags)
        return dataclasses.replace(base_variant, **changes)


VARIANTS: dict[str, Variant] = {
    "pool": Variant("pool", True, True, CapturePrecedence.FREE, MidCaptureCrowning.NO,
                    Color.BLACK, 23),
    "english": Variant("english", False, False, CapturePrecedence.FREE, MidCaptureCrowning.ENDS,
                       Color.BLACK, 21),
    "russian": Variant("russian", True, True, CapturePrecedence.FREE,
                       MidCaptureCrowning.CONTINUES, Color.WHITE, 25),
    "brazilian": Variant("brazilian", True, True, CapturePrecedence.MOST, MidCaptureCrowning.NO,
                         Color.WHITE, 26),
}

_ALIASES = {
    "american pool": "pool", "american-pool": "pool",
    "checkers": "english", "american": "english", "english checkers": "english",
}
