"""decide_batch (the core's fs_decide_peer_acc, the rest by each module's get_acc) decides as the peers do.

Oracles: the peers' own recorded decisions (tests/data/vectors/peers/, every line, in one batch a file),
and CPython itself for the reading of plain decimals (`ast.literal_eval` gives the value the peer's
`eval()` gets; a misread bit turns an `exact` into a `within_relative_tolerance`). The generated shapes
the core reads besides plain decimals ($, %, thousands commas, unit words, labels, tuples) are checked
against the full Python reading, whose every line is checked against the peers' recordings.
"""

from __future__ import annotations

import ast
import math
import random
from typing import Any

import pytest

from finscore.engine.core.binding import CoreError, get_core
from finscore.protocols import ProtocolError, decide_batch
from finscore.protocols import financemath, financereasoning
from finscore.protocols import peer_reasons as R
from finscore.protocols.batch import PEER_CORE_MIN_ROWS
from finscore.protocols.peer_values import decode

from support.peer_vectors import vector_lines

_MODULES = {"financemath": financemath, "docmath": financemath, "financereasoning": financereasoning,
            "finmmr": financereasoning}


def _recorded(acc: dict[str, object]) -> object:
    """The peer's recorded acc: its value, or None where it raised."""
    return acc.get("value")


@pytest.mark.essential
@pytest.mark.parametrize("peer", sorted(_MODULES))
def test_every_recorded_line_in_one_batch(peer: str) -> None:
    """A whole vector file as one batch: every acc the peer recorded, and the reason decide_line gives."""
    from finscore.protocols import get_protocol

    lines = [line for line in vector_lines(peer) if line["kind"] != "file_figure"]
    decided = decide_batch(peer, [decode(line["pred"], "pred") for line in lines],
                           [decode(line["gt"], "gt") for line in lines])
    protocol = get_protocol(peer)
    differing = []
    for number, (line, acc, reason) in enumerate(zip(lines, decided.acc, decided.reason)):
        if acc != _recorded(line["acc"]) or reason != protocol.decide_line(line)["reason"]:
            differing.append((number, line["pred"], line["acc"], acc, reason))
    assert differing == []
    assert len(decided.acc) == len(lines)
    assert 0 < decided.in_core < len(lines)  # the core decided some lines, Python the others


def _plain_literals(rng: random.Random, count: int) -> list[str]:
    """Plain decimals as models write them: signs, leading zeros, long fractions, long integers."""
    texts = []
    for _ in range(count):
        sign = rng.choice(["", "", "-", "+"])
        whole = str(rng.choice([0, rng.randrange(10), rng.randrange(10**rng.randrange(1, 17))]))
        if rng.random() < 0.1:
            whole = "0" * rng.randrange(1, 3) + whole
        if rng.random() < 0.6:
            fraction = "".join(rng.choice("0123456789") for _ in range(rng.randrange(1, 26)))
            texts.append(f"{sign}{whole}.{fraction}")
        else:
            texts.append(f"{sign}{whole}")
    return texts


@pytest.mark.essential
def test_plain_decimals_are_read_as_cpython_reads_them() -> None:
    """Each plain decimal against its own value (ast.literal_eval), that value one ulp away, and ten times
    it: FinanceReasoning's rule says exact only for the very value, so any misread bit shows."""
    rng = random.Random(36)
    texts = _plain_literals(rng, 4000)
    predictions: list[object] = []
    golds: list[object] = []
    expected: list[tuple[int, str]] = []
    for text in texts:
        try:
            value = ast.literal_eval(text)
        except (SyntaxError, ValueError):  # `01`: eval() refuses it too; decided by the full reading
            continue
        if isinstance(value, int) and abs(value) >= 2**53:
            continue
        exact = float(value)
        above = math.nextafter(exact, math.inf)
        for gold in (exact, above, exact * 10 + 1):
            eps = abs(gold) * 0.002  # FinanceReasoning's within_eps, stated as the peer's rule
            accepted = value >= gold - eps and value <= gold + eps
            reason = R.EXACT if value == gold else (R.WITHIN_RELATIVE_TOLERANCE if accepted else R.OUTSIDE_TOLERANCE)
            predictions.append(text)
            golds.append(gold)
            expected.append((int(accepted), reason))
    decided = decide_batch("financereasoning", predictions, golds)
    assert list(zip(decided.acc, decided.reason)) == expected
    assert decided.in_core > len(predictions) // 2  # beyond 2**53 significant digits: the full reading


def _shaped(rng: random.Random, count: int) -> list[str]:
    """Answers around the shapes the core reads, and the ones next to them it must leave alone."""
    numbers = _plain_literals(rng, count) + ["1,234", "12,345.5", "1,23", "1,2345", "-1,234,567.25", "0,123",
                                             "1,000,00", ",5", "5,", ".5", "5.", "1_000", "1e3", "0x10"]
    around = ["{}", "${}", "{}%", "${}%", "{}.", "{}..", "{}%.", " {} ", "\t{}\n", "\xa0{}", "{} million",
              "{} billion", "{} thousand", "{} millions", "{}  million", "Answer: {}", "answer: ${}",
              "Thus: {}", "lambda: {}", "TRUE: {}", "Answer:{}", "Final Answer: {}", "{}, {}", "{},{}",
              "{}, {}, {}", "{} ,{}", "{},", "({})", "-${}", "$-{}", "{}$", "{}%%", "%{}", "{}\x1c",
              "The final answer is {}.", "The final answer is ${}.", 'The final answer of the question is "{}"',
              "Final Answer: {}", "The answer is {} million", "THUS the answer {}", "The answer = {}",
              "The answer is True {}", "The answer {} or {}", "not the answer {}", "The is {}", "A b {}",
              "The value x {}", "The answer 10^{}", "The option (a) {}", "The `answer` is {}%",
              "The answer approximately {}", "lambda x: {}", "The_1 answer2 {}", "The\tanswer is {}",
              "The  answer {}", "answer: The final {}", "The f'{}' b"]
    words = ["None", "None.", "True", "False", "true", "false", "yes", "no", "none", "", " ", "$", "%", "...",
             "$%", "nan", "inf"]
    noise = "0123456789,.$%+- :eE_xTtruNonelambdsUSmi"
    texts = []
    for _ in range(count):
        if rng.random() < 0.08:
            texts.append(rng.choice(words))
            continue
        if rng.random() < 0.15:  # short strings of the characters the shapes turn on, in any order
            texts.append("".join(rng.choice(noise) for _ in range(rng.randrange(1, 14))))
            continue
        shape = rng.choice(around)
        texts.append(shape.format(*(rng.choice(numbers) for _ in range(shape.count("{}")))))
    return texts


def _golds(rng: random.Random, prediction: str) -> object:
    """A gold near the answer's number (a power of ten away, a percent, a hair off) or of another type."""
    digits = "".join(c for c in prediction if c.isdigit() or c in ".-")[:20].strip(".-")
    try:
        base = float(digits) if digits else 1.0
    except ValueError:
        base = 1.0
    choice = rng.randrange(12)
    if choice == 0:
        return rng.choice([True, False])
    if choice == 1:
        return rng.choice([0, 1, 7, -3, 10**12, 10**20, 2**60])
    if choice == 2:
        return rng.choice([math.nan, math.inf, -math.inf, 0.0, -0.0, 1e305, 5e-324])
    if choice == 3:
        return int(base) if abs(base) < 1e15 else base
    factor = rng.choice([1, 1, -1, 100, 0.01, 1000, 0.001, 1e5, 1e-5, 10, 0.1, 1.001, 0.9985, 1.0015, 1.002, 0.998])
    gold = base * factor
    if rng.random() < 0.3:
        gold = math.nextafter(gold, rng.choice([math.inf, -math.inf]))
    return gold


def _decided_as_the_full_reading(peer: str, predictions: list[object], golds: list[Any]) -> Any:
    """The batch's decisions, after checking that each (acc, reason) is what the module's own get_acc
    gives the pair one by one (a raise of the peer's run, or its code executed, as their reasons)."""
    decided = decide_batch(peer, predictions, golds)
    get_acc = _MODULES[peer].get_acc
    differing = []
    for prediction, gold, acc, reason in zip(predictions, golds, decided.acc, decided.reason):
        try:
            want_acc, want_reason, _ = get_acc(prediction, gold)
        except financemath.PeerRaised:
            want_acc, want_reason = None, R.PEER_STOPS_RUN
        except financemath.PeerExecutesCode as unread:
            want_acc = None
            want_reason = R.EXCEEDED_BOUNDS if isinstance(unread, financemath.arith.BoundExceeded) \
                else R.PEER_EXECUTES_CODE
        if (acc, reason) != (want_acc, want_reason):
            differing.append((prediction, gold, (acc, reason), (want_acc, want_reason)))
    assert differing == []
    return decided


@pytest.mark.parametrize("peer", ["financemath", "financereasoning"])
def test_generated_shapes_decide_as_the_full_reading(peer: str) -> None:
    """Thousands of generated answers and golds: the batch (the core where it reads the shape) and the
    module's own get_acc one by one give the same acc and reason."""
    rng = random.Random(peer)
    predictions: list[object] = list(_shaped(rng, 6000))
    golds = [_golds(rng, str(prediction)) for prediction in predictions]
    decided = _decided_as_the_full_reading(peer, predictions, golds)
    assert decided.in_core > len(predictions) // 8  # the core read many of them (FinanceReasoning fewer shapes)


def _arithmetic(rng: random.Random, depth: int = 0) -> str:
    """An arithmetic expression of plain decimals with + - * /, brackets and unary signs, spaced as models do."""
    if depth > 3 or rng.random() < 0.35:
        literal = rng.choice([str(rng.randrange(10)), str(rng.randrange(10**rng.randrange(1, 11))),
                              f"{rng.randrange(10**rng.randrange(1, 7))}.{rng.randrange(10**rng.randrange(1, 9))}",
                              "0", "00", "0.0", "1000", "0.05", "1.1768"])
        return rng.choice(["", "", "", "-", "+", "- "]) + literal
    if rng.random() < 0.2:
        return "(" + _arithmetic(rng, depth + 1) + ")"
    space = rng.choice(["", " "])
    return _arithmetic(rng, depth + 1) + space + rng.choice("+-*/") + space + _arithmetic(rng, depth + 1)


def _cpython_value(text: str) -> object:
    """CPython's own value of an arithmetic text (its parser and its operators on its numbers), or the
    exception's type name."""
    import operator

    ops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.USub: operator.neg, ast.UAdd: operator.pos}

    def value(node: ast.AST) -> object:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.UnaryOp):
            return ops[type(node.op)](value(node.operand))
        assert isinstance(node, ast.BinOp)
        return ops[type(node.op)](value(node.left), value(node.right))

    try:
        return value(ast.parse(text, mode="eval").body)
    except (SyntaxError, ZeroDivisionError, OverflowError) as error:
        return type(error).__name__


@pytest.mark.essential
def test_arithmetic_is_evaluated_as_cpython_evaluates_it() -> None:
    """FinanceMath's answers that are arithmetic of numeric literals, against CPython's own value of each
    (its parser and operators; the text is parsed, never run): the gold the value itself is `exact`, the
    gold one ulp away is not, so a misrounded operation shows; texts CPython refuses as a SyntaxError
    read 0 (`eval_failed_zero`)."""
    rng = random.Random("arithmetic")
    predictions: list[object] = []
    golds: list[object] = []
    expected: list[tuple[int, str] | str] = []
    for _ in range(3000):
        text = _arithmetic(rng)
        if rng.random() < 0.15:  # cut short: mostly a SyntaxError
            text = text[:rng.randrange(1, len(text) + 1)].rstrip(".")
        if financemath.clean_text(text) != text:  # `- 5` is cleaned to `5` (_UNIT_BEFORE): not this test's
            continue
        value = _cpython_value(text)
        if value == "SyntaxError":
            predictions.append(text)
            golds.append(0.0)
            expected.append((1, R.EVAL_FAILED_ZERO))
            continue
        if isinstance(value, str) or (isinstance(value, int) and abs(value) >= 10**10) \
                or (isinstance(value, float) and not abs(value) < 1e300) or value == 0:
            continue  # a zero divisor, a huge int, a zero (no ulp to tell): left to the host; not timed here
        exact = float(value)  # type: ignore[arg-type]
        predictions += [text, text]
        golds += [exact, math.nextafter(exact, math.inf)]
        expected += [(1, R.EXACT), "not exact"]
    decided = decide_batch("financemath", predictions, golds)
    differing = []
    for prediction, gold, want, acc, reason in zip(predictions, golds, expected, decided.acc, decided.reason):
        if (reason == R.EXACT) if want == "not exact" else (acc, reason) != want:
            differing.append((prediction, gold, want, acc, reason))
    assert differing == []
    assert decided.in_core > len(predictions) * 9 // 10  # the core read nearly all of them


def _cleaned_shapes(rng: random.Random, count: int) -> list[str]:
    """Answers the cleaning turns into a number or an expression: currency signs (UTF-8), unit words,
    labels, `=` and `≈`, `x`, `or`, sentences, and the near misses the core must leave alone."""
    numbers = _plain_literals(rng, count // 4) + ["1,234", "12,345.5", "1,23", "-1,234,567.25", ".5", "5.", "01",
                                                  "1_000", "1e3", "2+3", "1,000 / 1.1768", "3/16", "(1+2)*3",
                                                  "1 / 0", "2**3", "7//2", "()", "2(3)", "1 2", "1+", "(2"]
    around = ["£{}", "€{}", "¥{}", "₤{}", "-£{}", "£ {}", "£{} million", "¥{} million", "€{}.", "${}", "C${}",
              "CHF{}", "USD {}", "USD{}", "EUR {}", "EUR{}", "RMB {}", "{} USD", "{} EUR", "{} trillion",
              "{} trillion dollars", "{} million", "{} billion", "{}°", "{} units", "{} shares", "{}x",
              "{} x {}", "{} or {}", "approximately {}", "Approximately {}", "X = {}", "P ≈ {}", "a = b = {}",
              "The final answer is {}.", "The final answer is ${} million.", "Total fees collected: ${} million",
              "Answer: {}", "Answer: -${} million", "The answer is True", "{} (a)", "10^{}", "{}% of {}",
              "FCFE = ${} + ${} - ${}", "The ₤ is {}", "The final ((answer {}", "lambda x: {}", "Step 4: {}",
              "The e.g. {}", "The 3-year answer {}", "The answer1 {}", "The answer is 5if", "{} 'a'", "£{} ≈ €{}",
              "\xa0£{}", "£{}\n", "{} £", "None", "N$d.{}", "US{}D", "milUSlion {}", "{} - - {}", "*{}", "{}**2",
              "Step 4: {}", "Answer:\n{}", "Investor's {}", "{} 'a' {}", "1. We need {}", "The answer\n{}", "x := {}",
              "Answer:={}", "f'{}' x", "The f'{}'", "{} # {}", "The {} if", "x if {}", "The \\ {}", "The '''{}'''",
              'The "{}\\n"', "{}\f x", "\tThe {}", "5.if {}", "The (((((((((((({}", "Solution: {} units",
              "{} or {} or {}", "The\r\n{}", "print {}", "match {}", "_ {}", "Rb'{}' x", "{}: {}", "1_0 {}",
              "({}", "{})", "[{}", "sqrt(({}", "N(-{}", "'{}'", '"{}"', " '{}' ", "'{}", '"""{}"""', "{} # (",
              "f'({}'", "{}, {}", "{},", ",{}", "{},,{}", "({}, {})", "{}, {} / 0", "{}, 2**3", "'a\\'{}'",
              '"{}\n"', "'(' {}", "({}]", "x = ({}", "{} '''", "(({})", "{} )(", "{} # )"]
    texts = []
    for _ in range(count):
        shape = rng.choice(around)
        texts.append(shape.format(*(rng.choice(numbers) for _ in range(shape.count("{}")))))
    return texts


@pytest.mark.parametrize("peer", ["financemath", "financereasoning"])
def test_cleaned_answers_decide_as_the_full_reading(peer: str) -> None:
    """Generated answers around currency signs, units and arithmetic, with golds near their numbers: the
    batch (the core's whole FinanceMath cleaning and evaluator where it reads the text) and the module's
    own get_acc one by one give the same acc and reason."""
    rng = random.Random("cleaned " + peer)
    predictions: list[object] = list(_cleaned_shapes(rng, 6000))
    golds = [_golds(rng, str(prediction)) for prediction in predictions]
    decided = _decided_as_the_full_reading(peer, predictions, golds)
    if peer == "financemath":
        assert decided.in_core > len(predictions) // 3  # the near misses are the host's


def test_power_of_ten_ratios_are_judged_by_math_log10() -> None:
    """FinanceMath's power-of-ten rule on ratios a hair from 10**k: the core hands each to math.log10
    (the peer's own call), so the batch agrees with the rule applied through CPython's math.log10."""
    predictions, golds, expected = [], [], []
    for k in range(0, 40):
        for step in range(-3, 4):
            gold = 10.0**k
            for _ in range(abs(step)):
                gold = math.nextafter(gold, math.inf if step > 0 else -math.inf)
            ratio = gold / 1.0
            integral = int(math.log10(ratio)) == math.log10(ratio)
            predictions.append("1")
            golds.append(gold)
            expected.append(1 if integral or gold == 1.0 else financemath.compare_two_numbers(1, gold)[0])
    decided = decide_batch("financemath", predictions, golds)
    assert decided.acc == expected
    assert decided.reason == [financemath.get_acc("1", gold)[1] for gold in golds]


def test_small_batches_and_odd_inputs() -> None:
    """Below PEER_CORE_MIN_ROWS everything is Python's; non-text answers and odd golds are the host's."""
    few = decide_batch("financemath", ["12%", "None"], [12.0, 1.0])
    assert (few.acc, few.reason, few.in_core) == ([1, 0], [R.EXACT, R.NON_NUMERIC_VALUE], 0)
    rows = PEER_CORE_MIN_ROWS + 4
    predictions: list[object] = ["5"] * rows
    predictions[0], predictions[1], predictions[2] = None, 5, "sys.exit(0)"
    golds: list[object] = [5.0] * rows
    golds[3] = "5"
    decided = decide_batch("financemath", predictions, golds)
    assert decided.reason[:4] == [R.NOT_TEXT, R.NOT_TEXT, R.PEER_STOPS_RUN, R.COMPARISON_RAISED]
    assert decided.acc[:4] == [0, 0, None, 0]
    assert decided.in_core == rows - 4
    with pytest.raises(ValueError, match="one gold for each prediction"):
        decide_batch("finmmr", ["1"], [])
    with pytest.raises(ProtocolError, match="helm-finqa"):
        decide_batch("helm", [], [])


def test_reasons_read_off_the_outcomes_behave_as_a_list() -> None:
    """The eval() peers' `reason` column (PeerReasons, the core's outcome bytes read when asked) gives
    the same word at every index, slice and in iteration as the module's own get_acc, the rows the host
    decided (a str subclass, a unit word, an expression) among them."""
    predictions: list[object] = ["5", "$5", "5 million", "2+3", "abc", "-5", "500", "0.05"] * PEER_CORE_MIN_ROWS

    class Text(str):
        """A str subclass: never read by the core."""

    predictions[1] = Text("5")
    golds: list[object] = [5.0] * len(predictions)
    decided = decide_batch("financemath", predictions, golds)
    expected = [financemath.get_acc(prediction, gold)[1] for prediction, gold in zip(predictions, golds)]
    reasons = decided.reason
    assert 0 < decided.in_core < len(predictions)  # both kinds of row are present
    assert list(reasons) == expected and reasons == expected and expected == reasons
    assert len(reasons) == len(expected)
    assert [reasons[row] for row in range(-len(expected), len(expected))] == expected + expected
    assert reasons[3:11:2] == expected[3:11:2]
    assert reasons != expected[:-1] and reasons != "exact"
    assert repr(reasons) == repr(expected)
    with pytest.raises(IndexError):
        reasons[len(expected)]
    with pytest.raises(TypeError):
        hash(reasons)


@pytest.mark.essential
def test_helm_lines_in_one_batch() -> None:
    """Every HELM vector line, its table from FinQA's test file, as one batch: HELM's recorded metric."""
    import gzip
    import json

    from support.peer_vectors import FINQA_TEST

    tables = {example["id"]: example["table"] for example in json.loads(gzip.decompress(FINQA_TEST.read_bytes()))}
    lines = vector_lines("helm")
    golds = [{"ref_program": line["ref_program"], "ref_exe": line["ref_exe"], "table": tables[line["table_ref"]]}
             for line in lines]
    decided = decide_batch("helm-finqa", [line["generated"] for line in lines], golds)
    assert decided.program_accuracy is not None
    got = [{"raises": "ValueError"} if acc is None else
           {"value": {"program_accuracy": program, "execution_accuracy": acc}}
           for acc, program in zip(decided.acc, decided.program_accuracy)]
    assert [repr(g) for g in got] == [repr(line["metric"]) for line in lines]  # 0 stays the int 0, 0.0 a float
    with pytest.raises(ValueError, match="entry 1"):
        decide_batch("helm-finqa", ["add(1, 2)", "add(1, 2)"], [golds[0], {"ref_program": "x"}])


def test_pixiu_batch_is_its_string_rule() -> None:
    decided = decide_batch("pixiu-finqa", [" 94 ", "94.0", "x", None], ["94", "94", " x", "94"])
    assert decided.acc == [1.0, 0.0, 0.0, None]
    assert decided.reason == ["equal", "differs", "gold_outer_whitespace", "prediction_not_text"]


@pytest.mark.essential
def test_pixiu_lines_in_one_batch() -> None:
    """Every PIXIU vector line as one batch, under each of the three protocols: the acc PIXIU's own
    process_results recorded for its task, and the reason decide_line gives the line."""
    from finscore.protocols.pixiu import decide_line

    lines = vector_lines("pixiu")
    for protocol, task in (("pixiu-finqa", "FinQA"), ("pixiu-convfinqa", "ConvFinQA"), ("pixiu-tatqa", "TATQA")):
        decided = decide_batch(protocol, [line["pred"] for line in lines], [line["gold"] for line in lines])
        recorded = [line[task]["value"]["acc"] if "value" in line[task] else None for line in lines]
        assert decided.acc == recorded
        assert list(decided.reason) == [decide_line(line)["reason"] for line in lines]
        assert {*decided.reason} >= {"equal", "differs"}


def test_core_refuses_a_miscounted_text() -> None:
    """Rows are separated by one NUL each: another count is a refusal of the call, nothing decided."""
    with pytest.raises(CoreError) as refused:
        get_core().decide_peer_acc(0, b"1\x002", 3, bytes(24), bytes(3))
    assert refused.value.status_name == "bad_peer_batch"
