"""Every reader's limits, in one place (the numbers are defined where they are
enforced and gathered here for the CLI, the app and the fuzzer).

Up to these limits every reader is linear in time and bounded in memory;
past one it stops (or, inside one game, skips the rest of what is too long)
with a message that names the limit and where it was hit.

=========================  ==============  =====================================
what                       limit           past it
=========================  ==============  =====================================
game file (PDN or moves)   256 MiB         stops: "may be at most … bytes"
from a pipe or a device    16 MiB          stops (read whole: no second pass)
FIFO with no writer        10 s wait       refused: "no program wrote to it"
pipe kept open, no data    10 s wait       refused: "nothing more came within"
reading a pipe in all      60 s            refused: "it was not done within"
games in one file          200,000         stops at the next game
line of a PDN file         1,000,000 chars rest of the line skipped, one error
tag value                  10,000 chars    cut, one error
tags in one game           1,000           others skipped, one error
comment (per move / game)  100,000 chars   rest skipped, one error
moves in one game          100,000         rest skipped, one error
errors kept per game       1,000           one "too many errors" error
variation nesting          64              deeper ones skipped, one error
plain list of moves        4,000,000 chars refused (RecordError)
one move text              200 chars       not a move (NotationError)
FEN file (--fen-file)      16 MiB          stops
one FEN                    2,000 chars     refused
YAML data / ballot / case  20 MiB, 64 deep refused with file:line:col
values in one YAML file    2,000,000       refused with file:line:col
digits of a YAML integer   100             refused with file:line:col
autosave read back         64 MiB          not offered (unreadable)
files of one shared commit 64 MiB, 10,000  refused before any is written out
new files of a push/fetch  64 MiB, 10,000  refused as the pack streams, nothing
                           + 8 MiB, 100    taken ("more than its commits may
                           a commit more   hold/bring")
one request to ``serve``   15 min waiting  answered 408 with the reason, closed
request body to ``serve``  4 KiB/s (10 s)  answered 408 with the reason, closed
=========================  ==============  =====================================

A shared commit (clone, sync, ``serve``) is checked from its objects' headers
before anything of it is written out (:mod:`rulesbook.rulesfolder.commit_check`):
a rules folder is a few MB of YAML (a 1,000-member x 60-question signed ballot is
~5 MB; 64 MiB holds a dozen beside the rules, and a file per edition, ballot, case
and member list is hundreds of files in decades of use, far from 10,000). A delta
bomb of 100 deltas of 27 bytes each, each making a 20 MiB file, is a 27 KB pack
that wrote 2 GB into a member's folder before the bound.

A push or fetch brings the new files of its commits: the first may bring a whole
folder (64 MiB, 10,000 files), each other one 8 MiB and 100 new files on average
(a vote rewrites one ballot, at most ~5 MB; the 100-member ballot of
``bench/bench_sync.py`` grows to 295 KB, 169 KB of new files a commit). The sizes
are read from the objects' headers (a delta: the file it makes) as the pack
arrives, before anything is inflated whole, and no more commits bring files than
the pack holds blobs: 30 commits each bringing three 19 MiB files (a 1.7 GB delta
bomb, each commit within its 64 MiB) kept a sync 56 s and a push to ``serve`` 143
s, and 200,000 files over 20 commits a push 73 s, before a commit's own check
refused them; each is now refused as it streams (a sync or clone: under a second;
200,000 files: 3-4 s, what streaming 14 MB of objects costs). The room grows with
the commits sent, so a sender can still make a member resolve 8 MiB of files for
each commit it sends with a file of its own, however small: 200 commits each adding
a file of a few bytes, and 75 deltas making 20 MiB files (1.5 GB) from one base,
kept a sync 14 s and 130 MB (the files resolved in about 3 s, the 200 commits then
checked one by one to name the first invalid) and a clone 3.6 s before the commit
holding the files was refused by its own bound (64 MiB). Whatever the commits, a
pack's files add up to at most 32 GiB, about a minute of resolving.

``rulesbook serve`` answers a request that waits on its client for more than 15
minutes, or whose body comes slower than 4 KiB/s once 10 s have passed, with 408
and the reason, and closes it: a member's sync sends a few KB and a folder's whole
history tens of MB, and 64 MiB (a commit's files at their limit) takes 15 minutes
at 75 KB/s (0.6 Mbit/s); a slow client holds one of the 32 slots for 15 minutes at
most. The server's own work (checking a push, making a fetch's pack) is not
counted: a push of thousands of commits checked for longer is answered.

A YAML value costs about 100 bytes once read (a 1,000-member x 60-question
signed ballot holds ~430,000 values in 5 MB and reads in ~120 MB for the whole
process): the value limit keeps a 20 MiB file of one-character items within
20x its size in memory. No schema uses an integer of more than a few digits;
Python refuses to convert past 4,300 (``ValueError``) and YAML 1.1's base-60
numbers (``1:00:00``) convert in quadratic time, so they stay text.

Game files are read as a stream (:func:`rulesbook.textio.open_text`,
:func:`rulesbook.reconstruct.iter_records`): memory does not grow with the
number of games. Text is decoded by :mod:`rulesbook.textio`.
"""
from __future__ import annotations

from .draughts.notation import MAX_MOVE_CHARS
from .draughts.pdn_model import (
    MAX_COMMENT_CHARS,
    MAX_ERRORS,
    MAX_GAMES,
    MAX_LINE_CHARS,
    MAX_PLIES,
    MAX_TAG_CHARS,
    MAX_TAGS,
    MAX_VARIATION_DEPTH,
)
from .reconstruct.record import MAX_MOVES_TEXT_CHARS
from .rulesfolder.serve_limits import MAX_CONNECTION_SECONDS as MAX_SERVE_REQUEST_SECONDS
from .rulesfolder.serve_limits import MIN_BODY_RATE as MIN_SERVE_BODY_RATE
from .rulesfolder.tree_bounds import MAX_CHANGE_BYTES as MAX_NEW_BYTES_PER_COMMIT
from .rulesfolder.tree_bounds import MAX_CHANGE_FILES as MAX_NEW_FILES_PER_COMMIT
from .rulesfolder.tree_bounds import MAX_TREE_BYTES as MAX_SHARED_COMMIT_BYTES
from .rulesfolder.tree_bounds import MAX_TREE_FILES as MAX_SHARED_COMMIT_FILES
from .textio import MAX_STREAM_BYTES
from .yamlio import MAX_DEPTH as MAX_YAML_DEPTH
from .yamlio import MAX_FILE_BYTES as MAX_YAML_BYTES
from .yamlio import MAX_INT_DIGITS as MAX_YAML_INT_DIGITS
from .yamlio import MAX_VALUES as MAX_YAML_VALUES

__all__ = [
    "MAX_COMMENT_CHARS", "MAX_ERRORS", "MAX_FEN_CHARS", "MAX_FEN_FILE_BYTES", "MAX_GAMES",
    "MAX_GAME_FILE_BYTES", "MAX_LINE_CHARS", "MAX_MOVE_CHARS", "MAX_MOVES_TEXT_CHARS",
    "MAX_NEW_BYTES_PER_COMMIT", "MAX_NEW_FILES_PER_COMMIT", "MAX_PLIES",
    "MAX_SERVE_REQUEST_SECONDS", "MIN_SERVE_BODY_RATE",
    "MAX_SHARED_COMMIT_BYTES", "MAX_SHARED_COMMIT_FILES",
    "MAX_TAGS", "MAX_TAG_CHARS", "MAX_VARIATION_DEPTH", "MAX_YAML_BYTES", "MAX_YAML_DEPTH",
    "MAX_YAML_INT_DIGITS", "MAX_YAML_VALUES",
    "GAME_FILE", "MAX_STREAM_BYTES",
]

#: Largest game file read (PDN or a list of moves), in bytes.
MAX_GAME_FILE_BYTES = 256 * 1024 * 1024
#: Largest file of FENs (``moves --fen-file``), in bytes.
MAX_FEN_FILE_BYTES = 16 * 1024 * 1024
#: Longest FEN read (a 10x10 position with every square written is ~ 200).
MAX_FEN_CHARS = 2_000
#: How a game file is named in limit messages.
GAME_FILE = "a game file"
