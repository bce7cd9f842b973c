"""`finscore protocols compare --html`: the comparison as one offline page.

Written with the report module every HTML page of finscore uses (`contracts/reports/html.py`: the
page, its inline CSS, tables, inline-SVG bar charts; no script, no fetched resource). Every text of
the data (completions are model output) is escaped there or here.
"""

from __future__ import annotations

from html import escape
from typing import Any, Mapping

from finscore.protocols.disagreement import MEANINGS

#: The most disagreements listed on the page (the JSON report holds them all).
DISAGREEMENTS_LISTED = 2000
#: The characters of a completion shown (its end, where the answer is).
COMPLETION_TAIL_CHARS = 400


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.2f}%"


def _completion(value: Any) -> str:
    if value is None:
        return "(no completion)"
    if isinstance(value, Mapping):
        extracted = value.get("extracted")
        text = str(value.get("completion", ""))
        shown = escape(text[-COMPLETION_TAIL_CHARS:])
        return (f"<pre>{shown}</pre>" if extracted is None
                else f"<pre>{shown}</pre>extracted: <code>{escape(str(extracted))}</code>")
    return f"<pre>{escape(str(value)[-COMPLETION_TAIL_CHARS:])}</pre>"


def render_html(report: Mapping[str, Any]) -> str:
    """The page: the table of protocols, a bar chart of their scores, the reasons, the disagreements."""
    from finscore.contracts.reports.html import count_chart, interval_chart, page, table

    rows = report["protocols"]
    body = [f"<p>{report['completions']} completions for {report['examples']} gold examples "
            f"({escape(report['benchmark'])}).</p>"]
    body.append(table(
        ["protocol", "score", "accepted", "denominator", "as published", "raises", "not decided",
         "peer_executes_code", "missing"],
        [[escape(row["protocol"]), _percent(row["score"]), str(row["accepted"]), str(row["denominator"]),
          f"{_percent(row['published_score'])} of {row['published_denominator']}", str(row["raises"]),
          str(row["not_decided"]),
          str(row["peer_executes_code"]) + ("" if row["reproducible"] else
                                            f" ({row['undecided_code']} undecided: not reproducible without "
                                            "running model text)"),
          str(row["missing"])] for row in rows]))
    body.append("<h2>Scores by protocol</h2>")
    body.append(interval_chart("scores by protocol", [(row["protocol"], row["score"], None) for row in rows]))
    body.append("<h2>Signatures</h2>" + "".join(f"<pre>{escape(row['signature'])}</pre>" for row in rows))
    notes = [f"not in this installation: {escape(', '.join(report['unavailable']))}"] if report["unavailable"] else []
    notes += [f"not applicable: {escape(pid)}: {escape(why)}" for pid, why in report["not_applicable"].items()]
    if report["unknown_ids"]:
        notes.append(f"{len(report['unknown_ids'])} completion(s) for ids no gold example has, not scored")
    body += [f'<p class="note">{note}</p>' for note in notes]
    counts = {reason: count for reason, count in report["disagreement_reasons"].items() if count}
    disagreements = report["disagreements"]
    body.append(f"<h2>Why protocols disagree ({len(disagreements)} examples)</h2>")
    if counts:
        body.append(count_chart("disagreements by reason", counts))
        body.append(table(["reason", "examples", "meaning"],
                          [[f"<code>{escape(r)}</code>", str(n), escape(MEANINGS[r])] for r, n in counts.items()]))
    listed = disagreements[:DISAGREEMENTS_LISTED]
    body.append(f"<h2>Disagreements{'' if len(listed) == len(disagreements) else f' (first {len(listed)})'}</h2>")
    body.append(table(
        ["id", "accepted by", "why", "each protocol's reason", "completion (last 400 characters)"],
        [[escape(item["id"]), escape(", ".join(item["accepted_by"]) or "none"),
          "<br>".join(f"<code>{escape(pair['reason'])}</code>: {escape(', '.join(pair['accepted_by']) or '-')} vs "
                      f"{escape(', '.join(pair['not_accepted_by']))}" for pair in item["why"]),
          "<br>".join(f"{escape(pid)}: {escape(reason)}" for pid, reason in item["reasons"].items()),
          _completion(item["completion"])] for item in listed]))
    return page(f"finscore protocols compare: {report['benchmark']}", body)
