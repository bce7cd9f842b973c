"""An offline HTML page of a FinanceBench run: each answer's decision, support reasons, and the
evidence passage with the supporting number highlighted (`<mark>`). One file, no script, no
fetched resource; every text of the data is escaped."""

from __future__ import annotations

from html import escape
from typing import Sequence

from finscore.financebench.scoring import Scored

#: The longest passage shown (characters); a longer page is cut around the number.
SHOWN = 4_000

_PAGE_STYLE = ("body{font-family:sans-serif;max-width:70em;margin:auto}pre{white-space:pre-wrap;background:#f6f6f6;"
          "padding:.5em}mark{background:#ffd54f;font-weight:bold}td,th{padding:.2em .6em;text-align:left}")


def _passage(item: Scored) -> str:
    support = item.support
    if support is None or item.evidence_index is None:
        return ""
    page = item.question.evidence[item.evidence_index].full_page
    if support.located is None:
        return f"<pre>{escape(page[:SHOWN])}</pre>"
    number = support.located.number
    start = max(0, number.start - SHOWN // 2)
    end = min(len(page), number.end + SHOWN // 2)
    return (f"<pre>{escape(page[start:number.start])}<mark>{escape(page[number.start:number.end])}</mark>"
            f"{escape(page[number.end:end])}</pre>")


def render_html(scored: Sequence[Scored], title: str = "FinanceBench") -> str:
    """The whole page."""
    parts = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{escape(title)}</title>"
             f"<style>{_PAGE_STYLE}</style></head><body><h1>{escape(title)}</h1>"]
    for item in scored:
        support = item.support
        reasons = "" if support is None else escape(
            f"supported: {support.supported}; document: {support.document}; page: {support.page}; "
            f"number: {support.number}; row: {support.row}; period: {support.period}")
        parts.append(f"<section><h2>{escape(item.question.id)}</h2><table>"
                     f"<tr><th>question</th><td>{escape(item.question.question)}</td></tr>"
                     f"<tr><th>gold</th><td>{escape(item.question.answer)}</td></tr>"
                     f"<tr><th>answer</th><td>{escape(item.answer.answer if item.answer else '(none)')}</td></tr>"
                     f"<tr><th>label</th><td>{escape(str(item.answer.label if item.answer else None))}</td></tr>"
                     f"<tr><th>finscore</th><td>{escape(str(item.decision))} ({escape(item.reason)})</td></tr>"
                     f"<tr><th>support</th><td>{reasons}</td></tr></table>{_passage(item)}</section>")
    parts.append("</body></html>\n")
    return "".join(parts)
