"""The agent's own calls since the user last spoke, each beside the result it got.

A result alone says what came back; the call that asked for it says what it is about:
`- Alice\n- Bob` is the members of #random only beside
`get_users_in_channel(channel="random")`. Results are still provenance only: nothing
here reads them as anyone's instructions.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clef_tools.gate._taint import split_at_order

__all__ = ["Lookup", "linked_from_page", "listed_entry", "lookups"]

#: The calls kept: the latest ones, as the other checks read the latest results.
_MAX_CALLS = 64
_MAX_RESULT = 100_000


@dataclass(frozen=True)
class Lookup:
    tool: str
    args: Mapping[str, Any] = field(default_factory=dict)
    result: str = ""


#: A character a JSON encoder escaped (`json.dumps` writes "Hôtel" as `H\u00f4tel`).
_ESCAPED = re.compile(r"\\u([0-9a-fA-F]{4})")


def result_text(content: object) -> str:
    """A tool result as the text its names are found in: a result a tool serialised with
    `json.dumps`' defaults names "Hôtel Bellecour" as `H\u00f4tel Bellecour`, which the
    user's "Hôtel Bellecour" would never match."""
    from clef_tools.protocol._render import render_content

    text = render_content(content)
    if "\\u" not in text:
        return text
    return _ESCAPED.sub(lambda m: _unescaped(m.group(1)), text)


def _unescaped(code: str) -> str:
    char = chr(int(code, 16))
    # a quote, a backslash or a control character stays escaped: the JSON stays JSON
    return (
        f"\\u{code}" if char in '"\\' or ord(char) < 0x20 or 0xD800 <= ord(char) < 0xE000 else char
    )


def lookups(messages: Sequence[Any] | str | None) -> list[Lookup]:
    """Each call the agent made since the user's latest turn, with its result: paired by
    `tool_call_id` where the messages carry one, else in the order they were made."""
    from clef_tools.protocol._render import to_jsonable

    if messages is None or isinstance(messages, str):
        return []
    pending: list[tuple[str, str, Mapping[str, Any]]] = []
    out: list[Lookup] = []
    for message in messages:
        plain = to_jsonable(message)
        if not isinstance(plain, Mapping):
            continue
        role = plain.get("role")
        if role in ("user", "human"):
            pending, out = [], []
        elif role in ("assistant", "ai"):
            calls = plain.get("tool_calls")
            if isinstance(calls, Sequence) and not isinstance(calls, str):
                pending.extend(c for c in map(_call, calls[:_MAX_CALLS]) if c is not None)
        elif role == "tool" and pending:
            wanted = plain.get("tool_call_id")
            at = next((i for i, (cid, _, _) in enumerate(pending) if cid and cid == wanted), 0)
            _, tool, args = pending.pop(at)
            result = result_text(plain.get("content"))[:_MAX_RESULT]
            out.append(Lookup(tool, args, result))
    return out[-_MAX_CALLS:]


def _call(call: object) -> tuple[str, str, Mapping[str, Any]] | None:
    """(id, tool, arguments) of a LangChain or an OpenAI-shaped tool call."""
    if not isinstance(call, Mapping):
        return None
    function = call.get("function")
    spec = function if isinstance(function, Mapping) else call
    name = spec.get("name")
    args = spec.get("args", spec.get("arguments", {}))
    if isinstance(args, str):
        try:
            args = json.loads(args[:_MAX_RESULT])
        except ValueError:
            args = {}
    if not isinstance(name, str) or not isinstance(args, Mapping):
        return None
    return str(call.get("id") or ""), name, args


#: A link a page writes relative to itself: an `href`'s value, or a path from the root.
_RELATIVE_LINK = re.compile(
    r"""(?:href|src)\s*=\s*["']?([^"'\s>]{1,300})|(?<![\w.:/-])(/[\w%~.-]+(?:/[\w%~.-]+)*/?)"""
)


def linked_from_page(link: str, calls: Sequence[Lookup]) -> bool:
    """Whether `link` is a page's own relative link, resolved against the page: a fetch of
    `https://acme.example/investors` that returned `Q3 report: /files/q3.pdf` links
    `https://acme.example/files/q3.pdf`. The page stays the result it was (provenance,
    not instructions); this only says the link came from it, not from nowhere. `calls`:
    the session's `lookups`, read once by the caller."""
    if not re.match(r"https?://", link, re.IGNORECASE) or len(link) > 2000:
        return False
    wanted = link.rstrip("/").lower()
    for lookup in calls[-16:]:
        pages = [
            v for v in list(lookup.args.values())[:16]
            if isinstance(v, str) and re.match(r"https?://", v, re.IGNORECASE)
        ]  # fmt: skip
        if not pages:
            continue
        # only what the page says before any passage addressed to the agent: a link such a
        # passage urges stays the passage's
        head = split_at_order([lookup.result])[0][0]
        for page in pages[:4]:
            for match in _RELATIVE_LINK.finditer(head):
                relative = (match.group(1) or match.group(2)).rstrip(".,;:)")
                if urllib.parse.urljoin(page, relative).rstrip("/").lower() == wanted:
                    return True
    return False


#: An absolute path, as a listing tool is given one (`/Users/kim/Documents`, `~/notes`,
#: `C:\\Users\\kim`).
_ABSOLUTE = re.compile(r"^(?:/|~/|[A-Za-z]:[\\/])")


def listed_entry(path: str, said: str, calls: Sequence[Lookup]) -> str | None:
    """The entry `path` is of a folder a lookup listed, or the one the user named inside
    it: after `list_directory(path="/Users/kim/Documents")` returned `[FILE] notes.txt`,
    `/Users/kim/Documents/notes.txt` is that listing's `notes.txt`, and after "make a
    folder called receipts", `/Users/kim/Documents/receipts` is the folder asked for there.
    The entry must be the listing's own word (not a passage's in it addressed to the
    agent) or the user's; a path that climbs out (`..`) is no entry. None when it is
    none."""
    if not _ABSOLUTE.match(path) or len(path) > 1000 or ".." in path:
        return None
    for lookup in calls[-16:]:
        for value in list(lookup.args.values())[:16]:
            if not isinstance(value, str) or not _ABSOLUTE.match(value) or len(value) > 1000:
                continue
            folder = value.rstrip("/\\")
            sep = path[len(folder) : len(folder) + 1]
            if not folder or not path.startswith(folder) or sep not in ("/", "\\"):
                continue
            entry = re.split(r"[/\\]", path[len(folder) + 1 :], maxsplit=1)[0]
            if not entry:
                continue
            whole = re.compile(rf"(?<![\w.-]){re.escape(entry)}(?![\w.-])", re.IGNORECASE)
            # only what the listing says before any passage addressed to the agent: an
            # entry such a passage names stays the passage's
            head = split_at_order([lookup.result[:_MAX_RESULT]])[0][0]
            if whole.search(head) or whole.search(said[:20_000]):
                return entry
    return None
