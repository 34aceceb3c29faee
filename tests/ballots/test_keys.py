"""The key store and the members' registry, against a user who edits files."""
from __future__ import annotations

import pytest

from rulesbook.ballots import (
    KeyStoreError,
    MissingKeyError,
    PassphraseError,
    append_statement,
    generate_key,
    import_key,
    load_registry,
    load_signing_key,
)
from rulesbook.ballots.keys import decode_public, key_file, verify_signature
from rulesbook.ballots.model import BallotError


def test_a_key_never_shows_itself(config):
    signer, path = generate_key("A", b"s3cret")
    pem = path.read_text()
    body = "".join(pem.splitlines()[1:-1])
    assert body[:20] not in repr(signer) and "_private" not in repr(signer)
    with pytest.raises(PassphraseError) as wrong:
        load_signing_key("A", signer.public, b"guess")
    assert "s3cret" not in str(wrong.value) and "guess" not in str(wrong.value)
    with pytest.raises(PassphraseError, match="protected by a passphrase"):
        load_signing_key("A", signer.public, None)
    assert load_signing_key("A", signer.public, b"s3cret").public == signer.public


def test_missing_and_mismatched_keys(config):
    signer, path = generate_key("A")
    other, _ = generate_key("B")
    with pytest.raises(MissingKeyError, match="is not on this computer"):
        load_signing_key("C", signer.public)
    with pytest.raises(MissingKeyError, match="has no key in members.yaml"):
        load_signing_key("C", None)
    # a key file swapped for another one under the same name
    key_file("B", other.public).replace(path)
    with pytest.raises(KeyStoreError, match="does not hold the key of member A"):
        load_signing_key("A", signer.public)


def test_import_refuses_what_is_not_an_ed25519_key(config, tmp_path):
    with pytest.raises(KeyStoreError, match="not a PEM private key"):
        import_key("A", b"-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n")
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())
    with pytest.raises(KeyStoreError, match="not an Ed25519 key"):
        import_key("A", pem)


@pytest.mark.parametrize("text", ["", "ed25519:", "ed25519:!!!!", "rsa:AAAA", "ed25519:AAAA"])
def test_bad_public_keys(text):
    with pytest.raises(BallotError):
        decode_public(text)
    assert not verify_signature(text, b"m", "AAAA")


def test_a_key_slipped_in_for_a_member_does_not_count(keys, data_copy):
    """Mallory registers a key of her own as E's (self-signed, as keygen does): with a
    chair in office it stays unconfirmed, so it signs nothing for E."""
    mallory, _ = generate_key("E")
    append_statement(data_copy,
        {"op": "key", "member": "E", "key": mallory.public, "at": "2026-02-02T00:00:00Z"},
        mallory)
    registry = load_registry(data_copy)
    assert "never confirmed by the chair" in registry.key_problem("E", mallory.public)
    assert registry.key_problem("E", keys["E"].public) is None
    # nor can she confirm it herself, or back-date a statement
    with pytest.raises(BallotError, match="must be signed by the chair"):
        append_statement(data_copy,
            {"op": "role", "member": "E", "role": "member", "key": mallory.public,
             "at": "2026-02-02T00:00:00Z"}, mallory)
    with pytest.raises(BallotError, match="never back-dated"):
        append_statement(data_copy,
            {"op": "role", "member": "E", "role": "member", "key": mallory.public,
             "at": "2025-01-01T00:00:00Z"}, keys["A"])


def test_a_kept_answer_never_vouches_for_another_message_key_or_signature(tmp_path, monkeypatch):
    """verify_signature keeps its answers: a message, key or signature changed after
    the right one was checked is still refused, and the kept answer is the one the
    cryptography gave (counted: checked once)."""
    from rulesbook.ballots import keys

    monkeypatch.setenv("RULESBOOK_CONFIG", str(tmp_path / "config"))
    alice, _ = generate_key("A")
    bob, _ = generate_key("B")
    signature = alice.sign(b"vote: 28A")
    calls = []
    original = keys._verify
    monkeypatch.setattr(keys, "_verify", lambda *a: calls.append(a) or original(*a))
    assert verify_signature(alice.public, b"vote: 28A", signature)
    assert verify_signature(alice.public, b"vote: 28A", signature)
    assert len(calls) == 1  # the second answer was the kept one
    assert not verify_signature(alice.public, b"vote: 28B", signature)
    assert not verify_signature(bob.public, b"vote: 28A", signature)
    assert not verify_signature(alice.public, b"vote: 28A", bob.sign(b"vote: 28A"))
    assert not verify_signature(alice.public, b"vote: 28A", signature[:-4] + "AAA=")
