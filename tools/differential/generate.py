"""A seeded generator of odd FinQA programs, for differential testing against the official evaluator.

Each case is a token program (with EOF) and a table, drawn from the real FinQA data
(tests/data/finqa/*.json.gz) and then bent in one way, its `family`:

- odd_literal: a literal rewritten as something only some float() texts are (`1_000`,
  ` inf`, `1e309`, Unicode digits of Unicode 14 and 15, `5%%`, `const_1e3`, separators);
- odd_reference: a reference rewritten (`0#`, ` #0`, `#+0`, `#0_0`, `#\\x1c0`, `#١`, 9 and
  10 digits, out of range);
- damaged: tokens dropped, doubled or swapped, op names bent, EOF missing;
- delimiter: `|`, `(` or `)` put inside an argument;
- long_chain: chains of hundreds to thousands of steps, and cells and references at the
  lengths where the core's plain reader stops reading (64-byte cells, 9-digit references);
- exponent: exp() at the edges (0, negative and fractional bases, overflow, underflow,
  inf and nan);
- text_flow: "yes"/"no" flowing on through add, greater and multiply;
- integer_flow: Python integers (from an empty row's sum) flowing on, up to 2**65536 and
  past, through add, multiply, divide, exp and greater;
- sum_order: rows whose sum differs between CPython 3.11 (left to right) and 3.12
  (compensated);
- issue: the programs of issue #11.

    python tools/differential/generate.py --count 100 --seed 1 > cases.jsonl
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
from finscore.engine.reader.tokens import tokenize_gold_program  # noqa: E402  (the official tokenization)
FINQA = ROOT / "tests" / "data" / "finqa"
ARITHMETIC = ("add", "subtract", "multiply", "divide", "exp", "greater")
TABLE_OPS = ("table_max", "table_min", "table_sum", "table_average")
EOF = "EOF"

Case = dict[str, Any]

ODD_LITERALS = (
    "1_000", "1__0", "_1", "1_", " inf", "-Infinity", "NaN", "nan%", "1e309", "-1e309", "5e-324", "1e-400",
    "+.5", "5.", ".", "1,2,3", ",", "5%%", "%5", "%", "50 %", "const_1e3", "const_m1", "const_-1", "const_",
    "const_1_0", "0x10", "1\x1c5", "5\xa0", "\xa05", "\u2028 7", "١٢", "١.٥", "\U00011F51", "\U00011F50%",
    "\U0001E4F9", "\U0001FBF9", "１２", "7\x1f", "\x1d", "1e5_0", "1_e5", "--1", "+-1", "٣e٢", "9" * 400,
    "0." + "0" * 330 + "1", "2.675", "1.0000000000000002", "4.35", "-0", "-0.0", "1e22", "1e23",
)
ODD_REFERENCES = (
    "#0", " #0", "0#", "##0", "#0#", "#+0", "#-0", "#0_0", "#_0", "#0_", "#\x1c0", "0\x1c#", "#0\x1f#",
    "# 0", "#\xa00", "#١", "#\U00011F50", "#00", "#000000000", "#0000000000", "#-1", "#99", "#", "#1.0",
    "#0x0", "#٠", "#\u20280",
)
BASES = ("0", "-0.0", "1", "-1", "2", "-8", "0.5", "10", "1e308", "-1e308", "inf", "-inf", "nan", "1e-300", "9")
EXPONENTS = ("0", "0.5", "-1", "-0.5", "2", "17", "308", "309", "1024", "-1074", "-1075", "1e-300", "inf",
             "-inf", "nan", "0.1", "3")


def load_examples() -> list[dict[str, Any]]:
    examples: list[dict[str, Any]] = []
    for split in ("train", "dev", "test"):
        with gzip.open(FINQA / f"finqa_{split}.json.gz", "rt", encoding="utf-8") as handle:
            examples += [e for e in json.load(handle) if isinstance(e.get("table"), list)]
    return examples


def steps(*triples: tuple[str, str, str]) -> list[str]:
    return [token for op, a, b in triples for token in (f"{op}(", a, b, ")")] + [EOF]


class Generator:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.examples = load_examples()

    def example(self) -> tuple[list[str], list[list[str]]]:
        chosen = self.rng.choice(self.examples)
        return tokenize_gold_program(chosen["qa"]["program"]), chosen["table"]

    def argument_positions(self, tokens: list[str]) -> list[int]:
        return [i for i in range(len(tokens) - 1) if i % 4 in (1, 2)]

    def literal(self) -> str:
        return self.rng.choice(ODD_LITERALS)

    # -- families --------------------------------------------------------------
    def odd_literal(self) -> Case:
        tokens, table = self.example()
        positions = self.argument_positions(tokens)
        for position in self.rng.sample(positions, min(len(positions), self.rng.randint(1, 2))):
            tokens[position] = self.literal()
        return {"program": tokens, "table": table}

    def odd_reference(self) -> Case:
        tokens, table = self.example()
        tokens = tokens[:-1] + ["add(", self.rng.choice(ODD_REFERENCES), self.rng.choice(("1", "#0")), ")", EOF]
        if self.rng.random() < 0.3:  # a table step reusing a row through the odd reference
            row = self.rng.choice(table)[0] if table and table[0] else "x"
            tokens = ["table_max(", row, "none", ")", "table_min(", self.rng.choice(ODD_REFERENCES), "none", ")", EOF]
        return {"program": tokens, "table": table}

    def damaged(self) -> Case:
        tokens, table = self.example()
        how = self.rng.randrange(6)
        at = self.rng.randrange(len(tokens))
        if how == 0:
            del tokens[at]
        elif how == 1:
            tokens.insert(at, tokens[at])
        elif how == 2 and len(tokens) > 2:
            other = self.rng.randrange(len(tokens))
            tokens[at], tokens[other] = tokens[other], tokens[at]
        elif how == 3:
            tokens[0] = self.rng.choice(("ADD(", "add", "add((", " add(", "table_foo(", "tablex(", "(", "exp("))
        elif how == 4:
            tokens = tokens[:-1]
        else:
            tokens = tokens[:-1] + ["add(", "1", ")", EOF]
        return {"program": tokens, "table": table}

    def delimiter(self) -> Case:
        tokens, table = self.example()
        position = self.rng.choice(self.argument_positions(tokens) or [1])
        if position < len(tokens) - 1:
            text = tokens[position]
            cut = self.rng.randrange(len(text) + 1)
            tokens[position] = text[:cut] + self.rng.choice(("|", "(", ")", ")|(", "|x")) + text[cut:]
        return {"program": tokens, "table": table}

    def long_chain(self) -> Case:
        how = self.rng.randrange(3)
        if how == 0:
            length = self.rng.choice((250, 999, 1000, 1001, 2047, 2048, 4097))
            chain = [("add", "1", "1")] + [("add", f"#{k - 1}", self.rng.choice(("1", "0.1", "2.675")))
                                            for k in range(1, length)]
            return {"program": steps(*chain), "table": None}
        if how == 1:
            width = self.rng.choice((62, 63, 64, 65, 66))
            cell = ("1" * width)[:width - 2] + ".5"
            return {"program": steps(("table_sum", "x", "none")), "table": [["x", cell, "2"]]}
        digits = self.rng.choice((8, 9, 10, 11))
        return {"program": steps(("add", "1", "1"), ("add", "#" + "0" * digits, "1")), "table": None}

    def exponent(self) -> Case:
        chain = [("exp", self.rng.choice(BASES), self.rng.choice(EXPONENTS))]
        if self.rng.random() < 0.4:
            chain.append((self.rng.choice(ARITHMETIC), "#0", self.rng.choice(("1", "#0", "0.5"))))
        return {"program": steps(*chain), "table": None}

    def text_flow(self) -> Case:
        chain = [("greater", self.rng.choice(("2", "1")), "1"), ("greater", "1", "2")]
        for k in range(2, self.rng.randint(3, 12)):
            op = self.rng.choice(("add", "add", "greater", "multiply", "subtract"))
            chain.append((op, f"#{self.rng.randrange(k)}", f"#{self.rng.randrange(k)}"))
        return {"program": steps(*chain), "table": None}

    def integer_flow(self) -> Case:
        chain = [("table_sum", "empty", "none"), ("exp", "#0", "#0"), ("add", "#1", "#1")]
        sizes = [0, 1, 2]  # bit lengths of integer steps, -1 for any other value
        while len(chain) < self.rng.randint(4, 14):
            k = len(chain)
            op = self.rng.choice(("add", "subtract", "multiply", "exp", "exp", "divide", "greater"))
            a = self.rng.randrange(k)
            b_text = self.rng.choice((f"#{self.rng.randrange(k)}", "2", "0.5", "-1"))
            b = int(b_text[1:]) if b_text.startswith("#") else None
            size = -1
            if sizes[a] >= 0 and b is not None and sizes[b] >= 0:
                if op == "exp":  # keep powers below a few hundred thousand bits: the official run stays quick
                    if sizes[b] > 20 or sizes[a] * (1 << sizes[b]) > 300_000:
                        continue
                    size = max(1, sizes[a] * (1 << sizes[b]))
                elif op in ("add", "subtract"):
                    size = max(sizes[a], sizes[b]) + 1
                elif op == "multiply":
                    size = sizes[a] + sizes[b]
            chain.append((op, f"#{a}", b_text))
            sizes.append(size)
        return {"program": steps(*chain), "table": [["empty"]]}

    def sum_order(self) -> Case:
        big = self.rng.choice(("1e16", "1e17", "9007199254740992", "1e100"))
        cells = [big, "1", "-" + big, "0.1", "1e-17", "2.675"]
        self.rng.shuffle(cells)
        op = self.rng.choice(("table_sum", "table_average"))
        return {"program": steps((op, "x", "none")), "table": [["x", *cells]]}

    FAMILIES: dict[str, Callable[["Generator"], Case]] = {
        "odd_literal": odd_literal, "odd_reference": odd_reference, "damaged": damaged, "delimiter": delimiter,
        "long_chain": long_chain, "exponent": exponent, "text_flow": text_flow, "integer_flow": integer_flow,
        "sum_order": sum_order,
    }

    def cases(self, count: int) -> Iterator[Case]:
        names = list(self.FAMILIES)
        for number in range(count):
            family = names[number % len(names)]
            case = self.FAMILIES[family](self)
            case["family"] = family
            yield case


def issue_cases() -> list[Case]:
    """The programs issue #11 names."""
    doubling = [("greater", "2", "1")] + [("add", f"#{k - 1}", f"#{k - 1}") for k in range(1, 20)]
    tower = [("table_sum", "empty", "none"), ("exp", "#0", "#0"), ("add", "#1", "#1"), ("exp", "#2", "#2"),
             ("exp", "#3", "#2"), ("exp", "#2", "#4"), ("exp", "#2", "#5"), ("subtract", "#6", "#6")]
    return [
        {"program": ["add(", "1", "2", ")", "add(", "#\x1c0", "3", ")", EOF], "table": None},
        {"program": ["add(", "1", "2", ")", "add(", "0\x1c#", "3", ")", EOF], "table": None},
        {"program": ["add(", "1", "2", ")", "add(", "#0\x1f#", "3", ")", EOF], "table": None},
        {"program": ["table_max(", "x", "none", ")", "table_min(", "#\x1c0", "none", ")", EOF],
         "table": [["x", "5", "7"]]},
        {"program": ["add(", "\U00011F51", "1", ")", EOF], "table": None},
        {"program": steps(*doubling, ("greater", "#19", "#0")), "table": None},
        {"program": steps(*tower), "table": [["empty"]]},
    ]


def generate(count: int, seed: int) -> list[Case]:
    cases = [dict(case, family="issue") for case in issue_cases()]
    cases += list(Generator(seed).cases(count))
    for number, case in enumerate(cases):
        case["id"] = f"diff-{seed}-{number}"
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    for case in generate(options.count, options.seed):
        sys.stdout.write(json.dumps(case, ensure_ascii=True) + "\n")


if __name__ == "__main__":
    main()
