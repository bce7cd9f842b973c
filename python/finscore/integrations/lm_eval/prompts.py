"""The prompts of the lm_eval tasks and their few-shot examples, versioned together.

PROMPT_VERSION changes whenever a prompt's wording or a few-shot example changes; the
task YAMLs carry it as `metadata: version`, so lm_eval prints it beside every figure.
Each prompt starts with `Report:` and asks for the answer on a last line `Answer: ...`
(the `answer-line` format of the answer protocols; the last such line alone is scored);
generation stops where a model would start a new `Report:` or `Question:`. The few-shot
examples are written for finscore (no dataset item is used as one, so none can also be a
test question); the tasks run zero-shot unless `--num_fewshot 1` or `2` is given.

The FinanceMath-style task is the exception: its prompt is FinanceMath's own chain-of-thought
prompt (yale-nlp/FinanceMath, utils/model_input_utils.py `prepare_cot_model_input`, its system
text and user text joined by a newline as FinanceMath does for models without a system role),
which asks for a last sentence "Therefore, the answer is {final answer}" (the `phrase` format);
it is zero-shot, as FinanceMath evaluates, and has no few-shot examples.
"""

from __future__ import annotations

from typing import Any

PROMPT_VERSION = 1
ANSWER_FORMAT = "answer-line"

INSTRUCTION = ("Answer the question from the report above. Reason step by step if it helps, then end with one "
               "last line of the form \"Answer: <number>\" (or \"Answer: yes\" / \"Answer: no\"). Write a "
               "percentage with a % sign.")
TATQA_INSTRUCTION = ("Answer the question from the table and text above. Reason step by step if it helps, then "
                     "end with one last line of the form \"Answer: <number>\". Write a percentage with a % sign; "
                     "give an amount as the table states it, with its unit (thousand, million) when you use "
                     "another one.")


def _conversation(doc: dict[str, Any]) -> str:
    dialogue = doc.get("dialogue") or ""
    return f"Conversation so far:\n{dialogue}\n\n" if dialogue else ""


def doc_to_text(doc: dict[str, Any]) -> str:
    """FinQA and ConvFinQA: the report, the dialogue so far (ConvFinQA), the question, the instruction."""
    return f"Report:\n{doc['context']}\n\n{_conversation(doc)}Question: {doc['question']}\n{INSTRUCTION}\n"


def tatqa_doc_to_text(doc: dict[str, Any]) -> str:
    """TAT-QA: the table and paragraphs, the question, the instruction."""
    return f"Report:\n{doc['context']}\n\nQuestion: {doc['question']}\n{TATQA_INSTRUCTION}\n"


#: FinanceMath's system text for chain-of-thought answers, word for word.
FINANCEMATH_SYSTEM = ("You are a financial expert, you are supposed to answer the given question. You need to first "
                      "think through the problem step by step, documenting each necessary step. Then you are "
                      "required to conclude your response with the final answer in your last sentence as "
                      "'Therefore, the answer is {final answer}'. The final answer should be a numeric value.")
FINANCEMATH_STEP = "Let's think step by step to answer the given question.\n"


def financemath_doc_to_text(doc: dict[str, Any]) -> str:
    """FinanceMath's chain-of-thought prompt: the system text, the tables (when any), the question, the
    step-by-step line; a `context` (FinanceReasoning-style text) goes before the tables."""
    tables = f"Table:\n{doc['tables']}\n" if doc.get("tables") else ""
    context = f"{doc['context']}\n" if doc.get("context") else ""
    before = f"{context}{tables}\n" if tables or context else ""
    question = f"{before}Question: {doc['question']}\n"
    return FINANCEMATH_SYSTEM + "\n" + "\n".join([question, FINANCEMATH_STEP])


def financemath_fewshot() -> list[dict[str, str]]:
    """None: the FinanceMath-style task is zero-shot (lm_eval refuses --num_fewshot above 0 for it)."""
    return []


def _example(context: str, question: str, target: str, dialogue: str = "") -> dict[str, str]:
    return {"id": "finscore-fewshot", "context": context, "dialogue": dialogue, "question": question,
            "target": target}


_REVENUE_TABLE = ("revenue grew on higher volumes .\n\n"
                  "|  | 2019 | 2018 |\n| revenue | $ 1200 | $ 1000 |\n| operating income | $ 300 | $ 240 |")


_SALES_TABLE = ("|  | 2019 | 2018 |\n| Product sales | $ 5,240 | $ 4,870 |\n| Service revenue | 1,315 | 1,102 |\n\n"
                "All amounts are in thousands of dollars.")

#: The few-shot examples of each task, in the order they are shown.
FEWSHOT: dict[str, tuple[dict[str, str], ...]] = {
    "finqa": (
        _example(_REVENUE_TABLE, "what was the percentage change in revenue from 2018 to 2019?",
                 "(1200 - 1000) / 1000 = 0.2, an increase of 20%.\nAnswer: 20%"),
        _example(_REVENUE_TABLE, "was operating income more than 25% of revenue in 2019?",
                 "300 / 1200 = 0.25, which is not more than 25%.\nAnswer: no"),
    ),
    "convfinqa": (
        _example(_REVENUE_TABLE, "and what was it in 2018?", "Answer: 1000",
                 dialogue="Q: what was the revenue in 2019?\nA: 1200"),
        _example(_REVENUE_TABLE, "what was the change over the year?", "1200 - 1000 = 200.\nAnswer: 200",
                 dialogue="Q: what was the revenue in 2019?\nA: 1200\nQ: and what was it in 2018?\nA: 1000"),
    ),
    "tatqa": (
        _example(_SALES_TABLE, "What was the change in service revenue between 2018 and 2019?",
                 "1,315 - 1,102 = 213.\nAnswer: 213 thousand"),
        _example(_SALES_TABLE, "What was the percentage change in product sales from 2018 to 2019?",
                 "(5,240 - 4,870) / 4,870 = 0.0760.\nAnswer: 7.60%"),
    ),
}


def finqa_fewshot() -> list[dict[str, str]]:
    return list(FEWSHOT["finqa"])


def convfinqa_fewshot() -> list[dict[str, str]]:
    return list(FEWSHOT["convfinqa"])


def tatqa_fewshot() -> list[dict[str, str]]:
    return list(FEWSHOT["tatqa"])
