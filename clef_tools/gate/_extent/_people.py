"""Whom a call reaches or names against whom the user asked for: parties added, holders,
roles, assignees, head counts."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._call_effect import notifies
from clef_tools.gate._dates import stay_nights
from clef_tools.gate._effects import CallEffect, after_verb, verb_words, words
from clef_tools.gate._extent._amounts import keyed_count_issue, singular_of, stated_counts
from clef_tools.gate._extent._common import COUNTED_NOUNS, PEOPLE_KEY, PEOPLE_NOUNS, WHOLE
from clef_tools.gate._grounding import ADDRESS_TEXT, PARTY_KEY, address_words

#: Things that hold others: acting on one where the user named what is inside.
_HOLDERS = frozenset(
    ["trip", "itinerary", "folder", "folders", "directory", "drive", "repository", "repo",
     "workspace", "calendar", "channel", "project", "board", "bucket", "account", "album",
     "playlist", "series", "team", "organization", "organisation", "mailbox", "inbox",
     "notebook", "database", "cluster", "namespace", "site", "space", "group", "thread",
     "conversation", "list", "tasklist", "collection", "portfolio", "vault", "library",
     "household", "home"]
)  # fmt: skip


#: A count of records the user asked for ("the two duplicates", "a few old drafts").
_COUNT_WORDS = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|several|few|some|many)\b", re.I
)


_PLACE_WORDS = frozenset(
    ["from", "in", "to", "of", "on", "at", "for", "with", "into", "out", "by", "as"]
)


#: Lists that say when, not how many (`set_alarm(days=["mon", …])` is one alarm).
_WHEN_KEYS = re.compile(
    r"^(?:days?|weekdays?|dates?|times?|hours?|months?|schedule|repeat|recurrence)$", re.I
)


#: Lists that are parts of the one thing a call makes or sends (an email's attachments and
#: its recipients), not several of it: "email the report and its appendix" is one email.
_PARTS_KEYS = re.compile(
    r"^(?:attachments?|attachment_ids|files?|file_ids|cc|bcc|to|recipients?|attendees?|"
    r"guests?|invitees?|participants?|labels?|tags?)$",
    re.I,
)


def _nouns(effect: CallEffect, kinds: frozenset[str]) -> list[str]:
    """The nouns of the tool's name, for its effects of `kinds` (`contacts` of
    `delete_contacts`, `folder` of `share_folder`), when the name says what it acts on."""
    if effect.source not in ("name", "annotations"):
        return []
    verbs = verb_words()
    out: list[str] = []
    for e in effect.effects:
        if e.kind not in kinds:
            continue
        found = after_verb(e.what, verbs)
        after = words(e.what.rsplit("__", 1)[-1]) if found is None else found
        # `remove_from_channel`: what follows a preposition is where, not what
        cut = next((i for i, w in enumerate(after) if w in _PLACE_WORDS), len(after))
        out += after[:cut]
    return out


def said_word(word: str, said: str) -> bool:
    stem = word[:-1] if word.endswith("s") and len(word) > 3 else word
    return re.search(rf"\b{re.escape(stem)}(?:s|es)?\b", said, re.IGNORECASE) is not None


def several_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """Several records where the user named one: "delete the duplicate contact" is not
    `delete_contacts(["ct_1", "ct_2"])`."""
    many = [
        (k, v) for k, v in list(args.items())[:32]
        if isinstance(v, list) and len(v) > 1 and all(isinstance(x, str | int) for x in v[:64])
        and not _WHEN_KEYS.match(str(k))
    ]  # fmt: skip
    if not many and not WHOLE.search(said):
        return _by_filter_issue(effect, args, said)
    if not many or WHOLE.search(said) or re.search(r"\b(?:[2-9]|\d{2,})\b", said):
        return None
    if _COUNT_WORDS.search(said):
        return None
    kinds = frozenset(["delete", "send", "pay", "grant", "modify"])
    for noun in _nouns(effect, kinds):
        stem = noun[:-1] if noun.endswith("s") and len(noun) > 3 else noun
        singular = re.search(rf"\b{re.escape(stem)}\b", said, re.IGNORECASE)
        plural = re.search(rf"\b{re.escape(stem)}(?:s|es)\b", said, re.IGNORECASE)
        # the list must hold the records themselves, not the parts of one of them
        held = [(k, v) for k, v in many if not _PARTS_KEYS.match(str(k)) or stem in str(k).lower()]
        if singular and not plural and held:
            key, value = held[0]
            return f"{len(value)} {stem}s ({key}), where the user asked for one {stem}"
    return None


def extra_party_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """Someone added beside the people the user gave by address: "invite ana@corp.example
    to the sync" is not also `sam@vendor.example`, found in a listing. A person the user
    describes otherwise ("and the vendor", "Sam") is theirs to add."""
    if not effect.kinds & {"send", "grant", "modify", "create"}:
        return None
    given = {a.lower() for a in ADDRESS_TEXT.findall(said)[:32]}
    if not given:
        return None
    said_words = {w.lower() for w in re.findall(r"[A-Za-z]+", said)}
    for key, value in list(args.items())[:32]:
        if not PARTY_KEY.match(str(key)):
            continue
        for v in (value if isinstance(value, list | tuple) else [value])[:32]:
            if not isinstance(v, str) or not ADDRESS_TEXT.fullmatch(v.strip()):
                continue
            address = v.strip().lower()
            label = address.partition("@")[2].split(".", 1)[0]  # `vendor` of sam@vendor.example
            pieces = {*address_words(address), *([label] if len(label) > 2 else [])}
            if address not in given and not pieces & said_words:
                return f"adds {address}, beside the people the user gave by address"
    return None


def _by_filter_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A bulk removal by a filter where the user named one record: `delete_contacts(
    company="Globex")` for "remove the duplicate contact for tom@globex.example" removes
    every contact at Globex."""
    if "delete" not in effect.kinds or effect.source not in ("name", "annotations"):
        return None
    nouns = _nouns(effect, frozenset(["delete"]))
    if not nouns or not nouns[-1].endswith("s") or nouns[-1].endswith("ss") or len(nouns[-1]) < 5:
        return None
    picked = [
        k for k, v in list(args.items())[:32]
        if isinstance(v, str) and v.strip() and not re.search(r"(?:^|_)ids?$", str(k), re.I)
    ]  # fmt: skip
    if not picked or len(picked) != len(args):
        return None  # a record's id, or a list of them, picks records, not a filter
    stem = nouns[-1][:-1]
    one = re.search(rf"\b(?:the|this|that|one|a)\s+(?:\w+\s+)?{re.escape(stem)}\b", said, re.I)
    if one and not re.search(rf"\b{re.escape(stem)}(?:s|es)\b", said, re.IGNORECASE):
        return f"removes every {stem} matching {picked[0]}, where the user asked for one {stem}"
    return None


def holder_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """The thing that holds what the user named: `cancel_trip` after "cancel my return
    flight", `share_folder` after "share the Q3 deck". A repository the user wrote as
    `owner/name` ("transfer acme/tools to …") is named, though not by the word."""
    nouns = _nouns(effect, frozenset(["delete", "grant", "send"]))
    # the head noun: `delete_calendar_event` deletes an event, not the calendar
    if nouns and nouns[-1] in _HOLDERS and not said_word(nouns[-1], said):
        if nouns[-1] in ("repo", "repository") and _repository_written(args, said):
            return None
        return f"acts on the whole {nouns[-1]}, which the user did not name"
    return None


def _repository_written(args: Mapping[str, Any], said: str) -> bool:
    return any(
        isinstance(v, str)
        and _REPOSITORY.fullmatch(v.strip())
        and re.search(rf"(?<![\w./-]){re.escape(v.strip())}(?![\w/-])", said, re.IGNORECASE)
        for k, v in list(args.items())[:32]
        if str(k).lower() in ("repo", "repository", "repo_name", "full_name")
    )


#: A repository as hosts write it: `owner/name`.
_REPOSITORY = re.compile(r"[\w.-]+/[\w.-]+")


#: "Remove Tom's access to the budget sheet": access taken away, not the sheet.
_ACCESS_REMOVED = re.compile(
    r"\b(?:remove|revoke|delete|drop|take\s+away|withdraw)\s+(?:\w+['’]s\s+|his\s+"
    r"|her\s+|their\s+|the\s+|all\s+)?(?:\w+\s+)?(?:access|permissions?|rights|role"
    r"|sharing)\b",
    re.IGNORECASE,
)


#: Names of tools that take access away rather than the thing.
_ACCESS_NOUNS = frozenset(
    ["access", "permission", "permissions", "member", "members", "user", "users", "collaborator",
     "collaborators", "share", "shares", "sharing", "guest", "guests", "role", "roles", "acl",
     "membership", "invite", "invitation", "grant", "grants", "key", "token", "link"]
)  # fmt: skip


#: Verbs of tools that take access away (`unshare_file`, `revoke_token`).
_TAKES_AWAY = frozenset(["unshare", "revoke", "kick", "ban", "uninvite", "unassign"])


def access_issue(effect: CallEffect, said: str) -> str | None:
    """A delete of the thing where the user asked to take someone's access to it away."""
    if "delete" not in effect.kinds or not _ACCESS_REMOVED.search(said):
        return None
    if any(set(words(e.what.rsplit("__", 1)[-1])[:1]) & _TAKES_AWAY for e in effect.effects):
        return None  # the tool's own verb takes access away
    nouns = _nouns(effect, frozenset(["delete"]))
    if nouns and not set(nouns) & _ACCESS_NOUNS:
        return f"deletes the {nouns[-1]}, where the user asked to take access to it away"
    return None


#: The person a user hands a task to: "assign the onboarding issue to dev".
_ASSIGNED_TO = re.compile(
    r"\b(?:re)?assign(?:ed|ing)?\b[^.;!?\n]{0,80}?\bto\s+(?:the\s+|@)?([a-z][\w.@+-]*)",
    re.IGNORECASE,
)


#: Arguments that say who a task is handed to.
_ASSIGNEE_KEY = re.compile(
    r"^(?:assignees?|assigned_?to|owner|assignee_?(?:name|login|email|username|handle))$", re.I
)


#: Words after "assign … to" that are the user, or no person.
_NOT_ASSIGNEES = frozenset(["me", "myself", "it", "them", "him", "her", "us", "whoever", "someone"])


def assignee_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A task handed to someone other than the person the user named: `update_issue(
    assignee="maria")` after "assign the onboarding copy issue to dev". Ids (`u_31`) are
    left to the record checks, which can read whose they are."""
    if not effect.kinds & {"modify", "create"}:
        return None
    named = [
        n.lower().rstrip(".")
        for n in _ASSIGNED_TO.findall(said[:20_000])[:8]
        if n.lower() not in _NOT_ASSIGNEES
    ]
    if not named:
        return None
    for key, value in list(args.items())[:32]:
        if not _ASSIGNEE_KEY.match(str(key)):
            continue
        given = [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]
        if not given or any(re.search(r"\d", v) for v in given):
            continue
        people = [v.lower().lstrip("@") for v in given[:16]]
        if not any(n in p or p in n for n in named for p in people if p):
            return f"{key}={value!r}, where the user asked to assign it to {named[0]!r}"
    return None


#: A person the user names by their part in a record ("tell the organizer").
_ROLE_SAID = re.compile(
    r"\b(?:the|its|their)\s+(organi[sz]er|sender|host|author|owner|requester|assignee"
    r"|reporter|creator)s?\b",
    re.IGNORECASE,
)


def role_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A message to more than the person the user named by their part: "tell the
    organizer I'm out sick" is for the record's organizer, not every attendee."""
    roles = {m.group(1).lower()[:7] for m in _ROLE_SAID.finditer(said)}
    if "send" not in effect.kinds or not roles or not results:
        return None
    shown = "\n".join(r[:100_000] for r in results[-16:])
    holders = {
        v.lower()
        for role in roles
        for v in re.findall(rf"[\"']?{role}\w*[\"']?\s*[:=]\s*[\"']?([^\"',\s}}\]]+)", shown, re.I)
    }
    if not holders:
        return None
    sent = [
        x.lower()
        for key, value in list(args.items())[:32]
        if PEOPLE_KEY.search(str(key))
        for x in (value if isinstance(value, list) else [value])[:64]
        if isinstance(x, str) and "@" in x
    ]
    low = said.lower()
    extra = [x for x in sent if x not in holders and x not in low and x.split("@")[0] not in low]
    if sent and extra:
        return f"also to {extra[0]}, where the user asked to write to the {sorted(roles)[0]}"
    return None


#: "No need to tell the attendees", "don't notify my contacts", "quietly": nobody told.
_UNTOLD_SAID = re.compile(
    r"\b(?:don'?t|do\s+not|no\s+need\s+to|without|never)\s+(?:notify(?:ing)?|tell(?:ing)?"
    r"|inform(?:ing)?|alert(?:ing)?|ping(?:ing)?|let\s+\w+\s+know|send(?:ing)?\s+(?:an?\s+|any\s+)?"
    r"(?:updates?|notifications?|notices?))\b|\b(?:silently|quietly)\b|\bno\s+notifications?\b",
    re.IGNORECASE,
)


def told_anyway_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A change that tells people of itself where the user said to tell nobody: `update_
    profile(notify_contacts=True)` after "… but don't notify my contacts"."""
    if effect.read_only or not _UNTOLD_SAID.search(said):
        return None
    if notifies(args):
        return "its own switch tells people, where the user said to tell nobody"
    return None


_CHANNEL_KEY = re.compile(r"^(?:channel|channel_?(?:id|name)|room|chat|conversation)$", re.I)


_CHANNEL = re.compile(r"(?<![\w#])#[\w-]{2,80}")


def _destination(channel: str, said: str) -> bool:
    return (
        re.search(rf"\b(?:to|into|in|on|at)\s+(?:the\s+)?{re.escape(channel)}(?![\w-])", said, re.I)
        is not None
    )


def source_channel_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A post to the channel the request reads from, not the one it posts to: the summary
    of #incidents posted in #incidents after "… and post the summary to #eng-leads"."""
    if "send" not in effect.kinds:
        return None
    named = {c.lower() for c in _CHANNEL.findall(said[:20_000])[:16]}
    targets = [c for c in named if _destination(c, said)]
    for key, value in list(args.items())[:32]:
        if not isinstance(value, str) or not _CHANNEL_KEY.match(str(key)):
            continue
        channel = value.strip().lower()
        channel = channel if channel.startswith("#") else f"#{channel}"
        if channel in named and targets and channel not in targets:
            return f"posts to {channel}, where the user asked to post to {sorted(targets)[0]}"
    return None


_FOR_ONE = re.compile(r"\bfor\s+(?:me|myself)\b|\bjust\s+me\b|\bsolo\b", re.IGNORECASE)


#: One journey or ticket, asked for with an article ("book a flight", "the 8:15 train").
_ONE_TRIP = re.compile(
    r"\b(?:book|buy|get|reserve)\s+(?:me\s+)?(?:a|an|the|one)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:flight|train|ticket|seat|bus|ferry)\b",
    re.IGNORECASE,
)


#: Words of a party of several: "for us", "my wife and I", "the kids".
_SEVERAL = re.compile(
    r"\b(?:we|us|our|ourselves|both|together|family|kids|children|friends|group|team|couple"
    r"|everyone|all\s+of|and\s+I|me\s+and|with\s+(?:my|our|his|her))\b",
    re.IGNORECASE,
)


def head_count_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A booking's count of something other than the user's: `rooms=3` after "2 adults,
    3 nights" (the 3 is the nights'), `passengers=2` after "book it for me", `nights=4`
    for a stay from Dec 18 to Dec 21."""
    if not effect.kinds & {"create", "pay"}:
        return None
    if (other := keyed_count_issue(args, said)) is not None:
        return other
    stated = stated_counts(said)
    # "book the cheapest flight": one traveller, unless the words speak of several
    alone = _FOR_ONE.search(said[:20_000]) is not None or (
        not stated
        and _ONE_TRIP.search(said[:20_000]) is not None
        and _SEVERAL.search(said[:20_000]) is None
    )
    nights = stay_nights(args, said)
    if not stated and not alone and nights is None:
        return None
    # with no count given, only a stay's nights are held (to its dates)
    held = COUNTED_NOUNS if stated or alone else frozenset(["night"])
    people = {n: c for n, c in stated.items() if n in PEOPLE_NOUNS}
    for key, value in list(args.items())[:32]:
        if isinstance(value, bool) or not isinstance(value, int):
            continue
        noun = singular_of(str(key).lower().rsplit("_", 1)[-1])
        if noun not in held:
            continue
        if noun in stated:
            expected = stated[noun]
        elif noun in PEOPLE_NOUNS and people:
            expected = sum(people.values()) if noun in ("guest", "person", "people") else -1
        elif noun in PEOPLE_NOUNS and alone:
            expected = 1
        elif noun == "night" and nights is not None:
            expected = nights
        else:
            expected = 1 if value > 1 else value  # a count nobody gave: one, or none
        if expected >= 0 and value != expected:
            return f"{key}={value}, where the user's words give {expected}"
    return None
