"""Which rulebooks govern the game on the Board (issue 31): the words of the
rulings button's tooltip and of the main window's "In force" label while the Board
is shown. A pool game is ruled by the edition in force; a game of another variant
(English checkers) by the rulebooks that declare that variant
(:func:`rulesbook.rulings.governing.governance`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesbook.rulings.errors import RulingsError
from rulesbook.rulings.governing import Governance, governance

if TYPE_CHECKING:
    from .controller import BoardController

__all__ = ["game_governance", "in_force_words", "rulings_tip"]


def game_governance(bc: BoardController) -> Governance | None:
    """Who governs the Board's game under the edition in force (None without a library)."""
    library = bc.counts.library
    if library is None:
        return None
    try:
        return governance(library, bc.variant, bc.counts.edition_id)
    except (RulingsError, LookupError):
        return None


def _names(bc: BoardController, gov: Governance) -> str:
    library = bc.counts.library
    assert library is not None
    names = [library.rulebook(b).name for b in gov.rulebooks]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def in_force_words(bc: BoardController) -> tuple[str, str]:
    """("In force for English checkers: the Standard Laws and the ACF guide", the
    sentence saying who governs the game) when the edition in force does not govern
    the game; ("", "") when it does (a pool game: the edition is what is in force)."""
    gov = game_governance(bc)
    if gov is None or gov.edition_governs:
        return "", ""
    if not gov.rulebooks:
        return f"In force for {gov.variant_title}: no rulebook (guidance only)", gov.sentence
    return f"In force for {gov.variant_title}: {_names(bc, gov)}", gov.sentence


def rulings_tip(bc: BoardController) -> str:
    """The rulings button's tooltip: the rulings it opens, from the rulebooks that
    govern the game, named."""
    gov = game_governance(bc)
    if gov is None:
        return "The rulings for the incident found (no rules library is loaded)"
    return f"The rulings for the incident found. {gov.sentence}"
