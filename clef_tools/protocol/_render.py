"""Stable text for a state: the same state always renders to the same bytes.

Stability is what makes the shared prefix (and, across requests, the prefix KV cache)
exact: a string is kept verbatim, JSON is canonical (sorted keys, compact separators,
UTF-8 kept), and chat messages become a role-tagged transcript in which each message
renders on its own, so appending a message only appends text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage

__all__ = ["canonical_json", "is_transcript", "render_content", "render_state", "to_jsonable"]

_ROLE_NAMES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}
_MESSAGE_KEYS = frozenset({"role", "content", "name", "tool_calls", "tool_call_id", "id", "type"})


def canonical_json(value: object) -> str:
    """Sorted keys, no whitespace, non-ASCII kept: one spelling per JSON value."""
    return json.dumps(
        to_jsonable(value),
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        allow_nan=False,
    )


def to_jsonable(value: object) -> Any:
    """Replace LangChain messages (at any depth) with plain `{role, content, …}` objects."""
    if isinstance(value, BaseMessage):
        return _message_dict(value)
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, str | bytes | bytearray):
        return [to_jsonable(v) for v in value]
    return value


def render_state(state: object) -> str:
    """The text a language-model backend reads for `state`."""
    if isinstance(state, str):
        return state
    if isinstance(state, BaseMessage):
        return _render_message(_message_dict(state))
    if is_transcript(state):
        assert isinstance(state, Sequence)
        return "\n\n".join(_render_message(to_jsonable(m)) for m in state)
    return canonical_json(state)


def render_content(content: object) -> str:
    """Instructions and option descriptions: text verbatim, anything else canonical JSON."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return canonical_json(content)


def is_transcript(state: object) -> bool:
    if not isinstance(state, Sequence) or isinstance(state, str | bytes | bytearray) or not state:
        return False
    return all(
        isinstance(m, BaseMessage)
        or (
            isinstance(m, Mapping)
            and isinstance(m.get("role"), str)
            and "content" in m
            and set(m) <= _MESSAGE_KEYS
        )
        for m in state
    )


def _message_dict(message: BaseMessage) -> dict[str, Any]:
    out: dict[str, Any] = {
        "role": _ROLE_NAMES.get(message.type, message.type),
        "content": to_jsonable(message.content),
    }
    if message.name:
        out["name"] = message.name
    tool_calls = getattr(message, "tool_calls", None)
    if tool_calls:
        out["tool_calls"] = [
            {"name": c.get("name"), "args": to_jsonable(c.get("args", {}))} for c in tool_calls
        ]
    tool_call_id = getattr(message, "tool_call_id", None)
    if tool_call_id:
        out["tool_call_id"] = tool_call_id
    return out


def _render_message(message: Mapping[str, Any]) -> str:
    role = str(message.get("role", "user"))
    if message.get("name"):
        role = f"{role} ({message['name']})"
    body = _render_blocks(message.get("content"))
    for call in message.get("tool_calls") or ():
        fn = call.get("function") if isinstance(call, Mapping) else None
        name = call.get("name") or (fn or {}).get("name")
        args = call.get("args", (fn or {}).get("arguments", {}))
        body += f"\n[tool call] {name}({render_content(args)})"
    return f"[{role}]: {body}"


def _render_blocks(content: object) -> str:
    if isinstance(content, str) or content is None:
        return content or ""
    if isinstance(content, Sequence) and not isinstance(content, bytes | bytearray):
        parts = []
        for block in content:
            if isinstance(block, Mapping) and block.get("type") == "text" and "text" in block:
                parts.append(str(block["text"]))
            else:
                parts.append(render_content(block))
        return "\n".join(parts)
    return render_content(content)
