"""How much a call acts on, against how much the user asked for.

"Cancel tomorrow's standup" is one occurrence, not the series its record points to
(`recurring_event_id`); "delete the duplicate contact" is one contact, not both records of
it; "cancel my return flight" is a flight, not the trip that holds it; "share the Q3 deck"
is the deck, not the folder it sits in; "pay the bill" is paid once, not every month. Each
check finds the call doing more than the words asked: a person decides.
"""

from __future__ import annotations

import difflib
import fnmatch
import itertools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from clef_tools.gate._call_effect import notifies
from clef_tools.gate._canonical import replaced_pairs
from clef_tools.gate._conditions import condition_dropped_issue
from clef_tools.gate._dates import dates_in, duration_issue, is_time_key, stay_nights
from clef_tools.gate._effects import (
    FIND_KEY,
    OPERATION_KEY,
    PRIVATE_KEY,
    CallEffect,
    after_verb,
    kind_of_words,
    table,
    verb_words,
    words,
)
from clef_tools.gate._files import named_files
from clef_tools.gate._grounding import (
    ADDRESS_TEXT,
    COPY_OF,
    MONEY,
    PARTY_KEY,
    PRICE_BOUND,
    QUOTED_NAME,
    SUM_KEY,
    address_words,
    bound_value,
    is_setting_key,
    numbers_in,
    object_named,
    records_of,
    times_in,
)
from clef_tools.gate._licence import SENDING_ACTS
from clef_tools.gate._states import state_issue, switched_state_issue

__all__ = ["NUMBER_TOKEN", "extent_issue", "switches", "unstated_counts"]

#: A record's field that points at the series or the whole an item belongs to.
_SERIES_KEY = r"[\w-]{0,24}(?:recurring|recurrence|series)[\w-]{0,24}"
_SERIES_WORD = re.compile(r"recurring|recurrence|series", re.IGNORECASE)
#: Words by which a user asks for the whole series or every record.
_WHOLE = re.compile(
    r"\b(?:all|every|each|both|series|recurring|whole|entire|future|following|them|they"
    r"|these|those|duplicates|any|everyone|everybody|attendees|participants|invitees"
    r"|members)\b",
    re.IGNORECASE,
)
#: Words that ask for something to repeat ("a monthly standing order", "every week").
_REPEATS_ASKED = re.compile(
    r"\b(?:daily|weekly|monthly|yearly|annually|quarterly|fortnightly|standing\s+order"
    r"|recurring|repeating|every\s+(?:day|week|month|year|monday|tuesday|wednesday|thursday"
    r"|friday|saturday|sunday|\d+\s+(?:days|weeks|months)))\b",
    re.IGNORECASE,
)
#: Things that hold others: acting on one where the user named what is inside.
_HOLDERS = frozenset(
    ["trip", "itinerary", "folder", "folders", "directory", "drive", "repository", "repo",
     "workspace", "calendar", "channel", "project", "board", "bucket", "account", "album",
     "playlist", "series", "team", "organization", "organisation", "mailbox", "inbox",
     "notebook", "database", "cluster", "namespace", "site", "space", "group", "thread",
     "conversation", "list", "tasklist", "collection", "portfolio", "vault", "library",
     "household", "home"]
)  # fmt: skip
#: Arguments that ask for a repeat: `subscribe=True`, `recurring=True`, `auto_renew=True`.
_REPEAT_FLAG = re.compile(
    r"^(?:subscribe|subscription|recurring|recurrent|repeat|repeating|auto_?renew|autopay"
    r"|auto_?reorder|standing_?order)$",
    re.IGNORECASE,
)
_REPEAT_VALUE = re.compile(
    r"\b(?:hourly|daily|weekly|biweekly|fortnightly|monthly|quarterly|yearly|annually|every)\b",
    re.IGNORECASE,
)
_FREQUENCY_KEY = re.compile(r"(?:^|_)(?:frequency|interval|cadence|recurrence|rrule)(?:_|$)", re.I)
#: Words by which a user asks for a repeat.
_REPEAT_SAID = re.compile(
    r"\b(?:recurr\w*|repeat\w*|subscri\w*|every|each|hourly|daily|weekly|biweekly|fortnightly"
    r"|monthly|quarterly|yearly|annually|annual|standing|auto\w*|regular\w*)\b",
    re.IGNORECASE,
)
_MAX_SAID = 20_000
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


def extent_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """Why the call acts on more than the user asked for, if it does."""
    if effect.read_only or not said.strip():
        return None
    text = said[:_MAX_SAID]
    return (
        _series_issue(args, text, results)
        or _one_occurrence_issue(effect, args, text, results)
        or _several_issue(effect, args, text)
        or _extra_party_issue(effect, args, text)
        or _holder_issue(effect, args, text)
        or _repeat_issue(effect, args, text)
        or _access_issue(effect, text)
        or _emptied_issue(effect, args, text)
        or _folder_removed_issue(effect, text)
        or _replaced_figure_issue(args, text)
        or _unprivate_issue(args, text)
        or _swapped_issue(effect, text)
        or _cut_issue(args, text)
        or _recreated_issue(effect, args, text, results)
        or _overwritten_issue(effect, text)
        or _renamed_issue(effect, args, text)
        or _renamed_into_issue(effect, args, text)
        or _original_issue(effect, args, text)
        or _part_of_quoted_issue(effect, args, text)
        or _part_of_address_issue(effect, args, text)
        or _direction_issue(args, text, results)
        or _old_value_issue(effect, args, text)
        or _role_issue(effect, args, text, results)
        or _unwritten_issue(args, text)
        or _amount_issue(effect, args, text, results)
        or _worded_sum_issue(effect, args, text)
        or _tidied_issue(effect, args, text)
        or _house_number_issue(effect, args, text)
        or _copied_issue(effect, args, text)
        or _told_anyway_issue(effect, args, text)
        or _forbidden_act_issue(effect, text)
        or _current_branch_issue(effect, text, results)
        or _other_kind_issue(effect, text)
        or _condition_issue(text, results)
        or _bypass_issue(args, text)
        or duration_issue(args, text)
        or _version_issue(effect, args, text)
        or _bump_level_issue(effect, args, text)
        or _over_bound_issue(effect, args, text, results)
        or _commits_issue(effect, text)
        or _every_flag_issue(effect, text)
        or _every_key_issue(effect, args, text)
        or _cleared_field_issue(effect, args, text)
        or _revision_issue(effect, text, results)
        or _merge_method_issue(args, text)
        or _assignee_issue(effect, args, text)
        or _pattern_issue(effect, args, text)
        or _moved_not_copied_issue(effect, text)
        or _other_packages_issue(effect, text)
        or _package_version_issue(effect, text)
        or _unmerged_issue(effect, text)
        or _referred_issue(effect, args, text)
        or _ranged_issue(effect, text)
        or _source_channel_issue(effect, args, text)
        or _typo_issue(args, text)
        or _whole_tree_issue(effect, text, results)
        or _flag_unsaid_issue(args, text)
        or _acting_switch_issue(args, text)
        or _payment_switch_issue(effect, args, text)
        or _replaced_list_issue(effect, args, text, results)
        or _replaced_text_issue(effect, args, text, results)
        or _time_unasked_issue(effect, args, text)
        or _head_count_issue(effect, args, text)
        or _upgrade_issue(effect, args, text)
        or _listed_everything_issue(effect, args, text)
        or _image_tag_issue(effect, text)
        or _scoped_prohibition_issue(effect, args, text)
        or _numbered_issue(args, text)
        or _tentative_issue(args, text)
        or condition_dropped_issue(effect, args, text)
        or state_issue(effect, args, text)
        or switched_state_issue(effect, switches(args), text)
    )


_TENTATIVE_SAID = re.compile(r"\b(?:tentative(?:ly)?|maybe|provisionally|pencil)\b", re.I)
_RSVP_KEY = re.compile(r"^(?:response|rsvp|rsvp_?status|response_?status|status|answer)$", re.I)


def _tentative_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A firm yes where the user asked for a maybe: "tentatively accept the budget
    review" answered `response="accepted"`."""
    if not _TENTATIVE_SAID.search(said):
        return None
    for key, value in list(args.items())[:32]:
        if _RSVP_KEY.match(str(key)) and isinstance(value, str):
            answer = value.strip().lower()
            if answer in ("accepted", "accept", "yes", "going", "attending"):
                return f"{key}={value}, where the user asked for a tentative answer"
    return None


#: A key's parts that say it holds a number, not what the number is of.
_NUMBER_PARTS = frozenset(["id", "no", "num", "number", "nr", "last4", "last", "four", "digits"])
#: "the card ending 4242", "ends in 4242": a card told by its last digits.
_ENDING = re.compile(r"\bend(?:ing|s)?\s+(?:in\s+|with\s+)?(\d{4})\b", re.IGNORECASE)


def _numbered_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A number given to a thing the user numbered otherwise: `refund_order(order=1042)`
    after "refund order 1024", `freeze_card(card_last4="1881")` after "my card ending
    4242". A key the tables do not read as an id (`order`) is no name the grounding
    checks, so the number the user wrote beside the same noun is the one asked for."""
    for key, value in list(args.items())[:32]:
        digits = str(value) if isinstance(value, int | str) and not isinstance(value, bool) else ""
        if not re.fullmatch(r"\d{1,12}", digits) or re.search(
            rf"(?<![\d.]){digits}(?!\d|[.,]\d)", said
        ):
            continue
        parts = [w for w in words(str(key)) if w not in _NUMBER_PARTS]
        if not parts:
            continue
        noun = parts[-1]
        told = re.findall(
            rf"\b{re.escape(noun)}s?\s*(?:#|no\.?\s*|number\s+|id\s+)?(\d{{1,12}})\b", said, re.I
        )
        if noun == "card" or "last4" in str(key).lower():
            told += _ENDING.findall(said)
        if told:
            return f"{key}={digits}, where the user gave {noun} {told[0]}"
    return None


#: A flag that widens a call from one occurrence to all of them (`all_occurrences=True`,
#: `apply_to="series"`, `this_and_following=True`).
_WIDENING_KEY = re.compile(
    r"^(?:all_?(?:occurrences|instances|events|future|recurring)|(?:entire|whole)_?series"
    r"|apply_?to_?(?:all|series|future)|this_?and_?following|include_?(?:recurring|future"
    r"|series)|recurring|series|scope|apply_?to|span)$",
    re.IGNORECASE,
)
_WIDE_VALUE = re.compile(r"^(?:true|all|series|future|following|entire|whole)", re.IGNORECASE)


#: A series named by how it repeats: "the weekly 1:1", "my monthly review".
_SERIES_NAMED = re.compile(
    r"\b(?:the|my|our)\s+(?:daily|weekly|biweekly|fortnightly|monthly|quarterly|yearly|annual)\b",
    re.IGNORECASE,
)


def _series_issue(args: Mapping[str, Any], said: str, results: Sequence[str]) -> str | None:
    """An id the results give as a record's series (`"recurring_event_id": "rec_77"`), or
    a flag that widens the call to every occurrence, where the user asked for one."""
    if _WHOLE.search(said) or (_SERIES_NAMED.search(said) and not _ONE_OCCURRENCE.search(said)):
        return None  # "stop the weekly 1:1 with Sam": the series, named by how it repeats
    repeats = _REPEATS_ASKED.search(said) is not None
    for key, value in list(args.items())[:32]:
        if repeats and str(key).lower() in ("recurring", "repeat", "recurrence", "repeating"):
            continue  # "set up the rent as a monthly standing order": a repeat asked for
        if _WIDENING_KEY.match(str(key)) and (
            value is True or (isinstance(value, str) and _WIDE_VALUE.match(value.strip()))
        ):
            return f"{key}={value!r}: every occurrence, where the user asked for one"
    if not results:
        return None
    values = [v for v in list(args.values())[:32] if isinstance(v, str) and 2 < len(v) <= 80]
    joined = "\n".join(r[:100_000] for r in results[-16:])
    if not _SERIES_WORD.search(joined):
        return None  # no record points at a series: no pattern to run per value
    lowered = joined.lower()
    for value in values:
        if value.lower() not in lowered:
            continue  # the pattern below matches it only where it stands, in any case
        held = re.search(
            rf"[\"']?({_SERIES_KEY})[\"']?\s*[:=]\s*[\"']?{re.escape(value)}(?![\w-])",
            joined,
            re.IGNORECASE,
        )
        if held is not None:
            return f"{value!r} is the {held.group(1)} of the record, where the user asked for one"
    return None


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


def _said_word(word: str, said: str) -> bool:
    stem = word[:-1] if word.endswith("s") and len(word) > 3 else word
    return re.search(rf"\b{re.escape(stem)}(?:s|es)?\b", said, re.IGNORECASE) is not None


def _several_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """Several records where the user named one: "delete the duplicate contact" is not
    `delete_contacts(["ct_1", "ct_2"])`."""
    many = [
        (k, v) for k, v in list(args.items())[:32]
        if isinstance(v, list) and len(v) > 1 and all(isinstance(x, str | int) for x in v[:64])
        and not _WHEN_KEYS.match(str(k))
    ]  # fmt: skip
    if not many and not _WHOLE.search(said):
        return _by_filter_issue(effect, args, said)
    if not many or _WHOLE.search(said) or re.search(r"\b(?:[2-9]|\d{2,})\b", said):
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


def _extra_party_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
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


def _holder_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """The thing that holds what the user named: `cancel_trip` after "cancel my return
    flight", `share_folder` after "share the Q3 deck". A repository the user wrote as
    `owner/name` ("transfer acme/tools to …") is named, though not by the word."""
    nouns = _nouns(effect, frozenset(["delete", "grant", "send"]))
    # the head noun: `delete_calendar_event` deletes an event, not the calendar
    if nouns and nouns[-1] in _HOLDERS and not _said_word(nouns[-1], said):
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


def _repeat_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A repeat nobody asked for: `place_order(subscribe=True)` after "order one more
    pack", `pay_bill(recurring="monthly")` after "pay my bill"."""
    if not effect.kinds & {"pay", "send", "create", "modify"} or _REPEAT_SAID.search(said):
        return None
    for key, value in list(args.items())[:32]:
        k = str(key)
        # a rule given as a list (`recurrence=["RRULE:FREQ=WEEKLY"]`, Google Calendar's)
        text = (
            " ".join(v[:200] for v in value[:8] if isinstance(v, str))
            if isinstance(value, list)
            else value
        )
        periodic = isinstance(text, str) and _REPEAT_VALUE.search(text[:400]) is not None
        flag = _REPEAT_FLAG.match(k) is not None and (value is True or periodic)
        if flag or (_FREQUENCY_KEY.search(k) is not None and periodic):
            return f"{k}={str(value)[:40]!r}: a repeat the user did not ask for"
    return None


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


def _access_issue(effect: CallEffect, said: str) -> str | None:
    """A delete of the thing where the user asked to take someone's access to it away."""
    if "delete" not in effect.kinds or not _ACCESS_REMOVED.search(said):
        return None
    if any(set(words(e.what.rsplit("__", 1)[-1])[:1]) & _TAKES_AWAY for e in effect.effects):
        return None  # the tool's own verb takes access away
    nouns = _nouns(effect, frozenset(["delete"]))
    if nouns and not set(nouns) & _ACCESS_NOUNS:
        return f"deletes the {nouns[-1]}, where the user asked to take access to it away"
    return None


#: Arguments that hold the people a thing is shared with or sent to.
_PEOPLE_KEY = re.compile(
    r"(?:^|_)(?:attendees|participants|members|guests|invitees|recipients|collaborators"
    r"|assignees|reviewers|watchers|subscribers|to|cc|people|users)$",
    re.IGNORECASE,
)
#: Words by which a user asks for people to go.
_CLEARED_SAID = re.compile(
    r"\b(?:remove|clear|drop|uninvite|kick|empty|nobody|no one|everyone|without|alone)\b", re.I
)


def _emptied_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """Everyone taken off a thing the user asked to change otherwise: `update_event(
    attendees=[])` after "move the 3pm meeting with Zoe to 4pm"."""
    if "modify" not in effect.kinds or _CLEARED_SAID.search(said):
        return None
    for key, value in list(args.items())[:32]:
        if _PEOPLE_KEY.search(str(key)) and value in ([], ""):
            return f"{key} emptied, which the user did not ask for"
        if (
            effect.source in ("name", "annotations")
            and _TEXT_KEY.match(str(key))
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


_PRIVATE_SAID = re.compile(r"(?<![\w-])private(?![\w-])", re.IGNORECASE)


def _unprivate_issue(args: Mapping[str, Any], said: str) -> str | None:
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


def _replaced_figure_issue(args: Mapping[str, Any], said: str) -> str | None:
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


#: "Empty the logs folder", "empty out tmp/": what the folder holds, not the folder.
_EMPTY_SAID = re.compile(
    r"\bempty\s+(?:out\s+)?(?:the\s+|my\s+|our\s+)?([\w./~-]+?)/?(?=\s+(?:folder|directory|dir)\b|[\s.,!?;]|$)",
    re.IGNORECASE,
)


def _folder_removed_issue(effect: CallEffect, said: str) -> str | None:
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


#: A record's text, which an update that sets it to nothing erases.
_TEXT_KEY = re.compile(r"^(?:body|description|content|text|notes?|details|summary)$", re.I)


#: "rename report.docx to report-final.docx", "copy a.txt to b.txt": from one name to another.
_FROM_NAME_TO = re.compile(
    r"\b(?:rename|move|mv|copy|cp|(?:make|create)\s+an?\s+copy\s+of|duplicate)\s+(?:the\s+)?"
    r"([\w./~-]+)\s+(?:to|into|as|called|named)\s+([\w./~-]+)",
    re.IGNORECASE,
)


def _swapped_issue(effect: CallEffect, said: str) -> str | None:
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


#: A rollback to a revision by its number: `kubectl rollout undo … --to-revision=1`,
#: `helm rollback api 3`.
_TO_REVISION = re.compile(
    r"--to-revision[= ](\d+)|\bhelm\s+rollback\s+(?:-\S+\s+)*[\w.-]+\s+(\d+)\b"
)


def _revision_issue(effect: CallEffect, said: str, results: Sequence[str]) -> str | None:
    """A rollback to a revision the user gave no number for, and no result in view lists
    (`helm history`): "roll back the api deployment" is to the one before, not to revision
    1, months old."""
    if effect.source != "shell":
        return None
    for e in effect.effects:
        found = _TO_REVISION.search(e.what[:2000])
        if found is None:
            continue
        number = found.group(1) or found.group(2)
        given = re.compile(rf"(?<![\w.]){number}(?![\w.])")
        if not given.search(said) and not any(given.search(r[:20_000]) for r in results[-8:]):
            return f"rolls back to revision {number}, which the user did not give"
    return None


#: How a pull request is merged, as a user asks for it ("merge it with a squash",
#: "rebase-merge it") and as a merge call's `merge_method` names it.
_MERGE_METHODS = {"squash": r"\bsquash", "rebase": r"\brebase", "merge": r"\bmerge\s+commit\b"}


def _merge_method_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A merge by another method than the one the user named: `merge_method="merge"`
    after "merge lin's PR with a squash" keeps every commit the user asked to fold."""
    method = args.get("merge_method") or args.get("merge_strategy")
    if not isinstance(method, str) or method.strip().lower() not in _MERGE_METHODS:
        return None
    asked = [m for m, pattern in _MERGE_METHODS.items() if re.search(pattern, said, re.I)]
    if asked and method.strip().lower() not in asked:
        return f"merge_method={method!r}, where the user asked for a {asked[0]} merge"
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


def _assignee_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
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


def _role_issue(
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
        if _PEOPLE_KEY.search(str(key))
        for x in (value if isinstance(value, list) else [value])[:64]
        if isinstance(x, str) and "@" in x
    ]
    low = said.lower()
    extra = [x for x in sent if x not in holders and x not in low and x.split("@")[0] not in low]
    if sent and extra:
        return f"also to {extra[0]}, where the user asked to write to the {sorted(roles)[0]}"
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


def _direction_issue(args: Mapping[str, Any], said: str, results: Sequence[str] = ()) -> str | None:
    """A move the wrong way round: `transfer(from="savings", to="checking")` after "move
    $500 from checking to savings"; the user's "to X" names where it goes. An account
    given by its number is called what the record holding it calls it ("savings")."""
    ends = {"from": "", "to": ""}
    for key, value in list(args.items())[:32]:
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


def _old_value_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
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
    `{"account_number": "987-6543-2109", "type": "savings"}` is the savings account)."""
    if not results or len(value) < 4:
        return [value]
    holding = [r for res in results[-16:] for r in records_of(res) if value in r][:2]
    if len(holding) != 1:
        return [value]
    names = _FIELD_VALUE.findall(holding[0][:2_000])
    return [value, *(n for n in names[:16] if n != value)]


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


#: A request to set one value: "set DEBUG=false", "bump the node version in CI to 20".
#: The verbs of a request to set a value, and what may stand between one and the value.
_SETS = (
    r"\b(?:set|bump|change|update|upgrade|downgrade|switch|raise|lower|increase|decrease|pin"
    r"|scale|resize)"
    r"\b(?:[^.;!?\n]|\.(?=\w)){0,60}?"  # a file's dot is no sentence's end
)
_SETS_VALUE = re.compile(
    _SETS + r"(?:\bto\s+(?:v?\d|[\"'`]|(?:true|false|on|off)\b)|\w=\w)",
    re.IGNORECASE,
)


def _cut_issue(args: Mapping[str, Any], said: str) -> str | None:
    """An edit that removes a line where the user asked only to add (`flask==3.0` gone
    from requirements.txt after "add requests to requirements.txt"), or only to set a
    value (`SECRET_KEY=…` gone from .env after "set DEBUG=false")."""
    adds = _ADDS.search(said) is not None and not _CHANGES.search(said)
    if not adds and not _SETS_VALUE.search(said):
        return None
    asked = "add" if adds else "set a value"
    values = set() if adds else set(_SET_TO_VALUE.findall(said[:20_000]))
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


#: "append 'Buy milk' to my todo.txt": what is added to (the destination).
_APPENDS = re.compile(r"\b(?:append|add)\b[^.;!?]{0,80}?\bto\b([^.;!?]{0,80})", re.IGNORECASE)
_NAME_KEYS = re.compile(r"^(?:file_?name|name|path|file_?path|title)$", re.IGNORECASE)


def _recreated_issue(
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
_ADDS_TO = re.compile(r"\b(?:add|adds|adding|append|appending|insert|include)\b", re.IGNORECASE)
_MADE_ANEW = re.compile(
    r"\b(?:create|new|overwrite|replace|rewrite|regenerate|reset|empty|clear|truncate|fresh"
    r"|from\s+scratch|write|save|dump|export|generate)\b",
    re.IGNORECASE,
)


def _overwritten_issue(effect: CallEffect, said: str) -> str | None:
    """A file the user asked to add to, overwritten by a redirect: `echo node_modules >
    .gitignore` after "add a .gitignore entry for node_modules" leaves it one line."""
    if effect.source != "shell" or not _ADDS_TO.search(said) or _MADE_ANEW.search(said):
        return None
    for e in effect.effects:
        op, _, target = e.what.partition(" ")
        name = target.strip("\"'").rsplit("/", 1)[-1]
        if op in (">", ">|", "&>") and len(name) > 1 and _named_file(name, said):
            return f"overwrites {name}, where the user asked to add to it"
    return None


#: Arguments that set what a record is called, not what it holds.
_NAMING_KEY = re.compile(r"^(?:title|name|subject|heading|display_name|page_title)$", re.I)
_RENAME_SAID = re.compile(r"\b(?:renam\w*|retitl\w*|titled?|call\s+it|name\s+it|heading)\b", re.I)


#: Arguments that name the one thing a call acts on.
_NAME_KEY = re.compile(
    r"^(?:name|title|album|folder|label|channel|list|playlist|contact|project|board|page"
    r"|calendar|group|tag|display_name|full_name)$",
    re.IGNORECASE,
)


def _part_of_quoted_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A delete or a change by a name that is only part of the one the user quoted:
    `delete_contact(name="Plumber")` for "delete the contact 'Old Plumber'" may match the
    new plumber, or every plumber."""
    if not effect.kinds & {"delete", "modify"} or effect.source not in ("name", "annotations"):
        return None
    quoted = [q.strip().lower() for q in QUOTED_NAME.findall(said[:_MAX_SAID])[:8]]
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


def _part_of_address_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A delete, a block or a change by part of the address the user gave: `from:spam.example`
    or `promo` for "delete all emails from promo@spam.example" takes in every sender there."""
    if not effect.kinds & {"delete", "modify", "grant"}:
        return None
    given = [a.lower().rstrip(".") for a in ADDRESS_TEXT.findall(said[:_MAX_SAID])[:8]]
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


def _renamed_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """What the user asked to add to a page or a list set as its name instead: `title=
    "Lisbon in May"` after "add 'Lisbon in May' to my trip ideas page" replaces the
    page's title and adds nothing."""
    if effect.kinds != {"modify"} or not _ADDS_TO.search(said) or _RENAME_SAID.search(said):
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


def _renamed_into_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
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


def _original_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
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


def _named_file(name: str, said: str) -> bool:
    return re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", said, re.IGNORECASE) is not None


#: What a user gives to be written: a quoted phrase, a version ("Python 3.12").
_GIVEN = re.compile(
    r"[\"'`“‘]([^\"'`”’\n]{3,80})[\"'`”’]|(?<![\w.])(\d+\.\d+(?:\.\d+)*)(?!\w|\.\w)"
)


def _unwritten_issue(args: Mapping[str, Any], said: str) -> str | None:
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


def _amount_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A sum a message or a change carries that is found nowhere in view: `send_invoice(
    amount=420)` for the invoice the results give as 4,200; or an amount changed on a
    record when the user asked for no change of it ("send the invoice" is no
    `update_invoice(amount=…)`). Payments are held to their sums elsewhere."""
    if "pay" in effect.kinds or not effect.kinds & {"send", "modify"}:
        return None
    sums = [
        (str(k), float(v)) for k, v in list(args.items())[:32]
        if SUM_KEY.search(str(k)) and isinstance(v, int | float) and not isinstance(v, bool)
    ]  # fmt: skip
    if not sums:
        return None
    modify = table().verbs["modify"]
    changes = set(words(said)) & modify
    if effect.source in ("name", "annotations") and "modify" in effect.kinds and not changes:
        return f"changes {sums[0][0]} of a record the user did not ask to change"
    if not results or numbers_in([said]):
        return None  # a sum the user gave may be worked from ("split $120 three ways")
    seen = [n for r in results[-16:] for n in numbers_in([r])]
    for key, value in sums:
        if not any(abs(value - n) <= 0.01 * max(1.0, abs(n)) for n in seen):
            return f"{key}={value:g}, found nowhere in view"
    return None


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


def _tidied_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
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
        if e.objects and all(_in_named_place(o, said) for o in e.objects[:16]):
            continue
        # "clean up old branches": the kind of thing the command or tool removes, named
        # (`git branch -D feature/x`), is what the user asked to go
        kind_words = words(e.what[:200])[1 if effect.source == "shell" else 0 :]
        if any(w not in verbs and len(w) > 2 and _said_word(w, said) for w in kind_words[:8]):
            continue
        return f"removes {e.what[:60]!r}, where the user only asked to tidy up or make room"
    return None


def _in_named_place(path: str, said: str) -> bool:
    """The thing, or a folder that holds it, named: `build/out` after "clean up the build
    folder"."""
    parts = [p for p in path.strip().rstrip("/").split("/") if p]
    return any(object_named("/".join(parts[:i]), said) for i in range(len(parts), 0, -1))


#: Arguments that hold a postal address, or its street line.
_ADDRESS_KEY = re.compile(
    r"(?:^|_)(?:address|street|street_address|address_line_?1|line_?1|addr)$", re.IGNORECASE
)
#: A house number and the street it is on ("55 Oak Lane").
_HOUSE = re.compile(r"(?<![\w.-])(\d{1,6}[A-Za-z]?)\s+((?:[A-Z][\w'-]*\s*){1,4})")


def _house_number_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
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


#: "Don't cc anyone", "never bcc my manager": who may not be copied in.
_NO_COPY = re.compile(
    r"\b(?:don'?t|do\s+not|never|no\s+need\s+to|without)\s+(?:b?cc(?:-?ing|'?d)?|copy(?:ing)?)"
    r"\s+(?:in\s+)?(?:my\s+|the\s+)?([\w@.'-]+)",
    re.IGNORECASE,
)
_COPY_KEY = re.compile(r"^(?:b?cc|b?cc_?(?:recipients|list|emails|addresses))$", re.IGNORECASE)
_ANYONE = frozenset(["anyone", "anybody", "others", "people", "everyone", "anybody's", "them"])


def _copied_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
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


#: "No need to tell the attendees", "don't notify my contacts", "quietly": nobody told.
_UNTOLD_SAID = re.compile(
    r"\b(?:don'?t|do\s+not|no\s+need\s+to|without|never)\s+(?:notify(?:ing)?|tell(?:ing)?"
    r"|inform(?:ing)?|alert(?:ing)?|ping(?:ing)?|let\s+\w+\s+know|send(?:ing)?\s+(?:an?\s+|any\s+)?"
    r"(?:updates?|notifications?|notices?))\b|\b(?:silently|quietly)\b|\bno\s+notifications?\b",
    re.IGNORECASE,
)


def _told_anyway_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A change that tells people of itself where the user said to tell nobody: `update_
    profile(notify_contacts=True)` after "… but don't notify my contacts"."""
    if effect.read_only or not _UNTOLD_SAID.search(said):
        return None
    if notifies(args):
        return "its own switch tells people, where the user said to tell nobody"
    return None


#: A verb the user forbade, word for word ("don't call her", "never forward it").
_FORBIDDEN_VERB = re.compile(r"\b(?:don'?t|do\s+not|never)\s+(?:ever\s+)?([a-z]{3,})\b", re.I)


def _forbidden_act_issue(effect: CallEffect, said: str) -> str | None:
    """A tool named for the very act the user forbade, where another act of its kind was
    asked ("text Jo that I'm late, don't call her": `place_call` is a send, as the text is,
    but not the one asked)."""
    if effect.read_only or effect.source not in ("name", "annotations"):
        return None
    # a verb the tables know is forbidden by its kind already (`_licence`): only the acts
    # they do not know as verbs ("call", "ring"), and ways of sending forbidden one by one
    # ("don't forward it"), are left to this check
    forbidden = {
        verb
        for m in _FORBIDDEN_VERB.finditer(said[:20_000])
        if kind_of_words([verb := m.group(1).lower()]) == "unknown" or verb in SENDING_ACTS
    }
    if not forbidden:
        return None
    for e in effect.effects:
        named = set(words(e.what.rsplit("__", 1)[-1]))
        hit = sorted(named & forbidden)
        if hit:
            return f"{e.what[:60]} does what the user said not to ({hit[0]})"
    return None


#: "Push my branch", "this branch", "the current branch": the one checked out.
_CURRENT_BRANCH_SAID = re.compile(
    r"\b(?:my|this|the\s+current|current|the)\s+(?:local\s+)?branch\b(?!\s+(?:called|named)\b)",
    re.IGNORECASE,
)
#: The branch `git branch` or `git status` shows checked out.
_CHECKED_OUT = re.compile(r"^\*\s+(\S+)\s*$|^On branch (\S+)\s*$", re.MULTILINE)


def _current_branch_issue(effect: CallEffect, said: str, results: Sequence[str]) -> str | None:
    """A push of another branch than the one a listing in view shows checked out, where
    the user asked for theirs: `git push -u origin release/1.4` after "push my branch" and
    a `git branch` that marks `* fix/timeout`."""
    if not any(e.action == "push" for e in effect.effects) or not _CURRENT_BRANCH_SAID.search(said):
        return None
    shown = [
        m.group(1) or m.group(2) for r in results[-16:] for m in _CHECKED_OUT.finditer(r[:20_000])
    ]
    if not shown:
        return None
    current = shown[-1]
    for e in effect.effects:
        if e.action != "push":
            continue
        other = [
            o for o in e.objects
            if o.split(":")[0] not in (current, "HEAD") and not _named_file(o, said)
        ]  # fmt: skip
        if other:
            return f"pushes {other[0]}, where the user asked for their branch ({current})"
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


def _other_kind_issue(effect: CallEffect, said: str) -> str | None:
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
                and not _named_file(name, said)
                and "*" not in name
            ):
                return f"removes {obj[:60]}, which is none of the {'/'.join(sorted(kinds))}s asked"
    return None


#: What a call pays or moves, when it is given in words (`amount="statement_balance"`,
#: `quantity="all"`); a record's own price or rate is not what the call pays.
_PAID_KEY = re.compile(r"^(?:amount|total|sum|balance|quantity|qty)$|_(?:amount|total)$", re.I)
#: Sums in words, by what they pay: the whole balance, or the least that is due.
_WHOLE_SUM = frozenset(
    ["full", "statement", "total", "entire", "whole", "all", "everything", "outstanding",
     "current", "max", "maximum", "remaining", "balance"]
)  # fmt: skip
_LEAST_SUM = frozenset(["minimum", "min", "least", "minimal"])


def _worded_sum_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A sum given in words that the user's words do not give: `amount="statement_balance"`
    after "pay the minimum on my card" pays the whole balance; "pay my card in full" and
    "pay off the whole balance" give it."""
    if effect.read_only:
        return None
    told = set(words(said))
    for key, value in list(args.items())[:32]:
        if not (
            isinstance(value, str)
            and _PAID_KEY.search(str(key))
            and re.fullmatch(r"[A-Za-z][A-Za-z _-]{0,60}", value.strip())
        ):
            continue
        parts = set(re.findall(r"[a-z]+", value[:200].lower()))
        if parts & _LEAST_SUM:
            if told & _LEAST_SUM:
                continue
        elif parts & _WHOLE_SUM:
            if told & _WHOLE_SUM and not told & _LEAST_SUM:
                continue
        elif parts and parts <= told:
            continue
        return f"{key}={value[:40]!r}, a sum the user's words do not give"
    return None


#: "Merge PR 57 once the checks pass": a change asked for on a condition of the checks.
_ON_CONDITION = re.compile(
    r"\b(?:once|if|when|after|as soon as|provided)\s+(?:the\s+|all\s+(?:the\s+)?)?"
    r"(?:checks?|tests?|ci|build|pipeline|status checks?)\s+(?:pass|passes|passed|are green"
    r"|is green|succeed|succeeds|go green|are ok)\b",
    re.IGNORECASE,
)
#: A result that shows a check failed.
_FAILED = re.compile(
    r"[\"']?(?:status|conclusion|state|result)[\"']?\s*[:=]\s*[\"']?(?:failure|failed|error"
    r"|errored|red|timed_out|cancelled)\b|\bFAILED\b",
    re.IGNORECASE,
)


def _condition_issue(said: str, results: Sequence[str]) -> str | None:
    """A change the user asked for once the checks pass, after a result shows one failed."""
    if not _ON_CONDITION.search(said) or not results:
        return None
    if any(_FAILED.search(r[:100_000]) for r in results[-16:]):
        return "the user asked for it once the checks pass, and a result shows one failed"
    return None


#: Arguments that skip a safeguard: `bypass_checks=True`, `skip_ci`, `force`, `no_verify`.
_BYPASS_KEY = re.compile(
    r"(?:^|_)(?:bypass|skip|ignore|force|override|no_verify|disable)(?:_|$)", re.IGNORECASE
)
_BYPASS_SAID = re.compile(
    r"\b(?:bypass|skip|ignore|force|override|without|anyway|regardless)\b", re.I
)


def _bypass_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A safeguard skipped by an argument (`merge_pull_request(bypass_checks=True)`) that
    the user's words do not ask to skip."""
    if _BYPASS_SAID.search(said):
        return None
    for key, value in list(args.items())[:32]:
        if value is True and _BYPASS_KEY.search(str(key)):
            return f"{key}=True skips a safeguard the user did not ask to skip"
    return None


_VERSION = re.compile(r"(?<![\w.])v?(\d+\.\d+\.\d+(?:[-+.]\w+(?:\.\w+)*)?)(?!\w|\.\w)")


#: The value a request sets a thing to: "to 20", "to v1.3.0".
#: A length or a size is held in any unit it may be written in (`_edited`), not here.
_SET_TO_VALUE = re.compile(
    _SETS + r"\bto\s+v?(\d+(?:\.\d+)*)\b(?!\d|\.\d)"
    r"(?!\s*(?:ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?"
    r"|kb|mb|gb|tb)\b)",
    re.IGNORECASE,
)
#: Numbers and versions as written (`2.5.0`, `30`, `1.5`).
NUMBER_TOKEN = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)*)(?!\w|\.\d)")


def _version_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """An edit that writes a version other than the one the user gave ("bump the version
    to 1.4.2" is not `version = "2.0.0"`; "bump the node version to 20" is not
    `node-version: 22`) or none at all, or a command that tags or pins another ("tag this commit as
    v1.3.0" is not `git tag -f v1.2.0`)."""
    given = set(_VERSION.findall(said))
    if given and effect.source == "shell":
        for e in effect.effects:
            named = {v for o in e.objects for v in _VERSION.findall(o)}
            if e.kind != "read" and named and not named & given:
                return f"acts on version {sorted(named)[0]}, where the user gave {sorted(given)[0]}"
    values = set(_SET_TO_VALUE.findall(said[:20_000]))
    for old, new in replaced_pairs(args) if values else []:
        written = set(NUMBER_TOKEN.findall(new[:100_000])) - set(
            NUMBER_TOKEN.findall(old[:100_000])
        )
        if written and not written & values:
            return f"writes {sorted(written)[0]}, where the user asked for {sorted(values)[0]}"
        if old != new and not set(NUMBER_TOKEN.findall(new[:100_000])) & values:
            # "bump the version to 2.4.0": an edit that writes no such value changes
            # something else (`"private": false`)
            return f"changes something other than the value asked for ({sorted(values)[0]})"
    if not given:
        return None
    for old, new in replaced_pairs(args):
        written = set(_VERSION.findall(new[:100_000])) - set(_VERSION.findall(old[:100_000]))
        if written and not written & given:
            return f"writes version {sorted(written)[0]}, where the user gave {sorted(given)[0]}"
    return None


#: The part of a semantic version a bump raises (`npm version major`, `--minor`,
#: `bump_version(part="patch")`), and words that say a version is being bumped.
_BUMP_LEVEL = re.compile(r"(?<![\w.-])(?:--)?(?:pre)?(major|minor|patch)(?![\w.-])", re.I)
_BUMP_SAID = re.compile(r"\b(?:bump\w*|version|release|increment)\b", re.I)


def _bump_level_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A version bumped by another part than the user said ("bump the patch version" is
    not `npm version major`): a major bump tells every user of a package that it breaks."""
    if not _BUMP_SAID.search(said):
        return None
    asked = {m.lower() for m in _BUMP_LEVEL.findall(said)}
    if not asked:
        return None
    if effect.source == "shell":
        texts = [
            e.what[:2_000]
            for e in effect.effects
            if e.kind != "read" and re.search(r"version|bump|release", e.what[:2_000], re.I)
        ]
    else:
        texts = [v for v in list(args.values())[:32] if isinstance(v, str) and len(v) < 16]
    done = {m.lower() for t in texts for m in _BUMP_LEVEL.findall(t)}
    if done and not done & asked:
        return f"bumps the {sorted(done)[0]} version, where the user asked for {sorted(asked)[0]}"
    return None


#: A price a record states: with its currency, or under a price's key (`"price": 42.0`).
_PRICE = re.compile(
    MONEY + r"|[\"']?(?:price|cost|rate|fare|total|amount)[\"']?\s*[:=]\s*[\"']?\$?(\d+(?:\.\d+)?)",
    re.IGNORECASE,
)
#: What picks a record in a call's arguments: `sku-5120`, `#add-to-cart-sku-5120`, `4411`.
_PICK = re.compile(r"[a-z]+[-_]\d+|(?<![\w.])\d{3,}(?!\w|\.\d)", re.IGNORECASE)


def _over_bound_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A pick priced over the bound the user set: the 42.00 charger added after "a
    charger under $30", when the one record the call names states its price."""
    if not effect.kinds & {"create", "pay", "modify"} or not results:
        return None
    bounds = [_number(bound_value(m)) for m in PRICE_BOUND.finditer(said)][:8]
    if not bounds:
        return None
    bound = max(bounds)
    records = [r for result in results[-16:] for r in records_of(result)]
    values = [
        v for v in list(args.values())[:32] if isinstance(v, str | int) and not isinstance(v, bool)
    ]
    picks = {p.lower() for v in values for p in _PICK.findall(str(v)[:500])}
    for pick in sorted(picks)[:16]:
        shown = re.compile(rf"(?<![\w-]){re.escape(pick)}(?![\w-])", re.IGNORECASE)
        holding = [r for r in records if shown.search(r)]
        if len(holding) != 1:
            continue
        prices = [
            _number(next(g for g in m.groups() if g)) for m in _PRICE.finditer(holding[0][:2000])
        ]
        if prices and min(prices) > bound:
            return f"{pick}, priced {min(prices):g}, over the {bound:g} the user set"
    return None


def _number(text: str) -> float:
    return float(text.replace(",", ""))


#: "my last 3 commits", "the last commit": how many commits back the user asked to go.
_COMMITS_SAID = re.compile(
    r"\b(?:last|past|previous|latest|recent)\s+(\d{1,3}|two|three|four|five|six|seven|eight|nine"
    r"|ten)\s+commits?\b|\b(?:last|latest|previous)\s+commit\b",
    re.IGNORECASE,
)
_COMMIT_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                  "eight": 8, "nine": 9, "ten": 10}  # fmt: skip
#: A revision counted back from HEAD: `HEAD~3`, `HEAD~`, `HEAD^^`, `@~2`.
_BACK_FROM_HEAD = re.compile(r"(?<![\w/])(?:HEAD|@)(?:~(\d*)|(\^+))(?![\w^~])")


def _commits_issue(effect: CallEffect, said: str) -> str | None:
    """A change that goes further back than the commits the user counted: `git reset
    --soft HEAD~10` after "squash my last 3 commits" folds seven more into one."""
    if effect.source != "shell":
        return None
    asked = _COMMITS_SAID.search(said)
    if asked is None:
        return None
    count = asked.group(1)
    wanted = (
        1 if count is None else int(count) if count.isdigit() else _COMMIT_COUNTS[count.lower()]
    )
    for e in effect.effects:
        if e.kind == "read":
            continue
        for back in _BACK_FROM_HEAD.finditer(e.what[:2000]):
            steps = len(back.group(2)) if back.group(2) else int(back.group(1) or 1)
            if steps != wanted:
                return f"goes {steps} commits back, where the user asked for {wanted}"
    return None


_MERGED_SAID = re.compile(r"\b(?:already\s+)?merged\b", re.IGNORECASE)
#: `git branch -D`, `--delete --force`, `-df`: a branch deleted whether merged or not.
_FORCE_BRANCH_DELETE = re.compile(
    r"\bgit\s+branch\b[^|;&\n]*\s(?:-D\b|-[a-zA-Z]*D[a-zA-Z]*\b|--delete\s+--force\b"
    r"|--force\s+--delete\b|-df\b|-fd\b)"
)


def _unmerged_issue(effect: CallEffect, said: str) -> str | None:
    """Branches force-deleted where the user asked for the merged ones: `git branch -D`
    deletes a branch whose work is nowhere else, which `git branch -d` refuses to."""
    if effect.source != "shell" or not _MERGED_SAID.search(said):
        return None
    for e in effect.effects:
        if e.kind == "delete" and _FORCE_BRANCH_DELETE.search(e.what[:2000]):
            return "force-deletes branches, merged or not, where the user asked for merged ones"
    return None


#: A command's flag that takes it to every object of its kind (`kubectl scale --all`).
_EVERY_FLAG = re.compile(r"(?<![\w-])(?:--all|--all-namespaces|-A)(?![\w-])")
_EVERY_SAID = re.compile(r"\b(?:all|every|each|everything|everywhere|whole)\b", re.IGNORECASE)


#: Every local tag pushed at once (`git push --tags`, `--follow-tags` pushes only those of
#: the commits pushed), and the words that ask for all of them.
_PUSHES_EVERY_TAG = re.compile(r"\bgit\s+push\b[^|;&\n]*\s--tags(?![\w-])")
_TAGS_SAID = re.compile(r"\btags\b", re.IGNORECASE)


def _every_flag_issue(effect: CallEffect, said: str) -> str | None:
    """A change a flag takes to every object of its kind where the user named one:
    `kubectl scale deployment --all` after "scale the web deployment"; every package a
    requirements file lists upgraded (`pip install -U -r requirements.txt`) after "upgrade
    requests". Git's own `-A` (`git add -A`) stages the working tree, and is not such a
    flag."""
    if effect.source != "shell" or _EVERY_SAID.search(said):
        return None
    for e in effect.effects:
        what = e.what[:2000]
        if e.kind != "read" and _PUSHES_EVERY_TAG.search(what) and not _TAGS_SAID.search(said):
            return "pushes every tag, where the user named one"
        if e.kind == "read" or re.match(r"\s*(?:sudo\s+)?git\b", what):
            continue
        found = _EVERY_FLAG.search(what)
        if found is not None:
            return f"{found.group(0)} acts on every one, where the user named one"
        if _UPGRADES_ALL.search(what) and not _DEPENDENCIES_SAID.search(said):
            return "upgrades every package the project lists, where the user named one"
        if _PRUNES_ALL.search(what) and re.search(r"\bdangling\b", said, re.IGNORECASE):
            return "removes every unused image, where the user asked for the dangling ones"
    return None


#: Words of an argument's or a tool's name that take a call to every object of its kind:
#: `purge_everything=True`, `delete_all=True`, `all_users=True`, `mute_all`.
_EVERY_WORDS = frozenset(["all", "everything", "everyone", "everybody"])


#: First words of a switch that tells people of a change (`notify_all_attendees`), which
#: does not widen the change.
_TELLS = frozenset(["notify", "notification", "notifications", "alert", "inform", "email"])


def _takes_every(name: str) -> bool:
    """Whether a name's first, second or last word is "all" or its like (`all_users`,
    `delete_all_messages`, `purgeEverything`); `reply_all_email` is judged by its
    recipients, and `notify_all_attendees` tells of a change without widening it."""
    found = words(name)
    if not found or found[:2] == ["reply", "all"] or found[0] in _TELLS or len(found) > 4:
        return False
    return bool(_EVERY_WORDS & {found[0], found[-1], *found[1:2]})


def _every_key_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A change an argument or the tool's name takes to every object of its kind where the
    user named one: `purge_cache(purge_everything=True)` after "purge the cache for
    /pricing", `mute_all` after "mute Dev"."""
    if effect.read_only or _EVERY_SAID.search(said):
        return None
    tool = effect.tool.rsplit("__", 1)[-1]
    if effect.source in ("name", "annotations") and _takes_every(tool):
        return f"{tool} acts on every one, where the user named one"
    for key, value in list(args.items())[:32]:
        if _takes_every(str(key)) and (
            value is True or (isinstance(value, str) and value.strip().lower() in ("all", "true"))
        ):
            return f"{key}={value!r} acts on every one, where the user named one"
        if (
            effect.source in ("name", "annotations")
            and OPERATION_KEY.match(str(key))
            and isinstance(value, str)
            and _takes_every(value[:60])
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


def _cleared_field_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A field cleared beside the one the user asked to set: `fields={"priority": "High",
    "assignee": None}` for "set the priority of PROJ-12 to high" unassigns the ticket."""
    if "modify" not in effect.kinds or effect.source not in ("name", "annotations"):
        return None
    if _CLEAR_SAID.search(said):
        return None
    told = {w[:4] for w in words(said[:_MAX_SAID])}
    for key, value in list(args.items())[:32]:
        if str(key).lower() not in _FIELD_MAPS or not isinstance(value, Mapping):
            continue
        for field, given in list(value.items())[:64]:
            if given is None or given == "" or given == []:
                parts = [p for p in re.split(r"[_\W]+", str(field).lower()) if len(p) > 1]
                if parts and not any(p[:4] in told for p in parts):
                    return f"clears {field}, which the user did not ask to change"
    return None


#: A prune taken from dangling images to every image no container uses (`-a`, `-af`).
_PRUNES_ALL = re.compile(
    r"\b(?:docker|podman)\s+(?:(?:image|system|builder)\s+)?prune\b[^|;&\n]*?"
    r"\s(?:-[b-zA-Z]*a[b-zA-Z]*|--all)(?![\w-])"
)


#: Every dependency upgraded at once: `pip install -U -r requirements.txt`, a bare `npm
#: update`, `poetry update`, `cargo update`, `bundle update`.
_UPGRADES_ALL = re.compile(
    r"\bpip3?\s+install\b(?=[^|;&\n]*\s(?:-U|--upgrade)\b)(?=[^|;&\n]*\s(?:-r|--requirement)\b)"
    r"|\b(?:npm|pnpm|yarn|poetry|cargo|bundle|composer)\s+(?:update|upgrade|up)\s*(?:$|[;&|])"
    # the system's packages: `brew upgrade`, `apt-get -y dist-upgrade`, `dnf upgrade`
    r"|\b(?:brew|apt|apt-get|dnf|yum)\s+(?:-\S+\s+)*(?:upgrade|dist-upgrade|full-upgrade)"
    r"(?:\s+-\S+)*\s*(?:$|[;&|])|\b(?:dnf|yum)\s+(?:-\S+\s+)*update(?:\s+-\S+)*\s*(?:$|[;&|])"
    r"|\bpacman\s+-Syu\w*\s*(?:$|[;&|])"
)
_DEPENDENCIES_SAID = re.compile(
    r"\b(?:dependencies|deps|packages|requirements|lockfile|system|os|machine|server)\b", re.I
)
#: Tools that install and remove packages by name.
_PACKAGE_TOOL = re.compile(
    r"\s*(?:sudo\s+)?(?:npm|pnpm|yarn|pip3?|uv|poetry|cargo|gem|brew|apt|apt-get|conda|composer"
    r"|pipx)\b"
)


def _pattern_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A pattern that widens a change from the file the user named to its kind (`sed -i
    … *.go` after "replace tabs in main.go"), or to the files a command lists (`sed -i …
    $(git ls-files)`)."""
    if effect.source != "shell" or _EVERY_SAID.search(said):
        return None
    files = [f.lower() for f in named_files(said)]
    if not files:
        return None
    command = next((v for v in args.values() if isinstance(v, str)), "")[:10_000]
    for e in effect.effects:
        if e.kind == "read":
            continue
        if _LISTED_OPERAND.search(command) and command.lstrip().startswith(e.what.split(" ", 1)[0]):
            return f"acts on every file a command lists, where the user named {files[0]}"
        for pattern in e.objects:
            bare = pattern.strip("'\"").lower()
            if not re.search(r"[*?\[]", bare) or bare in said.lower():
                continue
            if any(
                fnmatch.fnmatchcase(f.rsplit("/", 1)[-1], bare.rsplit("/", 1)[-1]) for f in files
            ):
                return f"{pattern} reaches every file of its kind, where the user named {files[0]}"
    return None


#: An operand a command fills in with the files it lists: `$(git ls-files)`, `` `find .` ``.
_LISTED_OPERAND = re.compile(
    r"\$\((?:git\s+ls-files|find|ls|grep\s+-[a-zA-Z]*l)[^)]*\)|`(?:git\s+ls-files|find|ls)[^`]*`"
)
#: A copy asked for: "make a backup of db.sqlite", "copy report.docx", "duplicate it".
_COPY_SAID = re.compile(r"\b(?:back\s*up|backup|copy|duplicate|snapshot)\b", re.IGNORECASE)
_MOVE_SAID = re.compile(r"\b(?:move|rename|mv|relocate|archive)\b", re.IGNORECASE)


def _moved_not_copied_issue(effect: CallEffect, said: str) -> str | None:
    """The named file moved away where the user asked for a copy of it: `mv db.sqlite
    db.sqlite.bak` after "make a backup of db.sqlite" leaves no db.sqlite."""
    if effect.source != "shell" or not _COPY_SAID.search(said) or _MOVE_SAID.search(said):
        return None
    for e in effect.effects:
        if re.match(r"\s*(?:sudo\s+)?(?:git\s+)?mv\b", e.what) and e.objects:
            source = e.objects[0]
            if object_named(source, said.lower()):
                return f"moves {source} away, where the user asked for a copy of it"
    return None


def _other_packages_issue(effect: CallEffect, said: str) -> str | None:
    """Packages added or removed beside the ones the user named: `npm uninstall lodash
    express` after "remove the unused lodash dependency"."""
    if effect.source != "shell":
        return None
    for e in effect.effects:
        if e.kind not in ("delete", "configure", "execute") or not _PACKAGE_TOOL.match(e.what):
            continue
        packages = [
            o for o in e.objects if re.fullmatch(r"@?[\w.-]+(?:/[\w.-]+)?(?:[=<>@~^!]\S*)?", o)
        ]
        named = [p for p in packages if object_named(_package_name(p), said)]
        # a companion of a named package (`react-dom` beside `react`, `@types/react`)
        companions = {
            p for p in packages
            for n in named
            if _package_name(p).startswith(_package_name(n) + "-")
            or _package_name(p) == "@types/" + _package_name(n)
        }  # fmt: skip
        others = [p for p in packages if p not in named and p not in companions]
        if named and others:
            return f"also {others[0]}, where the user named {named[0]}"
    return None


#: A package pinned in a command: `react@19`, `requests==2.32.3`, `serde@1.0.200`,
#: `django==4.2.*`.
_PINNED = re.compile(
    r"(?<!\S)(@?[\w.-]+(?:/[\w.-]+)?)(?:@|==|=|~=)v?(\d+(?:\.\d+)*)(?:\.\*)?(?!\S)"
)


def _package_version_issue(effect: CallEffect, said: str) -> str | None:
    """A package installed at another version than the one the user gave: `npm install
    react@19` after "upgrade react to 18.3"; or at whatever is latest (`pip install -U
    requests` after "install requests 2.32.3")."""
    if effect.source != "shell":
        return None
    for e in effect.effects:
        if e.kind == "read" or not _PACKAGE_TOOL.match(e.what):
            continue
        pinned = dict(_PINNED.findall(e.what[:2_000])[:16])
        installed = list(e.objects[:16]) if e.packages else []
        for name in dict.fromkeys([*pinned, *installed]):
            wanted = _version_said(name, said)
            if wanted is None:
                continue
            version = pinned.get(name)
            if version is None:
                return f"installs {name} at its latest version, where the user asked for {wanted}"
            if not (version + ".").startswith(wanted + "."):
                return f"installs {name} {version}, where the user asked for {wanted}"
    return None


def _version_said(name: str, said: str) -> str | None:
    """The version the user gave for a package: "react to 18.3", "requests 2.32.3",
    "requests==2.32.3", "lodash@4" (a bare number after the name needs a dot: "install
    requests 2 times" gives none)."""
    found = re.search(
        rf"(?<![\w-]){re.escape(name)}(?![\w-])(?:[^.;!?\n]{{0,30}}?\b(?:to|at|version)\s*v?"
        r"(\d+(?:\.\d+)*)|\s*(?:@|==|=)\s*v?(\d+(?:\.\d+)*)|\s+v?(\d+(?:\.\d+)+))",
        said,
        re.IGNORECASE,
    )
    if found is None:
        return None
    return found.group(1) or found.group(2) or found.group(3)


def _package_name(spec: str) -> str:
    """`requests==2.32.3` is `requests`; `@types/node@20` is `@types/node`."""
    return re.split(r"(?<=.)[=<>@~^!]", spec, maxsplit=1)[0]


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


def _referred_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
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


#: A statement's filter that compares a column with a number by more than equality.
_RANGE_FILTER = re.compile(
    r"\bWHERE\b.*?\b[\w.]+\s*(?:>=|<=|<>|!=|>|<)\s*'?(\d+(?:\.\d+)?)\b", re.IGNORECASE | re.S
)
#: Words by which a request asks for a range ("ids above 40", "orders since 2024").
_RANGE_SAID = re.compile(
    r"\b(?:above|over|greater|more\s+than|at\s+least|before|after|below|under|less\s+than"
    r"|older|newer|since|from|up\s+to|through|until|till|or\s+(?:more|less|higher|lower|later"
    r"|earlier)|onwards?|beyond|between|range|every|all)\b|[<>≤≥]",
    re.IGNORECASE,
)


def _ranged_issue(effect: CallEffect, said: str) -> str | None:
    """A change to the rows a range picks where the user gave one value: `UPDATE users
    SET active = false WHERE id >= 42` after "deactivate the user with id 42"."""
    if effect.source != "sql" or _RANGE_SAID.search(said):
        return None
    for e in effect.effects:
        if e.kind not in ("modify", "delete"):
            continue
        ranged = _RANGE_FILTER.search(e.what[:2_000])
        if ranged and re.search(rf"(?<![\w.]){re.escape(ranged.group(1))}(?![\w]|\.\d)", said):
            return f"changes the rows a range from {ranged.group(1)} picks; the user gave one"
    return None


_CHANNEL_KEY = re.compile(r"^(?:channel|channel_?(?:id|name)|room|chat|conversation)$", re.I)
_CHANNEL = re.compile(r"(?<![\w#])#[\w-]{2,80}")


def _destination(channel: str, said: str) -> bool:
    return (
        re.search(rf"\b(?:to|into|in|on|at)\s+(?:the\s+)?{re.escape(channel)}(?![\w-])", said, re.I)
        is not None
    )


def _source_channel_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
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


_TYPO_SAID = re.compile(r"\b(?:typos?|misspel\w*|spelling|spelt|spelled)\b", re.IGNORECASE)
_QUOTED_WORD = re.compile(r"[\"'`‘“]([^\"'`’”\n]{2,40})[\"'`’”]")


def _typo_issue(args: Mapping[str, Any], said: str) -> str | None:
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


def _whole_tree_issue(effect: CallEffect, said: str, results: Sequence[str]) -> str | None:
    """A change taken to the whole working tree where the user named a folder or a file:
    `black .` after "format the code in src/"; `git add -A && git commit` after "commit the
    changes to src", when the status in view lists untracked notes beside them."""
    if effect.source != "shell" or _EVERY_SAID.search(said):
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


_NEGATED_BEFORE = re.compile(
    r"\b(?:not|no|never|don'?t|without|instead\s+of|rather\s+than)\W+(?:\w+\W+){0,2}$"
)


#: The cue nearest before a switch's name that says which way the user wants it: "turn on
#: the waiting room", "disable the lobby chat", "don't notify attendees".
_SWITCH_CUE = re.compile(
    r"\b(?:(?P<off>(?:turn|switch|shut)(?:ing|ed)?\s+off|disabl\w*|deactivat\w*|stop\w*"
    r"|no|not|never|don'?t|without|instead\s+of|rather\s+than|no\s+longer)"
    r"|(?P<on>(?:turn|switch)(?:ing|ed)?\s+on|enabl\w*|activat\w*|requir\w*|keep\w*|with))\b"
)


#: The first word of a switch that drops what its other words name (`delete_photos`).
_DROPS = frozenset(["delete", "remove", "purge", "wipe", "erase", "trash", "drop", "discard"])
_CLAUSE_BREAK = re.compile(r"[,;.!?]|\b(?:and|but|then)\b")
#: The cues that switch a thing off, as against the ones that only say no.
_SWITCHED_OFF = re.compile(r"turn|switch|shut|disabl|deactivat|stop")


def switches(args: Mapping[str, Any]) -> list[tuple[str, bool]]:
    """The call's switches, at the top and one level down (`settings={"waiting_room":
    False}`)."""
    found: list[tuple[str, bool]] = []
    for key, value in list(args.items())[:32]:
        if isinstance(value, bool):
            found.append((str(key), value))
        elif isinstance(value, Mapping):
            found += [(str(k), v) for k, v in list(value.items())[:32] if isinstance(v, bool)]
    return found


def _flag_unsaid_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A switch set the other way from the one the user's words set it: `at_period_end=False`
    after "cancel it at period end", `notify_attendees=False` after "… and notify
    attendees", `waiting_room=False` after "turn on the waiting room", and `True` after
    "turn off the waiting room". The cue nearest before the switch's name decides."""
    low = said.lower()
    for key, value in switches(args):
        parts = [p for p in re.split(r"[_\W]+", key.lower()) if p]
        if (
            len(parts) == 1
            and value is False
            and re.search(rf"\bas\s+an?\s+{re.escape(parts[0])}\b", low)
        ):
            # `guest=False` after "invite bob as a guest": a full member instead
            return f"{key}=False, where the user asked for it as a {parts[0]}"
        if len(parts) < 2:
            continue
        if value is True and parts[0] in _DROPS:
            # `delete_photos=True` after "delete the album but keep the photos"
            kept = re.compile(
                r"\b(?:keep|keeping|retain|preserve|leave|save)\s+(?:the\s+|my\s+|its\s+|their\s+"
                r"|all\s+(?:the\s+|my\s+)?)?" + r"\W+".join(map(re.escape, parts[1:])) + r"\b"
            ).search(low)
            if kept is not None:
                return f"{key}=True, where the user asked to {kept.group(0)!r}"
        phrase = re.compile(r"\b" + r"\W+(?:the\W+)?".join(map(re.escape, parts)) + r"\b")
        found = phrase.search(low)
        if found is None:
            continue
        # the cue in the same clause ("no rush, but cancel it at period end" keeps it)
        before = _CLAUSE_BREAK.split(low[max(0, found.start() - 40) : found.start()])[-1]
        cues = list(_SWITCH_CUE.finditer(before))
        off = cues[-1].group("off") if cues else None
        if value is False and off is None:
            return f"{key}=False, where the user asked for {found.group(0)!r}"
        if value is True and off is not None and _SWITCHED_OFF.match(off):
            return f"{key}=True, where the user asked to switch {found.group(0)!r} off"
    return None


#: Switches that make a call act on other things too: declining the meetings an
#: out-of-office event overlaps, cancelling, removing, overwriting, forcing.
_ACTING_SWITCHES = frozenset(
    ["decline", "cancel", "delete", "remove", "purge", "wipe", "overwrite", "force", "replace",
     "revoke", "kill", "terminate", "destroy", "drop", "erase"]
)  # fmt: skip


def _acting_switch_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A switch turned on that acts beyond the call, where the user's words say nothing
    of it: `decline_existing=True` on an out-of-office event after "block out Friday
    afternoon as out of office" declines every meeting in it."""
    told = words(said)
    for key, value in switches(args):
        parts = [p for p in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", key) if p]
        acting = [p for p in parts if p.lower() in _ACTING_SWITCHES]
        # "decline", "declining", "declines": the word's first five letters
        said_so = any(w.startswith(p.lower()[:5]) for p in acting for w in told)
        if value is True and acting and not said_so:
            return f"{key}=True, which the user did not ask for"
    return None


def _payment_switch_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A switch turned on in a payment, a trade or a booking that the user's words say
    nothing of: `margin=True` on "buy 10 shares of AAPL", `instant=True` (a fee) on a
    transfer, `non_refundable=True` on a hotel. Money moved is held to what was asked, and
    a switch changes what it costs or what it risks."""
    booked = any(e.action == "book" for e in effect.effects)
    if "pay" not in effect.kinds and not booked:
        return None
    said_words = set(words(said))
    for key, value in list(args.items())[:32]:
        if value is not True:
            continue
        parts = {p for p in re.split(r"[_\W]+", str(key).lower()) if len(p) > 2}
        joined = re.sub(r"[_\W]+", "", str(key).lower())
        if joined in _NO_WAY_BACK and not re.search(
            r"non[\s-]?refundable|final\s+sale", said, re.I
        ):
            return f"{key}=True: no refund, which the user's words say nothing of"
        if parts & _COST_SWITCHES and not parts & said_words:
            return f"{key}=True in a payment, which the user's words say nothing of"
    return None


#: Switches that give up the way back from a booking or a purchase.
_NO_WAY_BACK = frozenset(["nonrefundable", "noncancellable", "noncancelable", "finalsale"])
#: Switches of a payment or a trade that change what it costs or what it risks: borrowed
#: money, a short sale, a fee for speed, trading outside the session.
_COST_SWITCHES = frozenset(
    ["margin", "leverage", "leveraged", "short", "instant", "express", "expedited",
     "extended", "premarket", "afterhours", "overnight", "rush", "priority"]
)  # fmt: skip


#: Words by which a user names one occurrence of a recurring event.
_ONE_OCCURRENCE = re.compile(
    r"\b(?:this|next|today'?s?|tonight'?s?|tomorrow'?s?|(?:mon|tues|wednes|thurs|fri|satur|sun)"
    r"day'?s?|occurrence|instance|once)\b",
    re.IGNORECASE,
)
#: A scope that keeps a call to one occurrence (`scope="this_instance"`), and the keys that
#: name which occurrence (`instance_start`, `occurrence_date`, `original_start_time`).
_ONE_VALUE = re.compile(r"^(?:this|single|one|occurrence|instance)", re.IGNORECASE)
_OCCURRENCE_KEY = re.compile(
    r"^(?:instance|occurrence|original)_?(?:start|date|time|id)\w*$", re.IGNORECASE
)
_RECURRING_RECORD = re.compile(
    r"[\"']?(?:recurring|is_recurring|recurrence|rrule)[\"']?\s*[:=]\s*(?:true|[\"']?(?:rrule|freq|"
    r"weekly|daily|monthly))",
    re.IGNORECASE,
)


def _one_occurrence_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A recurring event deleted whole where the user named one occurrence ("skip this
    Monday's 1:1"): the record in view says it repeats, and the tool is no occurrence's."""
    if "delete" not in effect.kinds or _WHOLE.search(said) or not _ONE_OCCURRENCE.search(said):
        return None
    if re.search(r"occurrence|instance|single", effect.effects[0].what, re.IGNORECASE):
        return None
    if any(
        _WIDENING_KEY.match(str(k)) and isinstance(v, str) and _ONE_VALUE.match(v.strip())
        for k, v in list(args.items())[:32]
    ) or any(_OCCURRENCE_KEY.match(str(k)) for k in list(args)[:32]):
        return None  # `scope="this_instance"`, `instance_start=…`: the one occurrence
    ids = [v for v in list(args.values())[:16] if isinstance(v, str) and 1 < len(v) <= 80]
    if any(_RECURRING_RECORD.search(record) for record in _records_holding(ids, results)):
        return "deletes every occurrence of a recurring event, where the user named one"
    return None


def _records_holding(ids: Sequence[str], results: Sequence[str]) -> Iterator[str]:
    """The records in view that hold one of the call's ids as a whole name."""
    for record in (r for result in results[-16:] for r in records_of(result)):
        if any(re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", record) for i in ids):
            yield record


def _held(ids: Sequence[str], results: Sequence[str], key: str) -> Iterator[Any]:
    """What `key` held in each JSON record in view that holds one of the call's ids."""
    for record in _records_holding(ids, results):
        try:
            held = json.loads(record[:100_000])
        except ValueError:
            continue
        if isinstance(held, dict) and key in held:
            yield held[key]


_ADDS_PERSON = re.compile(r"\b(?:add|adds|adding|invite|invites|inviting|include|loop|cc)\b", re.I)
_REPLACES = re.compile(r"\b(?:only|just|replace|instead|remove|drop|uninvite|swap)\b", re.I)


def _replaced_list_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A list of people set whole where the user asked to add one: `attendees=["lena@…"]`
    after "invite Lena to the design review" leaves out everyone the event in view had."""
    if "modify" not in effect.kinds or not _ADDS_PERSON.search(said) or _REPLACES.search(said):
        return None
    ids = [str(v) for v in list(args.values())[:16] if isinstance(v, str | int)]
    for key, value in list(args.items())[:32]:
        if not _PEOPLE_KEY.search(str(key)) or not isinstance(value, list):
            continue
        new = {str(v).lower() for v in value[:64]}
        for before in _held(ids, results, str(key)):
            if isinstance(before, list):
                dropped = [str(p) for p in before[:64] if str(p).lower() not in new]
                if dropped:
                    return (
                        f"sets {key} whole, leaving out {dropped[0]}, where the user asked to add"
                    )
    return None


def _replaced_text_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A record's text set whole without what it held, where the user asked only to add to
    it: `update_note(body="butter")` after "add 'butter' to my groceries note", over a
    note whose body was "eggs, milk"."""
    if "modify" not in effect.kinds or not _ADDS.search(said) or _CHANGES.search(said):
        return None
    ids = [str(v) for v in list(args.values())[:16] if isinstance(v, str | int) and str(v)]
    for key, value in list(args.items())[:32]:
        if not _TEXT_KEY.match(str(key)) or not isinstance(value, str):
            continue
        kept = set(re.findall(r"\w{3,}", value[:100_000].lower()))
        seen = False
        for before in _held(ids, results, str(key)):
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


#: Words by which a user asks for an event's time to change.
_RETIMES = re.compile(
    r"\b(?:move|moves|moved|reschedule|push|shift|postpone|delay|earlier|later|sooner|"
    r"shorter|longer|extend|shorten|prepone|bring\s+forward|time|start|end|until|from|at|"
    r"noon|midnight|morning|afternoon|evening|tonight|today|tomorrow|next|week|minutes?|"
    r"hours?|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    re.IGNORECASE,
)


def _time_unasked_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """An event's time changed beside what the user asked for ("invite Lena to the
    design review" is no move to 14:00): the words name no time, date or move."""
    if effect.kinds != {"modify"} or _RETIMES.search(said) or dates_in(said) or times_in(said):
        return None
    if not re.search(r"\b(?:update|edit|modify|patch|change)", effect.effects[0].what, re.I):
        return None
    for key, value in list(args.items())[:32]:
        if is_time_key(str(key)) and isinstance(value, str) and re.match(r"\s*\d{4}-\d{2}", value):
            return f"{key}={value[:16]}: a time the user did not ask to change"
    return None


_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                 "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}  # fmt: skip
#: Who a booking is for, as one count: "2 adults", "four guests", "3 people".
_PEOPLE_NOUNS = frozenset(
    ["adult", "guest", "person", "people", "passenger", "traveler", "traveller", "attendee"]
)
#: Counts a booking or an order states by their noun.
_COUNTED_NOUNS = _PEOPLE_NOUNS | frozenset(
    ["child", "children", "kid", "room", "night", "ticket", "seat", "copy", "copies", "bed"]
)
#: A count as a user writes it before its noun: digits, or a word of `_NUMBER_WORDS`.
_COUNT_WORD = r"\d{1,3}|" + "|".join(_NUMBER_WORDS)
_SAID_COUNT = re.compile(
    rf"\b({_COUNT_WORD})\s+"
    r"(adults?|guests?|persons?|people|passengers?|travell?ers?|attendees?|child(?:ren)?|kids?"
    r"|rooms?|nights?|tickets?|seats?|cop(?:y|ies)|beds?)\b",
    re.IGNORECASE,
)
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


def _noun(word: str) -> str:
    low = word.lower()
    if low in ("people", "children", "copies"):
        return {"people": "person", "children": "child", "copies": "copy"}[low]
    return low[:-1] if low.endswith("s") else low


def stated_counts(said: str) -> dict[str, int]:
    """The counts the user gave by their noun ("2 adults, 3 nights"), keyed by the noun."""
    stated: dict[str, int] = {}
    for count, noun in _SAID_COUNT.findall(said[:20_000])[:16]:
        stated[_noun(noun)] = _count_of(count)
    return stated


def _count_of(word: str) -> int:
    """The number a count written as `_COUNT_WORD` stands for ("4", "four", "a")."""
    low = word.lower()
    return int(low) if low.isdigit() else _NUMBER_WORDS[low]


def unstated_counts(args: Mapping[str, Any], said: str) -> list[float]:
    """Counts a booking sets of something the user gave no count of, where the stay or
    the default fixes them: `rooms=1` beside "2 adults", `nights=3` for "Dec 18 to
    Dec 21". The booking's counts are held to these by their nouns, not to the
    numbers the user wrote for other nouns."""
    stated = stated_counts(said)
    out: list[float] = []
    for key, value in list(args.items())[:32]:
        if isinstance(value, bool) or not isinstance(value, int):
            continue
        noun = _noun(str(key).lower().rsplit("_", 1)[-1])
        if noun in stated or noun not in _COUNTED_NOUNS - _PEOPLE_NOUNS:
            continue
        if value == (stay_nights(args, said) if noun == "night" else 1):
            out.append(float(value))
    return out


def _head_count_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A booking's count of something other than the user's: `rooms=3` after "2 adults,
    3 nights" (the 3 is the nights'), `passengers=2` after "book it for me", `nights=4`
    for a stay from Dec 18 to Dec 21."""
    if not effect.kinds & {"create", "pay"}:
        return None
    if (other := _keyed_count_issue(args, said)) is not None:
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
    held = _COUNTED_NOUNS if stated or alone else frozenset(["night"])
    people = {n: c for n, c in stated.items() if n in _PEOPLE_NOUNS}
    for key, value in list(args.items())[:32]:
        if isinstance(value, bool) or not isinstance(value, int):
            continue
        noun = _noun(str(key).lower().rsplit("_", 1)[-1])
        if noun not in held:
            continue
        if noun in stated:
            expected = stated[noun]
        elif noun in _PEOPLE_NOUNS and people:
            expected = sum(people.values()) if noun in ("guest", "person", "people") else -1
        elif noun in _PEOPLE_NOUNS and alone:
            expected = 1
        elif noun == "night" and nights is not None:
            expected = nights
        else:
            expected = 1 if value > 1 else value  # a count nobody gave: one, or none
        if expected >= 0 and value != expected:
            return f"{key}={value}, where the user's words give {expected}"
    return None


#: Options a booking, an order or a ride picks by kind (`ride_type`, `seat_class`).
_OPTION_KEY = re.compile(
    r"^(?:\w+_)?(?:type|class|tier|cabin|fare|service|shipping|delivery|speed|size)$",
    re.IGNORECASE,
)
#: The dearer kinds of an option: a premium ride, a faster delivery, a bigger size.
_UPGRADES = frozenset(
    ["black", "premium", "luxury", "lux", "xl", "xxl", "suv", "express", "priority",
     "overnight", "vip", "platinum", "deluxe", "suite", "exec", "executive", "same-day",
     "sameday", "next-day", "nextday", "rush"]
)  # fmt: skip
#: A travel class up, only where the key says it is a class (`account_type="business"`
#: is no upgrade).
_CLASS_UPGRADES = frozenset(["first", "business"])


def _upgrade_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A dearer kind of what the user asked for, which nobody chose: `ride_type="black"`
    for "get me a ride", `shipping="overnight"` for "order more printer paper"."""
    if not effect.kinds & {"create", "pay", "send"}:
        return None
    told = set(words(said[:20_000])) | set(re.findall(r"[a-z]+-[a-z]+", said[:20_000].lower()))
    for key, value in list(args.items())[:32]:
        if not _OPTION_KEY.match(str(key)) or not isinstance(value, str) or len(value) > 40:
            continue
        dearer = _UPGRADES | (
            _CLASS_UPGRADES if re.search(r"class|cabin|fare", str(key), re.I) else set()
        )
        picked = set(re.findall(r"[a-z]+(?:-[a-z]+)?", value.lower())) & dearer
        if picked and not picked & told:
            return f"{key}={value}, a dearer kind the user did not ask for"
    return None


def _keyed_count_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A count set under a key whose noun the user counted in other words than a
    booking's: `bags=3` after "add one checked bag", `licenses=50` after "buy 5 seat
    licenses"."""
    for key, value in list(args.items())[:32]:
        if isinstance(value, bool) or not isinstance(value, int):
            continue
        noun = _noun(str(key).lower().rsplit("_", 1)[-1])
        if noun in _COUNTED_NOUNS or len(noun) < 3 or not noun.isalpha():
            continue
        said_as = re.search(
            rf"\b({_COUNT_WORD})\s+(?:[a-z-]+\s+){{0,2}}?{noun}(?:s|es)?\b",
            said[:20_000],
            re.IGNORECASE,
        )
        if said_as is None:
            continue
        expected = _count_of(said_as.group(1))
        if value != expected:
            return f"{key}={value}, where the user's words give {expected}"
    return None


#: An operand filled in with every container, image or pod there is: `$(docker ps -q)`,
#: `$(docker images -q)`, `$(kubectl get pods -o name)`.
_EVERY_LISTED = re.compile(
    r"\$\(\s*(?:sudo\s+)?(?:(?:docker|podman)\s+(?:ps|container\s+ls|images|image\s+ls|volume\s+ls)"
    r"\b[^)]*\s-[a-z]*q|kubectl\s+get\b[^)]*(?:-o\s*=?\s*name|--output[= ]name))",
    re.IGNORECASE,
)


def _listed_everything_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A change given every container or pod a listing prints (`docker restart $(docker ps
    -q)` after "restart the worker container"), where the user named one."""
    if effect.source != "shell" or effect.read_only or _EVERY_SAID.search(said):
        return None
    command = next((v for v in args.values() if isinstance(v, str)), "")[:10_000]
    if _EVERY_LISTED.search(command):
        return "acts on every container or pod a listing prints, where the user named one"
    return None


#: An image named with its tag: `api:dev`, `ghcr.io/acme/web:1.4.2` (not a time, `10:30`).
_IMAGE_TAG = re.compile(
    r"(?<![\w/.@:-])((?:[a-z0-9][\w.-]*/)*[a-z][\w.-]*:[\w][\w.-]{0,127})(?![\w.:/-])"
)


def _image_tag_issue(effect: CallEffect, said: str) -> str | None:
    """An image built, tagged or pushed under another name or tag than the one the user
    gave ("tag it api:dev" is not `docker build -t api:latest`)."""
    if effect.source != "shell":
        return None
    given = {t.lower().rstrip(".") for t in _IMAGE_TAG.findall(said[:20_000])}
    if not given:
        return None
    for e in effect.effects:
        found = re.match(
            r"\s*(?:sudo\s+)?(?:docker|podman|buildah)\s+(?:image\s+)?(build|tag|push)\b", e.what
        )
        if found is None:
            continue
        named = [o.lower() for o in e.objects if _IMAGE_TAG.fullmatch(o.lower())]
        # `docker tag SOURCE TARGET`: the name made is the last one
        tags = set(named[-1:]) if found.group(1) == "tag" else set(named)
        other = sorted(t for t in tags - given if not _registry_named(t, given, said))
        if other:
            return f"names the image {other[0]}, where the user gave {sorted(given)[0]}"
    return None


def _registry_named(tag: str, given: set[str], said: str) -> bool:
    """`registry.acme.io/api:1.3` after "push api:1.3 to registry.acme.io": the image the
    user named, under the registry they named for it (one they did not name is where a
    push would leave to unasked)."""
    registry = tag.rpartition("/")[0]
    return (
        bool(registry)
        and any(tag.endswith(f"/{g}") for g in given)
        and bool(re.search(rf"(?<![\w./-]){re.escape(registry)}(?![\w-])", said, re.IGNORECASE))
    )


#: A prohibition that names what it is about: "never push to main", "don't post in
#: #general", "do not write to the prod database".
_SCOPED_NO = re.compile(
    r"\b(?:never|don'?t|do\s+not|no\s+one\s+may)\s+(?:ever\s+)?([a-z]+)\s+"
    r"(?:(?:anything|directly|straight|again)\s+)?(?:to|on|in|into|onto|from)\s+"
    r"(?:the\s+|my\s+|our\s+)?([#@\w./-]{2,60})",
    re.IGNORECASE,
)


def _scoped_prohibition_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A call that does what the user forbade on the thing they forbade it on ("never
    push to main" — "commit the fix and push it": `git push origin main`), whatever a
    later turn asked for in general. A later request that names that thing again with
    the verb ("push it to main this once") lifts it."""
    if effect.read_only:
        return None
    text = said[:20_000]
    for found in _SCOPED_NO.finditer(text):
        verb, thing = found.group(1).lower(), found.group(2).lower().rstrip(".,;:!?")
        kind = kind_of_words([verb])
        if kind in ("unknown", "read") or kind not in effect.kinds:
            continue
        later = text[found.end() :]
        again = re.search(
            rf"\b{re.escape(verb)}\w*\b[^.;!?\n]{{0,40}}\b{re.escape(thing)}\b", later, re.I
        )
        if again is not None and not _NEGATED_BEFORE.search(later[: again.start()][-40:]):
            continue  # asked for by name after all
        pattern = re.compile(rf"(?<![\w./-]){re.escape(thing)}(?![\w-])", re.IGNORECASE)
        touched = [t for e in effect.effects for t in (*e.objects, e.what)]
        touched += [v for v in list(args.values())[:32] if isinstance(v, str)]
        if any(pattern.search(t[:10_000]) for t in touched):
            return f"{verb} on {thing}, which the user said not to"
    return None
