"""Calendar dates in a call against the dates the user stated.

"Move my checkup on May 18 to May 20" is not a move to May 21; "book it from May 10 to
May 13" is not a stay to May 23. When the user wrote dates out, every date a change sets
is one of theirs, or one a stated length reaches from one of theirs ("from May 10 for 3
nights" ends May 13). A user who wrote no date ("next Tuesday") leaves the dates to the
agent, and this check says nothing; a month named alone ("effective January") bounds
the day a change starts on. A length of time the user stated ("mute it for a
day") is held the same way against an argument that sets one (`hours=24`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["date_issue", "dates_in", "duration_issue", "is_time_key", "stay_nights"]

_MONTHS = {
    name: i
    for i, names in enumerate(
        (("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
         ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
         ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
         ("december", "dec")),
        start=1,
    )
    for name in names
}  # fmt: skip
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
#: "May 20", "May 20th", "20 May", "the 13th of May", "the 13th to the 17th of May",
#: "2024-05-20".
_MONTH_DAY = re.compile(rf"\b({_MONTH})\.?\s+{_DAY}\b(?!:)", re.I)
_DAY_MONTH = re.compile(rf"\b{_DAY}\s+(?:of\s+)?({_MONTH})\b", re.I)
_DAY_RANGE_MONTH = re.compile(
    rf"\b(?:the\s+)?{_DAY}\s*(?:-|–|to|until|till|through|and)\s*(?:the\s+)?{_DAY}\s+"
    rf"(?:of\s+)?({_MONTH})\b",
    re.I,
)
_MONTH_DAY_RANGE = re.compile(
    rf"\b({_MONTH})\.?\s+{_DAY}\s*(?:-|–|to|until|till|through)\s*{_DAY}\b(?!:)", re.I
)
_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
#: A length the user stated: "3 nights", "for a week", "two days".
_COUNTS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "fourteen": 14,
}  # fmt: skip
_LENGTH = re.compile(
    r"\b(\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|fourteen)\s+"
    r"(nights?|days?|weeks?)\b",
    re.I,
)
#: Arguments that are a date a change sets (not a search's bound or a record's birthday).
_DATE_VALUE = re.compile(r"^\s*\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?\S*)?\s*$")
_NOT_SET = re.compile(r"birth|dob|created|updated|since|after|before|from_date|to_date", re.I)


def _valid(month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= 31


def dates_in(text: str) -> set[tuple[int, int]]:
    """The (month, day) dates a text writes out."""
    text = text[:20_000]
    out: set[tuple[int, int]] = set()
    for month, a, b in _MONTH_DAY_RANGE.findall(text):
        out |= {(_MONTHS[month.lower()], int(a)), (_MONTHS[month.lower()], int(b))}
    for a, b, month in _DAY_RANGE_MONTH.findall(text):
        out |= {(_MONTHS[month.lower()], int(a)), (_MONTHS[month.lower()], int(b))}
    for month, day in _MONTH_DAY.findall(text):
        out.add((_MONTHS[month.lower()], int(day)))
    for day, month in _DAY_MONTH.findall(text):
        out.add((_MONTHS[month.lower()], int(day)))
    for _, month_s, day_s in _ISO.findall(text):
        out.add((int(month_s), int(day_s)))
    return {d for d in out if _valid(*d)}


def _lengths(text: str) -> set[int]:
    out = set()
    for count, unit in _LENGTH.findall(text[:20_000]):
        n = int(count) if count.isdigit() else _COUNTS[count.lower()]
        out.add(n * 7 if unit.lower().startswith("week") else n)
    return out


#: Words by which a user leaves the date to be worked out ("tomorrow", "next Friday").
_RELATIVE = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|next|this|coming|weekend|week|month|year|days?"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun"
    r"|morning|afternoon|evening|later|soon|asap|earliest|latest|first|last|free|available"
    r"|after|before|until|by|within|end)\b",
    re.IGNORECASE,
)


def date_issue(args: Mapping[str, Any], said: str, results: Sequence[str] = ()) -> str | None:
    """A date the call sets that is none of the user's, nor a stated length from one; or,
    where the user wrote no date and left none to work out ("the dinner Lucy proposed"),
    none of the dates the results in view hold."""
    weekdays = weekday_issue(args, said) or _shift_issue(args, said, results)
    if weekdays is not None:
        return weekdays
    asked = dates_in(said)
    if not asked:
        return (
            _month_issue(args, said)
            or _this_day_issue(args, said, results)
            or _unseen_date(args, said, results)
        )
    lengths = _lengths(said)
    reached = set(asked)
    for month, day in asked:
        for n in lengths:
            try:
                later = dt.date(2000, month, day) + dt.timedelta(days=n)
            except ValueError:
                continue
            reached.add((later.month, later.day))
    for key, value in list(args.items())[:32]:
        if not isinstance(value, str) or _NOT_SET.search(str(key)):
            continue
        if not _DATE_VALUE.match(value):
            continue
        _, month_s, day_s = _ISO.findall(value)[0]
        date = (int(month_s), int(day_s))
        if date not in reached:
            shown = ", ".join(f"{m:02d}-{d:02d}" for m, d in sorted(asked)[:3])
            return f"a date ({value.strip()[:10]}) the user did not state ({shown})"
    return None


#: A month the user named alone as when a change starts or falls: "effective January",
#: "starting in March" (not "the March payment", a record; "by May", a deadline).
_MONTH_ALONE = re.compile(
    rf"\b(?:effective|starting|beginning|from|as\s+of)\s+(?:in\s+)?(?:(?:the\s+)?"
    rf"(?:start|beginning|end|middle)\s+of\s+)?(?:early\s+|late\s+|mid-?)?({_MONTH})\b"
    rf"(?!\s*\d)",
    re.IGNORECASE,
)


_END_KEY = re.compile(r"end|until|to$|out|return|last|through", re.IGNORECASE)


def _month_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A date the call sets outside the month the user named ("a 5% raise effective
    January" set from December 1st). Only where every month named is a month alone:
    "from May 10" is a date, held by `date_issue`."""
    months = {_MONTHS[m.lower()] for m in _MONTH_ALONE.findall(said[:20_000])}
    if not months:
        return None
    for key, value in list(args.items())[:32]:
        if not isinstance(value, str) or _NOT_SET.search(str(key)) or not _DATE_VALUE.match(value):
            continue
        if _END_KEY.search(str(key)):
            continue  # a span that starts in the month ends where its length takes it
        month = int(_ISO.findall(value)[0][1])
        if month not in months:
            shown = ", ".join(f"{m:02d}" for m in sorted(months))
            return f"a date ({value.strip()[:10]}) outside the month the user named ({shown})"
    return None


def _unseen_date(args: Mapping[str, Any], said: str, results: Sequence[str]) -> str | None:
    """A date the call sets a few days off the one date (or few) the results in view
    hold, when the user's words leave none to be worked out: the dinner an email proposes
    for Dec 18, put in the calendar on Dec 19. A date far from any shown is the agent's
    own choice (a first payment of a new schedule), and this check says nothing of it —
    unless the user asked for what was decided there ("update the roadmap with what we
    decided in the meeting"): then any date the results do not give is the agent's."""
    if not results or _RELATIVE.search(said[:20_000]):
        return None
    shown: set[tuple[int, int]] = set()
    for result in results[-16:]:
        shown |= dates_in(result[:20_000])
    if not shown or len(shown) > 3:
        return None
    decided = _AS_DECIDED.search(said[:20_000]) is not None
    for key, value in list(args.items())[:32]:
        if not isinstance(value, str) or _NOT_SET.search(str(key)) or not _DATE_VALUE.match(value):
            continue
        _, month_s, day_s = _ISO.findall(value)[0]
        date = (int(month_s), int(day_s))
        if date in shown:
            continue
        if decided:
            return f"a date ({value.strip()[:10]}) none of those the user referred to"
        if any(0 < _days_apart(date, d) <= 3 for d in shown):
            return f"a date ({value.strip()[:10]}) a few days off the one the results give"
    return None


#: The user's words leave the details to what was decided or agreed in what the agent
#: read: "with what we decided in the meeting", "as agreed", "the date Sam proposed".
_AS_DECIDED = re.compile(
    r"\b(?i:what)\s+(?:we|they|he|she|you|[A-Z][a-z]+)\s+(?:decided|agreed|settled|proposed|"
    r"suggested|planned)\b|\b(?i:as)\s+(?:agreed|decided|discussed|planned|proposed)\b"
    r"|\b(?:date|day|time)\s+(?:we|they|he|she|[A-Z][a-z]+)\s+(?:agreed|decided|settled|"
    r"proposed|suggested|picked)\b",
)


#: "this Monday", "this Monday's 1:1": the one of that weekday nearest, not a later one.
_THIS_DAY = re.compile(
    r"\bthis\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.IGNORECASE
)
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _this_day_issue(args: Mapping[str, Any], said: str, results: Sequence[str]) -> str | None:
    """A date on the weekday the user called "this Monday" that is not the one the
    results in view put on it: a week off is another occurrence ("skip this Monday's
    1:1" over the series' 2026-12-07 is not the 14th)."""
    found = _THIS_DAY.search(said[:20_000])
    if found is None or not results:
        return None
    weekday = _WEEKDAYS.index(found.group(1).lower())
    shown = set()
    for result in results[-16:]:
        for year, month, day in _ISO.findall(result[:20_000])[:200]:
            try:
                date = dt.date(int(year), int(month), int(day))
            except ValueError:
                continue
            if date.weekday() == weekday:
                shown.add(date)
    if not shown:
        return None
    for key, value in list(args.items())[:32]:
        if not isinstance(value, str) or _NOT_SET.search(str(key)) or not _DATE_VALUE.match(value):
            continue
        year, month, day = (int(x) for x in _ISO.findall(value)[0])
        try:
            date = dt.date(year, month, day)
        except ValueError:
            continue
        if date.weekday() == weekday and date not in shown:
            first = min(shown).isoformat()
            return f"a date ({date.isoformat()}) a week or more off this {found.group(1)} ({first})"
    return None


def _days_apart(a: tuple[int, int], b: tuple[int, int]) -> int:
    try:
        return abs((dt.date(2000, *a) - dt.date(2000, *b)).days)
    except ValueError:
        return 0


def stay_nights(args: Mapping[str, Any], said: str) -> int | None:
    """How many nights a stay spans, from the call's check-in and check-out dates, else
    from the two dates the user wrote ("from Dec 18 to Dec 21" is three nights), so a
    count nobody wrote out is held to the stay it belongs to."""
    days: set[dt.date] = set()
    for value in list(args.values())[:32]:
        found = _ISO.match(value.strip()) if isinstance(value, str) else None
        if found is not None:
            try:
                days.add(dt.date(*(int(g) for g in found.groups())))
            except ValueError:
                return None
    if len(days) == 2:
        first, last = sorted(days)
        return (last - first).days
    stated = dates_in(said)
    if len(days) < 2 and len(stated) == 2:
        apart = _days_apart(*sorted(stated))
        return min(apart, 366 - apart) or None  # "Dec 30 to Jan 2" wraps the year
    if len(days) < 2 and _ONE_NIGHT.search(said[:20_000]) and not _NIGHTS.search(said[:20_000]):
        return 1  # "a room for Friday night", "somewhere to stay tonight"
    return None


#: A stay of one night, by the night's name ("Friday night", "tonight", "overnight").
_ONE_NIGHT = re.compile(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|one|a|single|the|this|tomorrow)\s+night\b"
    r"|\b(?:tonight|overnight)\b",
    re.IGNORECASE,
)
#: Several nights spoken of, or a stretch of days: the stay is not one night.
_NIGHTS = re.compile(r"\bnights\b|\bweekend\b|\bweek\b|\buntil\b|\bthrough\b", re.I)


_MINUTES = {
    "second": 1 / 60, "sec": 1 / 60, "minute": 1, "min": 1, "hour": 60, "hr": 60, "day": 1440,
    "week": 10080, "month": 43200, "year": 525600,
}  # fmt: skip
#: How far a length given in months or years may be from one given in days or weeks and
#: be the same ("a month" is 28 to 31 days; "a year" is 12 months or 365 days).
_CALENDAR_SLACK = 0.08
#: A length of time the user stated, to the minute: "for a day", "for 30 minutes".
_SAID_LENGTH = re.compile(
    r"\b(\d+(?:\.\d+)?|half an|an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve)"
    r"(?:\s+|-)(second|sec|minute|min|hour|hr|day|week|month|year)s?\b",
    re.IGNORECASE,
)
#: Arguments that hold a length of time, in the unit their name says (`minutes`,
#: `duration_seconds`, `snoozeMinutes`, a reminder's `minutes_before`).
_LENGTH_KEY = re.compile(
    r"^(?:duration_?|[a-z]{2,20}_)?(seconds|secs|minutes|mins|hours|hrs|days|weeks|months|years)"
    r"(?:_?(?:before|after|ahead|prior|early|earlier|later))?$"
    r"|^(?-i:[a-z]{2,20})(Seconds|Minutes|Hours|Days|Weeks|Months|Years)(?-i:Before|After)?$",
    re.IGNORECASE,
)


#: How long a thing the user books lasts: "a 30-minute lunch", "an hour-long call", "a
#: meeting for 45 minutes" (not "30 minutes later", a move).
_SPAN = re.compile(
    r"\b(\d+(?:\.\d+)?|half an|an?|one|two|three)[\s-](minute|min|hour|hr)s?(?:-long)?\s+"
    r"(?!later|earlier|early|late|before|after|ago|from|back|forward|ahead|until)[a-z]"
    r"|\bfor\s+(\d+(?:\.\d+)?|half an|an?|one|two|three)\s+(minute|min|hour|hr)s?\b",
    re.IGNORECASE,
)
_START_KEY = re.compile(r"^(?:start|starts|start_time|start_at|begin|from|start_datetime)$", re.I)
_END_KEY_TIME = re.compile(r"^(?:end|ends|end_time|end_at|until|to|end_datetime)$", re.I)
_DATETIME = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})[T ](\d{1,2}):(\d{2})")


def is_time_key(key: str) -> bool:
    """Whether an argument holds when a thing happens: its start, its end, or its time."""
    return bool(
        _START_KEY.match(key)
        or _END_KEY_TIME.match(key)
        or re.fullmatch(r"time|datetime|when", key, re.I)
    )


def _minutes_of(count: str, unit: str) -> float:
    n = count.lower()
    value = float(count) if count[0].isdigit() else 0.5 if n == "half an" else _COUNTS[n]
    return value * _MINUTES[unit.lower()]


def _span_issue(args: Mapping[str, Any], said: str) -> str | None:
    """An event whose start and end are further apart, or closer, than the length the
    user gave it: "a 30-minute lunch at noon" ending at 13:30."""
    spans = {
        _minutes_of(m.group(1) or m.group(3), m.group(2) or m.group(4))
        for m in _SPAN.finditer(said[:20_000])
    }
    if not spans:
        return None
    items = list(args.items())[:32]
    starts = [_when(v) for k, v in items if _START_KEY.match(str(k))]
    ends = [_when(v) for k, v in items if _END_KEY_TIME.match(str(k))]
    if len(starts) != 1 or len(ends) != 1 or starts[0] is None or ends[0] is None:
        return None
    minutes = (ends[0] - starts[0]).total_seconds() / 60
    if not any(abs(minutes - s) < 1 for s in spans):
        return f"lasts {minutes:g} minutes, where the user gave it another length"
    return None


#: A change of an event's length or place in the day by a stated time: "30 minutes
#: shorter", "an hour later", "push it back 15 minutes" reads as later.
_SHIFT = re.compile(
    r"\b(\d+(?:\.\d+)?|half an|an?|one|two|three)\s+(minute|min|hour|hr)s?\s+"
    r"(shorter|longer|earlier|later|sooner)\b",
    re.IGNORECASE,
)
#: The same said by the way the event goes: "push the review back an hour" is later,
#: "move it up 30 minutes", "bring it forward an hour" earlier.
_PUSHED = re.compile(
    r"\b(?:(push|set|put|knock)|(?:move|bring|pull|shift|bump))\b[^.;!?\n]{0,40}?\b(back|up|forward|ahead)"
    r"\s+(?:by\s+)?(\d+(?:\.\d+)?|half an|an?|one|two|three)\s+(minute|min|hour|hr)s?\b",
    re.IGNORECASE,
)


def _shift_said(said: str) -> tuple[str, str, str, str] | None:
    """(how many, of what, which way, the words) of a shift the user stated."""
    found = _SHIFT.search(said)
    if found is not None:
        return found.group(1), found.group(2), found.group(3).lower(), found.group(0)
    pushed = _PUSHED.search(said)
    if pushed is None:
        return None
    way = pushed.group(2).lower()
    if way != "back" and pushed.group(1):
        return None  # "push it forward" is said both ways
    how = "later" if way == "back" else "earlier"
    return pushed.group(3), pushed.group(4), how, pushed.group(0)


_RECORD_TIME = r"[\"']?{key}[\"']?\s*[:=]\s*[\"']?(\d{{4}}-\d{{2}}-\d{{2}}[T ]\d{{1,2}}:\d{{2}})"
_RECORD_START = re.compile(_RECORD_TIME.format(key=r"(?:start|start_time|starts|start_at)"), re.I)
_RECORD_END = re.compile(_RECORD_TIME.format(key=r"(?:end|end_time|ends|end_at)"), re.I)


def _shift_issue(args: Mapping[str, Any], said: str, results: Sequence[str]) -> str | None:
    """A start or an end other than the record's moved by the time the user stated:
    "make the design review 30 minutes shorter" over 11:00–12:00 ends it at 11:30, not
    11:00; "an hour later" moves both ends by an hour."""
    found = _shift_said(said[:20_000])
    if found is None or not results:
        return None
    amount, unit, how, words = found
    minutes = _minutes_of(amount, unit)
    ids = [v for v in list(args.values())[:16] if isinstance(v, str | int) and len(str(v)) > 1]
    for result in results[-8:]:
        text = result[:100_000]
        start_m, end_m = _RECORD_START.search(text), _RECORD_END.search(text)
        if start_m is None or end_m is None:
            continue
        if len(_RECORD_START.findall(text)) > 1 and not any(str(i) in text for i in ids):
            continue
        start, end = _when(start_m.group(1)), _when(end_m.group(1))
        if start is None or end is None:
            continue
        step = dt.timedelta(minutes=minutes)
        expected = {
            "shorter": (start, end - step),
            "longer": (start, end + step),
            "earlier": (start - step, end - step),
            "sooner": (start - step, end - step),
            "later": (start + step, end + step),
        }[how]
        for key, value in list(args.items())[:32]:
            at = _when(value)
            if at is None:
                continue
            if _START_KEY.match(str(key)) and at != expected[0]:
                return f"starts at {at:%H:%M}, where {words!r} gives {expected[0]:%H:%M}"
            if _END_KEY_TIME.match(str(key)) and at != expected[1]:
                return f"ends at {at:%H:%M}, where {words!r} gives {expected[1]:%H:%M}"
        return None
    return None


def _when(value: Any) -> dt.datetime | None:
    found = _DATETIME.match(value) if isinstance(value, str) else None
    if found is None:
        return None
    try:
        year, month, day, hour, minute = (int(g) for g in found.groups())
        return dt.datetime(year, month, day, hour, minute)
    except ValueError:
        return None


def duration_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A length of time other than the one the user stated: "mute #random for a day" is
    not `hours=24000`; "a 30-minute lunch" does not end an hour and a half after it starts."""
    span = _span_issue(args, said)
    if span is not None:
        return span
    stated = {_minutes_of(n, u) for n, u in _SAID_LENGTH.findall(said)[:8]}
    if not stated:
        return None
    for key, value in list(args.items())[:32]:
        found = _LENGTH_KEY.match(str(key))
        if found is None or not isinstance(value, int | float) or isinstance(value, bool):
            continue
        unit = (found.group(1) or found.group(2)).lower().rstrip("s")
        unit = {"min": "minute", "hr": "hour"}.get(unit, unit)
        minutes = float(value) * _MINUTES[unit]
        coarse = unit in ("month", "year") or any(s >= _MINUTES["month"] for s in stated)
        slack = _CALENDAR_SLACK if coarse else 0.01
        if not any(abs(minutes - s) <= slack * s for s in stated):
            return f"{key}={value:g}, where the user asked for another length of time"
    return None


_DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
#: A day of the week as a call or a user writes it: "monday", "Mon", "tues", "thurs".
_WEEKDAY = re.compile(
    r"\b(mon|tue|wed|thu|fri|sat|sun)(?:day|s|sday|nesday|rsday|rs|urday|es)?s?\b", re.IGNORECASE
)
#: A day as a user writes it: in full ("monday", "Tues", "Thurs"), or a capitalised
#: abbreviation ("Mon"; "I sat down" names no day).
_DAY_SAID = re.compile(
    r"\b(?:(mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday)s?|(tue)s|(wed)s|(thu)rs"
    r"|(?-i:(Mon|Tue|Wed|Thu|Fri|Sat|Sun))\b\.?)\b",
    re.IGNORECASE,
)
#: Sets of days a user names in a word.
_DAY_SETS = (
    (re.compile(r"\bweek-?days?\b|\bwork(?:ing)?\s*days?\b|\bbusiness\s+days?\b", re.I),
     frozenset(_DAY_NAMES[:5])),
    (re.compile(r"\bweek-?ends?\b", re.I), frozenset(_DAY_NAMES[5:])),
    (re.compile(r"\bevery\s*day\b|\bdaily\b|\beach\s+day\b|\ball\s+week\b", re.I),
     frozenset(_DAY_NAMES)),
)  # fmt: skip
#: "Monday to Friday", "mon-fri": every day between.
_DAY_RANGE = re.compile(
    rf"{_WEEKDAY.pattern}\s*(?:-|–|to|through|thru|until)\s*{_WEEKDAY.pattern}", re.IGNORECASE
)


def _said_day(m: re.Match[str]) -> str:
    return next(g for g in m.groups() if g).lower()


#: Keys that hold the days a repeat falls on.
_DAYS_KEY = re.compile(
    r"^(?:days?|weekdays?|repeat(?:_days|_on)?|by_?day|days_of_week|on_days)$", re.I
)


def _days_said(said: str) -> frozenset[str]:
    out: set[str] = set()
    for pattern, days in _DAY_SETS:
        if pattern.search(said):
            out |= days
    text = said
    for m in _DAY_RANGE.finditer(said):
        a, b = _DAY_NAMES.index(m.group(1).lower()), _DAY_NAMES.index(m.group(2).lower())
        out |= {_DAY_NAMES[i % 7] for i in range(a, a + (b - a) % 7 + 1)}
        text = text.replace(m.group(0), " ")
    out |= {_said_day(m) for m in _DAY_SAID.finditer(text)}
    return frozenset(out)


def weekday_issue(args: Mapping[str, Any], said: str) -> str | None:
    """The days a repeat falls on that are not the user's: `days=["sat", "sun"]` after
    "on weekdays", `["mon"]` after "every Tuesday"."""
    asked = _days_said(said[:10_000])
    if not asked:
        return None
    for key, value in list(args.items())[:32]:
        if not _DAYS_KEY.match(str(key)):
            continue
        items = value if isinstance(value, list) else [value]
        texts = [v for v in items[:14] if isinstance(v, str)]
        days = {m.group(1).lower() for v in texts for m in _WEEKDAY.finditer(v)}
        for v in texts:
            for pattern, named in _DAY_SETS:
                if pattern.search(v):
                    days |= named
        if days and days != asked:
            shown, wanted = (", ".join(d for d in _DAY_NAMES if d in x) for x in (days, asked))
            return f"on {shown} ({key}), where the user said {wanted}"
    return None
