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
