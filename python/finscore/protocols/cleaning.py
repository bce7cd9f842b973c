"""The answer-cleaning stage FinanceMath's `normalize` has and FinanceReasoning copied (before `eval()`).

The two copies differ in a few switches (lower-casing, the unit words, the boolean words, the
multiple-choice options, what an emptied answer becomes); the regular expressions are the peers'
own, so every edge (Unicode digits under `\\d`, `$` before a final newline) is theirs.
"""

from __future__ import annotations

import re

from finscore.protocols.arith import PeerRaised

_NUMBER = r"[-+]?(?:[\d,]*\.*\d+)"
_UNIT_AFTER = re.compile(_NUMBER + r" [^0-9 ]+$")
_UNIT_AFTER_GROUP = re.compile(r"(" + _NUMBER + r") [^0-9 ]+$")
_UNIT_BEFORE = re.compile(r"[^0-9 ]+ " + _NUMBER + r"$")
_UNIT_BEFORE_GROUP = re.compile(r"[^0-9 ]+ (" + _NUMBER + r")$")
_SUFFIX = re.compile(_NUMBER + r"[^\d]{1,2}$")
_SUFFIX_GROUP = re.compile(r"(" + _NUMBER + r")[^\d]{1,2}$")
_PREFIX = re.compile(r"[^-+\d]{1,2}(?:[\d,]*\.*\d+)$")
_PREFIX_GROUP = re.compile(r"[^-+\d]{1,2}((?:[\d,]*\.*\d+))$")
_POWER_OF_TEN = re.compile(r"10\^(-?\d+)")
_IS_NUMBER = re.compile(r"^[-+]?(\d{1,3}(,\d{3})*|(\d+))(\.\d+)?$")
_OPTION = re.compile(r"\([a-d]\)")


def _group(pattern: re.Pattern[str], text: str, group: int = 1) -> str:
    found = pattern.search(text)
    if found is None:  # never: each search follows a match of the same shape (the peer would raise here)
        raise PeerRaised("AttributeError", "'NoneType' object has no attribute 'group'")
    return found.group(group)


def clean_answer(prediction: str, *, lower: bool, units: tuple[str, ...], bool_words: tuple[str, str],
                 options: bool, empty: str) -> str:
    """The text the peer hands to `eval()`, step by step in the peer's order."""
    text = prediction.strip()
    if lower:
        text = text.lower()
    text = text.rstrip(".")
    for unit in units:
        text = text.replace(unit, "")
    if "=" in text:
        text = text.split("=")[-1].strip()
    if "≈" in text:
        text = text.split("≈")[-1].strip()
    for mark in ("`", "%", "$", "°"):
        text = text.replace(mark, "")
    if text in ("true", "yes", "false", "no"):
        text = "True" if text in ("true", "yes") else "False"
    true_word, false_word = bool_words
    if true_word in text or false_word in text:
        text = "True" if true_word in text else "False"
    if "approximately" in text:
        text = text.replace("approximately", "").strip()
    if " or " in text:
        text = text.split(" or ")[0]
    if _UNIT_AFTER.match(text):
        text = _group(_UNIT_AFTER_GROUP, text)
    if _UNIT_BEFORE.match(text):
        text = _group(_UNIT_BEFORE_GROUP, text)
    if _SUFFIX.match(text):
        text = _group(_SUFFIX_GROUP, text)
    if _PREFIX.match(text):
        text = _group(_PREFIX_GROUP, text)
    if "10^" in text:
        text = _POWER_OF_TEN.sub(r"math.pow(10, \1)", text)
    if " x " in text:
        text = text.replace(" x ", "*")
    if " × " in text:
        text = text.replace(" × ", "*")
    if _IS_NUMBER.match(text):
        text = text.replace(",", "")
    if options and ("(a)" in text or "(b)" in text or "(c)" in text or "(d)" in text):
        text = '"' + _group(_OPTION, text, 0) + '"'
    return text or empty
