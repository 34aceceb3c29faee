"""Benchmark the draughts engine: perft leaves/s beside pydraughts, and the
depth-8 perft counts of every variant against the published numbers.

Run: ``.venv/bin/python bench/bench_engine.py`` (or ``make bench``).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulesbook.draughts import Position, perft  # noqa: E402

PUBLISHED_8 = {"english": 845931, "pool": 929902, "russian": 929905, "brazilian": 907836}
PEER_DEPTH = 4  # pydraughts is slow: keep its run to a few seconds
# pydraughts has no pool variant; Russian (flying kings, men capture backward)
# is the closest rule set, and the start-position trees agree to depth 7.
PEER_VARIANT = {"pool": "russian", "english": "english", "russian": "russian"}


def _pyd_perft(board, depth: int) -> int:
    if depth == 0:
        return 1
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += _pyd_perft(board, depth - 1)
        board.pop()
    return total


def _timed(fn, min_seconds: float = 0.5) -> tuple[int, float]:
    """(result, seconds per call), repeating fast calls for a stable figure."""
    runs = 0
    start = time.perf_counter()
    while True:
        result = fn()
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return result, elapsed / runs


def main() -> int:
    try:
        from draughts import Board
    except ImportError:  # pragma: no cover - pydraughts is a test extra
        Board = None

    print(f"perft leaves/s from the start position, depth {PEER_DEPTH}")
    print(f"{'variant':<10} {'leaves':>8} {'rulesbook/s':>14} {'pydraughts/s':>14} {'ratio':>8}")
    for variant, peer in PEER_VARIANT.items():
        start = Position.start(variant)
        leaves, ours = _timed(lambda start=start: perft(start, PEER_DEPTH))
        if Board is not None:
            peer_leaves, theirs = _timed(
                lambda peer=peer: _pyd_perft(Board(peer), PEER_DEPTH), min_seconds=0.0)
            assert peer_leaves == leaves, (variant, peer_leaves, leaves)
            print(f"{variant:<10} {leaves:>8} {leaves / ours:>14,.0f} "
                  f"{peer_leaves / theirs:>14,.0f} {theirs / ours:>7.0f}x")
        else:
            print(f"{variant:<10} {leaves:>8} {leaves / ours:>14,.0f} {'n/a':>14} {'':>8}")

    print()
    print("perft depth 8 from the start position")
    print(f"{'variant':<10} {'leaves':>8} {'published':>10} {'ok':>4} {'seconds':>8} {'leaves/s':>11}")
    ok = True
    for variant, expected in PUBLISHED_8.items():
        t0 = time.perf_counter()
        leaves = perft(Position.start(variant), 8)
        dt = time.perf_counter() - t0
        good = leaves == expected
        ok &= good
        print(f"{variant:<10} {leaves:>8} {expected:>10} {'yes' if good else 'NO':>4} "
              f"{dt:>8.2f} {leaves / dt:>11,.0f}")
    return 0 if ok else 1


if __name__ == "__main__":
    from usage import exit_on_help  # bench/usage.py: this script's folder is on sys.path

    exit_on_help(__doc__)
    sys.exit(main())
