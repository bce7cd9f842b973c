"""The text report of `finscore answers`: stamp, rules, denominator, reasons, first failures."""

from __future__ import annotations

from finscore.answers import reasons as R
from finscore.answers.report import DENOMINATOR_POLICY, AnswerReport


def _clip(text: str | None, width: int = 100) -> str:
    flat = " ".join((text or "").split())
    return flat if len(flat) <= width else flat[: width - 3] + "..."


def render_report(report: AnswerReport, *, examples: int = 10) -> str:
    data = report.to_json()
    counts = data["counts"]
    stamp = report.stamp
    lines = [
        f"finscore answers: {report.protocol.name} ({report.protocol.data.get('title', '')}), format {report.format}"
        + (f" (LENIENT: {stamp['lenient']})" if "lenient" in stamp else ""),
        f"stamp: {stamp['protocol']}, finscore {stamp['finscore']}, conformance sha256 {stamp['conformance_sha256']}",
        f"tolerance: {report.protocol.tolerance.describe()}",
        f"gold: {report.gold_kind}, {counts['golds']} golds in the protocol"
        + (f", {counts['out_of_protocol_golds']} outside it (not scored)" if counts["out_of_protocol_golds"] else ""),
        f"denominator: {DENOMINATOR_POLICY}",
        "",
        f"accuracy: {report.passed}/{counts['golds']} = "
        + (f"{100 * report.passed / counts['golds']:.2f}%" if counts["golds"] else "n/a"),
        "",
        "reason                 count",
    ]
    reasons = report.reason_counts()
    for reason in R.ALL_REASONS:
        side = "pass" if reason in R.PASS_REASONS else "miss"
        lines.append(f"  {side} {reason:<18} {reasons[reason]:>6}")
    if report.citations is not None:
        from finscore.answers.citations import CITATION_REASONS, citation_counts

        cited = citation_counts(report.citations)
        lines += ["", "evidence cited (against qa.gold_inds; apart from correctness):"]
        lines += [f"  {reason:<23} {cited[reason]:>6}" for reason in CITATION_REASONS]
    if report.exclusions:
        lines += ["", f"excluded prediction lines: {len(report.exclusions)}"]
        lines += [f"  {e.describe()}" for e in report.exclusions[:examples]]
    failing = [row for row in report.rows if not row.decision.passed]
    if failing and examples:
        lines += ["", f"first {min(examples, len(failing))} of {len(failing)} failures:"]
        for row in failing[:examples]:
            d = row.decision
            k = f" k={d.k}" if d.k is not None else ""
            read = f"read {d.read!r} -> {d.value}, " if d.read is not None else ""
            lines.append(f"  {row.id}: {d.reason}{k}; {read}gold {d.gold}; {_clip(d.detail)}")
            lines.append(f"    question: {_clip(row.question)}")
    return "\n".join(lines)
