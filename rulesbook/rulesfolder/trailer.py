"""The trailer every commit Rulesbook makes carries: which program wrote it.

>>> with_version_trailer("Vote: A on question 10", "0.2.0")
'Vote: A on question 10\\n\\nRulesbook-Version: 0.2.0'

A git trailer (``git interpret-trailers`` reads it): the last paragraph of the
message, ``Rulesbook-Version: 0.2.0``. It says which version of Rulesbook made
the commit, so that a committee can tell which program wrote a record; it is
not a signature (anyone who can commit can write any trailer: what a member
signs is in the ballot's signatures, not here). ``rulesbook history`` shows
the message without it and the version apart.
"""
from __future__ import annotations

import re

__all__ = ["TRAILER", "split_trailer", "with_version_trailer"]

TRAILER = "Rulesbook-Version"
_LAST = re.compile(rf"\n\n{TRAILER}: (\S+)\s*\Z")


def with_version_trailer(message: str, version: str | None = None) -> str:
    """``message`` with the trailer naming ``version`` (the running program's by
    default) as its last paragraph."""
    if version is None:
        from ..version import version as running

        version = running()
    body, _ = split_trailer(message)
    return f"{body.rstrip()}\n\n{TRAILER}: {version}"


def split_trailer(message: str) -> tuple[str, str | None]:
    """(the message without the trailer, the version it names or None)."""
    found = _LAST.search(message.rstrip("\n") + "\n")
    if found is None:
        return message.strip(), None
    return message[:found.start()].strip(), found.group(1)
