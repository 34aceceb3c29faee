"""Small things of the command line's output. A reader that goes away (``rulesbook … | head``) ends the command quietly:
exit 0 and nothing on stderr, for a command that reads the library and one that
reads a game (the message "error: [Errno 32] Broken pipe" was printed before)."""
from __future__ import annotations

import subprocess
import sys

import pytest

REPETITION = ('[GameType "23"]\n[SetUp "1"]\n[FEN "B:WK32:BK1,K2,K3"]\n\n'
              + "3-8 32-28 8-3 28-32 " * 3 + "*\n")


@pytest.mark.parametrize("argv", [["rulings", "--from-game", "{game}", "--ply", "8"],
                                  ["show", "28"], ["search", "draw"]])
def test_a_reader_that_stops_early_is_not_an_error(tmp_path, argv):
    game = tmp_path / "rep.pdn"
    game.write_text(REPETITION, encoding="utf-8")
    args = [a.format(game=game) for a in argv]
    # a pipe smaller than the output, closed after the first bytes (as head -c 10)
    proc = subprocess.Popen([sys.executable, "-m", "rulesbook", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    with proc.stderr:
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0, err
    assert err == ""


def test_one_ply_is_one_ply(tmp_path):
    moves = tmp_path / "m.txt"
    moves.write_text("11-15\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "rulesbook", "replay", str(moves)],
                         capture_output=True, text=True, timeout=60).stdout
    assert "1 ply:" in out and "1 plies" not in out
