"""Issue #14, broken and hostile input, round two: every reproduction of the
issue, each of which failed on main before the fix.

Expected values come from the issue's text and from the rules (a legal game
stays legal with a BOM; ``1-0`` etc.), never from this program's output.
"""
from __future__ import annotations

import json
import os
import re
import resource
import stat
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from rulesbook import storage
from rulesbook.cli import main
from rulesbook.datapath import bundled_data_dir
from rulesbook.draughts import pdn_syntax
from rulesbook.draughts.pdn import iter_games
from rulesbook.storage import DurabilityWarning, SaveError, atomic_write_text, file_lock
from rulesbook.textio import decode_bytes, visible_controls

MEMORY_LIMIT = 1536 * 1024 * 1024  # 1.5 GiB of address space for a child

#: A legal opening (the "Old Fourteenth" begins 11-15 23-19 8-11 22-17).
LEGAL = '[Event "club"]\n[Black "Ann"]\n[White "Bob"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n'
#: Black must take 15x24 after 11-15 22-18 15-19?? no: after 11-15 23-19 8-11 22-17
#: 15-18 19-15, Black's 9-13 ignores the capture 10x19 (Rule 10's failure to capture).
ILLEGAL = ('[Event "two"]\n\n1. 11-15 23-19 2. 8-11 22-17 3. 15-18 19-15 4. 9-13 *\n')


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def limited():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_child(*argv, timeout=120):
    """The CLI in a child process with 1.5 GiB of address space (a hang guard,
    not a timing assertion: main took minutes or was killed on these inputs)."""
    return subprocess.run([sys.executable, "-m", "rulesbook", *map(str, argv)],
                          capture_output=True, text=True, timeout=timeout, preexec_fn=limited)


def one_line_error(err: str) -> bool:
    """One line of failure on stderr (decoding warnings and the record errors a
    command reports game by game, ``FILE: game N: ...``, are not failures)."""
    lines = [line for line in err.splitlines() if line.strip()
             and ": warning: " not in line and not re.search(r": game \d+: ", line)]
    return "Traceback" not in err and len(lines) == 1


@pytest.fixture
def open_ballot_file(tmp_path, library, data_copy, monkeypatch) -> Path:
    """An open ballot; every member has a signing key (votes are signed, issue 15)."""
    from rulesbook.ballots import build_ballot, load_registry, save_ballot
    from tests.ballots.helpers import make_keys

    monkeypatch.setenv("RULESBOOK_CONFIG", str(tmp_path / "config"))
    monkeypatch.setenv("RULESBOOK_DATA", str(data_copy))
    keys = make_keys(data_copy)
    path = tmp_path / "ballot.yaml"
    save_ballot(path, build_ballot(library, "test-ballot", method="irv", quorum=3,
                                   signer=keys["A"], at="2026-02-15T09:00:00Z",
                                   registry=load_registry(data_copy)))
    return path


# -- one decoding policy -------------------------------------------------------------

def test_a_bom_does_not_give_a_false_ruling(tmp_path, capsys):
    path = tmp_path / "bom.pdn"
    path.write_bytes(b"\xef\xbb\xbf" + LEGAL.encode("utf-8"))
    code, out, err = run(capsys, "rulings", "--from-game", path)
    assert code == 0, err
    assert "\ufeff" not in out and "apca:10" not in out
    assert "Every move of the record is legal" in out
    code, out, _ = run(capsys, "replay", path, "--json")
    (game,) = json.loads(out)
    assert code == 0 and game["plies"] == 4 and game["tags"]["Black"] == "Ann"


def test_latin1_is_read_the_same_way_by_check_and_replay_with_a_warning(tmp_path, capsys):
    path = tmp_path / "latin.pdn"
    path.write_bytes(LEGAL.replace("Ann", "Ren\xe9e").encode("latin-1"))
    code, out, err = run(capsys, "pdn", "check", path, "--json")
    assert code == 0 and json.loads(out)[0]["tags"]["Black"] == "Renée"
    assert str(path) in err and "Windows-1252" in err and "line 2" in err
    code, out, err = run(capsys, "replay", path, "--json")
    assert code == 0 and json.loads(out)[0]["tags"]["Black"] == "Renée"
    assert str(path) in err and "Windows-1252" in err


def test_the_decoding_policy():
    assert decode_bytes(b"\xef\xbb\xbfabc").text == "abc"
    assert decode_bytes("x\n".encode("utf-16")).text == "x\n"
    # 0x80 is the euro sign in Windows-1252 (and undefined in Latin-1)
    decoded = decode_bytes(b"ok\n\x80 5", "f.pdn")
    assert decoded.text == "ok\n€ 5" and decoded.encoding == "cp1252"
    assert decoded.warning.startswith("f.pdn: not UTF-8") and "line 2 col 1" in decoded.warning


# -- rulings --from-game -------------------------------------------------------------

@pytest.mark.parametrize("fen", ["B:W21-32:B1-12,33",     # a square that does not exist
                                 "B:W1,21-31:B5-12"])      # a white man on its crowning row
def test_rulings_from_a_broken_record_never_says_every_move_is_legal(tmp_path, capsys, fen):
    path = tmp_path / "broken.pdn"
    path.write_text(f'[FEN "{fen}"]\n\n1. 11-15 *\n', encoding="utf-8")
    code, out, err = run(capsys, "rulings", "--from-game", path)
    assert code == 1
    assert "every move" not in out.lower() or "cannot show" in out
    assert "start position cannot be read" in err and "Traceback" not in err


def test_rulings_reports_every_game_with_an_illegal_move(tmp_path, capsys):
    path = tmp_path / "two.pdn"
    path.write_text(LEGAL + "\n" + ILLEGAL, encoding="utf-8")
    code, out, _ = run(capsys, "rulings", "--from-game", path)
    assert code == 0 and "Game 2" in out and "Ply 7 (9-13)" in out and "10x19" in out
    code, out, _ = run(capsys, "rulings", "--from-game", path, "--json")
    (item,) = json.loads(out)
    assert item["game"] == 2 and item["ply"] == 7 and item["rulings"][0]["ref"] == "apca:10"
    code, out, _ = run(capsys, "rulings", "--from-game", path, "--game", "1")
    assert code == 0 and "Every move of the record is legal" in out
    code, _, err = run(capsys, "rulings", "--from-game", path, "--game", "3")
    assert code == 2 and "has 2 game(s)" in err


# -- bounded time and memory ---------------------------------------------------------

def test_a_megabyte_of_brackets_on_one_line_is_read(tmp_path):
    path = tmp_path / "brackets.pdn"
    path.write_text("[" * 1_000_000 + "\n", encoding="utf-8")
    result = run_child("pdn", "check", path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "1 games, 1 with errors" in result.stdout


def test_a_ten_megabyte_tag_value_is_read_in_bounded_memory(tmp_path):
    path = tmp_path / "tag.pdn"
    path.write_text('[Event "' + "a" * 10_000_000 + '"]\n\n1. 11-15 *\n', encoding="utf-8")
    result = run_child("pdn", "check", path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "longer than" in result.stdout


def test_a_long_tag_value_is_cut_at_the_limit_with_an_error():
    text = '[Event "' + "a" * (pdn_syntax.MAX_TAG_CHARS + 5) + '"]\n\n1. 11-15 *\n'
    game = next(iter_games(text))
    assert len(game.tags["Event"]) == pdn_syntax.MAX_TAG_CHARS
    assert any(f"{pdn_syntax.MAX_TAG_CHARS:,}" in e.message and e.line == 1 for e in game.errors)


@pytest.mark.parametrize("command", [("pdn", "check"), ("replay",)])
def test_dev_zero_as_a_record_stops_at_a_limit(command):
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    result = run_child(*command, "/dev/zero")
    assert result.returncode == 2 and one_line_error(result.stderr)
    assert "at most" in result.stderr and "/dev/zero" in result.stderr


def _child_peak_rss(argv) -> int:
    proc = subprocess.Popen([sys.executable, "-m", "rulesbook", *map(str, argv)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=limited)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss * 1024  # KiB on Linux


def test_replay_memory_does_not_grow_with_the_number_of_games(tmp_path):
    game = '[Event "g"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n\n'
    small, big = tmp_path / "small.pdn", tmp_path / "big.pdn"
    small.write_text(game * 500, encoding="utf-8")
    big.write_text(game * 25_000, encoding="utf-8")  # 50x the games
    base = _child_peak_rss(["replay", small, "--json"])
    grown = _child_peak_rss(["replay", big, "--json"])
    # a list of 25,000 records and reports (main) takes far more than 16 MiB more
    assert grown - base < 16 * 1024 * 1024, (base, grown)


def test_replay_looks_ahead_a_bounded_number_of_moves(monkeypatch):
    """main passed the whole rest of the record to every move (10^5 plies took 50 s)."""
    import importlib

    replay_module = importlib.import_module("rulesbook.reconstruct.replay")
    LOOKAHEAD, replay = replay_module.LOOKAHEAD, replay_module.replay

    seen = []
    real = replay_module.analyse_move

    def spy(position, item, following=()):
        seen.append(len(following))
        return real(position, item, following)

    monkeypatch.setattr(replay_module, "analyse_move", spy)
    body = "1. 1-5 32-28 2. 5-1 28-32 " * 250  # two kings shuffling: 1,000 plies
    outcome = replay(body, start="B:WK32:BK1")
    assert outcome.first_illegal is None and len(seen) == 1000
    assert max(seen) <= LOOKAHEAD


def test_past_the_games_limit_the_reader_stops_with_a_message(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(pdn_syntax, "MAX_GAMES", 3)
    path = tmp_path / "many.pdn"
    path.write_text(LEGAL * 5, encoding="utf-8")
    code, _, err = run(capsys, "pdn", "check", path)
    assert code == 2 and one_line_error(err) and "more than 3 games" in err


def test_past_the_plies_limit_the_rest_of_the_game_is_skipped(monkeypatch):
    monkeypatch.setattr(pdn_syntax, "MAX_PLIES", 10)
    game = next(iter_games('[FEN "B:WK32:BK1"]\n\n' + "1. 1-5 32-28 2. 5-1 28-32\n" * 5 + "*"))
    assert len(game.mainline) == 10
    assert any("more than 10 moves" in e.message and e.line == 5 for e in game.errors)


# -- every failure one line, exit 2 --------------------------------------------------

HUGE = "9" * 5000


@pytest.fixture
def hostile_files(tmp_path):
    files = {
        "digits": f'[Event "x"]\n\n1. {HUGE}-15 23-19 ${HUGE} *\n',
        "brackets": "[" * 100_000,
        "binary": bytes(range(256)) * 64,
        "bom": b"\xef\xbb\xbf" + LEGAL.encode(),
        "latin1": LEGAL.replace("Ann", "Ren\xe9e").encode("latin-1"),
        "fens": f"B:W{HUGE}:B1\n",
    }
    out = {}
    for name, content in files.items():
        path = tmp_path / f"{name}.pdn"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        out[name] = path
    out["folder"] = tmp_path
    return out


COMMANDS = [
    ["pdn", "check", "{f}"], ["replay", "{f}"], ["replay", "{f}", "--let-stand", "--json"],
    ["rulings", "--from-game", "{f}"], ["rulings", "--from-game", "{f}", "--ply", "2"],
    ["moves", "--fen-file", "{f}"], ["report", "{f}", "-o", "{out}"],
    ["ballot", "tally", "{f}"], ["ballot", "verify", "{f}"], ["validate", "{folder}"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a[:2]))
@pytest.mark.parametrize("name", ["digits", "brackets", "binary", "bom", "latin1", "fens",
                                  "folder"])
def test_every_command_on_every_hostile_file_fails_in_one_line(capsys, hostile_files, tmp_path,
                                                               argv, name):
    args = [a.format(f=hostile_files[name], folder=hostile_files["folder"],
                     out=tmp_path / "out.html") for a in argv]
    code, out, err = run(capsys, *args)
    assert "Traceback" not in err and "internal error" not in err, err
    assert code in (0, 1, 2)
    if code == 2:
        assert one_line_error(err), err


@pytest.mark.parametrize("argv, needle", [
    (["perft", "--depth", "100000"], "--depth"),
    (["perft", "--depth", HUGE], "--depth"),
    (["search", "x", "--limit", "99999999999999999999"], "--limit"),
    (["moves", "--fen", f"B:W{HUGE}:B1"], "FEN"),
    (["moves", "--fen", "B:W²:B1"], "square"),
    (["replay", "x.pdn", "--game", "0"], "--game"),
    (["rulings", "--from-game", "x.pdn", "--ply", "-1"], "--ply"),
    (["reconstruct", "--from", "start", "--to", "B:W21-32:B1-12", "--plies", HUGE], "--plies"),
    (["reconstruct", "--from", "start", "--to", "B:W21-32:B1-12", "--plies", "2",
      "--limit", "0"], "--limit"),
    (["ballot", "tally", "x.yaml", "--quorum", "-5"], "--quorum"),
    (["perft", "--depth", "2", "--nope"], "unrecognized"),
])
def test_out_of_range_arguments_are_one_line_exit_2(capsys, argv, needle):
    code, _, err = run(capsys, *argv)
    assert code == 2 and one_line_error(err) and needle in err, err


def test_a_memory_error_is_one_line(capsys, monkeypatch):
    from rulesbook.cli import draughts_cmds

    def boom(*_args, **_kw):
        raise MemoryError

    monkeypatch.setattr(draughts_cmds, "perft", boom)
    code, _, err = run(capsys, "perft", "--depth", "3")
    assert code == 2 and one_line_error(err) and "memory" in err


# -- saves land where the user meant -------------------------------------------------

def test_a_vote_through_a_symlinked_ballot_reaches_the_real_ballot(capsys, tmp_path,
                                                                   open_ballot_file):
    link = tmp_path / "link.yaml"
    link.symlink_to(open_ballot_file)
    code, _, err = run(capsys, "ballot", "vote", link, "--member", "E", "--question", "28",
                       "--ranking", "28A")
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(open_ballot_file)
    from rulesbook.ballots import load_ballot

    votes = {(v.member, v.question): v.ranking for v in load_ballot(open_ballot_file).votes}
    assert votes[("E", "28")] == ("apca:28A",)


def test_one_lock_per_real_file(tmp_path):
    real = tmp_path / "ballot.yaml"
    real.write_text("x\n", encoding="utf-8")
    link = tmp_path / "other-name.yaml"
    link.symlink_to(real)
    with file_lock(real), pytest.raises(SaveError, match="being changed"):
        with file_lock(link, timeout=0.05):
            pass


def test_a_fifo_is_refused_and_left_alone(capsys, tmp_path):
    fifo = tmp_path / "out.html"
    os.mkfifo(fifo)
    case = bundled_data_dir() / "cases" / "king-not-crowned-before-opponent-moved.yaml"
    code, _, err = run(capsys, "report", case, "-o", fifo)
    assert code == 2 and one_line_error(err) and "named pipe" in err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_device_and_a_folder_are_refused(tmp_path):
    with pytest.raises(SaveError, match="a folder"):
        atomic_write_text(tmp_path, "x")
    # never a real system device: code that does not refuse (main, run as root)
    # would replace it. A null device node of our own, in the test's folder:
    device = tmp_path / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError):
        pytest.skip("cannot make a device node here (not root)")
    with pytest.raises(SaveError, match="a device"):
        atomic_write_text(device, "report")
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_a_hard_linked_file_is_refused_not_split(tmp_path):
    first = tmp_path / "a.yaml"
    first.write_text("old\n", encoding="utf-8")
    second = tmp_path / "b.yaml"
    os.link(first, second)
    with pytest.raises(SaveError, match="hard"):
        atomic_write_text(first, "new\n")
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8") == "old\n"


def test_a_backup_link_is_not_taken_for_a_second_name(tmp_path):
    path = tmp_path / "case.yaml"
    atomic_write_text(path, "one\n")
    os.link(path, tmp_path / "case.yaml~")  # as a crash between backup and rename leaves it
    atomic_write_text(path, "two\n", backup=True)
    assert path.read_text(encoding="utf-8") == "two\n"


def test_new_files_keep_the_umask_and_private_ones_stay_private(tmp_path):
    old = os.umask(0o022)
    try:
        shared = atomic_write_text(tmp_path / "ballot.yaml", "x\n")
        private = atomic_write_text(tmp_path / "autosave.json", "{}", private=True)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(shared).st_mode) == 0o644  # readable by the committee
    assert stat.S_IMODE(os.stat(private).st_mode) == 0o600


def test_a_failure_after_the_rename_says_the_data_was_written(capsys, tmp_path, monkeypatch):
    def fail(_folder):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(storage, "_fsync_dir", fail)
    path = tmp_path / "edition.yaml"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        atomic_write_text(path, "new\n")
    assert path.read_text(encoding="utf-8") == "new\n"
    assert [w.category for w in caught] == [DurabilityWarning]
    assert "was saved" in str(caught[0].message)
    case = bundled_data_dir() / "cases" / "king-not-crowned-before-opponent-moved.yaml"
    code, out, err = run(capsys, "report", case, "-o", tmp_path / "r.html")
    assert code == 0 and "was saved" in err and "cannot save" not in err
    assert (tmp_path / "r.html").exists()


# -- ballots, names, -----------------------------------------------------------------

def test_ranking_none_is_an_abstention(capsys, open_ballot_file):
    from rulesbook.ballots import load_ballot

    code, out, err = run(capsys, "ballot", "vote", open_ballot_file, "--member", "D",
                         "--question", "28", "--ranking", "none")
    assert code == 0, err
    vote = {(v.member, v.question): v for v in load_ballot(open_ballot_file).votes}[("D", "28")]
    assert vote.ranking == () and vote.abstains
    code, _, err = run(capsys, "ballot", "vote", open_ballot_file, "--member", "D",
                       "--question", "28", "--ranking", "none,28A")
    assert code == 2 and "abstention" in err


def test_bidi_overrides_in_a_player_name_are_shown_in_the_report(capsys, tmp_path):
    import yaml

    case_file = bundled_data_dir() / "cases" / "king-not-crowned-before-opponent-moved.yaml"
    data = yaml.safe_load(case_file.read_text(encoding="utf-8"))
    data.setdefault("players", {})["black"] = "Ann\u202e evil"
    hostile = tmp_path / "case.yaml"
    hostile.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    out = tmp_path / "r.html"
    code, _, err = run(capsys, "report", hostile, "-o", out)
    assert code == 0, err
    html = out.read_text(encoding="utf-8")
    assert "\u202e" not in html and "&lt;U+202E&gt;" in html


def test_visible_controls():
    assert visible_controls("Ann\u202eevil\u2066") == "Ann<U+202E>evil<U+2066>"
    assert visible_controls("Zoë Ñandú") == "Zoë Ñandú"


def test_a_fifo_in_the_data_folder_is_reported_not_waited_on(data_copy):
    os.mkfifo(data_copy / "pipe.yaml")  # opening it for reading would block for ever
    result = run_child("validate", data_copy, timeout=60)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "pipe.yaml: not a regular file" in result.stdout


def test_pdn_check_json_is_written_game_by_game(tmp_path, capsys):
    path = tmp_path / "three.pdn"
    path.write_text(LEGAL * 3, encoding="utf-8")
    code, out, _ = run(capsys, "pdn", "check", path, "--json")
    assert code == 0 and [g["game"] for g in json.loads(out)] == [1, 2, 3]
    path.write_text("", encoding="utf-8")
    code, out, _ = run(capsys, "pdn", "check", path, "--json")
    assert code == 0 and json.loads(out) == []


@pytest.mark.parametrize("argv", [
    ["reconstruct", "--from", "start", "--to", "B:W21-32:B1-12", "--plies", "2",
     "--known", f"{HUGE}:11-15"],
    ["show", HUGE], ["compare", HUGE], ["edition", "show", HUGE],
    ["moves", "--fen", f"B:W{HUGE}:B1"], ["perft", "--depth", HUGE],
])
def test_a_five_thousand_digit_argument_gives_a_short_readable_line(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and one_line_error(err) and len(err) < 400, err


def test_the_documented_limits_are_the_enforced_ones():
    from rulesbook import limits

    doc = limits.__doc__
    for value in (limits.MAX_GAMES, limits.MAX_LINE_CHARS, limits.MAX_TAG_CHARS,
                  limits.MAX_TAGS, limits.MAX_COMMENT_CHARS, limits.MAX_PLIES,
                  limits.MAX_ERRORS, limits.MAX_MOVES_TEXT_CHARS, limits.MAX_FEN_CHARS):
        assert f"{value:,}" in doc, value
    for size in (limits.MAX_GAME_FILE_BYTES, limits.MAX_STREAM_BYTES,
                 limits.MAX_FEN_FILE_BYTES, limits.MAX_YAML_BYTES):
        assert f"{size // 2 ** 20} MiB" in doc, size
    assert f"{limits.MAX_VARIATION_DEPTH}  " in doc and f"{limits.MAX_YAML_DEPTH} deep" in doc
