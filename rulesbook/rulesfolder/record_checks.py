"""What a sync checks between what was shared and what it is about to share.

The full validation (:func:`rulesbook.loading.load_library`) checks a folder as it
stands: every signature, every time. What it cannot see is what *disappeared*:
signed records are append-only, so a sync compares the folder it is about to
merge, fast-forward to or push with the one both sides last shared (the merge
base; for a fast-forward the folder's own head; for a push the remote's head; a
merge is checked against the remote's head too, for its signed votes only):

* **votes**: a signed vote in a ballot may only be replaced by a newer signed vote
  of the same member on the same question, the replaced one kept in the ballot's
  ``history``; a vote that disappears, a history entry that disappears, or a
  ballot file with signed votes that disappears is refused, naming the member;
* **a revoked key**: a vote that was not shared before, signed with a key whose
  revocation was already shared, is refused (a copy of the key taken before the
  revocation signs nothing new, whatever date it writes);
* **the members' registry**: every statement shared before stays, in its order,
  and every new statement names (``prev``) the last statement shared or another
  new statement: a statement forked off an older one (slipped into the past) is
  refused.

Each check works on the files' data as the safe loader reads it and leaves
anything it does not understand to the validation.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dulwich.objects import ObjectID

from ..ballots.records import inline_signatures, is_ballot
from ..ballots.registry import build_registry, last_digest, statement_digest
from ..errors import DataFileError
from ..yamlio import loads_bytes

Read = Callable[[ObjectID], bytes]
MEMBERS = "members.yaml"


def _data(files: Mapping[str, ObjectID], path: str, read: Read) -> Any:
    sha = files.get(path)
    if sha is None:
        return None
    try:
        return loads_bytes(read(sha), path).data
    except DataFileError:
        return None  # the validation reports an unreadable file


def _entries(data: Mapping[str, Any], name: str) -> list[dict[str, Any]]:
    entries = data.get(name)
    return [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []


def _signed(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in entries if isinstance(e.get("signature"), str) and e["signature"]]


def _statements(data: Any) -> list[dict[str, Any]]:
    if not isinstance(data, dict):
        return []
    return _entries(data, "registry")


def ballot_problems(path: str, old: Any, new: Any,
                    revoked: Mapping[str, str]) -> list[str]:
    """Votes of ballot file ``path`` that disappeared from ``old`` to ``new`` (plain data),
    and new votes signed with a key in ``revoked`` (key -> when it was revoked)."""
    if not is_ballot(old) and not is_ballot(new):
        return []
    before = inline_signatures(old) if is_ballot(old) else {}
    name = before.get("id", new.get("id", path) if isinstance(new, dict) else path)
    old_votes = _signed(_entries(before, "votes"))
    old_history = _signed(_entries(before, "history"))
    if not is_ballot(new):
        if old_votes or old_history:
            members = sorted({str(v.get("member")) for v in old_votes + old_history})
            return [f"{path}: ballot {name!r} with the signed votes of member(s) "
                    f"{', '.join(members)} was removed: signed votes are never deleted"]
        return []
    after = inline_signatures(new)
    votes = _entries(after, "votes")
    history = _entries(after, "history")
    now = {(v.get("member"), v.get("question")): v for v in votes}
    kept = {e.get("signature") for e in history}
    problems: list[str] = []
    for vote in old_votes:
        who, question = vote.get("member"), vote.get("question")
        current = now.get((who, question))
        if current is not None and current.get("signature") == vote["signature"]:
            continue
        newer = (current is not None and isinstance(current.get("signature"), str)
                 and current.get("signature") and str(current.get("at", "")) >= str(
                     vote.get("at", "")) and vote["signature"] in kept)
        if not newer:
            problems.append(
                f"{path}: the signed vote of member {who} on question {question!r} of ballot "
                f"{name!r} (signed {vote.get('at')}) disappeared without a newer signed vote "
                f"of {who} replacing it: signed votes are append-only")
    for entry in old_history:
        if entry["signature"] not in kept:
            problems.append(
                f"{path}: the replaced vote of member {entry.get('member')} on question "
                f"{entry.get('question')!r} of ballot {name!r} was removed from its history: "
                f"the history is append-only")
    shared = {v["signature"] for v in old_votes + old_history}
    for vote in _signed(votes):
        when = revoked.get(str(vote.get("key")))
        if vote["signature"] not in shared and when is not None:
            signer = vote.get("proxy_by") or vote.get("member")
            problems.append(
                f"{path}: the vote of member {vote.get('member')} on question "
                f"{vote.get('question')!r} of ballot {name!r} is new, but it is signed with "
                f"the key of {signer} revoked at {when} (the revocation was shared before "
                f"this vote was): a revoked key signs nothing new, whatever date it says "
                f"({vote.get('at')})")
    return problems


def registry_problems(old: Any, new: Any) -> list[str]:
    """Statements of the members' registry removed, reordered, or forked off a statement
    older than the last one shared."""
    before, after = _statements(old), _statements(new)
    if not before:
        return []
    digests = [statement_digest(s) for s in after]
    position = {d: i for i, d in enumerate(digests)}
    problems: list[str] = []
    last = -1
    for st in before:
        i = position.get(statement_digest(st))
        what = f"the {st.get('op')} statement for member {st.get('member')} ({st.get('at')})"
        if i is None:
            problems.append(f"{MEMBERS}: {what} was removed or changed: the registry's signed "
                            f"statements are append-only")
        elif i < last:
            problems.append(f"{MEMBERS}: {what} was moved: statements keep their order")
        else:
            last = i
    shared = {statement_digest(s) for s in before}
    allowed = {last_digest(before)} | (set(digests) - shared)
    for st in after:
        digest = statement_digest(st)
        if digest in shared:
            continue
        if st.get("prev") not in allowed:
            problems.append(
                f"{MEMBERS}: the new {st.get('op')} statement for member {st.get('member')} "
                f"(dated {st.get('at')}, signed by {st.get('by')}) does not follow the last "
                f"statement already shared: it names an older one, so it was slipped into "
                f"the past")
    return problems


def revoked_keys(data: Any) -> dict[str, str]:
    """Key -> revocation time, from a members.yaml's data (the statements that verify)."""
    registry = build_registry(_statements(data))
    return {k.key: k.revoked_at for k in registry.keys if k.revoked_at}


def shared_record_problems(old: Mapping[str, ObjectID], new: Mapping[str, ObjectID],
                           read: Read, *, votes_only: bool = False) -> list[str]:
    """Every signed record of ``old`` (what was shared) that ``new`` (what the sync would
    make the shared folder) lost, moved or contradicts (see the module). ``votes_only``:
    only the signed votes of ``old`` that ``new`` lost (``old`` the remote's side of a
    merge: its registry statements and revocations are merged with this folder's new
    ones, which follow the merge base, not the remote's head)."""
    old_members = _data(old, MEMBERS, read)
    problems = [] if votes_only else registry_problems(old_members, _data(new, MEMBERS, read))
    revoked = {} if votes_only else revoked_keys(old_members)
    for path in sorted(set(old) | set(new)):
        if not path.endswith((".yaml", ".yml")) or path == MEMBERS:
            continue
        if old.get(path) == new.get(path):
            continue
        problems.extend(ballot_problems(path, _data(old, path, read), _data(new, path, read),
                                        revoked))
    return problems
