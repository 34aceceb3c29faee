"""The count limits come from the rulings data, one source of truth: the engine
(``rulesbook/draughts``) names no rule or proposal, and the limits built from the
data are those the rules and proposals state in their own words."""
from __future__ import annotations

import dataclasses
import re

from rulesbook.draughts import CountRules
from rulesbook.model import Adoption, Edition
from rulesbook.rulings import count_rules_for
from tests.datapaths import REPO

#: the number words the count rules use (English; "thirty-eight" is read as 30 + 8)
WORDS = {"one": 1, "two": 2, "six": 6, "eight": 8, "thirteen": 13, "thirty": 30,
         "forty": 40}


def number(words: str) -> int:
    words = words.lower()
    if words.isdigit():
        return int(words)
    return sum(WORDS[part] for part in words.split("-"))


def said(text: str, pattern: str) -> int:
    """The number in ``text`` that ``pattern`` (one group) finds, exactly once."""
    found = re.findall(pattern, text, flags=re.IGNORECASE)
    assert len(found) == 1, (pattern, found)
    return number(found[0])


def with_edition(library, *adopted: str):
    ed = Edition("test-ed", "Test edition", "2027-01-01", "apca", base="original",
                 adopted=tuple(Adoption(p) for p in adopted))
    return dataclasses.replace(library, editions=library.editions + (ed,))


def proposal_text(library, prop_id: str) -> str:
    return next(p.text for p in library.rulebook("apca").proposals if p.id == prop_id)


def test_the_engine_names_no_rule_or_proposal():
    words = re.compile(r"apca|rule_|amendment|standard[_ ]laws|\b\d{1,2}[A-F]\b|rule \d",
                       re.IGNORECASE)
    planted = "    def amendment_24b(cls): ...  # rule 28 with 24B\n"
    assert len(words.findall(planted)) == 3
    found = []
    for path in sorted((REPO / "rulesbook" / "draughts").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if words.search(line):
                found.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_original_counts_are_rules_27_and_28_in_their_own_words(library):
    book = library.rulebook("apca")
    r27, r28 = book.rule("27").text, book.rule("28").text
    rules, sources = count_rules_for(library, "original")
    assert rules == CountRules(
        three_vs_one_limit=said(r28, r"king counts (\w+)"),
        strong_side_limit=said(r27, r"within (\w+) moves or the game"),
        strong_side_extension=said(r27, r"within (\w+) moves he is allowed"),
    )
    assert (rules.three_vs_one_limit, rules.strong_side_limit,
            rules.strong_side_extension) == (13, 30, 8)
    assert sources["three_vs_one_limit"] == "apca:28"
    assert sources["strong_side_limit"] == "apca:27"


def test_proposals_24b_and_27a_set_the_counts_they_state(library):
    text_24b = proposal_text(library, "24B")
    rules, _ = count_rules_for(with_edition(library, "apca:24B"), "test-ed")
    assert rules.long_line_limit == said(text_24b, r"caught in (\w+) moves")
    assert rules.three_vs_one_limit == said(text_24b, r"king counts (\w+) \(")
    text_27a = proposal_text(library, "27A")
    rules, sources = count_rules_for(with_edition(library, "apca:27A"), "test-ed")
    assert rules.strong_side_limit == said(text_27a, r"within ([\w-]+) moves") == 38
    assert rules.king_weight == said(text_27a, r"king shall equal (\w+) point")
    assert rules.man_weight == said(text_27a, r"single piece shall equal (\w+) point")
    assert rules.strong_side_extension == 0  # 27A gives no extension
    assert sources["strong_side_limit"] == "apca:27A"


def test_a_count_no_rule_sets_is_off(library):
    rules, sources = count_rules_for(library, "original")
    assert rules.repetition_limit is None and "repetition_limit" not in sources
    assert rules.long_line_limit is None
