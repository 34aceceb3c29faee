"""load_document: one reader for every data document (read, kind, schema, checks),
one error type whose problems name the file and line."""
from __future__ import annotations

import pytest

from rulesbook.documents import DocumentError, DocumentStage, load_document
from rulesbook.errors import DataFileError, Problem
from rulesbook.yamlio import LoadedYaml

TOPICS = "schema_version: 1\nkind: topics\ntopics:\n  - id: x\n    title: X\n"


def stage_of(path, kind, checks=(), **kw) -> DocumentError:
    with pytest.raises(DocumentError) as info:
        load_document(path, kind, checks, **kw)
    return info.value


def test_a_clean_document_is_returned(tmp_path):
    path = tmp_path / "topics.yaml"
    path.write_text(TOPICS, encoding="utf-8")
    doc = load_document(path, "topics")
    assert doc.data["topics"][0]["id"] == "x" and doc.file == str(path)
    assert load_document(path, None, display="topics.yaml").file == "topics.yaml"


def test_each_stage_names_the_file_and_line(tmp_path):
    # positions are those of the key (line 2, column 1 for "kind: topics")
    path = tmp_path / "t.yaml"
    err = stage_of(path, "topics")  # missing
    assert err.stage is DocumentStage.UNREADABLE and isinstance(err, DataFileError)
    assert str(path) in str(err)
    path.write_text("- a\n- b\n", encoding="utf-8")
    err = stage_of(path, "topics")
    assert err.stage is DocumentStage.NOT_A_MAPPING and err.kind is None
    path.write_text(TOPICS, encoding="utf-8")
    err = stage_of(path, "ballot", display="t.yaml")
    assert err.stage is DocumentStage.WRONG_KIND and err.kind == "topics"
    assert str(err) == "t.yaml:2:1: kind must be 'ballot' for t.yaml, not 'topics'"
    path.write_text(TOPICS.replace("kind: topics", "kind: topic"), encoding="utf-8")
    err = stage_of(path, None, display="t.yaml")
    assert err.stage is DocumentStage.WRONG_KIND and "did you mean 'topics'" in str(err)
    path.write_text(TOPICS.replace("    title: X\n", ""), encoding="utf-8")
    err = stage_of(path, "topics", display="t.yaml")
    assert err.stage is DocumentStage.SCHEMA and err.doc is not None
    assert str(err).startswith("t.yaml:4:") and "title" in str(err)


def test_checks_run_after_the_schema_and_all_are_reported(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(TOPICS, encoding="utf-8")
    calls: list[str] = []

    def first(doc: LoadedYaml) -> list[Problem]:
        calls.append("first")
        return [doc.problem(("topics", 0, "id"), "id x is taken")]

    def second(doc: LoadedYaml) -> list[Problem]:
        calls.append("second")
        return [doc.problem(("topics", 0, "title"), "title X is too short")]

    err = stage_of(path, "topics", [first, second], display="t.yaml")
    assert calls == ["first", "second"] and err.stage is DocumentStage.CHECKS
    assert str(err).splitlines() == ["t.yaml:4:5: id x is taken",
                                     "t.yaml:5:5: title X is too short"]
    path.write_text(TOPICS.replace("kind: topics", "kind: ballot"), encoding="utf-8")
    calls.clear()
    stage_of(path, "topics", [first])
    assert calls == []  # a document of another kind is never checked further


def test_text_is_checked_instead_of_the_file(tmp_path):
    path = tmp_path / "absent.yaml"
    assert load_document(path, "topics", text=TOPICS).data["kind"] == "topics"
    assert not path.exists()
    err = stage_of(path, "topics", text="kind: [")
    assert err.stage is DocumentStage.UNREADABLE and str(path) in str(err)


def test_reusing_documents_reads_a_changed_file_again_and_keeps_two_folders(tmp_path):
    """Within reusing_documents the same bytes under the same name are the document
    read before (no parse); changed bytes, another name or a file that no longer
    reads are read again; a document unused for two folders is let go."""
    from rulesbook.documents import next_folder, reusing_documents

    first, second = tmp_path / "a" / "topics.yaml", tmp_path / "b" / "topics.yaml"
    for path in (first, second):
        path.parent.mkdir()
        path.write_text(TOPICS, encoding="utf-8")
    assert load_document(first, "topics") is not load_document(first, "topics")  # outside
    with reusing_documents():
        doc = load_document(first, "topics", display="topics.yaml")
        next_folder()
        assert load_document(second, "topics", display="topics.yaml") is doc  # same bytes
        assert load_document(second, "topics", display="other.yaml") is not doc
        second.write_text(TOPICS.replace("title: X", "title: Y"), encoding="utf-8")
        changed = load_document(second, "topics", display="topics.yaml")
        assert changed is not doc and changed.data["topics"][0]["title"] == "Y"
        second.write_text("kind: [", encoding="utf-8")
        assert stage_of(second, "topics", display="topics.yaml").stage is DocumentStage.UNREADABLE
        next_folder()
        next_folder()  # two folders without it: let go
        assert load_document(first, "topics", display="topics.yaml") is not doc
