"""The text a trainer hands over, reduced to what finscore reads.

Trainers pass completions as text, as chat messages (TRL's conversational format),
or as the prompt and the response joined (OpenRLHF's queries). Each becomes the
model's own text here, in one place, so every adapter reads them alike.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from finscore.rewards.errors import RewardInputError


def completion_text(completion: Any, *, row: int) -> str | None:
    """The text of a plain or conversational completion (its last assistant message)."""
    if completion is None or isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence) and all(isinstance(m, Mapping) for m in completion):
        for message in reversed(completion):
            if message.get("role", "assistant") == "assistant":
                content = message.get("content")
                if content is None or isinstance(content, str):
                    return content
                raise RewardInputError(f"a message's content is a {type(content).__name__}, not text",
                                       column="completions", row=row)
        return None
    raise RewardInputError(f"a completion is text or a list of messages, not a {type(completion).__name__}",
                           column="completions", row=row)


def response_of_query(query: str, prompt: str, *, row: int) -> str:
    """OpenRLHF's query is the prompt followed by the response: the response alone."""
    if not isinstance(query, str) or not isinstance(prompt, str):
        raise RewardInputError("queries and prompts must be text", column="query", row=row)
    if not query.startswith(prompt):
        raise RewardInputError("the query does not start with its prompt", column="query", row=row)
    return query[len(prompt):]
