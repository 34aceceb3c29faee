"""The sequences of a gap as a graph of positions: how many play each move,
which moves are certain, the question that splits them best, the tree.

After a search has counted (:meth:`~.search.GapSearch.count`), the positions
that lie on some sequence form a layered graph: layer ``p`` holds the
positions after ``p`` plies, an edge is a move from one to the next that
still leads to the board.  :func:`build` reads it off the search's tables
(the count below each position); :func:`analyse` then counts, by forward
and backward sums over the layers (never by listing the sequences), how many
sequences play each move at each ply: the moves all of them play are
certain, and the ply whose moves split them most evenly is the next question
to ask the players.  :func:`tree` gives the sequences as a tree of move
choices (common prefixes collapsed), expanded up to a number of branches.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rulesbook.draughts import Color
from rulesbook.draughts.notation import count_text, write_squares
from rulesbook.reconstruct.gap.retro import Key, RawMove

__all__ = ["Branch", "Certain", "Graph", "Option", "Question", "analyse", "build", "tree",
           "TREE_BRANCHES"]

#: the branches of the tree expanded at most (the others keep their count)
TREE_BRANCHES = 300

Path = tuple[int, ...]  # the squares (1-32) a move stops on


class Counted(Protocol):
    """What :func:`build` reads of a search that has counted."""

    plies: int

    def live_moves(self, key: Key, remaining: int, partial: bool = False
                   ) -> list[tuple[RawMove, Key, int]]: ...


@dataclass(frozen=True)
class Edge:
    """A move of the graph: from position ``parent`` of a layer to ``child``
    of the next (indices in their layers)."""

    parent: int
    child: int
    path: Path
    text: str  # start and end, or every stop when another move shares them
    capture: bool


@dataclass(frozen=True)
class Graph:
    """The positions on the sequences of one length, layer by layer.

    ``below[p][i]``: the sequences from position ``i`` of layer ``p`` to the
    board; ``edges[p]``: the moves of ply ``p + 1`` (from layer ``p``)."""

    plies: int
    below: tuple[tuple[int, ...], ...]
    edges: tuple[tuple[Edge, ...], ...]

    @property
    def count(self) -> int:
        return self.below[0][0] if self.below and self.below[0] else 0


def _texts(moves: Sequence[tuple[RawMove, Key, int]]) -> list[str]:
    """Start and end (``11-15``, ``9x25``) unless another of the moves has
    both: then every stop (``9x18x25``)."""
    ends = [(mv[0][0], mv[0][-1]) for mv, _, _ in moves]
    out = []
    for (mv, _, _), pair in zip(moves, ends, strict=True):
        squares = [i + 1 for i in mv[0]]
        full = ends.count(pair) > 1
        out.append(write_squares(squares if full else (squares[0], squares[-1]), bool(mv[1])))
    return out


def build(search: Counted, key: Key, tick: Callable[[], None] | None = None) -> Graph:
    """The graph of the sequences from ``key`` (after ``search.count(key)``
    finished: the counts it holds are exact).  ``tick`` is called once per
    position (it may raise to cancel)."""
    plies = search.plies
    layers: list[list[Key]] = [[key]]
    counts: list[list[int]] = []
    edges: list[tuple[Edge, ...]] = []
    for p in range(plies):
        index: dict[Key, int] = {}
        child_counts: list[int] = []
        here: list[Edge] = []
        for i, node in enumerate(layers[p]):
            if tick is not None:
                tick()
            moves = search.live_moves(node, plies - p)
            for (mv, child, n), text in zip(moves, _texts(moves), strict=True):
                j = index.get(child)
                if j is None:
                    j = index[child] = len(child_counts)
                    child_counts.append(n)
                here.append(Edge(i, j, tuple(s + 1 for s in mv[0]), text, bool(mv[1])))
        layers.append(list(index))
        counts.append(child_counts)
        edges.append(tuple(here))
    # the count below each position, summed up from the board (the tables'
    # counts of the children, added up again: the same numbers)
    below: list[list[int]] = [[0] * len(layer) for layer in layers]
    below[plies] = [1] * len(layers[plies])
    for p in range(plies - 1, -1, -1):
        for e in edges[p]:
            below[p][e.parent] += below[p + 1][e.child]
    return Graph(plies, tuple(tuple(b) for b in below), tuple(edges))


@dataclass(frozen=True)
class Option:
    """One answer to a question: the move, and how many sequences play it."""

    move: str
    count: int

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.move, "count": self.count}


@dataclass(frozen=True)
class Question:
    """What to ask the players: which move was played at ``ply`` of the gap
    (``side``'s ``move_number``-th move of the gap, as ``--known 9W:...``
    counts), each answer with the sequences that play it."""

    ply: int
    side: Color
    move_number: int
    options: tuple[Option, ...]

    def sentence(self, number: int | None = None, most: int | None = None) -> str:
        """The question in words: ``At move 9, White played 24-20 (1,204
        ways) or 22-18 (1,110)?`` — ``number`` the game's move number of the
        ply (when the caller knows the record), else the move of the gap;
        ``most``: name that many answers, the others as "another move"."""
        shown = self.options if most is None or len(self.options) <= most + 1 else \
            self.options[:most]
        ways = [f"{o.move} ({count_text(o.count, 'way')})" if n == 0 else f"{o.move} ({o.count:,})"
                for n, o in enumerate(shown)]
        if len(shown) < len(self.options):
            rest = self.options[len(shown):]
            ways.append(f"{len(rest)} others ({sum(o.count for o in rest):,})")
        choice = ways[0] if len(ways) == 1 else ", ".join(ways[:-1]) + " or " + ways[-1]
        if number is None:
            return (f"At {self.side.title}'s {ordinal(self.move_number)} move of the gap, "
                    f"was it {choice}?")
        return f"At move {number}, {self.side.title} played {choice}?"

    @property
    def known(self) -> tuple[str, ...]:
        """Each answer as a known move (``--known`` text: ``9:24-20``)."""
        return tuple(f"{self.ply}:{o.move}" for o in self.options)

    def to_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "side": self.side.name.lower(), "move_number": self.move_number,
                "options": [o.to_dict() for o in self.options]}


@dataclass(frozen=True)
class Certain:
    """A move every sequence plays at ``ply``."""

    ply: int
    side: Color
    move_number: int
    move: str

    def sentence(self, number: int | None = None) -> str:
        """``Black's 9th move was certainly 10-14``: ``number`` the game's
        move number of the ply (when the caller knows the record), else
        ``Black's 3rd move of the gap was certainly ...``."""
        if number is None:
            return (f"{self.side.title}'s {ordinal(self.move_number)} move of the gap was "
                    f"certainly {self.move}")
        return f"{self.side.title}'s {ordinal(number)} move was certainly {self.move}"

    def to_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "move": self.move, "side": self.side.name.lower(),
                "move_number": self.move_number}


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``22nd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class Analysis:
    """What the graphs say of all the sequences (see :func:`analyse`)."""

    count: int
    certain: tuple[Certain, ...]
    questions: tuple[Question, ...]  # best first
    diverge_at: tuple[int, ...]


def side_at(first: Color, ply: int) -> tuple[Color, int]:
    """The side that plays ``ply`` of the gap (``first`` plays ply 1) and the
    number of its move in the gap."""
    return (first if ply % 2 else first.opponent), (ply + 1) // 2


def _named(by_path: dict[tuple[Path, bool], int]) -> dict[str, int]:
    """The moves of one ply by their text: start and end, or every stop when
    another move of the ply has the same two (so that each text, read as a
    known move, keeps only its own move there)."""
    ends = [(path[0], path[-1]) for path, _ in by_path]
    out = {}
    for ((path, capture), n), pair in zip(by_path.items(), ends, strict=True):
        squares = path if ends.count(pair) > 1 else (path[0], path[-1])
        out[write_squares(squares, capture)] = n
    return out


def analyse(graphs: Sequence[Graph], first: Color) -> Analysis:
    """Count, over every sequence of the ``graphs`` (one per length), how
    many play each move at each ply: forward sums (the ways to reach a
    position) times backward ones (the ways on from it), per edge."""
    live = [g for g in graphs if g.count]
    total = sum(g.count for g in live)
    if not live:
        return Analysis(0, (), (), ())
    common = min(g.plies for g in live)  # the plies every sequence has
    by_ply: list[dict[tuple[Path, bool], int]] = [{} for _ in range(common)]
    diverge: set[int] = set()
    for g in live:
        ways = [1]  # to each position of the layer, from the start
        for p, layer_edges in enumerate(g.edges):
            nxt = [0] * len(g.below[p + 1])
            out_of: dict[int, set[Path]] = {}
            for e in layer_edges:
                nxt[e.child] += ways[e.parent]
                out_of.setdefault(e.parent, set()).add(e.path)
                if p < common:
                    n = ways[e.parent] * g.below[p + 1][e.child]
                    tally = by_ply[p]
                    tally[e.path, e.capture] = tally.get((e.path, e.capture), 0) + n
            if any(len(paths) > 1 for paths in out_of.values()):
                diverge.add(p + 1)
            ways = nxt
    certain = []
    questions = []
    for p, by_path in enumerate(by_ply, 1):
        side, number = side_at(first, p)
        counts = _named(by_path)
        if len(counts) == 1:
            certain.append(Certain(p, side, number, next(iter(counts))))
        elif counts:
            options = tuple(Option(m, n) for m, n in
                            sorted(counts.items(), key=lambda item: -item[1]))
            questions.append(Question(p, side, number, options))
    # the most even split first: the fewest sequences left whatever the answer
    questions.sort(key=lambda q: (q.options[0].count, -len(q.options), q.ply))
    return Analysis(total, tuple(certain), tuple(questions), tuple(sorted(diverge)))


@dataclass(frozen=True)
class Branch:
    """A node of the tree of sequences: the moves from ``ply`` on that all its
    sequences play, then its branches (None: not expanded, too many to show;
    ``ending``: sequences that end after ``moves``, with a shorter gap)."""

    ply: int
    moves: tuple[str, ...]
    count: int
    children: tuple[Branch, ...] | None
    ending: int = 0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ply": self.ply, "moves": list(self.moves), "count": self.count,
                               "children": (None if self.children is None else
                                            [c.to_dict() for c in self.children])}
        if self.ending:
            out["ending"] = self.ending
        return out


Cursor = tuple[int, int, int]  # (graph, layer, position in the layer)


class _Node:
    """A branch of the tree while it is built (see :func:`tree`)."""

    __slots__ = ("children", "count", "ending", "groups", "moves", "ply")

    def __init__(self, ply: int, moves: tuple[str, ...], count: int, ending: int,
                 groups: list[tuple[str, list[Cursor]]]) -> None:
        self.ply, self.moves, self.count, self.ending = ply, moves, count, ending
        self.groups = groups
        self.children: list[_Node] | None = None

    def frozen(self) -> Branch:
        children = (None if self.children is None else
                    tuple(c.frozen() for c in self.children))
        return Branch(self.ply, self.moves, self.count, children, self.ending)


def tree(graphs: Sequence[Graph], branches: int = TREE_BRANCHES) -> Branch:
    """The sequences as a tree of move choices, common prefixes collapsed,
    expanded breadth first up to ``branches`` nodes (the others keep their
    count, children None)."""
    live = [g for g in graphs if g.count]
    if not live:
        return Branch(1, (), 0, ())
    out_edges: list[list[dict[int, list[Edge]]]] = []
    for g in live:
        per_layer: list[dict[int, list[Edge]]] = []
        for layer_edges in g.edges:
            by_parent: dict[int, list[Edge]] = {}
            for e in layer_edges:
                by_parent.setdefault(e.parent, []).append(e)
            per_layer.append(by_parent)
        out_edges.append(per_layer)

    def split(cursors: Sequence[Cursor]) -> tuple[int, dict[Path, tuple[str, list[Cursor]]]]:
        """The sequences that end here, and the moves on, by path."""
        ends = 0
        groups: dict[Path, tuple[str, list[Cursor]]] = {}
        for gi, p, i in cursors:
            if p == live[gi].plies:
                ends += 1
                continue
            for e in out_edges[gi][p].get(i, ()):
                groups.setdefault(e.path, (e.text, []))[1].append((gi, p + 1, e.child))
        return ends, groups

    def node(ply: int, first: tuple[str, ...], cursors: list[Cursor]) -> _Node:
        """The branch from ``cursors``, following the one move on while there is one."""
        count = sum(live[gi].below[p][i] for gi, p, i in cursors)
        moves = list(first)
        while True:
            ends, groups = split(cursors)
            if ends or len(groups) != 1:
                # a leaf's sequences all end there: ``ending`` only where some go on
                return _Node(ply, tuple(moves), count, ends if groups else 0,
                             list(groups.values()))
            text, cursors = next(iter(groups.values()))
            moves.append(text)

    root = node(1, (), [(gi, 0, 0) for gi in range(len(live))])
    queue = deque([root])
    budget = branches
    while queue:
        item = queue.popleft()
        if not item.groups:
            item.children = []
        elif len(item.groups) <= budget:
            budget -= len(item.groups)
            at = item.ply + len(item.moves)
            item.children = [node(at, (text,), cursors) for text, cursors in item.groups]
            queue.extend(item.children)
        item.groups = []
    return root.frozen()
