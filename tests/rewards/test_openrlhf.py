"""OpenRLHF's calls, reproduced from its own source (OpenRLHF is not installed), give the official decisions.

Read from github:OpenRLHF/OpenRLHF at 3c3be6234e0cb353e76bb8019947db9dfe99fca7 (version.txt 0.11.0):
- openrlhf/utils/agent.py `SingleTurnAgentExecutor.execute`: `query = hf_tokenizer.decode(
  output["observation_tokens"], skip_special_tokens=False)` (the prompt's tokens and the engine's,
  the EOS token kept), then `_fetch_rewards_via_func([query], [prompt], [label])` (a reward file
  loaded with `spec_from_file_location("reward_func", path)`, called one row at a time) or
  `_fetch_rewards_via_http`, which POSTs `{"query", "prompts", "labels"}` and on any failure logs
  at INFO and leaves the reward None;
- openrlhf/cli/train_ppo_ray.py: `--reward.remote_url` and `--data.label_key` (from v0.10.2;
  `--remote_rm_url` and `--label_key` up to v0.10.1.post2); openrlhf/datasets/prompts_dataset.py
  reads the label as `data[label_key]` from an HF `datasets` dataset.
The HF datasets re-read is the real `datasets` library (installed with lm_eval); the oracle of each
row is the official evaluator's recorded outcome (support.reward_rows).
"""

from __future__ import annotations

import importlib.util
import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

import finscore.rewards.openrlhf
from finscore.engine.reader.tokens import tokenize_gold_program
from finscore.rewards import RewardConfig, RewardInputError
from finscore.rewards.openrlhf import DEFAULT_STRIP_TOKENS, config_from_environment, rewards_of
from support.reward_rows import recorded_reward_rows
from support.reward_server import reward_environment, reward_server


def _spelled(tokens: list[str]) -> str:
    return ", ".join(tokens[:-1]).replace("(, ", "(").replace(", )", ")")


_SPELLABLE = [row for row in recorded_reward_rows()[::37] if tokenize_gold_program(_spelled(row.program)) == row.program]
ROWS = ([row for row in _SPELLABLE if row.official_pass][:50] + [row for row in _SPELLABLE if not row.official_pass][:30])
EXPECTED = [1.0 if row.official_pass else 0.0 for row in ROWS]
#: What the common tokenizers' decode(..., skip_special_tokens=False) ends a finished response with.
ENDINGS = ["</s>", "<|im_end|>", "<|eot_id|>", "<|im_end|>\n<|endoftext|>", "<|endoftext|>"]


def _reward_file() -> Any:
    """The reward function as OpenRLHF's executor loads it from `--reward.remote_url FILE.py`."""
    spec = importlib.util.spec_from_file_location("reward_func", finscore.rewards.openrlhf.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.reward_func


def _scores(result: dict[str, Any]) -> list[float]:
    scores = result["scores"]
    return list(scores.tolist() if hasattr(scores, "tolist") else scores)


def test_the_eos_token_kept_by_the_decode_is_stripped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FINSCORE_REWARD_STRIP_TOKENS", raising=False)
    reward_func = _reward_file()
    scores = []
    for i, row in enumerate(ROWS):
        prompt = f"<|im_start|>user\nQuestion {i}<|im_end|>\n<|im_start|>assistant\n"
        query = prompt + _spelled(row.program) + ENDINGS[i % len(ENDINGS)]
        scores += _scores(reward_func([query], [prompt], [row.gold]))  # one row a call, as the executor does
    assert scores == EXPECTED and 0 < sum(scores) < len(ROWS)
    assert config_from_environment().stamp("finqa").endswith(
        " strip_tokens=</s>,<|im_end|>,<|eot_id|>,<|endoftext|>")


def test_the_stripped_tokens_are_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    correct = next(row for row in ROWS if row.official_pass)
    query = _spelled(correct.program) + "[EOS]"
    monkeypatch.setenv("FINSCORE_REWARD_STRIP_TOKENS", "[EOS], </s>")
    assert config_from_environment().strip_tokens == ("[EOS]", "</s>")
    assert _scores(_reward_file()([query], [""], [correct.gold])) == [1.0]
    monkeypatch.setenv("FINSCORE_REWARD_STRIP_TOKENS", "")
    assert config_from_environment().stamp("finqa") == RewardConfig().stamp("finqa")  # none declared, none named
    assert _scores(_reward_file()([query], [""], [correct.gold])) == [0.0]


def test_a_text_ending_in_no_declared_token_is_read_unchanged() -> None:
    config = RewardConfig(strip_tokens=DEFAULT_STRIP_TOKENS)
    for text in ["divide(1, 2)  ", "a</s>b", "", "<|eot_id|> x"]:
        assert config.without_special_tokens(text) == text
    assert config.without_special_tokens("add(1, 2) </s>\n<|endoftext|>\n") == "add(1, 2)"
    with pytest.raises(RewardInputError, match="strip_tokens"):
        RewardConfig(strip_tokens="</s>")  # type: ignore[arg-type]


def _reread_by_datasets(tmp_path: Path, golds: list[Any]) -> list[Any]:
    """The labels as OpenRLHF gets them: `data[label_key]` of an HF datasets JSON-lines dataset."""
    datasets = pytest.importorskip("datasets", reason="HF datasets comes with finscore[lm-eval]")
    path = tmp_path / "prompts.jsonl"
    path.write_text("".join(json.dumps({"input": f"Q{i}", "gold": gold}) + "\n" for i, gold in enumerate(golds)))
    dataset = datasets.load_dataset("json", data_files=str(path), split="train", cache_dir=str(tmp_path / "cache"))
    return [row["gold"] for row in dataset]


def test_a_gold_object_reread_with_changed_floats_is_refused(tmp_path: Path) -> None:
    """A label column of JSON objects whose exe_ans mixes numbers and "yes"/"no" (as FinQA's does)
    comes back from HF datasets with floats changed (0.99671 as 0.9967100000000001)."""
    golds = [{"exe_ans": 0.99671, "program": "divide(1, 2)", "table": None},
             {"exe_ans": "yes", "program": "greater(2, 1)", "table": None},
             {"exe_ans": 3, "program": "add(1, 2)", "table": None}]
    labels = _reread_by_datasets(tmp_path, golds)
    if labels[0]["exe_ans"] == 0.99671:
        pytest.skip("this datasets version keeps the floats")
    with pytest.raises(RewardInputError, match=r"column 'labels', row 0: exe_ans 0.9967100000000001 is not "
                                               r"rounded to 5 decimals .*give the gold as JSON text"):
        rewards_of(["divide(1, 2)"] * 3, [""] * 3, labels, RewardConfig())


def test_a_gold_given_as_json_text_is_read_exactly(tmp_path: Path) -> None:
    labels = _reread_by_datasets(tmp_path, [row.gold for row in ROWS])
    assert labels == [row.gold for row in ROWS]
    assert rewards_of([_spelled(r.program) for r in ROWS], [""] * len(ROWS), labels, RewardConfig())["scores"] == EXPECTED


def test_the_server_strips_logs_and_counts(tmp_path: Path) -> None:
    """Over HTTP: the EOS kept by OpenRLHF's decode is stripped; a refused request is a log line on
    the server's standard error and a count on /health."""
    with reward_server() as server:
        health = httpx.get(f"{server.url}/health", timeout=10).json()
        assert health["protocol"].endswith(" strip_tokens=</s>,<|im_end|>,<|eot_id|>,<|endoftext|>")
        payload = {"query": [_spelled(r.program) + "</s>" for r in ROWS], "prompts": [""] * len(ROWS),
                   "labels": [r.gold for r in ROWS]}
        assert httpx.post(f"{server.url}/get_reward", json=payload, timeout=60).json()["scores"] == EXPECTED
        reread = {"query": ["divide(1, 2)"], "prompts": [""],
                  "labels": [{"exe_ans": 0.9967100000000001, "table": None}]}
        refused = httpx.post(f"{server.url}/get_reward", json=reread, timeout=60)
        assert refused.status_code == 400 and "not rounded to 5 decimals" in refused.json()["error"]
        assert httpx.post(f"{server.url}/get_reward", content=b"{", timeout=60).status_code == 400
        health = httpx.get(f"{server.url}/health", timeout=10).json()
        assert (health["scored_requests"], health["scored_rows"]) == (1, len(ROWS))
        assert (health["refused_requests"], health["refused_by_status"]) == (2, {"400": 2})
        deadline = time.monotonic() + 10
        while len(server.stderr().decode().splitlines()) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        lines = server.stderr().decode().splitlines()
    assert lines[0] == f"finscore serve-reward: listening on http://127.0.0.1:{server.port}"
    assert lines[1].startswith("finscore serve-reward: refused POST /get_reward from 127.0.0.1:")
    assert "with 400: column 'labels', row 0: exe_ans 0.9967100000000001 is not rounded" in lines[1]
    assert "with 400: the body is not JSON" in lines[2] and len(lines) == 3


def test_the_server_takes_its_tokens_from_the_command_line() -> None:
    with reward_server("--strip-tokens", "") as server:
        assert httpx.get(f"{server.url}/health", timeout=10).json()["protocol"] == RewardConfig().stamp("finqa")


def test_serve_reward_says_where_it_listens_when_ready() -> None:
    """With --port 0 the system picks the port: the line names it, and the server answers there."""
    process = subprocess.Popen([sys.executable, "-m", "finscore", "serve-reward", "--host", "127.0.0.1",
                                "--port", "0"], env=reward_environment(), stderr=subprocess.PIPE)
    try:
        assert process.stderr is not None
        ready, _, _ = select.select([process.stderr], [], [], 60)
        assert ready, "no line within 60 s"
        line = process.stderr.readline().decode()
        prefix = "finscore serve-reward: listening on http://127.0.0.1:"
        assert line.startswith(prefix) and line.endswith("\n"), line
        port = int(line[len(prefix):])
        assert port > 0
        assert httpx.get(f"http://127.0.0.1:{port}/health", timeout=10).json()["status"] == "ok"
    finally:
        process.kill()
        process.wait(10)


def test_the_help_says_the_default_tokens(capsys: pytest.CaptureFixture[str]) -> None:
    """--help loads no server code, so the default tokens are written twice: they must agree."""
    from finscore.cli import main

    with pytest.raises(SystemExit):
        main(["serve-reward", "--help"])
    text = "".join(capsys.readouterr().out.split())
    assert f"default{','.join(DEFAULT_STRIP_TOKENS)};" in text


def test_no_environment_leaks_into_the_other_tests() -> None:
    assert "FINSCORE_REWARD_STRIP_TOKENS" not in os.environ


def test_a_taken_port_is_exit_status_3() -> None:
    with reward_server() as server:
        finished = subprocess.run([sys.executable, "-m", "finscore", "serve-reward", "--host", "127.0.0.1",
                                   "--port", str(server.port)], env=reward_environment(), capture_output=True,
                                  timeout=60)
    assert finished.returncode == 3
    assert b"listening on" not in finished.stderr and b"Traceback" not in finished.stderr
