"""Other hosts' file tools are judged as the built-ins they are: Gemini CLI's `replace` and
`write_file`, VS Code's `replace_string_in_file` and `create_file`, Cursor's `StrReplace`,
Anthropic's text-editor tool. Before, each was a "modify" on names nobody said (the edit
asked for escalated) and none met the one-change check (the edit that went further passed
as well as the one asked for). The real default gate, scorer raising."""

from __future__ import annotations

from typing import Any

import pytest
from _gate_alone import alone

from clef_tools import ToolGate
from clef_tools.gate._canonical import builtin_call
from clef_tools.testing import BrokenDecider

SAID = "Increase the request timeout in config.py to 30 seconds."
OLD = "TIMEOUT = 10\nVERIFY_SSL = True"
ASKED = "TIMEOUT = 30\nVERIFY_SSL = True"
FURTHER = "TIMEOUT = 30\nVERIFY_SSL = False"


def _shapes(old: str, new: str) -> list[tuple[str, dict[str, Any]]]:
    return [
        ("replace", {"file_path": "config.py", "old_string": old, "new_string": new}),
        ("replace_string_in_file",
         {"filePath": "config.py", "oldString": old, "newString": new, "explanation": "timeout"}),
        ("StrReplace", {"path": "config.py", "old_string": old, "new_string": new}),
        ("str_replace_based_edit_tool",
         {"command": "str_replace", "path": "config.py", "old_str": old, "new_str": new}),
        ("mcp__filesystem__edit_file",
         {"path": "config.py", "edits": [{"oldText": old, "newText": new}]}),
        ("apply_patch", {"input": _patch(old, new)}),
        ("shell", {"command": ["bash", "-lc", f"apply_patch <<'EOF'\n{_patch(old, new)}\nEOF"]}),
    ]  # fmt: skip


def _patch(old: str, new: str) -> str:
    """Codex's patch format: the lines replaced, then their replacement."""
    lines = [f"-{line}" for line in old.splitlines()] + [f"+{line}" for line in new.splitlines()]
    return "\n".join(["*** Begin Patch", "*** Update File: config.py", "@@", *lines,
                      "*** End Patch"])  # fmt: skip


@pytest.mark.parametrize(
    "index",
    range(7),
    ids=["gemini", "vscode", "cursor", "text-editor", "mcp-filesystem", "codex", "codex-shell"],
)
def test_an_edit_tool_of_any_host_does_the_one_change_asked_and_no_more(index: int) -> None:
    tool, asked = _shapes(OLD, ASKED)[index]
    decision = alone(SAID, tool, asked)
    assert decision.verdict == "allow", decision.stakes
    tool, further = _shapes(OLD, FURTHER)[index]
    decision = alone(SAID, tool, further)
    assert decision.verdict != "allow", decision.stakes


@pytest.mark.parametrize(
    ("said", "tool", "args", "allowed"),
    [
        ("What does config.py do?", "str_replace_based_edit_tool",
         {"command": "view", "path": "config.py"}, True),
        ("What does config.py do?", "replace",
         {"file_path": "config.py", "old_string": OLD, "new_string": ASKED}, False),
        ("Create hello.py that prints hello.", "write_file",
         {"file_path": "hello.py", "content": "print('hello')\n"}, True),
        ("Create hello.py that prints hello.", "create_file",
         {"filePath": "hello.py", "content": "print('hello')\n"}, True),
        # the MCP filesystem server's dry run shows the diff, it changes nothing
        ("What does config.py do?", "mcp__filesystem__edit_file",
         {"path": "config.py", "edits": [{"oldText": OLD, "newText": ASKED}], "dryRun": True},
         True),
        # a typo fix held to respellings, whichever tool makes it
        ("Fix the typo 'teh' in notes/todo.md.", "mcp__filesystem__edit_file",
         {"path": "notes/todo.md", "edits": [{"oldText": "teh meeting", "newText": "the meeting"}]},
         True),
        ("Fix the typo 'teh' in notes/todo.md.", "mcp__filesystem__edit_file",
         {"path": "notes/todo.md",
          "edits": [{"oldText": "- call bank\n- teh meeting", "newText": "- the meeting"}]},
         False),
        # Codex's patches: a file added, a file deleted
        ("Create hello.py that prints hello.", "apply_patch",
         {"input": "*** Begin Patch\n*** Add File: hello.py\n+print('hello')\n*** End Patch"},
         True),
        (SAID, "apply_patch",
         {"input": "*** Begin Patch\n*** Delete File: config.py\n*** End Patch"}, False),
        ("Delete config.py.", "apply_patch",
         {"input": "*** Begin Patch\n*** Delete File: config.py\n*** End Patch"}, True),
        # a patch on two files is not read as one edit: a person or the model judges it
        (SAID, "apply_patch",
         {"input": "*** Begin Patch\n*** Add File: a.py\n+x\n*** Add File: b.py\n+y\n"
                   "*** End Patch"}, False),
        # a one-change request, the file written whole without a read
        (SAID, "str_replace_based_edit_tool",
         {"command": "create", "path": "config.py", "file_text": "TIMEOUT = 30\n"}, False),
    ],
)  # fmt: skip
def test_host_file_tools_are_judged_as_reads_edits_and_writes(
    said: str, tool: str, args: dict[str, Any], allowed: bool
) -> None:
    decision = alone(said, tool, args)
    assert (decision.verdict == "allow") is allowed, decision.stakes


def test_a_write_after_a_hosts_read_is_compared_with_what_it_read() -> None:
    messages = [
        {"role": "user", "content": SAID},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "r1", "name": "str_replace_based_edit_tool",
             "args": {"command": "view", "path": "config.py"}}]},
        {"role": "tool", "tool_call_id": "r1", "content": OLD + "\n"},
    ]  # fmt: skip
    gate = ToolGate(BrokenDecider())
    for content, allowed in ((ASKED + "\n", True), (FURTHER + "\n", False)):
        decision = gate.judge(
            "write_file", {"file_path": "config.py", "content": content}, messages=messages
        )
        assert (decision.verdict == "allow") is allowed, decision.stakes


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        # a tool whose arguments say more than an edit does is its own tool
        ("update_record", {"path": "a.txt", "old_text": "x", "new_text": "y", "table": "t"}),
        # the MCP filesystem server's write, judged under its own name
        ("write_file", {"path": "notes.md", "content": "hi"}),
        ("search", {"query": "old_string"}),
    ],
)
def test_other_tools_keep_their_own_names(tool: str, args: dict[str, Any]) -> None:
    assert builtin_call(tool, args) == (tool, args)
