"""Each agent host's hook dialect, translated to one canonical event and back.

The engine speaks Claude Code's events (the most complete protocol); a host here maps its
own events onto them and the engine's answer onto its own output. Stdlib only: the hook
client uses this on every call. Sources, cited in docs/hooks.md: Claude Code's hooks
reference, Gemini CLI's hooks reference (docs/hooks/reference.md in google-gemini/gemini-cli),
Cursor's agent hooks (cursor.com/docs/agent/hooks), Codex's hooks
(developers.openai.com/codex/hooks).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from clef_tools.hooks._claude_code import DECISION_EVENT, permission_output

__all__ = ["HOSTS", "Host", "host"]

Canonical = dict[str, Any]


@dataclass(frozen=True)
class Host:
    name: str
    to_canonical: Callable[[Mapping[str, Any]], Canonical]
    """The host's event as the engine reads it (`hook_event_name` one of Claude Code's)."""
    answer: Callable[[Mapping[str, Any] | None, Mapping[str, Any]], dict[str, Any] | None]
    """The engine's answer (Claude Code's output, or None) as the host's output for its
    event (None: print nothing)."""
    settings: Callable[[str, int], dict[str, Any]]
    """The hook entries `hook install` writes: event → entries, for a command and timeout."""
    can_ask: bool
    """Whether the host can put a question to the person (else an escalation is a denial)."""


def _permission(output: Mapping[str, Any] | None) -> tuple[str, str] | None:
    hook = output.get("hookSpecificOutput") if output else None
    if not isinstance(hook, Mapping) or "permissionDecision" not in hook:
        return None
    return str(hook["permissionDecision"]), str(hook.get("permissionDecisionReason", ""))


# Claude Code: the engine's own dialect


def _claude_answer(output: Mapping[str, Any] | None, event: Mapping[str, Any]) -> Any:
    return dict(output) if output is not None else None


def _claude_settings(command: str, timeout_s: int) -> dict[str, Any]:
    entry = {"hooks": [{"type": "command", "command": command, "timeout": timeout_s}]}
    return {
        "SessionStart": [entry],
        "UserPromptSubmit": [entry],
        "PreToolUse": [{"matcher": "*", **entry}],
        "PostToolUse": [{"matcher": "*", **entry}],
    }


# Gemini CLI: BeforeAgent / BeforeTool / AfterTool; `decision` allow | deny, no "ask"

_GEMINI_EVENTS = {
    "BeforeAgent": "UserPromptSubmit",
    "BeforeTool": "PreToolUse",
    "AfterTool": "PostToolUse",
    "SessionStart": "SessionStart",
    "SessionEnd": "SessionEnd",
}


def _gemini_event(event: Mapping[str, Any]) -> Canonical:
    name = str(event.get("hook_event_name", ""))
    out: Canonical = {
        "hook_event_name": _GEMINI_EVENTS.get(name, name),
        "session_id": event.get("session_id"),
    }
    for key in ("prompt", "tool_name", "tool_input", "tool_response", "cwd"):
        if key in event:
            out[key] = event[key]
    return out


def _gemini_answer(output: Mapping[str, Any] | None, event: Mapping[str, Any]) -> Any:
    decided = _permission(output)
    if decided is None:
        return {} if event.get("hook_event_name") == DECISION_EVENT else None
    permission, reason = decided
    if permission == "allow":
        return {"decision": "allow", "reason": reason}
    # Gemini CLI's hooks cannot ask the person: what needs their approval is not run
    if permission == "ask":
        reason += " (needs your approval: Gemini CLI hooks cannot ask, so it was blocked)"
    return {"decision": "deny", "reason": reason, "systemMessage": reason}


def _gemini_settings(command: str, timeout_s: int) -> dict[str, Any]:
    entry = {
        "hooks": [
            {"type": "command", "command": command, "name": "clef-tools gate",
             "timeout": timeout_s * 1000}
        ]
    }  # fmt: skip
    return {
        "SessionStart": [entry],
        "BeforeAgent": [entry],
        "BeforeTool": [{"matcher": ".*", **entry}],
        "AfterTool": [{"matcher": ".*", **entry}],
    }


# Cursor: beforeSubmitPrompt, preToolUse / postToolUse and the specific before*/after* events;
# `permission` allow | deny | ask

_CURSOR_PRE = {"preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile"}
_CURSOR_POST = {"postToolUse", "afterShellExecution", "afterMCPExecution"}


def _cursor_tool(event: Mapping[str, Any]) -> tuple[str, Any]:
    name = str(event.get("hook_event_name", ""))
    if name in ("beforeShellExecution", "afterShellExecution"):
        return "Shell", {"command": event.get("command", ""), "cwd": event.get("cwd")}
    if name == "beforeReadFile":  # its `content` is the file: not an argument
        return "Read", {"file_path": event.get("file_path", "")}
    tool = str(event.get("tool_name", ""))
    if tool.startswith("MCP:") and tool.count(":") >= 2:
        _, server, bare = tool.split(":", 2)
        tool = f"mcp__{server}__{bare}"
    given = event.get("tool_input", {})
    if isinstance(given, str):  # beforeMCPExecution may send its arguments as JSON text
        try:
            given = json.loads(given)
        except ValueError:
            given = {"input": given}
    return tool, given


def _cursor_event(event: Mapping[str, Any]) -> Canonical:
    name = str(event.get("hook_event_name", ""))
    out: Canonical = {"session_id": event.get("conversation_id") or event.get("session_id")}
    for key in ("cwd", "workspace_roots"):  # where the session works: its paths are the project's
        if key in event:
            out[key] = event[key]
    if name == "beforeSubmitPrompt":
        out |= {"hook_event_name": "UserPromptSubmit", "prompt": event.get("prompt", "")}
    elif name in _CURSOR_PRE or name in _CURSOR_POST:
        tool, given = _cursor_tool(event)
        out |= {
            "hook_event_name": "PreToolUse" if name in _CURSOR_PRE else "PostToolUse",
            "tool_name": tool,
            "tool_input": given,
        }
        for key in ("tool_use_id", "tool_call_id"):
            if isinstance(event.get(key), str):
                out["tool_use_id"] = event[key]
        if name in _CURSOR_POST:
            out["tool_response"] = (
                event.get("tool_output") or event.get("output") or event.get("result_json")
            )
    elif name in ("sessionStart", "sessionEnd"):
        out["hook_event_name"] = "SessionStart" if name == "sessionStart" else "SessionEnd"
    else:
        out["hook_event_name"] = name
    return out


def _cursor_answer(output: Mapping[str, Any] | None, event: Mapping[str, Any]) -> Any:
    decided = _permission(output)
    if event.get("hook_event_name") == "UserPromptSubmit":
        return {"continue": True}
    if decided is None:
        return {} if event.get("hook_event_name") == DECISION_EVENT else None
    permission, reason = decided
    return {"permission": permission, "user_message": reason, "agent_message": reason}


def _cursor_settings(command: str, timeout_s: int) -> dict[str, Any]:
    entry = [{"command": command, "timeout": timeout_s}]
    return {name: entry for name in ("sessionStart", "beforeSubmitPrompt", "preToolUse",
                                     "postToolUse")}  # fmt: skip


# Codex CLI: Claude Code's protocol (same fields, same output, a `hooks.json`), with
# PreToolUse for shell calls and only `deny` honoured: an allow says nothing (Codex's own
# approval policy applies), an escalation is a denial that says it needs approval


def _codex_answer(output: Mapping[str, Any] | None, event: Mapping[str, Any]) -> Any:
    decided = _permission(output)
    if decided is None:
        return None
    permission, reason = decided
    if permission == "allow":
        return None
    if permission == "ask":
        reason += " (needs your approval: Codex hooks cannot ask, so it was blocked)"
    return permission_output("deny", reason)


def _codex_settings(command: str, timeout_s: int) -> dict[str, Any]:
    entry = {"hooks": [{"type": "command", "command": command, "timeout": timeout_s}]}
    return {name: [entry] for name in ("SessionStart", "UserPromptSubmit", "PreToolUse",
                                       "PostToolUse")}  # fmt: skip


HOSTS: dict[str, Host] = {
    "claude-code": Host("claude-code", dict, _claude_answer, _claude_settings, can_ask=True),
    "gemini-cli": Host("gemini-cli", _gemini_event, _gemini_answer, _gemini_settings, False),
    "cursor": Host("cursor", _cursor_event, _cursor_answer, _cursor_settings, can_ask=True),
    "codex": Host("codex", dict, _codex_answer, _codex_settings, can_ask=False),
}


def host(name: str) -> Host:
    found = HOSTS.get(name)
    if found is None:
        raise ValueError(f"unknown host {name!r}; known: {', '.join(HOSTS)}")
    return found
