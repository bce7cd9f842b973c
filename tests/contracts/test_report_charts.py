"""Every label of the reports' charts lies whole inside its SVG (issue #35: "quity_concentration").

Two measures: a conservative extent from each label's length and the charts' 12px font (0.65 em a
character, more than system-ui's lower case, digits and `_` take), and, where Debian's Chromium and
playwright are installed, the browser's own text boxes (`getBBox`) against the SVG's viewBox.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from finscore.cli import main
from finscore.contracts.reports.html import change_chart, count_chart, interval_chart

CHROMIUM = Path("/usr/bin/chromium")
TEXT = re.compile(r'<text x="([-\d.]+)" y="[-\d.]+"(?: text-anchor="(end|middle)")?>([^<]*)</text>')
VIEWBOX = re.compile(r'viewBox="0 0 ([\d.]+) ([\d.]+)"')
EM_PER_CHARACTER, FONT_PX = 0.65, 12

LONG = "equity_concentration_across_households (12/12 families)"


def _charts() -> list[str]:
    return [
        interval_chart("t", [(LONG, 0.5, (0.2, 0.8)), ("short (1/1 rows)", 1.0, (0.1, 1.0))]),
        count_chart("t", {LONG: 3, "stale": 1}),
        change_chart("t", {LONG: -0.5, "other": 0.25}),
        interval_chart("t", [("a", 0.0, None)]),
    ]


def _outside(svg: str) -> list[str]:
    match = VIEWBOX.search(svg)
    assert match, "a chart without a viewBox"
    width = float(match.group(1))
    wrong = []
    for x_text, anchor, label in TEXT.findall(svg):
        x, extent = float(x_text), len(label) * FONT_PX * EM_PER_CHARACTER
        left = {"end": x - extent, "middle": x - extent / 2}.get(anchor, x)
        if left < 0 or left + extent > width:
            wrong.append(label)
    return wrong


def test_every_label_fits_by_its_length_and_font_size() -> None:
    charts = _charts()
    assert all(TEXT.search(svg) for svg in charts)
    assert [_outside(svg) for svg in charts] == [[], [], [], []]


def test_the_kit_report_charts_fit(tmp_path: Path) -> None:
    assert main(["run", "--quiet", "--bootstrap", "20", "--agent", "stale_snapshot", "--no-score",
                 "--out", str(tmp_path), "--key-file", str(tmp_path.parent / "key")]) == 0
    report = tmp_path / "report.html"
    assert main(["contracts", "@kit", str(tmp_path / "predictions.jsonl"), "--output", str(tmp_path / "r.json"),
                 "--html", str(report), "--bootstrap", "20", "--key-file", str(tmp_path.parent / "key")]) == 0
    page = report.read_text(encoding="utf-8")
    svgs = re.findall(r"<svg.*?</svg>", page)
    assert len(svgs) >= 2 and "equity_concentration" in page
    assert [_outside(svg) for svg in svgs] == [[] for _ in svgs]


def test_every_label_lies_inside_the_viewbox_in_chromium() -> None:
    if not CHROMIUM.exists() or shutil.which(str(CHROMIUM)) is None:
        pytest.skip(f"{CHROMIUM} is absent: apt-get install chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright package is not installed: pip install -e '.[test]'")
    body = "".join(_charts())
    html = f"<!DOCTYPE html><html><head><style>svg text{{font:12px system-ui,sans-serif}}</style></head><body>{body}</body></html>"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            page.set_content(html)
            boxes = page.evaluate("""() => [...document.querySelectorAll('svg')].map(svg => {
                const view = svg.viewBox.baseVal;
                return [...svg.querySelectorAll('text')].map(t => {
                    const b = t.getBBox();
                    return [t.textContent, b.x >= view.x && b.x + b.width <= view.x + view.width];
                });
            })""")
        finally:
            browser.close()
    assert sum(len(chart) for chart in boxes) > 10
    assert [[label for label, inside in chart if not inside] for chart in boxes] == [[] for _ in boxes]
