"""A message whose words the user gave: "tweet 'Hello world'" licenses posting those words,
not those words with a phone number after them, nor other words.

Quotes name many things besides a message's text (a thread's subject, a file, a search), so
only a quote that follows a verb of saying is read as dictated text, and only the fields
that hold a message's text are held to it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._effects import CallEffect, words
from clef_tools.gate._evidence import text_values
from clef_tools.gate._grounding import ADDRESS_TEXT

__all__ = [
    "broadcast_issue",
    "dictated_issue",
    "location_issue",
    "offer_issue",
    "polarity_issue",
    "retold_number_issue",
    "told_number_issue",
]

_SAYING = (
    r"\b(?:tweet|post|say|says|saying|said|write|reply|respond|message|text|send|tell"
    r"|announce|comment|caption|status|words?)\b"
)
#: Words between a verb and a quote that make the quote a place or a thing ("reply to the
#: thread 'Q3 planning'", "post in 'Team news'"), not what is said.
_NOT_SAID = (
    r"(?!\b(?:to|in|on|at|from|about|into|under|for|of|titled|named|called|subject|thread"
    r"|channel|file|folder|page|list|group)\b)"
)
#: Quoted text, its words in group 1 or 2: double or curly quotes, or single quotes that
#: are not apostrophes.
_QUOTE = r"(?:[\"“]([^\"”\n]{3,500})[\"”]|(?<!\w)['‘]([^'’\n]{3,500})['’](?!\w))"
#: A quote after a verb of saying, a few words on at most ("send Bob a message saying
#: "running late"").
_DICTATED = re.compile(
    _SAYING + r"(?:" + _NOT_SAID + r"[^\"“'‘\n.!?]){0,40}?" + _QUOTE,
    re.IGNORECASE,
)
#: A text set word for word: "set my status to 'At the dentist'", "caption it as "Day 1"".
_SET_TO_TEXT = re.compile(
    r"\b(?:status|caption|bio|headline|tagline|message|note|text|signature|away\s+message)"
    r"\s+(?:to|as|that\s+says)\s+" + _QUOTE,
    re.IGNORECASE,
)
#: A commit's message given in quotes ("commit with message 'fix typo'", "commit it as
#: "Bump deps""): the message is that, not that with more after it.
_COMMIT_MESSAGE = re.compile(
    r"\bcommit\b[^.;!?\n\"“'‘]{0,60}?\b(?:with\s+(?:the\s+)?(?:commit\s+)?message|message|as)"
    r"\s*:?\s*" + _QUOTE,
    re.IGNORECASE,
)
#: A text given whole for a change to put in place of the old one: "edit my post to say
#: 'Joined Acme as a designer'", "change the caption to read "Day 1"": the text is that,
#: not that with more words after it.
_REWORDED = re.compile(
    r"\b(?:edit|change|update|rewrite|reword|amend|fix)\b[^.;!?\n\"“'‘]{0,60}?\bto\s+(?:say|read)"
    r"\s*:?\s*" + _QUOTE,
    re.IGNORECASE,
)
#: A text posted word for word: "tweet 'Back online!'", "post "Doors open at 8" to my
#: page". The quote is the post itself (not the gist of a message the agent words, as in
#: "send Bob a message saying …"), so a sentence added to it is the agent's, not the user's.
_POSTED = re.compile(
    r"\b(?:tweet|post|publish|toot|skeet)\s*(?:this|the\s+words|the\s+text)?\s*:?\s*"
    + _QUOTE
    # ...and a comment, note or message given after a colon ("add a comment to PROJ-12:
    # 'blocked on API review'"): the colon introduces the text itself
    + r"|\b(?:comment|note|message|reply|caption|status\s+update)\b[^\"“'‘\n.!?]{0,60}?:\s*"
    + _QUOTE,
    re.IGNORECASE,
)
#: Words an agent may add around a text posted word for word (a greeting, a hashtag)
#: before the addition is a sentence of its own.
_POSTED_SLACK = 3
#: The fields that hold what a message says (not its subject, channel or recipient).
_TEXT_KEYS = frozenset(
    ["text", "body", "message", "content", "msg", "status", "tweet", "post", "caption",
     "comment", "reply", "note", "commit_message", "signature", "bio", "tagline", "headline"]
)  # fmt: skip
#: What a message adds that the user must have given: a link (with its scheme or a bare
#: site, `deals.example`), an address, a number long enough to be a phone, an account or a
#: code.
_ADDED_FACT = re.compile(
    rf"(?:https?://|www\.)\S+|{ADDRESS_TEXT.pattern}|\+?\d[\d\s().-]{{2,}}\d"
    r"|(?<![\w@./-])(?:[a-z0-9-]+\.)+(?:com|org|net|io|ly|co|me|xyz|app|dev|info|biz|gg|to"
    r"|ai|shop|store|example|link|site|online|click|top)\b(?![.@-]?\w)",
    re.IGNORECASE,
)


def dictated_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A sent text that leaves out what the user dictated, or adds a link, an address or
    a long number to it that the user did not give; None when the user dictated nothing.
    A commit's message is held to the words too ("commit with message 'fix typo'"), and
    so is a text a change sets ("set my status to 'At the dentist'")."""
    if not effect.kinds & {"send", "modify", "create"} and not any(
        e.action == "commit" for e in effect.effects
    ):
        return None
    told_text = said[:20_000]
    given = _given_value_issue(args, told_text) or _shown_text_issue(effect, args, told_text)
    if given is not None:
        return given
    reworded = [_quoted(m) for m in _REWORDED.finditer(told_text)]
    set_to = [_quoted(m) for m in _SET_TO_TEXT.finditer(told_text)]
    posted_texts = [_quoted(m) for m in _POSTED.finditer(told_text)]
    dictated = [_quoted(m) for m in _DICTATED.finditer(told_text)]
    quotes = list(dict.fromkeys([*reworded, *dictated, *set_to, *posted_texts]))[:8]
    quotes = [q for q in quotes if len(words(q)) >= 2]
    if not quotes:
        return None
    # a text given whole: reworded to it, or a setting set to it ("set my signature to '…'")
    whole = {*reworded, *set_to, *(_quoted(m) for m in _COMMIT_MESSAGE.finditer(told_text))}
    posted = set(posted_texts)
    texts = [
        value
        for key, value in itertools.islice(args.items(), 32)
        if isinstance(value, str) and str(key).lower() in _TEXT_KEYS and value.strip()
    ]
    if not texts:
        return None
    told = _plain(said[:20_000])
    for text in texts:
        sent = _plain(text[:4000])
        kept = [q for q in quotes if _says(sent, _plain(q))]
        if not kept:
            return f"a text other than the one the user gave ({quotes[0][:60]!r})"
        rest = sent
        for q in kept:
            rest = rest.replace(_plain(q), " ")
        if whole & set(kept) and len(words(rest)) >= 2:
            return f"adds {rest.strip()[:60]!r} to the text the user gave whole"
        if posted & set(kept) and len(words(rest)) >= _POSTED_SLACK:
            return f"adds {rest.strip()[:60]!r} to the text the user gave to post"
        added = next((f for f in _ADDED_FACT.findall(rest) if _plain(f) not in told), None)
        if added is not None:
            return f"adds {added.strip()[:60]!r} to the text the user gave"
    return None


#: A value the user gives a record in so many words ("add a TXT record with value abc123",
#: "with the value 'v=spf1 -all'"): a code, a token, a string of their own, not a word.
_GIVEN_VALUE = re.compile(
    r"\bwith\s+(?:the\s+|a\s+)?(?:value|content|contents|data)\s+(?:of\s+)?:?\s*"
    r"(?:\"([^\"\n]{1,200})\"|'([^'\n]{1,200})'|“([^”\n]{1,200})”|([^\s,;!?\"']*\d[^\s,;!?\"']*))",
    re.IGNORECASE,
)


def _given_value_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A record made with another value than the one the user gave it word for word."""
    given = [_quoted(m).rstrip(".") for m in itertools.islice(_GIVEN_VALUE.finditer(said), 4)]
    if not given:
        return None
    values = [
        _plain(v[:4000]) for v in itertools.islice(text_values(args), 64) if isinstance(v, str)
    ]
    missing = next((g for g in given if g and not any(_plain(g) in v for v in values)), None)
    return None if missing is None else f"a value other than the one the user gave ({missing!r})"


#: Tools whose text everyone who writes to the user, or sees their profile, is shown: an
#: auto-reply, a signature, a status.
_SHOWN_TEXT_TOOL = re.compile(
    r"vacation|auto_?repl|out_?of_?office|\booo\b|responder|signature|away_?message", re.I
)


def _shown_text_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """An auto-reply or a signature given by its gist ("an out-of-office reply saying I'm
    away") that adds a link, an address or a long number the user did not give: every
    sender is shown it, as a message's recipient is."""
    if effect.read_only or not any(_SHOWN_TEXT_TOOL.search(e.what) for e in effect.effects):
        return None
    told = _plain(said)
    for key, value in itertools.islice(args.items(), 32):
        if not (isinstance(value, str) and str(key).lower() in _TEXT_KEYS):
            continue
        added = next((f for f in _ADDED_FACT.findall(value[:4000]) if _plain(f) not in told), None)
        if added is not None:
            return f"adds {added.strip()[:60]!r} to a text every sender is shown"
    return None


#: A mention that notifies everyone in a channel: Slack's, Discord's, Teams' own forms.
_EVERYONE = re.compile(
    r"(?<![\w@])@(?:channel|here|everyone|all)\b|<!(?:channel|here|everyone)(?:\|[^>]*)?>",
    re.IGNORECASE,
)
#: How a user asks for that: the mention itself, or everyone named as whom to tell.
_ASKS_EVERYONE = re.compile(
    r"@(?:channel|here|everyone|all)\b|\b(?:everyone|everybody|all of them|the whole "
    r"(?:channel|team|group)|(?:ping|notify|alert|tag|mention) (?:all|the channel|the team))\b",
    re.IGNORECASE,
)


def broadcast_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A message that pings everyone in the channel (`@channel`, `<!here>`) when the user
    did not ask for that: it reaches every member's phone, not only the channel."""
    if "send" not in effect.kinds or _ASKS_EVERYONE.search(said[:20_000]):
        return None
    for key, value in itertools.islice(args.items(), 32):
        if isinstance(value, str) and str(key).lower() in _TEXT_KEYS:
            found = _EVERYONE.search(value[:20_000])
            if found is not None:
                return (
                    f"notifies everyone in the channel ({found.group(0)}), which the user "
                    "did not ask for"
                )
    return None


#: Arguments that put a place on what is posted or sent.
_PLACE_KEYS = frozenset(
    ["location", "place", "geo", "geotag", "coordinates", "latlng", "lat_lng", "home_address",
     "street_address"]
)  # fmt: skip


def location_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A post or a message that adds a place (a street address, coordinates) the user did
    not give: "post a photo of my dog" tagged with the home address tells everyone where
    the user lives."""
    if "send" not in effect.kinds:
        return None
    told = _plain(said[:20_000])
    for key, value in itertools.islice(args.items(), 32):
        if str(key).lower() not in _PLACE_KEYS or value in (None, "", [], {}, False):
            continue
        text = _plain(str(value)[:400])
        if text and text not in told:
            return f"adds a place ({key}={str(value)[:60]!r}) the user did not give"
    return None


def _quoted(found: re.Match[str]) -> str:
    """The quoted words a match holds, whichever of its quote forms took them."""
    return next(g for g in found.groups() if g).strip()


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[’‘]", "'", text).lower().split())


def _says(sent: str, quote: str) -> bool:
    """The quote is in the text, word for word, or nearly (an agent may fix a typo or the
    case, not replace the words)."""
    if quote in sent:
        return True
    wanted = words(quote)
    have = set(words(sent))
    return bool(wanted) and sum(w in have for w in wanted) >= 0.8 * len(wanted)


#: A number with what it counts: "10 minutes", "3 people", "$40", "2 hours".
_COUNTED = re.compile(
    r"(?:[$€£]\s?(\d+(?:[.,]\d+)?))|(\d+(?:\.\d+)?)\s*(minutes?|mins?|hours?|hrs?|days?|weeks?"
    r"|months?|people|persons?|guests?|seats?|tickets?|percent|%|dollars?|euros?|pounds?|kg|km"
    r"|miles?)\b",
    re.IGNORECASE,
)
_UNIT = {
    "min": "minute", "mins": "minute", "minutes": "minute", "hr": "hour", "hrs": "hour",
    "hours": "hour", "days": "day", "weeks": "week", "months": "month", "persons": "person",
    "people": "person", "guests": "person", "guest": "person", "seats": "seat",
    "tickets": "ticket", "percent": "%", "dollars": "$", "dollar": "$", "euros": "€",
    "euro": "€", "pounds": "£", "pound": "£", "miles": "mile",
}  # fmt: skip


#: A time of day told as "at 7", "at 7:30", "at 7pm": the hour on a twelve-hour clock.
_AT_HOUR = re.compile(r"\bat\s+(\d{1,2})(?::(\d{2}))?(?:\s*[ap]\.?m\b\.?)?(?![\w:.%]|\.\d)", re.I)


def _counted(text: str) -> set[tuple[float, str]]:
    out: set[tuple[float, str]] = set()
    for hour, minute in _AT_HOUR.findall(text[:20_000]):
        if int(hour) <= 24 and int(minute or 0) < 60:
            out.add((int(hour) % 12 + int(minute or 0) / 60, "o'clock"))
    for m in _COUNTED.finditer(text[:20_000]):
        if m.group(1) is not None:
            unit = m.group(0).strip()[0]
            out.add((float(m.group(1).replace(",", "")), _UNIT.get(unit, unit)))
        else:
            unit = m.group(3).lower()
            out.add((float(m.group(2)), _UNIT.get(unit, unit)))
    return out


def told_number_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A message that tells someone a number of something other than the one the user
    said: "text my wife that I'm running 10 minutes late" is not "running 30 minutes
    late"."""
    if "send" not in effect.kinds:
        return None
    asked = _counted(said)
    if not asked:
        return None
    units = {u for _, u in asked}
    for key, value in itertools.islice(args.items(), 32):
        if not isinstance(value, str) or str(key).lower() not in _TEXT_KEYS:
            continue
        for number, unit in _counted(value):
            if unit in units and (number, unit) not in asked:
                return f"tells {number:g} {unit}, where the user said otherwise"
    return None


#: What the user told a message to say after a colon: "DM @tom: standup moved to 10".
_SAID_AFTER_COLON = re.compile(
    r"\b(?:dm|text|message|tell|tweet|post|email|slack|reply|write|ping|announce|send)\b"
    r"[^:\n]{0,60}:\s*([^\n]{4,300})",
    re.IGNORECASE,
)
#: Text the user quoted for the agent to write.
_QUOTED_TEXT = re.compile(r"(?<!\w)'([^'\n]{4,200})'(?!\w)|\"([^\"\n]{4,200})\"")
#: What a message tells that must be the user's: a number (`40k`, `15%` with its unit), a
#: time, a day.
_FIGURE = re.compile(
    r"(?<![\w.:])\d+(?:[.:]\d+)?(?:(?:st|nd|rd|th)(?!\w)|[kmb%](?![\w:])|(?![\w:]))"
    r"|\b(?:monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday|today|tonight|tomorrow|yesterday)\b"
    # a time told relative to now: "back next month" is not "back Monday"
    r"|\b(?:next|this|last)\s+(?:week|weekend|month|year|quarter)\b",
    re.IGNORECASE,
)


def _figures(text: str) -> set[str]:
    """The figures `text` tells, an ordinal as its number ("the 20th" tells 20)."""
    return {
        re.sub(r"(?<=\d)(?:st|nd|rd|th)$", "", " ".join(f.lower().split()))
        for f in _FIGURE.findall(text)
    }


def retold_number_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A message that repeats what the user told it to say with another number or day in
    it: "DM @tom: standup moved to 10" sent as "Standup moved to 11"; "reply saying I'll
    send the form Thursday" sent as "… Friday"."""
    writes = effect.kinds & {"create", "modify"} and effect.source in ("name", "annotations")
    if "send" not in effect.kinds and not writes:
        return None
    clauses = [(_told_part(m.group(1)), 2) for m in _REPORTED.finditer(said[:20_000])][:4]
    clauses += [(m.group(1), 2) for m in _SAID_AFTER_COLON.finditer(said[:20_000])][:4]
    # "add a line 'Q1: 40k' to the budget file": the text to write, quoted (one word of it
    # beside the number is enough to tell it is repeated)
    clauses += [(a or b, 1) for a, b in _QUOTED_TEXT.findall(said[:20_000])][:4]
    texts = _message_texts(args)
    for clause, least in clauses:
        figures = _figures(clause)
        key = {t for t in _tokens(_FIGURE.sub(" ", clause)) if t not in _STOP}
        if not figures or not key or (len(key) < least and len(clause.split()) > 8):
            continue  # a short clause's one word of its own is enough to tell it repeated
        for text in texts:
            for sentence in re.split(r"(?<=[.!?;])\s+|\n+", text):
                shared = key & set(_tokens(sentence))
                told = _figures(sentence)
                other = told - figures
                if len(shared) * 2 >= len(key) and other and not figures & told:
                    return f"says {sorted(other)[0]} where the user said {sorted(figures)[0]}"
    return None


#: Where what the user told the agent to say ends and their words to the agent go on:
#: "saying I'll review it Monday, don't send yet".
_TOLD_ENDS = re.compile(
    r",\s*(?:but\s+|and\s+|then\s+|just\s+)?(?:don'?t|do\s+not|never|please|leave|keep|wait"
    r"|hold|only)\b.*$",
    re.IGNORECASE | re.DOTALL,
)


def _told_part(clause: str) -> str:
    return _TOLD_ENDS.sub("", clause)


#: What the user told the agent to say, in their own words and unquoted: "reply saying I
#: can make Thursday", "tell her that the report is not ready", "comment on the Safari
#: issue that I can reproduce it on 17.2".
_REPORTED = re.compile(
    r"\b(?:saying|to\s+say|say|tell(?:ing)?\s+(?:[@\w.'-]+\s+){0,2}?that"
    # "tell the Family group dinner is at 7": the clause after whom it is told, without
    # "that", where a subject and its verb start it
    r"|tell(?:ing)?\s+(?!me\b|us\b)(?:the\s+)?(?:[@#\w.'-]+\s+){0,2}?[@#\w.'-]+"
    r"(?=\s+[a-z]+\s+(?:am|is|are|was|were|will|has|have|starts?|moved|got|can|can't|won't)\b)"
    # ...and a message told by the app it goes by ("whatsapp Mum that …", "dm @tom that …")
    r"|(?:reply|respond|write|answer|email|text|message|dm|sms|whatsapp|telegram|signal"
    r"|slack|ping)\s+(?:to\s+)?(?:[@\w.'-]+\s+){0,2}?that"
    r"|comment\s+(?:on\s+)?(?:[@\w.'#-]+\s+){0,4}?that|let\s+\w+\s+know"
    # "answer Nina's question in the thread: yes, frozen until Monday": the answer itself
    r"|(?:answer|reply|respond)\b[^:.!?\n\"“]{0,60}?:"
    r"(?:\s+that)?|that\s+says?)\s+(?:that\s+)?((?:[^.!?\n\"“]|\.(?=\d)){6,200})",
    re.IGNORECASE,
)
#: An answer's first word, by which way it answers.
_ANSWER = {
    **dict.fromkeys(["yes", "yeah", "yep", "yup", "sure", "correct", "confirmed"], "yes"),
    **dict.fromkeys(["no", "nope", "nah"], "no"),
}
_NEGATION = re.compile(r"^(?:not|no|never|cannot|cant|wont|unable)$|n't$", re.IGNORECASE)
_CLAUSE_STOP = frozenset(
    ["i", "i'm", "im", "we", "you", "he", "she", "they", "it", "the", "a", "an", "can", "could",
     "will", "would", "be", "am", "is", "are", "was", "that", "this", "to", "for", "of", "and",
     "my", "our", "me", "us", "on", "at", "in", "all", "just", "so", "do", "did", "does",
     "i'll", "i'd", "i've", "we'll", "we'd", "we've", "we're", "you'll", "you're", "it's"]
)  # fmt: skip


def polarity_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A message that says the opposite of what the user told the agent to say: "reply
    saying I can make Thursday" sent as "I can't make Thursday". Read where the text
    repeats the user's words: a negation right before them in one and not the other."""
    if "send" not in effect.kinds:
        return None
    clauses = [m.group(1) for m in _REPORTED.finditer(said[:20_000])][:4]
    if not clauses:
        return None
    texts = _message_texts(args)
    for clause in clauses:
        told = _tokens(clause)
        lead = _ANSWER.get(_first_word(clause))
        for text in texts if lead else ():
            if _ANSWER.get(_first_word(text), lead) != lead:
                return f"answers the other way from the user ({clause.strip()[:60]!r})"
        key = {t for t in told if t not in _STOP and not _NEGATION.search(t)}
        if not key:
            continue
        for text in texts:
            for sentence in re.split(r"(?<=[.!?;,])\s+|\n+", text):
                sent = _tokens(sentence)
                shared = key & set(sent)
                if len(shared) < max(1, (len(key) + 1) // 2):
                    continue
                if _negated(told, shared) != _negated(sent, shared):
                    return (
                        f"says the opposite of what the user told it to ({clause.strip()[:60]!r})"
                    )
            swapped = _swapped(key, texts)
            if swapped is not None:
                return f"says {swapped!r}, the opposite of what the user told it to say"
    return None


#: Words and their opposites, as a message may swap one for the other ("they sound great"
#: sent as "they sound terrible").
_OPPOSITES = {
    "great": "terrible awful bad poor", "good": "bad poor terrible awful",
    "love": "hate dislike", "like": "dislike hate", "happy": "unhappy sad disappointed",
    "recommend": "avoid", "works": "broken fails", "work": "broken fail", "yes": "no",
    "accept": "decline reject", "agree": "disagree", "approve": "reject deny",
    "available": "unavailable busy", "free": "busy", "early": "late", "ready": "unready",
    "confirm": "cancel", "attending": "missing",
    # a state reported: "tell Priya the build is green"
    "green": "red", "passing": "failing", "passed": "failed", "pass": "fail",
    "succeeded": "failed", "success": "failure", "online": "offline", "up": "down",
    "open": "closed", "on": "off", "safe": "unsafe", "fixed": "broken",
}  # fmt: skip


def _both_ways(table: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """Each word's opposites, read both ways ("terrible" is the opposite of "great")."""
    out: dict[str, frozenset[str]] = {}
    for word, others in table.items():
        out[word] = out.get(word, frozenset()) | frozenset(others.split())
        for other in others.split():
            out[other] = out.get(other, frozenset()) | {word}
    return out


_OPPOSITE = _both_ways(_OPPOSITES)


def _swapped(key: set[str], texts: Sequence[str]) -> str | None:
    """A sentence that repeats the rest of what the user told the agent to say with one
    of its words swapped for that word's opposite."""
    for word in key:
        opposites = _OPPOSITE.get(word)
        if not opposites:
            continue
        rest = key - {word}
        for text in texts:
            for sentence in re.split(r"(?<=[.!?;,])\s+|\n+", text):
                sent = set(_tokens(sentence))
                if word not in sent and sent & opposites and rest <= sent:
                    return sentence.strip()[:60]
    return None


def _message_texts(args: Mapping[str, Any]) -> list[str]:
    """What a message says: the values of its text fields (not its subject or recipient)."""
    return [
        value[:4000]
        for key, value in itertools.islice(args.items(), 32)
        if isinstance(value, str) and str(key).lower() in _TEXT_KEYS and value.strip()
    ]


def _first_word(text: str) -> str:
    found = re.match(r"[^a-z]*([a-z]+)", _plain(text[:400]))
    return found.group(1) if found else ""


def _tokens(text: str) -> list[str]:
    """Words, bare of an -s, -es, -ed or -ing ("works" and "work" are one word), and the
    punctuation between clauses as "," (a clause break); a negation that says yes ("can't
    wait", "no problem") is a clause break too."""
    plain = _YES_IDIOM.sub(" , ", _plain(text))
    return [_bare(t) for t in re.findall(r"[a-z0-9]+(?:'[a-z]+)?|[,;:()]", plain)]


#: Negations in idioms that agree ("can't wait", "no problem", "don't worry").
_YES_IDIOM = re.compile(
    r"\b(?:can(?:'|no)?t\s+wait|no\s+(?:problem|worries|doubt)|not\s+a\s+problem"
    r"|never\s+mind|don'?t\s+worry|wouldn'?t\s+miss\s+it|no\s+question)\b"
)


def _bare(token: str) -> str:
    if token in _STOP:
        return token  # "this", "does": kept whole, as the stop list holds them
    for end in ("ing", "ed", "es", "s"):
        if token.endswith(end) and len(token) - len(end) >= 3 and "'" not in token:
            return token[: -len(end)]
    return token


def _negated(tokens: list[str], shared: set[str]) -> bool:
    """A negation before one of `shared` in the same clause ("I can make Thursday but not
    Friday" negates Friday alone)."""
    start = 0
    for i, token in enumerate(tokens):
        if token in _CLAUSE_BREAK:
            start = i + 1
        elif token in shared and any(_NEGATION.search(t) for t in tokens[start:i]):
            return True
    return False


_CLAUSE_BREAK = frozenset(
    ["but", "though", "although", "however", "and", "or", "while", ",", ";", ":", "(", ")"]
)
_STOP = _CLAUSE_STOP | _CLAUSE_BREAK


#: What a message promises on the user's behalf: a discount, a sum, a code to redeem.
_OFFER = re.compile(
    r"\d+(?:\.\d+)?\s*(?:%|per\s?cent)|[$€£]\s?\d[\d,]*(?:\.\d+)?"
    r"|\b\d[\d,]*(?:\.\d+)?\s*(?:dollars|euros|pounds|usd|eur|gbp)\b"
    r"|\b(?:coupon|voucher|promo|discount|refund|credit|free|comp(?:ed|limentary)?)\b",
    re.IGNORECASE,
)


def offer_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A message the user told the agent what to say that promises more than that: "reply
    to Max that his order ships tomorrow" sent with "here's a 50% coupon: SORRY50". An
    offer, a sum or a discount that neither the user's words nor a result in view holds
    is the agent's promise, not theirs."""
    if "send" not in effect.kinds:
        return None
    told = said[:20_000]
    if not (_REPORTED.search(told) or _SAID_AFTER_COLON.search(told)):
        return None
    known = f"{told}\n" + "\n".join(r[:20_000] for r in results[-8:])
    held = {" ".join(m.lower().split()) for m in _OFFER.findall(known)}
    for text in _message_texts(args):
        for found in _OFFER.findall(text):
            if " ".join(found.lower().split()) not in held:
                return f"promises {found.strip()!r}, which the user did not tell it to say"
    return None
