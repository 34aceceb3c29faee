"""The rulings engine: incidents, rulings data, suggest/compare, cases, draw claims,
report and CLI."""
from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from rulesbook.cli import main
from rulesbook.datapath import bundled_data_dir
from rulesbook.draughts import Position
from rulesbook.loading import load_library, validate_folder
from rulesbook.model import Adoption, Edition
from rulesbook.rulings import (
    FactTypeError,
    RulingsError,
    UnknownFactError,
    UnknownIncidentError,
    cases_for_proposal,
    compare,
    count_rules_for,
    draw_claims,
    first_illegal_move,
    get_case,
    incident_from_reconstruction,
    incidents,
    load_cases,
    run_case,
    suggest,
)
from rulesbook.rulings.case_record import case_game
from rulesbook.rulings.errors import GameRecordError
from rulesbook.rulings.quotes import find_quote
from rulesbook.rulings.vocabulary import OUTCOMES

CASE_FILES = sorted((bundled_data_dir() / "cases").glob("*.yaml"))
REQUIRED_INCIDENTS = """illegal_move failure_to_capture incomplete_jump touch_move
arranging_without_notice over_the_angle piece_released king_not_crowned own_piece_removed
time_forfeit both_flags_fallen strong_side_count thirteen_count repetition distraction
spectator_interference leaving_room late_arrival unfinished_game_at_round_end match_tie appeal
unforeseen_dispute""".split()


@pytest.fixture(scope="module")
def library():
    return load_library(bundled_data_dir())


def with_edition(library, *adopted: str):
    """The library plus an edition adopting ``adopted`` proposals on top of the original."""
    ed = Edition("test-ed", "Test edition", "2027-01-01", "apca", base="original",
                 adopted=tuple(Adoption(p) for p in adopted))
    return dataclasses.replace(library, editions=library.editions + (ed,))


# -- data --------------------------------------------------------------------------

def test_catalogue_has_the_required_incidents(library):
    ids = [i.id for i in incidents(library)]
    assert set(REQUIRED_INCIDENTS) <= set(ids)
    for inc in incidents(library):
        assert inc.facts or inc.id in ("unforeseen_dispute", "dispute_with_clocks")
        for fact in inc.facts:
            assert fact.question.endswith("?")


def test_every_incident_is_governed_by_some_rule(library):
    for inc in incidents(library):
        assert compare(library, inc.id).verdicts, inc.id


def test_required_outcome_codes_are_known():
    for code in ("retract_and_replay", "restart_from_move", "move_stands", "caution",
                 "caution_then_forfeit", "forfeit", "draw", "referee_options",
                 "void_and_replay", "adjudicate", "no_penalty"):
        assert code in OUTCOMES


def test_shipped_data_validates():
    assert validate_folder(bundled_data_dir()) == []


def test_corrupted_rulings_are_reported_at_their_line(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(bundled_data_dir(), data, ignore=shutil.ignore_patterns("__pycache__"))
    book = data / "apca" / "rulebook.yaml"
    lines = book.read_text(encoding="utf-8").split("\n")
    when_line = next(i for i, line in enumerate(lines)
                     if "when: {discovered: [at_once, later_in_game], repeated: false, "
                     "reconstructible: true}" in line)
    lines[when_line] = lines[when_line].replace("repeated", "repeatd")
    outcome_line = next(i for i in range(when_line, len(lines)) if "outcome:" in lines[i])
    lines[outcome_line] = lines[outcome_line].replace("retract_and_replay", "retract_and_replai")
    book.write_text("\n".join(lines), encoding="utf-8")
    problems = validate_folder(data)
    messages = {(p.file, p.line): p.message for p in problems}
    assert ("apca/rulebook.yaml", when_line + 1) in messages
    assert "unknown fact 'repeatd'" in messages[("apca/rulebook.yaml", when_line + 1)]
    assert "did you mean 'repeated'" in messages[("apca/rulebook.yaml", when_line + 1)]
    msg = messages[("apca/rulebook.yaml", outcome_line + 1)]
    assert "unknown outcome 'retract_and_replai'" in msg and "did you mean 'retract_and_replay'" in msg
    # the quote given for the condition now names a fact the ruling no longer has
    assert any("condition_quotes names 'repeated'" in p.message for p in problems)
    assert len(problems) == 3


def test_wrong_condition_type_and_unknown_incident_are_reported(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(bundled_data_dir(), data, ignore=shutil.ignore_patterns("__pycache__"))
    book = data / "standard-laws" / "rulebook.yaml"
    text = book.read_text(encoding="utf-8")
    text = text.replace("incident: king_not_crowned", "incident: king_not_crownd", 1)
    text = text.replace("when: {offense_number: {max: 1}}", "when: {offense_number: yes}", 1)
    book.write_text(text, encoding="utf-8")
    found = "\n".join(str(p) for p in validate_folder(data))
    assert "unknown incident 'king_not_crownd' (did you mean 'king_not_crowned'?)" in found
    assert "fact 'offense_number' is a number" in found


# -- cases ---------------------------------------------------------------------------

def test_there_are_enough_cases(library):
    assert len(load_cases(library)) >= 25 and len(CASE_FILES) >= 25


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_case_outcomes(library, path):
    case = next(c for c in load_cases(library) if Path(c.file).name == path.name)
    result = run_case(library, case)
    assert result.passed, result.mismatches


def test_committee_view_of_a_proposal(library):
    diffs = {d.case.id: d for d in cases_for_proposal(library, "apca:24B")}
    assert "lone-king-on-long-line" in diffs
    assert diffs["lone-king-on-long-line"].original == "play_on"
    assert diffs["lone-king-on-long-line"].proposed == "draw"
    assert "thirteen-count-reached" not in diffs
    assert "illegal-move-cannot-be-reconstructed" in {
        d.case.id for d in cases_for_proposal(library, "10B")}


# -- suggest / compare ---------------------------------------------------------------

EVERYDAY = [
    # Rule 10's proper move is made in the position put back (issue 31): the record
    # check establishes that it can be
    ("illegal_move", {"discovered": "at_once", "repeated": False, "reconstructible": True}),
    ("failure_to_capture", {"discovered": "at_once", "repeated": False,
                            "reconstructible": True}),
    ("touch_move", {"piece_playable": True, "refuses_to_move": False, "notice_given": False,
                    "moved_other_piece": False}),
    ("king_not_crowned", {"opponent_moved": True}),
    ("thirteen_count", {"three_kings_vs_one": True, "lone_king_moves": 13}),
    ("distraction", {"warned": True}),
]


@pytest.mark.parametrize("incident,facts", EVERYDAY)
def test_everyday_suggestions_show_the_text_and_its_words(library, incident, facts):
    result = suggest(library, incident, facts)
    best = result.best
    assert best is not None and best.applies
    assert best.text == library.index[best.ref].text
    assert set(best.as_json()) == {"ref", "rulebook", "outcome", "options", "summary",
                                   "matched_facts", "unknown_facts", "text", "quotes", "basis",
                                   "suggestion"}
    assert best.as_json()["basis"] in ("stated", "inferred") and best.quotes
    assert all(find_quote(best.text, q) for q in best.quotes)


def test_most_specific_first_and_unknown_facts(library):
    # Rule 12: a touch after the pieces are arranged (no notice), of a piece not playable
    result = suggest(library, "touch_move", {"piece_playable": False, "notice_given": False})
    assert [r.outcome for r in result.rulings] == ["caution", "forfeit"]
    assert all(not r.applies and r.unknown_facts == ("offense_number",) for r in result.rulings)
    assert [q.id for q in result.questions] == ["offense_number"]
    assert suggest(library, "touch_move", {"piece_playable": False, "notice_given": False,
                                           "offense_number": 2}).best.outcome == "forfeit"
    # with notice the touch is arranging (Rule 11: "UPON GIVING SATISFACTORY NOTICE")
    noticed = suggest(library, "touch_move", {"piece_playable": True, "notice_given": True})
    assert noticed.best.ref == "apca:11" and noticed.best.outcome == "no_penalty"


def test_other_rulebooks_are_guidance_when_no_rule_in_force_applies(library):
    result = suggest(library, "both_flags_fallen", {"first_flag_claimed": False})
    assert not result.binding and result.best.ref == "acf-guide:15"
    assert result.best.outcome == "draw"


def test_adopted_proposal_replaces_the_original_rulings(library):
    lib = with_edition(library, "apca:10B")
    facts = {"discovered": "later_in_game", "players_agree": False, "reconstructible": False}
    # Rule 10 makes "A PROPER OR LEGAL MOVE" only where the position can be put back
    # (issue 31): with reconstructible=no only Rule 26's general win decides
    original = suggest(lib, "illegal_move", {**facts, "repeated": False}, "original")
    assert {r.ref for r in original.rulings} == {"apca:26"}
    back = suggest(lib, "illegal_move", {**facts, "repeated": False, "reconstructible": True},
                   "original")
    assert back.best.ref == "apca:10" and back.best.outcome == "retract_and_replay"
    amended = suggest(lib, "illegal_move", facts, "test-ed")
    # 10B replaces Rule 10; Rule 26's general win still stands beside it, ranked after
    assert {r.ref for r in amended.rulings} == {"apca:10B", "apca:26"}
    assert amended.rulings[-1].ref == "apca:26"
    assert amended.best.outcome == "referee_options"
    assert amended.best.options == ("continue", "draw", "coin_toss")
    assert amended.best.text == library.index["apca:10B"].text


def test_compare_marks_disagreements(library):
    comp = compare(library, "illegal_move", {"discovered": "later_in_game", "repeated": False,
                                             "players_agree": False, "reconstructible": True})
    assert comp.baseline == "apca:10"
    assert comp.verdict("standard-laws:10").differs is True
    assert comp.verdict("apca:10A").differs is False
    assert not comp.agree
    refs = [v.ref for v in comp.verdicts]
    assert refs.index("apca:10") < refs.index("standard-laws:10") < refs.index("acf-guide:4")
    endorsement = compare(library, "leaving_room", {"sufficient_reason": False,
                                                    "opponent_consent": False}).verdict("apca:30A")
    assert endorsement.endorses == "apca:30" and endorsement.outcome == "forfeit"


# -- errors --------------------------------------------------------------------------

def test_unknown_incident(library):
    with pytest.raises(UnknownIncidentError) as err:
        suggest(library, "ilegal_move")
    assert isinstance(err.value, RulingsError) and isinstance(err.value, ValueError)
    assert "did you mean 'illegal_move'" in str(err.value) and "touch_move" in str(err.value)


def test_unknown_fact(library):
    with pytest.raises(UnknownFactError) as err:
        suggest(library, "touch_move", {"piece_playble": True})
    assert "piece_playable (yes or no)" in str(err.value)


@pytest.mark.parametrize("incident,facts,accepted", [
    ("touch_move", {"piece_playable": "perhaps"}, "yes or no"),
    ("late_arrival", {"minutes_late": "late"}, "a number"),
    ("late_arrival", {"minutes_late": True}, "a number"),
    ("illegal_move", {"discovered": "yesterday"}, "at_once, later_in_game, after_game"),
])
def test_facts_of_the_wrong_type(library, incident, facts, accepted):
    with pytest.raises(FactTypeError) as err:
        suggest(library, incident, facts)
    assert accepted in str(err.value)


# -- draw claims / games -------------------------------------------------------------

def test_draw_claim_on_the_long_line(library):
    case = get_case(library, "lone-king-on-long-line")
    record = case_game({"fen": case.fen, "moves": case.moves})
    game = record.game
    original = {c.incident: c for c in draw_claims(library, game.start, game.moves,
                                                   case.claim_ply)}
    thirteen = original["thirteen_count"]
    assert thirteen.applicable and not thirteen.holds
    assert (thirteen.moves, thirteen.limit, thirteen.remaining) == (6, 13, 7)
    assert thirteen.ref == "apca:28"
    assert thirteen.facts == {k: case.facts[k] for k in thirteen.facts}
    assert thirteen.suggestions.best.outcome == "play_on"
    assert not original["repetition"].applicable  # no repetition rule in the original
    lib = with_edition(library, "apca:24B")
    rules, _ = count_rules_for(lib, "test-ed")
    assert rules.long_line_limit == 6
    amended = {c.incident: c for c in draw_claims(lib, game.start, game.moves, case.claim_ply,
                                                  "test-ed")}
    assert amended["thirteen_count"].holds and amended["thirteen_count"].name == "long line"
    assert amended["thirteen_count"].suggestions.best.outcome == "draw"


def test_stronger_side_counts_from_the_notice(library):
    start = Position.from_fen("B:WK32:BK1,K3", "pool")
    moves = ["1-5", "32-28", "5-1", "28-32"] * 10  # 40 plies: Black (stronger) made 20 moves
    claims = {c.incident: c for c in draw_claims(library, start, moves, 40)}
    assert claims["strong_side_count"].moves == 20  # from the start of the kings' shuffle
    after_notice = {c.incident: c for c in draw_claims(library, start, moves, 40,
                                                       notice_ply=30)}
    claim = after_notice["strong_side_count"]
    assert claim.moves == 5 and claim.remaining == 25 and not claim.holds
    assert "since the notice given after ply 30" in claim.explanation
    with pytest.raises(GameRecordError):
        draw_claims(library, start, moves, 40, notice_ply=41)


PDN_FAILURE_TO_CAPTURE = """[Event "Club night"]
[GameType "23"]
1. 11-15 22-18 2. 9-14 23-19 *
"""


def test_first_illegal_move_becomes_an_incident(library):
    found = first_illegal_move(library, PDN_FAILURE_TO_CAPTURE)
    assert found is not None and found.ply == 3
    assert found.incident == "failure_to_capture" and found.facts["discovered"] == "later_in_game"
    assert suggest(library, found.incident, found.facts).rulings


def test_incident_from_reconstruction_shape(library):
    got = incident_from_reconstruction("incomplete_jump", {"discovered": "at_once",
                                                           "repeated": "no"}, library)
    assert got.facts == {"discovered": "at_once", "repeated": False}
    with pytest.raises(UnknownIncidentError):
        incident_from_reconstruction("nonsense", {}, library)


# -- report ---------------------------------------------------------------------------

def test_report_is_standalone_escaped_html(library, tmp_path):
    from rulesbook.report import report_html, write_report

    case = dataclasses.replace(get_case(library, "illegal-move-found-four-moves-later"),
                               decision="<script>alert(1)</script> *not bold*")
    html_text = report_html(library, case)
    assert html_text.startswith("<!DOCTYPE html>") and "<svg" in html_text
    assert "<script>" not in html_text and "&lt;script&gt;" in html_text
    assert "<em>not bold</em>" not in html_text
    assert "(disputed)" in html_text and "A FALSE, IMPROPER OR ILLEGAL MOVE" in html_text
    # outcomes in the words a player reads, not as codes
    assert "The move is taken back and a legal move is made instead" in html_text
    assert "retract_and_replay" not in html_text
    out = write_report(library, case, tmp_path / "r.html")
    assert out.read_text(encoding="utf-8") == html_text


def test_diagram_colours_and_kings():
    from rulesbook.diagram import BUFF, GREEN, RED, WHITE, board_svg
    from rulesbook.draughts import Position

    svg = board_svg(Position.from_fen("W:WK22,23:BK3,12"), numbers=True)
    assert svg.count("<circle") == 4 + 2  # 4 pieces + 2 king rings
    for colour in (GREEN, BUFF, RED, WHITE):
        assert colour in svg
    assert ">29<" in svg and ">K<" in svg
    assert ">29<" not in board_svg(None, numbers=False)


# -- CLI ------------------------------------------------------------------------------

def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_incidents_and_rulings(capsys):
    code, out, _ = run(capsys, "incidents", "--json")
    assert code == 0 and {i["id"] for i in json.loads(out)} >= set(REQUIRED_INCIDENTS)
    code, out, _ = run(capsys, "rulings", "touch_move", "--fact", "piece_playable=yes",
                       "--fact", "refuses_to_move=no", "--json")
    data = json.loads(out)
    assert code == 0 and data[0]["ref"] == "apca:12" and data[0]["outcome"] == "must_move_piece"
    assert data[0]["matched_facts"] == {"piece_playable": True, "refuses_to_move": False}
    code, out, _ = run(capsys, "rulings", "thirteen_count", "--fact", "three_kings_vs_one=yes",
                       "--fact", "lone_king_moves=6", "--fact", "long_line=yes", "--compare",
                       "--json")
    data = {d["ref"]: d for d in json.loads(out)}
    assert data["apca:24B"]["outcome"] == "draw" and data["apca:24B"]["differs"] is True


@pytest.mark.parametrize("argv,needle", [
    (["rulings", "no_such"], "unknown incident"),
    (["rulings", "touch_move", "--fact", "colour=red"], "has no fact 'colour'"),
    (["rulings", "touch_move", "--fact", "piece_playable"], "KEY=VALUE"),
    (["rulings", "late_arrival", "--fact", "minutes_late=soon"], "must be a number"),
    (["rulings", "touch_move", "--edition", "nope"], "no edition"),
    (["rulings", "--from-game", "/nonexistent.pdn"], "no such file"),
    (["cases", "--proposal", "apca:10"], "is a rule, not a proposal"),
    (["report", "/nonexistent.yaml", "-o", "/tmp/x.html"], "cannot read"),
])
def test_cli_errors_exit_2_without_traceback(capsys, argv, needle):
    code, _, err = run(capsys, *argv)
    assert code == 2 and needle in err and "Traceback" not in err


def test_cli_cases_report_and_from_game(capsys, tmp_path):
    code, out, _ = run(capsys, "cases", "--json")
    assert code == 0 and all(c["passed"] for c in json.loads(out))
    code, out, _ = run(capsys, "cases", "--proposal", "apca:24B", "--json")
    assert "lone-king-on-long-line" in {d["case"] for d in json.loads(out)}
    target = tmp_path / "report.html"
    case = bundled_data_dir() / "cases" / "king-not-crowned-before-opponent-moved.yaml"
    code, _, _ = run(capsys, "report", str(case), "-o", str(target))
    assert code == 0 and "<svg" in target.read_text(encoding="utf-8")
    pdn = tmp_path / "g.pdn"
    pdn.write_text(PDN_FAILURE_TO_CAPTURE, encoding="utf-8")
    code, out, _ = run(capsys, "rulings", "--from-game", str(pdn), "--json")
    assert code == 0 and json.loads(out)[0]["ref"] == "apca:10"
    code, out, _ = run(capsys, "rulings", "--from-game", str(pdn), "--ply", "2", "--json")
    claims = {c["incident"]: c for c in json.loads(out)}
    assert set(claims) == {"thirteen_count", "strong_side_count", "repetition"}
    assert claims["thirteen_count"]["holds"] is False


def test_cli_data_option(capsys, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(bundled_data_dir(), data, ignore=shutil.ignore_patterns("__pycache__"))
    (data / "incidents.yaml").write_text("schema_version: 1\nkind: incidents\nincidents: []\n",
                                         encoding="utf-8")
    code, _, err = run(capsys, "--data", str(data), "incidents")
    assert code == 2 and "incidents.yaml" in err


def test_from_game_uses_the_reconstruction(capsys, tmp_path):
    record = tmp_path / "planted.txt"
    record.write_text("11-15 23-19 8-11 22-17 15-18 19-15 9-13\n", encoding="utf-8")
    code, out, _ = run(capsys, "rulings", "--from-game", str(record), "--json")
    data = json.loads(out)
    assert code == 0 and data[0]["ref"] == "apca:10"
    assert data[0]["outcome"] == "retract_and_replay"
    code, out, _ = run(capsys, "rulings", "--from-game", str(record))
    # the incident's title, not its id (issue 31, Must 6)
    assert "Ply 7 (9-13)" in out and "10x19" in out and "Failure to capture" in out
    assert "failure_to_capture" not in out
