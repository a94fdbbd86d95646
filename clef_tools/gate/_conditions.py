"""Conditions the user set that the call leaves out.

"Buy 5 TSLA with a limit at 300", "delete the camera's recordings from last week",
"schedule the post for Monday 9am": each request bounds its act (a price, a period, a
time), and a call can do the asked-for thing on the named object while dropping the
bound: a market order, every recording, a post sent now. The act and the object match,
so the licence and the names vouch for it; what is missing is the condition, and a call
that omits it does more than was asked. Each check reads the bound from the user's words
and looks for it in the call's arguments; a call that states it some other way than the
check reads passes to the other checks as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from clef_tools.gate._dates import dates_in, is_time_key
from clef_tools.gate._effects import CallEffect, after_verb, table, verb_words, words
from clef_tools.gate._grounding import ADDRESS_TEXT, state_group, times_in

__all__ = ["condition_dropped_issue"]

_MAX_SAID = 20_000
_MAX_VALUES = 256

#: A price bound on an order: "a limit order to buy 5 TSLA at 300", "stop-loss at 280".
_PRICE_BOUND = re.compile(
    r"\b(?:limit|stop(?:[- ]loss)?)\b[^.;!?\n]{0,60}?(?:\bat\b|\bof\b|@)\s*[$€£]?\s*"
    r"(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\d%])",
    re.IGNORECASE,
)
#: A period the user bounds a removal of several things by: "from last week", "older than
#: 30 days", "before March", "from yesterday", "this month's".
_PERIOD = re.compile(
    r"\b(?:from|of|in|during)\s+(?:the\s+)?(?:last|past|previous|this)\s+(?:\d+\s+)?"
    r"(?:days?|weeks?|months?|years?|weekend|night)\b"
    r"|\b(?:last|past|previous|this)\s+(?:week|month|year|weekend)['’]s\b"
    r"|\bolder\s+than\b|\bbefore\s+(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"
    r"|last|this|yesterday)|\bsince\s+\w|\b(?:from\s+)?yesterday(?:['’]s)?\b",
    re.IGNORECASE,
)
#: Words of argument names that bound an act in time: a date, an age, a range
#: (`start_date`, `olderThan`, `send_at`).
_PERIOD_WORDS = frozenset(
    ["date", "dates", "time", "datetime", "timestamp", "from", "to", "until", "till", "since",
     "before", "after", "older", "newer", "age", "days", "period", "range", "start", "end",
     "when", "window", "ttl", "at", "schedule", "scheduled"]
)  # fmt: skip
#: A period written into a search (`older_than:1y`, `before:2026/01/01`, `-mtime +30`).
_AGE_VALUE = re.compile(
    r"\b(?:older|newer)_?than\b|\b(?:before|after|since|until|older|newer):"
    r"|\b\d+\s*(?:d|w|m|y|days?|weeks?|months?|years?)\b|-mtime\b"
    # a search's own words for a day or a span (`taken:yesterday`, `date:last_week`)
    r"|\b\w+:(?:yesterday|today|last[_-]?(?:week|month|year)|this[_-]?(?:week|month|year))\b",
    re.IGNORECASE,
)
_PARTY_KEYS = frozenset(["from", "to", "sender", "recipient"])
#: A send asked for later: "schedule the post for Monday 9am".
_SCHEDULED = re.compile(r"\bschedul(?:e|ed|ing)\b", re.IGNORECASE)
_DAY_SAID = re.compile(
    r"\b(?:today|tonight|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|next\s+week|morning|afternoon|evening)\b",
    re.IGNORECASE,
)
#: A value written as a date or a time (`2026-12-07T09:00`, `09:00`, `Dec 7`).
_WHEN_VALUE = re.compile(r"\d{4}-\d{2}-\d{2}|\b\d{1,2}:\d{2}\b")


def condition_dropped_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """Why the call drops a bound the user set on the act, if it does."""
    text = said[:_MAX_SAID]
    return (
        _price_bound_issue(effect, args, text)
        or _period_issue(effect, args, text)
        or _qualifier_issue(effect, args, text)
        or _expiry_issue(effect, args, text)
        or _sent_now_issue(effect, args, text)
        or _done_now_issue(effect, args, text)
        or _for_good_issue(effect, args, text)
        or _at_term_end_issue(effect, args, text)
        or _unstaged_issue(effect, text)
        or _excepted_issue(effect, args, text)
        or _search_keeps_out_issue(effect, args, text)
        or _inside_issue(effect, args, text)
    )


def _price_bound_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A limit price the user set, missing from the order placed: a market order for
    "buy 5 TSLA with a limit at 300"."""
    if "pay" not in effect.kinds:
        return None
    bound = _PRICE_BOUND.search(said)
    if bound is None:
        return None
    price = float(
        bound.group(1).replace(",", "") + ("." + bound.group(2) if bound.group(2) else "")
    )
    if any(abs(value - price) <= 1e-6 * max(1.0, price) for value in _numbers(args)):
        return None
    return f"the price limit the user set ({price:g}) is not in the order"


def _period_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A removal of several things bounded by a period the user named, made with no period
    at all: `delete_recordings(device_id=…)` for "delete its recordings from last week"
    removes every recording."""
    if "delete" not in effect.kinds or effect.source not in ("name", "annotations"):
        return None
    noun = _plural_noun(effect, table().verbs["delete"])
    if noun is None:
        return None  # `delete_email(id=…)`: one record, however the user dated it
    if _PERIOD.search(said) is None:
        return None
    for key, value in _leaves(args):
        if _bounds_time(key):
            return None
        if isinstance(value, str) and (
            _WHEN_VALUE.search(value[:2000])
            or _AGE_VALUE.search(value[:2000])
            or dates_in(value[:200])
        ):
            return None
    return f"removes every one of the {noun}, where the user bounded them by a period"


def _plural_noun(effect: CallEffect, verbs: frozenset[str]) -> str | None:
    """What a tool's name acts on after one of `verbs`, when it is several things
    (`recordings` of `delete_recordings`; not `email` of `delete_email`, nor `address`)."""
    nouns = after_verb(effect.tool, verbs)
    # `move_issues_to_sprint`: what is moved comes before where it goes
    before = next((i for i, w in enumerate(nouns or ()) if w in _PLACE_WORDS), None)
    nouns = nouns[:before] if nouns and before else nouns
    if not nouns or not nouns[-1].endswith("s") or nouns[-1].endswith("ss"):
        return None
    return nouns[-1]


_PLACE_WORDS = frozenset(["to", "into", "in", "from", "on", "onto", "for", "by", "between"])
#: Plurals a tool's name and a user use for the same records ("tickets" of `move_issues`).
_SAME_NOUNS = (
    ("issues", "tickets", "tasks", "cards", "stories", "bugs"),
    ("emails", "mails", "messages"),
    ("photos", "pictures", "images", "pics"),
    ("files", "documents", "docs"),
)


#: Arguments that pick the records a bulk call acts on by a search.
_QUERY_KEYS = frozenset(["query", "q", "filter", "search", "jql", "criteria", "where"])
#: Words before a noun that pick no kind of thing ("the", "all", "my old", "those 3").
_NOT_QUALIFIERS = frozenset(
    ["the", "all", "any", "some", "my", "our", "your", "their", "his", "her", "its", "those",
     "these", "this", "that", "every", "each", "both", "of", "other", "old", "older", "new",
     "newer", "latest", "last", "recent", "first", "few", "many", "several", "more", "most",
     "remaining", "rest", "such", "same", "own", "a", "an", "and", "or", "extra"]
)  # fmt: skip


def _qualifier_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A removal or a change of several things by a search that drops the word the user
    picked them by: `delete_photos(query="taken:yesterday")` for "delete the blurry photos
    from yesterday" removes the sharp ones too; `archive_tasks(filter="all")` for "archive
    my completed tasks" archives the open ones."""
    if not effect.kinds & {"delete", "modify"} or effect.source not in ("name", "annotations"):
        return None
    verbs = table().verbs
    noun = _plural_noun(effect, verbs["delete"] | verbs["modify"])
    if noun is None:
        return None
    query = " ".join(
        str(v) for k, v in list(args.items())[:32] if str(k).lower() in _QUERY_KEYS and v
    ).lower()
    if not query:
        return None
    same = next((g for g in _SAME_NOUNS if noun in g), (noun,))
    nouns = "|".join(re.escape(n) for n in same)
    # a state the search keeps in any words ("status != Done" for "unfinished") counts
    stated = any(state_group(w) for w in re.findall(r"[a-z]+", query)) or bool(
        re.search(r"\b(?:status|state|resolution|is)\b", query)
    )
    for found in re.finditer(
        rf"(?:\b(?:the|all|my|those|these|every)|['’]s)\s+((?:[a-z][\w-]*\s+){{1,3}}?)(?:{nouns})\b",
        said.lower(),
    ):
        picked = [w for w in found.group(1).split() if w not in _NOT_QUALIFIERS and not w.isdigit()]
        picked = [w for w in picked if not (stated and state_group(w))]
        if picked and not any(w[:4] in query for w in picked):
            return f"searches without {picked[0]!r}, the word the user picked the {noun} by"
    return None


#: Access or a link the user asked to lapse: "a link that expires friday", "a door code
#: valid today only", "temporary access".
_EXPIRY_SAID = re.compile(
    r"\b(?:links?|codes?|access|invites?|invitations?|shares?|pass(?:es)?|tokens?|keys?"
    r"|permissions?|url)\b(?:[^.;!?\n]|\.(?=\S)){0,60}?\b(?:expir\w*|valid\s+(?:until|till|through|for|today"
    r"|tonight)|(?:today|tonight)\s+only|only\s+(?:for\s+)?(?:today|tonight))\b"
    r"|\b(?:temporary|temporarily|expiring)\s+(?:\w+\s+)?(?:links?|codes?|access|invites?"
    r"|pass(?:es)?|tokens?|keys?)\b",
    re.IGNORECASE,
)


def _expiry_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A link, a code or access the user asked to lapse, made with no end: `create_shared_
    link(path=…)` for "a shareable link that expires friday" lasts until someone revokes it."""
    if not effect.kinds & {"create", "grant", "send"} or effect.source not in (
        "name",
        "annotations",
    ):
        return None
    if _EXPIRY_SAID.search(said) is None:
        return None
    for key, value in _leaves(args):
        if _bounds_time(key) or re.search(r"expir|until|valid|ttl|duration|end", key, re.I):
            return None
        if isinstance(value, str) and (_WHEN_VALUE.search(value[:2000]) or dates_in(value[:200])):
            return None
    return "makes it with no end, where the user asked for it to expire"


def _sent_now_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A send the user asked to schedule, made with no time: `post_now(text=…)` for
    "schedule a post for Monday 9am" publishes it at once."""
    if "send" not in effect.kinds or effect.source not in ("name", "annotations"):
        return None
    if _SCHEDULED.search(said) is None or not (times_in(said) or _DAY_SAID.search(said)):
        return None
    if _carries_time(args):
        return None
    return "sends at once what the user asked to schedule"


def _carries_time(args: Mapping[str, Any], *, loosely: bool = False) -> bool:
    """Whether the call gives a time: a key that holds one, or a value written as a date or
    a clock time; `loosely`, also one written as people write it ("9pm") or a list of
    entries that may carry one."""
    for key, value in _leaves(args):
        if _bounds_time(key) or (loosely and isinstance(value, list)):
            return True
        if isinstance(value, str) and (
            _WHEN_VALUE.search(value[:200]) or (loosely and times_in(value[:200]))
        ):
            return True
    return False


#: A time the user put the act at: "after 9pm", "at noon", "from 7am" ("by 5pm" and "before
#: 5pm" are met by doing it now; "until 10pm" bounds what is done now, see `bound_issue`).
_AT_TIME = re.compile(
    r"\b(?:at|after|from|starting)\s+(?:about\s+|around\s+)?"
    r"(?:\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\d{1,2}:\d{2}\b|noon\b|midnight\b)",
    re.IGNORECASE,
)


#: Things that have a time of their own, before the time that picks them ("decline any
#: meeting after 5pm" picks meetings; it does not wait for 5pm).
_TIMED_THING = re.compile(
    r"\b(?:meetings?|events?|calls?|appointments?|class(?:es)?|sessions?|flights?|trains?"
    r"|bookings?|reservations?|slots?|shifts?|messages?|emails?|posts?|ones?|anything"
    r"|everything|occurrences?|invites?|invitations?)\s*$",
    re.IGNORECASE,
)


def _done_now_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A change the user put at a time, made with no time at all: `block_client(mac=…)`
    for "block the kids' tablet after 9pm" blocks it now and for good."""
    if effect.read_only or effect.source not in ("name", "annotations"):
        return None
    found = next(
        (m for m in _AT_TIME.finditer(said) if not _TIMED_THING.search(said[: m.start()])), None
    )
    if found is None or _carries_time(args, loosely=True):
        return None
    return f"does now what the user asked for {found.group(0)!r}"


#: A removal the user asked to be undoable: to the trash, the bin, the recycle bin.
_TO_TRASH = re.compile(
    r"\b(?:trash|bin|recycle\s+bin|wastebasket|rubbish|recoverabl[ey]|undoabl[ey])\b", re.I
)
#: A tool's words or an argument's name that make a removal final.
_FOR_GOOD = frozenset(
    ["permanent", "permanently", "forever", "hard", "purge", "expunge", "shred", "wipe"]
)
_FOR_GOOD_KEY = re.compile(
    r"^(?:permanent(?:ly)?|hard(?:_?delete)?|force|skip_?trash|bypass_?trash|purge)$", re.I
)


def _for_good_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A removal made final where the user asked for the trash: `delete_file_permanently`,
    `delete(…, permanent=True)` after "move last year's budget to the trash"."""
    if "delete" not in effect.kinds or _TO_TRASH.search(said) is None:
        return None
    if _FOR_GOOD & set(words(effect.tool)):
        return f"{effect.tool} removes for good what the user asked to move to the trash"
    for key, value in _leaves(args):
        if _FOR_GOOD_KEY.match(key) and value is True:
            return f"{key}=True removes for good what the user asked to move to the trash"
    return None


#: An end the user put off to the end of what is paid for: "cancel it at period end",
#: "at the end of the billing cycle", "when the term runs out".
_AT_TERM_END = re.compile(
    r"\bat\s+(?:the\s+)?(?:end\s+of\s+(?:the\s+|this\s+|my\s+|its\s+)?(?:current\s+)?"
    r"(?:billing\s+)?(?:period|cycle|term|month|year|contract|subscription)|(?:billing\s+)?"
    r"(?:period|cycle|term)['’]?s?\s+end|renewal)\b|\bwhen\s+(?:the\s+|it\s+|its\s+)?"
    r"(?:term|period|cycle|contract|subscription)?\s*(?:ends|runs\s+out|renews|expires)\b",
    re.IGNORECASE,
)
#: An argument that puts the end off: `at_period_end`, `cancel_at`, `effective_date`,
#: `end_of_term`, `when="period_end"`.
_TERM_END_KEY = re.compile(
    r"(?:period|cycle|term|billing)_?end|end_?of|renewal|effective|cancel_?at|^when$|^at$"
    r"|^(?:end|cancel)_?(?:date|time|on)$",
    re.IGNORECASE,
)
#: A value that says the same: `when="period_end"`, `"end_of_term"`.
_TERM_END_VALUE = re.compile(
    r"(?:period|cycle|term|billing)[_ -]?end|end[_ -]of[_ -](?:the[_ -])?(?:period|cycle|term)"
    r"|\brenewal\b",
    re.IGNORECASE,
)


def _at_term_end_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """An end made at once where the user put it off to the end of the term: `cancel_
    subscription(id=…)` with no `at_period_end` for "cancel it at period end"."""
    if not effect.kinds & {"delete", "modify"} or _AT_TERM_END.search(said) is None:
        return None
    for key, value in _leaves(args):
        if _TERM_END_KEY.search(key) and value not in (None, False, "", 0):
            return None
        if isinstance(value, str) and _TERM_END_VALUE.search(value):
            return None
    return "ends now what the user asked to end at the end of its term"


_STAGED = re.compile(r"\b(?:staged|in\s+the\s+index|already\s+added)\b", re.IGNORECASE)
#: `git commit -a`, `-am`, `--all`: every tracked change committed, staged or not.
_COMMIT_ALL = re.compile(
    r"\bgit\s+(?:-\S+\s+)*commit\b[^;&|\n]*?\s(?:-[a-zA-Z]*a[a-zA-Z]*|--all)\b"
)


def _unstaged_issue(effect: CallEffect, said: str) -> str | None:
    """A commit of every tracked change where the user asked for the staged ones: `git
    commit -am …` after "commit the staged changes" takes in what they left unstaged."""
    if effect.source != "shell" or _STAGED.search(said) is None:
        return None
    if any(_COMMIT_ALL.search(e.what) for e in effect.effects):
        return "commits every tracked change, where the user asked for the staged ones"
    return None


#: A thing the user set apart from what they asked for: "view-only for everyone except
#: ana", "delete the drafts other than the Q3 one".
_EXCEPT = re.compile(
    r"\b(?:except(?:\s+for)?|but\s+not|other\s+than|apart\s+from|excluding|save\s+for"
    r"|aside\s+from)\s+(?:the\s+|my\s+|for\s+)?([#@]?[\w@.'+-]{2,60}"
    # "except main and develop", "other than ana, bob or kim": each of a short list
    r"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+)(?:the\s+)?[#@]?[\w@.'+-]{2,60}){0,4})",
    re.IGNORECASE,
)
_NOT_A_THING = frozenset(
    ["one", "ones", "those", "these", "that", "this", "it", "them", "when", "if", "where",
     "what", "which", "who", "in", "on", "at", "to", "a", "an", "any", "some", "me", "us",
     "and", "or", "the", "my", "our", "anything", "everything", "else", "rest", "other",
     "others", "files", "file", "code", "config", "configuration", "settings", "stuff",
     "things", "thing", "all", "of", "before", "after", "until", "for", "from", "with", "by",
     "now", "yet", "today", "tomorrow", "tonight", "anyone", "they", "you", "him", "her",
     "mine"]
)  # fmt: skip


#: Things the user said to leave as they are: "leave main and develop alone", "without
#: touching the CI config", "don't touch the migrations".
_LEFT_ALONE = re.compile(
    r"\b(?:leave|keep)\s+(?:the\s+|my\s+|our\s+)?(?P<kept>[\w./#@-]+(?:(?:\s*,\s*|\s+and\s+"
    r"|\s+or\s+|\s*,\s*and\s+)(?:the\s+)?[\w./#@-]+){0,4})\s+"
    r"(?:alone|untouched|intact|as\s+(?:is|it\s+is|they\s+are))\b"
    r"|\b(?:without\s+touching|don'?t\s+touch|do\s+not\s+touch|never\s+touch)\s+"
    r"(?:the\s+|my\s+|our\s+|any\s+)?(?P<untouched>[\w./#@-]+(?:\s+[\w./#@-]+)?)",
    re.IGNORECASE,
)
#: How a command leaves out what it names: `not slow`, `:!.env`, `:(exclude)`, `--exclude=`,
#: `--ignore`, `--skip`, `--deselect`, `grep -v`, `zip -x`.
_LEFT_OUT_IN_CALL = re.compile(
    r"(?:\bnot\s+|!|\(exclude\)|--(?:exclude|ignore|skip|deselect|without)[\w-]*[=\s]*|"
    r"\s-[vx]\s+)[\"'./\w-]*$",
    re.IGNORECASE,
)


def _excepted_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A call on a thing the user excepted or said to leave alone: `update_permission(
    user="ana@…")` for "make the roadmap view-only for everyone except ana"; `git branch
    -D develop` for "delete the old branches but leave main and develop alone". A command
    that itself leaves the thing out (`pytest -m "not slow"` for "run the tests except the
    slow ones") does as asked."""
    if effect.read_only:
        return None
    touched = [*_values(args), *(o for e in effect.effects for o in e.objects)]
    things: list[str] = []
    for found in _EXCEPT.finditer(said):
        first, *more = re.split(
            r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+(?:the\s+)?", found.group(1).lower()
        )
        # "except main and delete the rest": a verb after "and" starts another ask
        things += [
            w.rstrip(".,;:!?'") for w in [first, *(m for m in more if m not in verb_words())]
        ]
    for left in _LEFT_ALONE.finditer(said):
        phrase = (left.group("kept") or left.group("untouched") or "").lower()
        things += [w.rstrip(".,;:!?'") for w in re.split(r"[\s,]+", phrase)]
    for thing in dict.fromkeys(things):
        if thing in _NOT_A_THING or len(thing) < 2 or thing.isdigit():
            continue
        # the thing whole, an address at it, or a file it names (`ci` of `…/ci.yml`)
        pattern = re.compile(
            rf"(?<![\w.#@-]){re.escape(thing)}(?:(?![\w-]|\.\w)|@|\.[a-z]{{1,5}}$)",
            re.IGNORECASE,
        )
        hits = [(t, m) for t in touched for m in pattern.finditer(t[:2000])]
        if not hits:
            continue
        if any(_LEFT_OUT_IN_CALL.search(t[max(0, m.start() - 24) : m.start()]) for t, m in hits):
            continue  # the call leaves it out too (`pytest -m "not slow"`)
        return f"acts on {thing}, which the user excepted or said to leave alone"
    return None


#: A part the user kept out of a removal or a change by a search: "delete the spam, but
#: keep anything from my bank", "archive everything except the ones from Substack".
_KEPT_OUT = re.compile(
    r"\b(?:but|and)\s+(?:keep|leave|spare|skip|save)\s+(?:any(?:thing|one)?|all|those|"
    r"(?:the\s+)?ones|everything)\s+(?:from|by|of|with|about|tagged|labell?ed|named|in)\s+"
    r"(?:my\s+|the\s+|our\s+)?([A-Za-z][\w@.-]{2,})"
    r"|\b(?:except|excluding|apart\s+from|other\s+than|but\s+not)\s+(?:for\s+)?"
    r"(?:any(?:thing|one)?\s+|those\s+|(?:the\s+)?ones\s+)?"
    r"(?:(?:from|by|of|with|about|tagged|labell?ed|named|in)\s+)?(?:my\s+|the\s+|our\s+)?"
    r"([A-Za-z][\w@.-]{2,})",
    re.IGNORECASE,
)
#: Arguments that pick what a call acts on by a search.
_SEARCH_KEY = re.compile(
    r"^(?:query|q|filter|filters|search|where|match|selector|criteria|condition)$", re.I
)


def _search_keeps_out_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A search that does not keep out what the user excepted: "delete the spam emails,
    but keep anything from my bank" is not `delete_emails(query="label:spam")` (a call
    that names the excepted thing is `_excepted_issue`'s)."""
    if effect.read_only:
        return None
    searches = " ".join(
        str(v)[:2000] for k, v in list(args.items())[:32] if _SEARCH_KEY.search(str(k))
    ).lower()
    if not searches:
        return None
    for found in _KEPT_OUT.finditer(said):
        kept = (found.group(1) or found.group(2)).lower()
        if kept in _NOT_A_THING:
            continue  # "except the ones I starred": what is kept, not a word to look for
        if kept[:4] not in searches:
            return f"acts on what the user kept out ({found.group(0).strip()[:60]}…)"
    return None


#: People the user set apart by their domain: "everyone outside corp.example", "anyone
#: not at acme.io".
_OUTSIDE = re.compile(
    r"\b(?:outside(?:\s+of)?|not\s+(?:in|at|from|on)|external\s+to|beyond)\s+(?:the\s+)?@?"
    r"((?:[a-z0-9-]+\.)+[a-z]{2,24})\b",
    re.IGNORECASE,
)


def _inside_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A call on someone inside the domain the user set apart: `remove_permission(user=
    "ana@corp.example")` for "remove everyone outside corp.example"."""
    if effect.read_only:
        return None
    domains = {d.lower() for d in _OUTSIDE.findall(said)}
    if not domains:
        return None
    for value in _values(args):
        for address in ADDRESS_TEXT.findall(value[:2000]):
            domain = address.rpartition("@")[2]
            if domain.lower() in domains:
                return f"acts on someone at {domain}, whom the user set apart"
    return None


def _bounds_time(key: str) -> bool:
    """Whether an argument's name says it holds a time (`start_date`, `olderThan`,
    `send_at`); `from` and `to` alone name a sender or a recipient as often as a date, so
    their values decide."""
    if key.lower() in _PARTY_KEYS:
        return False
    parts = {p for p in re.split(r"[\W_]+|(?<=[a-z])(?=[A-Z])", key[:80]) if p}
    return is_time_key(key) or bool({p.lower() for p in parts} & _PERIOD_WORDS)


def _leaves(args: Mapping[str, Any], depth: int = 0) -> Iterator[tuple[str, Any]]:
    """Every (key, value) of the arguments, nested ones included, up to a bound."""
    for key, value in list(args.items())[:_MAX_VALUES]:
        if isinstance(value, Mapping) and depth < 3:
            yield from _leaves(value, depth + 1)
        else:
            yield str(key), value


def _values(args: Mapping[str, Any]) -> list[str]:
    """The call's text values and the items of its lists, as text: what a call can name
    a person or a thing by (`user="ana@…"`, `ids=[41, 42]`)."""
    values = [v for _, v in _leaves(args) if isinstance(v, str)]
    values += [str(x) for _, v in _leaves(args) if isinstance(v, list) for x in v[:64]]
    return values


def _numbers(args: Mapping[str, Any]) -> list[float]:
    out: list[float] = []
    for _, value in _leaves(args):
        if isinstance(value, bool):
            continue
        if isinstance(value, int | float):
            out.append(float(value))
        elif isinstance(value, str) and re.fullmatch(r"\s*[$€£]?\d+(?:\.\d+)?\s*", value[:40]):
            out.append(float(value.strip().lstrip("$€£")))
    return out
