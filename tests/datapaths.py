"""The one place for the paths of the test data vendored in ``tests/data``."""
from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
SEEDS = DATA / "seeds"      # the four source documents, verbatim
CORPUS = DATA / "corpus"    # real game records (see corpus/README.md)
