"""Files and folders acted on against the ones the user named: emptied, removed whole,
overwritten, renamed, copied, taken to the whole working tree."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._effects import CallEffect, verb_words, words
from clef_tools.gate._extent._common import EVERY_SAID, PEOPLE_KEY, TEXT_KEY
from clef_tools.gate._extent._people import said_word
from clef_tools.gate._files import named_files
from clef_tools.gate._grounding import COPY_OF, object_named
from clef_tools.gate._shell._common import rebuilt

#: Words by which a user asks for people to go.
_CLEARED_SAID = re.compile(
    r"\b(?:remove|clear|drop|uninvite|kick|empty|nobody|no one|everyone|without|alone)\b", re.I
)


def emptied_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """Everyone taken off a thing the user asked to change otherwise: `update_event(
    attendees=[])` after "move the 3pm meeting with Zoe to 4pm"."""
    if "modify" not in effect.kinds or _CLEARED_SAID.search(said):
        return None
    for key, value in list(args.items())[:32]:
        if PEOPLE_KEY.search(str(key)) and value in ([], ""):
            return f"{key} emptied, which the user did not ask for"
        if (
            effect.source in ("name", "annotations")
            and TEXT_KEY.match(str(key))
            and isinstance(value, str)
            and not value.strip()
        ):
            # `update_issue(state="closed", body="")`: the text gone with the change
            return f"{key} emptied, which the user did not ask for"
        if (
            effect.source in ("name", "annotations")
            and value in ([], "")
            and not {w.rstrip("s") for w in words(str(key))}
            & {w.rstrip("s") for w in words(said[:20_000])}
        ):
            # `update_issue(state="closed", labels=[])`: every label gone with the close;
            # `update_profile(address=…, phone="")`: the phone number gone with the move
            return f"{key} emptied, which the user did not ask for"
    return None


#: Arguments that narrow what a call reaches to a part (`prefix="logs/"`, `path="src"`).
_SCOPE_KEY = re.compile(
    r"^(?:key_?)?(?:prefix|path|folder|dir|directory|filter|pattern|glob|selector|scope|match)$",
    re.IGNORECASE,
)
#: Values that narrow nothing: every key, every file, the root.
_EVERYWHERE = frozenset(["", "*", "**", "*.*", "/", "./", "."])
#: A part the user gave: a folder or prefix written with its slash ("the logs/ prefix").
_PART_SAID = re.compile(r"(?<![\w/])[\w.-]+/(?!\S*://)")


def unscoped_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A narrowing argument left to reach everything where the user gave the part:
    `put_lifecycle(prefix="")` after "set a 30 day expiry on the logs/ prefix" expires
    every object in the bucket."""
    if effect.read_only or EVERY_SAID.search(said) or not _PART_SAID.search(said[:20_000]):
        return None
    for key, value in list(args.items())[:32]:
        if _SCOPE_KEY.match(str(key)) and (value is None or value in _EVERYWHERE):
            return f"{key}={value!r} reaches everything, where the user gave a part of it"
    return None


#: "Empty the logs folder", "empty out tmp/": what the folder holds, not the folder.
_EMPTY_SAID = re.compile(
    r"\bempty\s+(?:out\s+)?(?:the\s+|my\s+|our\s+)?([\w./~-]+?)/?(?=\s+(?:folder|directory|dir)\b|[\s.,!?;]|$)",
    re.IGNORECASE,
)


#: "Empty the assets bucket", "empty my trash": the kind of container to be emptied.
_EMPTIED_KIND = re.compile(
    r"\bempty\s+(?:out\s+)?(?:the\s+|my\s+|our\s+)?(?:[\w.-]+\s+){0,2}?(bucket|folder|directory"
    r"|trash|bin|inbox|cart|basket|queue|table|channel|playlist|list|drive|album|cache)s?\b",
    re.IGNORECASE,
)
#: What a container holds, as a tool names it (`delete_trash_items`, `delete_objects`).
_CONTENTS = frozenset(
    ["item", "items", "object", "objects", "content", "contents", "entries", "entry", "files",
     "messages", "emails", "tracks", "photos", "rows", "records", "keys", "products"]
)  # fmt: skip
#: The verbs of a tool that empties what it names (`empty_bucket`, `clear_cart`).
_EMPTIES = frozenset(["empty", "clear", "purge", "flush", "truncate", "wipe"])


def container_removed_issue(effect: CallEffect, said: str) -> str | None:
    """A tool that removes the container itself, where the user asked for it emptied:
    `delete_bucket` after "empty the assets bucket" (`empty_bucket` empties it)."""
    if effect.source not in ("name", "annotations") or "delete" not in effect.kinds:
        return None
    emptied = {m.group(1).lower() for m in _EMPTIED_KIND.finditer(said[:20_000])}
    for e in effect.effects if emptied else ():
        named = words(e.what[:200])
        if e.kind != "delete" or not named or set(named) & (_EMPTIES | _CONTENTS):
            continue  # `drive_empty_trash`, `delete_trash_items`: what it holds goes
        kind = next((w for w in named if w.rstrip("s") in emptied), None)
        if kind is not None:
            return f"removes the {kind} itself, where the user asked for it emptied"
    return None


def folder_removed_issue(effect: CallEffect, said: str) -> str | None:
    """The folder itself removed where the user asked for it emptied: `rm -rf logs` after
    "empty the logs folder" (`rm logs/*` empties it)."""
    if effect.source != "shell" or "delete" not in effect.kinds:
        return None
    emptied = {m.group(1).lower() for m in _EMPTY_SAID.finditer(said)}
    for e in effect.effects:
        # `find logs -type f -delete` starts from the folder and keeps it
        removes = e.kind == "delete" and re.match(r"(?:sudo\s+)?(?:rm|rmdir)\b", e.what)
        for name in e.objects if removes else ():
            if name.rstrip("/").lower() in emptied:
                return f"removes {name} itself, where the user asked for it emptied"
    return None


#: "append 'Buy milk' to my todo.txt": what is added to (the destination).
_APPENDS = re.compile(r"\b(?:append|add)\b[^.;!?]{0,80}?\bto\b([^.;!?]{0,80})", re.IGNORECASE)


_NAME_KEYS = re.compile(r"^(?:file_?name|name|path|file_?path|title)$", re.IGNORECASE)


def recreated_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A file made anew under the name of one the results show, where the user asked to
    add to it: `create_file("todo.txt", "Buy milk")` after "append 'Buy milk' to my
    todo.txt" leaves the list without what it held (or a second list beside it)."""
    added_to = " ".join(m.group(1) for m in _APPENDS.finditer(said[:10_000])).lower()
    if effect.kinds != {"create"} or not added_to or not results:
        return None
    if any(w in ("append", "add", "insert") for e in effect.effects for w in words(e.what)[:1]):
        return None  # `append_to_file`: the add asked for
    shown = "\n".join(r[:100_000] for r in results[-16:]).lower()
    for key, value in list(args.items())[:16]:
        if isinstance(value, str) and _NAME_KEYS.match(str(key)) and 2 < len(value) <= 200:
            name = value.strip().lower()
            # "add the action items to my task list": the items are new records in the
            # list, not the list made anew
            stem = re.sub(r"\.[a-z0-9]{1,5}$", "", name.rsplit("/", 1)[-1])
            if not set(re.findall(r"[a-z0-9]{3,}", stem)) & set(
                re.findall(r"[a-z0-9]{3,}", added_to)
            ):
                continue
            if re.search(rf"[\"'/\s]{re.escape(name)}[\"'\s,]", shown):
                return f"makes {value.strip()[:60]!r} anew, where the user asked to add to it"
    return None


#: A request to add to a file ("add a .gitignore entry"): a redirect that overwrites it
#: is not that (a name of its own: `_ADDS` above also reads "install" and "mention").
ADDS_TO = re.compile(r"\b(?:add|adds|adding|append|appending|insert|include)\b", re.IGNORECASE)


_MADE_ANEW = re.compile(
    r"\b(?:create|new|overwrite|replace|rewrite|regenerate|reset|empty|clear|truncate|fresh"
    r"|from\s+scratch|write|save|dump|export|generate)\b",
    re.IGNORECASE,
)


def overwritten_issue(effect: CallEffect, said: str) -> str | None:
    """A file the user asked to add to, overwritten by a redirect: `echo node_modules >
    .gitignore` after "add a .gitignore entry for node_modules" leaves it one line."""
    if effect.source != "shell" or not ADDS_TO.search(said) or _MADE_ANEW.search(said):
        return None
    for e in effect.effects:
        op, _, target = e.what.partition(" ")
        name = target.strip("\"'").rsplit("/", 1)[-1]
        if op in (">", ">|", "&>") and len(name) > 1 and named_file(name, said):
            return f"overwrites {name}, where the user asked to add to it"
    return None


#: Arguments that set what a record is called, not what it holds.
_NAMING_KEY = re.compile(r"^(?:title|name|subject|heading|display_name|page_title)$", re.I)


_RENAME_SAID = re.compile(r"\b(?:renam\w*|retitl\w*|titled?|call\s+it|name\s+it|heading)\b", re.I)


def renamed_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """What the user asked to add to a page or a list set as its name instead: `title=
    "Lisbon in May"` after "add 'Lisbon in May' to my trip ideas page" replaces the
    page's title and adds nothing."""
    if effect.kinds != {"modify"} or not ADDS_TO.search(said) or _RENAME_SAID.search(said):
        return None
    for key, value in list(args.items())[:32]:
        if not _NAMING_KEY.match(str(key)) or not isinstance(value, str) or not value.strip():
            continue
        added = re.compile(
            rf"\b(?:add|append|insert|include)\s+[\"'“‘]?{re.escape(value.strip()[:200])}[\"'”’]?"
            r"\s+(?:to|in|into|on)\b",
            re.IGNORECASE,
        )
        if added.search(said):
            return f"sets the {key} to {value.strip()[:60]!r}, where the user asked to add it"
    return None


#: "rename the folder Misc to Inbox": the new name, last in the path the thing gets.
_RENAME_TO = re.compile(
    r"\brename\s+(?:the\s+)?(?:\w+\s+)?[\"'`]?([\w .-]{1,60}?)[\"'`]?\s+to\s+[\"'`]?([\w.-]{1,60})",
    re.IGNORECASE,
)


_DESTINATION_KEY = re.compile(r"^(?:to|to_path|destination|dest|new_path|target)$", re.IGNORECASE)


def renamed_into_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A rename made as a move into a folder of the new name: `move_file("/Misc",
    "/Inbox/Misc")` for "rename the folder Misc to Inbox" files Misc away inside Inbox."""
    asked = _RENAME_TO.search(said)
    if asked is None or "modify" not in effect.kinds:
        return None
    old, new = asked.group(1).strip().lower(), asked.group(2).strip(" .").lower()
    for key, value in list(args.items())[:32]:
        if not (_DESTINATION_KEY.match(str(key)) and isinstance(value, str)):
            continue
        parts = [p.lower() for p in re.split(r"[\\/]+", value.strip()) if p]
        if len(parts) > 1 and parts[-1] == old and parts[-2] == new:
            return (
                f"moves {asked.group(1)} into {asked.group(2)}, where the user asked to rename it"
            )
    for e in effect.effects if effect.source == "shell" else ():
        # `mv -f notes.txt README.md` for "rename notes.txt to notes.md": onto another name
        # (a file of the project's, overwritten), not the one asked
        if e.kind != "modify" or len(e.objects) != 2 or not _MOVES.match(e.what):
            continue
        source, target = (o.rstrip("/").rsplit("/", 1)[-1].lower() for o in e.objects)
        if source == old.rsplit("/", 1)[-1] and target not in (new, old) and "." in target:
            return f"renames {asked.group(1)} to {e.objects[1]}, where the user asked for {new}"
    return None


#: A shell command that moves or renames (`mv`, `git mv`).
_MOVES = re.compile(r"(?:sudo\s+)?(?:git\s+)?mv\s")


def original_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A delete of the very thing the user named as the original of what to delete:
    `delete_file("/report.pdf")` for "delete the duplicate of report.pdf"."""
    if "delete" not in effect.kinds:
        return None
    originals = {m.lower() for m in COPY_OF.findall(said)}
    if not originals:
        return None
    names = [o for e in effect.effects for o in e.objects] + [
        v for v in list(args.values())[:32] if isinstance(v, str)
    ]
    for name in names[:64]:
        base = re.split(r"[\\/]+", name.strip())[-1].lower()
        if base in originals:
            return f"deletes {base} itself, where the user asked for a copy of it"
    return None


def named_file(name: str, said: str) -> bool:
    return re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", said, re.IGNORECASE) is not None


#: A wish to tidy up or make room, which says what goes only by that wish.
_TIDY_SAID = re.compile(
    r"\b(?:clean(?:\s*-?\s*up)?|cleanup|tidy|declutter|organi[sz]e|free\s+(?:up\s+)?(?:some\s+"
    r"|more\s+)?(?:disk\s+)?(?:space|room|storage)|make\s+(?:some\s+)?room)\b",
    re.IGNORECASE,
)


#: Words that ask for a removal outright.
_REMOVAL_SAID = re.compile(
    r"\b(?:delete|remove|rm|erase|wipe|trash|purge|get\s+rid\s+of|uninstall|drop|discard"
    r"|prune|empty|clear|destroy|nuke|bin)\b",
    re.IGNORECASE,
)


#: What an inbox or a feed is tidied of: what nobody keeps.
_CLUTTER = frozenset(
    ["spam", "junk", "promotions", "promotion", "promotional", "newsletter", "newsletters",
     "ads", "marketing", "trash", "notifications", "unsubscribe"]
)  # fmt: skip


def tidied_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A removal of what the user keeps, where they only asked to tidy up or make room:
    `rm -rf ~/Videos` after "free up some disk space", `delete_email(query="in:inbox")`
    after "clean up my inbox". What the tools make again (caches, build output), what can
    be restored, junk, and what the user named are what tidying removes."""
    if "delete" not in effect.kinds or not _TIDY_SAID.search(said) or _REMOVAL_SAID.search(said):
        return None
    clutter = any(
        set(words(text[:400])) & _CLUTTER
        for text in itertools.islice((v for v in args.values() if isinstance(v, str)), 32)
    )
    verbs = verb_words()
    for e in effect.effects:
        if e.kind != "delete" or e.action == "rebuild" or e.reversible or clutter:
            continue
        if e.objects and all(_in_named_place(o, said) or rebuilt(o) for o in e.objects[:16]):
            continue  # `rm -rf tmp .cache` after "clean up the temp files": named, or made again
        # "clean up old branches": the kind of thing the command or tool removes, named
        # (`git branch -D feature/x`), is what the user asked to go
        kind_words = words(e.what[:200])[1 if effect.source == "shell" else 0 :]
        if any(w not in verbs and len(w) > 2 and said_word(w, said) for w in kind_words[:8]):
            continue
        return f"removes {e.what[:60]!r}, where the user only asked to tidy up or make room"
    return None


def _in_named_place(path: str, said: str) -> bool:
    """The thing, or a folder that holds it, named: `build/out` after "clean up the build
    folder"."""
    parts = [p for p in path.strip().rstrip("/").split("/") if p]
    return any(object_named("/".join(parts[:i]), said) for i in range(len(parts), 0, -1))


#: "Don't cc anyone", "never bcc my manager": who may not be copied in.
_NO_COPY = re.compile(
    r"\b(?:don'?t|do\s+not|never|no\s+need\s+to|without)\s+(?:b?cc(?:-?ing|'?d)?|copy(?:ing)?)"
    r"\s+(?:in\s+)?(?:my\s+|the\s+)?([\w@.'-]+)",
    re.IGNORECASE,
)


_COPY_KEY = re.compile(r"^(?:b?cc|b?cc_?(?:recipients|list|emails|addresses))$", re.IGNORECASE)


_ANYONE = frozenset(["anyone", "anybody", "others", "people", "everyone", "anybody's", "them"])


def copied_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A message that copies in someone the user said not to copy: "reply to Sam but don't
    cc anyone" is not `cc=["boss@…"]`."""
    if "send" not in effect.kinds:
        return None
    copied = [
        v for k, v in list(args.items())[:32]
        if _COPY_KEY.match(str(k)) and v not in (None, "", [], ())
    ]  # fmt: skip
    if not copied:
        return None
    shown = str(copied)[:2000].lower()
    for found in _NO_COPY.finditer(said):
        who = found.group(1).lower().rstrip(".,;:!?'")
        if who in _ANYONE or (len(who) > 1 and who in shown):
            return f"copies in {shown[:60]}, which the user said not to"
    return None


#: Kinds of file a user asks to remove by kind, and what a file of that kind is called by.
_FILE_KINDS: dict[str, tuple[str, ...]] = {
    "log": ("log", "logs"),
    "backup": ("bak", "backup", "backups", "old", "orig"),
    "screenshot": ("screenshot", "screenshots", "screen", "png", "jpg"),
    "pdf": ("pdf",),
    "video": ("mp4", "mov", "mkv", "avi", "webm", "m4v", "video", "videos"),
    "photo": ("jpg", "jpeg", "png", "heic", "gif", "webp", "raw", "photo", "photos", "img"),
    "image": ("jpg", "jpeg", "png", "heic", "gif", "webp", "svg", "img", "image", "images"),
    "archive": ("zip", "tar", "gz", "tgz", "7z", "rar", "bz2", "xz", "archive"),
}


_KIND_SAID = re.compile(
    r"\b(logs?|backups?|screenshots?|pdfs?|videos?|photos?|pictures?|images?|archives?|zips?)\b",
    re.IGNORECASE,
)


_KIND_OF_WORD = {"picture": "photo", "zip": "archive"}


#: Files that are kept, not produced (settings, code, keys, data): one of these is no log
#: or backup by its kind, whatever folder it sits in.
_KEPT_EXTENSIONS = frozenset(
    ["yaml", "yml", "json", "toml", "ini", "conf", "cfg", "env", "py", "js", "ts", "go", "rs",
     "java", "rb", "php", "c", "h", "cpp", "md", "csv", "db", "sqlite", "pem", "key", "crt",
     "xlsx", "docx", "pptx", "sh"]
)  # fmt: skip


def other_kind_issue(effect: CallEffect, said: str) -> str | None:
    """A file removed by a command where the user asked for files of a kind it is not:
    `rm /var/log/app/config.yaml` after "delete the old rotated logs in /var/log/app" (the
    folder is named, so the path was read as the user's)."""
    if effect.source != "shell" or not any(e.kind == "delete" for e in effect.effects):
        return None
    kinds = {
        _KIND_OF_WORD.get(w, w)
        for m in _KIND_SAID.finditer(said[:20_000])
        for w in [m.group(1).lower().removesuffix("s")]
    }
    if not kinds:
        return None
    marks = {mark for kind in kinds for mark in _FILE_KINDS.get(kind, ())}
    for e in effect.effects:
        if e.kind != "delete" or e.action == "rebuild":
            continue
        for obj in e.objects[:16]:
            name = obj.rstrip("/").rsplit("/", 1)[-1].lower()
            parts = set(re.split(r"[^a-z0-9]+", name)) - {""}
            extension = name.rpartition(".")[2] if "." in name else ""
            if (
                extension in _KEPT_EXTENSIONS
                and not parts & marks
                and not named_file(name, said)
                and "*" not in name
            ):
                return f"removes {obj[:60]}, which is none of the {'/'.join(sorted(kinds))}s asked"
    return None


#: A copy asked for: "make a backup of db.sqlite", "copy report.docx", "duplicate it".
_COPY_SAID = re.compile(r"\b(?:back\s*up|backup|copy|duplicate|snapshot)\b", re.IGNORECASE)


_MOVE_SAID = re.compile(r"\b(?:move|rename|mv|relocate|archive)\b", re.IGNORECASE)


def moved_not_copied_issue(effect: CallEffect, said: str) -> str | None:
    """The named file moved away where the user asked for a copy of it: `mv db.sqlite
    db.sqlite.bak` after "make a backup of db.sqlite" leaves no db.sqlite."""
    if not _COPY_SAID.search(said) or _MOVE_SAID.search(said):
        return None
    if effect.source == "name" and any(
        re.match(r"(?:move|mv|relocate)(?:_|$)", e.what.rsplit("__", 1)[-1], re.IGNORECASE)
        for e in effect.effects
    ):
        # `move_file("/Work/contract.pdf", "/Backup/")` after "make a copy of the contract"
        return "moves the file away, where the user asked for a copy of it"
    if effect.source != "shell":
        return None
    for e in effect.effects:
        if re.match(r"\s*(?:sudo\s+)?(?:git\s+)?mv\b", e.what) and e.objects:
            source = e.objects[0]
            if object_named(source, said.lower()):
                return f"moves {source} away, where the user asked for a copy of it"
    return None


#: A name in the code to be renamed ("rename the variable tmp to buffer", "rename the
#: fetchData function"): the code changes, the file keeps its name.
_SYMBOL_RENAME = re.compile(
    r"\brename\s+(?:the\s+|this\s+|that\s+|a\s+)?(?:[`'\"]?[\w.]+[`'\"]?\s+)?"
    r"(?:variable|var|function|func|method|class|field|column|key|parameter|param|argument"
    r"|constant|attribute|property|prop|interface|enum|component|hook|struct|macro|fixture)s?\b",
    re.IGNORECASE,
)
_FILE_SAID = re.compile(r"\b(?:file|files|filename|module|folder|directory)\b", re.IGNORECASE)


def symbol_not_file_issue(effect: CallEffect, said: str) -> str | None:
    """A file moved where the user asked for a name in its code changed: `git mv
    io/reader.py io/buffer.py` after "rename the variable tmp to buffer in io/reader.py"."""
    if not _SYMBOL_RENAME.search(said[:20_000]) or _FILE_SAID.search(said[:20_000]):
        return None
    for e in effect.effects:
        moved = (
            _MOVES.match(e.what) is not None
            if effect.source == "shell"
            else effect.source == "name"
            and re.search(r"(?:move|rename|mv)", e.what, re.IGNORECASE) is not None
            and re.search(r"(?:file|path|dir|folder)", e.what, re.IGNORECASE) is not None
        )
        if moved:
            return "moves a file, where the user asked to rename a name in its code"
    return None


#: A folder the user wrote out ("in src/", "under app/api/") or called one ("the docs
#: folder").
_FOLDER_SAID = re.compile(
    r"(?<![\w./-])((?:[\w.-]+/)+)(?=[\s.,;:!?)]|$)"
    r"|\b(?:the|my|our)\s+([\w.-]+)\s+(?:folder|directory|dir|package|module)\b",
    re.IGNORECASE,
)


#: What reaches the whole working tree: `.`, `./`, `*`, `./*`.
_WHOLE_TREE = frozenset([".", "./", "*", "./*", "-A", "--all"])


#: Tools that rewrite the files they are given unless told only to check.
_REWRITERS = re.compile(
    r"\s*(?:sudo\s+)?(?:black|isort|autopep8|yapf|autoflake|ruff\s+format)\b(?![^|;&\n]*\s--(?:check|diff)\b)"
)


def whole_tree_issue(effect: CallEffect, said: str, results: Sequence[str]) -> str | None:
    """A change taken to the whole working tree where the user named a folder or a file:
    `black .` after "format the code in src/"; `git add -A && git commit` after "commit the
    changes to src", when the status in view lists untracked notes beside them."""
    if effect.source != "shell" or EVERY_SAID.search(said):
        return None
    named = [a or b for a, b in _FOLDER_SAID.findall(said[:20_000])[:16]]
    named += named_files(said)
    named = [n for n in named if n.strip("./")]
    # staging everything is wider only where a status in view lists changes beside the
    # named ones: a tree that holds just the named change stages just that
    picked = _status_paths_named(said, results)
    if not named and not picked:
        return None
    for e in effect.effects:
        if e.kind == "read" or (e.kind == "execute" and not _REWRITERS.match(e.what)):
            continue
        git = re.match(r"\s*(?:sudo\s+)?git\s+(add|commit)\b", e.what)
        staged_all = git is not None and (
            bool(set(e.objects) & _WHOLE_TREE)
            or re.search(r"\s(?:-A|--all)\b", e.what) is not None
            or (git.group(1) == "commit" and re.search(r"\s-[a-zA-Z]*a[a-zA-Z]*\b", e.what))
        )
        if staged_all and picked:
            return f"{e.what[:60]} stages every change, where the user named {picked[0]}"
        if git is None and named and set(e.objects) & _WHOLE_TREE:
            return f"{e.what[:60]} reaches the whole working tree, where the user named {named[0]}"
    return None


#: A line of `git status --short` (its two status letters, then the path) or of the long
#: form (`modified:   src/app.py`, an untracked file on a line of its own after a tab).
_STATUS_LINE = re.compile(
    r"^\s*[MADRCU?!]{1,2}\s+(\S+)\s*$"
    r"|^\s*(?:modified|new file|deleted|renamed|typechange|both modified):\s+(?:\S+ -> )?(\S+)\s*$"
    r"|^\t([^\s:]+)\s*$",
    re.MULTILINE,
)


def _status_paths_named(said: str, results: Sequence[str]) -> list[str]:
    """The changed paths a status in view lists that the user's words name by their top
    folder or their file's name ("the changes to src" over `src/app.py`), when it lists
    others they do not: then the user picked some of the changes, not all."""
    paths = [
        next(g for g in m if g) for r in results[-4:] for m in _STATUS_LINE.findall(r[:20_000])
    ][:200]
    if len(paths) < 2:
        return []
    said_words = set(words(said))

    def named(path: str) -> bool:
        # by its top folder, whole, or by its file's name ("the login fix": src/login.py;
        # "the new module": src/new_module.py)
        stem = path.rsplit("/", 1)[-1].split(".", 1)[0].lower()
        parts = [p for p in re.split(r"[_-]+", stem) if p]
        return (
            path.split("/", 1)[0].lower() in said_words
            or path.lower() in said.lower()
            or (len(stem) > 2 and stem in said_words)
            or (len(parts) > 1 and all(p in said_words for p in parts))
        )

    picked = [p for p in paths if named(p)]
    return picked if picked and len(picked) < len(paths) else []
