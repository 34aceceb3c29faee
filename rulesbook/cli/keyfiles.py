"""Opening a member's private key for a command: the passphrase from a file or the
terminal (``--passphrase-file``). Used by the member, ballot and proposal commands."""
from __future__ import annotations

import getpass
import sys

from ..ballots import BallotError, Registry, SigningKey, load_signing_key
from ..ballots.keys import needs_passphrase
from ..textio import read_text

#: Most bytes of a key or passphrase file (a PEM key is under 1 KB).
KEY_FILE_BYTES = 64 * 1024

__all__ = ["open_key", "read_passphrase"]


def read_passphrase(path: str | None) -> bytes | None:
    """The passphrase in ``path`` (its first line), or None."""
    if not path:
        return None
    # the one reader of files named by a user: a FIFO is bounded in size and time
    text = read_text(path, max_bytes=KEY_FILE_BYTES, what="a passphrase file",
                     fallback=False, name=f"the passphrase file {path}").text
    line = text.splitlines()[0] if text.splitlines() else ""
    if not line:
        raise BallotError(f"the passphrase file {path} is empty")
    return line.encode("utf-8")


def open_key(registry: Registry, member: str, passphrase_file: str | None) -> SigningKey:
    """The private key of ``member`` on this computer (asks for the passphrase on a
    terminal when none is given and the key needs one)."""
    public = registry.signing_key(member)
    passphrase = read_passphrase(passphrase_file)
    if passphrase is None and public and needs_passphrase(member, public):
        if not sys.stdin.isatty():
            raise BallotError(f"the key of member {member} is protected by a passphrase: "
                              f"give --passphrase-file FILE")
        passphrase = getpass.getpass(f"Passphrase for the key of {member}: ").encode("utf-8")
    return load_signing_key(member, public, passphrase)
