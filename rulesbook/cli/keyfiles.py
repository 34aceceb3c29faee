"""Opening a member's private key for a command: the passphrase from a file or the
terminal (``--passphrase-file``). Used by the member, ballot and proposal commands."""
from __future__ import annotations

import getpass
import sys
from pathlib import Path

from ..ballots import BallotError, Registry, SigningKey, load_signing_key
from ..ballots.keys import needs_passphrase

__all__ = ["open_key", "read_passphrase"]


def read_passphrase(path: str | None) -> bytes | None:
    """The passphrase in ``path`` (its first line), or None."""
    if not path:
        return None
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise BallotError(f"cannot read the passphrase file {path}: {exc.strerror}") from None
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
