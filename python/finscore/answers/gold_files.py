"""Gold files for answer scoring: FinQA, ConvFinQA (one gold per turn) and TAT-QA (one per uid).

The kind of file is recognised from its shape and must be the one the protocol
reads. A TAT-QA question is checked as `finscore tatqa` checks what a decision
reads (uid, answer_type, scale, answer); a malformed one stops the file with its
uid named. A well-formed question whose answer is not one number is kept as
out of protocol, named in the report, never silently dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from finscore.answers.gold import Gold, GoldError, OutOfProtocolGold, finqa_gold, tatqa_gold
from finscore.answers.numbers import NumberReader
from finscore.answers.protocol import Protocol
from finscore.inputs.naming import listing
from finscore.inputs.turn_ids import turn_id as turn_id  # importable from here still
from finscore.scoring.errors import FinqaInputError

FINQA, CONVFINQA, TATQA = "finqa", "convfinqa", "tatqa"
READER_OF_KIND = {FINQA: "finqa_exe_ans", CONVFINQA: "convfinqa_exe_ans", TATQA: "tatqa_answer"}


class GoldFileError(FinqaInputError):
    """A gold file that cannot be used with the chosen protocol."""


@dataclass(frozen=True)
class GoldEntry:
    id: str
    question: str
    gold: Gold | None  # None: out of protocol
    out_of_protocol: str | None  # why, when gold is None


@dataclass(frozen=True)
class AnswerGoldFile:
    kind: str  # FINQA, CONVFINQA or TATQA
    entries: tuple[GoldEntry, ...]

    def by_id(self) -> dict[str, GoldEntry]:
        return {entry.id: entry for entry in self.entries}


def gold_kind(data: Any) -> str:
    """FINQA, CONVFINQA or TATQA, from the shape of the first entry."""
    if not isinstance(data, list) or not data or not isinstance(data[0], dict):
        raise GoldFileError("the gold file is not a JSON list of FinQA, ConvFinQA or TAT-QA entries")
    first = data[0]
    if "questions" in first:
        return TATQA
    if isinstance(first.get("annotation"), dict) and "exe_ans_list" in first["annotation"]:
        return CONVFINQA
    if isinstance(first.get("qa"), dict):
        return FINQA
    raise GoldFileError("the gold file is neither FinQA (qa), ConvFinQA (annotation.exe_ans_list) "
                        "nor TAT-QA (questions)")


def _finqa(data: list[Any]) -> list[GoldEntry]:
    entries = []
    for position, example in enumerate(data):
        qa = example.get("qa") if isinstance(example, dict) else None
        if not isinstance(qa, dict) or not isinstance(example.get("id"), str) or "exe_ans" not in qa:
            raise GoldFileError(f"entry {position} of the FinQA file has no id or qa.exe_ans")
        question = str(qa.get("question", ""))
        try:
            gold = finqa_gold(qa["exe_ans"], str(qa.get("program", "")), question, str(qa.get("answer", "")))
        except GoldError as error:
            raise GoldFileError(f"FinQA example {example['id']!r}: {error}") from None
        entries.append(GoldEntry(example["id"], question, gold, None))
    return entries


def _convfinqa(data: list[Any]) -> list[GoldEntry]:
    entries = []
    for position, conversation in enumerate(data):
        notes = conversation.get("annotation") if isinstance(conversation, dict) else None
        if not isinstance(notes, dict) or not isinstance(conversation.get("id"), str):
            raise GoldFileError(f"entry {position} of the ConvFinQA file has no id or annotation")
        answers, questions = notes.get("exe_ans_list"), notes.get("dialogue_break")
        programs = notes.get("turn_program")
        if not (isinstance(answers, list) and isinstance(questions, list) and isinstance(programs, list)
                and len(answers) == len(questions) == len(programs)):
            raise GoldFileError(f"conversation {conversation['id']!r} has no matching exe_ans_list, "
                                "dialogue_break and turn_program")
        for turn, (answer, question, program) in enumerate(zip(answers, questions, programs)):
            name = turn_id(conversation["id"], turn)
            try:
                gold = finqa_gold(answer, str(program), str(question))
            except GoldError as error:
                raise GoldFileError(f"ConvFinQA turn {name!r}: {error}") from None
            entries.append(GoldEntry(name, str(question), gold, None))
    return entries


def _question_check() -> Callable[[Any], str | None]:
    """TAT-QA's own check of what a decision reads (uid, answer_type, scale, answer), from its descriptor."""
    from finscore.registry import RegistryError, get_benchmark

    check = get_benchmark(TATQA).question_problem
    if check is None:
        raise RegistryError("the tatqa benchmark declares no check of its gold questions")
    problem: Callable[[Any], str | None] = check.load()
    return problem


def _tatqa(data: list[Any], reader: NumberReader) -> list[GoldEntry]:
    question_problem = _question_check()
    entries = []
    for position, document in enumerate(data):
        questions = document.get("questions") if isinstance(document, dict) else None
        if not isinstance(questions, list):
            raise GoldFileError(f"entry {position} of the TAT-QA file has no questions")
        for index, item in enumerate(questions):
            problem = question_problem(item)  # what a decision reads (answer_from is not needed)
            if problem is None and not isinstance(item.get("uid"), str):
                problem = 'has no text "uid"'
            if problem is not None:
                uid = item.get("uid") if isinstance(item, dict) else None
                named = f" (uid {uid!r})" if isinstance(uid, str) else ""
                raise GoldFileError(f"question {index} of TAT-QA entry {position}{named} {problem}")
            question = str(item.get("question", ""))
            try:
                gold: Gold | None = tatqa_gold(item["answer"], item["scale"], item["answer_type"], question, reader)
                why = None
            except OutOfProtocolGold as outside:
                gold, why = None, str(outside)
            except GoldError as error:
                raise GoldFileError(f"TAT-QA question {item['uid']!r}: {error}") from None
            entries.append(GoldEntry(item["uid"], question, gold, why))
    return entries


def read_answer_golds(data: Any, protocol: Protocol, reader: NumberReader) -> AnswerGoldFile:
    """Every gold of a decoded FinQA, ConvFinQA or TAT-QA file; ids unique; kind matching the protocol."""
    if protocol.gold_reader not in READER_OF_KIND.values():
        raise GoldFileError(f"{protocol.name} reads its golds line by line: use finscore answers decide-jsonl "
                            "with a \"gold\" object on each line")
    kind = gold_kind(data)
    if READER_OF_KIND[kind] != protocol.gold_reader:
        wanted = next(k for k, r in READER_OF_KIND.items() if r == protocol.gold_reader)
        raise GoldFileError(f"{protocol.name} reads {wanted} golds, but the gold file is a {kind} file")
    entries = _finqa(data) if kind == FINQA else _convfinqa(data) if kind == CONVFINQA else _tatqa(data, reader)
    seen: set[str] = set()
    repeated = []
    for entry in entries:
        if entry.id in seen:
            repeated.append(entry.id)
        seen.add(entry.id)
    if repeated:
        raise GoldFileError(f"the gold file repeats {len(repeated)} id(s): {listing([repr(i) for i in repeated])}")
    return AnswerGoldFile(kind, tuple(entries))
