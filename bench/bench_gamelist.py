"""The Board's game list on a generated 10,000-game PDN file (Tinsley's 724
games repeated, each with its own Round and Date tags): the time from the text
to the list shown (split + entries + the dialog's model and view, offscreen),
a keystroke of the filter, a click on a header, and the defect scan that runs
off the GUI thread. Beside it, pydraughts' PDNReader (a peer that reads every
game whole) on the first games of the same file, in the same run; the ratio
compares games listed per second.

The list is built from the tags only: no move is resolved until a game is opened."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TINSLEY = ROOT / "tests" / "data" / "corpus" / "english-tinsley-1946-1960s.pdn"
GAMES = 10_000
PEER_GAMES = 300  # pydraughts reads every game whole: time it on the first games
REPEATS = 3
QUERIES = ("t", "ti", "tin", "tins", "tinsley", "tinsley c", "tinsley chinook",
           "tinsley chinook 1992")


def generated(games: int = GAMES) -> str:
    blocks = [b for b in TINSLEY.read_text(encoding="utf-8").strip().split("\n\n") if b]
    out = []
    for i in range(games):
        block = blocks[i % len(blocks)]
        year = 1946 + i % 50
        out.append(block.replace('[Event "', f'[Date "{year}.01.{i % 28 + 1:02d}"]\n'
                                 f'[Round "{i // len(blocks) + 1}"]\n[Event "', 1))
    return "\n\n".join(out) + "\n"


def best(function, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QApplication

    from rulesbook.reconstruct.gamelist import game_list, split_games
    from ui.board.gamelist import GameListModel

    app = QApplication.instance() or QApplication([])
    text = generated()
    chunks = split_games(text)
    assert len(chunks) == GAMES, len(chunks)
    t_split = best(lambda: split_games(text))
    t_entries = best(lambda: game_list(chunks))

    def shown() -> None:
        from PySide6.QtWidgets import QTableView

        model = GameListModel(split_games(text))
        view = QTableView()
        view.setModel(model)
        view.resize(800, 500)
        view.show()
        app.processEvents()
        view.close()
        view.deleteLater()

    t_shown = best(shown)
    model = GameListModel(chunks)
    t_keys = []
    for query in QUERIES:
        start = time.perf_counter()
        model.set_filter(query)
        t_keys.append(time.perf_counter() - start)
    model.set_filter("")
    t_sort = best(lambda: model.sort(2))
    # the defect scan as the dialog runs it (a QThread), a fast typist meanwhile:
    # keys 100 ms apart into the dialog's filter (the scan waits while one types)
    from ui.board.gamelist import GameListDialog

    dialog = GameListDialog(chunks)
    marks: list[int] = []
    dialog.scanner.found.connect(lambda batch: marks.extend(g for g, _ in batch))
    start = time.perf_counter()
    busy_keys = []
    time.sleep(0.5)  # the scan is under way
    for _ in range(3):  # 24 keys in bursts of 8, a second's pause between them
        for query in QUERIES:
            key = time.perf_counter()
            dialog.filter_edit.setText(query)
            app.processEvents()
            busy_keys.append(time.perf_counter() - key)
            time.sleep(0.1)
        time.sleep(1.0)
    dialog.scanner.wait()
    t_scan = time.perf_counter() - start
    app.processEvents()
    defects = len(marks)
    dialog.stop_scan()
    # the scan alone, nobody typing
    from rulesbook.reconstruct.gamelist import record_defect

    t_alone = best(lambda: [record_defect(c) for c in chunks], 1)
    from rulesbook.reconstruct import import_record

    t_open = best(lambda: import_record(text, GAMES - 1))
    rate = GAMES / t_shown
    print(f"{GAMES:,} games, {len(text) / 1e6:.1f} MB")
    print(f"list shown   : {t_shown * 1000:.0f} ms (split {t_split * 1000:.0f} ms, entries "
          f"{t_entries * 1000:.0f} ms) = {rate:,.0f} games/s on the GUI thread")
    print(f"filter       : slowest keystroke {max(t_keys) * 1000:.1f} ms, mean "
          f"{sum(t_keys) / len(t_keys) * 1000:.1f} ms over {len(QUERIES)} keystrokes")
    print(f"sort         : {t_sort * 1000:.0f} ms (Event column)")
    print(f"open a game  : {t_open * 1000:.0f} ms (the last one, read when opened, its "
          f"variant guessed)")
    print(f"defect scan  : {t_alone:.2f} s alone ({GAMES / t_alone:,.0f} games/s), "
          f"{defects} records marked")
    print(f"while typing : the scan took {t_scan:.1f} s off the GUI thread; meanwhile {len(busy_keys)} keystrokes (100 ms "
          f"apart, in bursts) on the GUI thread, slowest {max(busy_keys) * 1000:.0f} ms, mean "
          f"{sum(busy_keys) / len(busy_keys) * 1000:.0f} ms")
    try:
        from draughts.PDN import PDNReader
    except ImportError:
        print("pydraughts not installed: no peer figure")
        return 0
    sample = "\n\n".join(text.split("\n\n")[:PEER_GAMES]) + "\n"
    start = time.perf_counter()
    peer_games = len(PDNReader(pdn_text=sample).games)
    t_peer = time.perf_counter() - start
    peer_rate = peer_games / t_peer
    print(f"pydraughts   : {peer_games} games read in {t_peer:.2f} s = {peer_rate:,.0f} games/s "
          f"(PDNReader; {GAMES:,} games would take {GAMES / peer_rate:.1f} s)")
    print(f"ratio        : {rate / peer_rate:.1f}x (games listed per second, ours / pydraughts)")
    return 0


if __name__ == "__main__":
    from usage import exit_on_help  # bench/usage.py: this script's folder is on sys.path

    exit_on_help(__doc__)
    sys.exit(main())
