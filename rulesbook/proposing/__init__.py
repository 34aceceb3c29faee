"""The committee writes its record: new members, proposals, edits and withdrawals
(``rulesbook member add``, ``rulesbook propose``, ``rulesbook proposal edit|withdraw``
and the app's proposal editor)."""
from .core import (
    Draft,
    NewMember,
    ProposalError,
    Withdrawal,
    add_member,
    clean_text,
    closed_ballot_with,
    edit_proposal,
    home_book,
    next_letter,
    next_proposal_id,
    plan_member,
    plan_proposal,
    propose,
    suggest_topics,
    withdraw_proposal,
)

__all__ = ["Draft", "NewMember", "ProposalError", "Withdrawal", "add_member", "clean_text",
           "closed_ballot_with", "edit_proposal", "home_book", "next_letter",
           "next_proposal_id", "plan_member", "plan_proposal", "propose", "suggest_topics",
           "withdraw_proposal"]
