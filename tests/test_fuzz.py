"""A short run of the byte-level fuzzer over every reader (make fuzz runs 100,000)."""
import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def load_tool():
    spec = importlib.util.spec_from_file_location("fuzz_tool", REPO / "tools" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_short_fuzz_run_finds_no_failures(capsys):
    readers = load_tool().fuzz(total=2400, seed=11)
    names = {r.name for r in readers}
    assert {"fen-pool", "move-text", "pdn", "yaml-rulebook", "yaml-topics"} <= names
    failures = [f for r in readers for f in r.failures]
    assert failures == []
    assert sum(r.count for r in readers) >= 2400 - len(readers)


def test_the_fuzzer_would_notice_an_undocumented_exception():
    tool = load_tool()
    assert not tool.documented(KeyError("x"))
    assert not tool.documented(ValueError("plain ValueError from somewhere"))
    from rulesbook.draughts import FenError
    assert tool.documented(FenError("bad FEN at column 3"))
