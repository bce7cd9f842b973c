"""The TAT-QA normalizer's constants against the CPython module they stand in for."""

from __future__ import annotations

import string

from finscore.tatqa.normalize import ASCII_PUNCTUATION


def test_the_punctuation_is_cpythons_string_punctuation() -> None:
    # Written out so that a run does not import `string`; the official metric strips string.punctuation.
    assert ASCII_PUNCTUATION == string.punctuation
