"""Gap filling: every legal sequence of moves from a known position to the board.

The referee knows an earlier position (the start, a FEN, or the position after
the last moves the players agree on) and sees the board now; some plies in
between are missing (their number known, or only bounded).  :func:`fill_gap`
finds every legal sequence of that length leading from one to the other,
honouring moves the players agree on (:class:`Known`), and says whether the
answer is impossible, unique or several.

The search (:mod:`rulesbook.reconstruct.gap.search`) counts the sequences
depth first with a transposition table keyed by (position, plies left),
prunes with lower bounds on the moves each side still needs
(:mod:`rulesbook.reconstruct.gap.bounds`), and meets a backward frontier one
ply before the board (:mod:`rulesbook.reconstruct.gap.retro`).  The status
comes from the count, the sequences listed are the first ``limit`` of them.

Progress is reported through ``progress(fraction, nodes)`` (return False to
stop) and the search can be cancelled with a :class:`CancelToken` (or any
object with ``is_set()``, such as ``threading.Event``).
"""
from __future__ import annotations

import enum
import logging
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesbook.draughts import (
    Color,
    DraughtsError,
    Move,
    Position,
    Variant,
)
from rulesbook.draughts.movegen import compile_rules, raw_to_move
from rulesbook.draughts.notation import (
    NotationError,
    count_text,
    plies_text,
    read_move_pattern,
    write_squares,
)
from rulesbook.gcpause import cycles_paused
from rulesbook.reconstruct.gap import paths
from rulesbook.reconstruct.gap.bounds import CONE_BLACK, CONE_WHITE, Target, VariantFlags
from rulesbook.reconstruct.gap.compiled import (
    CompiledGapSearch,
    KernelFailed,
    supports,
    warm_up,
    worth_it,
)
from rulesbook.reconstruct.gap.known import check_known
from rulesbook.reconstruct.gap.paths import Branch, Certain, Option, Question
from rulesbook.reconstruct.gap.progress import reporting
from rulesbook.reconstruct.gap.retro import Key, RawMove
from rulesbook.reconstruct.gap.search import (
    COUNT_CAP,
    MAX_PLIES,
    Cancellable,
    CancelToken,
    GapSearch,
    SearchCancelled,
)

__all__ = ["Known", "GapResult", "Status", "CancelToken", "SearchCancelled", "fill_gap",
           "parse_known", "diverge_points", "MAX_PLIES", "Branch", "Certain", "Option",
           "Question"]


_log = logging.getLogger(__name__)


class Status(str, enum.Enum):
    """What a gap search found.  Compares equal to its value (``"unique"``)."""

    IMPOSSIBLE = "impossible"  #: no legal sequence: the record or the board is wrong
    UNIQUE = "unique"  #: exactly one sequence
    SEVERAL = "several"  #: two or more (``truncated`` when more than the limit exist)
    CANCELLED = "cancelled"  #: stopped before the search finished

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Known:
    """A move the players agree on: ply ``ply`` of the gap (1 = the first
    missing ply) started on ``start`` and/or ended on ``end`` and/or went
    through ``via`` (squares in order), e.g. ``Known(14, 22, 15)`` for
    "ply 14 was 22x15", ``Known(3, start=11)`` for "started on 11"."""

    ply: int
    start: int | None = None
    end: int | None = None
    via: tuple[int, ...] = ()
    text: str = ""

    def matches(self, path: tuple[int, ...]) -> bool:
        """``path`` in square numbers (1-32)."""
        if self.start is not None and path[0] != self.start:
            return False
        if self.end is not None and path[-1] != self.end:
            return False
        if self.via:
            it = iter(path[1:-1])
            if not all(any(s == p for p in it) for s in self.via):
                return False
        return True

    def __str__(self) -> str:
        if self.text:
            return f"ply {self.ply} was {self.text}"
        parts = []
        if self.start is not None:
            parts.append(f"started on {self.start}")
        if self.end is not None:
            parts.append(f"ended on {self.end}")
        return f"ply {self.ply} " + " and ".join(parts)


_KNOWN = re.compile(r"^\s*(?P<ply>[0-9]{1,5})\s*(?P<side>[BWbw])?\s*:\s*(?P<move>.+?)\s*$")


def parse_known(text: str, start: Position | None = None) -> Known:
    """Read a constraint: ``"14:22x15"`` (ply 14 of the gap was 22x15),
    ``"3:11-?"`` / ``"3:11-*"`` (started on 11), ``"3:?-15"`` (ended on 15),
    ``"12B:11-?"`` (Black's 12th move of the gap, counted from ``start``)."""
    m = _KNOWN.match(text)
    if not m:
        raise DraughtsError(f"known move {text!r}: write PLY:MOVE, e.g. 14:22x15 or 3:11-?")
    number = int(m.group("ply"))
    side = m.group("side")
    if number < 1:
        raise DraughtsError(f"known move {text!r}: plies count from 1")
    if side:
        if start is None:
            raise DraughtsError(f"known move {text!r}: a side needs the start position")
        color = Color(side.upper())
        first = start.turn
        ply = 2 * (number - 1) + (1 if color is first else 2)
    else:
        ply = number
    try:
        pattern = read_move_pattern(m.group("move"))
    except NotationError as exc:
        raise DraughtsError(f"known move {text!r}: {exc.explanation} (? for a square not "
                            f"known, e.g. 3:11-?)") from None
    return Known(ply, pattern.start, pattern.end, pattern.via, m.group("move"))


@dataclass(frozen=True)
class GapResult:
    """The answer of :func:`fill_gap`.

    ``status`` is a :class:`Status`, chosen from the number of sequences that
    exist (not from the list kept): ``truncated`` says more than ``limit``
    exist, and then only the first ``limit`` are kept;
    ``sequences`` the move sequences found (each a tuple of Moves), ``texts``
    the same as PDN move texts; ``diverge_at`` the plies (1 = the first
    missing ply) where two sequences found first differ; ``unaccounted`` the
    problems that make it impossible (pieces that cannot be accounted for).
    ``cancelled`` is True (and ``status`` CANCELLED) when the search was
    stopped early: ``sequences`` then holds those found before it stopped
    (each replays; more may exist); ``done`` is the fraction of the search it
    had covered.

    ``count`` is the number of sequences (every one counted, through
    transpositions: :mod:`.paths`), None when the search was stopped before
    it finished counting; ``count_at_least`` a proven lower bound (the count
    when it is known).  ``certain``: the moves every sequence plays;
    ``questions``: what to ask the players, the best split first; ``tree``:
    the sequences as a tree of move choices (None when stopped).
    """

    status: Status
    sequences: tuple[tuple[Move, ...], ...]
    texts: tuple[tuple[str, ...], ...]
    diverge_at: tuple[int, ...]
    explanation: str
    plies: tuple[int, ...] = ()
    unaccounted: tuple[str, ...] = ()
    nodes: int = 0
    seconds: float = field(default=0.0, compare=False)
    truncated: bool = False
    cancelled: bool = False
    done: float = field(default=1.0, compare=False)
    count: int | None = None
    count_at_least: int = 0
    certain: tuple[Certain, ...] = ()
    questions: tuple[Question, ...] = ()
    tree: Branch | None = None
    #: the end of ``explanation`` that says what would narrow the answer down
    #: ("" when none; an app asking the question itself may leave it out)
    advice: str = ""
    #: the part of ``explanation`` that says where the sequences part ("" when none)
    parting: str = ""

    @property
    def question(self) -> Question | None:
        """The best question to ask next (None: nothing splits the sequences)."""
        return self.questions[0] if self.questions else None

    def to_dict(self) -> dict[str, Any]:
        """The object printed by ``rulesbook reconstruct --json``."""
        question = self.question
        return {"status": self.status.value, "sequences": [list(t) for t in self.texts],
                "diverge_at": list(self.diverge_at), "explanation": self.explanation,
                "more_exist": self.truncated,
                # False when the search was stopped (Ctrl+C, Cancel): then more
                # sequences may exist although ``more_exist`` could not tell
                "complete": not self.cancelled,
                "count": self.count, "count_at_least": self.count_at_least,
                "certain": [c.to_dict() for c in self.certain],
                "question": question.to_dict() if question is not None else None,
                "questions": [q.to_dict() for q in self.questions],
                "tree": self.tree.to_dict() if self.tree is not None else None}


def diverge_points(sequences: Sequence[Sequence[object]]) -> tuple[int, ...]:
    """The plies (1-based) where some sequences that agreed so far first differ."""
    points: set[int] = set()

    def walk(group: list[Sequence[object]], depth: int) -> None:
        branches: dict[object, list[Sequence[object]]] = {}
        for seq in group:
            if len(seq) > depth:
                branches.setdefault(seq[depth], []).append(seq)
        if len(branches) > 1:
            points.add(depth + 1)
        for sub in branches.values():
            if len(sub) > 1:
                walk(sub, depth + 1)

    walk(list(sequences), 0)
    return tuple(sorted(points))


def _describe_counts(start: Position, target: Position) -> list[str]:
    """Reasons, readable, why no sequence of any length can join the positions."""
    problems = []
    for color in (Color.BLACK, Color.WHITE):
        name = color.name.lower()
        n0, n1 = start.count(color), target.count(color)
        if n1 > n0:
            problems.append(f"the board has {count_text(n1, f'{name} piece')} but the earlier "
                            f"position only {n0}: pieces are never added, "
                            f"{count_text(n1 - n0, f'{name} piece')} cannot be accounted for")
        m0, m1 = start.count(color, king=False), target.count(color, king=False)
        if m1 > m0:
            problems.append(f"the board has {count_text(m1, f'{name} man', f'{name} men')} "
                            f"but the earlier position only {m0}: a king never turns back "
                            f"into a man")
        k0, k1 = start.count(color, king=True), target.count(color, king=True)
        if k1 > k0 + max(m0 - m1, 0):
            crowned = count_text(max(m0 - m1, 0), "crowned man", "crowned men")
            problems.append(f"the board has {count_text(k1, f'{name} king')}; only "
                            f"{count_text(k0, 'king')} and {crowned} can explain "
                            f"{'it' if k1 == 1 else 'them'}")
        # target men with no man behind them (when no capture by this side happened)
        opp = color.opponent
        if start.count(opp) == target.count(opp):
            cone = CONE_BLACK if color is Color.BLACK else CONE_WHITE
            men0 = [s for s, p in start.pieces().items() if p.color is color and not p.king]
            for sq, piece in target.pieces().items():
                if piece.color is color and not piece.king:
                    if not any(cone[c - 1][sq - 1] < 99 for c in men0):
                        problems.append(
                            f"the {name} man on {sq} cannot come from any {name} man of the "
                            f"earlier position: men move only forward and {name} captured "
                            f"nothing")
    return problems


def fill_gap(start: Position | str, target: Position | str, plies: int | None = None,
             max_plies: int | None = None, known: Iterable[Known | str] = (),
             variant: str | Variant | None = None, limit: int = 200,
             progress: Callable[[float, int], bool | None] | None = None,
             cancel: Cancellable | None = None, min_plies: int = 0,
             use_frontier: bool = True, compiled: bool = True,
             counted: Callable[[int], None] | None = None) -> GapResult:
    """Every legal sequence of ``plies`` moves (or of 0..``max_plies`` moves)
    from ``start`` to ``target`` (Positions or FENs; ``"start"`` is the
    initial position).  ``known`` are constraints (:class:`Known` or texts for
    :func:`parse_known`), plies counted from 1 = the first missing ply.

    ``progress(fraction, nodes)`` is called now and then; returning False
    cancels, as does ``cancel.is_set()`` (a :class:`CancelToken` stops the
    compiled count at once, from the thread that cancels).  ``counted(n)``,
    called just before each progress report, tells the sequences counted so
    far: a proven lower bound, never going back, at most the
    ``count_at_least`` of a search cancelled then (what an app shows the
    moment Cancel is pressed).  Every sequence is counted (through
    transpositions, never listed: ``count``); the first ``limit`` are listed
    (``truncated`` says more exist).

    ``compiled``: count with the compiled search (:mod:`.compiled`) when
    numba is installed, the kernel is ready or worth loading
    (:func:`~.compiled.worth_it`) and the known moves give no squares a
    capture goes through; False: the pure-Python search (the reference; the
    answer is the same).

    The cycle collector is paused meanwhile (:mod:`rulesbook.gcpause`): the
    search's tables are millions of acyclic tuples and ints, which each full
    collection walks for a tenth of a second or more (finding nothing), in
    the search and in the moment between a cancel and its answer.
    """
    longest = plies if plies is not None else max_plies
    if compiled and isinstance(longest, int) and worth_it(longest):
        # the kernel loaded before the pause, not in it: numba's import and the
        # kernel's loading make some 150,000 objects, which the first collection
        # after the pause walks (0.05 s between a cancel and its answer, 0.2 s
        # on a loaded machine); never a compilation (worth_it)
        warm_up()
    with cycles_paused():
        return _fill_gap(start, target, plies, max_plies, known, variant, limit, progress,
                         cancel, min_plies, use_frontier, compiled, counted)


def _fill_gap(start: Position | str, target: Position | str, plies: int | None,
              max_plies: int | None, known: Iterable[Known | str],
              variant: str | Variant | None, limit: int,
              progress: Callable[[float, int], bool | None] | None,
              cancel: Cancellable | None, min_plies: int,
              use_frontier: bool, compiled: bool,
              counted: Callable[[int], None] | None = None) -> GapResult:
    t0 = time.perf_counter()
    chosen = Variant.named(variant) if variant is not None else None
    start = _position(start, chosen)
    chosen = chosen or start.variant
    target = _position(target, chosen)
    if start.variant != chosen:
        start = Position.from_bitboards(start.bitboards(), chosen)
    if (plies is None) == (max_plies is None):
        raise DraughtsError("give either the number of missing plies or a maximum")
    if not isinstance(limit, int) or limit < 1:
        raise DraughtsError(f"the number of sequences to keep must be 1 or more, not {limit!r}")
    if plies is not None:
        if plies < 0:
            raise DraughtsError(f"the number of plies must be 0 or more, not {plies}")
        lengths = [plies]
    else:
        assert max_plies is not None
        if max_plies < 0:
            raise DraughtsError(f"the maximum number of plies must be 0 or more, not {max_plies}")
        lengths = list(range(max(min_plies, 0), max_plies + 1))
    constraints: dict[int, list[Known]] = {}
    for item in known:
        k = parse_known(item, start) if isinstance(item, str) else item
        constraints.setdefault(k.ply, []).append(k)
    check_known(constraints, start, target, plies, max_plies, chosen)
    parity = 0 if start.turn is target.turn else 1
    lengths = [n for n in lengths if n % 2 == parity]
    if constraints:
        lengths = [n for n in lengths if n >= max(constraints)]
    if lengths and max(lengths) > MAX_PLIES:
        raise DraughtsError(f"at most {MAX_PLIES} missing plies can be searched, not "
                            f"{max(lengths)}: add a move the players agree on to split the gap")
    key: Key = (*start.bitboards(),)  # a plain tuple, as the search keys its tables
    t = Target(*target.bitboards(), *VariantFlags.of(chosen))
    rules = compile_rules(chosen)
    searcher = (CompiledGapSearch if compiled and supports(constraints)
                and (lengths and worth_it(max(lengths))) else GapSearch)
    found: list[tuple[RawMove, ...]] = []
    total = 0  # sequences that exist (every one counted)
    graphs: list[paths.Graph] = []
    at_least = 0  # when cancelled: the sequences found so far
    all_counted = True  # every length counted to the end
    nodes = 0
    cancelled = False
    done = 1.0
    tried: list[int] = []
    stopped_at = 0  # the length being searched when cancelled
    for index, n in enumerate(lengths):
        # one more than kept: finding it tells that more than ``limit`` exist
        report = _scaled(progress, index, len(lengths))
        search = searcher(t, rules, constraints, n, COUNT_CAP, report, cancel)
        search.counted = _offset(counted, total)
        counting = True
        try:
            try:
                count = search.count(key, chosen if use_frontier else None)
            except KernelFailed:
                # the Python search answers (the same answer, slower), from here on
                _log.exception("gap search: the compiled count failed, the Python one runs")
                searcher = GapSearch
                search = GapSearch(t, rules, constraints, n, COUNT_CAP, report, cancel)
                search.counted = _offset(counted, total)
                count = search.count(key, chosen if use_frontier else None)
            counting = False
            # the positions on its sequences, for what is certain and what to ask
            graph = paths.build(search, key, search.tick) if count else None
        except SearchCancelled:
            cancelled = True
            nodes += search.searched
            done = (index + search.fraction) / len(lengths)
            # the sequences found before it stopped are real: list them
            found.extend(search.sequences_so_far(key, limit - len(found)) if counting
                         else search.sequences(key, limit - len(found)))
            at_least = total + (search.found_so_far(key) if counting else count)
            all_counted = not counting and index == len(lengths) - 1
            if not counting:
                total += count
                tried.append(n)
            stopped_at = n
            break
        nodes += search.searched
        tried.append(n)
        with reporting(report, search.fraction, search.searched):  # (it reports nothing)
            found.extend(search.sequences(key, limit - len(found)))
        total += count
        if graph is not None:
            graphs.append(graph)
    # the answer put together (the listing, the texts, what is certain, the
    # tree): a part of a second in which the search reports nothing itself
    with reporting(None if cancelled else progress, 1.0, nodes):
        truncated = total > limit
        listed = found[:limit]
        sequences = tuple(tuple(raw_to_move(r) for r in seq) for seq in listed)
        texts = _texts(start, sequences)
        analysis = paths.analyse(graphs, start.turn) if not cancelled else None
        if analysis is not None:
            assert analysis.count == total, (analysis.count, total)  # two sums of the same counts
            diverge = analysis.diverge_at
        else:
            diverge = diverge_points(sequences)
        # whether ``diverge`` holds for every sequence, not only for the ones listed
        diverge_known = analysis is not None or not truncated
        span = plies_text(plies) if plies is not None else f"at most {plies_text(max_plies or 0)}"
        unaccounted: tuple[str, ...] = ()
        advice = parting = ""
        if cancelled:
            status = Status.CANCELLED
            explanation = _cancelled_explanation(sequences, nodes, done, tried, stopped_at,
                                                 plies is None, at_least)
        elif not total:
            status = Status.IMPOSSIBLE
            problems = _describe_counts(start, target)
            if not lengths:
                problems.append(
                    f"{target.turn.title} is to move on the board but {start.turn.title} was to "
                    f"move in the earlier position: the number of missing plies must be "
                    f"{'odd' if parity else 'even'}")
            unaccounted = tuple(problems)
            detail = "; ".join(problems) if problems else (
                f"no legal sequence of {span} leads from the earlier position to the board"
                + (f" with the known moves ({', '.join(str(k) for ks in constraints.values() for k in ks)})"
                   if constraints else ""))
            explanation = f"impossible: the record or the board is wrong: {detail}"
        elif total == 1:
            status = Status.UNIQUE
            explanation = (f"reconstructed: exactly one sequence of {plies_text(len(sequences[0]))}: "
                           + " ".join(texts[0]) if sequences[0] else
                           "reconstructed: no move is missing: the board is the earlier position")
        else:
            status = Status.SEVERAL
            if truncated:
                head = ("more than one sequence leads to the board (the first is listed)"
                        if limit == 1 else
                        f"more than {count_text(limit, 'sequence')} lead to the board (the first "
                        f"{limit:,} are listed)")
            else:
                head = f"{count_text(len(sequences), 'sequence')} lead to the board"
            if truncated and total < COUNT_CAP:
                head = (f"{count_text(total, 'sequence')} lead to the board (the first one is "
                        f"listed)" if limit == 1 else
                        f"{count_text(total, 'sequence')} lead to the board (the first "
                        f"{limit:,} are listed)")
            if not diverge:
                where = ""
            elif diverge_known:
                where = f"; they first differ at ply {', '.join(str(d) for d in diverge)}"
            else:
                where = (f"; the listed ones first differ at ply "
                         f"{', '.join(str(d) for d in diverge)} (those not listed may differ "
                         f"earlier)")
            # what the referee could add to narrow the answer down
            question = analysis.questions[0] if analysis and analysis.questions else None
            hint = ("; to narrow them down, add a move the players agree on"
                    + (f" (e.g. the one at ply {question.ply})" if question else
                       f" (e.g. the one at ply {diverge[0]})" if diverge else "")
                    if truncated else "")
            explanation = head + where + hint
            advice, parting = hint, where
        exact = all_counted and total < COUNT_CAP
        return GapResult(status, sequences, texts, diverge, explanation, tuple(tried), unaccounted,
                         nodes, time.perf_counter() - t0, truncated, cancelled, done,
                         count=total if exact else None,
                         count_at_least=total if not cancelled else at_least,
                         certain=analysis.certain if analysis else (),
                         questions=analysis.questions if analysis else (),
                         tree=paths.tree(graphs) if analysis else None, advice=advice,
                         parting=parting)


def _cancelled_explanation(sequences: Sequence[Sequence[Move]], nodes: int, done: float,
                           tried: Sequence[int], stopped_at: int, bounded: bool,
                           at_least: int = 0) -> str:
    """What a cancelled search tells: how far it got, what it found, and what
    the referee could add to make it finish."""
    head = (f"search cancelled after {count_text(nodes, 'position')}, "
            f"about {done:.0%} of the search done")
    if bounded and tried:
        gaps = (f"the gap of {plies_text(tried[0])}" if len(tried) == 1 else
                f"the gaps of {', '.join(map(str, tried[:-1]))} and {plies_text(tried[-1])}")
        head += f" ({gaps} searched completely, stopped in the {stopped_at}-ply one)"
    elif bounded:
        head += f" (stopped in the {stopped_at}-ply gap)"
    if at_least > len(sequences):
        found = (f"at least {count_text(at_least, 'sequence')} lead to the board (counted so "
                 f"far; the first {len(sequences):,} listed), more may exist")
    elif sequences:
        found = (f"{count_text(len(sequences), 'sequence')} found so far (listed), "
                 f"more may exist")
    else:
        found = "no sequence found yet, which says nothing about whether one exists"
    return (f"{head}: {found}. To make it finish, add a move the players agree on "
            f"(e.g. the first move of each side) or give a smaller number of plies")


Progress = Callable[[float, int], "bool | None"]


def _scaled(progress: Progress | None, index: int, count: int) -> Progress | None:
    """``progress`` for the ``index``-th of ``count`` searches, as a fraction of all."""
    if progress is None:
        return None

    def report(fraction: float, nodes: int) -> bool | None:
        return progress((index + fraction) / max(count, 1), nodes)

    return report


def _offset(counted: Callable[[int], None] | None, before: int
            ) -> Callable[[int], None] | None:
    """``counted`` for a search of one length, the lengths before it having
    ``before`` sequences."""
    if counted is None:
        return None

    def tell(found: int) -> None:
        counted(before + found)

    return tell


def _position(value: Position | str, variant: Variant | None) -> Position:
    if isinstance(value, Position):
        return value
    text = str(value).strip()
    if text.lower() == "start":
        return Position.start(variant or "pool")
    return Position.from_fen(text, variant or "pool")


def _texts(start: Position, sequences: Sequence[Sequence[Move]]
           ) -> tuple[tuple[str, ...], ...]:
    """The PDN texts of every sequence played from ``start``; the sequences
    share their first moves, so each (position, move) is written once."""
    # tree of the sequences: {move: (text, position after, {next move: ...})}
    root: dict[Move, Any] = {}
    out = []
    for moves in sequences:
        node, position, texts = root, start, []
        for move in moves:
            entry = node.get(move)
            if entry is None:
                # a legal quiet move is the only one between its squares (a
                # capture there would be compulsory): written without asking
                # the position for its moves (half the time of the texts,
                # which are written between a cancel and its answer)
                text = (position.move_text(move) if move.is_capture else
                        write_squares((move.start, move.end), False))
                entry = node[move] = (text, position.play(move), {})
            texts.append(entry[0])
            position, node = entry[1], entry[2]
        out.append(tuple(texts))
    return tuple(out)
