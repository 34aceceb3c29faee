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
