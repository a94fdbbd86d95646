"""Claude Code's hook protocol as its documentation states it (the peer cannot run here)."""

from __future__ import annotations

from typing import Any

#: Claude Code's documented PreToolUse answer (Hooks reference, "PreToolUse decision control").
PRE_TOOL_USE_OUTPUT: dict[str, Any] = {
    "type": "object",
    "required": ["hookSpecificOutput"],
    "properties": {
        "hookSpecificOutput": {
            "type": "object",
            "required": ["hookEventName", "permissionDecision", "permissionDecisionReason"],
            "properties": {
                "hookEventName": {"const": "PreToolUse"},
                "permissionDecision": {"enum": ["allow", "deny", "ask"]},
                "permissionDecisionReason": {"type": "string", "minLength": 1},
            },
            "additionalProperties": False,
        }
    },
}
