"""The dispute report on paper (issue 19): no page that holds only a signature line."""
from __future__ import annotations

import re

from rulesbook.report import report_html
from rulesbook.rulings import get_case
from ui.rulings.report import report_pdf_bytes


def pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def test_a_typical_dispute_prints_on_two_pages(qapp, library):
    # the failure-to-capture case: diagram, four facts, one ruling with its text, the
    # comparison of eight variants, the decision and signatures — on Letter paper
    pdf = report_pdf_bytes(report_html(library, get_case(library, "failure-to-capture-at-once")))
    assert pdf.startswith(b"%PDF")
    assert pages(pdf) == 2
