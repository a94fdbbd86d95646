"""Code an edit takes out that the user did not ask to take out.

"Rename get_user to fetch_user in src/users.py" asks for one name changed. An edit that
does it and also drops `delete_user`, or a Write that puts back only the renamed function,
loses code the user never spoke of: the named file, the asked-for kind of change (modify),
and still not what was asked. The definitions (functions, classes, methods) an edit
removes are read from its old and new text; a file written whole is compared with what a
read of it in view returned. A definition the user named, or any removal where the user
asked to remove, restructure or rewrite, is theirs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._canonical import PATH_KEYS, builtin_call
from clef_tools.gate._effects import CallEffect
from clef_tools.gate._lookups import lookups
from clef_tools.gate._written import edit_pairs, edits_files

__all__ = ["dropped_code_issue", "files_read", "read_before"]

_MAX_CODE = 200_000
#: A definition's header in the languages agents edit most: Python, JavaScript/TypeScript,
#: Go, Rust, Ruby, Java/C#-style methods are left out (their headers vary too much).
_DEFINITION = re.compile(
    r"^[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)"
    r"|^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:abstract[ \t]+)?class[ \t]+(\w+)"
    r"|^[ \t]*(?:export[ \t]+)?(?:async[ \t]+)?function\*?[ \t]+(\w+)"
    r"|^[ \t]*(?:export[ \t]+)?(?:const|let|var)[ \t]+(\w+)[ \t]*=[ \t]*(?:async[ \t]*)?"
    r"(?:\([^)\n]*\)|\w+)[ \t]*=>"
    r"|^func[ \t]+(?:\([^)\n]*\)[ \t]*)?(\w+)"
    r"|^[ \t]*(?:pub(?:\([\w:]+\))?[ \t]+)?(?:async[ \t]+)?fn[ \t]+(\w+)",
    re.MULTILINE,
)
#: A read's line numbers (`cat -n`, Claude Code's `     4→`), left off before matching.
_LINE_NUMBER = re.compile(r"^[ \t]*\d+(?:→|\t)", re.MULTILINE)
#: Requests under which code may go: a removal, a rewrite, a restructuring.
_REMOVAL_ASKED = re.compile(
    r"\b(?:remove[sd]?|removing|delete[sd]?|deleting|drop(?:s|ped)?|get\s+rid|strip|clean(?:s|ed)?"
    r"|cleanup|prune|refactor\w*|rewrit\w*|rework\w*|restructur\w*|reorganiz\w*|reorganis\w*"
    r"|simplif\w*|consolidat\w*|merg\w*|mov(?:e|es|ed|ing)|split\w*|extract\w*|inline\w*"
    r"|dedup\w*|replace[sd]?|replacing|unused|dead\s+code|deprecat\w*|from\s+scratch"
    r"|port(?:s|ed|ing)?|convert\w*|migrat\w*|trim\w*|shorten\w*|minimi[sz]\w*)\b",
    re.IGNORECASE,
)


def _definitions(code: str) -> set[str]:
    return {next(g for g in m.groups() if g) for m in _DEFINITION.finditer(code[:_MAX_CODE])}


#: Tools whose result is a file's text (the file named by one of `PATH_KEYS`).
_READ_TOOLS = re.compile(r"(?:^|_|__)(?:read|view|cat|get_file_contents|read_text_file)(?:_file)?$")


def files_read(messages: Sequence[Any] | str | None) -> dict[str, str]:
    """The text each file read since the user's latest turn returned, by its path (a
    read's line numbers left off)."""
    out: dict[str, str] = {}
    for lookup in lookups(messages)[-32:]:
        tool, args = builtin_call(lookup.tool, lookup.args)
        if not _READ_TOOLS.search(tool.lower()):
            continue
        path = next((args[k] for k in PATH_KEYS if isinstance(args.get(k), str)), None)
        if path:
            out[_plain(path)] = _LINE_NUMBER.sub("", lookup.result[:_MAX_CODE])
    return out


def _plain(path: str) -> str:
    return path.strip().removeprefix("./")[:1000]


def read_before(path: str, read: Mapping[str, str]) -> str | None:
    """What a read in view returned for the file a Write replaces (the same path, or one
    ending in it: `/home/ana/shop/src/users.py` and `src/users.py`)."""
    path = _plain(path)
    for other, text in read.items():
        if other == path or other.endswith("/" + path) or path.endswith("/" + other):
            if not text.endswith("\n") and "\n" in text:
                # a read cut short (a host keeps so much of a result) ends mid-line, maybe
                # mid-name: the comparison stops at its last whole line
                text = text.rsplit("\n", 1)[0] + "\n"
            return text
    return None


def dropped_code_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, read: Mapping[str, str]
) -> str | None:
    """A function or class an edit takes out, where the user neither named it nor asked
    for anything to go."""
    if not edits_files(effect) or effect.read_only or _REMOVAL_ASKED.search(said[:20_000]):
        return None
    found = edit_pairs(args)
    if found is None:
        return None
    path, pairs = found
    said_low = said[:20_000].lower()
    for old, new in pairs[:64]:
        before = old or read_before(path, read)
        if not before:
            continue
        gone = _definitions(before) - _definitions(new)
        unsaid = sorted(n for n in gone if n.lower() not in said_low)
        if unsaid:
            return f"takes {unsaid[0]} out of {path[-80:]}, which the user did not ask to remove"
    return None
