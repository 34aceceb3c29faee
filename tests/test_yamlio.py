import pytest

from rulesbook.errors import DataFileError
from rulesbook.yamlio import MAX_DEPTH, load_file, loads


def test_values_are_placed_at_their_key_line():
    doc = loads("a: 1\nb:\n  - x\n  - {c: 2}\n", "f.yaml")
    assert doc.data == {"a": 1, "b": ["x", {"c": 2}]}
    assert doc.where(("a",)) == (1, 1)
    assert doc.where(("b", 1, "c")) == (4, 6)
    # an unknown path falls back to its nearest known parent
    assert doc.where(("b", 1, "zzz")) == (4, 5)


def test_unsafe_python_tag_is_refused_with_its_line():
    with pytest.raises(DataFileError) as err:
        loads("ok: 1\nbad: !!python/object/apply:os.system ['echo hi']\n", "evil.yaml")
    assert str(err.value).startswith("evil.yaml:2:")
    assert "unsupported tag" in str(err.value)


def test_aliases_are_refused():
    bomb = "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n"
    with pytest.raises(DataFileError, match="aliases"):
        loads(bomb, "bomb.yaml")


def test_deep_nesting_is_refused():
    text = "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5)
    with pytest.raises(DataFileError, match="nested"):
        loads(text, "deep.yaml")


def test_duplicate_keys_are_refused():
    with pytest.raises(DataFileError, match="duplicate key 'a'") as err:
        loads("a: 1\na: 2\n", "d.yaml")
    assert err.value.problem.line == 2


def test_broken_yaml_reports_line_and_column():
    with pytest.raises(DataFileError) as err:
        loads("a: [1, 2\nb: 3\n", "broken.yaml")
    assert err.value.problem.file == "broken.yaml"
    assert err.value.problem.line >= 2
    assert "not valid YAML" in err.value.problem.message


def test_not_utf8_is_reported_with_the_line(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("a: 1\nb: caf\xe9\n".encode("latin-1"))
    with pytest.raises(DataFileError) as err:
        load_file(path, "latin1.yaml")
    assert err.value.problem.line == 2
    assert "not UTF-8" in err.value.problem.message


def test_dates_stay_text():
    assert loads("d: 2026-01-01\n").data == {"d": "2026-01-01"}


def test_empty_file():
    with pytest.raises(DataFileError, match="empty"):
        loads("", "e.yaml")
