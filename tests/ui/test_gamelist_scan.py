"""The game list's defect scan never holds up the window (issue #29 Must 3), asserted
by what runs where, not by a time: the GUI thread never reads a record, a large
file is read in a process of its own, the GUI thread is told about fifty times
whatever the size, and a timer probe on the GUI thread goes on ticking while the
scan runs. The figures (games per second, the worst gap between two ticks) are
printed by bench/bench_startup.py."""
from __future__ import annotations

import threading

from PySide6.QtCore import QTimer

from rulesbook.reconstruct import split_games
from rulesbook.reconstruct.gamelist import defect_of, scan_defects
from tests.datapaths import CORPUS

TINSLEY = CORPUS / "english-tinsley-1946-1960s.pdn"
#: the games of Tinsley's file, as its README publishes them
TINSLEY_GAMES = 724
#: game 541 plays 32-28 from an empty square, game 623 has a comment without
#: braces (the corpus README; test_gamelist.py checks them against pydraughts)
KNOWN_DEFECTS = {540, 622}


def tinsley_chunks(copies: int = 1):
    text = TINSLEY.read_text(encoding="utf-8").strip()
    return split_games("\n\n".join([text] * copies) + "\n")


def test_a_batch_of_the_scan_is_the_defects_of_its_games_one_by_one():
    chunks = tinsley_chunks()
    assert len(chunks) == TINSLEY_GAMES
    batch = scan_defects(chunks)
    assert [g for g, _ in batch] == [c.index for c in chunks if defect_of(c)]
    assert KNOWN_DEFECTS <= {g for g, _ in batch}
    assert 0 not in {g for g, _ in batch}


def run_scan(qtbot, chunks, process_games: int):
    """Scan ``chunks`` with a timer probe on the GUI thread; what the probe and the
    GUI thread saw."""
    from ui.board.gamelist import DefectScanner

    scanner = DefectScanner(chunks, process_games=process_games)
    seen = {"ticks_during": 0, "progress": [], "found": [], "slot_threads": set()}
    gui = threading.get_ident()

    def tick() -> None:
        if seen["progress"] and seen["progress"][-1][0] < len(chunks):
            seen["ticks_during"] += 1  # the event loop ran while the scan was under way

    def progressed(done: int, total: int) -> None:
        seen["slot_threads"].add(threading.get_ident())
        seen["progress"].append((done, total))

    def found(batch) -> None:
        seen["slot_threads"].add(threading.get_ident())
        seen["found"].extend(batch)

    probe = QTimer()
    probe.setInterval(0)
    probe.timeout.connect(tick)
    scanner.progressed.connect(progressed)
    scanner.found.connect(found)
    probe.start()
    scanner.start()
    try:
        qtbot.waitUntil(lambda: bool(seen["progress"])
                        and seen["progress"][-1][0] == len(chunks), timeout=300_000)
    finally:
        probe.stop()
        scanner.cancel()
        scanner.wait()
    assert seen["slot_threads"] == {gui}  # the signals are queued to the GUI thread
    return scanner, seen


def test_a_large_file_is_scanned_in_another_process_never_on_the_gui_thread(
        qtbot, monkeypatch):
    import rulesbook.reconstruct.gamelist as core
    import ui.board.gamelist as gamelist

    defective = {g for g, _ in scan_defects(tinsley_chunks())}
    here: list[int] = []

    def spy(chunk):  # any record read in this process is seen here
        here.append(threading.get_ident())
        return ""

    monkeypatch.setattr(gamelist, "defect_of", spy)
    monkeypatch.setattr(core, "record_defect", spy)
    chunks = tinsley_chunks(3)  # 2,172 games
    scanner, seen = run_scan(qtbot, chunks, process_games=1000)
    assert scanner.where == "process"
    assert here == []  # not one record was read in this process
    assert sorted(g for g, _ in seen["found"]) == sorted(
        g + k * TINSLEY_GAMES for k in range(3) for g in defective)
    # about fifty signals whatever the size: the GUI thread's share does not grow
    # with the file
    assert 40 <= len(seen["progress"]) <= 52
    assert seen["progress"] == sorted(seen["progress"])
    assert seen["ticks_during"] > 0


def test_a_small_file_is_scanned_on_the_worker_thread_never_on_the_gui_thread(
        qtbot, monkeypatch):
    import ui.board.gamelist as gamelist

    threads: list[int] = []

    def spy(chunk):
        threads.append(threading.get_ident())
        return defect_of(chunk)

    monkeypatch.setattr(gamelist, "defect_of", spy)
    chunks = tinsley_chunks()
    scanner, seen = run_scan(qtbot, chunks, process_games=10_000)
    assert scanner.where == "thread"
    assert len(threads) == TINSLEY_GAMES and threading.get_ident() not in threads
    assert KNOWN_DEFECTS <= {g for g, _ in seen["found"]}
    assert len(seen["progress"]) <= 52  # every total // 50 games, and the last
    assert seen["ticks_during"] > 0


def test_closing_the_list_stops_the_scans_process(qtbot):
    """A cancel ends the scan (and its process) after the batch under way."""
    from ui.board.gamelist import BATCH_GAMES, DefectScanner

    chunks = tinsley_chunks(3)
    scanner = DefectScanner(chunks, process_games=1000)
    progress: list[int] = []
    scanner.progressed.connect(lambda done, _total: progress.append(done))
    scanner.start()
    qtbot.waitUntil(lambda: bool(progress), timeout=120_000)
    scanner.cancel()
    assert scanner.wait(60_000)
    assert progress[-1] < len(chunks) - 2 * BATCH_GAMES
