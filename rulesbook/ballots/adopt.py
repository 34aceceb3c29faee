"""Turning a closed, verified ballot into the next edition of the rules.

For each question whose winning text was adopted: an ``adopted`` entry
``{proposal, rule, ballot, question, note}`` (no ``rule`` for new text); a winning
``deletion`` is adopted so too and its rule repealed (a ``repealed`` entry
``{rule, ballot, note}``). The
edition's base is the edition in force; its date is the day the ballot was
closed (unless given); the ballot id is in every entry and the seal's digest
in the description and the notes; ``previous`` is the hash of the record before it
(:mod:`.chain`); the adopter (chair or secretary) signs the whole record
(:mod:`.edition_sig`). ``editions.yaml`` is rewritten atomically
with the new edition appended (comments kept) and ``in_force`` set to it.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date as Date

from .. import schema
from ..library import Library
from ..model import Proposal, Rule
from ..storage import atomic_write_text, file_lock
from ..yamlio import LoadedYaml, dump_text, loads, read_data_text
from .chain import record_hash
from .edition_sig import sign_edition, signer_problem
from .keys import SigningKey
from .model import Ballot, BallotError, Document, Seal
from .registry import load_registry, now_utc
from .seal import verify_ballot
from .tally import tally
from .texts import edition_texts, entry_digest, text_mismatches


@dataclass(frozen=True)
class AdoptionPlan:
    edition: Document  # the new edition's record, as written to editions.yaml
    base: str
    text: str  # the new editions.yaml


def check_date(date: str) -> str:
    """``date`` if it is a real day written YYYY-MM-DD (else a BallotError)."""
    if not isinstance(date, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        raise BallotError(f"date {date!r} must be YYYY-MM-DD")
    try:
        Date.fromisoformat(date)
    except ValueError:
        raise BallotError(f"date {date!r} is not a day of the calendar (YYYY-MM-DD: "
                          f"month 01-12, a day that month has)") from None
    return date


def plan_adoption(library: Library, ballot: Ballot, edition_id: str, *,
                  title: str | None = None, date: str | None = None,
                  signer: SigningKey | None = None, at: str | None = None) -> AdoptionPlan:
    """The new edition record and editions file; signed by ``signer`` (the chair or
    secretary adopting, at ``at``, default now) when given — a preview has none."""
    seal = ballot.seal
    if ballot.status != "closed" or seal is None:
        raise BallotError(f"ballot {ballot.id!r} is not closed: close it before adopting")
    registry = load_registry(library.root)
    when = at or now_utc()
    if signer is not None:
        why = signer_problem(registry, signer.member, signer.public, when)
        if why:
            raise BallotError(f"{signer.member} cannot adopt the ballot: {why}")
    check = verify_ballot(ballot, registry)
    if not check.ok:
        raise BallotError(f"ballot {ballot.id!r} fails verification, it cannot be adopted: "
                          + "; ".join(check.failures))
    base = library.edition()
    if base.rulebook != ballot.rulebook:
        raise BallotError(f"the edition in force ({base.id}) is of {base.rulebook!r}, "
                          f"the ballot is about {ballot.rulebook!r}")
    for edition in library.editions:
        if edition.ballot == ballot.id or edition.seal == f"sha256:{seal.digest}" or \
                any(a.ballot == ballot.id for a in edition.adopted):
            raise BallotError(f"ballot {ballot.id!r} was already adopted in edition "
                              f"{edition.id!r}")
    if ballot.edition and ballot.edition != base.id:
        raise BallotError(f"ballot {ballot.id!r} amends edition {ballot.edition!r}, but "
                          f"{base.id!r} is in force")
    if any(e.id == edition_id for e in library.editions):
        raise BallotError(f"edition {edition_id!r} already exists")
    changed = text_mismatches(library)
    if changed:  # the new edition would record them as adopted
        raise BallotError(f"ballot {ballot.id!r} cannot be adopted while texts of the folder "
                          f"are not the ones voted on or adopted: "
                          + "; ".join(m.message for m in changed[:5])
                          + (f"; and {len(changed) - 5} more" if len(changed) > 5 else ""))
    date = check_date(date or seal.closed_at[:10])
    short = seal.digest[:16]
    adopted: list[dict[str, object]] = []
    repealed: list[dict[str, object]] = []
    for result in tally(ballot):
        if result.adopted is None:
            continue
        proposal = library.index.get(result.adopted)
        if not isinstance(proposal, Proposal):
            raise BallotError(f"question {result.question!r}: {result.adopted!r} is not a "
                              f"proposal with text in the library")
        if proposal.kind == "deletion" and result.rule is not None:
            # carried: adopted (the chain's record) and its rule repealed
            repealed.append({"rule": result.rule, "ballot": ballot.id,
                             "note": f"deleted by {proposal.ref} (question {result.question})"
                                     f" [seal sha256:{short}]"})
        elif not proposal.offers_text:
            raise BallotError(f"question {result.question!r}: {result.adopted!r} is not a "
                              f"proposal with text in the library")
        entry: dict[str, object] = {"proposal": proposal.ref}
        if result.rule:
            if not isinstance(library.index.get(result.rule), Rule):
                raise BallotError(f"question {result.question!r}: rule {result.rule!r} "
                                  f"is not in the library")
            entry["rule"] = result.rule
        entry.update({"ballot": ballot.id, "question": result.question,
                      "note": f"{result.reason} [seal sha256:{short}]",
                      "digest": entry_digest(proposal)})
        voted = ballot.question(result.question).digest_of(proposal.ref)
        if voted is not None and voted != entry["digest"]:
            raise BallotError(f"question {result.question!r}: the text of {proposal.ref} "
                              f"changed after ballot {ballot.id!r} was opened: the votes "
                              f"were for the text as it was (see `rulesbook history "
                              f"{proposal.ref}`); it cannot be adopted")
        adopted.append(entry)
    path = library.root / "editions.yaml"
    text = read_data_text(path)
    records = loads(text, str(path)).data["editions"]
    description = (f"Adopted by ballot {ballot.id} ({ballot.title}), closed "
                   f"{seal.closed_at}, seal sha256:{seal.digest}. "
                   f"{len(adopted)} proposal(s) adopted. {_provenance(ballot, seal)}")
    if signer is not None:
        description += f" Edition adopted and signed by {signer.member}."
    record: dict[str, object] = {
        "id": edition_id,
        "title": title or f"{base.title.split(' (')[0]} — edition {edition_id}",
        "date": date, "rulebook": ballot.rulebook, "base": base.id,
        "previous": record_hash(records[-1]),
        "ballot": ballot.id, "seal": f"sha256:{seal.digest}",
        "description": description,
        "adopted": adopted,
    }
    if repealed:
        record["repealed"] = repealed
    record["texts"] = _texts_in_force(library, record)
    if signer is not None:
        record = sign_edition(record, signer, when)
    return AdoptionPlan(record, base.id, _append_edition(text, record, str(path)))


def _texts_in_force(library: Library, record: Mapping[str, object]) -> dict[str, str]:
    """The digest of every rule in force once ``record`` is adopted (:mod:`.texts`)."""
    from ..editions import consolidate_new
    from ..model import Adoption, Edition

    def entries(name: str) -> list[Mapping[str, object]]:
        value = record.get(name)
        return [e for e in value if isinstance(e, Mapping)] if isinstance(value, list) else []

    edition = Edition(
        str(record["id"]), str(record["title"]), str(record["date"]), str(record["rulebook"]),
        str(record["base"]),
        adopted=tuple(Adoption(str(a["proposal"]), str(a["rule"]) if a.get("rule") else None)
                      for a in entries("adopted")),
        repealed=tuple(str(r["rule"]) for r in entries("repealed")))
    return edition_texts(library, consolidate_new(library, edition).rules)


def _provenance(ballot: Ballot, seal: Seal) -> str:
    """Who signed the votes and the seal, in words (proxy votes named as such)."""
    own = sum(1 for v in ballot.votes if not v.proxy_by)
    proxies: dict[str, list[str]] = {}
    for v in ballot.votes:
        if v.proxy_by:
            proxies.setdefault(v.proxy_by, []).append(f"{v.member} on {v.question}")
    text = f"{own} vote(s) signed by the members themselves"
    for by, items in proxies.items():
        text += f"; {len(items)} entered by proxy by {by} ({', '.join(items)})"
    return text + f"; sealed and signed by {seal.closed_by}."


def _append_edition(text: str, edition: Mapping[str, object], file: str) -> str:
    """The editions file with ``edition`` appended and in force; comments kept when
    the layout allows (else the file is rewritten from its data)."""
    doc = loads(text, file)
    expected = dict(doc.data)
    expected["editions"] = list(doc.data["editions"]) + [edition]
    expected["in_force"] = edition["id"]
    new_text = _textual_append(text, doc, edition)
    if new_text is None or loads(new_text, file).data != expected:
        ordered = {k: expected[k] for k in ("schema_version", "kind", "in_force") if k in expected}
        ordered.update(expected)
        new_text = ("# Published editions of the APCA playing rules (rewritten by "
                    "`rulesbook ballot adopt`).\n"
                    + dump_text(ordered, flow=False))
    problems = schema.validate(loads(new_text, file), "editions")
    if problems:
        raise BallotError("the new edition would not be valid", problems)
    return new_text


def _textual_append(text: str, doc: LoadedYaml, edition: Mapping[str, object]) -> str | None:
    lines = text.splitlines(keepends=True)
    editions_line = next((i for i, ln in enumerate(lines) if re.match(r"editions:\s*$", ln)),
                         None)
    if editions_line is None or not doc.data["editions"]:
        return None
    if any(re.match(r"[A-Za-z_]", ln) for ln in lines[editions_line + 1:]):
        return None  # another top-level key follows the list
    _, col = doc.where(("editions", 0))
    indent = " " * max(col - 3, 0)
    block = dump_text([edition], flow=False)
    block = "".join(indent + ln if ln.strip() else ln for ln in block.splitlines(keepends=True))
    if not text.endswith("\n"):
        text += "\n"
    new_text = text + block
    in_force = dump_text({"in_force": edition["id"]}, width=1000, flow=False, sort_keys=True)
    if re.search(r"^in_force:.*$", new_text, flags=re.MULTILINE):
        new_text = re.sub(r"^in_force:.*\n", lambda _m: in_force, new_text, count=1,
                          flags=re.MULTILINE)
    else:
        new_text = re.sub(r"^(kind:.*\n)", lambda m: m.group(1) + in_force, new_text,
                          count=1, flags=re.MULTILINE)
    return new_text


def adopt_ballot(library: Library, ballot: Ballot, edition_id: str, *,
                 signer: SigningKey, title: str | None = None, date: str | None = None,
                 at: str | None = None) -> AdoptionPlan:
    """Write the next edition, signed by ``signer`` (the chair or secretary), into the
    data folder's editions.yaml (atomically)."""
    path = library.root / "editions.yaml"
    with file_lock(path):
        on_disk = loads(read_data_text(path), str(path)).data
        if ([e.get("id") for e in on_disk.get("editions", ())]
                != [e.id for e in library.editions]
                or on_disk.get("in_force") != library.in_force):
            raise BallotError(f"{path} changed since the rules were loaded (another "
                              f"edition was published); reload and adopt again")
        plan = plan_adoption(library, ballot, edition_id, title=title, date=date,
                             signer=signer, at=at)
        atomic_write_text(path, plan.text)
    return plan
