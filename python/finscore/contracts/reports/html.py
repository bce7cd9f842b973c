"""Self-contained HTML for reports and comparisons: inline CSS and SVG, no script, no network.

The page must open from a file on a machine with no connection, and model
output shown in it is data: every text goes through `html.escape`.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any, Iterable, Mapping, Sequence

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;color:#1d1d1f;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:.25em .5em;text-align:left;
vertical-align:top}th{background:#f4f4f6}.banner{padding:.75em 1em;border-radius:6px;background:#fff4d6;
border:1px solid #e0b84c}.ok{color:#17663a}.bad{color:#a11d2b}pre{white-space:pre-wrap;margin:0;
font-size:12px;max-width:40em;overflow-wrap:anywhere}.note{color:#555}svg text{font:12px system-ui,sans-serif}
"""
_BAR_HEIGHT = 22
_LABEL_WIDTH = 190
_PLOT_WIDTH = 420
#: The charts' text is 12px (the CSS above); a label's width is taken as at most 0.65 em a character
#: (system-ui's widest lower-case runs, digits and `_` stay below it), so no label is clipped.
FONT_PX = 12
CHARACTER_EM = 0.65
#: Room right of the plot for a count or a tick's half-width.
_RIGHT_MARGIN = 60


def label_width(labels: Iterable[str]) -> int:
    """The label column: the usual 190 px, or wider so that the longest label fits whole."""
    longest = max((len(label) for label in labels), default=0)
    return max(_LABEL_WIDTH, int(longest * FONT_PX * CHARACTER_EM + 0.999) + 16)


def _svg(title: str, width: float, height: float) -> str:
    """The chart's opening tag: a viewBox as large as its drawing, so that nothing falls outside."""
    return (f'<svg role="img" aria-label="{escape(title)}" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}" xmlns="http://www.w3.org/2000/svg">')


def _e(value: Any) -> str:
    return escape(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str))


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def page(title: str, body: Iterable[str]) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>"
        f"<h1>{escape(title)}</h1>" + "".join(body) + "</body></html>\n"
    )


def table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """Cells are already-escaped HTML; headers are plain text."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def interval_chart(title: str, rows: Sequence[tuple[str, float | None, Sequence[float] | None]]) -> str:
    """Horizontal bars of rates (0..1) with interval whiskers."""
    height = _BAR_HEIGHT * len(rows) + 30
    left = label_width(label for label, _, _ in rows)
    parts = [_svg(title, left + _PLOT_WIDTH + _RIGHT_MARGIN, height)]
    for tick in (0, 0.25, 0.5, 0.75, 1):
        x = left + tick * _PLOT_WIDTH
        parts.append(
            f'<line x1="{x:.1f}" y1="0" x2="{x:.1f}" y2="{height - 20}" stroke="#e3e3e3"/>'
            f'<text x="{x:.1f}" y="{height - 5}" text-anchor="middle">{tick:.0%}</text>'
        )
    for index, (label, rate, interval) in enumerate(rows):
        y = index * _BAR_HEIGHT + 4
        parts.append(f'<text x="{left - 8}" y="{y + 13}" text-anchor="end">{escape(label)}</text>')
        if rate is not None:
            parts.append(
                f'<rect x="{left}" y="{y + 2}" width="{rate * _PLOT_WIDTH:.1f}" height="12" '
                f'fill="#6b8fc9"><title>{escape(label)}: {_percent(rate)}</title></rect>'
            )
        if interval is not None:
            low, high = (left + v * _PLOT_WIDTH for v in interval)
            parts.append(
                f'<line x1="{low:.1f}" y1="{y + 8}" x2="{high:.1f}" y2="{y + 8}" stroke="#222" '
                f'stroke-width="1.5"/><line x1="{low:.1f}" y1="{y + 3}" x2="{low:.1f}" y2="{y + 13}" '
                f'stroke="#222"/><line x1="{high:.1f}" y1="{y + 3}" x2="{high:.1f}" y2="{y + 13}" '
                f'stroke="#222"/>'
            )
    parts.append("</svg>")
    return "".join(parts)


def count_chart(title: str, counts: Mapping[str, int]) -> str:
    """Horizontal bars of counts."""
    largest = max(counts.values(), default=0) or 1
    height = _BAR_HEIGHT * len(counts) + 8
    left = label_width(counts)
    parts = [_svg(title, left + _PLOT_WIDTH + _RIGHT_MARGIN, height)]
    for index, (label, count) in enumerate(counts.items()):
        y = index * _BAR_HEIGHT + 4
        width = count / largest * _PLOT_WIDTH
        parts.append(
            f'<text x="{left - 8}" y="{y + 13}" text-anchor="end">{escape(label)}</text>'
            f'<rect x="{left}" y="{y + 2}" width="{width:.1f}" height="12" fill="#c96b6b"/>'
            f'<text x="{left + width + 6:.1f}" y="{y + 13}">{count}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def change_chart(title: str, changes: Mapping[str, float]) -> str:
    """Diverging bars of changes in rate (-1..1) around a centre line at no change."""
    height = _BAR_HEIGHT * len(changes) + 30
    left = label_width(changes)
    centre = left + _PLOT_WIDTH / 2
    parts = [_svg(title, left + _PLOT_WIDTH + _RIGHT_MARGIN, height)]
    for tick in (-1, -0.5, 0, 0.5, 1):
        x = centre + tick * _PLOT_WIDTH / 2
        parts.append(
            f'<line x1="{x:.1f}" y1="0" x2="{x:.1f}" y2="{height - 20}" stroke="#e3e3e3"/>'
            f'<text x="{x:.1f}" y="{height - 5}" text-anchor="middle">{tick:+.0%}</text>'
        )
    for index, (label, change) in enumerate(changes.items()):
        y = index * _BAR_HEIGHT + 4
        width = abs(change) * _PLOT_WIDTH / 2
        x = centre if change >= 0 else centre - width
        colour = "#5a9e6f" if change >= 0 else "#c96b6b"
        parts.append(
            f'<text x="{left - 8}" y="{y + 13}" text-anchor="end">{escape(label)}</text>'
            f'<rect x="{x:.1f}" y="{y + 2}" width="{width:.1f}" height="12" fill="{colour}">'
            f"<title>{escape(label)}: {change:+.1%}</title></rect>"
        )
    parts.append(f'<line x1="{centre:.1f}" y1="0" x2="{centre:.1f}" y2="{height - 20}" stroke="#222"/></svg>')
    return "".join(parts)


def _rate_rows(groups: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, float | None, Sequence[float] | None]]:
    rows = []
    for name, group in groups.items():
        rate = group["pass_rate"]
        interval = rate["clopper_pearson"] or rate["wilson"]
        units = "families" if rate["unit"] == "family" else f"{rate['unit']}s"
        rows.append((f"{name} ({rate['passed']}/{rate['trials']} {units})", rate["estimate"], interval))
    return rows


def bootstrap_text(result: Mapping[str, Any], signed: bool = False) -> str:
    if not result.get("computed"):
        return escape(result.get("note", "not computed"))
    low, high = result["interval"]
    shown = f"{low:+.1%} to {high:+.1%}" if signed else f"{low:.1%} to {high:.1%}"
    text = (
        f"{result['confidence']:.0%} percentile interval {shown} over {result['families']} families "
        f"({result['replicates']} replicates, seed {result['seed']})"
    )
    return escape(text + (f". {result['note']}" if result["note"] else ""))


def _clustered_se_text(result: Mapping[str, Any]) -> str:
    if not result.get("computed"):
        return escape(result["note"])
    text = (
        f"{result['estimate']:.1%} ± {result['standard_error']:.1%} (one standard error, {result['families']} families)"
    )
    return escape(text + (f". {result['note']}" if result["note"] else ""))


def anchor(case_id: str, attempt: int, entry_id: str) -> str:
    return f"trace-{case_id}-{attempt}-{entry_id}"


def _trace_link(trace_ref: str | None) -> str:
    if trace_ref is None:
        return ""
    case_attempt, entry_id = trace_ref.split("#", 1)
    case_id, attempt = case_attempt.rsplit("/", 1)
    return f'<a href="#{escape(anchor(case_id, int(attempt), entry_id))}">{escape(trace_ref)}</a>'


def _self_check_section(check: Mapping[str, Any]) -> list[str]:
    verdict = '<b class="ok">all as expected</b>' if check["ok"] else '<b class="bad">NOT as expected</b>'
    mutations = [r for r in check["mutations"]["rows"] if r["applicable"]]
    return [
        "<h2>Instrument self-check</h2>",
        f"<p>Verdict: {verdict}. Oracle: {check['oracle']['passed']} of {check['oracle']['of']} passed. "
        f"Mutations failing with their target category: {check['mutations']['failed_as_expected']} of "
        f"{check['mutations']['applicable']}. Probes as written: {check['probes']['as_written']} of "
        f"{check['probes']['count']}.</p>",
        table(
            ["probe", "description", "expected", "actual", "ok"],
            (
                [
                    _e(r["probe_id"]),
                    _e(r["description"]),
                    f"<pre>{_e(r['expected'])}</pre>",
                    f"<pre>{_e(r['actual'])}</pre>",
                    "yes" if r["ok"] else '<b class="bad">no</b>',
                ]
                for r in check["probes"]["rows"]
            ),
        ),
        table(
            ["case", "mutation", "expected category", "primary category", "codes", "ok"],
            (
                [
                    _e(r["case_id"]),
                    _e(r["mutation"]),
                    _e(r["expected_category"]),
                    _e(r["primary_category"]),
                    _e(", ".join(r["codes"])),
                    "yes" if r["ok"] else '<b class="bad">no</b>',
                ]
                for r in mutations
            ),
        ),
    ]


def _traces_section(traces: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[str]:
    parts = ["<h2>Trusted traces of failing attempts</h2>"]
    for key, entries in traces.items():
        case_id, attempt = key.rsplit("/", 1)
        parts.append(f"<h3>{escape(key)}</h3>")
        if not entries:
            parts.append('<p class="note">no calls recorded</p>')
            continue
        parts.append(
            table(
                ["entry", "turn", "tool", "arguments", "household", "outcome", "effect", "result"],
                (
                    [
                        f'<span id="{escape(anchor(case_id, int(attempt), e["id"]))}">{escape(e["id"])}</span>',
                        _e(e["turn"]),
                        _e(e["tool"]),
                        f"<pre>{_e(e['arguments'])}</pre>",
                        _e(e["household_id"] or ""),
                        _e(e["outcome"] + (f": {e['message']}" if e["message"] else "")),
                        _e(e["effect"]),
                        f"<pre>{_e(e['result'])}</pre>",
                    ]
                    for e in entries
                ),
            )
        )
    return parts


def _counts_table(report: Mapping[str, Any]) -> str:
    counts = report["counts"]
    names = ["cases", "attempts per case", "trials", "attempted", "submitted", "completed", "passed", "critical"]
    values = [counts["cases"], report["attempts_per_case"]] + [counts[name] for name in names[2:]]
    return table(names, [[str(value) for value in values]])


def _family_language_table(report: Mapping[str, Any]) -> str:
    """One column per language, in header order; a cell with no trial is left empty, never shifted."""
    languages = report["families_passing_every_language"]["languages"]
    rows = []
    for family, row in report["family_language"].items():
        cells = [row.get(language) for language in languages]
        rows.append([_e(family)] + ["" if cell is None else f"{cell['passed']}/{cell['trials']}" for cell in cells])
    return table(["family"] + languages, rows)


def _integrity_paragraph(report: Mapping[str, Any]) -> list[str]:
    """How far the traces were verified; when they were not, the warning banner already says so."""
    integrity = report.get("integrity")
    return [f"<p>{escape(integrity['statement'])}</p>"] if integrity and "warning" not in report else []


def _rate_sections(report: Mapping[str, Any]) -> list[str]:
    """The pass-rate apparatus of a report that scores a candidate (never of the instrument)."""
    rate = report["pass_rate"]
    parts = [
        f"<p><b>{escape(rate['statement'])}</b></p>",
        f'<p class="note">{escape(report["row_pass_rate"]["statement"])}</p>',
        *_integrity_paragraph(report),
        _counts_table(report),
        "<h2>Pass rate by family: rows of one family, not independent (95% exact intervals)</h2>",
        interval_chart("pass rate by family", _rate_rows(report["by_family"])),
        "<h2>Pass rate by language: families passing in that language (95% exact intervals)</h2>",
        interval_chart("pass rate by language", _rate_rows(report["by_language"])),
        "<h2>Failures by category</h2>",
        count_chart("failures by category", report["failure_categories"]["failures"]),
        "<h2>Families × languages</h2>",
        _family_language_table(report),
        f"<p>Families passing in every language: {report['families_passing_every_language']['count']} of "
        f"{report['families_passing_every_language']['of']}.</p>",
        "<h2>Clusters and repeated attempts</h2>",
        f"<p>Family bootstrap: {bootstrap_text(report['clusters']['bootstrap'])}</p>",
        f"<p>Clustered standard error: {_clustered_se_text(report['clusters']['clustered_se'])}</p>",
        table(["k", "pass^k"], ([escape(k), f"{v['value']:.4f}"] for k, v in report["pass_hat_k"].items())),
    ]
    if "attempts_note" in report:
        parts.append(f'<p class="note">{escape(report["attempts_note"])}</p>')
    return parts


def _instrument_sections(report: Mapping[str, Any]) -> list[str]:
    """The instrument's page: its verdict first, then what was checked; no pass-rate apparatus."""
    check = report.get("self_check")
    if check is not None:
        return _self_check_section(check) + [*_integrity_paragraph(report), _counts_table(report)]
    counts = report["counts"]
    ok = counts["passed"] == counts["trials"]
    verdict = '<b class="ok">all as expected</b>' if ok else '<b class="bad">NOT as expected</b>'
    return [
        "<h2>Instrument records</h2>",
        f"<p>Verdict: {verdict}. Oracle records: {counts['passed']} of {counts['trials']} passed.</p>",
        *_integrity_paragraph(report),
        _counts_table(report),
    ]


def _evidence_section(evidence: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[str]:
    """Cited cached items and document passages of failing attempts, anchored like trace entries."""
    if not evidence:
        return []
    parts = ["<h2>Cited evidence of failing attempts (cached items, document passages)</h2>"]
    for key, items in evidence.items():
        case_id, attempt = key.rsplit("/", 1)
        parts.append(f"<h3>{escape(key)}</h3>")
        parts.append(
            table(
                ["id", "origin", "source", "content"],
                (
                    [
                        f'<span id="{escape(anchor(case_id, int(attempt), item["id"]))}">{escape(item["id"])}</span>',
                        _e(item["origin"]),
                        _e(item["source"] if item["origin"] == "document" else (item["result"] or {}).get("source")),
                        f"<pre>{_e(item['text'] if item['origin'] == 'document' else item['result'])}</pre>",
                    ]
                    for item in items
                ),
            )
        )
    return parts


def render_report_html(report: Mapping[str, Any]) -> str:
    # Traces not verified: that comes first, before anything the page says about them.
    body = [f'<p class="banner"><b>{escape(report["warning"])}</b></p>'] if "warning" in report else []
    if "unsandboxed" in report:  # a run without the OS sandbox (finscore run --unsandboxed): said first of all
        body.insert(0, f'<p class="banner"><b>{escape(report["unsandboxed"])}</b></p>')
    kind = escape(report["kind"].replace("_", " "))
    body.append(f'<p class="banner"><b>{kind}</b>: {escape(report["statement"])}</p>')
    if report["kind"] == "instrument_self_check":
        body.extend(_instrument_sections(report))
    else:
        body.extend(_rate_sections(report))
    body.append("<h2>Failures</h2>")
    body.append(
        table(
            ["case", "attempt", "code", "category", "part", "expected", "actual", "trace entry"],
            (
                [
                    _e(f["case_id"]),
                    _e(f["attempt"]),
                    _e(f["code"]) + (' <b class="bad">critical</b>' if f["critical"] else ""),
                    _e(f["category"]),
                    _e(f["part"]),
                    f"<pre>{_e(f['expected'])}</pre>",
                    f"<pre>{_e(f['actual'])}</pre>"
                    + (f'<div class="note">{_e(f["message"])}</div>' if f["message"] else ""),
                    _trace_link(f["trace_ref"]),
                ]
                for f in report["failures"]
            ),
        )
    )
    rejected = report["predictions"]["rejected_lines"]
    if rejected:
        body.append("<h2>Rejected prediction lines</h2>")
        body.append(table(["line", "problem"], ([_e(r["line"]), _e(r["problem"])] for r in rejected)))
    body.extend(_traces_section(report["traces"]))
    body.extend(_evidence_section(report.get("evidence", {})))
    return page("finscore contracts report", body)


def render_comparison_html(comparison: Mapping[str, Any]) -> str:
    labels = comparison["labels"]
    overall = comparison["overall"]
    test = comparison["exact_paired_test"]
    family = comparison["family_test"]
    boot = comparison["paired_family_bootstrap"]
    changes = {f"{r['name']} ({r['trials']})": r["change"] for r in comparison["by_family"]}
    body = [
        f'<p class="banner"><b>{escape(comparison["banner"])}</b></p>' if comparison.get("banner") else "",
        f"<p><b>Families: {escape(family['note'])}.</b> {escape(family['name'])}: "
        f"{family['improved']} improved, {family['worsened']} worsened, {family['unchanged']} unchanged; "
        f"p = {family['p_value']:.4g}.</p>",
        f"<p>{escape(labels['b'])} against {escape(labels['a'])} on {comparison['trials']} paired attempts "
        f"(row-level, not independent): {_percent(overall['a_rate'])} → {_percent(overall['b_rate'])} "
        f"(change {overall['change']:+.1%}).</p>",
        f"<p>{escape(test['name'])}: {test['only_a_passed']} pass only with {escape(labels['a'])}, "
        f"{test['only_b_passed']} only with {escape(labels['b'])}; p = {test['p_value']:.4g}. "
        f'<span class="note">{escape(test["note"])}</span></p>',
        f"<p>Paired family bootstrap of the change: {bootstrap_text(boot, signed=True)}</p>",
        f"<h2>Change by family ({escape(labels['b'])} − {escape(labels['a'])})</h2>",
        change_chart("change by family", changes),
        table(
            ["family", "trials", f"{labels['a']} rate", f"{labels['b']} rate", "change"],
            (
                [_e(r["name"]), str(r["trials"]), _percent(r["a_rate"]), _percent(r["b_rate"]), f"{r['change']:+.1%}"]
                for r in comparison["by_family"]
            ),
        ),
        "<h2>By language</h2>",
        table(
            ["language", "trials", f"{labels['a']} rate", f"{labels['b']} rate", "change"],
            (
                [_e(r["name"]), str(r["trials"]), _percent(r["a_rate"]), _percent(r["b_rate"]), f"{r['change']:+.1%}"]
                for r in comparison["by_language"]
            ),
        ),
        f'<p class="note">{escape(comparison["note"])}</p>',
    ]
    return page("finscore contracts comparison", body)
