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
  and every new statement names (``prev``) the last statement shared, another
  new statement, or -- a statement made on another clone at the same time -- the
  last statement of the registry it was written on: in the history the sync
  receives, the commit that first holds the statement must have a parent whose
  registry ends with the statement it names (:func:`chained_in_history`). Two
  clones that append at once fork off the statement both had; the merge keeps both
  in time order, so one clone's statement can end up above a statement the other
  already shared. A statement written into a folder that already held a newer one,
  chained to an older one and put above it (slipped into the past) has no such
  commit and is refused; and a new statement signed with a key whose revocation
  was already shared is refused whatever its history and date (a copy of the key
  signs nothing new, as for votes).

Each check works on the files' data as the safe loader reads it and leaves
anything it does not understand to the validation.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from dulwich.objects import ObjectID
from dulwich.repo import BaseRepo

from ..ballots.keys import verify_signature
from ..ballots.records import inline_signatures, is_ballot
from ..ballots.registry import build_registry, last_digest, statement_digest, statement_message
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


Forked = Callable[[], frozenset[str]]


def _none() -> frozenset[str]:
    return frozenset()


def registry_problems(old: Any, new: Any, forked: Forked = _none,
                      revoked: Mapping[str, str] | None = None) -> list[str]:
    """Statements of the members' registry removed, reordered, forked off a statement
    older than the last one shared (unless their digest is in what ``forked`` returns,
    asked only then: written at the same time on another clone,
    :func:`chained_in_history`), or new and signed
    with a key whose revocation ``old`` already holds."""
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
    problems.extend(_roles_dated_back(before, after, digests, shared))
    allowed = {last_digest(before)} | (set(digests) - shared)
    revoked = revoked_keys(old) if revoked is None else revoked
    found: frozenset[str] | None = None
    for st, digest in zip(after, digests, strict=True):
        if digest in shared:
            continue
        what = (f"the new {st.get('op')} statement for member {st.get('member')} "
                f"(dated {st.get('at')}, signed by {st.get('by')})")
        if st.get("prev") not in allowed:
            found = forked() if found is None else found  # the history, walked once
            if digest not in found:
                problems.append(
                    f"{MEMBERS}: {what} does not follow the last statement already shared: "
                    f"it names an older one, so it was slipped into the past")
        signature = st.get("signature")
        for key, when in revoked.items():
            if isinstance(signature, str) and verify_signature(
                    key, statement_message(st), signature):
                problems.append(
                    f"{MEMBERS}: {what} is signed with a key revoked at {when} (the "
                    f"revocation was shared before this statement was): a revoked key "
                    f"signs nothing new, whatever date it says")
                break
    return problems


def _roles_dated_back(before: list[dict[str, Any]], after: list[dict[str, Any]],
                      digests: list[str], shared: set[str]) -> list[str]:
    """New role and revocation statements that the time order puts above a role
    statement already shared: they would change who held which role before it (a
    chair named first, handing over to the shared chair, on a clone rewound to an
    empty registry, the fork real and its dates set back). A new key above one is
    kept (it waits for the chair: the first chair's ``seen:``), and so is what the
    shared registry's chair signed (on another computer of theirs)."""
    roles_shared = [i for i, (st, d) in enumerate(zip(after, digests, strict=True))
                    if d in shared and st.get("op") == "role"]
    if not roles_shared:
        return []
    last_role = roles_shared[-1]
    chair: str | None = None  # the shared registry's, built when first needed
    chair_read = False
    problems = []
    for i, (st, digest) in enumerate(zip(after, digests, strict=True)):
        if i >= last_role:
            break
        if digest in shared or st.get("op") == "key":
            continue
        if not chair_read:
            chair, chair_read = build_registry(before).chair, True
        if chair and st.get("by") == chair:
            # the shared chair signed on two computers at once (a member confirmed
            # on each): their order is the chair's own
            continue
        above = after[next(j for j in roles_shared if j > i)]
        problems.append(
            f"{MEMBERS}: the new {st.get('op')} statement for member {st.get('member')} "
            f"(dated {st.get('at')}, signed by {st.get('by')}) comes before the role "
            f"statement for member {above.get('member')} already shared (dated "
            f"{above.get('at')}): roles and revocations are made after those already "
            f"shared, never dated before them")
    return problems


def chained_in_history(parents_of: Callable[[ObjectID], list[ObjectID]],
                       members_of: Callable[[ObjectID], ObjectID | None], read: Read,
                       commits: Iterable[ObjectID]) -> frozenset[str]:
    """The digests of the statements that ``commits`` (the history a sync receives or
    sends; ``parents_of`` a commit, the blob of its members.yaml ``members_of`` it)
    added in order: the first commit that holds such a statement (it is in none of
    its parents) has a parent whose registry ends with the statement it names, or
    it names another statement that commit added."""
    found: set[str] = set()
    parsed: dict[ObjectID | None, list[dict[str, Any]]] = {None: []}

    def statements(blob: ObjectID | None) -> list[dict[str, Any]]:
        if blob not in parsed:
            parsed[blob] = _statements(_data({MEMBERS: blob}, MEMBERS, read)) \
                if blob is not None else []
        return parsed[blob]

    for commit in commits:
        parents = parents_of(commit)
        blob = members_of(commit)
        blobs = [members_of(p) for p in parents]
        if blob is None or blob in blobs:
            continue  # members.yaml as one parent had it: nothing added here
        theirs = [statements(b) for b in blobs]
        above = {statement_digest(s) for p in theirs for s in p}
        added = {d: s for s in statements(blob) if (d := statement_digest(s)) not in above}
        follows = ({last_digest(p) for p in theirs} if parents else {None}) | set(added)
        found.update(d for d, s in added.items() if s.get("prev") in follows)
    return frozenset(found)


def _members_blobs(repo: BaseRepo) -> Callable[[ObjectID], ObjectID | None]:
    """The blob of a commit's members.yaml (None: it has none), each commit read once
    (a commit is read again as a child's parent)."""
    blobs: dict[ObjectID, ObjectID | None] = {}

    def members_of(commit: ObjectID) -> ObjectID | None:
        if commit not in blobs:
            try:
                tree = repo[repo[commit].tree]  # type: ignore[attr-defined]
                blobs[commit] = tree[MEMBERS.encode()][1]  # type: ignore[index]
            except KeyError:
                blobs[commit] = None
        return blobs[commit]
    return members_of


def forked_statements(repo: BaseRepo, heads: list[ObjectID],
                      shared: ObjectID | None) -> frozenset[str]:
    """:func:`chained_in_history` over the commits of ``heads`` that ``shared`` (the
    commit both sides last shared; None: every commit) does not hold."""
    def parents_of(commit: ObjectID) -> list[ObjectID]:
        try:
            return list(repo[commit].parents)  # type: ignore[attr-defined]
        except KeyError:
            return []

    walker = repo.get_walker(include=heads, exclude=[shared] if shared else None)
    return chained_in_history(parents_of, _members_blobs(repo),
                              lambda sha: repo[sha].as_raw_string(),
                              (entry.commit.id for entry in walker))


def roles_dated_back_in(repo: BaseRepo, heads: list[ObjectID],
                        shared: ObjectID | None) -> list[str]:
    """:func:`_roles_dated_back` between each commit of ``heads`` that ``shared`` does
    not hold (None: every commit) and each of its parents whose members.yaml differs:
    a merge written by hand that puts roles before a role statement its own parent
    already held is refused by a member who never saw that parent, and by a clone."""
    members_of = _members_blobs(repo)
    parsed: dict[ObjectID, list[dict[str, Any]]] = {}

    def statements(blob: ObjectID | None) -> list[dict[str, Any]]:
        if blob is None:
            return []
        if blob not in parsed:
            parsed[blob] = _statements(_data({MEMBERS: blob}, MEMBERS,
                                             lambda sha: repo[sha].as_raw_string()))
        return parsed[blob]

    problems: list[str] = []
    walker = repo.get_walker(include=heads, exclude=[shared] if shared else None)
    for entry in walker:
        blob = members_of(entry.commit.id)
        after = statements(blob)
        digests = [statement_digest(st) for st in after]
        for parent in entry.commit.parents:
            before = statements(members_of(parent))
            if members_of(parent) == blob or not before:
                continue
            found = _roles_dated_back(before, after, digests,
                                      {statement_digest(st) for st in before})
            problems.extend(p for p in found if p not in problems)
    return problems


def revoked_keys(data: Any) -> dict[str, str]:
    """Key -> revocation time, from a members.yaml's data (the statements that verify)."""
    registry = build_registry(_statements(data))
    return {k.key: k.revoked_at for k in registry.keys if k.revoked_at}


def shared_record_problems(old: Mapping[str, ObjectID], new: Mapping[str, ObjectID],
                           read: Read, *, votes_only: bool = False,
                           forked: Forked = _none) -> list[str]:
    """Every signed record of ``old`` (what was shared) that ``new`` (what the sync would
    make the shared folder) lost, moved or contradicts (see the module). ``votes_only``:
    only the signed votes of ``old`` that ``new`` lost, and the new roles dated before
    its role statements (``old`` the remote's side of a merge: its registry statements
    and revocations are merged with this folder's new ones, which follow the merge
    base, not the remote's head). ``forked``: the new
    statements that :func:`chained_in_history` found chained where they were
    written (called only when a new statement does not follow the last one shared)."""
    old_members = _data(old, MEMBERS, read)
    revoked = {} if votes_only else revoked_keys(old_members)
    new_members = _data(new, MEMBERS, read)
    if votes_only:  # the remote's roles stand: no new role or revocation dated before them
        before, after = _statements(old_members), _statements(new_members)
        problems = _roles_dated_back(before, after, [statement_digest(st) for st in after],
                                     {statement_digest(st) for st in before})
    else:
        problems = registry_problems(old_members, new_members, forked, revoked)
    for path in sorted(set(old) | set(new)):
        if not path.endswith((".yaml", ".yml")) or path == MEMBERS:
            continue
        if old.get(path) == new.get(path):
            continue
        problems.extend(ballot_problems(path, _data(old, path, read), _data(new, path, read),
                                        revoked))
    return problems
