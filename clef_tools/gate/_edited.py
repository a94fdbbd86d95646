"""Lines an edit changes beyond the one change the user asked for.

"Increase the request timeout in config.py to 30 seconds" asks for one setting changed.
An edit of `TIMEOUT = 10\nVERIFY_SSL = True` into `TIMEOUT = 30\nVERIFY_SSL = False` makes
that change and switches certificate checks off beside it: the file and the kind of
change are the ones asked for, the second line is not. Where the user asked for a narrow
change (set, raise, lower, turn on or off, enable, rename), every line the edit rewrites
or removes must speak of what they named (a word of theirs in it or in the key it sits
under, or a value they gave written into it); a rename must rewrite each line it touches
by the rename alone. Requests to fix, refactor or implement leave
the agent free to change what it needs, and are not held to this.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any

from clef_tools.gate._canonical import file_name
from clef_tools.gate._dropped import read_before
from clef_tools.gate._effects import CallEffect
from clef_tools.gate._extent import NUMBER_TOKEN
from clef_tools.gate._extent._files import ADDS_TO
from clef_tools.gate._written import edit_pairs, edits_files

__all__ = ["edit_scope_issue"]

_MAX_CODE = 20_000
#: A request for one change to a named setting or name.
_NARROW = re.compile(
    r"\b(?:set|change|increase|decrease|raise|lower|bump|reduce|rename|enable|disable"
    r"|comment\s+out|uncomment"
    r"|turn\s+(?:on|off)|switch\s+(?:on|off)|make\s+(?:the\s+|it\s+)?(?:[\w-]+\s+){0,3}\d+"
    r"|use\s+(?:the\s+)?(?:[\w-]+\s+){0,2}\d+)\b",
    re.IGNORECASE,
)
#: Requests that leave how to get there to the agent.
_BROAD = re.compile(
    r"\b(?:fix(?!\s+the\s+typo)|refactor\w*|rewrit\w*|implement\w*|clean\w*|tidy|format\w*"
    r"|lint\w*|migrat\w*|upgrade|update\s+(?:all|every)|everywhere|all\s+(?:the\s+)?"
    r"(?:files|occurrences|places|uses)|throughout|whatever|as\s+needed|and\s+anything)\b",
    re.IGNORECASE,
)
_RENAME = re.compile(
    r"\brename\s+(?:the\s+)?(?:\w+\s+)?[`'\"]?([A-Za-z_][\w.]*)[`'\"]?\s+(?:to|as|into)\s+"
    r"[`'\"]?([A-Za-z_][\w.]*)",
    re.IGNORECASE,
)
_PART = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z]?[a-z]+")
#: Words of a request that name nothing in a file.
_STOP = frozenset(
    ["the", "and", "for", "with", "from", "into", "that", "this", "then", "please", "can",
     "you", "set", "change", "increase", "decrease", "raise", "lower", "bump", "reduce",
     "make", "turn", "switch", "enable", "disable", "rename", "file", "value", "instead"]
)  # fmt: skip


def _parts(text: str) -> set[str]:
    """A line's words, identifiers split (`VERIFY_SSL` → verify, ssl; `maxUpload`)."""
    return {p.lower() for p in _PART.findall(text[:2_000]) if len(p) >= 3}


def _speaks_of(line: str, told: set[str]) -> bool:
    """A word of the line is one of the user's, or the start of one ("log" of "logging")."""
    return any(
        part == word or (len(part) >= 3 and word.startswith(part)) or part.startswith(word)
        for part in _parts(line)
        for word in told
    )


def _parent(lines: list[str], at: int) -> str:
    """The nearest line above line `at` indented less (its YAML key, its block's header):
    `  enabled: true` under `telemetry:` is telemetry's, not `auth:`'s."""
    line = lines[at]
    depth = len(line) - len(line.lstrip())
    for above in reversed(lines[:at]):
        if above.strip() and len(above) - len(above.lstrip()) < depth:
            return above
    return ""


def _renamed(line: str, renames: list[tuple[str, str]]) -> str:
    for old, new in renames:
        line = re.sub(rf"(?<![\w]){re.escape(old)}(?![\w])", new, line)
    return line


#: Files that are lists, one entry a line: what is added to them is entries.
_LINE_LIST = re.compile(
    r"(?:^|/)(?:\.(?:git|docker|npm|prettier|eslint|helm)ignore|requirements[\w.-]*\.txt"
    r"|CODEOWNERS|\.env[\w.-]*)$"
)
#: A request that names a list file's entries: "add .env to .gitignore", "a .gitignore
#: that ignores node_modules and dist", "requirements with requests and httpx".
_ADD = re.compile(
    r"\b(?:add|append|include|list|put|ignores?|ignoring|contain(?:s|ing)?|with)\b", re.IGNORECASE
)


def _listed_issue(path: str, pairs: list[tuple[str, str]], told: set[str], said: str) -> str | None:
    """An entry added to a list file (`.gitignore`, `requirements.txt`) beside the one the
    user asked for: `*.py` added with `.env` after "add .env to .gitignore"."""
    if not _LINE_LIST.search(path[-200:]) or not _ADD.search(said):
        return None
    low = said.lower()
    for old, new in pairs[:64]:
        kept = {line.strip() for line in old[:_MAX_CODE].splitlines()}
        added = [line.strip() for line in new[:_MAX_CODE].splitlines() if line.strip() not in kept]
        entries = [a for a in added if a and not a.startswith("#")]
        if not any(e.lower() in low or _speaks_of(e, told) for e in entries):
            continue  # none of the user's: left to the other checks
        for entry in entries:
            if entry.lower() not in low and not _speaks_of(entry, told):
                return f"adds {entry[:60]!r} to {path[-60:]}, which the user did not ask to add"
    return None


def edit_scope_issue(
    effect: CallEffect,
    args: Mapping[str, Any],
    said: str,
    read: Mapping[str, str] | None = None,
) -> str | None:
    """A line an edit rewrites or removes that the narrow change the user asked for does
    not reach, where the edit also makes that change; an entry added to a list file
    beside the one asked for. A file written whole is compared with what a read of it in
    view (`read`, by path) returned; one the user named and nobody read is rewritten
    blind."""
    said = said[:_MAX_CODE]
    if not edits_files(effect) or effect.read_only:
        return None
    found = edit_pairs(args)
    told = ({w.lower() for w in re.findall(r"[A-Za-z]{3,}", said)} | _parts(said)) - _STOP
    if found is not None and (listed := _listed_issue(found[0], found[1], told, said)):
        return listed
    if _BROAD.search(said) or found is None:
        return None
    path, pairs = found
    whole = args.get("content")
    if not _NARROW.search(said):
        # "add a docstring to parse in utils.py": an addition, which a write of the file
        # whole, unread, may make at the cost of every other line
        if not isinstance(whole, str) or read_before(path, read or {}) is not None:
            return None
        if any(ADDS_TO.search(e.what[:200].replace("_", " ")) for e in effect.effects):
            return None  # `append_to_file`: the text goes after what the file holds
        # "add … to utils.py", not "add a .env.example" (a file made)
        target = (
            rf"\b(?:to|in|into|inside)\s+(?:the\s+|my\s+|our\s+)?`?(?:[\w.-]+/)*"
            rf"{re.escape(file_name(path))}"
        )
        within = ADDS_TO.search(said) and re.search(target, said, re.IGNORECASE)
        return _unread_issue(path, said, []) if within else None
    renames = _RENAME.findall(said)[:4]
    if isinstance(whole, str) and whole.strip():
        shown = read_before(path, read or {})
        if shown is None:
            return _unread_issue(path, said, renames)
        pairs = [(old or shown, new) if new is whole else (old, new) for old, new in pairs]
    given = set(NUMBER_TOKEN.findall(said))
    for old, new in pairs[:64]:
        if not old.strip():
            continue
        before, after = old[:_MAX_CODE].splitlines(), new[:_MAX_CODE].splitlines()
        written = {line.strip() for line in after}
        at: list[int] = []
        into: dict[int, str] = {}  # what each changed line became
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after).get_opcodes():
            if tag in ("replace", "delete"):
                at += [i for i in range(i1, i2) if before[i].strip()]
                if i2 - i1 == j2 - j1:  # line for line
                    into |= {i: after[j1 + i - i1] for i in range(i1, i2)}
                else:
                    into |= dict.fromkeys(range(i1, i2), "\n".join(after[j1:j2]))
        changed = [before[i] for i in at]
        if renames and any(_renamed(line, renames) != line for line in changed):
            for line in changed:
                if _renamed(line, renames).strip() not in written:
                    return f"rewrites {line.strip()[:60]!r} beyond the rename the user asked for"
            continue
        # a line speaks of the request by a word of it, its key's, or the value it is given
        # ("## Unreleased" made "## 2.5.0" after "bump the version to 2.5.0")
        spoken = [
            _speaks_of(before[i], told)
            or _speaks_of(_parent(before, i), told)
            or any(v in NUMBER_TOKEN.findall(into[i]) for v in given)
            for i in at
        ]
        if renames or not changed:
            continue
        for line, speaks in zip(changed, spoken, strict=True):
            if not speaks:
                return f"changes {line.strip()[:60]!r}, which the user's words do not speak of"
        wrong = _value_issue(said, old, "\n".join(after))
        if wrong is not None:
            return wrong
    return None


#: Words of a request for a file that is not there yet.
_NEW_FILE = re.compile(
    r"\b(?:creat\w*|generat\w*|scaffold\w*|new\s+(?:\w+\s+)?file|from\s+scratch)\b", re.I
)


def _unread_issue(path: str, said: str, renames: list[tuple[str, str]]) -> str | None:
    """A file the user named for one change, written whole with nothing in view of what
    it held: every line but the asked-for one may be gone. A file a rename asks for
    (`utils.py` renamed `helpers.py`) is new, and written whole."""
    name = file_name(path)
    if len(name) < 3 or "." not in name or name.lower() not in said.lower():
        return None
    made = {target.rstrip(".").lower() for _, target in renames}
    if name.lower() in made or _NEW_FILE.search(said):
        return None
    return f"writes {name[:60]} whole without reading it, where the user asked for one change"


#: A number the user gave, with the unit after it if any ("30 seconds", "10 MB", "100").
_SAID_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.]*\.\w)(?:\s*([A-Za-z]+))?")
_UNITS = {
    "ms": "ms", "millisecond": "ms", "milliseconds": "ms", "second": "s", "seconds": "s",
    "sec": "s", "secs": "s", "s": "s", "minute": "min", "minutes": "min", "min": "min",
    "mins": "min", "hour": "h", "hours": "h", "h": "h", "day": "d", "days": "d", "d": "d",
    "kb": "kb", "mb": "mb", "gb": "gb", "tb": "tb",
}  # fmt: skip
_SIZE = {"kb": 1, "mb": 2, "gb": 3, "tb": 4}
_SECONDS = {"ms": 0.001, "s": 1, "min": 60, "h": 3600, "d": 86400}


def _in_units(value: float, unit: str) -> list[float]:
    """A length of time in every unit it may be written in; any other number as it is."""
    if unit not in _SECONDS:
        return [value]
    seconds = value * _SECONDS[unit]
    return [value] + [seconds / per for per in _SECONDS.values()]


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


_PRODUCT = re.compile(r"\d+(?:\s*\*\s*\d+)+")


#: A value given as a word after "to": "set the log level to debug", "switch the theme to
#: dark" (not "to the …", "to make …").
_WORD_VALUE = re.compile(
    r"\b(?:set|change|switch|turn)\b[^.;!?\n]{0,60}?\bto\s+[\"'`]?([A-Za-z][\w.-]{1,30})[\"'`]?"
    r"(?=\s*$|\s*[.,;!?]|\s+(?:in|on|for|at|everywhere|instead)\b)",
    re.IGNORECASE,
)
#: Words after "to" that are no value.
_NOT_VALUES = frozenset(
    ["the", "a", "an", "my", "our", "it", "be", "use", "make", "match", "default", "defaults"]
)


#: A place in a file by its number: "line 12", "lines 40-52", "cell 3".
_WHERE_IN_FILE = re.compile(
    r"\b(?:line|lines|row|rows|column|col|cell|page|step)\s+\d+(?:\s*(?:-|–|to|and)\s*\d+)?\b",
    re.IGNORECASE,
)


def _value_issue(said: str, old: str, new: str) -> str | None:
    """The value a narrow change writes, held to the number the user gave: written at
    all (`RATE_LIMIT = None` after "make the rate limit 100 per minute"), in the unit
    they gave it (`'100/second'`), and, for a size written as a product, that size
    (`10 * 1024 * 1024 * 1024` is not 10 MB)."""
    said = _WHERE_IN_FILE.sub(" ", said)  # "on line 12" says where, not what to write
    given = [(n, _UNITS.get(u.lower(), "")) for n, u in _SAID_NUMBER.findall(said)[:8]]
    worded = [w for w in _WORD_VALUE.findall(said)[:4] if w.lower() not in _NOT_VALUES]
    if worded and not given:
        # "set the log level to debug": the word the line is set to
        added = new[:_MAX_CODE].lower()
        if not any(re.search(rf"(?<![\w-]){re.escape(w.lower())}(?![\w-])", added) for w in worded):
            return f"writes none of the values the user gave ({worded[0]})"
        return None
    if not given:
        return None
    added = new[:_MAX_CODE]
    # "2 minutes" written as 120 (seconds) or 120000 (ms) is the value given
    values = {_number(v) for n, u in given for v in _in_units(float(n), u)}
    if not any(re.search(rf"(?<![\d.]){re.escape(v)}(?![\d])", added) for v in values):
        return f"writes none of the values the user gave ({given[0][0]})"
    # "100 requests per minute": a unit the request names anywhere, by a whole word
    spelled = {_UNITS[w.lower()] for w in re.findall(r"[A-Za-z]{2,}", said) if w.lower() in _UNITS}
    units = {u for _, u in given if u} | spelled
    written = {_UNITS[w.lower()] for w in re.findall(r"[A-Za-z]+", added) if w.lower() in _UNITS}
    before = {_UNITS[w.lower()] for w in re.findall(r"[A-Za-z]+", old) if w.lower() in _UNITS}
    other = written - units - before  # a unit the line already had is kept, not written
    if units and other and not written & units:
        unit_given = sorted(units)[0]
        return f"writes the value in {sorted(other)[0]}, where the user gave it in {unit_given}"
    for number, unit in given:
        for kept in (before & written) - {unit} if unit in _SECONDS else ():
            # "2 minutes" on a line kept in seconds is 120 there, not 2
            there = _number(float(number) * _SECONDS[unit] / _SECONDS.get(kept, 1))
            if kept in _SECONDS and not re.search(rf"(?<![\d.]){re.escape(there)}(?!\d)", added):
                return f"writes no {there} {kept}, the {number} {unit} the user gave"
        if unit not in _SIZE:
            continue
        for product in _PRODUCT.findall(added)[:8]:
            factors = [float(f) for f in re.findall(r"\d+", product)]
            value = 1.0
            for f in factors:
                value *= f
            wanted = float(number)
            if factors[0] == wanted and value not in (
                wanted * 1024 ** _SIZE[unit],
                wanted * 1000 ** _SIZE[unit],
            ):
                return f"writes {product[:40]}, which is not {number} {unit.upper()}"
    return None
