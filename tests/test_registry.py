"""The benchmark registry: the shipped descriptors hold true facts, and a descriptor alone makes a benchmark."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Iterator

import pytest

from finscore import registry
from finscore.cli import main

ROOT = Path(__file__).resolve().parents[1]
TOY_GOLD = ROOT / "tests/support/toyqa_files/gold.json"
TOY_PREDICTIONS = ROOT / "tests/support/toyqa_files/predictions.json"


def test_the_shipped_benchmarks_in_the_order_the_cli_lists_them() -> None:
    assert registry.benchmark_names() == ("finqa", "convfinqa", "tatqa", "financebench")


def test_every_reference_of_a_shipped_descriptor_loads() -> None:
    for benchmark in registry.benchmarks():
        refs = [benchmark.gold_reader, benchmark.prediction_reader, benchmark.reasons, benchmark.unit.key,
                benchmark.decide, benchmark.prediction_reward, benchmark.question_problem,
                benchmark.program_comparer]
        for ref in refs:
            if ref is not None:
                assert ref.load() is not None, ref
        assert all((ROOT / example.gold).is_file() and (ROOT / example.predictions).is_file()
                   for example in benchmark.examples), benchmark.name


def test_a_shipped_benchmark_command_imports_only_its_own_descriptor() -> None:
    """`finscore tatqa ...` finds its command from the tatqa descriptor alone (start-up time)."""
    code = ("import sys; from finscore.cli import main; "
            f"main(['tatqa', {str(ROOT / 'examples/tatqa/predictions.json')!r}, "
            f"{str(ROOT / 'examples/tatqa/gold.json')!r}, '--quiet']); "
            "print(sorted(m for m in sys.modules if m.endswith('.benchmark')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "['finscore.tatqa.benchmark']"


def test_a_shipped_descriptor_is_named_by_its_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    from support.toyqa import BENCHMARK

    fake = types.ModuleType("finscore.toyfolder.benchmark")
    fake.BENCHMARK = BENCHMARK  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "finscore.toyfolder.benchmark", fake)
    monkeypatch.setattr(registry, "BUILTIN_DESCRIPTORS", (*registry.BUILTIN_DESCRIPTORS, "finscore.toyfolder.benchmark"))
    assert registry.benchmark_names()[-1] == "toyfolder"  # known from the folder, nothing imported yet
    with pytest.raises(registry.RegistryError, match="describes 'toyqa', not the benchmark of its folder, 'toyfolder'"):
        registry.get_benchmark("toyfolder")


def test_tatqa_declares_its_question_check_and_finqa_its_program_comparer() -> None:
    from finscore.finqa.equivalence import ProgramComparer
    from finscore.tatqa.inputs import question_problem

    check = registry.get_benchmark("tatqa").question_problem
    assert check is not None
    for question in ({"answer_type": "span", "scale": "", "answer": ["a"]}, {"answer_type": "span", "scale": "x"},
                     {"answer_type": "arithmetic", "scale": "", "answer_from": "?"}, ["not an object"]):
        assert check.load()(question) == question_problem(question, whole=False)
    assert check.load()({"answer_type": "span", "scale": "", "answer": ["a"]}) is None
    comparer = registry.get_benchmark("finqa").program_comparer
    assert comparer is not None and comparer.load() is ProgramComparer


def test_the_answer_protocols_are_the_ones_finscore_answers_declares() -> None:
    from finscore.answers import protocol_names

    assert set(registry.all_answer_protocols()) <= set(protocol_names())
    # issue #32 adds financemath-answer/1, the protocol of an answer-only data source, and its
    # version 2, offered by name while the source's reward rows keep version 1
    assert registry.all_answer_protocols() == ("finqa-answer/1", "convfinqa-answer/1", "tatqa-answer/1",
                                               "financemath-answer/1", "financemath-answer/2")
    assert registry.answer_protocols()["financemath"] == "financemath-answer/1"
    assert set(registry.all_answer_protocols()) == set(protocol_names())  # every registered one is offered


def test_finqa_groups_by_filing_company_and_year() -> None:
    from finscore.finqa.benchmark import filing_of

    assert filing_of("ETR/2016/page_23.pdf-2") == "ETR/2016"
    gold = json.loads((ROOT / "examples/finqa/gold.json").read_text())
    units = registry.get_benchmark("finqa").unit.key.load()(gold)
    # the filing is the id's first two "/" parts, read here from the raw file
    assert units == {e["id"]: "/".join(e["id"].split("/")[:2]) for e in gold}


def test_convfinqa_groups_turns_by_the_filing_of_their_conversation() -> None:
    # issue #33: the Single and Double conversations made from one page are not independent either,
    # so a turn's unit is its conversation's filing (company/year), which holds the conversation
    gold = json.loads((ROOT / "examples/convfinqa/gold.json").read_text())
    units = registry.get_benchmark("convfinqa").unit.key.load()(gold)
    expected = {f"{c['id']}#t{turn}": "/".join(c["id"].split("_", 1)[1].split("/")[:2])
                for c in gold for turn in range(len(c["annotation"]["turn_program"]))}
    assert units == expected
    assert units["Double_HII/2017/page_104.pdf#t0"] == "HII/2017"


def test_tatqa_groups_questions_by_table() -> None:
    gold = json.loads((ROOT / "examples/tatqa/gold.json").read_text())
    units = registry.get_benchmark("tatqa").unit.key.load()(gold)
    assert units == {q["uid"]: d["table"]["uid"] for d in gold for q in d["questions"]}
    assert len(set(units.values())) == len(gold)


def test_a_descriptor_with_neither_command_nor_decide_is_refused() -> None:
    from support.toyqa import BENCHMARK

    with pytest.raises(registry.RegistryError, match="neither its own command nor a decide"):
        registry.register_benchmark(BENCHMARK._replace(name="nodecide", decide=None))
    with pytest.raises(registry.RegistryError, match="already registered"):
        registry.register_benchmark(registry.get_benchmark("finqa"))
    with pytest.raises(registry.RegistryError, match="lower-case ASCII"):
        registry.register_benchmark(BENCHMARK._replace(name="Toy QA"))
    with pytest.raises(registry.RegistryError, match="shipped benchmark"):
        registry.unregister_benchmark("tatqa")
    with pytest.raises(registry.RegistryError, match="registered: finqa, convfinqa, tatqa"):
        registry.get_benchmark("nosuch")


@pytest.fixture
def toyqa() -> Iterator[registry.Benchmark]:
    from support.toyqa import BENCHMARK

    registry.register_benchmark(BENCHMARK)
    try:
        yield BENCHMARK
    finally:
        registry.unregister_benchmark(BENCHMARK.name)


def test_a_registered_benchmark_gets_a_command_with_its_report(toyqa: registry.Benchmark,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    # the fixture: 3 gold examples over 2 filings; q1 right, q2 its sign flipped, BOLT's missing
    assert main(["toyqa", str(TOY_PREDICTIONS), str(TOY_GOLD)]) == 0
    out = capsys.readouterr().out
    assert "official: 0.5 (1/2)" in out
    assert f"honest: {1 / 3!r} (1/3)" in out
    assert "independence unit: filing (2 in the gold file)" in out
    assert re.search(r"wrong_sign: 1 +the gold text with the other sign", out)
    assert "BOLT/2020/q1: missing_prediction" in out
    assert main(["toyqa", str(TOY_PREDICTIONS), str(TOY_GOLD), "--json", "-"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [(e["id"], e["passed"], e["reason"]) for e in document["examples"]] == [
        ("ACME/2019/q1", True, "correct"), ("ACME/2019/q2", False, "wrong_sign"),
        ("BOLT/2020/q1", False, "missing_prediction")]
    from finscore.cli import build_parser

    assert "toyqa" in build_parser().format_help()


def test_a_registered_benchmark_refuses_unknown_and_repeated_ids(toyqa: registry.Benchmark, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "predictions.json"
    bad.write_text('[["ACME/2019/q1", "1"], ["ACME/2019/q1", "2"], ["NOPE/1/x", "3"]]')
    assert main(["toyqa", str(bad), str(TOY_GOLD)]) == 2
    error = capsys.readouterr().err
    assert "1 repeated id(s): 'ACME/2019/q1'" in error and "1 id(s) not in the gold file: 'NOPE/1/x'" in error
    bad.write_text('{"not": "pairs"}')
    assert main(["toyqa", str(bad), str(TOY_GOLD)]) == 2
    assert "a JSON list of [id, answer] pairs" in capsys.readouterr().err


def test_a_registered_benchmark_gets_a_reward_source(toyqa: registry.Benchmark) -> None:
    pytest.importorskip("pyarrow")
    from finscore.rewards.config import RewardConfig, reward_inputs
    from finscore.rewards.rows import decide_rows

    assert reward_inputs() == ("program", "answer", "peer", "tatqa", "financebench", "toyqa")
    config = RewardConfig(input="toyqa")
    assert config.scored_sources() == {"toyqa": "toyqa-decide"}
    rows = decide_rows(["12.5", "3", None, "7"], ['"12.5"', '"-3"', '"7"', '"7"'],
                       ["toyqa", "toyqa", "toyqa", "finqa"], config)
    assert [(d.score, d.passed, d.reason) for d, _ in rows[:3]] == [
        (1.0, True, "correct"), (0.0, False, "wrong_sign"), (0.0, False, "missing_prediction")]
    assert rows[0][1] is not None and rows[0][1].startswith("toyqa-prediction/1 finscore=")
    assert rows[3][1] is None  # a finqa row is not what this input scores: kept, not scored


def test_a_unit_function_that_misses_an_example_is_a_typed_error(capsys: pytest.CaptureFixture[str]) -> None:
    from support.toyqa import BENCHMARK

    partial = BENCHMARK._replace(name="toyqa-partial", unit=BENCHMARK.unit._replace(
        key=registry.Ref("support.toyqa_partial_units:units")))
    registry.register_benchmark(partial)
    try:
        fake = types.ModuleType("support.toyqa_partial_units")
        fake.units = lambda gold: {"ACME/2019/q1": "ACME/2019"}  # type: ignore[attr-defined]
        sys.modules["support.toyqa_partial_units"] = fake
        assert main(["toyqa-partial", str(TOY_PREDICTIONS), str(TOY_GOLD)]) == 2
        error = capsys.readouterr().err
        assert "names no unit for 2 gold example(s): 'ACME/2019/q2', 'BOLT/2020/q1'" in error
    finally:
        registry.unregister_benchmark("toyqa-partial")
        sys.modules.pop("support.toyqa_partial_units", None)
