"""Completions decided by hand under financemath-answer/1's written rule, one table for every format.

The inspect scorer's and the trainers' format tests read the same table: each row is the number the
format's marker points at, compared with the gold as the protocol's rule says (not finscore's output).
"""

from __future__ import annotations

PROTOCOL = "financemath-answer/1"
GOLD = {"ground_truth": 1250.5, "question": "What is the bond's price today?"}

#: format: [(completion, passed, reason)], each decided by hand under the protocol's written rule.
HAND_DECIDED: dict[str, list[tuple[str, bool, str]]] = {
    "phrase": [
        ("The coupon is 50 and the yield 4%. Therefore, the answer is 1,250.5.", True, "exact"),
        ("The answer is 1200, no wait. **Final answer is** 1300 dollars.", False, "wrong_value"),
        ("The price is 1250.5 today.", False, "no_final_answer"),
    ],
    "tag": [
        ("<think>the answer is 7</think>\n<answer>1250.5</answer>", True, "exact"),
        ("<answer>1250.5</answer> then <ANSWER> 1300 </ANSWER>", False, "wrong_value"),
        ("<answer>1250.5", False, "no_final_answer"),
    ],
    "last-number": [
        ("Discounting the 3 coupons at 4% gives 1250.5", True, "exact"),
        ("The price is 1250.5, or 1300 rounded up", False, "wrong_value"),
        ("I cannot price this bond.", False, "no_final_answer"),
    ],
    "boxed": [
        ("The price is \\boxed{1250.5}.", True, "exact"),
        ("\\boxed{1250.5} or rather \\boxed{1300}", False, "wrong_value"),
        ("Therefore, the answer is 1250.5.", False, "no_final_answer"),
    ],
    "answer-line": [
        ("Working: 1000 + 250.5\nAnswer: 1250.5", True, "exact"),
        ("Answer: 1250.5\nFinal Answer: 1300", False, "wrong_value"),
        ("Therefore, the answer is 1250.5.", False, "no_final_answer"),
    ],
    "json": [
        ('{"answer": "1250.5"}', True, "exact"),
        ('```json\n{"answer": 1300}\n```', False, "wrong_value"),
        ("The answer is 1250.5.", False, "no_final_answer"),
    ],
    "whole": [
        ("  1250.5  ", True, "exact"),
        ("1300", False, "wrong_value"),
        ("1250.5 or 1300", False, "several_numbers"),
    ],
}
