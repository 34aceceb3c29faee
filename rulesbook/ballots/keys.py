"""Members' Ed25519 signing keys (the ``cryptography`` library).

A private key lives only in the user's configuration folder
(``$RULESBOOK_CONFIG``, else the platform's user config folder for
``rulesbook``), under ``keys/<MEMBER>-<FINGERPRINT>.pem``: PKCS#8 PEM, encrypted
with the passphrase when one is given (``BestAvailableEncryption``), mode 0600
in a 0700 folder. It is never written inside a rules folder, never printed and
never put in an exception message or a log. The public key is written as
``ed25519:<base64 of the 32 raw bytes>`` into ``members.yaml``.
"""
from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..storage import atomic_write_bytes
from .model import BallotError

if TYPE_CHECKING:  # ``cryptography`` is imported by the functions that sign or check:
    # a command that neither signs nor verifies never loads it
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (
        Ed25519PrivateKey,
        Ed25519PublicKey,
    )

CONFIG_ENV = "RULESBOOK_CONFIG"
PREFIX = "ed25519:"


class KeyStoreError(BallotError):
    """A private key cannot be created, found or opened (the message says why)."""


class MissingKeyError(KeyStoreError):
    """No private key for the member on this computer."""


class PassphraseError(KeyStoreError):
    """The passphrase is missing or wrong."""


def config_dir() -> Path:
    """The user's configuration folder for Rulesbook (``$RULESBOOK_CONFIG`` in tests)."""
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir("rulesbook", appauthor=False))


def keys_dir() -> Path:
    return config_dir() / "keys"


def encode_public(key: Ed25519PublicKey) -> str:
    from cryptography.hazmat.primitives import serialization

    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return PREFIX + base64.b64encode(raw).decode("ascii")


def decode_public(text: str) -> Ed25519PublicKey:
    """The public key of ``ed25519:<base64>``; :class:`BallotError` if it is not one."""
    if not isinstance(text, str) or not text.startswith(PREFIX):
        raise BallotError(f"{str(text)[:60]!r} is not a public key (ed25519:BASE64)")
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        raw = base64.b64decode(text[len(PREFIX):], validate=True)
        return Ed25519PublicKey.from_public_bytes(raw)
    except (binascii.Error, ValueError):
        raise BallotError(f"{text[:60]!r} is not a valid Ed25519 public key") from None


def fingerprint(public: str) -> str:
    """A short, stable name of a public key (16 hex digits of its SHA-256)."""
    return hashlib.sha256(public.encode("ascii", "replace")).hexdigest()[:16]


def verify_signature(public: str, message: bytes, signature: str) -> bool:
    """True when ``signature`` (base64) is ``public``'s signature of ``message``.

    The answers are kept for the last signatures checked (a pure function of its
    arguments): a sync or a push to ``serve`` checks each commit it brings, and each
    commit's ballots carry the same votes as the one before it and one more."""
    key = (public, hashlib.sha256(message).digest(), signature)
    known = _VERIFIED.get(key)
    if known is None:
        known = _verify(public, message, signature)
        if len(_VERIFIED) >= _MOST_VERIFIED:
            _VERIFIED.clear()  # begun again (each entry ~200 bytes: at most ~13 MB)
        _VERIFIED[key] = known
    return known


#: the answers of :func:`verify_signature`, by (key, the message's SHA-256, signature)
_VERIFIED: dict[tuple[str, bytes, str], bool] = {}
_MOST_VERIFIED = 1 << 16


def _verify(public: str, message: bytes, signature: str) -> bool:
    from cryptography.exceptions import InvalidSignature

    try:
        key = decode_public(public)
        key.verify(base64.b64decode(signature, validate=True), message)
    except (BallotError, InvalidSignature, binascii.Error, ValueError, TypeError):
        return False
    return True


@dataclass(frozen=True)
class SigningKey:
    """A member's private key, opened. Its ``repr`` never shows the key."""

    member: str
    public: str
    _private: Ed25519PrivateKey = field(repr=False, compare=False)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    def sign(self, message: bytes) -> str:
        return base64.b64encode(self._private.sign(message)).decode("ascii")


def _key_path(member: str, public: str) -> Path:
    return keys_dir() / f"{member}-{fingerprint(public)}.pem"


def _refuse_rules_folder(target: Path, rules_folder: Path | None) -> None:
    if rules_folder is None:
        return
    with contextlib.suppress(OSError):
        if target.resolve().is_relative_to(Path(rules_folder).resolve()):
            raise KeyStoreError(
                f"the configuration folder {config_dir()} is inside the rules folder "
                f"{rules_folder}: a private key is never stored with the rules (set "
                f"{CONFIG_ENV} to another folder)")


def _store(member: str, private: Ed25519PrivateKey, passphrase: bytes | None,
           rules_folder: Path | None) -> tuple[SigningKey, Path]:
    from cryptography.hazmat.primitives import serialization

    public = encode_public(private.public_key())
    folder = keys_dir()
    _refuse_rules_folder(folder, rules_folder)
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(folder, 0o700)
    except OSError as exc:
        raise KeyStoreError(f"cannot create the key folder {folder}: {exc.strerror}") from None
    encryption = (serialization.BestAvailableEncryption(passphrase) if passphrase
                  else serialization.NoEncryption())
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                encryption)
    target = _key_path(member, public)
    atomic_write_bytes(target, pem)  # a new file from mkstemp: mode 0600 already
    os.chmod(target, 0o600)
    return SigningKey(member, public, private), target


def generate_key(member: str, passphrase: bytes | None = None, *,
                 rules_folder: Path | None = None) -> tuple[SigningKey, Path]:
    """A new key for ``member``, stored in the configuration folder (0600)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return _store(member, Ed25519PrivateKey.generate(), passphrase, rules_folder)


def public_of_pem(pem: bytes, passphrase: bytes | None = None) -> str:
    """The public key (``ed25519:...``) of a private key file, without storing it."""
    return encode_public(_open_pem(pem, passphrase, "the key file").public_key())


def import_key(member: str, pem: bytes, passphrase: bytes | None = None, *,
               rules_folder: Path | None = None) -> tuple[SigningKey, Path]:
    """Store an existing private key (PEM, PKCS#8) for ``member`` under the same passphrase."""
    private = _open_pem(pem, passphrase, "the key file")
    return _store(member, private, passphrase, rules_folder)


def _open_pem(pem: bytes, passphrase: bytes | None, what: str) -> Ed25519PrivateKey:
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    try:
        private = serialization.load_pem_private_key(pem, password=passphrase or None)
    except TypeError:
        if passphrase:
            raise PassphraseError(f"{what} is not protected by a passphrase; "
                                  f"give none") from None
        raise PassphraseError(f"{what} is protected by a passphrase: give it") from None
    except (ValueError, UnsupportedAlgorithm):
        if passphrase:
            raise PassphraseError(f"wrong passphrase for {what} (or the file is not a "
                                  f"private key)") from None
        raise KeyStoreError(f"{what} is not a PEM private key") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise KeyStoreError(f"{what} is not an Ed25519 key")
    return private


def key_file(member: str, public: str) -> Path:
    """Where the private key of ``member`` for ``public`` is kept on this computer."""
    return _key_path(member, public)


def has_private_key(member: str, public: str) -> bool:
    return _key_path(member, public).is_file()


def needs_passphrase(member: str, public: str) -> bool:
    try:
        return b"ENCRYPTED" in _key_path(member, public).read_bytes()[:64]
    except OSError:
        return False


def load_signing_key(member: str, public: str | None,
                     passphrase: bytes | None = None) -> SigningKey:
    """Open the private key of ``member`` whose public key is ``public`` (from members.yaml)."""
    if not public:
        raise MissingKeyError(f"member {member} has no key in members.yaml; create one with "
                              f"`rulesbook member keygen --member {member}`")
    path = _key_path(member, public)
    try:
        pem = path.read_bytes()
    except FileNotFoundError:
        raise MissingKeyError(f"the private key of member {member} (key {fingerprint(public)}) "
                              f"is not on this computer (looked for {path}); import it or "
                              f"create a new one") from None
    except OSError as exc:
        raise KeyStoreError(f"cannot read the key of member {member}: {exc.strerror}") from None
    private = _open_pem(pem, passphrase, f"the key of member {member}")
    if encode_public(private.public_key()) != public:
        raise KeyStoreError(f"the key file {path.name} does not hold the key of member "
                            f"{member} recorded in members.yaml")
    return SigningKey(member, public, private)
