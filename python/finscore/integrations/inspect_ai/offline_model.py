"""`--model finscore-mock/model`: inspect's mock model, counting tokens without tiktoken, for offline runs.

inspect's `mockllm/model` gives each output a token usage counted with tiktoken's `o200k_base`
encoding, a file tiktoken downloads on first use; offline (no network, no TIKTOKEN_CACHE_DIR
holding it) every model call raises and every kit case is `crashed`. This provider is that same
mock model (its outputs, its `custom_outputs`) with the count made from the text alone: one token
per 4 UTF-8 bytes, at least 1. The counts are an estimate, used only for inspect's usage figures;
no finscore decision reads them. Read at inspect_ai 0.3.285 (inspect_ai/model/_providers/mockllm.py,
`MockLLM._ensure_default_usage` calls `count_tokens`, and `ModelAPI.count_text_tokens` tiktoken).
"""

from __future__ import annotations

from inspect_ai.model import ModelAPI, modelapi


def estimated_tokens(text: str) -> int:
    """One token per 4 UTF-8 bytes, at least 1: deterministic, and needing no tokenizer file."""
    return max(1, len(text.encode("utf-8", "surrogatepass")) // 4)


@modelapi(name="finscore-mock")
def finscore_mock() -> type[ModelAPI]:
    """The provider (inspect finds it through finscore's entry point, as it finds the tasks)."""
    from inspect_ai.model._providers.mockllm import MockLLM  # inspect's own mock; no public path to subclass it

    class OfflineMockLLM(MockLLM):
        async def count_text_tokens(self, text: str) -> int:
            return estimated_tokens(text)

    return OfflineMockLLM
