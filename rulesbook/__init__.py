"""Rulesbook core: the rulebook model, editions, search, and the draughts engine.

Pure Python; never imports Qt.
"""
from .errors import (
    DataFileError,
    LibraryError,
    Problem,
    RulesbookError,
    UnknownReferenceError,
)
from .library import Library, load_library, validate_folder
from .model import Edition, Member, Note, Proposal, Rule, Rulebook, Topic

__all__ = [
    "DataFileError", "Edition", "Library", "LibraryError", "Member", "Note", "Problem",
    "Proposal", "Rule", "Rulebook", "RulesbookError", "Topic", "UnknownReferenceError",
    "load_library", "validate_folder",
]
__version__ = "0.1.0"
