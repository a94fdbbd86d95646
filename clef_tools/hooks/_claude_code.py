"""Claude Code's hook protocol: the events the gate reads and the answers it gives.

Stdlib only: the hook client imports this on every tool call, and a hook that spends its
time importing is a hook users turn off. The protocol is Claude Code's (its "Hooks
reference", https://code.claude.com/docs/en/hooks): one JSON event on stdin, and for
`PreToolUse` a JSON answer on stdout whose `hookSpecificOutput.permissionDecision` is
`allow`, `ask` or `deny` with a `permissionDecisionReason`; exit 0 either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

__all__ = [
    "DECISION_EVENT",
    "EVENTS",
    "HOST",
    "HookEventError",
    "Permission",
    "check_event",
    "permission_output",
]

HOST = "claude-code"
DECISION_EVENT = "PreToolUse"
#: The events the gate reads: the user's words, the calls, their results.
EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "SessionEnd")
Permission = Literal["allow", "ask", "deny"]

#: What Claude Code's hook runner gives a hook, at most (a larger event is refused).
MAX_EVENT_BYTES = 8 * 1024 * 1024


class HookEventError(ValueError):
    """An event the gate cannot read: it says which field, and the answer is `ask`."""


def check_event(event: Any) -> dict[str, Any]:
    """The event, checked for the fields its kind needs (a typed error naming the field)."""
    if not isinstance(event, Mapping):
        raise HookEventError("the hook event must be a JSON object")
    name = event.get("hook_event_name")
    if not isinstance(name, str) or not name:
        raise HookEventError("hook_event_name: missing (a Claude Code hook event names itself)")
    session = event.get("session_id")
    if session is not None and not isinstance(session, str):
        raise HookEventError("session_id: must be a string")
    if name == "PreToolUse" or name == "PostToolUse":
        if not isinstance(event.get("tool_name"), str) or not event["tool_name"]:
            raise HookEventError("tool_name: missing or not a string")
        if not isinstance(event.get("tool_input", {}), Mapping):
            raise HookEventError("tool_input: must be a JSON object")
        call_id = event.get("tool_use_id")
        if call_id is not None and not isinstance(call_id, str):
            raise HookEventError("tool_use_id: must be a string")
    if name == "UserPromptSubmit" and not isinstance(event.get("prompt", ""), str):
        raise HookEventError("prompt: must be a string")
    path = event.get("transcript_path")
    if path is not None and not isinstance(path, str):
        raise HookEventError("transcript_path: must be a string")
    return dict(event)


def permission_output(permission: Permission, reason: str) -> dict[str, Any]:
    """A `PreToolUse` answer in Claude Code's documented shape."""
    return {
        "hookSpecificOutput": {
            "hookEventName": DECISION_EVENT,
            "permissionDecision": permission,
            "permissionDecisionReason": reason,
        }
    }
