"""What the scorer writes: the JSON report, its HTML twin, the comparison of two reports, the self-check."""

from finscore.contracts.reports.comparison import COMPARISON_FORMAT, compare_reports, load_report
from finscore.contracts.reports.contracts_report import REPORT_FORMAT, build_report
from finscore.contracts.reports.html import render_comparison_html, render_report_html
from finscore.contracts.reports.selfcheck import run_self_check

__all__ = [
    "COMPARISON_FORMAT",
    "REPORT_FORMAT",
    "build_report",
    "compare_reports",
    "load_report",
    "render_comparison_html",
    "render_report_html",
    "run_self_check",
]
