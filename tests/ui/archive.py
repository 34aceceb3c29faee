"""A game file without player tags, as the ACF archive writes its games (an Event
per game, a comment, no White/Black; issue 33 names it, and it is not among the
vendored corpus files): the moves are the OCA collection's (tests/data/corpus),
the events and comments made here."""
from __future__ import annotations

from pathlib import Path

from rulesbook.reconstruct import import_record, split_games
from tests.datapaths import CORPUS

OCA = CORPUS / "english-oca-2.0.pdn"
#: the comment of game N (1-based) of :func:`archive_text`: a word only odd games have
COMMENTS = ("Scored by hand at {site}", "Scored by hand at {site}; forfeit claimed")


def archive_games(games: int = 12) -> list[tuple[str, str, str, list[str]]]:
    """``(event, comment, result, moves)`` of each game of the archive."""
    text = OCA.read_text(encoding="utf-8")
    out = []
    for chunk in split_games(text)[:games]:
        record = import_record(text, chunk.index, None).record
        n = chunk.index + 1
        comment = COMMENTS[n % 2].format(site=chunk.tags.get("Site", "somewhere"))
        out.append((f"ACF archive game {n}", comment, record.result,
                    [m.text for m in record.moves]))
    return out


def numbered(moves: list[str]) -> str:
    """``1. 11-15 24-20 2. 8-11 …`` (every game of the archive starts from the
    standard position, the first player to move)."""
    words = []
    for ply, move in enumerate(moves):
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(move)
    return " ".join(words)


def archive_text(games: int = 12) -> str:
    return "\n".join(f'[Event "{event}"]\n[Result "{result}"]\n{{{comment}}} '
                     f"{numbered(moves)} {result}\n"
                     for event, comment, result, moves in archive_games(games))


def write_archive(folder: Path, games: int = 12) -> Path:
    path = folder / "acf-archive.pdn"
    path.write_text(archive_text(games), encoding="utf-8")
    return path
