"""The fast path reads clean programs exactly as the full reader does.

Wherever `read_fast` gives a core program, the full reader (both profiles) must
produce the same core program with no quirk and no failure; checked on every
program of the recorded vectors and on generated ones.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.shared import table_of, vector_rows

from finscore.lowering import lower
from finscore.reader.fast import FastReadCache, read_fast
from finscore.reader.read import read_program


def same_program(a, b) -> bool:
    """Equal core programs, NaN literals compared as NaN."""
    def key(program):
        return [(s.op, tuple((x.kind, x.index, x.length, "nan" if math.isnan(x.number) else x.number)
                             for x in (s.first, s.second))) for s in program.steps], program.table_values
    return key(a) == key(b)


def check(tokens, table, cache: FastReadCache) -> bool:
    fast = read_fast(tokens, table, cache)
    if fast is None:
        return False
    for strict in (False, True):
        read = read_program(tokens, table, strict=strict)
        assert read.failure is None and read.quirks == () and read.skipped == (), tokens
        lowered = lower(read, official=not strict)
        assert lowered is not None and same_program(lowered.program, fast), tokens
    return True


@pytest.mark.parametrize("name", ["gold", "mutants", "fuzz"])
def test_fast_path_agrees_with_the_full_reader_on_every_vector(name: str) -> None:
    cache = FastReadCache()
    answered = total = 0
    for row in vector_rows(name):
        available, table = table_of(row)
        if not available:
            continue
        total += 1
        answered += check(row["program"], table, cache)
    assert answered > 0.5 * total if name != "fuzz" else answered > 0


TOKENS = st.sampled_from(["add(", "subtract(", "multiply(", "divide(", "exp(", "greater(", "table_max(",
                          "table_sum(", ")", "EOF", "#0", "#1", "#2", " #0", "1", "2.5", "-3", "1,000", "12%",
                          "const_100", "const_m1", "nan", "1e5", "revenue", "x", "none", "", "a|b", "1)"])


@settings(max_examples=3000, deadline=None)
@given(st.lists(TOKENS, max_size=14))
def test_fast_path_agrees_on_generated_token_lists(tokens: list[str]) -> None:
    table = [["", "2019"], ["revenue", "$ 1,000", "2.5%"], ["x", "1"], ["x", "2"], ["none", "3"]]
    check(tokens, table, FastReadCache())
    check(tokens + ["EOF"], table, FastReadCache())


def test_odd_inputs_go_to_the_full_reader() -> None:
    cache = FastReadCache()
    table = [["revenue", "1"], ["empty"], ["dup", "1"], ["dup", "2"]]
    for tokens in (["add(", "1", "2", ")"], ["add(", " 1", "2", ")", "EOF"], ["add(", "1", "#0", ")", "EOF"],
                   ["greater(", "1", "2", ")", "add(", "#0", "1", ")", "EOF"], ["table_sum(", "empty", "none", ")", "EOF"],
                   ["table_sum(", "dup", "none", ")", "EOF"], ["table_sum(", "#0", "none", ")", "EOF"],
                   list(itertools.repeat("EOF", 1))):
        assert read_fast(tokens, table, cache) is None, tokens
