"""A session's messages in the one shape the gate reads. Anthropic's Messages API carries
a tool's result in a *user* message (`{"type": "tool_result", …}` blocks) and the agent's
calls as `tool_use` blocks; OpenAI's Responses API sends results as `function_call_output`
items. Read as they come, a result would be taken for the user's own words (or dropped),
and an instruction planted in it would license what it asks for. Such messages are split
here into the user's text and `role: "tool"` results (and the agent's calls) before
anything reads them; every other message passes through as it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage

__all__ = ["chat_messages"]

#: Blocks read per message: a message of more is cut here (its first blocks are kept).
_MAX_BLOCKS = 256
_USER_ROLES = frozenset(["user", "human"])
_AGENT_ROLES = frozenset(["assistant", "ai"])


def chat_messages(messages: Sequence[Any] | str | None) -> Sequence[Any] | str | None:
    """`messages` with Anthropic-shaped tool results and calls made chat messages of their
    own (see the module's docstring); the same object when none is."""
    if messages is None or isinstance(messages, str) or not isinstance(messages, Sequence):
        return messages
    if not any(_blocks_of(m) or _item_of(m) is not None for m in messages):
        return messages
    out: list[Any] = []
    for message in messages:
        blocks = _blocks_of(message)
        item = None if blocks else _item_of(message)
        out.extend(_split(message, blocks) if blocks else [item] if item else [message])
    return out


def _item_of(message: Any) -> dict[str, Any] | None:
    """OpenAI's other shapes as chat messages: a Responses API `function_call_output` or
    `function_call` item, a legacy `role: "function"` result; None for any other."""
    if not isinstance(message, Mapping):
        return None
    kind = message.get("type")
    if kind == "function_call_output":
        return {"role": "tool", "tool_call_id": str(message.get("call_id") or ""),
                "content": _result_text(message.get("output"))}  # fmt: skip
    if kind == "function_call":
        arguments = message.get("arguments")
        try:
            args = json.loads(arguments) if isinstance(arguments, str) else arguments
        except ValueError:
            args = {"arguments": arguments}
        call = {"id": str(message.get("call_id") or ""), "name": str(message.get("name") or ""),
                "args": args if isinstance(args, Mapping) else {"arguments": args}}  # fmt: skip
        return {"role": "assistant", "content": "", "tool_calls": [call]}
    if message.get("role") == "function":
        return {"role": "tool", "name": str(message.get("name") or ""),
                "content": _result_text(message.get("content"))}  # fmt: skip
    return None


def _blocks_of(message: Any) -> list[Mapping[str, Any]]:
    """The content blocks of a message that carries a tool's result or call ([] if none)."""
    content = message.content if isinstance(message, BaseMessage) else (
        message.get("content") if isinstance(message, Mapping) else None
    )  # fmt: skip
    if not isinstance(content, list):
        return []
    blocks = [b for b in content[:_MAX_BLOCKS] if isinstance(b, Mapping)]
    if any(b.get("type") in ("tool_result", "tool_use") for b in blocks):
        return blocks
    return []


def _role_of(message: Any) -> str:
    if isinstance(message, BaseMessage):
        return {"human": "user", "ai": "assistant"}.get(message.type, message.type)
    role = message.get("role") if isinstance(message, Mapping) else None
    return str(role) if role is not None else ""


def _split(message: Any, blocks: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    role = _role_of(message)
    text = "\n".join(
        str(b.get("text")) for b in blocks if b.get("type") == "text" and b.get("text")
    )
    results = [
        {
            "role": "tool",
            "tool_call_id": str(b.get("tool_use_id") or ""),
            "content": _result_text(b.get("content")),
        }
        for b in blocks
        if b.get("type") == "tool_result"
    ]
    calls = [
        {"id": str(b.get("id") or ""), "name": str(b.get("name") or ""), "args": b.get("input")}
        for b in blocks
        if b.get("type") == "tool_use"
    ]
    if role in _AGENT_ROLES:
        return [{"role": "assistant", "content": text, "tool_calls": calls}]
    # the user's own text in the same message, then the results it carries (as Claude
    # Code's transcript is read); a result is never the user's words
    said = [{"role": "user", "content": text}] if text and role in _USER_ROLES else []
    return [*said, *results]


def _result_text(content: Any) -> Any:
    """A result's content: its text blocks joined, or the content as it is."""
    if isinstance(content, list):
        parts = [
            str(b.get("text", "")) if isinstance(b, Mapping) else str(b)
            for b in content[:_MAX_BLOCKS]
        ]
        return "\n".join(p for p in parts if p)
    return content if content is not None else ""
