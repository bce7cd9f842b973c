"""The offline HTML report: one self-contained file, the reasons as a bar chart (inline SVG),
the failing answers listed with their questions. No script, no network, everything escaped."""

from __future__ import annotations

from html import escape

from finscore.answers import reasons as R
from finscore.answers.decision import Decision
from finscore.answers.report import DENOMINATOR_POLICY, AnswerReport

BAR_WIDTH = 420
MAX_LISTED = 2000
_STYLE = ("body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse}"
          "td,th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}"
          "code{white-space:pre-wrap}.pass{fill:#3a7}.miss{fill:#c54}")


def _chart(report: AnswerReport) -> str:
    counts = report.reason_counts()
    largest = max(counts.values()) or 1
    rows = []
    for index, reason in enumerate(R.ALL_REASONS):
        y, width = 22 * index, BAR_WIDTH * counts[reason] // largest
        side = "pass" if reason in R.PASS_REASONS else "miss"
        rows.append(f'<text x="0" y="{y + 15}">{reason}</text><rect class="{side}" x="150" y="{y + 3}" '
                    f'width="{width}" height="16"/><text x="{158 + width}" y="{y + 15}">{counts[reason]}</text>')
    height = 22 * len(R.ALL_REASONS)
    return (f'<svg role="img" aria-label="decisions by reason" width="{BAR_WIDTH + 230}" height="{height}" '
            f'xmlns="http://www.w3.org/2000/svg">{"".join(rows)}</svg>')


def read_cell(decision: Decision) -> str:
    """What the "read" column shows: the text read, or a dash with why nothing was (never "None")."""
    if decision.read is not None:
        return escape(decision.read)
    why = "two numbers" if decision.reason == R.SEVERAL_NUMBERS else "nothing read"
    return f"\u2014 ({why}: {escape(decision.detail)})"


def render_html(report: AnswerReport) -> str:
    stamp = report.stamp
    total = len(report.rows)
    failing = [row for row in report.rows if not row.decision.passed]
    listed = "".join(
        f"<tr><td>{escape(row.id)}</td><td>{escape(row.question)}</td><td>{escape(row.decision.reason)}"
        f"{'' if row.decision.k is None else f' k={row.decision.k}'}</td><td>{read_cell(row.decision)}</td>"
        f"<td>{escape(row.decision.gold)}</td><td><code>{escape((row.text or '')[-400:])}</code></td></tr>"
        for row in failing[:MAX_LISTED])
    accuracy = f"{100 * report.passed / total:.2f}%" if total else "n/a"
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>finscore answers: '
        f"{escape(report.protocol.name)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>finscore answers: {escape(report.protocol.name)}, format {escape(report.format)}</h1>"
        + (f"<p><strong>LENIENT</strong>: {escape(stamp['lenient'])}.</p>" if "lenient" in stamp else "")
        + f"<p>Accuracy {report.passed}/{total} = {accuracy}. Tolerance: {escape(report.protocol.tolerance.describe())}.</p>"
        f"<p>Stamp: {escape(stamp['protocol'])}, finscore {escape(str(stamp['finscore']))}, conformance sha256 "
        f"<code>{escape(str(stamp['conformance_sha256']))}</code></p>"
        f"<p>Denominator: {escape(DENOMINATOR_POLICY)}.</p>"
        f"<h2>Reasons</h2>{_chart(report)}"
        f"<h2>Failing answers ({len(failing)}{'' if len(failing) <= MAX_LISTED else f', first {MAX_LISTED} listed'})</h2>"
        f"<table><tr><th>id</th><th>question</th><th>reason</th><th>read</th><th>gold</th>"
        f"<th>answer (last 400 characters)</th></tr>{listed}</table></body></html>\n"
    )
