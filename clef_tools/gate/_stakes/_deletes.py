"""What a delete removes against what the user asked to remove.

"Remove the link from the doc" asks for a part of the doc, not the doc: a delete tool whose
nouns name a whole thing the user named as a container removes more than asked; a folder
a listing shows is not one the user's words picked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._effects import TAKES_ACCESS, CallEffect, after_verb, table, words
from clef_tools.gate._grounding import Grounding, object_named, records_of, targets


def plural(noun: str) -> bool:
    """Whether a tool's noun names several things (`contacts`, not `address` or `status`)."""
    return len(noun) > 3 and noun.endswith("s") and not noun.endswith(("ss", "us", "is"))


def deleted_nouns(tool: str) -> list[str]:
    """What a delete tool deletes: the words after its verb (`repository` of
    `GitHubDeleteRepository`, whose toolkit comes first), else all but its verb; nothing
    for a tool that takes someone's access to a thing away (`unshare_file` keeps the file)."""
    verbs = table().verbs["delete"]
    if set(words(tool[:200])) & TAKES_ACCESS:
        return []
    return after_verb(tool, verbs) or [w for w in words(tool.rsplit("__", 1)[-1]) if w not in verbs]


#: A domain or a file by its name (`example.com`, `notes.txt`).
_DOMAIN = re.compile(r"(?:[a-z0-9-]+\.)+[a-z]{2,}", re.IGNORECASE)
#: "delete item 7 from https://todo.example.com/items": the link, path, domain or file
#: removed from.
_REMOVED_FROM = re.compile(
    r"\b(?:remove|delete|drop|clear|purge|take)\b(?:[^.;!?]|\.(?=\S)){0,60}?"
    r"\b(?:from|out of|in|inside|under)\s+(?:the\s+)?((?:https?://|[~./])\S+"
    rf"|{_DOMAIN.pattern}(?![\w.-]))",
    re.IGNORECASE,
)


#: What a delete tool removes whole, beside which a member, an entry or a permission is a
#: part: `delete_file` removes the sheet itself, `remove_permission` one access to it.
_WHOLE_THINGS = frozenset(
    ["file", "files", "document", "doc", "docs", "sheet", "spreadsheet", "folder", "board",
     "channel", "page", "list", "group", "calendar", "repository", "repo", "project",
     "playlist", "album", "table", "database", "bucket", "workspace", "team", "drive",
     "event", "meeting", "thread", "conversation", "chat", "trip"]
)  # fmt: skip


def deletes_whole(nouns: list[str]) -> bool:
    """Whether a delete tool's nouns name a whole thing (`delete_file`), not a part of one
    (`remove_team_member`, `remove_from_channel`)."""
    return bool(nouns) and "from" not in nouns and nouns[-1] in _WHOLE_THINGS


def container_named(effect: CallEffect, args: Mapping[str, Any], said: str) -> set[str]:
    """A delete of the very link or folder the user asked to remove something from, or in:
    `DELETE https://todo.example.com/items` after "delete item 7 from
    https://todo.example.com/items" removes every item, not item 7."""
    if not any(e.kind == "delete" for e in effect.effects):
        return set()
    places = {m.group(1).rstrip("/.,;:!?)'\"") for m in _REMOVED_FROM.finditer(said)}
    if not places:
        return set()
    # ...or a folder a command removes whole (`rm -rf /var/log/app` after "delete the old
    # rotated logs in /var/log/app")
    removed = [o for e in effect.effects if e.kind == "delete" for o in e.objects]
    found = {
        value.strip().rstrip("/")
        for value in [*args.values(), *removed][:64]
        if isinstance(value, str) and value.strip().rstrip("/") in places
    }
    # a domain or a file by its name is where a record or a line is removed from
    # (`delete_dns_record(zone="example.com", name="staging")`): it is itself deleted only
    # where it is all the call names (`delete_zone(zone="example.com")`, `rm notes.txt`)
    named = removed if effect.source in ("shell", "sql") else targets(args)
    whole = bool(named) and {n.strip().rstrip("/") for n in named} <= places
    return {f for f in found if whole or not _DOMAIN.fullmatch(f)}


def among_said(word: str, said: frozenset[str]) -> bool:
    """A word among the user's, as said or shortened ("the repo" for `repository`,
    "the doc" for `document`)."""
    stem = word[:-1] if word.endswith("s") and len(word) > 3 else word
    return any(w in (word, stem) or (len(w) >= 3 and stem.startswith(w)) for w in said)


#: Folders a project's tools fill, by what a user calls them ("reinstall the dependencies
#: from scratch" names `node_modules`).
_CALLED = {
    "node_modules": ("dependencies", "deps", "packages", "modules"),
    "vendor": ("dependencies", "deps", "vendored"),
    ".venv": ("venv", "virtualenv", "environment", "dependencies"),
    "venv": ("venv", "virtualenv", "environment", "dependencies"),
    "__pycache__": ("cache", "caches", "pycache", "bytecode"),
    ".pytest_cache": ("cache", "caches"),
    ".mypy_cache": ("cache", "caches"),
    ".ruff_cache": ("cache", "caches"),
    ".cache": ("cache", "caches"),
}
#: A folder's or a dotfile's bare name in a listing (`src`, `node_modules`, `.env`).
_BARE = re.compile(r"\.?[A-Za-z_][\w-]*")
#: Commands that remove files and folders (a process is stopped by name elsewhere).
_REMOVES_FILES = re.compile(r"(?:sudo\s+)?(?:rm|rmdir|trash|trash-put|unlink)\b")
#: A request for every one of a kind ("delete all the temp folders").
_EVERY = re.compile(r"\b(?:all|every|everything|each)\b", re.IGNORECASE)


def listed_delete_issue(effect: CallEffect, grounding: Grounding, said: str) -> str | None:
    """A command's delete of a name only a listing in view gave, which the user's words
    do not describe: `rm -rf build dist src` after "clean out the build artifacts" with
    `ls` in view. The listing says the folder exists; only the words say it is to go."""
    if effect.source != "shell" or _EVERY.search(said[:20_000]):
        return None
    text = said[:20_000].lower()
    told = set(words(text))
    for e in effect.effects:
        if e.kind != "delete" or not _REMOVES_FILES.match(e.what):
            continue
        for obj in e.objects[:16]:
            plain = obj.strip().rstrip("/")
            listed = plain in grounding.names and plain not in grounding.unnamed
            # a folder or a dotfile by its bare name (`src`, `.env`): a file is told apart
            # by the record checks, by its name and extension; a process id is no folder
            if not listed or not _BARE.fullmatch(plain) or object_named(plain, text):
                continue
            if told & set(_CALLED.get(plain.rsplit("/", 1)[-1], ())):
                continue
            return f"deletes {plain[:60]}, which the user's words do not describe"
    return None


#: Someone the user asked to remove, by name ("remove Ben, he can't come", "kick Omar").
_PERSON_REMOVED = re.compile(
    r"\b(?i:remove|kick|uninvite|drop|take)\s+([A-Z][a-z]{1,30})(?:\s+[A-Z][a-z]{1,30})?\b"
    r"(?!['’]s)"
)


def person_removed_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A whole thing deleted where the user asked to remove someone from it: "remove Ben,
    he can't come" is not `delete_event(event="review")`. The person is not in what the
    call names, nor in the record a listing in view gives for it."""
    text = said[:20_000]
    # "remove Emily from the repo": the container, which the delete checks read already
    names = {
        m.group(1).lower()
        for m in _PERSON_REMOVED.finditer(text)
        if not re.match(r"[^.;!?\n]{0,60}?\b(?:from|off|out)\b", text[m.end() : m.end() + 80])
    }
    if not names or effect.source != "name":
        return None
    whole = [
        e.what
        for e in effect.effects
        if e.kind == "delete" and deletes_whole(deleted_nouns(e.what))
    ]
    if not whole:
        return None
    named = [t.lower() for t in targets(args)][:16]
    records = [r.lower() for res in results[-16:] for r in records_of(res)][:256]
    held = " ".join([*named, *(r for r in records if any(n and n in r for n in named))])
    if any(re.search(rf"\b{re.escape(n)}\b", held) for n in names):
        return None
    who = sorted(names)[0].title()
    return f"{whole[0][:60]} deletes a whole thing, where the user asked to remove {who}"
