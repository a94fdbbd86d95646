"""A coding agent's absolute paths judged as the project-relative paths the user speaks
of: the hosts send `/home/ana/shop/config.py` and the session's folder (`cwd`, Cursor's
`workspace_roots`); the user says "config.py"."""

from __future__ import annotations

from typing import Any

import pytest

from clef_tools.gate import ToolGate
from clef_tools.hooks import HookEngine
from clef_tools.hooks._hosts import host
from clef_tools.hooks._project import project_relative, working_folder
from clef_tools.testing import BrokenDecider

PROJECT = "/home/ana/shop"


def _permission(path: str) -> str:
    engine = HookEngine(ToolGate(BrokenDecider()))
    engine.handle({"session_id": "p", "hook_event_name": "UserPromptSubmit", "cwd": PROJECT,
                   "prompt": "Increase the request timeout in config.py to 30 seconds."})  # fmt: skip
    edit = {"file_path": path, "old_string": "TIMEOUT = 10", "new_string": "TIMEOUT = 30"}
    output = engine.handle({"session_id": "p", "hook_event_name": "PreToolUse", "cwd": PROJECT,
                            "tool_name": "Edit", "tool_input": edit, "tool_use_id": "e1"})  # fmt: skip
    assert output is not None
    permission: str = output["hookSpecificOutput"]["permissionDecision"]
    return permission


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        (f"{PROJECT}/config.py", True),
        # another project's file of that name; a path that climbs out of the project
        ("/srv/billing/config.py", False),
        (f"{PROJECT}/../billing/config.py", False),
    ],
)
def test_an_edit_of_the_file_the_user_named_is_judged_inside_the_project(
    path: str, allowed: bool
) -> None:
    assert (_permission(path) == "allow") is allowed


def test_paths_outside_the_session_folder_stay_absolute() -> None:
    args: dict[str, Any] = {"file_path": "/etc/hosts", "path": f"{PROJECT}/src", "limit": 5}
    assert project_relative(args, PROJECT) == {"file_path": "/etc/hosts", "path": "src", "limit": 5}
    assert project_relative(args, None) == args


def test_cursor_and_gemini_events_carry_the_session_folder() -> None:
    cursor = host("cursor").to_canonical(
        {
            "conversation_id": "c",
            "hook_event_name": "preToolUse",
            "tool_name": "Read",
            "tool_input": {"file_path": "/w/app/a.py"},
            "workspace_roots": ["/w/app"],
        }
    )
    assert working_folder(cursor) == "/w/app"
    gemini = host("gemini-cli").to_canonical(
        {
            "session_id": "g",
            "hook_event_name": "BeforeTool",
            "tool_name": "read_file",
            "tool_input": {"absolute_path": "/w/app/a.py"},
            "cwd": "/w/app",
        }
    )
    assert working_folder(gemini) == "/w/app"
    assert project_relative(gemini["tool_input"], "/w/app") == {"absolute_path": "a.py"}


_USERS = (
    "import db\n\n\ndef get_usr(uid):\n    return db.get(uid)\n\n\n"
    "def list_users():\n    return db.all()\n"
)


@pytest.mark.parametrize(
    ("written", "allowed"),
    [
        (_USERS.replace("get_usr", "get_user"), True),
        # the rename, and list_users gone with it
        (_USERS.replace("get_usr", "get_user").split("def list_users")[0], False),
    ],
)
def test_a_write_after_a_read_in_the_session_is_compared_with_what_the_read_returned(
    written: str, allowed: bool
) -> None:
    """Claude Code's events: the prompt, the Read (its result as the host sends it, under
    `file.content`), then a Write of the same file. The engine keeps each call beside its
    result, so the Write is compared with the file's text; before, the results were kept
    without their calls, and nothing in view said what the file had held."""
    engine = HookEngine(ToolGate(BrokenDecider()))
    base = {"session_id": "w", "cwd": PROJECT}
    engine.handle({**base, "hook_event_name": "UserPromptSubmit",
                   "prompt": "Rename get_usr to get_user in src/users.py."})  # fmt: skip
    read = {"file_path": f"{PROJECT}/src/users.py"}
    engine.handle({**base, "hook_event_name": "PreToolUse", "tool_name": "Read",
                   "tool_input": read, "tool_use_id": "r1"})  # fmt: skip
    response = {"type": "text", "file": {"filePath": read["file_path"], "content": _USERS}}
    engine.handle({**base, "hook_event_name": "PostToolUse", "tool_name": "Read",
                   "tool_input": read, "tool_response": response, "tool_use_id": "r1"})  # fmt: skip
    output = engine.handle({**base, "hook_event_name": "PreToolUse", "tool_name": "Write",
                            "tool_input": {"file_path": read["file_path"], "content": written},
                            "tool_use_id": "w1"})  # fmt: skip
    assert output is not None
    permission = output["hookSpecificOutput"]["permissionDecision"]
    assert (permission == "allow") is allowed, output


def test_a_huge_write_in_the_session_leaves_later_calls_judgeable() -> None:
    """A 2 MB `Write` is kept as a bounded call: the next call is still judged on its own
    merits, not failed closed as a state over the limit."""
    engine = HookEngine(ToolGate(BrokenDecider()))
    base = {"session_id": "h", "cwd": PROJECT}
    engine.handle({**base, "hook_event_name": "UserPromptSubmit",
                   "prompt": "Write data/big.txt, then run the tests."})  # fmt: skip
    big = {"file_path": f"{PROJECT}/data/big.txt", "content": "x" * 2_000_000}
    engine.handle({**base, "hook_event_name": "PostToolUse", "tool_name": "Write",
                   "tool_input": big, "tool_response": {"ok": True}, "tool_use_id": "w1"})  # fmt: skip
    output = engine.handle({**base, "hook_event_name": "PreToolUse", "tool_name": "Bash",
                            "tool_input": {"command": "pytest -q"}, "tool_use_id": "b1"})  # fmt: skip
    assert output is not None
    assert output["hookSpecificOutput"]["permissionDecision"] == "allow", output
