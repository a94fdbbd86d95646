"""The values a call writes against the ones the user gave: figures, old values, texts
cut or replaced, quoted parts, addresses, fields cleared."""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._canonical import replaced_pairs
from clef_tools.gate._effects import FIND_KEY, OPERATION_KEY, PRIVATE_KEY, CallEffect, words
from clef_tools.gate._extent._code import takes_every
from clef_tools.gate._extent._common import (
    COUNT_WORDS,
    EVERY_SAID,
    MAX_SAID,
    NUMBER_TOKEN,
    PEOPLE_KEY,
    SET_TO_VALUE,
    SETS,
    TEXT_KEY,
)
from clef_tools.gate._extent._occasions import call_ids, held_values
from clef_tools.gate._grounding import ADDRESS_TEXT, QUOTED_NAME, is_setting_key, records_of

_PRIVATE_SAID = re.compile(r"(?<![\w-])private(?![\w-])", re.IGNORECASE)


def unprivate_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A thing made open where the user asked for a private one: `create_channel(
    is_private=False)` after "create a private #launch channel"."""
    if not _PRIVATE_SAID.search(said):
        return None
    for key, value in list(args.items())[:32]:
        if PRIVATE_KEY.match(str(key)) and value is False:
            return f"{key}=False, where the user asked for a private one"
    return None


#: A find-and-replace's two texts (`find="January 5", replace="January 12"`).
_REPLACE_KEYS = frozenset(["replace", "replacement", "new", "new_text", "newtext", "with"])


#: A figure a text states: a sum, a count, a date's day (`$150,000`, `12`, `3.5`).
_FIGURE = re.compile(r"(?<![\w.])[$€£]?\d[\d,]*(?:\.\d+)?(?![\w]|\.\d)")


def replaced_figure_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A replacement that writes a figure neither the passage it replaces nor the user's
    words hold: "Start date: January 12. Salary: $150,000." for "change the start date to
    January 12"."""
    keys = {str(k).lower(): v for k, v in list(args.items())[:32] if isinstance(v, str)}
    old = next((v for k, v in keys.items() if FIND_KEY.match(k)), None)
    new = next((keys[k] for k in _REPLACE_KEYS if k in keys), None)
    if old is None or new is None:
        return None

    def plain(figure: str) -> str:
        return figure.lstrip("$€£").replace(",", "")

    known = {plain(f) for f in _FIGURE.findall(old[:5_000])} | {
        plain(f) for f in _FIGURE.findall(said[:20_000])
    }
    for figure in _FIGURE.findall(new[:5_000])[:32]:
        if plain(figure) not in known:
            return f"writes {figure}, which neither the replaced text nor the user states"
    return None


#: "rename report.docx to report-final.docx", "copy a.txt to b.txt": from one name to another.
_FROM_NAME_TO = re.compile(
    r"\b(?:rename|move|mv|copy|cp|(?:make|create)\s+an?\s+copy\s+of|duplicate)\s+(?:the\s+)?"
    r"([\w./~-]+)\s+(?:to|into|as|called|named)\s+([\w./~-]+)",
    re.IGNORECASE,
)


def swapped_issue(effect: CallEffect, said: str) -> str | None:
    """A move or a copy the wrong way round: `mv report-final.docx report.docx` after
    "rename report.docx to report-final.docx" overwrites the file the user kept."""
    if effect.source != "shell":
        return None
    for e in effect.effects:
        objects = [o.strip("'\"").rstrip("/") for o in e.objects]
        if len(objects) < 2:
            continue
        first, last = objects[0], objects[-1]
        for a, b in _FROM_NAME_TO.findall(said)[:8]:
            a, b = a.rstrip(".,;"), b.rstrip(".,;")
            if a != b and first == b and last == a:
                return f"from {first} to {last}, where the user asked from {a} to {b}"
    return None


_FROM_KEY = re.compile(
    r"^(?:from|from_account(?:_number|_id)?|source(?:_account|_path|_id)?|src|origin"
    r"|debit_account|sender_account)$",
    re.IGNORECASE,
)


_TO_KEY = re.compile(
    r"^(?:to|to_account(?:_number|_id)?|destination(?:_account|_path|_id)?|dest|dst"
    r"|target(?:_account|_path)?|credit_account)$",
    re.IGNORECASE,
)


def ends_swapped_issue(
    args: Mapping[str, Any], said: str, results: Sequence[str] = ()
) -> str | None:
    """A move the wrong way round: `transfer(from="savings", to="checking")` after "move
    $500 from checking to savings"; the user's "to X" names where it goes. An account
    given by its number is called what the record holding it calls it ("savings")."""
    ends = {"from": "", "to": ""}
    for key, given in list(args.items())[:32]:
        # `merge_tickets(source=5532, target=5531)`: a record by its number is an end too
        value = str(given) if isinstance(given, int) and not isinstance(given, bool) else given
        if isinstance(value, str) and 0 < len(value.strip()) <= 120:
            side = "from" if _FROM_KEY.match(str(key)) else "to" if _TO_KEY.match(str(key)) else ""
            if side and not ends[side]:
                ends[side] = value.strip()
    source, sink = ends["from"], ends["to"]
    if not source or not sink or source.lower() == sink.lower():
        return None
    into, out_of = ("to", "into"), ("from", "out of")
    sources, sinks = _called(source, results), _called(sink, results)
    if _any_said_after(into, sources, said) and not _any_said_after(into, sinks, said):
        return f"moves from {source[:40]} to {sink[:40]}, where the user said to {source[:40]}"
    if _any_said_after(out_of, sinks, said) and not _any_said_after(out_of, sources, said):
        return f"moves from {source[:40]} to {sink[:40]}, where the user said from {sink[:40]}"
    return None


#: Where a card or an item sits (`column="Done"`): moved there, as a state is set.
_PLACED_KEYS = frozenset(["column", "lane", "list", "bucket", "swimlane"])


def old_value_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A setting set to the value the user named the record by, where they asked for
    another: `plan="Team"` after "downgrade my Team plan to Pro", `status="Open"` after
    "change the status from Open to Closed". A value the call sets elsewhere ("set the
    Team plan's seats to 5" with `seats=5`) is not the setting's."""
    if "modify" not in effect.kinds:
        return None
    values = " ".join(str(v) for v in list(args.values())[:32] if isinstance(v, str | int | float))
    for key, value in list(args.items())[:32]:
        if not isinstance(value, str) or not (
            is_setting_key(str(key)) or str(key).lower() in _PLACED_KEYS
        ):
            continue
        old = value.strip()
        if not 1 < len(old) <= 40 or _said_after(("to", "into", "as"), old, said):
            continue
        # "from Doing to Done", "my Team plan to Pro": the value, or the value and the
        # setting's own noun, right before "to" ("the high priority ticket to Ana" moves
        # the ticket, not its priority)
        noun = re.escape(str(key).lower().rsplit("_", 1)[-1])
        moved = re.search(
            rf"(?:\bfrom\s+{re.escape(old)}|(?<![\w-]){re.escape(old)}(?:\s+{noun}s?)?)"
            r"\s+(?:to|into)\s+(?:the\s+|a\s+|an\s+)?([\w-]+)",
            said,
            re.IGNORECASE,
        )
        if moved is None:
            continue
        new = moved.group(1)
        if new.lower() != old.lower() and not re.search(
            rf"(?<![\w-]){re.escape(new)}(?![\w-])", values, re.IGNORECASE
        ):
            return f"{key}={old}, where the user asked for {new}"
    return None


#: A record's field values that are words (`"type": "savings"`, `type: savings`).
_FIELD_VALUE = re.compile(r":\s*[\"']?([A-Za-z][\w '-]{2,30}?)[\"']?\s*(?:[,}\n]|$)")


def _called(value: str, results: Sequence[str]) -> list[str]:
    """A value, and what the one record in view holding it calls it (`987-6543-2109` of
    `{"account_number": "987-6543-2109", "type": "savings"}` is the savings account, and
    `****1234` of "checking ****1234 balance 2,340.10" the checking one)."""
    if not results or len(value) < 4:
        return [value]
    holding = [r for res in results[-16:] for r in records_of(res) if value in r][:2]
    if len(holding) != 1:
        return [value]
    names = _FIELD_VALUE.findall(holding[0][:2_000]) or _RECORD_WORD.findall(holding[0][:2_000])
    return [value, *(n for n in names[:16] if n != value)]


#: The words of a record written as text, not as fields.
_RECORD_WORD = re.compile(r"(?<![\w-])[A-Za-z][\w-]{2,}")


def _any_said_after(words: tuple[str, ...], values: Sequence[str], said: str) -> bool:
    return any(_said_after(words, v, said) for v in values)


def _said_after(words: tuple[str, ...], value: str, said: str) -> bool:
    lead = "|".join(re.escape(w) for w in words)
    return (
        re.search(
            rf"\b(?:{lead})\s+(?:my\s+|the\s+|our\s+|your\s+)?{re.escape(value)}(?![\w-])",
            said,
            re.IGNORECASE,
        )
        is not None
    )


#: A request only to add ("add requests to requirements.txt", "append 'Buy milk' to …").
_ADDS = re.compile(r"\b(?:add|append|insert|include|install|mention)\b", re.IGNORECASE)


_CHANGES = re.compile(
    r"\b(?:remove|delete|drop|replace|rewrite|rename|change|update|fix|refactor|clean|move"
    r"|bump|upgrade|downgrade|swap|edit|modify|reorder|sort|tidy|trim|cut|strip|shorten)\w*",
    re.IGNORECASE,
)


_SETS_VALUE = re.compile(
    SETS + r"(?:\bto\s+(?:v?\d|[\"'`]|(?:true|false|on|off)\b)|\w=\w)",
    re.IGNORECASE,
)


def cut_issue(args: Mapping[str, Any], said: str) -> str | None:
    """An edit that removes a line where the user asked only to add (`flask==3.0` gone
    from requirements.txt after "add requests to requirements.txt"), or only to set a
    value (`SECRET_KEY=…` gone from .env after "set DEBUG=false")."""
    adds = _ADDS.search(said) is not None and not _CHANGES.search(said)
    if not adds and not _SETS_VALUE.search(said):
        return None
    asked = "add" if adds else "set a value"
    values = set() if adds else set(SET_TO_VALUE.findall(said[:20_000]))
    for old, new in replaced_pairs(args):
        old_lines, new_lines = old[:100_000].splitlines()[:500], new[:100_000].splitlines()[:500]
        kept = set(_WORDY.findall(new[:100_000]))
        blocks = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False).get_opcodes()
        for tag, i1, i2, j1, j2 in blocks:
            if tag not in ("replace", "delete"):
                continue
            written = "\n".join(new_lines[j1:j2])
            if (
                tag == "replace"
                and i2 - i1 == j2 - j1
                and (
                    values & set(NUMBER_TOKEN.findall(written))
                    or (not adds and _gives_value(written, "\n".join(old_lines[i1:i2]), said))
                )
            ):
                # `## Unreleased` → `## 2.5.0`, `DEBUG=true` → `DEBUG=false`: the value
                # asked for, written in its place
                continue
            for line in old_lines[i1:i2]:
                # a word of the line gone from the edit: `--quiet` replaced by the
                # `--verbose` asked for (an item added to a line keeps every word of it)
                if set(_WORDY.findall(line)) - kept:
                    return f"removes {line.strip()[:60]!r}, where the user asked only to {asked}"
    return None


def _gives_value(written: str, replaced: str, said: str) -> bool:
    """Whether the lines written carry a word of the user's that the lines they replace
    did not (the `false` of "set DEBUG=false")."""
    told = {w.lower() for w in re.findall(r"\w+", said[:20_000])}
    before = {w.lower() for w in re.findall(r"\w+", replaced)}
    return any(w.lower() in told and w.lower() not in before for w in re.findall(r"\w+", written))


#: A word of code or text, not a number (`256Mi`, `30s`: a value changed is no line removed).
_WORDY = re.compile(r"\b[A-Za-z_]\w{2,}\b")


#: Arguments that name the one thing a call acts on.
_NAME_KEY = re.compile(
    r"^(?:name|title|album|folder|label|channel|list|playlist|contact|project|board|page"
    r"|calendar|group|tag|display_name|full_name)$",
    re.IGNORECASE,
)


def part_of_quoted_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A delete or a change by a name that is only part of the one the user quoted:
    `delete_contact(name="Plumber")` for "delete the contact 'Old Plumber'" may match the
    new plumber, or every plumber."""
    if not effect.kinds & {"delete", "modify"} or effect.source not in ("name", "annotations"):
        return None
    quoted = [q.strip().lower() for q in QUOTED_NAME.findall(said[:MAX_SAID])[:8]]
    if not quoted:
        return None
    for key, value in list(args.items())[:32]:
        if not (_NAME_KEY.match(str(key)) and isinstance(value, str)):
            continue
        given = value.strip().lower()
        if len(given) < 3 or given in quoted or not re.search(r"[a-z]{3}", given):
            continue
        whole = re.compile(rf"(?<!\w){re.escape(given)}(?!\w)")
        part_of = next((q for q in quoted if whole.search(q)), None)
        if part_of is not None:
            return f"acts on {value!r}, part of the name the user quoted ({part_of!r})"
        # more than the name: "old wifi password" is another note than "wifi password"
        within = next(
            (
                q
                for q in quoted
                if len(q) >= 3
                and re.search(rf"\w\W+{re.escape(q)}(?!\w)|(?<!\w){re.escape(q)}\W+\w", given)
                # a file's extension after the name adds no word ("Q3 final numbers.xlsx")
                and not re.fullmatch(r"\s*\.\w{1,5}\s*", given.replace(q, " ", 1).strip())
            ),
            None,
        )
        if within is not None:
            return f"acts on {value!r}, not the name the user quoted ({within!r})"
    return None


def part_of_address_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A delete, a block or a change by part of the address the user gave: `from:spam.example`
    or `promo` for "delete all emails from promo@spam.example" takes in every sender there."""
    if not effect.kinds & {"delete", "modify", "grant"}:
        return None
    given = [a.lower().rstrip(".") for a in ADDRESS_TEXT.findall(said[:MAX_SAID])[:8]]
    if not given:
        return None
    for key, value in list(args.items())[:32]:
        if not (isinstance(value, str) and _SENDER_KEY.match(str(key))):
            continue
        low = value.lower()
        if any(a in low for a in given):
            continue
        for token in re.split(r"[\s:,;()\"'<>]+", low[:2000])[:64]:
            part_of = next((a for a in given if token and _address_part(token, a)), None)
            if part_of is not None:
                return f"acts on {token!r} ({key}), part of the address the user gave ({part_of})"
    return None


#: Arguments that pick messages or people by their address.
_SENDER_KEY = re.compile(
    r"^(?:email|emails|address|from|sender|senders|query|q|filter|search|domain|pattern|user"
    r"|recipient|to)$",
    re.IGNORECASE,
)


def _address_part(token: str, address: str) -> bool:
    """`spam.example`, `@spam.example` or `promo` of `promo@spam.example`: its domain (or a
    domain it is under) or its local part alone."""
    local, _, domain = address.partition("@")
    token = token.lstrip("@")
    return token in (local, domain) or ("." in token and domain.endswith("." + token))


#: What a user gives to be written: a quoted phrase, a version ("Python 3.12").
_GIVEN = re.compile(
    r"[\"'`“‘]([^\"'`”’\n]{3,80})[\"'`”’]|(?<![\w.])(\d+\.\d+(?:\.\d+)*)(?!\w|\.\w)"
)


def unwritten_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A file written whole without anything the user gave to be put in it: README.md
    written as "# Project" after "update the README's install section to mention Python
    3.12" is the file lost, not the section changed."""
    content, path = args.get("content"), args.get("file_path") or args.get("path")
    if not isinstance(content, str) or not isinstance(path, str) or len(args) > 4:
        return None
    given = [a or b for a, b in _GIVEN.findall(said)[:16]]
    stem = re.sub(r"\.[a-z0-9]{1,5}$", "", path.rsplit("/", 1)[-1].lower())
    if not given or len(stem) < 3 or stem not in said.lower():
        return None
    if any(g.lower() in content.lower() for g in given):
        return None
    return f"writes {path[:60]} whole without what the user gave to put in it ({given[0][:40]!r})"


#: Arguments that hold a postal address, or its street line.
_ADDRESS_KEY = re.compile(
    r"(?:^|_)(?:address|street|street_address|address_line_?1|line_?1|addr)$", re.IGNORECASE
)


#: A house number and the street it is on ("55 Oak Lane").
_HOUSE = re.compile(r"(?<![\w.-])(\d{1,6}[A-Za-z]?)\s+((?:[A-Z][\w'-]*\s*){1,4})")


def house_number_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A street the user gave, at a house number they did not: `address="55 Oak Lane"`
    after "change the shipping address to 5 Oak Lane" sends the parcel elsewhere."""
    if effect.read_only:
        return None
    for key, value in list(args.items())[:32]:
        if not (isinstance(value, str) and _ADDRESS_KEY.search(str(key))):
            continue
        for number, street in _HOUSE.findall(value[:400]):
            name = " ".join(street.split())
            if not re.search(re.escape(name), said, re.IGNORECASE):
                continue  # a street the user did not give: the address is the agent's find
            if not re.search(
                rf"(?<![\w.-]){re.escape(number)}\s+{re.escape(name.split()[0])}", said, re.I
            ):
                return f"{key}={value[:60]!r}: {name} at a number the user did not give"
    return None


def every_key_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A change an argument or the tool's name takes to every object of its kind where the
    user named one: `purge_cache(purge_everything=True)` after "purge the cache for
    /pricing", `mute_all` after "mute Dev"."""
    if effect.read_only or EVERY_SAID.search(said):
        return None
    tool = effect.tool.rsplit("__", 1)[-1]
    if effect.source in ("name", "annotations") and takes_every(tool):
        return f"{tool} acts on every one, where the user named one"
    for key, value in list(args.items())[:32]:
        if takes_every(str(key)) and (
            value is True or (isinstance(value, str) and value.strip().lower() in ("all", "true"))
        ):
            return f"{key}={value!r} acts on every one, where the user named one"
        if (
            effect.source in ("name", "annotations")
            and OPERATION_KEY.match(str(key))
            and isinstance(value, str)
            and takes_every(value[:60])
        ):
            # `drafts(action="delete_all")`: a tool of several uses, told to do it to all
            return f"{key}={value!r} acts on every one, where the user named one"
    return None


#: An update's map of the fields it writes (Jira's `fields`, a PATCH body's `data`): a
#: field given there as null or empty is cleared, not left alone.
_FIELD_MAPS = frozenset(["fields", "updates", "update", "changes", "properties", "data", "patch"])


_CLEAR_SAID = re.compile(
    r"\b(?:clear|clears|remove|unassign|unset|empty|blank|reset|delete|drop|wipe|none|null"
    r"|nobody|no\s+one)\b",
    re.IGNORECASE,
)


def cleared_field_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A field cleared beside the one the user asked to set: `fields={"priority": "High",
    "assignee": None}` for "set the priority of PROJ-12 to high" unassigns the ticket."""
    if "modify" not in effect.kinds or effect.source not in ("name", "annotations"):
        return None
    if _CLEAR_SAID.search(said):
        return None
    told = {w[:4] for w in words(said[:MAX_SAID])}
    for key, value in list(args.items())[:32]:
        if str(key).lower() not in _FIELD_MAPS or not isinstance(value, Mapping):
            continue
        for field, given in list(value.items())[:64]:
            if given is None or given == "" or given == []:
                parts = [p for p in re.split(r"[_\W]+", str(field).lower()) if len(p) > 1]
                if parts and not any(p[:4] in told for p in parts):
                    return f"clears {field}, which the user did not ask to change"
    return None


#: A record named by its number: "#88", "issue 88", "PR #57", "ticket 4411".
_NUMBERED = re.compile(
    r"(?:(?<![\w&])#|\b(?:issues?|prs?|pull\s+requests?|tickets?|bugs?|tasks?|cases?)\s+#?)"
    r"(\d{1,9})\b",
    re.IGNORECASE,
)


#: What a request says of a record it only relates another to: "a duplicate of #75",
#: "blocked by #12", "the same as PR 9".
_RELATES = re.compile(
    r"\b(?:duplicates?|dupes?|dups?|copy|same|similar|related|linked|links?|blocked|blocking"
    r"|blocks|depends|dependent|caused|fixed|superseded|replaced|follow-?up|part|child|parent"
    r"|sub-?task|clone)\s+(?:of|to|by|on|as|with)\s+(?:the\s+)?$",
    re.IGNORECASE,
)


_NUMBER_KEYS = re.compile(
    r"^(?:number|issue_?number|pr_?number|pull_?number|id|issue_?id|pr|issue|ticket|key)$", re.I
)


def referred_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A change on the record the request relates another to, not the one it acts on:
    closing #75 after "close issue #88 as a duplicate of #75"."""
    if not effect.kinds & {"modify", "delete", "send", "grant"}:
        return None
    acted: set[str] = set()
    related: set[str] = set()
    for m in itertools.islice(_NUMBERED.finditer(said[:10_000]), 32):
        before = said[max(0, m.start() - 40) : m.start()]
        (related if _RELATES.search(before) else acted).add(m.group(1))
    only = related - acted
    if not acted or not only:
        return None
    for key, value in list(args.items())[:32]:
        if isinstance(value, int | str) and not isinstance(value, bool) and _NUMBER_KEYS.match(key):
            number = str(value).strip().lstrip("#")
            if number in only:
                return f"{key}={number}: a record the user related the one acted on to"
    return None


#: A host or an address as written: `acme.netlify.app`, `billing@acme.io`.
_HOSTLIKE = re.compile(r"(?<![\w.@-])[\w+-]+(?:[.@][\w-]+)*\.[a-z]{2,24}(?![\w-])", re.IGNORECASE)


def lookalike_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A host or an address nearly one the user wrote, not it: `acme-netlify.app` for
    "acme.netlify.app", `acme.co` for "acme.com" — one mark or letter off is where a
    lookalike lives, and what it points to is not what the user named."""
    stated = {h.lower() for h in _HOSTLIKE.findall(said[:20_000])[:32]}
    if not stated:
        return None
    for key, value in list(args.items())[:32]:
        if not isinstance(value, str) or len(value) > 300:
            continue
        for host in {h.lower() for h in _HOSTLIKE.findall(value)[:8]} - stated:
            near = next((s for s in sorted(stated) if _nearly(host, s)), None)
            if near is not None:
                return f"{key}={host[:80]!r}, nearly the {near[:80]!r} the user gave"
    return None


def _nearly(a: str, b: str) -> bool:
    """One or two marks or letters apart, in a name long enough to tell (neither the
    other's part: `www.acme.com` is no lookalike of `acme.com`)."""
    if min(len(a), len(b)) < 6 or a.endswith("." + b) or b.endswith("." + a):
        return False
    if re.sub(r"\W|_", "", a) == re.sub(r"\W|_", "", b):
        return True
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.9


_TYPO_SAID = re.compile(r"\b(?:typos?|misspel\w*|spelling|spelt|spelled)\b", re.IGNORECASE)


_QUOTED_WORD = re.compile(r"[\"'`‘“]([^\"'`’”\n]{2,40})[\"'`’”]")


def typo_issue(args: Mapping[str, Any], said: str) -> str | None:
    """An edit that does more than the typo fix asked for: the license section gone
    after "fix the typo 'recieve' in README.md" (it removes text, or it does not touch
    the word the user quoted)."""
    if not _TYPO_SAID.search(said):
        return None
    quoted = [q.lower() for q in _QUOTED_WORD.findall(said[:20_000])[:8]]
    for old, new in replaced_pairs(args):
        if not old.strip():
            continue
        if not new.strip():
            return f"removes {old.strip()[:60]!r}, where the user asked for a typo fixed"
        if quoted and not any(q in old.lower() for q in quoted):
            return f"edits {old.strip()[:60]!r}, not the typo the user named"
        beyond = _beyond_spelling(old[:20_000], new[:20_000])
        if beyond is not None:
            return f"changes {beyond!r} as well, where the user asked for a typo fixed"
    return None


def _beyond_spelling(old: str, new: str) -> str | None:
    """The first words an edit removes, adds or rewrites that are not one word respelled
    (`recieve` → `receive`): a typo fix changes spellings, nothing else."""
    before, after = old.split(), new.split()
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if (
            tag == "replace"
            and i2 - i1 == j2 - j1
            and all(
                difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio() >= 0.6
                for a, b in zip(before[i1:i2], after[j1:j2], strict=True)
            )
        ):
            continue
        return " ".join(before[i1:i2] or after[j1:j2])[:60]
    return None


_ADDS_PERSON = re.compile(r"\b(?:add|adds|adding|invite|invites|inviting|include|loop|cc)\b", re.I)


_REPLACES = re.compile(r"\b(?:only|just|replace|instead|remove|drop|uninvite|swap)\b", re.I)


#: Lists of labels a record carries, and the words that ask for one more on it ("label
#: the crash issue as high priority", "tag it urgent").
_TAG_KEY = re.compile(r"^(?:labels?|tags?|categories|topics)$", re.IGNORECASE)
_ADDS_TAG = re.compile(r"\b(?:add|adds|adding|label|labels|tag|tags|flag|flags)\b", re.I)


def replaced_list_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A list of people set whole where the user asked to add one: `attendees=["lena@…"]`
    after "invite Lena to the design review" leaves out everyone the event in view had;
    a record's labels likewise (`set_labels(labels=["priority:high"])` over `["bug"]`)."""
    if "modify" not in effect.kinds or _REPLACES.search(said):
        return None
    people = _ADDS_PERSON.search(said) is not None
    # `add_labels` adds to what the record holds; `set_labels` replaces it
    tags = _ADDS_TAG.search(said) is not None and not _ADDING_TOOL.search(effect.tool)
    if not people and not tags:
        return None
    ids = [str(v) for v in list(args.values())[:16] if isinstance(v, str | int)]
    for key, value in list(args.items())[:32]:
        listed = (people and PEOPLE_KEY.search(str(key))) or (tags and _TAG_KEY.match(str(key)))
        if not listed or not isinstance(value, list):
            continue
        new = {str(v).lower() for v in value[:64]}
        for before in held_values(ids, results, str(key)):
            if isinstance(before, list):
                dropped = [str(p) for p in before[:64] if str(p).lower() not in new]
                if dropped:
                    return (
                        f"sets {key} whole, leaving out {dropped[0]}, where the user asked to add"
                    )
    return None


def replaced_text_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A record's text set whole without what it held, where the user asked only to add to
    it: `update_note(body="butter")` after "add 'butter' to my groceries note", over a
    note whose body was "eggs, milk"."""
    if "modify" not in effect.kinds or not _ADDS.search(said) or _CHANGES.search(said):
        return None
    ids = call_ids(args)
    for key, value in list(args.items())[:32]:
        if not TEXT_KEY.match(str(key)) or not isinstance(value, str):
            continue
        kept = set(re.findall(r"\w{3,}", value[:100_000].lower()))
        seen = False
        for before in held_values(ids, results, str(key)):
            seen = seen or isinstance(before, str)
            if isinstance(before, str):
                lost = [w for w in re.findall(r"\w{3,}", before[:100_000].lower()) if w not in kept]
                if lost:
                    return f"sets {key} whole without {lost[0]!r}, where the user asked to add"
        if (
            not seen
            and kept
            and kept <= set(re.findall(r"\w{3,}", said.lower()))
            and not _ADDING_TOOL.search(effect.tool)
        ):
            # `notes_update(text="buy milk")` after "append 'buy milk' to my shopping note",
            # with nothing in view of what the note held: all of it but the addition may go
            return f"sets {key} to the addition alone, with nothing in view of what it held"
    return None


#: Tools that add to a text rather than set it (`notes_append`, `add_to_note`).
_ADDING_TOOL = re.compile(r"append|add|insert|prepend|push", re.IGNORECASE)


#: A change by a stated amount ("restock the red mug with 50 more", "raise the limit by
#: 200"): the amount is added to what the record holds.
_BY_AMOUNT = re.compile(
    r"(?<![\w.])(\d[\d,]*(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten"
    r"|another)\s+more\b"
    r"|\b(?:increase|raise|add|bump|top\s+up|restock|extend|grow|warm|heat|turn\s+up|brighten)"
    r"\w*\b[^.;!?\n]{0,40}?\bby\s+"
    r"[$€£]?(\d[\d,]*(?:\.\d+)?)(?![\d.,]*\s*%)",
    re.IGNORECASE,
)


def by_amount_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A quantity set to other than what the record holds plus the amount the user asked
    to add: `stock=50` after "restock the red mug with 50 more" over a stock of 3 (53),
    `guests=1` after "add one more guest" over 2. A number the user gave otherwise is
    theirs to set."""
    if "modify" not in effect.kinds or not results:
        return None
    asked = []
    for m in itertools.islice(_BY_AMOUNT.finditer(said[:20_000]), 4):
        amount = (m.group(1) or m.group(2)).lower().replace(",", "")
        try:
            asked.append(float(1 if amount == "another" else COUNT_WORDS.get(amount, amount)))
        except ValueError:
            continue
    if not asked:
        return None
    # the other numbers the user gave: a value set to one of them is theirs
    given = {float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", said[:20_000])}
    given -= set(asked)
    ids = call_ids(args)
    for key, value in list(args.items())[:32]:
        if isinstance(value, bool) or not isinstance(value, int | float) or value in given:
            continue
        for before in held_values(ids, results, str(key)):
            if not isinstance(before, int | float) or isinstance(before, bool):
                continue
            if value != before and not any(abs(value - (before + a)) < 1e-9 for a in asked):
                return (
                    f"sets {key} to {value:g}, where {asked[0]:g} more than the {before:g} "
                    "the record holds was asked"
                )
    return None


#: Arguments that hold what a record is called.
_TITLE_KEYS = frozenset(["title", "name", "subject", "summary", "display_name"])
#: Words that ask for what a record is called to change.
_RETITLE_SAID = re.compile(
    r"\b(?:re-?name\w*|re-?title\w*|titles?|titled|call(?:ed)?\s+it|name\s+it|named"
    r"|headings?|subjects?|names?|typo|spelling|misspel\w*|capitali[sz]\w*)\b",
    re.IGNORECASE,
)


def retitled_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """What a record is called, changed beside the change the user asked for: `title=
    "Passport"` with the new date after "move the passport task to Friday", over a task
    called "Renew passport"."""
    if effect.kinds != {"modify"} or not results or _RETITLE_SAID.search(said[:20_000]):
        return None
    ids = call_ids(args)
    for key, value in list(args.items())[:32]:
        if str(key).lower() not in _TITLE_KEYS or not isinstance(value, str) or not value.strip():
            continue
        for before in held_values(ids, results, str(key)):
            if isinstance(before, str) and before.strip().lower() != value.strip().lower():
                return (
                    f"renames it from {before.strip()[:40]!r} to {value.strip()[:40]!r}, which "
                    "the user did not ask for"
                )
    return None


#: A row picked by how it compares with a value: `id > 42`, `created_at <= '2024-01-01'`.
_COMPARED = re.compile(r"(?<![<>!=])(>=|<=|<>|!=|>|<)\s*'?([\w.@:-]+)'?")
#: Words by which a user asks for rows by a range of a value, not the one with it.
_RANGE_SAID = re.compile(
    r"\b(?:above|over|greater|more|higher|below|under|less|fewer|lower|after|before|older"
    r"|newer|since|until|between|through|all|every|any|except|other|not|up\s+to|at\s+least"
    r"|at\s+most|starting|beyond|past|earlier|later|exceed\w*)\b|[<>]",
    re.IGNORECASE,
)


def range_unasked_issue(effect: CallEffect, said: str) -> str | None:
    """Rows changed or removed by a range around the value the user gave for one:
    `UPDATE users SET active = false WHERE id > 42` after "deactivate the user with id
    42" reaches every user after it."""
    if not effect.kinds & {"modify", "delete"} or _RANGE_SAID.search(said[:20_000]):
        return None
    told = {w.lower() for w in re.findall(r"[\w.@:-]+", said[:20_000])}
    for e in effect.effects:
        if e.kind not in ("modify", "delete") or "where" not in e.what.lower():
            continue
        where = e.what[e.what.lower().index("where") :][:2_000]
        for operator, value in _COMPARED.findall(where)[:16]:
            if value.lower() in told:
                return f"picks rows {operator} {value}, where the user named the one with it"
    return None
