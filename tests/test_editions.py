import pytest

from rulesbook import load_library
from rulesbook.editions import consolidate, redline
from rulesbook.textdiff import word_diff
from tests.ballots.helpers import adopt_edition


@pytest.fixture
def two_editions(data_copy, tmp_path, monkeypatch):
    """A second edition adopted by a signed ballot b1 (28A for rule 28, the Purpose
    text), with rule 34 repealed (a repeal has no ballot question yet)."""
    monkeypatch.setenv("RULESBOOK_CONFIG", str(tmp_path / "config"))
    adopt_edition(data_copy, "second", {"28": "28A", "Purpose": "yes"},
                  title="Second edition", date="2027-01-01")
    path = data_copy / "editions.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "    repealed:\n      - rule: apca:34\n",
                    encoding="utf-8")
    # the chair re-signs the record with the repeal (every edition record is signed by
    # its adopter: a repeal added without the chair's key is reported as a hand edit)
    import yaml

    from rulesbook.ballots import load_registry, load_signing_key
    from rulesbook.ballots.edition_sig import sign_edition

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    chair = load_signing_key("A", load_registry(data_copy).key_of("A"))
    data["editions"][-1] = sign_edition(data["editions"][-1], chair, "2027-01-01T12:00:00Z")
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                    encoding="utf-8")
    return load_library(data_copy)


def test_original_edition_is_the_original_text(library):
    book = consolidate(library, "original")
    assert len(book.rules) == 34
    assert book.rule("apca:28").text == library.index["apca:28"].text
    assert all(r.source == r.ref for r in book.rules)


def test_adopted_text_is_in_force(two_editions):
    book = consolidate(two_editions, "second")
    rule = book.rule("apca:28")
    assert rule.text == two_editions.index["apca:28A"].text
    assert rule.source == "apca:28A" and rule.adopted_in == "second" and rule.ballot == "b1"
    assert book.rule("apca:Purpose").number is None  # added text
    with pytest.raises(KeyError):
        book.rule("apca:34")


def test_redline_between_editions(two_editions):
    diff = redline(two_editions, "original", "second")
    status = {e.ref: e.status for e in diff.changes}
    assert status == {"apca:28": "changed", "apca:34": "deleted", "apca:Purpose": "added"}
    changed = next(e for e in diff.changes if e.ref == "apca:28")
    assert "[-" in changed.diff.plain() and "{+" in changed.diff.plain()
    html = diff.as_html()
    assert "<del" in html and "<ins" in html
    assert "apca:27" not in diff.as_text()  # unchanged rules are not listed
    assert redline(two_editions, "second", "second").changes == ()


def test_word_diff_marks_words_and_ignores_whitespace():
    d = word_diff("the man moves  forward", "the man moves\nbackward")
    assert d.plain() == "the man moves\n[-forward-]{+backward+}"
    assert not word_diff("a  b\nc", "a b c").changed
    assert word_diff("A B C", "a b c", ignore_case=True).changed is False


def test_word_diff_html_is_escaped():
    d = word_diff("<b>x</b>", "<script>alert(1)</script>")
    assert "<script>" not in d.html() and "&lt;script&gt;" in d.html()


def test_diff_of_unrelated_texts_is_one_deletion_and_one_insertion():
    d = word_diff("the cat sat on the mat", "a dog ran to the park")
    assert [op.op for op in d.ops] == ["delete", "insert"]
