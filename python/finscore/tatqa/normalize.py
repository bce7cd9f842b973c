"""Answer text as the official TAT-QA metric compares it.

Each space-separated token is lowered, stripped of punctuation unless it reads
as a number, rewritten as `str(number)` when it reads as one, cleared of the
articles a/an/the, and whitespace-collapsed; empty tokens are dropped. The
order of these steps matters ("(134)" becomes "-134" because punctuation is
kept on numbers) and follows `normalize_answer` of `tatqa_utils.py`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from finscore.tatqa.numbers import NOT_A_NUMBER, number_reading

#: `string.punctuation`, written out: importing `string` compiles its Template pattern, about 2.8 M
#: instructions of every `finscore tatqa` run (benchmarks/README.md, #29); tests/tatqa/test_normalize.py
#: checks it against the module.
ASCII_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
_PUNCTUATION = str.maketrans("", "", ASCII_PUNCTUATION)
#: Tokens repeat across answers; normalizing one is a pure function of its text.
_CACHED_TOKENS = 1 << 16
_ARTICLE = re.compile(r"\b(?:a|an|the)\b")
_ARTICLES = frozenset({"a", "an", "the"})
#: The words of ASCII letters that float() reads (as an infinity), so that is_number takes them.
_LETTER_NUMBERS = frozenset({"inf", "infinity"})
#: What the official ws_tokenize strips from both ends of each token.
_TOKEN_EDGES = ASCII_PUNCTUATION + "‘’´`_"


@lru_cache(maxsize=_CACHED_TOKENS)
def normalize_token(token: str) -> str:
    """One token, normalized; may be empty or hold spaces (an article removed)."""
    text = token.lower()
    if text.isalpha() and text.isascii():
        # A word of ASCII letters has no punctuation and no inner word boundary, and is no
        # number unless float() reads it: it is itself, or nothing if it is an article.
        if text in _ARTICLES:
            return ""
        if text not in _LETTER_NUMBERS:
            return text
    reading = number_reading(text)
    if reading is NOT_A_NUMBER:  # punctuation is removed from what is not a number
        text = text.translate(_PUNCTUATION)
        reading = number_reading(text)
    if reading is not NOT_A_NUMBER:
        text = str(reading)
    return " ".join(_ARTICLE.sub(" ", text).split())


@lru_cache(maxsize=_CACHED_TOKENS)
def normalize_answer(text: str) -> str:
    """The official normalize_answer: the normalized tokens joined by single spaces.

    Each normalized token is empty or has no outer whitespace, so the official
    `part.strip()` test and the final strip reduce to dropping empty tokens.
    """
    return " ".join([part for part in map(normalize_token, text.split(" ")) if part])


def whitespace_tokens(text: str) -> list[str]:
    """The official ws_tokenize: lowered whitespace tokens with punctuation stripped from their ends."""
    text = text.strip().lower()
    if not text:
        return []
    return [token.strip(_TOKEN_EDGES) for token in text.split()]
