"""Committee ballots: build, vote, count, seal, verify, adopt.

>>> from rulesbook.ballots import Ballot, Question, cast_vote, tally
>>> q = Question("10", "apca:10", ("apca:10", "apca:10A"))
>>> b = Ballot("demo", "Demo", "apca", roll=("A", "B", "C"), questions=(q,), quorum=2)
>>> b = cast_vote(b, "A", "10", "10A", at="t")  # unsigned: a draft (pass signer=)
>>> b = cast_vote(b, "B", "10", ["apca:10A", "apca:10"], at="t")
>>> str(tally(b)[0].stands)
'adopted'

Encoding: a question about a rule has ``rule: apca:N`` and options
``[apca:N, proposals...]`` (the original first); a question about new text
has ``rule: null`` and options ``[status-quo, apca:PROPOSAL]``. A vote is
``{member, question, ranking}``; an empty ranking abstains. See
:mod:`rulesbook.ballots.tally` for the counting rules and thresholds and
:mod:`rulesbook.ballots.seal` for what the seal covers, :mod:`.signing` for what a
vote's signature covers and receipts, :mod:`.registry` for keys and roles,
:mod:`.chain` for the edition chain, :mod:`.settings` for the settings signed when
a ballot is opened, :mod:`.texts` for the digests that bind the texts voted on and
adopted, and ``docs/threat-model.md`` for what all this protects against.
"""
from .adopt import AdoptionPlan, adopt_ballot, plan_adoption
from .builder import build_ballot, build_questions, open_ballot
from .canonical import canonical_json
from .chain import check_chain, record_hash
from .checks import check_ballot, check_library
from .io import (
    dump_ballot,
    dump_member_ballot,
    export_member_ballot,
    load_ballot,
    load_member_ballot,
    member_copy,
    parse_ballot,
    save_ballot,
)
from .keys import (
    KeyStoreError,
    MissingKeyError,
    PassphraseError,
    SigningKey,
    config_dir,
    generate_key,
    import_key,
    load_signing_key,
)
from .model import (
    METHODS,
    STATUS_QUO,
    THRESHOLD_BASES,
    THRESHOLDS,
    Ballot,
    BallotError,
    Question,
    Replaced,
    Seal,
    Vote,
    match_option,
)
from .ops import (
    SignatureError,
    UnsealedError,
    add_signed_votes,
    cast_vote,
    close_ballot,
    close_file,
    import_file,
    import_member_votes,
    read_sealed,
    verify_file,
    vote_file,
)
from .registry import (
    CLOSERS,
    ROLES,
    Registry,
    append_statement,
    load_registry,
    sign_statement,
)
from .seal import Verification, canonical_form, compute_seal, verify_ballot
from .settings import settings_failures, sign_settings
from .signing import ReceiptCheck, ReceiptStatus, check_receipt, receipt_code
from .tally import IrvRound, QuestionResult, Stands, passes_threshold, tally, tally_question
from .texts import TextMismatch, edition_mismatches, records_texts, text_mismatches

__all__ = [
    "AdoptionPlan", "adopt_ballot", "plan_adoption", "build_ballot", "build_questions",
    "check_ballot", "check_library", "dump_ballot", "load_ballot", "load_member_ballot",
    "member_copy", "parse_ballot", "save_ballot", "METHODS", "STATUS_QUO", "THRESHOLD_BASES",
    "THRESHOLDS", "Ballot", "BallotError", "Question", "Replaced", "Seal", "Vote",
    "match_option", "cast_vote", "close_ballot", "close_file", "import_file",
    "import_member_votes", "verify_file", "vote_file", "Verification", "canonical_form",
    "canonical_json", "compute_seal", "verify_ballot", "IrvRound", "QuestionResult", "Stands",
    "passes_threshold", "tally", "tally_question", "check_chain", "record_hash",
    "dump_member_ballot", "export_member_ballot", "KeyStoreError", "MissingKeyError",
    "PassphraseError", "SigningKey", "config_dir", "generate_key", "import_key",
    "load_signing_key", "SignatureError", "UnsealedError", "read_sealed", "ROLES", "Registry",
    "append_statement", "load_registry", "sign_statement", "ReceiptCheck", "ReceiptStatus",
    "check_receipt", "receipt_code", "add_signed_votes", "open_ballot", "CLOSERS",
    "settings_failures", "sign_settings", "TextMismatch", "edition_mismatches",
    "records_texts", "text_mismatches",
]
