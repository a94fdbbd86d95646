"""A time of day or a repeat in the call against the ones the user stated.

Users give hours the way people do ("at 9", "9 to 5", "tonight"), so each is read with
the readings a listener would allow before a call's time is called another.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

from clef_tools.gate._grounding import (
    times_in,
)
from clef_tools.gate._licence import amends

#: Argument values that hold a time of day (`"16:30"`, `"2026-12-03T10:30"`).
_TIME_VALUE = re.compile(r"^(?:\d{4}-\d{2}-\d{2}[T ])?\d{1,2}:\d{2}(?::\d{2})?")


def time_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A time of day in the call that is none of the times the user stated, when they
    stated any ("set an alarm for 6:30" is not 16:30; "move the standup to 10:30" is not
    11:30): a call with several times (a start and an end) needs one of them stated. A
    last turn that amends the time ("no wait, the 10am one") replaces the times before."""
    whole = said
    *before, last = said[:20_000].rstrip().rsplit("\n", 1)
    if before and amends(last) and (times_in(last) or _bare_hours(last)):
        said = last
    ranged = _hour_range(said[:20_000])
    clock = times_in(said[:20_000])
    asked = clock | _bare_hours(said[:20_000]) | ranged | _moved_to_hours(said[:20_000])
    if not asked:
        return _part_of_day_issue(args, said)
    asked |= _afternoon_twins(said, evening=_EVENING.search(whole[:20_000]) is not None)
    found = _times_set(args)
    if ranged and len(found) > 1:
        # "working hours 9 to 5": the start and the end are both the user's
        off = [t for t in found if t not in ranged and t not in clock]
        if off:
            return f"a time ({off[0]}) the user did not state ({', '.join(sorted(ranged)[:4])})"
    if not found:
        # a message that tells someone a time ("tell #design the review moved to 3pm"):
        # the one its text states must be among the user's
        found = sorted(
            t
            for key, value in list(args.items())[:32]
            if isinstance(value, str) and str(key).lower() in _MESSAGE_KEYS
            # "dinner is at 9" tells an hour as the user's "at 8" does
            for t in times_in(value[:4000]) | _bare_hours(value[:4000])
        )
    if not found or any(t in asked for t in found):
        return None
    return f"a time ({found[0]}) the user did not state ({', '.join(sorted(asked)[:3])})"


#: An hour said alone, and what may not follow it for it to be one: a street ("at 10
#: Downing Street"), a count, a percentage, a clock or am/pm written out.
_HOUR_ALONE = (
    r"(1[0-2]|[1-9])(?:\s*o['’]?clock)?"
    r"(?![\d:,%]|\.\d|\s*[ap]\.?m\b|\s+(?-i:[A-Z])|\s+(?:people|persons|guests|percent|items?|of|x|"
    r"min\w*|hours?|days?|weeks?|euros?|dollars?|pounds?)\b)"
)
#: An hour alone after "at" ("the dentist next Tuesday at 10", "at 7 tonight").
_BARE_HOUR = re.compile(rf"\bat\s+{_HOUR_ALONE}", re.IGNORECASE)
#: An hour alone that a thing is moved to ("move my 1:1 with Dana to 11"), not a day of
#: the month ("to the 11th").
_MOVED_TO_HOUR = re.compile(
    r"\b(?:move|moving|moved|push|pushed|shift|shifted|reschedule|rescheduled|bump|change)\b"
    rf"[^.;!?\n]{{0,60}}?\bto\s+(?!\d+(?:st|nd|rd|th)\b){_HOUR_ALONE}",
    re.IGNORECASE,
)


def _working_hour(hour: int) -> int:
    """An hour given without its half of the day, as a working day reads it: 7 to 11 in
    the morning, 12 at noon, else in the afternoon."""
    return hour if 7 <= hour <= 11 else hour % 12 + 12


def _both_halves(hours: list[str]) -> set[str]:
    """Each hour said alone, as the morning's and the afternoon's."""
    return {f"{int(h) % 12 + half:02d}:00" for h in hours for half in (0, 12)}


def _moved_to_hours(said: str) -> set[str]:
    """Each hour a thing is moved to, read as a working day reads it, or as either half
    of the day where the request is an evening's ("move dinner to 8")."""
    hours = _MOVED_TO_HOUR.findall(said)
    if _EVENING.search(said) is not None:
        return _both_halves(hours)
    return {f"{_working_hour(int(h)):02d}:00" for h in hours}


#: Hours given as a span without their half of the day: "from 9 to 5", "between 8 and
#: 4:30", "(set my hours) to 9 to 5".
_HOUR_RANGE = re.compile(
    r"(?:\b(?:from|between)\s+|(?<=\bto\s))(1[0-2]|[1-9])(?::([0-5]\d))?\s*(?:to|till|until|and|-|–)"
    r"\s*(1[0-2]|[1-9])(?::([0-5]\d))?(?![\d:.,%]|\s*[ap]\.?m\b)",
    re.IGNORECASE,
)


def _hour_range(said: str) -> set[str]:
    """Each end of a span of hours, read as a working day reads it: a start from 7 to 11
    in the morning, else in the afternoon, and an end after the start ("9 to 5" is 09:00
    to 17:00, "1 to 3" 13:00 to 15:00)."""
    out: set[str] = set()
    for h1, m1, h2, m2 in _HOUR_RANGE.findall(said):
        start = _working_hour(int(h1))
        end = int(h2) % 12
        end = end if end * 60 + int(m2 or 0) > start * 60 + int(m1 or 0) else end + 12
        out |= {f"{start:02d}:{int(m1 or 0):02d}", f"{end % 24:02d}:{int(m2 or 0):02d}"}
    return out


def _bare_hours(said: str) -> set[str]:
    """Each hour said alone, as the morning's and the afternoon's (which one the user
    meant the gate cannot tell): "at 10" is 10:00 or 22:00; "tonight at 8" is 20:00."""
    hours = _BARE_HOUR.findall(said)
    if _TONIGHT.search(said) and not _DAYTIME.search(said):
        return {f"{int(h) % 12 + 12:02d}:00" for h in hours if int(h) < 12} | _both_halves(
            [h for h in hours if int(h) == 12]
        )
    return _both_halves(hours)


#: A request set tonight, where an hour alone is the evening's ("a table tonight at 8").
_TONIGHT = re.compile(r"\b(?:tonight|this\s+evening)\b", re.IGNORECASE)
#: Words of the day's first half, which leave an hour alone in either half.
_DAYTIME = re.compile(r"\b(?:morning|noon|breakfast|lunch|brunch|a\.?m)\b", re.IGNORECASE)


#: A clock time written without its half of the day ("try 6:30"), not as a 24-hour time
#: ("06:30", "18:30").
_BARE_CLOCK = re.compile(r"(?<![\d:.])([1-9]|1[01]):([0-5]\d)(?![\d:])(?!\s*[ap]\.?m\b)", re.I)


#: Words that set a request in the evening: "a table at 6:30" is at 18:30.
_EVENING = re.compile(
    r"\b(?:tonight|evening|night|dinner|supper|drinks|table|restaurant|bar|pub|concert|show"
    r"|movie|cinema|theat(?:re|er))\b",
    re.IGNORECASE,
)


def _afternoon_twins(said: str, *, evening: bool) -> set[str]:
    """The evening reading of the clock times the user gave without am or pm, where the
    request is an evening's ("a table at 6:30" is 18:30, and so is "no, try 6:30" after
    it); an alarm at 7:15 stays 07:15."""
    if not evening:
        return set()
    return {f"{int(h) + 12:02d}:{m}" for h, m in _BARE_CLOCK.findall(said[:20_000])}


def _times_set(args: Mapping[str, Any]) -> list[str]:
    """The times of day the call's values set (`"18:30"`, `"2026-12-08T10:00"`), as
    `HH:MM`, in argument order."""
    return [
        t
        for value in list(args.values())[:32]
        if isinstance(value, str) and _TIME_VALUE.match(value.strip())
        for t in times_in(value.strip()[:40])
    ]


#: A part of the day a user names instead of a clock time ("a dentist appointment on
#: Tuesday morning"), and its hours, [from, to); a greeting names none.
_PART_OF_DAY = re.compile(r"(?<!good )\b(morning|afternoon|evening|tonight)\b", re.I)


_PART_HOURS = {"morning": (5, 12), "afternoon": (12, 18), "evening": (17, 24), "tonight": (17, 24)}


def _part_of_day_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A time in the call outside every part of the day the user named: 15:00 for "next
    Tuesday morning"."""
    parts = {p.lower() for p in _PART_OF_DAY.findall(said[:20_000])}
    if not parts:
        return None
    found = sorted(_times_set(args))
    inside = [
        t for t in found for p in parts if _PART_HOURS[p][0] <= int(t[:2]) < _PART_HOURS[p][1]
    ]
    if not found or inside:
        return None
    return f"a time ({found[0]}) outside the {sorted(parts)[0]} the user asked for"


#: Arguments that hold the text of a message sent.
_MESSAGE_KEYS = frozenset(["text", "body", "message", "content", "msg"])


#: How often something repeats, as users and tools say it.
_FREQUENCIES = {
    "daily": "daily", "day": "daily", "days": "daily", "everyday": "daily",
    "weekly": "weekly", "week": "weekly", "weeks": "weekly",
    "biweekly": "biweekly", "fortnightly": "biweekly", "fortnight": "biweekly",
    "monthly": "monthly", "month": "monthly", "months": "monthly",
    "quarterly": "quarterly", "quarter": "quarterly",
    "yearly": "yearly", "annually": "yearly", "annual": "yearly", "year": "yearly",
}  # fmt: skip


_FREQUENCY_KEY = re.compile(
    r"(?:^|_)(?:recurrence|recurring|frequency|interval|repeat|rrule|schedule|period|cadence)(?:_|$)",
    re.I,
)


_SAID_FREQUENCY = re.compile(
    r"\b(daily|weekly|biweekly|fortnightly|monthly|quarterly|yearly|annually|annual)\b"
    r"|\bevery\s+(?:other\s+)?(day|week|fortnight|month|quarter|year)\b",
    re.I,
)


#: A weekday each week: "every Monday", "football on Saturdays".
_WEEKDAY_EACH_WEEK = re.compile(
    r"\bevery\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\b"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b",
    re.IGNORECASE,
)


_WRITTEN_FREQUENCY = re.compile(
    r"\b(interval|frequency|schedule|cadence|period|repeat)[\"']?[ \t]*[:=][ \t]*[\"']?([a-z]+)\b",
    re.IGNORECASE,
)


def frequency_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A repeat other than the one the user stated: "a monthly transfer" is not
    `recurrence="weekly"`."""
    repeats = [
        (key, value)
        for key, value in list(args.items())[:32]
        if isinstance(value, str) and _FREQUENCY_KEY.search(str(key))
    ]
    # a repeat written into a file (`interval: daily` in a dependabot config), not the
    # passage an edit replaces
    repeats += [
        (m.group(1), m.group(2))
        for key, value in list(args.items())[:32]
        if isinstance(value, str) and str(key).lower() not in ("old_string", "old_str", "find")
        for m in itertools.islice(_WRITTEN_FREQUENCY.finditer(value[:100_000]), 8)
    ]
    if not repeats:
        return None
    asked = {_FREQUENCIES[(a or b).lower()] for a, b in _SAID_FREQUENCY.findall(said[:20_000])}
    if _WEEKDAY_EACH_WEEK.search(said[:20_000]):
        asked.add("weekly")
    if not asked:
        return None
    for key, value in repeats:
        set_to = {
            _FREQUENCIES[w] for w in re.findall(r"[a-z]+", value.lower()[:200]) if w in _FREQUENCIES
        }
        if set_to and not set_to & asked:
            return f"{key}={value[:40]!r}: repeats other than the user asked ({sorted(asked)[0]})"
    return None
