"""The dispute report on paper (issue 19): no page that holds only a signature line."""
from __future__ import annotations

import re

import pytest

from rulesbook.report import report_html
from rulesbook.rulings import get_case
from ui.rulings.report import report_pdf_bytes


def pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def test_a_typical_dispute_prints_on_two_pages(qapp, library):
    # the failure-to-capture case: the variant and its rulebooks (#31), diagram, four
    # facts, two rulings with their texts, the comparison of nine variants, the
    # decision and signatures, the program's version (#32) — on Letter paper (every
    # part of it there: test_every_part_of_the_report_reaches_the_paper)
    pdf = report_pdf_bytes(report_html(library, get_case(library, "failure-to-capture-at-once")))
    assert pdf.startswith(b"%PDF")
    assert pages(pdf) == 2


def pdf_words(pdf: bytes) -> str:
    """Every page's text, without white space (pypdf breaks lines where Qt did) and
    with the font's ligatures (ﬀ, ﬁ) as letters."""
    import io
    import unicodedata

    from pypdf import PdfReader

    return "".join(re.sub(r"\s+", "", unicodedata.normalize("NFKC", page.extract_text()))
                   for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.parametrize("case_id", ["failure-to-capture-at-once",
                                     "illegal-move-found-four-moves-later"])
def test_every_part_of_the_report_reaches_the_paper(qapp, library, case_id):
    """Moving a heading to the next page once left the blocks after it where they were
    laid out before: the PDF of these two cases lost a rule's quote, the comparison's
    heading, the referee's decision and the signature line."""
    import html

    report = report_html(library, get_case(library, case_id))
    words = pdf_words(report_pdf_bytes(report))
    body = re.sub(r"<svg\b.*?</svg>|<style>.*?</style>|<title>.*?</title>", "", report,
                  flags=re.DOTALL)
    parts = [html.unescape(re.sub(r"<[^>]+>", "", p)) for p in
             re.findall(r"<(?:h[1-3]|p|li|td)>(.*?)</(?:h[1-3]|p|li|td)>", body, re.DOTALL)]
    assert len(parts) > 30
    missing = [p for p in parts if re.sub(r"\s+", "", p) not in words]
    assert not missing, missing


def test_no_heading_is_left_alone_at_the_foot_of_a_page(qapp):
    """Wherever a heading falls, the text under it starts on the same page: for every
    filler length the page that holds the heading also holds its first line."""
    import io

    from pypdf import PdfReader

    from ui.export import pdf_bytes

    for filler in range(28, 40):  # about 34 lines fill a Letter page: every position
        body = "".join(f"<p>filler line {i}</p>" for i in range(filler))
        body += "<h2>RulingHeading</h2><p>FirstLineUnderIt</p>"
        reader = PdfReader(io.BytesIO(pdf_bytes("t", body)))
        texts = [page.extract_text() for page in reader.pages]
        with_heading = [t for t in texts if "RulingHeading" in t]
        assert len(with_heading) == 1, (filler, texts)
        assert "FirstLineUnderIt" in with_heading[0], filler
