"""The rulings engine: incidents (dispute types and their facts), the rulings
recorded on rule and proposal records, suggestions under an edition, comparison
across every variant, draw claims from a game, and the case library.

>>> from rulesbook.loading import load_library
>>> from rulesbook.rulings import suggest
>>> suggest(load_library(), "touch_move", {"piece_playable": True,
...         "refuses_to_move": False}).best.outcome
'must_move_piece'
"""
from .announce import AnnouncementLevel, DrawAnnouncement, draw_announcements
from .cases import (
    Case,
    CaseDifference,
    CaseResult,
    cases_for_proposal,
    get_case,
    load_case_file,
    load_cases,
    run_case,
)
from .catalogue import Fact, Incident, RulingSpec, get_incident, incidents, specs_for
from .claims import (
    CLAIM_INCIDENTS,
    DrawClaim,
    count_rules_for,
    counts_source,
    draw_claims,
    draw_claims_from_pdn,
)
from .engine import Comparison, Ruling, Suggestions, Verdict, compare, suggest
from .errors import (
    FactTypeError,
    GameRecordError,
    RulingsError,
    UnknownCaseError,
    UnknownFactError,
    UnknownIncidentError,
)
from .fromgame import (
    GameIncident,
    IncidentSource,
    first_illegal_move,
    incident_from_reconstruction,
)
from .quotes import QuoteSpan, find_quote, merged_spans, quote_spans
from .request import RequestOrigin, RulingsRequest, rulings_request, verdict_line
from .silences import Fill, Silence, fills, open_proposals, silences
from .vocabulary import (
    OUTCOMES,
    Basis,
    condition_words,
    fact_words,
    outcome_words,
    verdict_words,
)

__all__ = [
    "AnnouncementLevel", "CLAIM_INCIDENTS", "DrawAnnouncement", "draw_announcements",
    "Case", "CaseDifference", "CaseResult", "Comparison", "DrawClaim", "Fact", "Fill",
    "QuoteSpan", "RequestOrigin", "RulingsRequest", "Silence", "find_quote", "fills",
    "merged_spans", "open_proposals", "quote_spans", "silences", "specs_for",
    "Basis", "FactTypeError", "GameIncident", "GameRecordError", "Incident", "OUTCOMES", "Ruling",
    "RulingSpec", "RulingsError", "Suggestions", "UnknownCaseError", "UnknownFactError",
    "UnknownIncidentError", "Verdict", "cases_for_proposal", "compare", "count_rules_for", "counts_source",
    "draw_claims", "draw_claims_from_pdn", "first_illegal_move", "get_case", "get_incident",
    "incident_from_reconstruction", "IncidentSource", "incidents", "rulings_request",
    "load_case_file", "load_cases", "run_case", "verdict_line",
    "condition_words", "fact_words", "outcome_words", "suggest", "verdict_words",
]
