"""The names a commit may give its files, checked as git checks them on every
platform (``core.protectNTFS`` and ``core.protectHFS`` both on, as git has them on
Windows and macOS), so that a commit received from a remote can never write into
``.git`` or outside the folder on any member's computer.

Refused, each with the name shown (escaped when it is not text):

- a name that is not valid UTF-8 (two such names may be one file on disk);
- ``""``, ``.``, ``..``, a name with ``/``, ``\\``, ``:`` or a control character;
- ``.git`` in any letter case, with trailing dots or spaces (``.git.``, ``.git ``:
  NTFS drops them), its 8.3 short name ``git~1``, and the forms HFS+ folds to
  ``.git`` by ignoring invisible code points (``.g\\u200cit``);
- the characters and device names Windows cannot store (``<>"|?*``, ``CON``, ``NUL``,
  ``COM1``...), so that a folder cloned on Linux can be cloned on Windows;
- two paths that are one file where names ignore case or Unicode normalisation
  (macOS, Windows): ``Rules.yaml`` and ``rules.yaml``; ``é`` composed and decomposed.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from .errors import RulesFolderError

#: code points HFS+ ignores when it compares names (git's is_hfs_dotgit)
HFS_IGNORED = frozenset(
    [0x200C, 0x200D, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
     0x206A, 0x206B, 0x206C, 0x206D, 0x206E, 0x206F, 0xFEFF])
WINDOWS_FORBIDDEN = set('<>"|?*')
WINDOWS_DEVICES = re.compile(r"^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)"
                             r"(\..*)?$", re.IGNORECASE)


class UnsafePath(RulesFolderError):
    """A commit names a file that cannot be written safely on every platform."""


def shown_name(raw: bytes) -> str:
    """A tree name as it may be printed: text when it is UTF-8, else its bytes escaped."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return repr(raw)[1:]  # b'a\xff.txt' -> 'a\xff.txt'
    return repr(text) if any(not c.isprintable() for c in text) else text


def _dotgit_like(name: str) -> bool:
    folded = "".join(c for c in name if ord(c) not in HFS_IGNORED).casefold()
    folded = unicodedata.normalize("NFC", folded)
    return folded.rstrip(". ") == ".git" or folded == "git~1"


def name_problem(raw: bytes) -> str | None:
    """Why one tree entry's name is refused (None: it is safe everywhere)."""
    try:
        name = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "is not valid UTF-8 (another name of the tree may be the same file on disk)"
    if name in ("", ".", ".."):
        return "is a name for this folder or the one above it"
    if any(c in name for c in "/\\:\0") or any(ord(c) < 0x20 or ord(c) == 0x7F for c in name):
        return "holds a path separator, a drive colon or a control character"
    if _dotgit_like(name):
        return "is git's own folder (.git) in another spelling"
    if any(c in WINDOWS_FORBIDDEN for c in name) or WINDOWS_DEVICES.match(name):
        return "cannot be stored on Windows"
    if name != name.rstrip(". "):
        return "ends with a dot or a space (Windows drops them: another name on disk)"
    return None


#: Most refused names one message lists (the rest are counted).
MAX_NAMES_SHOWN = 20


def check_names(named: Iterable[tuple[bytes, str]]) -> None:
    """Refuse every ``(raw name, folder prefix)`` :func:`name_problem` refuses, all in
    one :class:`UnsafePath` (a tree with ``a\\xff.txt`` and ``a\\xfe.txt`` names both)."""
    refused = [(prefix + shown_name(raw), problem) for raw, prefix in named
               if (problem := name_problem(raw))]
    if len(refused) == 1:
        raise UnsafePath(f"a commit names the file {refused[0][0]}, which {refused[0][1]}; "
                         f"it was not taken")
    if refused:
        by_problem: dict[str, list[str]] = {}
        for name, problem in refused[:MAX_NAMES_SHOWN]:
            by_problem.setdefault(problem, []).append(name)
        shown = "; ".join(f"{_listed(names)}, {'each of which' if len(names) > 1 else 'which'} "
                          f"{problem}" for problem, names in by_problem.items())
        more = len(refused) - MAX_NAMES_SHOWN
        rest = f"; and {more:,} more" if more > 0 else ""
        raise UnsafePath(f"a commit names {len(refused):,} files that are refused: "
                         f"{shown}{rest}; it was not taken")


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def folded(path: str) -> str:
    """How a path compares where names ignore case and Unicode normalisation."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", path).casefold())


def check_collisions(paths: Iterable[str]) -> None:
    """Refuse two paths that would be one file on macOS or Windows, naming both."""
    seen: dict[str, str] = {}
    for path in paths:
        parts = path.split("/")
        for depth in range(1, len(parts) + 1):  # a folder may collide with a file too
            prefix = "/".join(parts[:depth])
            key = folded(prefix)
            other = seen.setdefault(key, prefix)
            if other != prefix:
                raise UnsafePath(f"a commit holds both {_told_apart(other, prefix)}, which "
                                 f"are one file where names ignore letter case or Unicode "
                                 f"normalisation (macOS, Windows); it was not taken")


def _told_apart(a: str, b: str) -> str:
    """``'a' and 'b'``, each with its code points when the two look the same
    (``é`` composed and ``e`` + U+0301 print alike)."""
    nfc = unicodedata.normalize
    if nfc("NFC", a) != nfc("NFC", b):
        return f"{a!r} and {b!r}"
    return f"{a!r} ({_spelled(a)}) and {b!r} ({_spelled(b)})"


def _spelled(name: str) -> str:
    """``caf<U+00E9>.txt, composed``: the name's code points past ASCII as codes."""
    codes = "".join(c if c.isascii() else f"<U+{ord(c):04X}>" for c in name)
    form = ("composed" if name == unicodedata.normalize("NFC", name) else
            "decomposed" if name == unicodedata.normalize("NFD", name) else "mixed")
    return f"{codes}, {form}"
