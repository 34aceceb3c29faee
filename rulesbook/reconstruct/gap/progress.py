"""How far a gap search has got, as the referee waiting for it may read it: the
positions searched and the time it has run, and a percentage only while the
search's own estimate can be trusted.

The search reports ``(fraction, nodes)`` (:func:`~rulesbook.reconstruct.gap.fill_gap`):
``fraction`` is the share of its tree of moves covered, every move of a
position weighing the same.  That is no measure of the time: most of the tree
is cut off at once and a few branches take nearly all of it.  Measured on the
pool gap of 16 plies ``B:W20,21,25,26,29:B1,2,3,4,5,6,12,13,K32`` to
``B:W14,25:B3,4,24``: 2.8% after 4 s, 3% after 8 s, 9% after 20 s, 27% after
40 s; while the search builds a table backward from the board the fraction
stood still (since issue 30 it moves across such a layer, by the forward
search's rate: :meth:`~rulesbook.reconstruct.gap.search.GapSearch._span`).
A bar showing that jumps and stalls.

:class:`ProgressEstimate` shows the percentage only while the fraction has
grown in step with the time: the fraction reached at a half and at a quarter
of the time elapsed must be about a half and a quarter of the fraction now
(:data:`STEADY`, and once shown :data:`STILL_STEADY`, so that it does not
flicker), after :data:`MIN_SECONDS` and from :data:`MIN_FRACTION` on.  Then the time left is about the time run times (1 - f) / f, and
"40% done" means what a reader takes it to mean.

>>> estimate = ProgressEstimate()
>>> estimate.update(0.02, 1_000, 2.0).percent is None  # a jump: 0.02 at once
True
>>> steady = ProgressEstimate()
>>> [steady.update(t / 10, 1_000 * t, t).percent for t in (0.5, 1.0, 2.0, 3.0, 4.0)]
[None, None, 20, 30, 40]
>>> steady.update(0.4, 5_000, 8.0).text()  # then it stalls: 0.4 at 4 s and at 8 s
'5,000 positions searched in 8.0 s'

When no percentage can be trusted the reader still sees the search work: the
time is shown to a tenth of a second, so the text changes with every report
(they come every 50 ms) even while the positions stand still (a table being
copied, a backward layer loaded), and the sequences counted so far, a proven
lower bound (``fill_gap(counted=...)``), are shown as they grow.  The same
lower bound is what a cancel shows at once (:meth:`SearchProgress.cancelled_text`),
before the search has returned its answer.
"""
from __future__ import annotations

import bisect
import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rulesbook.draughts.notation import count_text

__all__ = ["BEAT", "MIN_FRACTION", "MIN_SECONDS", "STEADY", "STILL_STEADY", "ProgressEstimate",
           "SearchProgress", "duration_text", "reporting"]

#: Seconds a search runs before its fraction may be shown (before, there is no
#: history to tell a steady fraction from a jump).
MIN_SECONDS = 2.0
#: The least fraction shown: the first part of the tree is cut off too fast to
#: tell a steady fraction from a lucky start (and "0%" tells nothing).
MIN_FRACTION = 0.05
#: How far (fraction then / fraction now) / (time then / time now) may be from 1
#: for the percentage to be shown: at a half and a quarter of the time elapsed.
STEADY = (0.8, 1.25)
#: The same, once the percentage is shown (it is withdrawn outside this band).
STILL_STEADY = (0.6, 1.6)
#: Samples kept (every other one is dropped past this: the history thins out).
_MOST_SAMPLES = 4096
#: Seconds between the reports made while a search's answer is put together
#: (:func:`reporting`), as the search reports while it runs.
BEAT = 0.05


def duration_text(seconds: float, tenths: bool = False) -> str:
    """``7.4`` -> ``"7 s"``, ``125`` -> ``"2 min 05 s"``; with ``tenths``
    ``"7.4 s"``, ``"2 min 05.0 s"``."""
    if not tenths:
        whole = max(int(seconds + 0.5), 0)
        if whole < 60:
            return f"{whole} s"
        return f"{whole // 60} min {whole % 60:02d} s"
    whole, tenth = divmod(max(int(seconds * 10 + 0.5), 0), 10)
    if whole < 60:
        return f"{whole}.{tenth} s"
    return f"{whole // 60} min {whole % 60:02d}.{tenth} s"


@dataclass(frozen=True)
class SearchProgress:
    """What is shown of a running search: ``nodes`` positions searched in
    ``seconds``; ``percent`` of it done, or None when the search's estimate
    cannot be trusted now; ``found``: the sequences counted so far (a proven
    lower bound of the count)."""

    nodes: int
    seconds: float
    percent: int | None = None
    found: int = 0

    def text(self) -> str:
        """``"1,234,567 positions searched in 12.3 s"`` (``", at least 1,117
        sequences so far"`` once some are counted, ``", about 40% done"`` when
        the percentage can be trusted)."""
        text = (f"{count_text(self.nodes, 'position')} searched in "
                f"{duration_text(self.seconds, tenths=True)}")
        if self.found:
            text += f", at least {count_text(self.found, 'sequence')} so far"
        return text if self.percent is None else f"{text}, about {self.percent}% done"

    def cancelled_text(self) -> str:
        """What a cancel shows at once, while the search stops: how far it got
        and the sequences counted so far, said to be a lower bound."""
        head = (f"Search cancelled after {count_text(self.nodes, 'position')} in "
                f"{duration_text(self.seconds, tenths=True)}")
        if not self.found:
            return f"{head}: no sequence found yet, which says nothing about whether one exists"
        verb = "leads" if self.found == 1 else "lead"
        return (f"{head}: at least {count_text(self.found, 'sequence')} {verb} to the board "
                f"(counted so far), more may exist; listing those found…")


class ProgressEstimate:
    """The reports of one search, in order: :meth:`update` with each
    ``(fraction, nodes)`` and the seconds since the search started."""

    def __init__(self) -> None:
        self._times: list[float] = []
        self._fractions: list[float] = []
        self._trusted = False

    def update(self, fraction: float, nodes: int, seconds: float, found: int = 0
               ) -> SearchProgress:
        fraction = min(max(float(fraction), 0.0), 1.0)
        if self._fractions:
            fraction = max(fraction, self._fractions[-1])  # it never goes back
        if not self._times or seconds > self._times[-1]:
            self._times.append(seconds)
            self._fractions.append(fraction)
            if len(self._times) > _MOST_SAMPLES:
                del self._times[1::2], self._fractions[1::2]
        band = STILL_STEADY if self._trusted else STEADY
        self._trusted = self._steady(fraction, seconds, band)
        # the whole percent reached (0.175 is 17%, read as the 0.17499… it is stored as);
        # never 100 while it runs: the count done, the sequences are still read
        # off its table (the answer says "done")
        percent = min(int(fraction * 100 + 1e-9), 99) if self._trusted else None
        return SearchProgress(nodes, seconds, percent, found)

    def _at(self, seconds: float) -> float:
        """The fraction at ``seconds``, read between the reports before and after
        it (the search starts at 0 with nothing done)."""
        k = bisect.bisect_right(self._times, seconds)
        t0, f0 = (self._times[k - 1], self._fractions[k - 1]) if k else (0.0, 0.0)
        if k == len(self._times) or self._times[k] <= t0:
            return f0
        t1, f1 = self._times[k], self._fractions[k]
        return f0 + (f1 - f0) * (seconds - t0) / (t1 - t0)

    def _steady(self, fraction: float, seconds: float, band: tuple[float, float]) -> bool:
        if seconds < MIN_SECONDS or fraction < MIN_FRACTION or self._times[0] > seconds * 0.25:
            return False  # too early, too little done, or no report early enough to compare
        low, high = band
        for share in (0.5, 0.25):
            ratio = self._at(seconds * share) / fraction / share
            if not low <= ratio <= high:
                return False
        return True


@contextlib.contextmanager
def reporting(progress: Callable[[float, int], object] | None, fraction: float,
              nodes: int) -> Iterator[None]:
    """While the block runs, call ``progress(fraction, nodes)`` every
    :data:`BEAT` seconds from a thread of its own: the search has counted,
    and its answer is being put together (the sequences read off its table,
    their texts, what is certain, the tree), a part of a second that would
    otherwise report nothing (half a second on a loaded machine).  What
    ``progress`` returns is not looked at: this part is not cancelled."""
    if progress is None:
        yield
        return
    done = threading.Event()

    def beat() -> None:
        while not done.wait(BEAT):
            progress(fraction, nodes)

    thread = threading.Thread(target=beat, name="gap-answer-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
