"""Occurrences, series, repeats and times: one meeting or all of them, once or every
month."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from clef_tools.gate._dates import dates_in, is_time_key
from clef_tools.gate._effects import CallEffect, words
from clef_tools.gate._extent._common import COUNT_WORDS, WHOLE
from clef_tools.gate._grounding import records_of, times_in

#: A record's field that points at the series or the whole an item belongs to.
_SERIES_KEY = r"[\w-]{0,24}(?:recurring|recurrence|series)[\w-]{0,24}"


_SERIES_WORD = re.compile(r"recurring|recurrence|series", re.IGNORECASE)


#: Words that ask for something to repeat ("a monthly standing order", "every week").
_REPEATS_ASKED = re.compile(
    r"\b(?:daily|weekly|monthly|yearly|annually|quarterly|fortnightly|standing\s+order"
    r"|recurring|repeating|every\s+(?:day|week|month|year|monday|tuesday|wednesday|thursday"
    r"|friday|saturday|sunday|\d+\s+(?:days|weeks|months)))\b",
    re.IGNORECASE,
)


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
    r"|monthly|quarterly|yearly|annually|annual|standing|auto\w*|regular\w*"
    # "football practice on Saturdays", "weeknights at 9": each one of them
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)days|weekdays|weekends|weeknights|nightly)\b",
    re.IGNORECASE,
)


_TENTATIVE_SAID = re.compile(r"\b(?:tentative(?:ly)?|maybe|provisionally|pencil)\b", re.I)


_RSVP_KEY = re.compile(r"^(?:response|rsvp|rsvp_?status|response_?status|status|answer)$", re.I)


def tentative_issue(args: Mapping[str, Any], said: str) -> str | None:
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


def numbered_issue(args: Mapping[str, Any], said: str) -> str | None:
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


def series_issue(args: Mapping[str, Any], said: str, results: Sequence[str]) -> str | None:
    """An id the results give as a record's series (`"recurring_event_id": "rec_77"`), or
    a flag that widens the call to every occurrence, where the user asked for one."""
    if WHOLE.search(said) or (_SERIES_NAMED.search(said) and not _ONE_OCCURRENCE.search(said)):
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


def repeat_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
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


def one_occurrence_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A recurring event deleted whole where the user named one occurrence ("skip this
    Monday's 1:1"): the record in view says it repeats, and the tool is no occurrence's."""
    if "delete" not in effect.kinds or WHOLE.search(said) or not _ONE_OCCURRENCE.search(said):
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


def call_ids(args: Mapping[str, Any]) -> list[str]:
    """The call's values that may be a record's id, for `held_values`."""
    return [str(v) for v in list(args.values())[:16] if isinstance(v, str | int) and str(v)]


def held_values(ids: Sequence[str], results: Sequence[str], key: str) -> Iterator[Any]:
    """What `key` held in each JSON record in view that holds one of the call's ids."""
    for record in _records_holding(ids, results):
        try:
            held = json.loads(record[:100_000])
        except ValueError:
            continue
        if isinstance(held, dict) and key in held:
            yield held[key]


#: Words by which a user asks for an event's time to change.
_RETIMES = re.compile(
    r"\b(?:move|moves|moved|reschedule|push|shift|postpone|delay|earlier|later|sooner|"
    r"shorter|longer|extend|shorten|prepone|bring\s+forward|time|start|end|until|from|at|"
    r"noon|midnight|morning|afternoon|evening|tonight|today|tomorrow|next|week|minutes?|"
    r"hours?|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    re.IGNORECASE,
)


def time_unasked_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
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


#: A standing rule made where the user asked for one act: a mail filter, an automation.
_STANDING = frozenset(["filter", "filters", "automation", "automations", "forwarding"])
#: How a user asks for a rule that keeps acting ("from now on", "always", "every time").
_FOR_GOOD = re.compile(
    r"\b(?:filters?|rules?|automat\w*|always|future|from\s+now\s+on|every\s+time|whenever"
    r"|going\s+forward|auto[- ]?\w+|in\s+future|keep\s+\w+ing)\b",
    re.IGNORECASE,
)


def standing_rule_issue(effect: CallEffect, said: str) -> str | None:
    """A rule that acts on what comes later, made where the user asked for one act on
    what is there: `create_filter(from=…, action="archive")` after "archive the shopmail
    deals emails" archives every such mail from now on."""
    if effect.source != "name" or not effect.kinds & {"create", "modify"}:
        return None
    made = next((e for e in effect.effects if set(words(e.what)) & _STANDING), None)
    if made is None or _FOR_GOOD.search(said):
        return None
    return f"{made.what[:60]} keeps acting on what comes later, where the user asked for one act"


#: A trial of a thing asked for ("send a test of the newsletter", "a preview", "a proof").
_TRIAL = re.compile(
    r"\b(?:send|email|run|do|make)\s+(?:me\s+|us\s+)?(?:a|an|the)\s+"
    r"(test|preview|proof|sample|trial|dry[- ]run)\b",
    re.IGNORECASE,
)


def trial_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """The real thing where the user asked for a trial of it: `send_campaign` after "send
    a test of the December newsletter to me@…" sends it to the whole list."""
    if effect.source != "name" or not effect.kinds & {"send", "pay", "execute"}:
        return None
    asked = _TRIAL.search(said)
    if asked is None:
        return None
    trial = asked.group(1).lower()[:4]
    # the tool's name, its argument keys and its text values: where a test send says so
    items = list(args.items())[:32]
    told = [*(e.what for e in effect.effects), *(str(k) for k, _ in items)]
    told += [v for _, v in items if isinstance(v, str)]
    if any(trial in t.lower() for t in told):
        return None
    return f"the real thing where the user asked for a {asked.group(1).lower()}"


#: A stay or a booking made longer by a stated time: "extend my stay by one night", "two
#: more nights", "an extra day".
_EXTENDED = re.compile(
    r"\b(?:extend|lengthen|prolong|add)\w*\b[^.;!?\n]{0,50}?\bby\s+(\d+|one|two|three|four|five"
    r"|six|seven|an?)\s+(night|day|week)s?\b"
    r"|\b(\d+|one|two|three|four|five|six|seven|an?|another)\s+(?:more|extra)\s+(night|day|week)s?\b",
    re.IGNORECASE,
)
#: A date argument that ends a stay or a span (`check_out`, `end_date`, `return`).
_ENDS = re.compile(r"end|until|to$|out|return|last|through|departure", re.IGNORECASE)


def extended_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A span made longer by other than the time the user stated, or moved instead of
    lengthened: "extend my stay by one night" over 3–5 March ends on the 6th and still
    starts on the 3rd."""
    found = _EXTENDED.search(said[:20_000])
    if found is None or "modify" not in effect.kinds or not results:
        return None
    count, unit = (found.group(1), found.group(2)) if found.group(1) else found.group(3, 4)
    days = int(count) if count.isdigit() else COUNT_WORDS.get(count.lower(), 1)
    step = dt.timedelta(days=days * (7 if unit.lower() == "week" else 1))
    ids = call_ids(args)
    for key, value in list(args.items())[:32]:
        new = _day(value)
        if new is None:
            continue
        for before in held_values(ids, results, str(key)):
            old = _day(before)
            if old is None:
                continue
            expected = old + step if _ENDS.search(str(key)) else old
            if new != expected:
                return f"{key}={value}, where {found.group(0)!r} gives {expected.isoformat()}"
    return None


def _day(value: Any) -> dt.date | None:
    if not isinstance(value, str):
        return None
    try:
        return dt.date.fromisoformat(value.strip()[:10])
    except ValueError:
        return None
