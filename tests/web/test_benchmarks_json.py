"""The playground's benchmark list is generated from the registry, fresh, and the page's defaults agree."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "tools" / "registry" / "make_web_benchmarks.py"


def test_the_committed_benchmarks_json_is_what_the_generator_writes() -> None:
    done = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_share_links_default_protocol_is_the_registry_first() -> None:
    listed = json.loads((ROOT / "web/src/benchmarks.json").read_text(encoding="utf-8"))
    share = (ROOT / "web/src/share.js").read_text(encoding="utf-8")
    default = re.search(r'answer_protocol: "([^"]+)"', share)
    assert default is not None and default.group(1) == listed["default_answer_protocol"]


def test_the_page_names_no_benchmark_by_hand() -> None:
    """The file scorer's options come from benchmarks.json (app.js fills them), not from index.html."""
    page = (ROOT / "web/src/index.html").read_text(encoding="utf-8")
    select = re.search(r'<select id="score-benchmark">(.*?)</select>', page, re.S)
    assert select is not None
    assert re.findall(r'value="([^"]+)"', select.group(1)) == ["auto"]


def test_the_menu_lists_only_what_the_page_scores() -> None:
    """A registered benchmark the page's Python side has no file scorer for (FinanceBench) is listed with
    file_scorer false, and app.js skips it: choosing it could only give an error."""
    sys.path.insert(0, str(ROOT / "web" / "py"))
    from finscore_playground import BENCHMARKS

    listed = json.loads((ROOT / "web/src/benchmarks.json").read_text(encoding="utf-8"))["benchmarks"]
    assert {b["name"] for b in listed if b["file_scorer"]} == set(BENCHMARKS)
    assert [b["name"] for b in listed if not b["file_scorer"]] == ["financebench"]
    app = (ROOT / "web/src/app.js").read_text(encoding="utf-8")
    assert "if (!benchmark.file_scorer) continue;" in app
