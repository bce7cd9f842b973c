"""Free-text rewards decide as the answer protocols label, and as `finscore answers` reports.

Oracles: every labelled row of the three conformance files (built from the real golds
by a generator that never imports finscore.answers), and `finscore answers`' report on
the shipped example completions (the reward must never drift from the evaluator).
"""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

import finscore.answers
from finscore.answers import decide, get_protocol
from finscore.answers.report import score_answers
from finscore.rewards import RewardConfig, decide_rows, score_arrow

REPOSITORY = Path(__file__).resolve().parents[2]
CONFORMANCE = Path(finscore.answers.__file__).parent / "conformance"
SOURCE_OF = {"finqa-answer/1": "finqa", "convfinqa-answer/1": "convfinqa", "tatqa-answer/1": "tatqa",
             "financemath-answer/1": "financemath"}  # issue #32: an answer-only data source
#: Protocols with a conformance file that no reward data source uses (named, so none is left out
#: unseen): financemath-answer/2 is run by `finscore answers --protocol`; the financemath source
#: keeps financemath-answer/1.
NOT_A_REWARD_PROTOCOL = {"financemath-answer/2"}
pytestmark = pytest.mark.essential


def _conformance_rows() -> list[dict[str, Any]]:
    """The rows of every conformance file whose protocol a reward data source uses."""
    rows = []
    for path in sorted(CONFORMANCE.glob("*.jsonl.gz")):
        rows.extend(json.loads(line) for line in gzip.decompress(path.read_bytes()).decode("utf-8").splitlines())
    assert {row["protocol"] for row in rows} == set(SOURCE_OF) | NOT_A_REWARD_PROTOCOL
    return [row for row in rows if row["protocol"] not in NOT_A_REWARD_PROTOCOL]


def test_every_conformance_row_is_rewarded_as_labelled() -> None:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in _conformance_rows():
        groups[(row["protocol"], row["format"])].append(row)
    assert sum(map(len, groups.values())) > 20_000
    for (protocol, format), rows in groups.items():
        table = pa.table({"completion": [r["completion"] for r in rows],
                          "gold": [json.dumps(r["gold"]) for r in rows],
                          "data_source": [SOURCE_OF[protocol]] * len(rows)})
        scored = score_arrow(table, RewardConfig(input="answer", format=format))
        got = list(zip(scored.column("passed").to_pylist(), scored.column("reason").to_pylist()))
        expected = [(r["expect"]["passed"], r["expect"]["reason"]) for r in rows]
        assert got == expected, f"{protocol} {format}"
        details = [json.dumps(decide(r["completion"], r["gold"], protocol, format).to_json(), sort_keys=True,
                              separators=(",", ":"), ensure_ascii=False) for r in rows]
        assert scored.column("detail").to_pylist() == details  # the standard library's JSON, byte for byte
        assert all(stamp.startswith(f"{protocol} format={format} ") for stamp in scored.column("protocol").to_pylist())


def test_each_rewards_detail_is_the_decisions_own() -> None:
    """`decide_rows` gives each row the detail `decide(...).to_json()` holds (the reward keeps only
    its JSON text and reads it back), as an object of its own, on every conformance row."""
    rows = _conformance_rows()
    for protocol, format in sorted({(r["protocol"], r["format"]) for r in rows}):
        chosen = [r for r in rows if (r["protocol"], r["format"]) == (protocol, format)]
        decided = decide_rows([r["completion"] for r in chosen], [json.dumps(r["gold"]) for r in chosen],
                              [SOURCE_OF[protocol]] * len(chosen), RewardConfig(input="answer", format=format))
        expected = [decide(r["completion"], r["gold"], protocol, format).to_json() for r in chosen]
        assert [d.detail for d, _ in decided] == expected, f"{protocol} {format}"
        assert len({id(d.detail) for d, _ in decided}) == len(chosen)


def _golds(kind: str, data: Any) -> dict[str, dict[str, Any]]:
    """The gold mapping of each id, with the fields `finscore answers` reads from the file."""
    if kind == "finqa":
        return {e["id"]: {"exe_ans": e["qa"]["exe_ans"], "program": str(e["qa"].get("program", "")),
                          "question": str(e["qa"].get("question", "")), "answer": str(e["qa"].get("answer", ""))}
                for e in data}
    if kind == "convfinqa":
        return {f"{c['id']}#t{t}": {"exe_ans": a, "program": str(p), "question": str(q)}
                for c in data for t, (a, q, p) in enumerate(zip(c["annotation"]["exe_ans_list"],
                                                                c["annotation"]["dialogue_break"],
                                                                c["annotation"]["turn_program"]))}
    return {q["uid"]: {"answer": q["answer"], "scale": q.get("scale", ""), "answer_type": q.get("answer_type"),
                       "question": str(q.get("question", ""))} for d in data for q in d["questions"]}


@pytest.mark.parametrize("kind", ["finqa", "convfinqa", "tatqa"])
def test_same_decisions_as_finscore_answers_on_the_shipped_completions(kind: str) -> None:
    folder = REPOSITORY / "examples" / "answers"
    raw = (folder / f"{kind}_completions.jsonl").read_bytes()
    data = json.loads((folder / f"{kind}_gold.json").read_text(encoding="utf-8"))
    protocol = f"{kind}-answer/1"
    report = score_answers(raw, data, get_protocol(protocol), "answer-line", exclude_bad_ids=True)
    texts = {entry["id"]: entry["completion"] for entry in map(json.loads, raw.decode("utf-8").splitlines())
             if "completion" in entry}
    golds = _golds(kind, data)
    rows = [row for row in report.rows if row.source == "completion"]
    assert len(rows) > 50
    table = pa.table({"completion": [texts[r.id] for r in rows], "gold": [json.dumps(golds[r.id]) for r in rows],
                      "data_source": [kind] * len(rows)})
    scored = score_arrow(table, RewardConfig(input="answer"))
    assert scored.column("passed").to_pylist() == [r.decision.passed for r in rows]
    assert scored.column("reason").to_pylist() == [r.decision.reason for r in rows]
