"""The variant of a PDN record without a ``GameType`` tag: the one in which the
whole record is legal.

Every variant the engine knows is tried in :data:`~rulesbook.draughts.VARIANTS`
order (pool first: the American Pool Checkers Association's game); the main
line is played from the start (or the ``FEN`` tag read in that variant) until a
move cannot be played.  The first variant in which every move is legal is
chosen; when none is, the one that goes furthest (the first of those).  The
:class:`VariantGuess` keeps what every variant gave, so a reader can say why
(:meth:`VariantGuess.sentence`) and which other variants fit too.  A file's games
settle it further (:func:`settled`): among the variants a game may be read in (its
:attr:`~VariantGuess.contenders`: those that make it legal, or when none does, those
that go equally furthest), the one the file's other games need.

>>> from rulesbook.draughts.pdn_syntax import SyntaxReader
>>> import io
>>> raw = SyntaxReader(io.StringIO('[Event "x"]\\n1. 11-15 23-19 *')).read()
>>> guess = guess_variant(raw)
>>> guess.chosen.name, [v.name for v in guess.fitting]
('pool', ['pool', 'english'])
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice

from rulesbook.draughts.errors import AmbiguousMoveError, DraughtsError
from rulesbook.draughts.pdn_moves import LOOKAHEAD, disambiguate, resolve_move
from rulesbook.draughts.pdn_syntax import RawGame
from rulesbook.draughts.position import Position
from rulesbook.draughts.variant import VARIANTS, Variant

__all__ = ["VariantFit", "VariantGuess", "guess_variant", "legal_prefix", "variant_title",
           "GUESS_ORDER", "FileVariants", "settled"]

#: The variants tried, in order (pool first).
GUESS_ORDER: tuple[Variant, ...] = tuple(VARIANTS.values())

_TITLES = {"pool": "pool checkers", "english": "English checkers",
           "russian": "Russian draughts", "brazilian": "Brazilian draughts"}


def variant_title(variant: Variant) -> str:
    """The variant as a sentence names it: ``"English checkers"``."""
    return _TITLES.get(variant.name, variant.name)


@dataclass(frozen=True)
class VariantFit:
    """How far a record goes in one variant: ``legal`` of its ``total`` main-line
    moves can be played from the start; ``start_error`` when the record's FEN
    cannot be read in that variant (then no move is played)."""

    variant: Variant
    legal: int
    total: int
    start_error: str = ""

    @property
    def whole(self) -> bool:
        """True when every move of the record is legal in this variant."""
        return not self.start_error and self.legal == self.total


@dataclass(frozen=True)
class VariantGuess:
    """The variant a record without a GameType tag is read in, and why."""

    chosen: Variant
    fits: tuple[VariantFit, ...]
    #: why the variant had to be guessed, the start of :meth:`sentence`
    why: str = "No GameType tag"
    #: why :attr:`chosen` among several variants that fit: what the file's other games
    #: need, or the app's default (:meth:`FileVariants.settle`); "" : the first that fits
    reason: str = ""

    @property
    def fitting(self) -> tuple[Variant, ...]:
        """Every variant in which the whole record is legal, in the order tried."""
        return tuple(f.variant for f in self.fits if f.whole)

    @property
    def total(self) -> int:
        return self.fits[0].total if self.fits else 0

    @property
    def contenders(self) -> tuple[Variant, ...]:
        """The variants the record may be read in, in the order tried: those in which
        the whole record is legal; when there is none, those that go furthest (as many
        moves legal in each, the start read); the file's other games choose among
        them (:meth:`FileVariants.settle`)."""
        fitting = self.fitting
        if fitting:
            return fitting
        readable = [f for f in self.fits if not f.start_error]
        if not readable:
            return (self.chosen,)
        best = max(f.legal for f in readable)
        return tuple(f.variant for f in readable if f.legal == best)

    def fit(self, variant: Variant) -> VariantFit | None:
        return next((f for f in self.fits if f.variant == variant), None)

    def sentence(self) -> str:
        """Why the record is read in :attr:`chosen`, as the referee reads it:
        ``"No GameType tag: read as English checkers — the only variant in which
        all 56 moves are legal"``."""
        name = variant_title(self.chosen)
        head = f"{self.why}: read as {name}"
        fitting = self.fitting
        total = self.total
        if total == 0 and fitting:
            return f"{head} — the record has no move that tells the variants apart"
        moves = "the move is" if total == 1 else f"all {total} moves are"
        if len(fitting) == 1:
            return f"{head} — the only variant in which {moves} legal"
        if fitting:
            others = _and_list([variant_title(v) for v in fitting if v != self.chosen])
            if self.reason:
                return f"{head} — {moves} legal in it, and also in {others}; {self.reason}"
            return (f"{head} — {moves} legal in it, and also in {others}: "
                    f"the app's default is taken (the first that fits)")
        chosen = self.fit(self.chosen)
        legal = chosen.legal if chosen is not None else 0
        far = f"({legal} of {total} moves legal)"
        contenders = self.contenders
        if len(contenders) > 1:
            names = _and_list([name] + [variant_title(v) for v in contenders
                                        if v != self.chosen])
            tie = f"{head} — no variant makes every move legal; {names} go equally far {far}"
            if self.reason:
                return f"{tie}; {self.reason}"
            return f"{tie}: the app's default is taken (the first of them)"
        return f"{head} — no variant makes every move legal; it goes furthest {far}"


def _and_list(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def legal_prefix(start: Position, texts: Sequence[str]) -> int:
    """How many of the move texts ``texts`` can be played one after the other
    from ``start``, an ambiguous move read as the one that lets the record go on
    (as the PDN reader does, :func:`~rulesbook.draughts.pdn_moves.disambiguate`)."""
    position = start
    for index, text in enumerate(texts):
        try:
            move = resolve_move(position, text)
        except AmbiguousMoveError as exc:
            following = islice(texts, index + 1, index + 1 + LOOKAHEAD)
            found = disambiguate(position, exc.candidates, following)
            if found is None:
                return index
            move = found
        except DraughtsError:
            return index
        position = position.play(move)
    return len(texts)


def guess_variant(raw: RawGame, variants: Iterable[Variant] = GUESS_ORDER,
                  stop_at_whole: bool = False) -> VariantGuess:
    """The variant a record is read in when it has no GameType tag.

    ``raw`` is a :class:`~rulesbook.draughts.pdn_syntax.RawGame` (its ``tags``
    and ``mainline`` nodes are read, nothing is changed). ``stop_at_whole``: the
    variants after the first in which the whole record is legal are not tried
    (the same :attr:`~VariantGuess.chosen`, found sooner; :attr:`~VariantGuess.fits`
    then says nothing of the others)."""
    texts = [node.text for node in raw.mainline]
    fen = (raw.tags.get("FEN") or "").strip()
    fits: list[VariantFit] = []
    for variant in variants:
        try:
            start = Position.from_fen(fen, variant) if fen else Position.start(variant)
        except DraughtsError as exc:
            fits.append(VariantFit(variant, 0, len(texts), str(exc) or "bad FEN"))
            continue
        fits.append(VariantFit(variant, legal_prefix(start, texts), len(texts)))
        if stop_at_whole and fits[-1].whole:
            break
    if not fits:
        raise DraughtsError("no variant to try")
    whole = [f for f in fits if f.whole]
    if whole:
        return VariantGuess(whole[0].variant, tuple(fits))
    readable = [f for f in fits if not f.start_error] or fits
    best = max(f.legal for f in readable)
    return VariantGuess(next(f.variant for f in readable if f.legal == best), tuple(fits))


# -- the variant of a file's games ---------------------------------------------------

def _tagged(raw: RawGame) -> Variant | None:
    """The variant the record's GameType tag names (None without one, or unknown)."""
    gametype = (raw.tags.get("GameType") or "").strip()
    if not gametype:
        return None
    try:
        return Variant.from_gametype(gametype)
    except DraughtsError:
        return None


@dataclass
class FileVariants:
    """What the games of one file need: the variant of each game whose GameType tag
    names it, or that only one variant makes legal. A game legal in several
    variants takes the one the file's other games need (:meth:`settle`)."""

    needs: Counter[str] = field(default_factory=Counter)

    def tell(self, raw: RawGame, guess: VariantGuess | None) -> bool:
        """Count what ``raw`` needs; True when it tells the variants apart."""
        tagged = _tagged(raw)
        if tagged is not None:
            self.needs[tagged.name] += 1
            return True
        if guess is not None and len(guess.fitting) == 1:
            self.needs[guess.fitting[0].name] += 1
            return True
        return False

    def settle(self, guess: VariantGuess) -> VariantGuess:
        """``guess`` with the variant chosen among its
        :attr:`~VariantGuess.contenders` (those that fit; when none fits, those that
        go furthest): the one the file's other games need most (the app's default,
        the first tried, when none of them tells), and the reason in words."""
        fitting = guess.contenders
        if len(fitting) < 2:
            return guess
        counted = [(self.needs[v.name], -i, v) for i, v in enumerate(fitting)
                   if self.needs[v.name]]
        total = sum(self.needs.values())
        if not counted:
            return dataclasses.replace(
                guess, chosen=fitting[0],
                reason=f"no other game of the file tells them apart, so the app's default "
                       f"is taken ({variant_title(fitting[0])})")
        n, _, chosen = max(counted, key=lambda item: item[:2])
        games = "game that tells" if total == 1 else "games that tell"
        tied = [v for count, _, v in counted if count == n]
        if len(tied) > 1:
            # as many of the file's games need each: the app's default decides the tie
            chosen = tied[0]
            return dataclasses.replace(
                guess, chosen=chosen,
                reason=f"the file's other games need {_and_list([variant_title(v) for v in tied])} "
                       f"equally ({n} each of the {total} {games} the variants apart): a tie, "
                       f"decided by the app's default ({variant_title(chosen)})")
        return dataclasses.replace(
            guess, chosen=chosen,
            reason=f"the file's other games need {variant_title(chosen)} ({n} of the {total} "
                   f"{games} the variants apart)")


def settled(raws: Iterable[RawGame], enabled: Callable[[], bool] = lambda: True,
            again: Callable[[], Iterable[RawGame]] | None = None
            ) -> Iterator[tuple[RawGame, VariantGuess | None]]:
    """Each game of a file with the variant guess it is read with (None when its
    GameType tag names a variant, or when ``enabled()`` is False: the caller gives
    the variant). A game legal in several variants takes the one the file's other
    games need: every game of the whole file that tells the variants apart, read
    before it or after it (:meth:`FileVariants.settle`; on a tie, or when none
    tells, the app's default).

    One pass classifies each game (played in every variant once); the games are
    given as they are read until the first one legal in several variants, then the
    rest of the file is read and classified, kept, and given with the file's counts.
    Linear in the file. ``again``: the file's games read once more from its start
    (a seekable file); then the rest is counted without being kept and read again
    (its games played twice, memory does not grow with the file)."""
    source = iter(raws)
    file = FileVariants()

    def classify(raw: RawGame) -> tuple[RawGame, VariantGuess | None]:
        guess = None
        if enabled() and not (raw.tags.get("GameType") or "").strip():
            guess = guess_variant(raw)
        file.tell(raw, guess)
        return raw, guess

    rest: list[tuple[RawGame, VariantGuess | None]] = []
    _given = 0
    for raw in source:
        item = classify(raw)
        if item[1] is not None and len(item[1].contenders) > 1:
            # its variant depends on the whole file: read (and count) the rest first
            if again is None:
                rest = [item, *(classify(more) for more in source)]
                break
            for more in source:
                classify(more)
            counts = file.needs.copy()
            skip = _given
            for index, raw2 in enumerate(again()):
                if index < skip:
                    continue
                guess2 = None
                if enabled() and not (raw2.tags.get("GameType") or "").strip():
                    guess2 = guess_variant(raw2)
                if guess2 is not None and len(guess2.contenders) > 1:
                    file.needs = counts
                    guess2 = file.settle(guess2)
                yield raw2, guess2
            return
        yield item
        _given += 1
    for raw, guess in rest:
        if guess is not None and len(guess.contenders) > 1:
            guess = file.settle(guess)
        yield raw, guess
