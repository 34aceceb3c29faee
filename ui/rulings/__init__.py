"""The rulings panel: choose an incident, answer its questions, see the rulings
under the edition in force and how every variant decides it, browse the case
library, and write the dispute report (HTML or PDF).

:class:`RulingsController` owns the state (incident, facts, report fields) and
computes the answers with :mod:`rulesbook.rulings`; the widgets in
:mod:`ui.rulings.panel` display them and forward the user's input.
"""
from .controller import REPORT_FIELDS, RulingsController
from .report import diagram_image, report_pdf_bytes, save_report_html, save_report_pdf

__all__ = ["REPORT_FIELDS", "RulingsController", "diagram_image", "report_pdf_bytes",
           "save_report_html", "save_report_pdf"]
