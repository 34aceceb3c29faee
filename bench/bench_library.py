"""Library load time and search latency (goals: load <= 300 ms, query <= 20 ms).

The peer measured in the same run is a naive scan: every query word
looked up by substring in every text, which is what search would be
without the FTS5 index.
"""
from __future__ import annotations

import re
import statistics
import time

from rulesbook import load_library
from rulesbook.datapath import bundled_data_dir
from rulesbook.search import SearchIndex

QUERIES = ["touched a piece", "thirteen count", "spectator talking", "didn't jump", "crowning",
           "10B", "rule 28", "specatator", "long line draw", "clock flag fell", "forfeit game"]


def naive_search(library, query):
    words = [w.lower() for w in re.findall(r"\w+", query)]
    scored = []
    for entry in library.entries():
        text = f"{entry.text} {getattr(entry, 'title', '')}".lower()
        score = sum(text.count(w) for w in words)
        if score:
            scored.append((score, entry.ref))
    return sorted(scored, reverse=True)[:10]


def timed(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), max(times)


def main() -> None:
    load_med, load_max = timed(lambda: load_library(bundled_data_dir()), 5)
    library = load_library(bundled_data_dir())
    index_med, _ = timed(lambda: SearchIndex(library), 5)
    index = SearchIndex(library)
    per_query = []
    for q in QUERIES:
        med, _ = timed(lambda q=q: index.search(q, 10), 20)
        per_query.append((q, med))
    naive = statistics.median(timed(lambda q=q: naive_search(library, q), 20)[0] for q in QUERIES)
    fts = statistics.median(t for _, t in per_query)
    print("library")
    print(f"  load (validate + build)   median {load_med * 1000:7.1f} ms  max {load_max * 1000:.1f} ms"
          f"   goal <= 300 ms")
    print(f"  search index build        median {index_med * 1000:7.1f} ms")
    for q, t in per_query:
        print(f"  query {q!r:24} {t * 1000:7.2f} ms")
    worst = max(t for _, t in per_query)
    print(f"  query median {fts * 1000:.2f} ms, worst {worst * 1000:.2f} ms   goal <= 20 ms")
    print(f"  naive substring scan (peer) median {naive * 1000:.2f} ms; "
          f"ratio peer/fts = {naive / fts:.2f}x")


if __name__ == "__main__":
    from usage import exit_on_help  # bench/usage.py: this script's folder is on sys.path

    exit_on_help(__doc__)
    main()
