"""Rewards for FinQA and ConvFinQA programs: the evaluators' own decisions, per row.

A program is rewarded exactly as `finscore finqa` scores it: executed by the same
engine under the dataset's reader profile, correct when the official test holds
(a valid program whose result `==` the gold exe_ans), with the same failure
categories as reasons. With `match="program"` a row passes only if the official
`equal_program` also finds the program equivalent to the gold program.
"""

from __future__ import annotations

import math
from json.encoder import encode_basestring
from typing import Any, Sequence

from finscore.engine import Status, execute_batch
from finscore.engine.explanation import json_value
from finscore.scoring.program_categories import refusal_category, wrong_answer_category
from finscore.rewards.decisions import DecidedRows
from finscore.rewards.program_gold import ProgramGold
from finscore.scoring.reasons import CORRECT, MISSING_PREDICTION

#: Executed programs per engine call: bounds the memory of one call, not the result.
PROGRAMS_PER_ENGINE_CALL = 2000
#: The program is a list holding something other than text.
MALFORMED_TOKENS = "malformed_tokens"
#: `match="program"`: the execution matched but equal_program says the programs differ.
NOT_EQUIVALENT = "not_equivalent"
#: `match="program"`: the row's gold carries no program to compare with.
NO_GOLD_PROGRAM = "no_gold_program"
#: The program is longer than MAX_REWARD_PROGRAM_CHARS (a declared rule of the reward, in its stamp).
TOO_LONG = "too_long"
#: The longest program text (or token list, counted in characters) a reward reads. FinQA and
#: ConvFinQA gold programs are a few hundred characters; the bound keeps a reward's time
#: per row small whatever a model writes.
MAX_REWARD_PROGRAM_CHARS = 65_536


def _runnable(program: Any) -> bool:
    if isinstance(program, str):
        return True
    return isinstance(program, (list, tuple)) and all(isinstance(token, str) for token in program)


def _length(program: str | list[str] | tuple[str, ...]) -> int:
    return len(program) if isinstance(program, str) else sum(map(len, program)) + len(program)


def _json_scalar(value: Any) -> str | None:
    """The JSON text the standard library's encoder writes for a str, an int or a finite float;
    None for any other value (the encoder then writes the whole detail)."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is float:
        return float.__repr__(value) if math.isfinite(value) else None
    if kind is int:
        return int.__repr__(value)
    return None


def _detail_text(gold_text: str | None, status_text: str, value: Any, failed_step: int | None,
                 invalid: int) -> str | None:
    """A program detail's canonical JSON (keys sorted: failed_step, gold, status, value), written
    field by field: the encoder costs several microseconds a row, about a tenth of a reward.
    None where a value is not a plain scalar: the encoder writes that detail."""
    if gold_text is None:
        return None
    if invalid:
        step = "null" if failed_step is None else _json_scalar(failed_step)
        if step is None:
            return None
        return f'{{"failed_step":{step},"gold":{gold_text},"status":{status_text},"value":null}}'
    value_text = _json_scalar(value)
    return None if value_text is None else f'{{"gold":{gold_text},"status":{status_text},"value":{value_text}}}'


def decide_programs(programs: Sequence[Any], golds: Sequence[ProgramGold], *, profile: str, python: str,
                    match: str) -> DecidedRows:
    """One decision per program: a token list, or program text (its whole text, surrounding
    white space removed, read as the official evaluator reads gold programs); None when missing."""
    programs = [p.strip() if isinstance(p, str) else p for p in programs]
    out = DecidedRows(len(programs))  # every row 0.0 and not passed until decided otherwise
    runnable: list[int] = []  # the first row of each distinct (program, gold)
    copy_rows: list[int] = []  # a row repeating an earlier one ...
    copy_of: list[int] = []  # ... and the row it repeats
    # Rows with equal programs and the same gold object get one decision (a GRPO group's
    # completions share the gold object, see gold_json.read_golds, and often a program). The memo
    # is a dict per gold keyed by the program: no tracked tuple per row.
    first: dict[int, dict[Any, int]] = {}
    for index, program in enumerate(programs):
        key: str | tuple[str, ...]
        if type(program) is str:  # the common case first
            length, key = len(program), program
        elif program is None:
            out.put(index, 0.0, False, MISSING_PREDICTION, {})
            continue
        elif not _runnable(program):
            out.put(index, 0.0, False, MALFORMED_TOKENS, {"why": "a token is not text"})
            continue
        else:
            length, key = _length(program), (program if isinstance(program, str) else tuple(program))
        if length > MAX_REWARD_PROGRAM_CHARS:
            out.put(index, 0.0, False, TOO_LONG, {"chars": length, "max_chars": MAX_REWARD_PROGRAM_CHARS})
            continue
        of_gold = first.get(id(golds[index]))
        if of_gold is None:
            of_gold = first[id(golds[index])] = {}
        seen = of_gold.setdefault(key, index)
        if seen == index:
            runnable.append(index)
        else:
            copy_rows.append(index)
            copy_of.append(seen)
    batch = execute_batch(((programs[i], golds[i].table) for i in runnable), profile=profile, python=python,
                          chunk_size=PROGRAMS_PER_ENGINE_CALL)
    comparer = _program_comparer() if match == "program" else None
    gold_texts: dict[int, str | None] = {}  # id of a gold: its answer's JSON text (rows share golds)
    scores, passed, reasons, details, texts = out.scores, out.passed, out.reasons, out.details, out.texts
    invalids, results, codes = batch.invalid, batch.results, batch.statuses
    for k, index in enumerate(runnable):
        gold = golds[index]
        answer = gold.answer
        invalid, result, code = invalids[k], results[k], codes[k]
        correct = invalid == 0 and result == answer
        label, label_text, refusal = _STATUSES.get(code) or _status(code)
        if invalid:
            value = None
        elif type(result) is float and math.isfinite(result):  # json_value's answer, without the call
            value = result
        else:
            value = json_value(result)
        detail: dict[str, Any] = {"gold": answer, "status": label, "value": value}
        failed_step = None
        if invalid:
            failed_step = detail["failed_step"] = batch.failed_step(k)
            reason = refusal
        elif correct:
            reason = CORRECT
        else:
            reason = wrong_answer_category(result, answer)
        if comparer is not None and correct:
            correct, reason = _equivalence(comparer, programs[index], gold, detail)
            text = None  # the detail names the equivalence method too: the encoder writes it
        else:
            if id(gold) in gold_texts:
                gold_text = gold_texts[id(gold)]
            else:
                gold_text = gold_texts[id(gold)] = _json_scalar(answer)
            text = _detail_text(gold_text, label_text, value, failed_step, invalid)
        # out.put's work, written out: a call a row costs about a thirtieth of this loop
        scores[index], passed[index], reasons[index] = 1.0 if correct else 0.0, correct, reason
        details[index], texts[index] = detail, text
    for index, seen in zip(copy_rows, copy_of):
        out.put(index, scores[seen], passed[seen], reasons[seen], details[seen], texts[seen])
    return out


#: A status code: its label, the label's JSON text, and the reason should the program be refused
#: (the codes are a fixed set; kept across calls, which a trainer makes once a step or a row).
_STATUSES: dict[int, tuple[str, str, str]] = {}


def _status(code: int) -> tuple[str, str, str]:
    """A status's label, the label's JSON text, and its reason should the program be refused."""
    status = Status(code)
    described = _STATUSES[code] = (status.label, encode_basestring(status.label), refusal_category(status))
    return described


def _program_comparer() -> Any:
    """The official `equal_program`, FinQA's (from its descriptor): ConvFinQA rows are compared by it too."""
    from finscore.registry import RegistryError, get_benchmark

    comparer = get_benchmark("finqa").program_comparer
    if comparer is None:
        raise RegistryError("the finqa benchmark declares no program comparer")
    return comparer.load()()


def _equivalence(comparer: Any, program: Any, gold: ProgramGold, detail: dict[str, Any]) -> tuple[bool, str]:
    from finscore.engine.reader.tokens import tokenize_gold_program

    if gold.program is None:
        return False, NO_GOLD_PROGRAM
    tokens = tokenize_gold_program(program) if isinstance(program, str) else list(program)
    decision = comparer.equal_program(tokenize_gold_program(gold.program), tokens)
    detail["equivalence"] = str(decision.method)
    return (True, CORRECT) if decision.equal else (False, NOT_EQUIVALENT)
