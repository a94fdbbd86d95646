"""Sums and counts against the ones the user stated: amounts, sums in words, bounds,
counts by their nouns, payment switches."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._dates import stay_nights
from clef_tools.gate._effects import CallEffect, table, words
from clef_tools.gate._extent._common import COUNT_WORDS, COUNTED_NOUNS, EVERY_SAID, PEOPLE_NOUNS
from clef_tools.gate._grounding import (
    MONEY,
    PRICE_BOUND,
    SUM_KEY,
    bound_value,
    numbers_in,
    records_of,
)
from clef_tools.gate._licence import plain_request

#: A percentage taken off a price ("10% off", "a 15 percent discount", "cut it by 20%").
PERCENT_OFF = re.compile(
    r"(?:%|\bper\s?cent)\s+(?:[a-z-]+\s+)?(?:off|discount|cheaper|lower|less|reduction)\b"
    r"|\b(?:discount|reduce|lower|cut|mark\s+down|markdown)\b[^.;!?]{0,40}?\b(?:by|of)\s+"
    r"\d+(?:\.\d+)?\s?(?:%|per\s?cent)",
    re.IGNORECASE,
)


def amount_issue(
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
    # "put the blue mug on sale at 9.99": a change, in an idiom's words
    changes = set(words(plain_request(said[:20_000]))) & modify or PERCENT_OFF.search(said[:20_000])
    if effect.source in ("name", "annotations") and "modify" in effect.kinds and not changes:
        return f"changes {sums[0][0]} of a record the user did not ask to change"
    if not results or numbers_in([said]):
        return None  # a sum the user gave may be worked from ("split $120 three ways")
    seen = [n for r in results[-16:] for n in numbers_in([r])]
    # "split the dinner three ways and request their shares": a part of a sum in view
    parts = range(1, 13) if _DIVIDED.search(said[:20_000]) else range(1, 2)
    for key, value in sums:
        if not any(abs(value * k - n) <= 0.01 * max(1.0, abs(n)) for n in seen for k in parts):
            return f"{key}={value:g}, found nowhere in view"
    return None


#: A sum the user asked to be divided ("split it three ways", "half each", "their share").
_DIVIDED = re.compile(r"\b(?:split|divide|halves|half|ways|shares?|each)\b", re.IGNORECASE)


#: What a call pays or moves, when it is given in words (`amount="statement_balance"`,
#: `quantity="all"`); a record's own price or rate is not what the call pays.
_PAID_KEY = re.compile(r"^(?:amount|total|sum|balance|quantity|qty)$|_(?:amount|total)$", re.I)


#: Sums in words, by what they pay: the whole balance, or the least that is due.
_WHOLE_SUM = frozenset(
    ["full", "statement", "total", "entire", "whole", "all", "everything", "outstanding",
     "current", "max", "maximum", "remaining", "balance"]
)  # fmt: skip


_LEAST_SUM = frozenset(["minimum", "min", "least", "minimal"])


def worded_sum_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
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
            if (told & _WHOLE_SUM and not told & _LEAST_SUM) or _whole_refund(told, said, args):
                continue
        elif parts and parts <= told:
            continue
        return f"{key}={value[:40]!r}, a sum the user's words do not give"
    return None


#: Words that ask for a part of a sum back, not all of it.
_PART_SAID = frozenset(["half", "part", "partial", "partly", "portion", "some", "percent"])


def _whole_refund(told: set[str], said: str, args: Mapping[str, Any]) -> bool:
    """A refund asked for with no sum ("refund order 4411") asks for the whole one back:
    every number the user wrote names what is refunded (an id among the call's other arguments)."""
    if not told & {"refund", "reimburse"} or told & (_LEAST_SUM | _PART_SAID) or "%" in said:
        return False
    named = {n for v in list(args.values())[:32] if isinstance(v, str) for n in numbers_in([v])}
    return all(n in named for n in numbers_in([said]))


#: A price a record states: with its currency, or under a price's key (`"price": 42.0`).
_PRICE = re.compile(
    MONEY + r"|[\"']?(?:price|cost|rate|fare|total|amount)[\"']?\s*[:=]\s*[\"']?\$?(\d+(?:\.\d+)?)",
    re.IGNORECASE,
)


#: What picks a record in a call's arguments: `sku-5120`, `#add-to-cart-sku-5120`, `4411`.
_PICK = re.compile(r"[a-z]+[-_]\d+|(?<![\w.])\d{3,}(?!\w|\.\d)", re.IGNORECASE)


def over_bound_issue(
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


def payment_switch_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
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


#: A count as a user writes it before its noun: digits, or a word of `COUNT_WORDS`.
_COUNT_WORD = r"\d{1,3}|" + "|".join(COUNT_WORDS)


_SAID_COUNT = re.compile(
    rf"\b({_COUNT_WORD})\s+"
    r"(adults?|guests?|persons?|people|passengers?|travell?ers?|attendees?|child(?:ren)?|kids?"
    r"|rooms?|nights?|tickets?|seats?|cop(?:y|ies)|beds?)\b",
    re.IGNORECASE,
)


def singular_of(word: str) -> str:
    low = word.lower()
    if low in ("people", "children", "copies"):
        return {"people": "person", "children": "child", "copies": "copy"}[low]
    return low[:-1] if low.endswith("s") else low


def stated_counts(said: str) -> dict[str, int]:
    """The counts the user gave by their noun ("2 adults, 3 nights"), keyed by the noun."""
    stated: dict[str, int] = {}
    for count, noun in _SAID_COUNT.findall(said[:20_000])[:16]:
        stated[singular_of(noun)] = _count_of(count)
    return stated


def _count_of(word: str) -> int:
    """The number a count written as `_COUNT_WORD` stands for ("4", "four", "a")."""
    low = word.lower()
    return int(low) if low.isdigit() else COUNT_WORDS[low]


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
        noun = singular_of(str(key).lower().rsplit("_", 1)[-1])
        if noun in stated or noun not in COUNTED_NOUNS - PEOPLE_NOUNS:
            continue
        if value == (stay_nights(args, said) if noun == "night" else 1):
            out.append(float(value))
    return out


def keyed_count_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A count set under a key whose noun the user counted in other words than a
    booking's: `bags=3` after "add one checked bag", `licenses=50` after "buy 5 seat
    licenses"."""
    for key, value in list(args.items())[:32]:
        if isinstance(value, bool) or not isinstance(value, int):
            continue
        noun = singular_of(str(key).lower().rsplit("_", 1)[-1])
        if noun in COUNTED_NOUNS or len(noun) < 3 or not noun.isalpha():
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


def listed_everything_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A change given every container or pod a listing prints (`docker restart $(docker ps
    -q)` after "restart the worker container"), where the user named one."""
    if effect.source != "shell" or effect.read_only or EVERY_SAID.search(said):
        return None
    command = next((v for v in args.values() if isinstance(v, str)), "")[:10_000]
    if _EVERY_LISTED.search(command):
        return "acts on every container or pod a listing prints, where the user named one"
    return None
