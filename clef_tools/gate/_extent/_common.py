"""Words and argument keys several of the extent checks read."""

from __future__ import annotations

import re

#: Words by which a user asks for the whole series or every record.
WHOLE = re.compile(
    r"\b(?:all|every|each|both|series|recurring|whole|entire|future|following|them|they"
    r"|these|those|duplicates|any|everyone|everybody|attendees|participants|invitees"
    r"|members)\b",
    re.IGNORECASE,
)


MAX_SAID = 20_000


#: Arguments that hold the people a thing is shared with or sent to.
PEOPLE_KEY = re.compile(
    r"(?:^|_)(?:attendees|participants|members|guests|invitees|recipients|collaborators"
    r"|assignees|reviewers|watchers|subscribers|to|cc|people|users)$",
    re.IGNORECASE,
)


#: A record's text, which an update that sets it to nothing erases.
TEXT_KEY = re.compile(r"^(?:body|description|content|text|notes?|details|summary)$", re.I)


#: A request to set one value: "set DEBUG=false", "bump the node version in CI to 20".
#: The verbs of a request to set a value, and what may stand between one and the value.
SETS = (
    r"\b(?:set|bump|change|update|upgrade|downgrade|switch|raise|lower|increase|decrease|pin"
    r"|scale|resize)"
    r"\b(?:[^.;!?\n]|\.(?=\w)){0,60}?"  # a file's dot is no sentence's end
)


#: The value a request sets a thing to: "to 20", "to v1.3.0".
#: A length or a size is held in any unit it may be written in (`_edited`), not here.
SET_TO_VALUE = re.compile(
    SETS + r"\bto\s+v?(\d+(?:\.\d+)*)\b(?!\d|\.\d)"
    r"(?!\s*(?:ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?"
    r"|kb|mb|gb|tb)\b)",
    re.IGNORECASE,
)


#: Numbers and versions as written (`2.5.0`, `30`, `1.5`).
NUMBER_TOKEN = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)*)(?!\w|\.\d)")


EVERY_SAID = re.compile(r"\b(?:all|every|each|everything|everywhere|whole)\b", re.IGNORECASE)


#: Who a booking is for, as one count: "2 adults", "four guests", "3 people".
PEOPLE_NOUNS = frozenset(
    ["adult", "guest", "person", "people", "passenger", "traveler", "traveller", "attendee"]
)


#: Counts a booking or an order states by their noun.
COUNTED_NOUNS = PEOPLE_NOUNS | frozenset(
    ["child", "children", "kid", "room", "night", "ticket", "seat", "copy", "copies", "bed"]
)


#: Counts as a user writes them in words ("one more guest", "extend it by a night").
COUNT_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
               "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}  # fmt: skip
