"""Issue 20, item 5: how a ruling rests on its rule is an enum, not a bare string;
the data files and the JSON keep the plain words."""
from __future__ import annotations

import json

from rulesbook.rulings import Basis, suggest
from rulesbook.rulings.catalogue import catalogue_of


def test_every_ruling_says_its_basis_with_the_enum(library):
    specs = [spec for group in catalogue_of(library).specs.values() for spec in group]
    assert specs and all(isinstance(spec.basis, Basis) for spec in specs)
    # the bundled rulings hold both kinds (issue 17 marked the inferred ones)
    assert {spec.basis for spec in specs} == {Basis.STATED, Basis.INFERRED}


def test_the_json_keeps_the_plain_word(library):
    result = suggest(library, "failure_to_capture", {"discovered": "at_once"})
    words = {r.as_json()["basis"] for r in result.rulings}
    assert words <= {"stated", "inferred"} and words
    json.dumps([r.as_json() for r in result.rulings])  # plain JSON, no enum objects
