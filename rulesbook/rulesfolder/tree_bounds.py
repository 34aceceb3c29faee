"""The most one shared commit's files may hold: read by :mod:`.commit_check` and
listed by :mod:`rulesbook.limits`. Its own module so that a command reading the
limits table does not import dulwich."""
from __future__ import annotations

#: the most a commit's files may add up to (rulesbook/limits.py). A rules folder is a
#: few MB of YAML: a 1,000-member x 60-question signed ballot is ~5 MB; 64 MiB holds a
#: dozen of them beside the rules. A delta bomb (100 deltas of 27 bytes each making a
#: 20 MiB file) is 27 KB packed and 2 GB checked out.
MAX_TREE_BYTES = 64 * 1024 * 1024
#: the most files one commit may hold: a folder holds a file per edition, ballot,
#: case and member list (hundreds in decades of use)
MAX_TREE_FILES = 10_000
#: the new files' bytes each commit after the first of a push or fetch brings, on
#: average (a pack's first commit may bring a whole folder, MAX_TREE_BYTES). A vote
#: rewrites one ballot (the largest: a 1,000-member x 60-question signed ballot,
#: ~5 MB); an edition, a case or a member list adds a few small files. Measured: the
#: 100-member, 10-question ballot of bench/bench_sync.py grows to 295 KB, its 1,100
#: commits bring 186 MB of new files (169 KB each). 30 commits each bringing 3 files
#: of 19 MiB (a 1.7 GB delta bomb, each commit within MAX_TREE_BYTES) kept a sync
#: 56 s and a push to serve 143 s before a commit's check refused them.
MAX_CHANGE_BYTES = 8 * 1024 * 1024
#: the new files each commit after the first brings, on average (a pack's first
#: commit may bring a whole folder, MAX_TREE_FILES): a vote brings one, an edition a
#: few. 200,000 files over 20 commits of 10,000 kept a push to serve 73 s, over 100
#: commits of 2,000 221-264 s, before the per-commit bound refused them.
MAX_CHANGE_FILES = 100
