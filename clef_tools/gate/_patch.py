"""Codex's `apply_patch` as the file tool it is.

Codex edits files with a patch of its own format (`*** Begin Patch`, `*** Add File: …`,
`*** Update File: …` with `@@` hunks of ` `, `-` and `+` lines, `*** Delete File: …`,
`*** End Patch`), called as a tool (`apply_patch(input=…)`) or run as a command
(`apply_patch <<'EOF' … EOF`, or the argv `["apply_patch", patch]`). Read as an unknown
program, every edit escalated and none met the edit checks. A patch on one file is read
here as the Write, MultiEdit or delete it makes; a patch on several files, a move, or one
that does not parse is left as it is (the model tier, or a person, judges it).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from typing import Any

__all__ = ["patch_call"]

_BEGIN = "*** Begin Patch"
_FILE_OP = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+)$")
#: `apply_patch <<'EOF'` … `EOF`, as Codex runs it through a shell.
_HEREDOC = re.compile(r"^\s*apply_patch\s+<<-?\s*(['\"]?)(\w+)\1\s*\n(.*)\n\s*\2\s*$", re.S)
_MAX_PATCH = 200_000


def patch_call(name: str, args: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]] | None:
    """The built-in a one-file patch is (`Write`, `MultiEdit`, or `Bash` with `rm`), or
    None when the call carries no patch the gate can read so."""
    patch = _patch_text(name, args)
    if patch is None or len(patch) > _MAX_PATCH:
        return None
    return _one_file(patch)


def _patch_text(name: str, args: Mapping[str, Any]) -> str | None:
    bare = name.rsplit("__", 1)[-1].lower()
    if bare == "apply_patch":
        text = next((args[k] for k in ("input", "patch") if isinstance(args.get(k), str)), None)
        return text if text is not None and text.lstrip().startswith(_BEGIN) else None
    command = args.get("command")
    if isinstance(command, list) and len(command) == 2 and command[0] == "apply_patch":
        text = command[1]
        return text if isinstance(text, str) and text.lstrip().startswith(_BEGIN) else None
    if isinstance(command, list) and len(command) == 3 and command[1] in ("-lc", "-c"):
        command = command[2]  # `["bash", "-lc", "apply_patch <<'EOF' …"]`
    if isinstance(command, str) and command.lstrip().startswith("apply_patch"):
        heredoc = _HEREDOC.match(command[:_MAX_PATCH])
        if heredoc is not None and heredoc.group(3).lstrip().startswith(_BEGIN):
            return heredoc.group(3)
    return None


def _one_file(patch: str) -> tuple[str, Mapping[str, Any]] | None:
    lines = patch.strip("\n").splitlines()
    if not lines or lines[0].strip() != _BEGIN or lines[-1].strip() != "*** End Patch":
        return None
    body = lines[1:-1]
    ops = [(n, m) for n, line in enumerate(body) if (m := _FILE_OP.match(line))]
    if len(ops) != 1 or ops[0][0] != 0 or any(line.startswith("*** Move to:") for line in body):
        return None
    kind, path = ops[0][1].group(1), ops[0][1].group(2).strip()
    rest = body[1:]
    if kind == "Delete":
        return ("Bash", {"command": f"rm -- {shlex.quote(path)}"}) if not rest else None
    if kind == "Add":
        if any(not line.startswith("+") for line in rest):
            return None
        return "Write", {"file_path": path, "content": "".join(f"{line[1:]}\n" for line in rest)}
    edits = _hunks(rest)
    return ("MultiEdit", {"file_path": path, "edits": edits}) if edits else None


def _hunks(lines: list[str]) -> list[dict[str, str]] | None:
    """Each `@@` hunk as the text it replaces and its replacement (context lines in both)."""
    edits: list[dict[str, str]] = []
    old: list[str] = []
    new: list[str] = []

    def close() -> None:
        if old or new:
            edits.append({"old_string": "\n".join(old), "new_string": "\n".join(new)})
        old.clear()
        new.clear()

    for line in lines:
        if line.startswith("@@"):
            close()
        elif line == "*** End of File":
            continue
        elif line[:1] in (" ", "-", "+") or line == "":
            text = line[1:]
            if line[:1] != "+":
                old.append(text)
            if line[:1] != "-":
                new.append(text)
        else:
            return None  # a line no hunk holds: not a patch this reader knows
    close()
    return [e for e in edits if e["old_string"] != e["new_string"]][:64] or None
