"""Errors of the rulings engine: every one a ``ValueError`` whose message says
what was wrong and lists what is accepted."""
from __future__ import annotations

from ..errors import RulesbookError


class RulingsError(RulesbookError):
    """Base of the rulings engine's errors (a ``ValueError``)."""


class UnknownIncidentError(RulingsError, LookupError):
    """An incident id that is not in the catalogue."""


class UnknownFactError(RulingsError, LookupError):
    """A fact that the incident does not have."""


class FactTypeError(RulingsError):
    """A fact value of the wrong type (not yes/no, not a number, not one of the choices)."""


class UnknownCaseError(RulingsError, LookupError):
    """A case id or file that is not in the case library."""


class GameRecordError(RulingsError):
    """A game record that cannot be used (unreadable, no game, ply out of range)."""
