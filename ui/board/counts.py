"""The draw counts of the record (13-count, the stronger side's count, repetition)
under the limits of the edition in force, for every ply of legal play, and the
draw claims announced where the game reaches them (the core's
:func:`~rulesbook.rulings.announce.draw_announcements`, worked out once per
record and edition)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple, TypeVar, cast

from PySide6.QtCore import QObject, Signal

from rulesbook.draughts import CountRules, CountState, Game, Move, Position, Variant
from rulesbook.reconstruct.display import counts_lines
from rulesbook.rulings import (
    DrawAnnouncement,
    RequestOrigin,
    RulingsRequest,
    draw_announcements,
    rulings_request,
)

if TYPE_CHECKING:
    from rulesbook.library import Library
    from rulesbook.reconstruct import Replay

    from .controller import BoardController

__all__ = ["CountsController", "count_states", "announcements_for"]


#: how many records' counts and claims are kept (undo and redo between them)
KEPT = 4
#: what the counts and claims of a record depend on (:func:`legal_key`)
LegalKey = tuple[Position, tuple["Move | None", ...]]
_T = TypeVar("_T")


def _legal_plies(replayed: Replay) -> int:
    """How many plies ``replayed`` plays before its first illegal move (its legal
    play), from its first illegal move, not by looking for the first None in
    ``played``: that compared each of 60,000 moves with None in Python at every edit."""
    played = replayed.played
    first = replayed.first_illegal
    return len(played) if first is None else min(first.ply - 1, len(played))


def legal_key(replayed: Replay) -> LegalKey:
    """What the counts and the claims of ``replayed`` depend on: its start and its
    legal play (an edit after the first illegal move changes neither). Compared,
    not hashed: the moves of one record are the same objects, so it is quick."""
    return (replayed.start, replayed.played[:_legal_plies(replayed)])


def legal_prefix(replayed: Replay) -> list[Move]:
    """The moves of ``replayed`` up to its first illegal one (counts follow legal play)."""
    return cast("list[Move]", list(replayed.played[:_legal_plies(replayed)]))


def shared_plies(one: Sequence[Move | None], other: Sequence[Move | None]) -> int:
    """How many first moves two legal plays have in common (those of one record and
    of it edited are the same objects: quickly compared)."""
    most = min(len(one), len(other))
    same = 0
    while same < most and (one[same] is other[same] or one[same] == other[same]):
        same += 1
    return same


#: the legal play of a record counted before, and its counts (index 0: the start)
Counted = tuple[Sequence["Move | None"], Sequence[CountState]]


def _resumed(replayed: Replay, legal: Sequence[Move], states: Sequence[CountState],
             plies: int, rules: CountRules) -> Game:
    """The game of the first ``plies`` moves of ``replayed``'s legal play ``legal``,
    from their positions and their counts ``states`` (under ``rules``): not played."""
    return Game.resumed(replayed.positions[:plies + 1], legal[:plies], states[:plies + 1],
                        rules)


def count_states(start: Position, replayed: Replay, rules: CountRules,
                 earlier: Counted | None = None,
                 progress: Callable[[int, int], None] | None = None) -> list[CountState]:
    """The counts at each ply of ``replayed``'s legal play (index 0: the start).
    ``earlier``: another record's legal play and its counts under ``rules`` (the
    record before an edit): the plies they share are taken over, the counts go on
    from there (an edit near the end of a long record counts only what changed).
    ``progress``: called with the plies counted so far and the plies to count,
    every 1,000 plies (a reader's progress)."""
    legal = legal_prefix(replayed)
    shared = 0 if earlier is None else min(shared_plies(earlier[0], legal),
                                           len(earlier[1]) - 1)
    if shared > 0 and earlier is not None and replayed.start == start:
        game = _resumed(replayed, legal, earlier[1], shared, rules)
        states = list(earlier[1][:shared + 1])
    else:
        shared, game = 0, Game(start, counts=rules)
        states = [game.count_state()]
    for done, move in enumerate(legal[shared:], shared):
        if progress is not None and done % 1000 == 0:
            progress(done, len(legal))
        game.push(move)
        states.append(game.count_state())
    return states


class EarlierClaims(NamedTuple):
    """What :func:`announcements_for` goes on from: the counts of the record's own
    legal play under ``rules`` (the edition's limits) and another record's legal play
    (the record before an edit) with its claims."""

    states: Sequence[CountState]
    rules: CountRules
    legal: Sequence[Move | None]
    claims: tuple[DrawAnnouncement, ...]


def announcements_for(library: Library | None, start: Position, replayed: Replay,
                      edition_id: str | None, earlier: EarlierClaims | None = None
                      ) -> tuple[DrawAnnouncement, ...]:
    """The draw claims of ``replayed``'s legal play (none without a library).
    ``earlier``: the claims of the plies both records share are taken over and the
    walk goes on from there (the core's ``after``: the same claims as a walk from
    the start; the core walks from the start if the limits are not the edition's)."""
    if library is None:
        return ()
    legal = legal_prefix(replayed)
    if earlier is not None and replayed.start == start:
        shared = min(shared_plies(earlier.legal, legal), len(earlier.states) - 1)
        if shared > 0:
            game = _resumed(replayed, legal, earlier.states, shared, earlier.rules)
            return draw_announcements(library, start, legal, edition_id, after=game,
                                      earlier=[a for a in earlier.claims if a.ply <= shared])
    return draw_announcements(library, start, legal, edition_id)


class CountsController(QObject):
    """The count limits in force and the counts at each ply (worked out once per record).

    Signals:
      changed()                                  the limits in force changed
      rulingsRequested(RulingsRequest)           the rulings for a draw claim
      statusMessage(str)
    """

    changed = Signal()
    rulingsRequested = Signal(object)  # RulingsRequest
    statusMessage = Signal(str)

    def __init__(self, board: BoardController):
        super().__init__(board)
        self._board = board
        #: the limits given by :meth:`set_rules` (the edition's, for its variant)
        self.edition_rules = CountRules()
        self.label = ""
        #: variant name -> (its limits, which rules they come from), from the library
        self._by_variant: dict[str, tuple[CountRules, str]] = {}
        self.edition_id: str | None = None
        self.library: Library | None = None
        self._for: Replay | None = None
        self._counted_with = CountRules()
        self._states: list[CountState] = []
        self._announced_for: Replay | None = None
        self._announcements: tuple[DrawAnnouncement, ...] = ()
        #: the counts and claims of the last records (legal_key, rules, states) and
        #: (legal_key, claims): a record undone or edited after its legal play is
        #: not counted again
        self._counted: list[tuple[LegalKey, CountRules, list[CountState]]] = []
        self._claimed: list[tuple[LegalKey, tuple[DrawAnnouncement, ...]]] = []

    def set_rules(self, rules: CountRules, label: str = "",
                  edition_id: str | None = None, library: Library | None = None) -> None:
        """The count limits of the edition in force (``label``: its title); with the
        ``library``, the draw claims are announced as the record reaches them. The
        same limits given again (the window gives them once the library is loaded
        and again for its edition) keep the counts worked out."""
        if (rules, label, edition_id) == (self.edition_rules, self.label, self.edition_id) \
                and (library is None or library is self.library) \
                and self.library is not None:
            return
        self.edition_rules = rules
        self.label = label
        self.edition_id = edition_id
        if library is not None:
            self.library = library
        self._by_variant = {}
        self._for = None
        self._announced_for = None
        self._counted, self._claimed = [], []
        self.changed.emit()

    def _in_force(self) -> tuple[CountRules, str]:
        """The limits of the rules that govern the record's variant and which rules
        they are (an English game: the Standard Laws' forty moves, not the APCA counts);
        without a library, the limits given by :meth:`set_rules`."""
        return self._in_force_for(self._board.variant)

    def _in_force_for(self, variant: Variant) -> tuple[CountRules, str]:
        """:meth:`_in_force` for a record of ``variant`` (kept per variant)."""
        library = self.library
        if library is None:
            return self.edition_rules, ""
        found = self._by_variant.get(variant.name)
        if found is None:
            from rulesbook.rulings import count_rules_for, counts_source

            try:
                rules, _sources = count_rules_for(library, self.edition_id, variant)
                found = (rules, counts_source(library, self.edition_id, variant))
            except Exception as exc:  # noqa: BLE001 - keep the board usable
                found = (self.edition_rules, f"the edition's limits (cannot read the rules "
                                             f"of this variant: {exc})")
            self._by_variant[variant.name] = found
        return found

    def rules_of(self) -> Callable[[Variant], CountRules]:
        """The limits a record of a given variant will be counted with once shown,
        for a reader on a worker thread: a record read in another variant than the
        board's (an English file opened over a pool record) is counted under its
        own variant's rules, not counted again on the GUI thread (a second for
        60,000 plies). With the limits changed since (another edition), the board's
        limits of then: the board counts again under the new ones."""
        fallback, by_variant = self.edition_rules, self._by_variant

        def rules_for(variant: Variant) -> CountRules:
            if self._by_variant is not by_variant:
                return fallback
            return self._in_force_for(variant)[0]
        return rules_for

    @property
    def rules(self) -> CountRules:
        """The count limits the record is counted with (its variant's rules)."""
        return self._in_force()[0]

    @property
    def source(self) -> str:
        """Which rules the counts come from, in words ("" without a library)."""
        return self._in_force()[1]

    def lines(self, ply: int | None = None) -> list[tuple[str, str]]:
        """The Counts tab's rows at ``ply`` (default: the current ply)."""
        known = self.rules if self.library is not None else None  # else: not known
        return counts_lines(self.at(ply), self.label, known, self.source)

    def at(self, ply: int | None = None) -> CountState | None:
        """The counts at ``ply`` (default: the current ply), or None past an illegal
        move (the counts follow legal play only)."""
        ply = self._board.ply if ply is None else ply
        states = self._current_states()
        return states[ply] if 0 <= ply < len(states) else None

    def _current_states(self) -> list[CountState]:
        """The counts at each ply of the legal play of the record shown, under
        :attr:`rules`: kept, or counted from where the legal play departs from a
        record counted before (an edit counts only the plies after it)."""
        board = self._board
        replayed = board.replay
        rules = self.rules
        if self._for is not replayed or self._counted_with != rules:
            key = legal_key(replayed)
            kept = next((states for k, r, states in self._counted if r == rules and k == key),
                        None)
            if kept is None:
                kept = count_states(board.start, replayed, rules,
                                    self._nearest([(k, states) for k, r, states in self._counted
                                                   if r == rules], key))
                self._keep_states(key, rules, kept)
            self._states = kept
            self._for, self._counted_with = replayed, rules
        return self._states

    @staticmethod
    def _nearest(kept: list[tuple[LegalKey, _T]], key: LegalKey
                 ) -> tuple[Sequence[Move | None], _T] | None:
        """Of ``kept`` (legal_key, what was worked out), the record whose legal play
        shares the most first plies with ``key``'s (None: none from the same start)."""
        best: tuple[int, Sequence[Move | None], _T] | None = None
        for (start, legal), value in kept:
            if start != key[0]:
                continue
            shared = shared_plies(legal, key[1])
            if best is None or shared > best[0]:
                best = (shared, legal, value)
        return None if best is None else (best[1], best[2])

    def seed(self, replayed: Replay, states: tuple[CountState, ...] | None,
             announcements: tuple[DrawAnnouncement, ...] | None,
             rules: CountRules | None = None) -> None:
        """The counts and claims of ``replayed`` worked out off the GUI thread (by
        :func:`count_states` with ``rules``, by default these, and
        :func:`announcements_for` with this library and edition): kept for when the
        board shows that replay (None: worked out when asked)."""
        key = legal_key(replayed)
        if states is not None:
            counted = self.rules if rules is None else rules
            self._states, self._for, self._counted_with = list(states), replayed, counted
            self._keep_states(key, counted, self._states)
        if announcements is not None:
            self._announcements, self._announced_for = announcements, replayed
            self._keep_claims(key, announcements)

    def _keep_states(self, key: LegalKey, rules: CountRules,
                     states: list[CountState]) -> None:
        self._counted = [(key, rules, states), *self._counted[:KEPT - 1]]

    def _keep_claims(self, key: LegalKey,
                     claims: tuple[DrawAnnouncement, ...]) -> None:
        self._claimed = [(key, claims), *self._claimed[:KEPT - 1]]

    # ------------------------------------------------------------------ announcements
    def announcements(self) -> tuple[DrawAnnouncement, ...]:
        """Every draw claim of the record's legal play at the ply where it is first
        decided (empty without a library)."""
        board = self._board
        replayed = board.replay
        if self._announced_for is not replayed:
            key = legal_key(replayed)
            kept = next((claims for k, claims in self._claimed if k == key), None)
            if kept is None:
                nearest = self._nearest(list(self._claimed), key) \
                    if self.library is not None else None
                earlier = None if nearest is None else EarlierClaims(
                    self._current_states(), self.rules, *nearest)
                kept = announcements_for(self.library, board.start, replayed,
                                         self.edition_id, earlier)
                self._keep_claims(key, kept)
            self._announcements, self._announced_for = kept, replayed
        return self._announcements

    def announced_at(self, ply: int) -> DrawAnnouncement | None:
        """The claim announced exactly at ``ply`` (a count reached first), if any."""
        here = [a for a in self.announcements() if a.ply == ply]
        return next((a for a in here if a.reached), here[0] if here else None)

    def in_force_at(self, ply: int | None = None) -> DrawAnnouncement | None:
        """The first count reached under the edition in force at or before ``ply``
        (default: the current ply)."""
        ply = self._board.ply if ply is None else ply
        return next((a for a in self.announcements() if a.reached and a.ply <= ply), None)

    def current(self, ply: int | None = None) -> DrawAnnouncement | None:
        """What the status line announces at ``ply`` (default: the current one): the
        first count reached under the rules in force by then, else the latest claim
        only a proposal decides."""
        ply = self._board.ply if ply is None else ply
        reached = self.in_force_at(ply)
        if reached is not None:
            return reached
        earlier = [a for a in self.announcements() if a.ply <= ply]
        return earlier[-1] if earlier else None

    def first(self) -> DrawAnnouncement | None:
        """The first count reached in the whole record (else the first claim only a
        proposal decides): what Check Record reports."""
        found = self.announcements()
        return next((a for a in found if a.reached), found[0] if found else None)

    def announce(self, ply: int) -> None:
        """On arriving at ``ply``: the draw claim decided there, or the flag of a move
        played after a count was reached, on the status line."""
        board = self._board
        here = self.announced_at(ply)
        flag = self.after_draw_text(ply)
        if here is not None:
            self.statusMessage.emit(here.text)
        elif flag:
            move = board.moves[ply - 1].text if 0 < ply <= len(board.moves) else ""
            self.statusMessage.emit(f"{board.record.ply_prefix(ply, dots='...')} {move} — "
                                    f"{flag}")

    def after_draw_text(self, ply: int) -> str:
        """A flag for a move played at ``ply`` after a count was reached ("" if none)."""
        reached = self.in_force_at(ply - 1)
        if reached is None:
            return ""
        return (f"played after the draw: {reached.text.split(':', 1)[0]} "
                f"(ply {reached.ply}, {reached.ruling_ref or reached.claim.ref or 'rules'})")

    def rulings_request(self, announcement: DrawAnnouncement,
                        origin: RequestOrigin = RequestOrigin.DRAW_CLAIM
                        ) -> RulingsRequest | None:
        """The request for the rulings on ``announcement`` (the core's
        :func:`~rulesbook.rulings.rulings_request`: the claim at the ply after which it
        is made, the record and its tags); None without a rules library."""
        if self.library is None:
            return None
        return rulings_request(self.library, self._board.record, announcement, origin)

    def request_rulings(self, announcement: DrawAnnouncement | None = None,
                        origin: RequestOrigin = RequestOrigin.DRAW_CLAIM) -> bool:
        """Emit rulingsRequested for ``announcement`` (default: the one shown at the
        current ply)."""
        chosen = announcement if announcement is not None else self.current()
        request = None if chosen is None else self.rulings_request(chosen, origin)
        if request is None:
            self.statusMessage.emit("No draw claim at this position")
            return False
        self.rulingsRequested.emit(request)
        return True
