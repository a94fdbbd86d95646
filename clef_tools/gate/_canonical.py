"""A coding agent's file tools under the names the gate's tables know.

Claude Code edits with `Edit(file_path, old_string, new_string)`; Gemini CLI's same tool
is `replace`, VS Code's `replace_string_in_file(filePath, oldString, newString)`, Cursor's
`StrReplace`, and Anthropic's text-editor tool one `command` of
`str_replace_based_edit_tool(path, old_str, new_str)`. Judged under their own names they
are a "modify" nobody can place: the one-change edit check, the dropped-code check and
the project-folder scope never see them, and the fast tier escalates an edit the user
asked for. Here each is read as the built-in it is, by its shape (a path and the text
replaced) or by a host's documented name, before anything judges it. The decision,
the audit row and the model's state keep the call as the agent made it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from clef_tools.gate._patch import patch_call

__all__ = ["EDIT_KEYS", "PATH_KEYS", "builtin_call", "file_name", "replaced_pairs"]

#: The arguments that name the file a tool reads or changes, across hosts and servers.
PATH_KEYS = (
    "file_path", "filePath", "path", "target_file", "absolute_path", "filename", "notebook_path"
)  # fmt: skip
#: The (text replaced, its replacement) arguments of an edit, across hosts and servers.
EDIT_KEYS = (
    ("old_string", "new_string"),
    ("oldString", "newString"),
    ("old_str", "new_str"),
    ("oldStr", "newStr"),
    ("old_text", "new_text"),
    ("oldText", "newText"),
)
#: Keys an edit tool takes beside the path and the text: how many matches, why.
_EDIT_EXTRAS = frozenset(
    ["replace_all", "replaceAll", "expected_replacements", "explanation", "instruction",
     "instructions", "description"]
)  # fmt: skip
#: Anthropic's text-editor tool, by its documented names; `command` says what it does.
_TEXT_EDITOR = frozenset(
    ["str_replace_based_edit_tool", "str_replace_editor", "text_editor", "str_replace_editor_tool"]
)
#: Hosts' file-writing tools whose arguments are a path and the whole text (Gemini CLI's
#: `write_file(file_path, content)`, VS Code's `create_file(filePath, content)`). The MCP
#: filesystem server's `write_file(path, content)` is judged under its own name.
_WRITES = {("write_file", "file_path"), ("create_file", "filePath")}


def file_name(path: str) -> str:
    """A path's last part, by either separator (`src/users.py`, `C:\\x\\.env`)."""
    return re.split(r"[\\/]", path.strip().rstrip("/\\"))[-1]


def builtin_call(name: str, args: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """`(name, args)` as the built-in the call is (`Edit`, `Write`, `Read`), or as given."""
    bare = name.rsplit("__", 1)[-1]
    if bare[:1].isupper() and bare in ("Edit", "Write", "Read", "MultiEdit", "NotebookEdit"):
        return name, args
    patched = patch_call(name, args)
    if patched is not None:
        return patched
    if bare.lower() in _TEXT_EDITOR:
        return _text_editor(name, args)
    path_key = next((k for k in PATH_KEYS if isinstance(args.get(k), str)), None)
    if path_key is None:
        return name, args
    for old, new in EDIT_KEYS:
        if isinstance(args.get(old), str) and isinstance(args.get(new), str):
            extras = set(args) - {path_key, old, new}
            if extras <= _EDIT_EXTRAS:
                edit = {"file_path": args[path_key], "old_string": args[old],
                        "new_string": args[new]}  # fmt: skip
                if args.get("replace_all") or args.get("replaceAll"):
                    edit["replace_all"] = True
                return "Edit", edit
            return name, args
    edits = args.get("edits")
    if (
        isinstance(edits, list)
        and edits
        and set(args) <= {path_key, "edits", "dryRun", *_EDIT_EXTRAS}
    ):
        # the MCP filesystem server's `edit_file(path, edits=[{oldText, newText}], dryRun)`:
        # a MultiEdit, or, as a dry run, the diff it would make shown
        pairs = [p for e in edits[:64] if (p := _pair(e)) is not None]
        if len(pairs) == len(edits[:64]):  # every edit read, or the call keeps its name
            if args.get("dryRun") is True:
                return "Read", {"file_path": args[path_key]}
            multi = [{"old_string": old, "new_string": new} for old, new in pairs]
            return "MultiEdit", {"file_path": args[path_key], "edits": multi}
    if (
        (bare, path_key) in _WRITES
        and isinstance(args.get("content"), str)
        and set(args) <= {path_key, "content", *_EDIT_EXTRAS}
    ):
        return "Write", {"file_path": args[path_key], "content": args["content"]}
    return name, args


def replaced_pairs(args: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(text replaced, its replacement) of each change an edit makes: an Edit's one, a
    MultiEdit's or the MCP filesystem server's list (a file written whole has none)."""
    pairs = [(args[o], args[n]) for o, n in EDIT_KEYS
             if isinstance(args.get(o), str) and isinstance(args.get(n), str)]  # fmt: skip
    edits = args.get("edits")
    if isinstance(edits, list):
        pairs += [p for e in edits[:64] if (p := _pair(e)) is not None]
    return pairs


def _pair(edit: Any) -> tuple[str, str] | None:
    """One edit of a list as (text replaced, its replacement), under any host's keys."""
    if not isinstance(edit, Mapping):
        return None
    for old, new in EDIT_KEYS:
        if isinstance(edit.get(old), str) and isinstance(edit.get(new), str):
            return edit[old], edit[new]
    return None


def _text_editor(name: str, args: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """`view`, `create`, `str_replace` and `insert` as Read, Write and Edit; `undo_edit`
    (an earlier edit taken back) keeps its own name."""
    command, path = args.get("command"), args.get("path")
    if not isinstance(path, str):
        return name, args
    if command == "view":
        return "Read", {"file_path": path}
    if command == "create" and isinstance(args.get("file_text"), str):
        return "Write", {"file_path": path, "content": args["file_text"]}
    if command == "str_replace" and isinstance(args.get("old_str"), str):
        new = args.get("new_str")
        return "Edit", {"file_path": path, "old_string": args["old_str"],
                        "new_string": new if isinstance(new, str) else ""}  # fmt: skip
    if command == "insert":
        text = args.get("insert_text", args.get("new_str"))
        if isinstance(text, str):
            return "Edit", {"file_path": path, "old_string": "", "new_string": text}
    return name, args
