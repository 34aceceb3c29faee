"""Opening one game of a multi-game PDN file in the Board (the core's import_record,
as the Board's file opening calls it): a game legal in several variants takes the
variant the file's other games need (issue #31 Must 2), so the games before it are
read and played in every variant. The figure: Tinsley's 724 English games (no
GameType tag), the first and the last game legal in both pool and English, against
the baseline of the same game read alone (the import before #31, which read only
the game's own text and took pool for it).

Run: .venv/bin/python bench/bench_import_variant.py
"""
from __future__ import annotations

import io
import time
from pathlib import Path

from rulesbook.draughts.pdn_syntax import SyntaxReader
from rulesbook.draughts.pdn_variant import guess_variant
from rulesbook.reconstruct import import_record, split_games

ROOT = Path(__file__).resolve().parents[1]
TINSLEY = ROOT / "tests" / "data" / "corpus" / "english-tinsley-1946-1960s.pdn"
REPEATS = 3


def best(function) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    text = TINSLEY.read_text(encoding="utf-8")
    chunks = split_games(text)
    both = [c.index for c in chunks
            if len(guess_variant(SyntaxReader(io.StringIO(c.text)).read()).fitting) > 1]
    print(f"{TINSLEY.name}: {len(chunks)} games, {len(both)} legal in pool and English")
    for index in (both[0], both[-1]):
        imported = import_record(text, index)
        alone = chunks[index].text
        with_file = best(lambda i=index: import_record(text, i))
        by_itself = best(lambda t=alone: import_record(t, 0))
        print(f"game {index + 1}: read as {imported.record.variant.name} in "
              f"{with_file * 1000:.0f} ms with the file's other games; alone "
              f"{by_itself * 1000:.0f} ms (pool); ratio {with_file / by_itself:.1f}")


if __name__ == "__main__":
    from usage import exit_on_help  # bench/usage.py: this script's folder is on sys.path

    exit_on_help(__doc__)
    main()
