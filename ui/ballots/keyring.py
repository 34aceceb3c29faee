"""The user's signing key in the app: choose, create or import it; open it with its
passphrase. Owns the opened key (a core ``SigningKey``) for the session.

Signals:
  keyChanged(object)   the key in use (SigningKey) or None
  message(str, bool)   a sentence for the user, and whether it is an error

Nothing here ever shows, logs or keeps the private key's bytes or the passphrase
(the passphrase is dropped once the key is open).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from rulesbook.ballots import (
    BallotError,
    KeyStoreError,
    MissingKeyError,
    PassphraseError,
    Registry,
    SigningKey,
    generate_key,
    load_registry,
    load_signing_key,
)
from rulesbook.ballots.keys import has_private_key, key_file, needs_passphrase
from rulesbook.ballots.registry import import_member_key, register_key


class KeyRing(QObject):
    keyChanged = Signal(object)
    message = Signal(str, bool)

    def __init__(self, root_of: Callable[[], str | Path | None] = lambda: None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._root_of = root_of  # () -> the data folder (its members.yaml)
        self.signer: SigningKey | None = None

    @property
    def root(self) -> Path | None:
        root = self._root_of()
        return Path(root) if root is not None else None

    def _folder(self) -> Path:
        """The open data folder (BallotError when none is open)."""
        root = self.root
        if root is None:
            raise BallotError("no rules folder is open")
        return root

    def registry(self) -> Registry:
        return load_registry(self._folder())

    def local_members(self) -> list[str]:
        """Members whose confirmed private key is on this computer."""
        registry = self.registry()
        out = []
        for record in registry.keys:
            if record.revoked_at or record.member in out:
                continue
            if has_private_key(record.member, record.key):
                out.append(record.member)
        return out

    def needs_passphrase(self, member: str) -> bool:
        public = self.registry().signing_key(member)
        return bool(public and needs_passphrase(member, public))

    def _fail(self, exc: Exception) -> None:
        self.message.emit(str(exc).split("\n")[0], True)
        raise exc

    def use(self, member: str, passphrase: str = "") -> SigningKey:
        """Open ``member``'s key (MissingKeyError / PassphraseError with a plain message)."""
        try:
            public = self.registry().signing_key(member)
            if public and not has_private_key(member, public):
                raise MissingKeyError(
                    f"No key of member {member} on this computer (looked for "
                    f"{key_file(member, public).name} in the configuration folder): create "
                    f"a new one or import yours")
            signer = load_signing_key(member, public, passphrase.encode("utf-8") or None)
            why = self.registry().key_problem(member, signer.public)
            if why:
                self.message.emit(f"Signing as {member}, but {why}", True)
        except PassphraseError as exc:
            self._fail(PassphraseError(f"Wrong or missing passphrase for the key of member "
                                       f"{member}: {exc}"))
        except (KeyStoreError, BallotError) as exc:
            self._fail(exc)
        self._set(signer)
        if not why:
            self.message.emit(f"Signing as {member} (key {signer.fingerprint})", False)
        return signer

    def create(self, member: str, passphrase: str = "") -> SigningKey:
        """A new key for ``member``: private key in the configuration folder, public key
        registered (signed) in members.yaml."""
        try:
            signer, _ = generate_key(member, passphrase.encode("utf-8") or None,
                                     rules_folder=self._folder())
            self._register(signer)
        except (KeyStoreError, BallotError) as exc:
            self._fail(exc)
        return signer

    def import_file(self, member: str, path: str | Path, passphrase: str = "") -> SigningKey:
        """Store a private key file (PEM) of ``member`` and use it."""
        try:
            root = self._folder()  # refuses when no rules folder is open
            try:
                pem = Path(path).read_bytes()
            except OSError as exc:
                raise KeyStoreError(f"cannot read the key file {path}: {exc.strerror}") from None
            signer, _ = import_member_key(root, member, pem,
                                          passphrase.encode("utf-8") or None)
            if self.registry().registered_key(member) != signer.public:
                self._register(signer, "signing key imported")
            else:
                self._set(signer)
                self.message.emit(f"Imported the key of {member}; signing as {member}", False)
        except PassphraseError as exc:
            self._fail(PassphraseError(f"Wrong or missing passphrase for the key file: {exc}"))
        except (KeyStoreError, BallotError) as exc:
            self._fail(exc)
        return signer

    def _register(self, signer: SigningKey, what: str = "new signing key") -> None:
        from rulesbook.rulesfolder import RulesFolderError, recorded_change

        root = self._folder()
        try:  # one commit in a rules folder, as `rulesbook member keygen` makes
            with recorded_change(root / "members.yaml",
                                 f"Member {signer.member}: {what}", member=signer.member):
                registry = register_key(root, signer)
        except RulesFolderError as exc:
            raise BallotError(str(exc)) from None
        self._set(signer)
        why = registry.key_problem(signer.member, signer.public)
        note = f"; it counts once the chair ({registry.chair}) confirms it" if why else ""
        self.message.emit(f"Key {signer.fingerprint} of {signer.member} created and registered "
                          f"in members.yaml{note}; signing as {signer.member}", False)

    def forget(self) -> None:
        self._set(None)

    def require(self) -> SigningKey:
        if self.signer is None:
            raise MissingKeyError("Choose your key first (Your key: use, create or import "
                                  "one): every vote and seal is signed")
        return self.signer

    def _set(self, signer: SigningKey | None) -> None:
        self.signer = signer
        self.keyChanged.emit(signer)
