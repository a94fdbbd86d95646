"""The fast tier's own verdict: the real default gate, with a scorer that raises on every
question, on one request and, where given, one tool result before the call."""

from __future__ import annotations

from typing import Any

from clef_tools import GateDecision, ToolGate
from clef_tools.testing import BrokenDecider


def alone(
    said: str, tool: str, args: dict[str, Any], description: str | None = None
) -> GateDecision:
    return ToolGate(BrokenDecider()).judge(
        tool, args, description=description, messages=[{"role": "user", "content": said}]
    )


def in_session(said: str, result: str, tool: str, args: dict[str, Any]) -> GateDecision:
    messages = [
        {"role": "user", "content": said},
        {"role": "tool", "tool_call_id": "r1", "content": result},
    ]
    return ToolGate(BrokenDecider()).judge(tool, args, messages=messages)


def after_lookup(
    said: str, result: str, tool: str, args: dict[str, Any], *, lookup: str = "look_up"
) -> GateDecision:
    """`tool` called with `args`, after the agent called `lookup` and got `result`."""
    messages = [
        {"role": "user", "content": said},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"id": "c0", "name": lookup, "args": {}}],
        },
        {"role": "tool", "tool_call_id": "c0", "content": result},
    ]
    return ToolGate(BrokenDecider()).judge(tool, args, messages=messages)


def turns(*said: str) -> list[dict[str, Any]]:
    """The user's turns, each after the first answered by the agent's "Done." (tests set
    another answer where the agent's words matter)."""
    messages: list[dict[str, Any]] = []
    for n, turn in enumerate(said):
        if n:
            messages.append({"role": "assistant", "content": "Done."})
        messages.append({"role": "user", "content": turn})
    return messages
