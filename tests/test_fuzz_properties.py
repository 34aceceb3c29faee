"""Property-based fuzzing of every reader: whatever the input, the only exceptions
that escape are the project's own documented ones, with a message."""
from __future__ import annotations

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesbook.ballots import BallotError, parse_ballot
from rulesbook.draughts import DraughtsError, Position
from rulesbook.draughts.pdn import iter_games
from rulesbook.errors import DataFileError, RulesbookError
from rulesbook.reconstruct.case import load_case
from rulesbook.yamlio import loads

FAST = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
PDN_ALPHABET = st.sampled_from(list("0123456789-x:.{}()[]\"*/ \n%;!?$KWBabcdefgh") +
                               ["1-0", "0-1", "1/2-1/2", "[FEN \"", "[GameType \"25\"]", "\r"])
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10, 100), st.text(max_size=12),
                    st.sampled_from(["apca:10", "apca:10B", "A", "ballot", "open", "irv", "10"]))
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["schema_version", "kind", "id", "title", "status",
                                     "method", "threshold", "quorum", "roll", "questions",
                                     "votes", "member", "question", "ranking", "options",
                                     "rule", "members", "record", "board", "start"]),
                    inner, max_size=6)), max_leaves=20)


def documented(exc: BaseException) -> bool:
    return isinstance(exc, ValueError) and type(exc).__module__.startswith("rulesbook") \
        and bool(str(exc).strip())


@FAST
@given(st.text(max_size=300))
def test_yaml_reader_refuses_only_with_data_file_errors(text):
    try:
        loads(text, "fuzz.yaml")
    except DataFileError as exc:
        assert str(exc).startswith("fuzz.yaml")


@FAST
@given(st.text(alphabet=st.sampled_from(list("BWK:,.-0123456789abcdefgh x")), max_size=60),
       st.sampled_from(["pool", "english", "russian", "brazilian"]))
def test_fen_reader(text, variant):
    try:
        position = Position.from_fen(text, variant)
    except DraughtsError as exc:
        assert str(exc)
    else:
        assert Position.from_fen(position.fen(), variant) == position


@FAST
@given(st.text(alphabet=st.sampled_from(list("0123456789-x: abcdefghK")), max_size=20))
def test_move_text_parser(text):
    for fen in ("B:W21-32:B1-12", "W:WK29:B10,11,22,24"):
        position = Position.from_fen(fen, "pool")
        try:
            move = position.parse_move(text)
        except DraughtsError as exc:
            assert documented(exc)
        else:
            assert move in position.legal_moves()


@FAST
@given(st.lists(PDN_ALPHABET, max_size=200).map("".join))
def test_pdn_reader_never_raises(text):
    for game in iter_games(text, variant="pool"):
        game.mainline_moves()
        for error in game.errors:
            assert error.line >= 1 and error.message


@FAST
@given(documents)
def test_ballot_reader(document):
    text = yaml.safe_dump(document)
    try:
        parse_ballot(text, "fuzz-ballot.yaml")
    except BallotError as exc:
        assert str(exc)


@FAST
@given(documents)
def test_dispute_case_reader(tmp_path_factory, document):
    path = tmp_path_factory.mktemp("case") / "case.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    try:
        load_case(path)
    except RulesbookError as exc:
        assert documented(exc)
