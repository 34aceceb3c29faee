"""Which rulebooks govern a game: each rulebook declares the variants of the game it
governs (``variants:`` in its file, with the source's words in ``variants_quote``).
The APCA rules and the Spanish pool rules govern pool checkers, the Standard Laws
and the ACF guide English checkers. A pool game is ruled by the edition in force
(as it always was); a game of another variant by the rulebooks that govern it, the
edition in force given only as guidance; a variant no rulebook governs gets every
rulebook as guidance. :class:`Governance` says so in one sentence::

    An English checkers game: the Standard Laws and the ACF guide govern it; the
    APCA edition in force is for pool checkers.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..draughts import Variant
from ..draughts.pdn_variant import variant_title
from .errors import RulingsError

if TYPE_CHECKING:
    from ..library import Library
    from ..model import Rulebook

__all__ = ["BOOK_ORDER", "Governance", "governance", "guidance_words", "ordered_books",
           "variant_name"]

#: the variant of a game when nothing says otherwise: the association's game
DEFAULT_VARIANT = "pool"


def variant_name(variant: str | Variant | None) -> str | None:
    """The engine name of ``variant`` (``"english"``), None for None; raises
    :class:`RulingsError` for a name the engine does not know."""
    if variant is None:
        return None
    if isinstance(variant, Variant):
        return variant.name
    try:
        return Variant.named(str(variant).strip().lower()).name
    except ValueError as exc:
        raise RulingsError(str(exc)) from None


def _article(words: str) -> str:
    return "An" if words[:1].lower() in "aeiou" else "A"


def _and_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _govern(names: list[str]) -> str:
    """"govern" for several rulebooks or a plural name ("the Standard Laws")."""
    return "govern" if len(names) > 1 or names[0].endswith("s") else "governs"


def _edition_words(book: Rulebook) -> str:
    """"the APCA edition in force": the rulebook's id when it is an abbreviation."""
    short = book.id.upper() if "-" not in book.id and len(book.id) <= 5 else book.short_title
    return f"the {short} edition in force"


BOOK_ORDER = ("apca", "standard-laws", "spanish-pool", "acf-guide")


def ordered_books(library: Library, first: tuple[str, ...] = ()) -> list[Rulebook]:
    """The rulebooks in the order variants are shown: ``first`` (the rulebooks that
    govern the game), then the edited book, the Standard Laws, the Spanish pool
    rules, the ACF guide, then any others."""
    home = library.editions[0].rulebook if library.editions else "apca"
    order = tuple(dict.fromkeys(first + (home,) + BOOK_ORDER))
    return sorted(library.rulebooks,
                  key=lambda b: (order.index(b.id) if b.id in order else len(order), b.id))


@dataclass(frozen=True)
class Governance:
    """The variant of a game and the rulebooks that govern it (ids, the edition's
    rulebook first when it governs, then in the order the variants are shown)."""

    variant: str
    rulebooks: tuple[str, ...]
    edition: str
    edition_rulebook: str
    sentence: str

    @property
    def edition_governs(self) -> bool:
        """The edition in force governs the game (a pool game under the APCA rules)."""
        return self.edition_rulebook in self.rulebooks

    @property
    def variant_title(self) -> str:
        return variant_title(Variant.named(self.variant))

    def governs(self, rulebook: str) -> bool:
        return rulebook in self.rulebooks

    def as_json(self) -> dict[str, object]:
        return {"variant": self.variant, "rulebooks": list(self.rulebooks),
                "governance": self.sentence}


def _governing(library: Library, variant: str) -> Iterator[Rulebook]:
    for book in ordered_books(library):
        if variant in book.variants:
            yield book


def governance(library: Library, variant: str | Variant | None = None,
               edition: str | None = None) -> Governance:
    """Who governs a game of ``variant`` (None: the variant the edition's rulebook
    governs first, pool) under ``edition`` (the one in force by default)."""
    ed = library.edition(edition)
    home = library.rulebook(ed.rulebook)
    name = variant_name(variant) or (home.variants[0] if home.variants else DEFAULT_VARIANT)
    books = list(_governing(library, name))
    words = variant_title(Variant.named(name))
    head = f"{_article(words)} {words} game"
    edition_words = _edition_words(home)
    home_for = _and_list([variant_title(Variant.named(v)) for v in home.variants])
    if home in books:
        others = [b.name for b in books if b.id != home.id]
        sentence = f"{head}: {edition_words} governs it"
        if others:
            sentence += (f"; {_and_list(others)} also {_govern(others)} {words}, as "
                         f"guidance where it is silent")
    elif books:
        names = [b.name for b in books]
        sentence = (f"{head}: {_and_list(names)} {_govern(names)} it; "
                    f"{edition_words} is for {home_for or 'another game'}")
    else:
        sentence = (f"{head}: no rulebook of the library governs it; {edition_words} is for "
                    f"{home_for or 'another game'}, and every rulebook is guidance only")
    return Governance(name, tuple(b.id for b in books), ed.id, home.id, sentence + ".")


def guidance_words(library: Library, gov: Governance | None, rulebook: str,
                   in_force: bool = True) -> str:
    """Why a ruling of ``rulebook`` is guidance only for a game under ``gov``, in
    words ("" when it is a rule of the game): "guidance only: the APCA rules are for
    pool checkers, not for this English checkers game"; for a rulebook that governs
    the variant but is not the edition in force, "guidance only: not a rule of the
    edition in force"."""
    if gov is None or gov.governs(rulebook):
        return "" if in_force else "guidance only: not a rule of the edition in force"
    try:
        book = library.rulebook(rulebook)
    except LookupError:
        return "guidance only: its rulebook does not govern this game"
    kinds = _and_list([variant_title(Variant.named(v)) for v in book.variants])
    are = "are" if book.name.endswith("s") else "is"
    if not kinds:
        return f"guidance only: {book.name} {are} not a rulebook of {gov.variant_title}"
    return f"guidance only: {book.name} {are} for {kinds}, not for this {gov.variant_title} game"
