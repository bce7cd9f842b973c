"""How the shipped TAT-QA example was made (kept for provenance; the benchmark uses it too).

    python examples/tatqa/make_example.py ../shared/data/tatqa

gold.json holds the first 10 documents of the TAT-QA dev file (tables, paragraphs and
questions unchanged). predictions.json answers every question but the last two, each
answer made from its gold answer by a perturbation a model might make, chosen by a
generator seeded with the question uid (so the file is the same on every run):
the gold answer as is, another scale, x100 or /100, the sign flipped, rounded to one
place, a number written as "$1,234.5" or "(30)", a span in other case or with an
article or punctuation, a multi-span answer reordered or missing or with an extra item,
a count off by one, or an empty answer. TAT-QA is by Zhu et al. (ACL 2021), MIT licence,
copyright (c) 2021 Fengbin Zhu.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

DOCUMENTS = 10
LEFT_OUT = 2
OTHER_SCALES = ("", "thousand", "million", "billion", "percent")


def _number(answer: Any) -> float | None:
    try:
        return float(answer)
    except (TypeError, ValueError):
        return None


def _perturb_number(value: float, scale: str, rng: random.Random) -> tuple[Any, str]:
    choice = rng.randrange(9)
    if choice == 0:
        return str(value), rng.choice([s for s in OTHER_SCALES if s != scale])
    if choice == 1:
        return str(round(value * 100, 4)), scale
    if choice == 2:
        return str(round(value / 100, 6)), scale
    if choice == 3:
        return str(-value), scale
    if choice == 4:
        return str(round(value, 1)), scale
    if choice == 5:
        return f"${value:,}", scale
    if choice == 6:
        return (f"({abs(value)})" if value < 0 else f"{value}%"), scale
    if choice == 7:
        return "", scale
    return str(value), scale


def _perturb_spans(spans: list[Any], scale: str, rng: random.Random) -> tuple[Any, str]:
    texts = [str(span) for span in spans]
    choice = rng.randrange(8)
    if choice == 0:
        return [text.upper() for text in texts], scale
    if choice == 1:
        return ["the " + text + "." for text in texts], scale
    if choice == 2:
        return list(reversed(texts)), scale
    if choice == 3 and len(texts) > 1:
        return texts[:-1], scale
    if choice == 4:
        return texts + ["none of the above"], scale
    if choice == 5:
        return [" ".join(text.split()[: max(1, len(text.split()) // 2)]) for text in texts], scale
    if choice == 6:
        return texts, rng.choice([s for s in OTHER_SCALES if s != scale])
    return texts, scale


def predict(question: dict[str, Any], seed: str) -> list[Any]:
    """A plausible [answer, scale] for one gold question, the same for the same uid and seed."""
    rng = random.Random(f"{seed}:{question['uid']}")
    answer, scale, kind = question["answer"], question["scale"], question["answer_type"]
    if rng.random() < 0.45:  # right as is
        return [answer if isinstance(answer, list) else str(answer), scale]
    if kind == "count":
        count = int(answer) + rng.choice((-1, 1))
        return [str(count), scale]
    if kind == "arithmetic":
        value = _number(answer)
        if value is not None:
            return list(_perturb_number(value, scale, rng))
        return [str(answer), scale]
    if len(answer) == 1 and _number(str(answer[0]).replace(",", "").lstrip("$")) is not None:
        value = _number(str(answer[0]).replace(",", "").lstrip("$"))
        assert value is not None
        answer_text, new_scale = _perturb_number(value, scale, rng)
        return [[answer_text] if answer_text else [], new_scale]
    return list(_perturb_spans(answer, scale, rng))


def predictions_for(documents: list[dict[str, Any]], *, seed: str = "finscore", left_out: int = 0) -> dict[str, Any]:
    """Predictions for every question of `documents`, in file order, but the last `left_out`."""
    questions = [q for document in documents for q in document["questions"]]
    kept = questions[: len(questions) - left_out] if left_out else questions
    return {q["uid"]: predict(q, seed) for q in kept}


def main(source: Path) -> None:
    dev = json.loads((source / "tatqa_dataset_dev.json").read_text(encoding="utf-8"))
    gold = dev[:DOCUMENTS]
    here = Path(__file__).parent
    (here / "gold.json").write_text(json.dumps(gold, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    predictions = predictions_for(gold, left_out=LEFT_OUT)
    (here / "predictions.json").write_text(json.dumps(predictions, indent=1, ensure_ascii=False) + "\n",
                                           encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
