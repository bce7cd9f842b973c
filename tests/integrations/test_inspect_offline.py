"""The documented offline kit run (docs/inspect.md): `--model finscore-mock/model` needs no tiktoken file.

inspect's own `mockllm/model` counts each output's tokens with tiktoken's `o200k_base`, which
tiktoken downloads on first use (inspect_ai 0.3.285: `MockLLM._ensure_default_usage` ->
`ModelAPI.count_text_tokens`); with no network every call raised and every case was `crashed`
(issue #35). This machine has no network, so these runs are offline runs: the cases must end as
the mock's fixed text makes them end, `output_malformed` (not JSON), never `run_crashed`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai", reason="the inspect extra (pip install 'finscore[inspect]') is not installed")

from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, get_model

from finscore.integrations.inspect_ai import kit
from finscore.integrations.inspect_ai.offline_model import estimated_tokens
from support.reward_server import reward_environment


def _statuses(logs: list[object]) -> dict[str, str]:
    samples = logs[0].samples  # type: ignore[attr-defined]
    return {sample.id: sample.scores["contracts"].explanation.splitlines()[1] for sample in samples}


def test_the_offline_mock_runs_every_case_to_its_own_end(tmp_path: Path) -> None:
    logs = inspect_eval(kit(key_file=str(tmp_path / "finscore.key")), model=get_model("finscore-mock/model"),
                        sample_id=["perm-en", "fv-en"], log_dir=str(tmp_path / "logs"), display="none")
    statuses = _statuses(logs)
    assert sorted(statuses) == ["fv-en", "perm-en"]
    for status in statuses.values():
        assert status.startswith("- status: output_malformed (parser): the final output is not a JSON object"), status


def test_scripted_outputs_need_no_usage(tmp_path: Path) -> None:
    """The docs' scripted refusal, without the `usage` inspect's mockllm needs offline: perm-en passes."""
    refusal = ModelOutput.from_content(
        "finscore-mock/model", '{"kind": "refusal", "reason": "out_of_scope", "text": "Outside this session."}')
    logs = inspect_eval(kit(key_file=str(tmp_path / "finscore.key")),
                        model=get_model("finscore-mock/model", custom_outputs=[refusal]), sample_id="perm-en",
                        log_dir=str(tmp_path / "logs"), display="none")
    sample = logs[0].samples[0]  # type: ignore[index]
    assert sample.scores["contracts"].value == "C", sample.scores["contracts"].explanation


def test_inspect_finds_the_model_through_finscores_entry_point() -> None:
    """A fresh process that never imports finscore itself: inspect loads the entry point to find it."""
    found = subprocess.run([sys.executable, "-c", "from inspect_ai.model import get_model; "
                            "print(type(get_model('finscore-mock/model').api).__name__)"],
                           env=reward_environment(), capture_output=True, text=True, timeout=120)
    assert found.returncode == 0, found.stderr[-2000:]
    assert found.stdout.strip() == "OfflineMockLLM"


def test_the_estimate_is_a_count_of_bytes() -> None:
    assert [estimated_tokens(text) for text in ("", "abc", "abcdefgh", "é" * 4)] == [1, 1, 2, 2]
