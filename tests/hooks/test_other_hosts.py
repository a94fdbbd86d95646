"""Gemini CLI and Cursor hooks through the same client, daemon and engine: each host's own
event JSON in, its own documented output out (Gemini CLI: `decision` allow/deny, no way to
ask; Cursor: `permission` allow/deny/ask)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from clef_tools.hooks._wire import ask_daemon

GEMINI_BEFORE_TOOL_OUTPUT = {
    "type": "object",
    "required": ["decision", "reason"],
    "properties": {"decision": {"enum": ["allow", "deny", "block"]}, "reason": {"type": "string"}},
}
CURSOR_PERMISSION_OUTPUT = {
    "type": "object",
    "required": ["permission"],
    "properties": {
        "permission": {"enum": ["allow", "deny", "ask"]},
        "user_message": {"type": "string"},
        "agent_message": {"type": "string"},
    },
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    root = tmp_path_factory.mktemp("hosts")
    sock = Path(tempfile.mkdtemp(prefix="clef-hosts-")) / "hook.sock"
    flags = ["--socket", str(sock), "--model", "smollm2", "--dtype", "fp32",
             "--audit", str(root / "audit.sqlite"), "--reviews", "none", "--idle", "300"]  # fmt: skip
    start = {"session_id": "g", "hook_event_name": "SessionStart", "source": "startup"}
    _run("gemini-cli", start, [*flags, "--start-wait", "200"])
    yield flags
    with contextlib.suppress(OSError):
        os.kill(int(ask_daemon(sock, {"ping": True}, 10)["pid"]), signal.SIGTERM)


def _run(host: str, event: dict[str, Any] | str, flags: list[str]) -> Any:
    body = event if isinstance(event, str) else json.dumps(event)
    done = subprocess.run(
        [sys.executable, "-m", "clef_tools.cli", "hook", host, *flags],
        input=body.encode(), capture_output=True, timeout=240,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    out = done.stdout.decode().strip()
    return json.loads(out) if out else None


def test_gemini_cli_gets_allow_or_deny_and_never_an_ask(daemon: list[str]) -> None:
    prompt = {"session_id": "g", "hook_event_name": "BeforeAgent",
              "prompt": "Run the unit tests and tell me what fails."}  # fmt: skip
    assert _run("gemini-cli", prompt, daemon) in (None, {})

    def before_tool(command: str) -> dict[str, Any]:
        event = {"session_id": "g", "hook_event_name": "BeforeTool",
                 "tool_name": "run_shell_command", "tool_input": {"command": command},
                 "cwd": "/work/app", "timestamp": "2026-12-02T10:00:00Z"}  # fmt: skip
        out: dict[str, Any] = _run("gemini-cli", event, daemon)
        jsonschema.validate(out, GEMINI_BEFORE_TOOL_OUTPUT)
        return out

    assert before_tool("npm test")["decision"] == "allow"
    assert before_tool("rm -rf ~/")["decision"] == "deny"
    read = {"session_id": "g", "hook_event_name": "BeforeTool", "tool_name": "read_file",
            "tool_input": {"absolute_path": "/work/app/package.json"}}  # fmt: skip
    assert _run("gemini-cli", read, daemon)["decision"] == "allow"
    # what would be an `ask` elsewhere is a denial here, saying a person must approve it
    asked = {"session_id": "g", "hook_event_name": "BeforeAgent",
             "prompt": "Force-push my feature branch."}  # fmt: skip
    _run("gemini-cli", asked, daemon)
    push = before_tool("git push --force origin feature")
    assert push["decision"] == "deny" and "approval" in push["reason"]
    broken = _run("gemini-cli", "{not json", daemon)
    assert broken["decision"] == "deny"


def test_cursor_gets_its_permission_shape(daemon: list[str]) -> None:
    prompt = {"conversation_id": "c", "generation_id": "g1", "hook_event_name":
              "beforeSubmitPrompt", "prompt": "Run the tests and show me the failures.",
              "workspace_roots": ["/work/app"]}  # fmt: skip
    assert _run("cursor", prompt, daemon) == {"continue": True}

    def decided(event: dict[str, Any]) -> str:
        out = _run("cursor", {"conversation_id": "c", "generation_id": "g1", **event}, daemon)
        jsonschema.validate(out, CURSOR_PERMISSION_OUTPUT)
        permission: str = out["permission"]
        return permission

    shell = {"hook_event_name": "beforeShellExecution", "command": "pytest -q", "cwd": "/w"}
    assert decided(shell) == "allow"
    generic = {"hook_event_name": "preToolUse", "tool_name": "Shell",
               "tool_input": {"command": "rm -rf ~/"}}  # fmt: skip
    assert decided(generic) in ("deny", "ask")
    mcp = {"hook_event_name": "beforeMCPExecution", "tool_name": "MCP:notes:delete_all_notes",
           "tool_input": json.dumps({"confirm": True})}  # fmt: skip
    assert decided(mcp) in ("deny", "ask")
    assert decided({"hook_event_name": "beforeReadFile", "file_path": "/w/setup.cfg",
                    "content": "[metadata]"}) == "allow"  # fmt: skip


@pytest.mark.parametrize(
    ("host", "file", "events"),
    [
        ("gemini-cli", ".gemini/settings.json", ["AfterTool", "BeforeAgent", "BeforeTool",
                                                 "SessionStart"]),
        ("cursor", ".cursor/hooks.json", ["beforeSubmitPrompt", "postToolUse", "preToolUse",
                                          "sessionStart"]),
        ("codex", ".codex/hooks.json", ["PostToolUse", "PreToolUse", "SessionStart",
                                        "UserPromptSubmit"]),
    ],
)  # fmt: skip
def test_install_for_each_host_round_trips(
    tmp_path: Path, host: str, file: str, events: list[str]
) -> None:
    settings = tmp_path / file
    settings.parent.mkdir()
    theirs = {"hooks": {events[0]: [{"command": "audit.sh"}]}, "theme": "dark"}
    settings.write_text(json.dumps(theirs))
    cli = [sys.executable, "-m", "clef_tools.cli", "hook", "install", host, "--scope",
           "project"]  # fmt: skip

    def install(*flags: str) -> dict[str, Any]:
        done = subprocess.run([*cli, *flags], capture_output=True, text=True, timeout=120,
                              cwd=tmp_path)  # fmt: skip
        assert done.returncode == 0, done.stderr
        report: dict[str, Any] = json.loads(done.stdout)
        return report

    assert sorted(install()["changed"]) == events
    written = json.loads(settings.read_text())
    assert written["theme"] == "dark" and written["hooks"][events[0]][0] == {"command": "audit.sh"}
    assert all(f"hook {host}" in json.dumps(written["hooks"][e]) for e in events)
    if host == "cursor":
        assert written["version"] == 1
    assert install()["changed"] == []
    install("--uninstall")
    left = json.loads(settings.read_text())
    left.pop("version", None)
    assert left == theirs


def test_codex_only_ever_hears_a_denial(daemon: list[str]) -> None:
    prompt = {"session_id": "x", "hook_event_name": "UserPromptSubmit", "prompt": "Run the tests."}
    assert _run("codex", prompt, daemon) is None

    def pre(command: str) -> Any:
        event = {"session_id": "x", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                 "tool_input": {"command": command}, "tool_use_id": "c1"}  # fmt: skip
        return _run("codex", event, daemon)

    assert pre("make test") is None  # allowed: nothing said, Codex's own policy applies
    denied = pre("rm -rf ~/")
    assert denied["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert _run("codex", "{oops", daemon)["hookSpecificOutput"]["permissionDecision"] == "deny"
