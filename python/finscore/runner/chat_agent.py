"""The old path of the chat-completions candidate; it lives in `finscore.runner.agents.chat`."""

from finscore.runner.agents.chat import (
    MAX_ARGUMENT_TEXT,
    SYSTEM_PROMPT,
    ChatCompletionsAgent,
    ChatEndpoint,
    EndpointTimeout,
    build_messages,
    parse_reply,
    session_message,
    tool_definitions,
)

__all__ = ["MAX_ARGUMENT_TEXT", "SYSTEM_PROMPT", "ChatCompletionsAgent", "ChatEndpoint", "EndpointTimeout",
           "build_messages", "parse_reply", "session_message", "tool_definitions"]
