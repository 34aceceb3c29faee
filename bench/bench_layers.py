"""The backward layers and the forward count of the compiled gap search at a
fixed depth (issue 30): deterministic, unlike ``bench_gap.py``, whose layers
are built as the wall clock says (a loaded machine builds other layers).

``python bench/bench_layers.py [--english] [--plies N] [--depth D] [--cases 8,1]``
prints for each case (index into ``gap_cases``) the layers' sizes, the CPU
seconds of building them and of the forward count with them, the count and
the positions the count entered.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gap_cases import english_cases, russian_cases  # noqa: E402

from rulesbook.draughts import Variant  # noqa: E402
from rulesbook.draughts.movegen import compile_rules  # noqa: E402
from rulesbook.reconstruct.gap import compiled  # noqa: E402
from rulesbook.reconstruct.gap.bounds import Target, VariantFlags  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--english", action="store_true", help="English games, not Russian")
    parser.add_argument("--plies", type=int, default=20)
    parser.add_argument("--depth", type=int, default=6, help="backward layers built")
    parser.add_argument("--cases", default="8", help="indices (from 1), comma-separated")
    args = parser.parse_args(argv)
    compiled.warm_up()
    picks = [int(i) for i in args.cases.split(",")]
    cases = (english_cases if args.english else russian_cases)(args.plies, max(picks))
    variant = Variant.named("english" if args.english else "russian")
    for i in picks:
        case = cases[i - 1]
        search = compiled.CompiledGapSearch(
            Target(*case.board.bitboards(), *VariantFlags.of(variant)), compile_rules(variant),
            {}, args.plies, 10 ** 9)
        key = (*case.earlier.bitboards(),)
        search._setup()
        began = time.process_time()
        for _ in range(args.depth):
            search._grow(variant, key)
        built = time.process_time() - began
        began = time.process_time()
        count = search._run(key, args.plies, 1.0, grow=False, root=True)
        print(f"{case.name}: layers {[len(b) for b in search.back]}, built in {built:.2f} s, "
              f"count {count} in {time.process_time() - began:.2f} s, {search.nodes} positions",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
