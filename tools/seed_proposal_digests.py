"""Print rulesbook/proposing/seed_proposals.py from the shipped rules folder: the
SHA-256 of the canonical record of every proposal of the source document.

    .venv/bin/python tools/seed_proposal_digests.py > rulesbook/proposing/seed_proposals.py
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulesbook.datapath import bundled_data_dir  # noqa: E402
from rulesbook.proposing.checks import proposal_records  # noqa: E402
from rulesbook.proposing.signature import seed_digest  # noqa: E402
from rulesbook.yamlio import load_file  # noqa: E402

HEAD = '''"""The proposals of the source document (members A–E), as the shipped rules folder
holds them: the SHA-256 of each canonical record (:func:`.signature.seed_digest`).

They carry no signature (nobody held a key when they were made); one of them is
valid unsigned only while it is exactly this record. Generated from the shipped
``rules_data`` by ``tools/seed_proposal_digests.py``; a test checks that the list
matches the shipped data."""
from __future__ import annotations

SEED_PROPOSALS: frozenset[str] = frozenset({'''


def main() -> None:
    print(HEAD)
    for path in sorted(bundled_data_dir().rglob("rulebook.yaml")):
        data = load_file(path).data
        for book, rule, record, _where in proposal_records(data):
            print(f'    "{seed_digest(book, rule, record)}",  # {book}:{record["id"]}')
    print("})")


if __name__ == "__main__":
    main()
