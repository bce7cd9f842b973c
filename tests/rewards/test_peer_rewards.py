"""Rewards under a peer's protocol (`RewardConfig(input="peer", protocol=...)`) are the peer's own decisions.

Oracle: tests/data/vectors/peers/*.jsonl.gz, the decisions recorded by running each peer's own code
(vectors/README.md "Peer scoring protocols"): FinanceMath / DocMath-Eval / FinanceReasoning / FinMMR's
one-item pipeline (`pipeline`), PIXIU's `process_results` per task, HELM's `FinQAMetric` figures. Each
recorded line becomes a reward row (the line's answer as the completion, its gold as the protocol's
gold object) and the reward must be the recorded decision, 1.0 or 0.0; where the peer would run the
text as code the reward is 0.0, reason `peer_executes_code`, and the row's stamp says so. TRL and verl
are not installed: their calls are reproduced as tests/rewards/test_adapters.py and test_verl.py do.
"""

from __future__ import annotations

import importlib.util
import json
import math
from functools import partial
from typing import Any, Callable

import pyarrow as pa
import pytest

import finscore.rewards.verl
from finscore.protocols import signature
from finscore.protocols.peer_values import decode
from finscore.rewards import RewardConfig, RewardInputError, decide_rows, score_arrow
from finscore.rewards.peers import NOT_REPRODUCIBLE
from finscore.rewards.trl import finscore_reward

from support.peer_vectors import finqa_test_bytes, vector_lines

EVAL_PEERS = ("financemath", "docmath", "financereasoning", "finmmr")
PIXIU_TASKS = {"pixiu-finqa": "FinQA", "pixiu-convfinqa": "ConvFinQA", "pixiu-tatqa": "TATQA"}


def _recorded(outcome: dict[str, Any]) -> float:
    """The peer's recorded decision as a reward: its acc, or 0.0 where the peer raised."""
    if "raises" in outcome:
        return 0.0
    value = outcome["value"]
    return float(value["acc"] if isinstance(value, dict) else value)


def _eval_rows(peer: str) -> list[tuple[str, dict[str, Any], float, str]]:
    """(completion, gold, recorded reward, kind) for every recorded line with a text answer."""
    rows = []
    for line in vector_lines(peer):
        if line["kind"] == "file_figure" or not isinstance(line.get("pred"), str):
            continue
        if peer in ("financemath", "docmath"):
            if "gold" not in line:
                continue
            gold = {"ground_truth": line["gold"]}
        else:
            gold = {"ground_truth": decode(line["gt"], "gt")}
        rows.append((line["pred"], gold, _recorded(line["pipeline"]), line["kind"]))
    return rows


def _check(peer: str, rows: list[tuple[str, dict[str, Any], float, str]], scores: list[Any],
           reasons: list[str], stamps: list[str | None]) -> None:
    flagged = differing = 0
    for (completion, _, expected, kind), score, reason, stamp in zip(rows, scores, reasons, stamps):
        assert stamp is not None and stamp.startswith(signature(peer))
        if reason in NOT_REPRODUCIBLE:  # the peer runs the text as code: 0.0, flagged, whatever it decides
            flagged += 1
            assert score == 0.0 and stamp.endswith(f" not_reproducible={reason}"), completion
            # the stored answers behind the published figures that the peer runs as code all score 0
            # there too, so the rewards of those figures' rows are the peer's
            assert kind != "stored" or expected == 0.0, completion
            continue
        assert "not_reproducible" not in stamp
        differing += score != expected
    assert differing == 0
    assert len(rows) - flagged > len(rows) * 3 // 4  # most rows are compared with the peer's own decision


@pytest.mark.parametrize("peer", EVAL_PEERS)
def test_every_recorded_answer_rewards_as_the_peer_decided(peer: str) -> None:
    rows = _eval_rows(peer)
    assert len(rows) > 4_000
    decided = decide_rows([r[0] for r in rows], [r[1] for r in rows], [None] * len(rows),
                          RewardConfig(input="peer", protocol=peer))
    _check(peer, rows, [d.score for d, _ in decided], [d.reason for d, _ in decided], [s for _, s in decided])
    assert {d.score for d, _ in decided} == {0.0, 1.0}


@pytest.mark.parametrize("protocol", sorted(PIXIU_TASKS))
def test_pixiu_rewards_are_process_results(protocol: str) -> None:
    lines = vector_lines("pixiu")
    decided = decide_rows([line["pred"] for line in lines], [{"answer": line["gold"]} for line in lines],
                          ["finqa"] * len(lines), RewardConfig(input="peer", protocol=protocol))
    expected = [_recorded(line[PIXIU_TASKS[protocol]]) for line in lines]
    assert [d.score for d, _ in decided] == expected
    assert 0 < sum(expected) < len(expected)


def _finqa_tables() -> dict[str, list[list[str]]]:
    return {example["id"]: example["table"] for example in json.loads(finqa_test_bytes())}


@pytest.mark.parametrize("match, figure", [("execution", "execution_accuracy"), ("program", "program_accuracy")])
def test_helm_rewards_are_its_finqa_metric(match: str, figure: str) -> None:
    tables = _finqa_tables()
    lines = [line for line in vector_lines("helm") if "value" in line["metric"]]
    assert len(lines) > 8_000
    golds = [{"program": line["ref_program"], "exe_ans": line["ref_exe"], "table": tables[line["table_ref"]]}
             for line in lines]
    table = pa.table({"completion": [line["generated"] for line in lines], "gold": [json.dumps(g) for g in golds]})
    scored = score_arrow(table, RewardConfig(input="peer", protocol="helm-finqa", match=match))
    expected = [float(line["metric"]["value"][figure]) for line in lines]
    assert scored.column("score").to_pylist() == expected
    assert 0 < sum(expected) < len(expected)
    assert set(scored.column("protocol").to_pylist()) == {f"{signature('helm-finqa')} reward={figure}"}


def test_through_trl_s_call() -> None:
    """GRPOTrainer's call: `reward_func(prompts=..., completions=..., completion_ids=..., **columns)`."""
    rows = _eval_rows("finmmr")[::5]
    reward = finscore_reward(RewardConfig(input="peer", protocol="finmmr"), name="finmmr")
    scores = reward(prompts=["question"] * len(rows), completions=[r[0] for r in rows],
                    completion_ids=[[1, 2]] * len(rows), trainer_state=None, gold=[r[1] for r in rows])
    decided = decide_rows([r[0] for r in rows], [r[1] for r in rows], [None] * len(rows),
                          RewardConfig(input="peer", protocol="finmmr"))
    _check("finmmr", rows, scores, [d.reason for d, _ in decided], [s for _, s in decided])


def _call_with_kwargs(raw_fn: Callable[..., Any], extra_kwargs: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
    """verl/trainer/ppo/reward.py's `_call_with_kwargs`, as written there."""
    merged_kwargs = {**kwargs, **extra_kwargs}
    return raw_fn(*args, **merged_kwargs)


def _verl_fn(name: str, reward_kwargs: dict[str, Any]) -> Callable[..., Any]:
    """verl's `get_custom_reward_fn`: the file loaded as a module, the reward kwargs merged into each call."""
    spec = importlib.util.spec_from_file_location("custom_module_peers", finscore.rewards.verl.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return partial(_call_with_kwargs, getattr(module, name), dict(reward_kwargs))


def test_through_verl_s_reward_loop_and_batch_manager() -> None:
    """The naive manager's one row per call and the batch manager's call, the gold as verl's JSON text."""
    rows = [r for r in _eval_rows("financemath")[::7] if not isinstance(r[1]["ground_truth"], float)
            or math.isfinite(r[1]["ground_truth"])]
    kwargs = {"input": "peer", "protocol": "financemath"}
    one = _verl_fn("compute_score", kwargs)
    single = [one(data_source="financemath", solution_str=r[0], ground_truth=json.dumps(r[1]),
                  extra_info={"index": 0}) for r in rows]
    batch = _verl_fn("compute_score_batch", kwargs)(
        data_sources=["financemath"] * len(rows), solution_strs=[r[0] for r in rows],
        ground_truths=[json.dumps(r[1]) for r in rows], extra_infos=[{}] * len(rows))
    assert single == batch
    _check("financemath", rows, [d["score"] for d in single], [d["reason"] for d in single],
           [d["protocol"] for d in single])


def test_code_is_flagged_never_run_even_where_its_value_is_known() -> None:
    decided = decide_rows(["abs(-5)", "5", "none of them", None, 5], [{"ground_truth": "5"}] * 5, [None] * 5,
                          RewardConfig(input="peer", protocol="financemath"))
    assert [(d.score, d.reason) for d, _ in decided] == [
        (0.0, "peer_executes_code"), (1.0, "exact"), (0.0, "empty_or_none"), (0.0, "missing_prediction"),
        (0.0, "not_text")]
    assert decided[0][0].detail["pipeline"] == {"value": {"acc": 1, "execution_rate": 1}}  # what the peer would give
    assert decided[0][1].endswith("not_reproducible=peer_executes_code")
    assert not decided[1][1].endswith("not_reproducible=peer_executes_code")


@pytest.mark.parametrize("protocol, gold, named", [
    ("financemath", {"answer": "5"}, 'has no "ground_truth"'),
    ("financemath", {"ground_truth": "five"}, "is not a number float"),
    ("financereasoning", {"ground_truth": "5"}, "must be a JSON number or boolean"),
    ("pixiu-finqa", {"answer": 94.0}, '"answer" must be text'),
    ("helm-finqa", {"program": "add(1, 2)", "exe_ans": 3.0}, 'has no "table"'),
    ("helm-finqa", {"program": "add(1, 2)", "exe_ans": "three", "table": []}, "HELM's float"),
    ("finmmr", "[1]", "must be a JSON object"),
])
def test_a_gold_that_does_not_fit_is_refused_naming_the_row(protocol: str, gold: Any, named: str) -> None:
    with pytest.raises(RewardInputError, match=named) as raised:
        decide_rows(["1", "1"], [{"ground_truth": 1, "answer": "1", "program": "add(1, 2)", "exe_ans": 3.0,
                                  "table": []}, gold], [None, None], RewardConfig(input="peer", protocol=protocol))
    assert "row 1" in str(raised.value) and "gold" in str(raised.value)


def test_the_protocol_is_declared_with_the_input() -> None:
    with pytest.raises(RewardInputError, match="input peer needs protocol, one of helm-finqa"):
        RewardConfig(input="peer")
    with pytest.raises(RewardInputError, match="input peer needs protocol"):
        RewardConfig(input="peer", protocol="financemaths")
    with pytest.raises(RewardInputError, match="'financemath' is for input peer, not 'answer'"):
        RewardConfig(input="answer", protocol="financemath")


def test_the_command_line_scores_a_file_under_a_peer_protocol(tmp_path: Any,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """`finscore rewards IN OUT --input peer --protocol P`: the peer's decisions, and the count of rows
    the peer decides by running their text."""
    import pyarrow.parquet as pq

    from support.cli import run_command

    rows = _eval_rows("financemath")[::3]
    source, output = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table({"completion": [r[0] for r in rows], "gold": [json.dumps(r[1]) for r in rows]}), source)
    status, _, err = run_command("rewards", capsys, str(source), str(output), "--quiet", "--input", "peer",
                                 "--protocol", "financemath")
    assert status == 0, err
    scored = pq.read_table(output)
    reasons = scored.column("reason").to_pylist()
    _check("financemath", rows, scored.column("score").to_pylist(), reasons, scored.column("protocol").to_pylist())
    count = reasons.count("peer_executes_code")
    assert count > 0 and f"peer_executes_code {count:,}," in err
    status, _, err = run_command("rewards", capsys, str(source), str(output), "--input", "peer")
    assert status == 2 and "input peer needs protocol" in err


def test_through_openrlhf_s_reward_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenRLHF loads the file and calls `reward_func(queries, prompts, labels)`, the query being the
    prompt and the response, the response ending with the EOS token its decode keeps."""
    import finscore.rewards.openrlhf

    spec = importlib.util.spec_from_file_location("reward_func", finscore.rewards.openrlhf.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setenv("FINSCORE_REWARD_INPUT", "peer")
    monkeypatch.setenv("FINSCORE_REWARD_PROTOCOL", "financereasoning")
    rows = [r for r in _eval_rows("financereasoning")[::4] if not isinstance(r[1]["ground_truth"], float)
            or math.isfinite(r[1]["ground_truth"])]
    prompt = "Question: what is the answer?\n"
    result = module.reward_func([prompt + r[0] + "</s>" for r in rows], [prompt] * len(rows),
                                [json.dumps(r[1]) for r in rows])
    scores = result["scores"]
    scores = list(scores.tolist() if hasattr(scores, "tolist") else scores)
    decided = decide_rows([r[0] for r in rows], [r[1] for r in rows], [None] * len(rows),
                          RewardConfig(input="peer", protocol="financereasoning"))
    _check("financereasoning", rows, scores, [d.reason for d, _ in decided], [s for _, s in decided])


def test_through_the_reward_server() -> None:
    """`finscore serve-reward --input peer --protocol pixiu-tatqa`'s application: POST /get_reward as
    OpenRLHF sends it, GET /health naming the protocol's signature."""
    from starlette.testclient import TestClient

    from finscore.rewards.adapters.server import create_app

    lines = vector_lines("pixiu")[::9]
    lines = [line for line in lines if isinstance(line["pred"], str)]
    config = RewardConfig(input="peer", protocol="pixiu-tatqa")
    with TestClient(create_app(config)) as client:
        answer = client.post("/get_reward", json={"query": ["Q: " + line["pred"] for line in lines],
                                                   "prompts": ["Q: "] * len(lines),
                                                   "labels": [json.dumps({"answer": line["gold"]}) for line in lines]})
        health = client.get("/health").json()
    assert answer.status_code == 200, answer.text
    assert answer.json()["rewards"] == [_recorded(line["TATQA"]) for line in lines]
    assert health["protocol"] == f"{signature('pixiu-tatqa')} reward=acc"
