import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# -- issue #34: YAML resolves only the types the schemas use; every refusal at its line ----

def test_a_sexagesimal_number_stays_text_and_is_never_converted():
    # YAML 1.1 reads 1:00:00 as 3600; converting 100,000 parts took 8.6 s (quadratic)
    doc = loads("a: 1:00:00\nb: 1:30.5\nc: " + "1" + ":00" * 100_000 + "\n", "s.yaml")
    assert doc.data["a"] == "1:00:00" and doc.data["b"] == "1:30.5"
    assert doc.data["c"].count(":") == 100_000


def test_an_explicit_sexagesimal_tag_is_refused_at_its_line():
    for text in ("ok: 1\nx: !!int 1:00:00\n", "ok: 1\nx: !!float 1:00:00.5\n"):
        with pytest.raises(DataFileError, match="sexagesimal") as err:
            loads(text, "t.yaml")
        assert (err.value.problem.file, err.value.problem.line) == ("t.yaml", 2)


def test_an_integer_past_the_digit_limit_is_refused_at_its_line_not_an_internal_error():
    from rulesbook.yamlio import MAX_INT_DIGITS

    assert loads("x: " + "7" * MAX_INT_DIGITS + "\n").data["x"] == int("7" * MAX_INT_DIGITS)
    for digits in (MAX_INT_DIGITS + 1, 4301, 50_000):  # Python itself refuses past 4,300
        with pytest.raises(DataFileError, match="digits") as err:
            loads("ok: 1\nx: " + "7" * digits + "\n", "big.yaml")
        assert err.value.problem.line == 2 and err.value.problem.col == 4


def test_the_number_of_values_is_bounded_and_the_refusal_names_the_line(monkeypatch):
    from rulesbook import yamlio

    monkeypatch.setattr(yamlio, "MAX_VALUES", 1000)
    # the mapping, its key and the list are three values: 997 items make 1,000
    assert len(loads("x: [" + "1," * 996 + "1]\n").data["x"]) == 997
    with pytest.raises(DataFileError, match="at most 1,000") as err:
        loads("x:\n" + "".join(f"- {n}\n" for n in range(1000)), "many.yaml")
    assert err.value.problem.line == 999  # the 1,001st value: the 998th item, on line 999


def test_the_fast_reader_gives_what_pyyaml_gives_for_plain_data():
    import yaml

    text = ("a: 1\nb: -0x1F\nc: 0o17\nd: 017\ne: 1_000\nf: 1.5e+3\ng: .inf\nh: yes\ni: ~\n"
            "j: 'quoted: 1'\nk: [1, two, {three: 3.0}]\nl: |\n  block\n  text\nm: 2026-01-01\n"
            "n: null\no: ''\np: !!str 12\n")
    expected = yaml.safe_load(text)
    expected["m"] = "2026-01-01"  # dates stay the text written
    got = loads(text).data
    assert got == expected
    assert type(got["f"]) is float and type(got["e"]) is int


def test_the_marks_are_computed_only_when_a_problem_is_reported():
    doc = loads("a:\n  b: [1, 2]\nc:\n- x: 1\n- x: [2, 3]\n", "m.yaml")
    assert "marks" not in doc.__dict__ and not doc._parts  # nothing but the records
    assert doc.where(("c", 1)) == (5, 3) and not doc._parts  # a record: no second read
    assert doc.where(("a", "b", 1)) == (2, 10)
    assert doc.where(("c", 1, "x", 1)) == (5, 10)
    # only those two records were read again, never the whole text
    assert set(doc._parts) == {("a",), ("c", 1)} and "marks" not in doc.__dict__


def test_a_flow_style_top_level_falls_back_on_reading_the_whole_text():
    doc = loads("{a: 1, b: [{x: 1}, {x: 2}]}\n", "m.yaml")
    assert doc.where(("b", 1, "x")) == (1, 21)
    assert "marks" in doc.__dict__


_TREES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=10)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=8), _TREES | st.lists(_TREES, max_size=4),
                       min_size=1, max_size=4))
def test_where_from_the_records_is_where_a_whole_second_read_places_it(data):
    """:meth:`LoadedYaml.where` (a record from the first read's marks, a value in it
    from its lines read again) answers what the marks of the whole text say, for every
    value of files as dump_text writes them, and for a path that is not there."""
    from rulesbook.yamlio import dump_text

    for width, flow in ((100, None), (88, False), (60, True)):
        text = "# a comment\n" + dump_text(data, width=width, flow=flow)
        full = loads(text).marks
        # with the data (a record read again is compared with it) and without it
        for doc in (loads(text), loads(text).detached()):
            for path, mark in full.items():
                assert doc.where(path) == mark, (text, path, doc.whole)
                assert doc.where(path + ("no such key", 7)) == mark, (text, path)


def test_a_detached_document_keeps_its_keys_and_marks_but_not_its_data():
    doc = loads("a: 1\nvotes:\n- {member: A, ranking: [x, y]}\n- member: B\n  ranking:\n"
                "  - z\n", "m.yaml").detached()
    assert doc.data == {"a": None, "votes": None}
    assert doc.where(("votes", 1, "ranking", 0)) == (6, 5)
    assert doc.where(("votes", 0, "ranking", 1)) == (3, 28)
    assert "marks" not in doc.__dict__


@pytest.mark.parametrize("name", ["yaml-sexagesimal", "yaml-sexagesimal-tagged", "yaml-long-int",
                                  "yaml-flow-list", "yaml-map", "yaml-flow-map"])
def test_the_yaml_generators_of_the_scaling_check_grow_linearly(load_tool, name):
    scaling = load_tool("scaling")
    (reader,) = [r for r in scaling.READERS if r.name == name]
    measures = scaling.measure(reader, factors=(1, 10))
    assert scaling.verdict(measures)[2], measures


@settings(max_examples=300, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=300),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=20), inner,
                                                                 max_size=4),
    max_leaves=12))
def test_what_dump_text_writes_reads_back_as_the_same_data(data):
    """Every data file is written by dump_text (libyaml's emitter where PyYAML has
    it): whatever the strings hold (quotes, line separators, bidi codes, long lines
    folded at the width), the text reads back as the same data."""
    from rulesbook.yamlio import dump_text, loads

    for width, flow in ((100, None), (1000, None), (88, False)):
        text = dump_text({"value": data}, width=width, flow=flow)
        assert loads(text).data == {"value": data}
