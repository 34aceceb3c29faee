"""Issue 30: every sequence counted (through transpositions), what is certain,
the question that splits them, the tree; on gaps cut from real games
(tests/data/corpus) with the true sequence known, and on random ones.

The expected counts come from a brute force written here on the engine alone
(``Position.legal_moves`` and ``play``, memoised by position: no bound, no
backward layer, nothing of the gap package).
"""
from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesbook.draughts import Position
from rulesbook.reconstruct.gap import Status, fill_gap, parse_known
from rulesbook.reconstruct.gap import compiled as gap_compiled
from tests.datapaths import REPO

sys.path.insert(0, str(REPO / "bench"))
from gap_cases import english_cases, pool_cases  # noqa: E402 - the bench's corpus cases


def brute_count(start: Position, target: Position, plies: int) -> int:
    """Sequences of ``plies`` legal moves from ``start`` to ``target``: every
    move tried, positions seen again counted once (a table by FEN)."""

    @cache
    def below(fen: str, remaining: int) -> int:
        position = Position.from_fen(fen, start.variant)
        if remaining == 0:
            return 1 if position == target else 0
        return sum(below(position.play(m).fen(), remaining - 1)
                   for m in position.legal_moves())

    return below(start.fen(), plies)


def brute_list(start: Position, target: Position, plies: int) -> list[tuple]:
    out: list[tuple] = []

    def walk(position: Position, prefix: tuple) -> None:
        if len(prefix) == plies:
            if position == target:
                out.append(prefix)
            return
        for move in position.legal_moves():
            walk(position.play(move), (*prefix, move))

    walk(start, ())
    return out


def leaves(branch) -> list[tuple[str, ...]]:
    """The sequences (move texts) of a fully expanded tree."""
    assert branch.children is not None
    if not branch.children:
        return [branch.moves]
    out = [branch.moves] * branch.ending
    for child in branch.children:
        out.extend(branch.moves + rest for rest in leaves(child))
    return out


ENGLISH_6 = english_cases(6, 6)


@pytest.mark.parametrize("case", ENGLISH_6, ids=lambda c: c.name)
def test_the_count_is_the_brute_force_count_on_small_corpus_gaps(case):
    result = fill_gap(case.earlier, case.board, plies=6)
    expected = brute_count(case.earlier, case.board, 6)
    assert result.count == expected == result.count_at_least
    assert result.count == len(result.sequences)  # all listed: fewer than 200
    assert case.truth in result.sequences


@pytest.mark.parametrize("plies", [8, 12])
def test_count_certain_question_and_tree_agree_with_the_list(plies):
    for case in english_cases(plies, 8):
        result = fill_gap(case.earlier, case.board, plies=plies, limit=100_000)
        assert result.count == len(result.sequences) == len(set(result.sequences))
        assert case.truth in result.sequences
        for certain in result.certain:
            known = parse_known(f"{certain.ply}:{certain.move}")
            assert all(known.matches(seq[certain.ply - 1].path) for seq in result.sequences)
        plies_split = {q.ply for q in result.questions}
        assert not plies_split & {c.ply for c in result.certain}
        for question in result.questions:
            assert sum(o.count for o in question.options) == result.count
            for option, text in zip(question.options, question.known, strict=True):
                known = parse_known(text)
                playing = [s for s in result.sequences if known.matches(s[question.ply - 1].path)]
                assert len(playing) == option.count > 0
        if result.questions:  # the most even split first
            worst = [q.options[0].count for q in result.questions]
            assert worst[0] == min(worst)
        assert sorted(leaves(result.tree)) == sorted(result.texts)
        assert result.tree.count == result.count


def ask_until_one(case, plies: int) -> tuple[int, int, object]:
    """Answer each question with the move really played: (first count,
    answers given, the last result)."""
    known: list[str] = []
    result = fill_gap(case.earlier, case.board, plies=plies)
    first = result.count
    while result.count > 1 and result.question is not None:
        q = result.question
        answer = [k for k in q.known
                  if parse_known(k).matches(case.truth[q.ply - 1].path)]
        assert len(answer) == 1, (q, case.truth[q.ply - 1])
        known.append(answer[0])
        result = fill_gap(case.earlier, case.board, plies=plies, known=known)
    return first, len(known), result


@pytest.mark.parametrize("plies", [8, 12, 16])
def test_answering_with_the_true_moves_reaches_the_true_sequence(plies):
    for case in english_cases(plies, 6 if plies < 16 else 3):
        first, answers, result = ask_until_one(case, plies)
        assert result.count == 1 and result.sequences == (case.truth,), case.name
        assert answers <= math.ceil(math.log2(first)) + 2, (case.name, first, answers)


@pytest.mark.skipif(not gap_compiled.AVAILABLE, reason="numba not installed")
@pytest.mark.parametrize("plies", [12, 16])
def test_the_compiled_count_is_the_python_count(plies):
    gap_compiled.warm_up()
    for case in english_cases(plies, 4) + pool_cases(plies, 2):
        fast = fill_gap(case.earlier, case.board, plies=plies, compiled=True)
        slow = fill_gap(case.earlier, case.board, plies=plies, compiled=False)
        assert fast.count == slow.count is not None, case.name
        assert fast.certain == slow.certain and fast.questions == slow.questions
        assert fast.texts == slow.texts


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), plies=st.integers(1, 5),
       variant=st.sampled_from(["pool", "english", "russian", "brazilian"]))
def test_random_gaps_count_as_the_brute_force(seed, plies, variant):
    rng = random.Random(seed)
    position = Position.start(variant)
    for _ in range(rng.randint(0, 24)):
        legal = position.legal_moves()
        if not legal:
            return
        position = position.play(rng.choice(legal))
    earlier = position
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal:
            return
        position = position.play(rng.choice(legal))
    result = fill_gap(earlier, position, plies=plies, compiled=False)
    listed = brute_list(earlier, position, plies)
    assert result.count == len(listed) == brute_count(earlier, position, plies)
    assert sorted(map(str, result.sequences)) == sorted(map(str, listed[:200])) or \
        result.truncated
    for certain in result.certain:
        known = parse_known(f"{certain.ply}:{certain.move}")
        assert all(known.matches(seq[certain.ply - 1].path) for seq in listed)


class StopAfter:
    """Cancels at its ``calls``-th look (the search looks every 1,024
    positions): a stop at the same point of the count whatever the load."""

    def __init__(self, calls: int) -> None:
        self.calls = calls

    def is_set(self) -> bool:
        self.calls -= 1
        return self.calls < 0


def test_a_stopped_search_gives_a_proven_lower_bound():
    case = english_cases(12, 4)[3]  # about 5,700 positions searched
    exact = fill_gap(case.earlier, case.board, plies=12, compiled=False).count
    stopped = fill_gap(case.earlier, case.board, plies=12, compiled=False,
                       cancel=StopAfter(3))
    assert stopped.status is Status.CANCELLED
    assert stopped.count is None  # stopped while counting
    assert len(stopped.sequences) <= stopped.count_at_least <= exact
    data = stopped.to_dict()
    assert data["count"] is None and data["count_at_least"] == stopped.count_at_least


def test_the_command_line_gives_count_certain_and_question():
    case = english_cases(8, 2)[1]
    expected = brute_count(case.earlier, case.board, 8)
    cmd = [sys.executable, "-m", "rulesbook", "reconstruct", "--variant", "english",
           "--from", case.earlier.fen(), "--to", case.board.fen(), "--plies", "8", "--json"]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["count"] == data["count_at_least"] == expected
    for item in data["certain"]:
        assert set(item) >= {"ply", "move"}
    question = data["question"]
    assert set(question) == {"ply", "side", "move_number", "options"}
    assert sum(o["count"] for o in question["options"]) == expected
    assert data["tree"]["count"] == expected
    # the answer, given as a known move, leaves that many
    option = question["options"][-1]
    proc = subprocess.run(cmd + ["--known", f"{question['ply']}:{option['move']}"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert json.loads(proc.stdout)["count"] == option["count"]
