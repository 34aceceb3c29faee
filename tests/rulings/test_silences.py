"""Where the rules are silent: the combinations no rule in force decides, conflicts
between rules in force, and the silences a proposal fills. Expected silences are
read from the texts: e.g. the original rules have no repetition rule at all (it is
in 23B and the Spanish rules only), and Rule 34 speaks only of the tournament
committee's decisions."""
from __future__ import annotations

import dataclasses
import json

from rulesbook.cli import main
from rulesbook.model import Adoption, Edition
from rulesbook.rulings.silences import fact_values, fills, open_proposals, silences
from rulesbook.rulings.vocabulary import outcome_words


def with_edition(library, *adopted: Adoption):
    ed = Edition("test-ed", "Test edition", "2027-01-01", "apca", base="original",
                 adopted=tuple(adopted))
    return dataclasses.replace(library, editions=library.editions + (ed,))


def by_incident(found):
    out = {}
    for s in found:
        out.setdefault(s.incident, []).append(s)
    return out


def test_thresholds_give_both_sides(library):
    from rulesbook.rulings import get_incident

    inc = get_incident(library, "thirteen_count")
    lone = next(f for f in inc.facts if f.id == "lone_king_moves")
    # Rule 28 counts to thirteen (max 12 / min 13), 24B to six on the long line (max 5 / min 6)
    assert {5, 6, 12, 13} <= set(fact_values(library, inc, lone))
    assert fact_values(library, inc, next(f for f in inc.facts if f.type == "yes/no")) == [
        True, False]


def test_silences_of_the_original_rules(library):
    found = by_incident([s for s in silences(library, "original") if not s.conflict])
    # no rule of the original addresses these at all
    for incident in ("repetition", "both_flags_fallen", "late_arrival", "dispute_with_clocks",
                     "unforeseen_dispute"):
        assert [s.facts for s in found[incident]] == [{}], incident
        assert found[incident][0].rules_considered == ()
    # Rule 34: "THE DECISION OF THE TOURNAMENT COMMITTEE IS FINAL" - nothing on the others
    appeal = found["appeal"]
    assert {s.facts["decision_by"] for s in appeal} == {"referee", "tournament_director"}
    assert all(s.rules_considered == ("apca:34",) for s in appeal)
    # Rule 9 sets clock times; a game without clocks has no time limit in the original
    assert {"clocks_in_use": False, "resigned_first": False} in [
        s.facts for s in found["time_forfeit"]]
    # Rule 12 decides every touch, Rule 11 every touch with notice: no silence
    assert "touch_move" not in found and "arranging_without_notice" not in found
    # two specific rules in force never decide the same facts differently here; the
    # conflicts are Rule 26's general win against Rule 10, 27 against 28 (issue 31)
    # (the edition's own rules: the English rulebooks' conflicts are marked with their
    # variant, tests/rulings/test_silences_variants.py)
    kinds = {str(s.kind) for s in silences(library, "original") if s.conflict
             and not s.variant}
    assert "in_force" not in kinds and {"general", "same_position"} <= kinds


def test_json_contract(library, capsys):
    assert main(["silences", "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert entries and all(set(e) >= {"incident", "facts", "rules_considered"} for e in entries)
    # a conflict names its kind, both decisions and both quotes; a silence what the
    # other rulebooks say (issue 31)
    assert all(set(e) >= {"conflict", "kind", "decisions", "quotes"} for e in entries
               if "conflict" in e)
    assert all("guidance" in e for e in entries if "conflict" not in e)
    assert main(["silences", "--edition", "original"]) == 0
    out = capsys.readouterr().out
    assert " silences, " in out and "\nRepetition of position - rules considered" in out
    assert main(["silences", "--edition", "nonsense"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no edition 'nonsense'" in err


def test_two_rules_in_force_that_disagree_are_a_conflict(library):
    # 9A ("have 20 minutes to finish that game when one player complains about too much
    # time is being used") put in place of Rule 9, while Rule 8 still says "ANY APPARENT
    # DELAY ... SHOULD BE CALLED TO THE ATTENTION OF THE REFEREE": on a complaint, 8 leaves
    # it to the referee and 9A sets 20-minute clocks. (13B in place of Rule 12 no longer
    # clashes with Rule 11: 13B says nothing of notice, see test_audit17.)
    lib = with_edition(library, Adoption("apca:9A", "apca:9"))
    clashes = [s for s in silences(lib, "test-ed") if s.conflict and str(s.kind) == "in_force"]
    slow = [s for s in clashes if s.incident == "slow_play_complaint"]
    assert slow and all(set(s.conflict) == {"apca:8", "apca:9A"} for s in slow)
    assert slow[0].decisions == {"apca:8": "referee_decides", "apca:9A": "clocks_20_minutes"}
    assert slow[0].as_json()["conflict"] == ["apca:8", "apca:9A"]


def test_proposals_fill_silences(library):
    # 10C: "discovered during the game or immediately after, the game is restarted"
    filled = fills(library, "apca:10C", "original")
    after = [f for f in filled if f.silence.incident == "illegal_move"]
    assert after and after[0].silence.facts["discovered"] == "after_game"
    assert after[0].outcomes == ("restart_from_move",)
    # 11B: "the clocks will immediately be stopped"
    (clock,) = fills(library, "apca:11B", "original")
    assert clock.silence.incident == "dispute_with_clocks" and clock.outcomes == ("stop_clocks",)
    # 30B decides the tournament director's decision, not the referee's
    appeal = [f for f in fills(library, "apca:30B", "original")]
    assert [f.silence.facts["decision_by"] for f in appeal] == ["tournament_director"]
    # 23B's repetition is part of the stronger side's count ("If during these 30 moves,
    # ... the same position is encountered 3 times"): it settles the silence only partly
    rep = [f for f in fills(library, "apca:23B", "original") if f.silence.incident == "repetition"]
    assert rep and rep[0].partly is True and set(rep[0].outcomes) == {"draw", "play_on"}
    assert "apca:10C" in open_proposals(library, "original")


def test_adopting_a_proposal_removes_its_silence(library):
    lib = with_edition(library, Adoption("apca:30B", "apca:34"))
    before = {(s.incident, tuple(sorted(s.facts.items()))) for s in silences(lib, "original")}
    after = {(s.incident, tuple(sorted(s.facts.items()))) for s in silences(lib, "test-ed")}
    assert ("appeal", (("decision_by", "tournament_director"),)) in before
    assert ("appeal", (("decision_by", "tournament_director"),)) not in after


def test_cli_silences_a_proposal_fills(capsys):
    assert main(["silences", "--proposal", "11B", "--json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert entry["incident"] == "dispute_with_clocks" and entry["outcomes"] == ["stop_clocks"]
    assert main(["silences", "--proposal", "apca:10"]) == 2  # a rule, not a proposal
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a rule, not a proposal" in err
    assert main(["silences", "--proposal", "apca:99Z"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


# -- issue 31: conflicts, each with both quotes ------------------------------------------

def _conflicts(found, kind):
    return [s for s in found if s.kind is not None and str(s.kind) == kind]


def test_rule_26_the_general_win_contradicts_rule_10s_remedy(library):
    # Rule 26: "A “WIN” GAMES OCCURS WHEN ANY OF THE STANDARD RULES ARE VIOLATED";
    # Rule 10: "A PROPER OR LEGAL MOVE IS MADE" (forfeit only for one who continues)
    found = silences(library, "original", "illegal_move")
    general = _conflicts(found, "general")
    assert general and all(set(s.conflict) == {"apca:10", "apca:26"} for s in general)
    first = general[0]
    assert first.decisions == {"apca:10": "retract_and_replay", "apca:26": "forfeit"}
    assert "ANY OF THE STANDARD RULES ARE VIOLATED" in first.quotes["apca:26"]
    assert "A PROPER OR LEGAL MOVE IS MADE" in first.quotes["apca:10"]
    # the specific rules' silence stays a silence: a move that cannot be put back
    silent = [s for s in found if not s.conflict and s.facts.get("reconstructible") is False]
    assert silent and all(s.general == ("apca:26",) for s in silent)


def test_rules_27_and_28_decide_three_kings_against_one_differently(library):
    # 28: "THE LONE KING MUST BE CAUGHT BEFORE THE PLAYER WITH THE LONE KING COUNTS
    # THIRTEEN"; 27: "WITHIN THIRTY MOVES": the same position, two counts
    found = _conflicts(silences(library, "original", "thirteen_count"), "same_position")
    assert len(found) == 1
    (clash,) = found
    assert clash.other_incident == "strong_side_count"
    assert clash.decisions == {"apca:27": "play_on", "apca:28": "draw"}
    assert "COUNTS THIRTEEN" in clash.quotes["apca:28"]
    assert clash.facts["three_kings_vs_one"] is True and clash.facts["lone_king_moves"] == 13


def test_13a_and_29a_would_conflict_if_both_adopted(library):
    # 13A: "the angle of a square that a piece is said to have gone over shall have no
    # bearing"; 29A: "moving a piece over the angle of a square" is a distraction
    found = _conflicts(silences(library, "original", "over_the_angle"), "if_adopted")
    pair = [s for s in found if set(s.conflict) == {"apca:13A", "apca:29A"}]
    assert pair and pair[0].decisions == {"apca:13A": "no_penalty", "apca:29A": "caution"}
    assert set(pair[0].quotes) == {"apca:13A", "apca:29A"}


def test_attack_silences_no_longer_reports_zero_conflicts(tmp_path):
    import os
    import subprocess
    import sys

    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "home")}
    env.pop("RULESBOOK_DATA", None)
    proc = subprocess.run([sys.executable, "-m", "rulesbook", "silences"], capture_output=True,
                          text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    head = proc.stdout.splitlines()[0]
    assert not head.endswith(" 0 conflict(s)"), head
    assert "a general rule in force contradicts the specific remedy" in proc.stdout
    assert "apca:26: \u201cA \u201cWIN\u201d GAMES OCCURS" in proc.stdout
    # where the APCA rules are silent, what the Standard Laws and the ACF guide say
    # (the outcomes in words, issue 31 Must 6)
    assert f"standard-laws:10 says: {outcome_words('forfeit')}" in proc.stdout
    assert f"acf-guide:4 says: {outcome_words('void_and_replay')}" in proc.stdout
