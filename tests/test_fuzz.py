"""A short run of the byte-level fuzzer over every reader (make fuzz runs 100,000)."""


def test_short_fuzz_run_finds_no_failures(load_tool):
    readers = load_tool("fuzz").fuzz(total=2400, seed=11)
    names = {r.name for r in readers}
    assert {"fen-pool", "move-text", "pdn", "yaml-rulebook", "yaml-topics"} <= names
    failures = [f for r in readers for f in r.failures]
    assert failures == []
    assert sum(r.count for r in readers) >= 2400 - len(readers)


def test_the_fuzzer_would_notice_an_undocumented_exception(load_tool):
    tool = load_tool("fuzz")
    assert not tool.documented(KeyError("x"))
    assert not tool.documented(ValueError("plain ValueError from somewhere"))
    from rulesbook.draughts import FenError
    assert tool.documented(FenError("bad FEN at column 3"))


def test_the_scaling_check_covers_every_reader_up_to_its_limits(load_tool):
    scaling = load_tool("scaling")
    names = {r.name for r in scaling.READERS}
    assert {"replay-games", "replay-plies", "replay-move-list", "pdn-games", "pdn-junk-line",
            "pdn-tag-value", "pdn-comment", "pdn-variations", "fen", "move-text",
            "yaml-data", "ballot-file"} <= names
    from rulesbook import limits

    # the 100x inputs reach the limits without passing them (issue #14: 64 KB never did)
    assert len(scaling._fen(100)) <= limits.MAX_FEN_CHARS
    assert len(scaling._junk_line(100)) <= limits.MAX_LINE_CHARS
    assert len(scaling._plies(100).split(b"-")) - 1 <= limits.MAX_PLIES
    assert len(scaling._games(100)) > 64 * 1024 * 10


def test_the_scaling_verdict_tells_linear_from_quadratic(load_tool):
    scaling = load_tool("scaling")
    mib = 2 ** 20
    linear = [scaling.Measure(10, 10, 0.5, 20 * mib), scaling.Measure(100, 100, 5.2, 190 * mib)]
    quadratic = [scaling.Measure(10, 10, 0.5, 20 * mib), scaling.Measure(100, 100, 50.0, 20 * mib)]
    hungry = [scaling.Measure(10, 10, 0.5, 20 * mib), scaling.Measure(100, 100, 5.0, 2000 * mib)]
    assert scaling.verdict(linear)[2] is True
    assert scaling.verdict(quadratic)[2] is False
    assert scaling.verdict(hungry)[2] is False


def test_one_scaling_measurement_runs_in_a_child(load_tool):
    scaling = load_tool("scaling")
    (fen,) = [r for r in scaling.READERS if r.name == "fen"]
    measures = scaling.measure(fen, factors=(1, 2))
    assert [m.factor for m in measures] == [1, 2]
    assert measures[1].size > measures[0].size and all(m.seconds >= 0 for m in measures)
