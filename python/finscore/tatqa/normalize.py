"""Answer text as the official TAT-QA metric compares it.

Each space-separated token is lowered, stripped of punctuation unless it reads
as a number, rewritten as `str(number)` when it reads as one, cleared of the
articles a/an/the, and whitespace-collapsed; empty tokens are dropped. The
order of these steps matters ("(134)" becomes "-134" because punctuation is
kept on numbers) and follows `normalize_answer` of `tatqa_utils.py`.
"""

from __future__ import annotations

import re
import string
from functools import lru_cache

from finscore.tatqa.numbers import looks_numeric, read_number

_PUNCTUATION = str.maketrans("", "", string.punctuation)
#: Tokens repeat across answers; normalizing one is a pure function of its text.
_CACHED_TOKENS = 1 << 16
_ARTICLE = re.compile(r"\b(?:a|an|the)\b")
#: What the official ws_tokenize strips from both ends of each token.
_TOKEN_EDGES = string.punctuation + "‘’´`_"


def _without_punctuation(text: str) -> str:
    return text if looks_numeric(text) else text.translate(_PUNCTUATION)


def _number_text(text: str) -> str:
    return str(read_number(text)) if looks_numeric(text) else text


@lru_cache(maxsize=_CACHED_TOKENS)
def normalize_token(token: str) -> str:
    """One token, normalized; may be empty or hold spaces (an article removed)."""
    text = _number_text(_without_punctuation(token.lower()))
    return " ".join(_ARTICLE.sub(" ", text).split())


@lru_cache(maxsize=_CACHED_TOKENS)
def normalize_answer(text: str) -> str:
    """The official normalize_answer: the normalized tokens joined by single spaces."""
    parts = [normalize_token(token) for token in text.split(" ")]
    return " ".join(part for part in parts if part.strip()).strip()


def whitespace_tokens(text: str) -> list[str]:
    """The official ws_tokenize: lowered whitespace tokens with punctuation stripped from their ends."""
    text = text.strip().lower()
    if not text:
        return []
    return [token.strip(_TOKEN_EDGES) for token in text.split()]
