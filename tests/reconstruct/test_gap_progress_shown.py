"""What the Gap tab shows of a running search (issue 21): the positions and the
time always, the percentage only while the search's fraction keeps pace with
the time (:mod:`rulesbook.reconstruct.gap.progress`). Each expected value is
worked out from the rule (the fraction at a half and a quarter of the time
elapsed, within the bands the module names), not read off its output."""
from __future__ import annotations

import pytest

from rulesbook.reconstruct.gap.progress import (
    MIN_FRACTION,
    MIN_SECONDS,
    STEADY,
    STILL_STEADY,
    ProgressEstimate,
    SearchProgress,
    duration_text,
)

#: (seconds, fraction, positions) reported by the pool gap of 16 plies from
#: B:W20,21,25,26,29:B1,2,3,4,5,6,12,13,K32 to B:W14,25:B3,4,24 (measured once,
#: a sample of its reports: the fraction stands near 3% from 4 s to 10 s, then
#: jumps from 11% to 16% in one second)
POOL_16 = [(0.86, 0.004, 54_272), (1.93, 0.007, 225_280), (3.00, 0.022, 380_928),
           (4.07, 0.028, 529_408), (6.24, 0.029, 824_320), (8.37, 0.030, 1_119_232),
           (10.51, 0.031, 1_379_328), (14.25, 0.039, 1_908_736), (19.05, 0.066, 2_561_024),
           (20.10, 0.088, 2_697_216), (25.97, 0.120, 3_425_280), (27.05, 0.162, 3_570_688),
           (29.74, 0.205, 3_931_136), (34.90, 0.233, 4_510_720), (39.78, 0.272, 5_136_384)]


def feed(estimate: ProgressEstimate, reports) -> list[SearchProgress]:
    return [estimate.update(f, n, t) for t, f, n in reports]


def test_the_bands_are_as_documented():
    # the tests below work with these numbers
    assert MIN_SECONDS == 2.0 and MIN_FRACTION == 0.05
    assert STEADY == (0.8, 1.25) and STILL_STEADY == (0.6, 1.6)


def test_the_measured_pool_search_never_shows_a_percentage():
    shown = feed(ProgressEstimate(), [(0.0, 0.0, 0), *POOL_16])
    assert [s.percent for s in shown] == [None] * (len(POOL_16) + 1)
    assert shown[-1].text() == "5,136,384 positions searched in 39.8 s"


def test_a_steady_search_shows_its_percentage_from_min_seconds_on():
    # 5% a second, reported every half second: the fraction is proportional to
    # the time, so at a half and a quarter of it the ratio is exactly 1
    reports = [(k / 2, k / 40, 1000 * k) for k in range(0, 13)]
    shown = feed(ProgressEstimate(), reports)
    for (t, _, _), s, k in zip(reports, shown, range(13), strict=True):
        assert s.percent == ((100 * k) // 40 if t >= MIN_SECONDS else None), t
    assert shown[-1].text() == "12,000 positions searched in 6.0 s, about 30% done"


def test_a_stall_withdraws_the_percentage():
    # 5% a second to 30% at 6 s, then it stands still. At 7 s: 0.175 at 3.5 s and
    # 0.0875 at 1.75 s are 1.17 times a half and a quarter of 0.30 (inside the
    # band 0.6-1.6 once shown); at 10 s: 0.25 at 5 s is 1.67 times a half: outside.
    estimate = ProgressEstimate()
    feed(estimate, [(k / 2, k / 40, 1000 * k) for k in range(0, 13)])
    assert estimate.update(0.30, 13_000, 7.0).percent == 30
    assert estimate.update(0.30, 14_000, 10.0).percent is None
    # and it stays withdrawn while the fraction stands still
    assert estimate.update(0.30, 15_000, 12.0).percent is None


def test_a_jump_withdraws_the_percentage_at_once():
    # 5% a second to 30% at 6 s, then 60% at 6.5 s: 0.1625 at 3.25 s is 0.54 times
    # a half of 0.60, below the band 0.6-1.6
    estimate = ProgressEstimate()
    feed(estimate, [(k / 2, k / 40, 1000 * k) for k in range(0, 13)])
    assert estimate.update(0.60, 13_000, 6.5).percent is None


def test_a_first_report_of_much_done_is_no_evidence():
    # nothing before it to compare: not shown, however much it says
    assert ProgressEstimate().update(0.5, 1_000, 3.0).percent is None


def test_too_little_done_is_not_shown():
    # steady, but under MIN_FRACTION: "1%" would project a time no one can trust
    reports = [(k / 2, k / 1000, 1000 * k) for k in range(0, 20)]
    assert all(s.percent is None for s in feed(ProgressEstimate(), reports))


def test_the_fraction_never_goes_back():
    estimate = ProgressEstimate()
    feed(estimate, [(k / 2, k / 40, 1000 * k) for k in range(0, 13)])
    # a report of less done (a search that starts a longer gap) keeps 30%
    assert estimate.update(0.10, 13_000, 6.25).percent == 30


@pytest.mark.parametrize("seconds, text", [(0.2, "0 s"), (7.4, "7 s"), (59.6, "1 min 00 s"),
                                           (125, "2 min 05 s")])
def test_duration_text(seconds, text):
    assert duration_text(seconds) == text


def test_one_position_is_one():
    assert SearchProgress(1, 0.0).text() == "1 position searched in 0.0 s"


@pytest.mark.parametrize("seconds, text", [(0.04, "0.0 s"), (7.44, "7.4 s"), (59.96, "1 min 00.0 s"),
                                           (125.26, "2 min 05.3 s")])
def test_duration_text_in_tenths_changes_with_every_report(seconds, text):
    # (reports come every 50 ms: the running text changes even while the
    # positions stand still)
    assert duration_text(seconds, tenths=True) == text


def test_the_sequences_counted_so_far_are_shown_as_a_lower_bound():
    shown = SearchProgress(1_234, 2.5, found=17)
    assert shown.text() == "1,234 positions searched in 2.5 s, at least 17 sequences so far"
    assert shown.cancelled_text().startswith("Search cancelled after 1,234 positions in 2.5 s: "
                                             "at least 17 sequences lead to the board")
    assert "more may exist" in shown.cancelled_text()
    assert "at least 1 sequence leads" in SearchProgress(5, 1.0, found=1).cancelled_text()
    nothing = SearchProgress(5, 1.0).cancelled_text()
    assert "no sequence found yet" in nothing and "at least" not in nothing


def test_a_search_that_has_counted_all_still_is_not_shown_100_percent_done():
    # the count is done (fraction 1) but the sequences are still read off its
    # table: the answer, not the progress, says it is done
    shown = feed(ProgressEstimate(), [(k / 2, k / 40, 1000 * k) for k in range(1, 41)])
    assert shown[-1].percent == 99 and shown[-2].percent == 97
