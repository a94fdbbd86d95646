"""A quantity in the call against the ones the user stated.

Amounts, counts and settings are compared as the user would read them: a sum worked out
from the stated ones (a share, a percent, a difference) is still theirs, and a number said
with its noun ("8000 steps") belongs under the key that names that noun.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._effects import CallEffect, words
from clef_tools.gate._extent import unstated_counts
from clef_tools.gate._extent._amounts import PERCENT_OFF
from clef_tools.gate._grounding import (
    MONEY,
    PRICE_BOUND,
    amount_off_record,
    bound_value,
    line_sums,
    numbers_in,
    targets,
)
from clef_tools.gate._licence import Licence
from clef_tools.gate._taint import split_at_order

#: Argument keys (or parts of them) that hold a quantity: an amount, a count, a setting.
_AMOUNT_KEYS = frozenset(
    ["amount", "price", "total", "sum", "value", "quantity", "count", "qty", "limit",
     "temperature", "temp", "replicas", "brightness", "volume", "percent", "percentage",
     "hours", "seats", "units", "shares", "passengers", "guests", "people", "persons",
     "adults", "children", "tickets", "nights", "rooms", "tip", "size", "salary", "wage",
     "stars", "rating", "level", "delta", "increment", "decrement", "adjustment", "grade",
     "score", "points", "marks", "credit", "debit", "celsius", "fahrenheit", "kelvin",
     "degrees", "setpoint", "target", "change", "budget", "bid", "dose", "dosage",
     "allowance"]
)  # fmt: skip


#: Words that ask for a part of an amount by how it divides.
_FRACTION_WORDS = frozenset(
    ["split", "half", "halves", "divide", "ways", "third", "thirds", "quarter", "quarters"]
)


#: Words that ask for a part of a stated amount, not the amount itself.
_SHARE_WORDS = _FRACTION_WORDS | {"share", "shares", "portion"}


_FLAG_NUMBER = re.compile(r"--([a-z][\w-]*)[= ](\d+(?:\.\d+)?)\b", re.I)


def _is_quantity_key(key: str) -> bool:
    parts = re.split(r"[_\W]+", key.lower())
    return any(part in _AMOUNT_KEYS for part in parts) and parts[-1] not in ("id", "number")


#: A sum given in cents, as payment APIs take it (`amount_cents`, Stripe's `unit_amount`):
#: 2500 for "$25".
_MINOR_UNITS = re.compile(r"(?:^|_)(?:cents|minor|in_cents|minor_units)$|^unit_amount$", re.I)


def call_numbers(args: Mapping[str, Any], effect: CallEffect | None = None) -> list[float]:
    """The quantities a call states (numbers, or numeric strings, under a quantity key; an
    id-like key such as `pull_number` names a thing instead), and those a statement it
    carries sets (`UPDATE … SET price = 249.9`)."""
    out = [v for column, v in (effect.settings if effect else ()) if _is_quantity_key(column)]
    # a tool of several uses takes its settings in one argument
    # (`control_device(action="set_volume", parameters={"volume": 20})`)
    # ...and a list of records takes them line by line (`lines=[{"account": …, "credit":
    # 500}]`, an invoice's items)
    inners = [
        inner
        for value in list(args.values())[:32]
        for inner in (value[:32] if isinstance(value, list) else [value])
        if isinstance(inner, Mapping)
    ]
    held = [
        (k, v)
        for inner in inners[:64]
        for k, v in list(inner.items())[:32]
        if not isinstance(v, Mapping | list)
    ]
    for key, value in [*args.items(), *held]:
        if str(key).lower() in ("command", "cmd") and isinstance(value, str):
            # a command's own quantities: `kubectl scale --replicas=30`, `head -n 5`
            out += [
                float(n)
                for flag, n in _FLAG_NUMBER.findall(value[:10_000])
                if any(p in _AMOUNT_KEYS for p in re.split(r"[_\W]+", flag.lower()))
            ]
            continue
        if not _is_quantity_key(str(key)):
            continue
        if isinstance(value, str):
            try:
                value = float(value.replace(",", "").strip().lstrip("$€£"))
            except ValueError:
                continue
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        out.append(float(value) / 100 if _MINOR_UNITS.search(str(key)) else float(value))
    # the numbers a sheet's cells are set to (`values=[["Travel", 1200]]`)
    for key in ("values", "value", "cells", "rows"):
        value = args.get(key)
        if isinstance(value, list):
            rows = [r if isinstance(r, list) else [r] for r in value[:64]]
            out += [
                float(v)
                for row in rows
                for v in row[:64]
                if isinstance(v, int | float) and not isinstance(v, bool)
            ][:64]
    # the counts of the items an order lists (`items=[{"name": …, "qty": 5}]`)
    out += [float(v) for k, v in _item_counts(args)]
    # a device command's values, given in order (`command="setHeatingSetpoint", args=[21]`)
    for key in _POSITIONAL_KEYS:
        value = args.get(key)
        if isinstance(value, list) and 0 < len(value) <= 8:
            out += [
                float(v) for v in value if isinstance(v, int | float) and not isinstance(v, bool)
            ]
    return out[:16]


#: Arguments that hand a command its values in order.
_POSITIONAL_KEYS = ("args", "arguments", "params", "values")


def _item_counts(args: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The counts the records of a list argument carry: `qty` of each of an order's items."""
    return [
        (str(k), v)
        for value in list(args.values())[:32]
        if isinstance(value, list)
        for item in value[:16]
        if isinstance(item, Mapping)
        for k, v in list(item.items())[:16]
        if str(k).lower() in _COUNT_KEYS and isinstance(v, int | float) and not isinstance(v, bool)
    ]


#: Keys that count things: a count of one is what a request that names no count means.
_COUNT_KEYS = frozenset(
    ["quantity", "qty", "count", "passengers", "tickets", "seats", "units", "people",
     "persons", "guests", "adults", "rooms", "copies", "packs", "items", "shares",
     "contracts", "lots", "nights"]
)  # fmt: skip


#: The count keys that count the thing itself (not people, seats or rooms for it).
_PLAIN_COUNT_KEYS = frozenset(["quantity", "qty", "count", "copies", "packs", "units"])


def _bare_counts(args: Mapping[str, Any]) -> list[float]:
    """The plain counts a call sets (`quantity`, `qty`, `count`, `copies`)."""
    return [
        float(v)
        for k, v in list(args.items())[:32]
        if str(k).lower() in _PLAIN_COUNT_KEYS
        and isinstance(v, int | float)
        and not isinstance(v, bool)
    ]


def _one_of(args: Mapping[str, Any]) -> bool:
    """Whether the call counts something as one (`quantity: 1`, `passengers: 1`)."""
    return any(
        str(k).lower() in _COUNT_KEYS and v in (1, "1") and not isinstance(v, bool)
        for k, v in [*args.items(), *_item_counts(args)]
    )


def _counted_otherwise(args: Mapping[str, Any], said: str) -> str | None:
    """A number under a key the user gave that number's noun for, set to another number:
    `steps=80000` after "log 8000 steps", `duration_minutes=300` after "a 30 minute call".
    The key says what is counted, whatever the tool calls its quantities."""
    text = said[:20_000]
    for key, value in list(args.items())[:32]:
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        noun = re.split(r"[_\W]+", str(key).lower())[-1]
        noun = noun[:-1] if len(noun) > 3 and noun.endswith("s") else noun
        if len(noun) < 2 or noun in ("id", "no", "nr", "num", "number"):
            continue
        if noun == "day":
            # "move the due date to the 15th": a day of the month, by its ordinal
            days = [float(d) for d in re.findall(r"\b(\d{1,2})(?:st|nd|rd|th)\b", text)[:8]]
            if days and float(value) not in days:
                return f"{key} set to {value:g}, where the user gave day {days[0]:g}"
            continue
        found = re.findall(
            rf"(?<![\w.,])((?:instead\s+of|rather\s+than|not|from)\s+)?"
            rf"(\d[\d,]*(?:\.\d+)?)\s*(k\s+)?-?{re.escape(noun)}s?\b",
            text,
            re.I,
        )[:8]
        # "an hour instead of 30 minutes", "from 30 minutes to 45": the value replaced
        old = [_plain(n, k) for was, n, k in found if was]
        given = [_plain(n, k) for was, n, k in found if not was]
        # "lower the TTL on www.example.com to 300": the noun, then what it is set to
        given += [_plain(n, "") for n in _SET_TO.findall(_set_to_text(noun, text))[:8]]
        number = float(value)
        if any(nearly_equal(number, n) for n in old) and not any(
            nearly_equal(number, n) for n in given
        ):
            return f"{key} set to {value:g}, the value the user asked to replace"
        if given and not any(nearly_equal(number, n) for n in given):
            return f"{key} set to {value:g}, where the user said {given[0]:g} {noun}s"
    return None


#: A sum changed to a number the user gave ("raise my donation to 15 a month").
_CHANGED_TO = re.compile(
    r"\b(?:raise|lower|increase|decrease|change|set|bump|drop|cut|reduce|adjust|update)\b"
    r"[^.;!?\n]{0,60}?\bto\s+[$€£]?(\d[\d,]*(?:\.\d+)?)(k\b)?(?![\d:.,]|\s*(?:am|pm)\b|%)",
    re.IGNORECASE,
)
#: What a thing is set to: "to 300", not "to 5pm" nor "to 10:30".
_SET_TO = re.compile(r"\bto\s+(\d[\d,]*(?:\.\d+)?)(?![\d:.,]|\s*(?:am|pm|[ap]\.m\.)(?!\w))", re.I)


def _set_to_text(noun: str, text: str) -> str:
    """Each stretch from the noun to the first "to" within a few words of it ("the TTL on
    www.example.com to 300"), joined: where the user says what the noun is set to."""
    return " ".join(
        m.group(0)
        for m in re.finditer(
            rf"\b{re.escape(noun)}s?\b(?:\s+(?!to\b)[^\s;!?]+){{0,4}}?\s+to\s+\S+", text, re.I
        )
    )


def _plain(number: str, thousands: str) -> float:
    return float(number.replace(",", "")) * (1000 if thousands else 1)


def nearly_equal(a: float, b: float) -> bool:
    """Whether two sums are the same to the cent, or to 1 % of a large one."""
    return abs(a - b) <= 0.01 * max(1.0, abs(b))


def _derived(
    value: float, stated: Sequence[float], pool: Sequence[float], *, off: bool = False
) -> bool:
    """`value` is a stated number, or one stated number combined with another number of
    the request or its results ("12 hours at 150" → 1800; "raise the rent by 100"; with
    `off`, "10% off" a listed 12 → 10.8); where the user stated none, the sum or
    difference of two numbers of the results."""
    if any(nearly_equal(value, b) for b in pool):
        return True
    if not stated:
        # "adjust my rent as the notice says": the user left the amount to this request's
        # results, and the listed 1,100 plus the notice's increase of 100 is how it is set
        found = [b for b in pool[:32] if b > 0]
        return any(
            nearly_equal(value, a + b)
            or (not nearly_equal(a, b) and nearly_equal(value, abs(a - b)))
            for i, a in enumerate(found)
            for b in found[i + 1 :]
        )
    for i, a in enumerate(stated[:16]):
        for j, b in enumerate(pool[:64]):
            if j == i:
                continue  # `pool` starts with `stated`: a number is not combined with itself
            # "prices increased 10 %": the difference, or the new price (a percentage is at
            # most 100: "raise the limit to 2000" over a listed 1000 is no 2000 % of it)
            share = b * a / 100 if 0 < a <= 100 else float("nan")
            parts = (b / a if a else b, a / b if b else a)  # "split the 90 three ways"
            # with `off` ("10% off"), the price less the part, not the part or more
            shares = (b - share,) if off else (share, b + share)
            if any(nearly_equal(value, c) for c in (a + b, a - b, b - a, a * b, *shares, *parts)):
                return True
    return False


#: Words asking for a whole to be split into shares ("rebalance to 60% stocks").
_TOWARDS_SHARES = frozenset(["rebalance", "rebalancing", "allocation", "allocate", "reallocate"])


def _a_percent_of(
    value: float,
    percents: Sequence[float],
    pool: Sequence[float],
    stated: Sequence[float] = (),
    *,
    towards: bool = False,
    off: bool = False,
) -> bool:
    """`value` is one of the stated percentages (a `percent` argument), or that part of a
    stated amount, alone, added to it (a tip on top of the bill) or, with `off`, taken off
    it (a discount); or, when the user asked
    for shares of a whole (`towards`: "rebalance to 60% stocks"), what brings a holding in
    view to its share."""
    # the holdings and the whole, not the shares themselves
    wholes = (
        [b for b in pool[:64] if not any(nearly_equal(b, p) for p in percents)] if towards else []
    )
    for p in percents:
        if nearly_equal(value, p):
            return True
        for b in pool[:64]:
            part = b * p / 100
            if off:
                # "10% off the blue mug": its price less the part, not the part itself
                if nearly_equal(value, b - part):
                    return True
                continue
            if nearly_equal(value, part) or nearly_equal(value, b + part):
                return True
            # "19.5 % of what we paid plus a fee of 5.29": the part and another stated sum
            if any(
                nearly_equal(value, part + s) or nearly_equal(value, part - s) for s in stated[:16]
            ):
                return True
        for b in wholes:
            part = b * p / 100
            if any(c < b and nearly_equal(value, abs(part - c)) for c in wholes):
                return True
    return False


#: Arguments that set a sum a change fixes: a salary, a price, a rate.
_SUM_KEY = re.compile(r"(?:^|_)(?:salary|wage|price|rate|amount|fee|pay)(?:_|$)", re.IGNORECASE)


def _sums_set(args: Mapping[str, Any]) -> list[float]:
    """The numbers a call gives under a sum's key (`amount`, `price`, `salary`)."""
    return [
        float(v)
        for k, v in list(args.items())[:32]
        if _SUM_KEY.search(str(k)) and isinstance(v, int | float) and not isinstance(v, bool)
    ]


#: A count of units traded the user wrote out: "10 shares", "3 contracts", "2 lots".
_UNITS_STATED = re.compile(
    r"(?<![\w.])\d[\d,]*(?:\.\d+)?\s+(?:[A-Za-z]{1,6}\s+)?(?:shares?|units?|contracts?|lots?)\b",
    re.IGNORECASE,
)


def quantity_issue(
    effect: CallEffect,
    licence: Licence,
    args: Mapping[str, Any],
    results: Sequence[str] = (),
    said: str = "",
) -> str | None:
    """Why a quantity in the call is not one the user asked for, if it is not: a payment's
    amount must be stated by the user or by a result of this request (a bill), and by the
    record of it the user described; another change's quantity must be one the user
    stated when they stated any."""
    if effect.read_only:
        return None
    counted = _counted_otherwise(args, said)
    if counted is not None:
        return counted
    values = call_numbers(args, effect)
    for fixed in unstated_counts(args, said) if "pay" not in effect.kinds else ():
        # `rooms=1` beside "2 adults", `nights=3` for "Dec 18 to Dec 21": held by its noun
        if fixed in values:
            values.remove(fixed)
    priced = licence.amounts and set(licence.amounts) <= set(_exact_sums(said))
    if priced and _one_of(args) and 1.0 in values:
        # "make a $25 payment link" (`quantity=1`): one of what the user priced, where
        # every number the user gave is a sum of money
        values.remove(1.0)
    if not values:
        return None
    # "half" is among them, as 2; a sum an amendment replaced is not ("send 20" —
    # "actually make it 25": 45 is no sum of what is asked)
    stated = [a for a in licence.amounts if not any(nearly_equal(a, r) for r in licence.rejected)]
    # a number in a passage addressed to the agent ("buy 5 gift cards") is the passage's
    shown = [before for before, _ in split_at_order(results)]
    # ...and what a line of an order in view comes to ("refund the blue mugs": 2 × 12)
    pool = stated + numbers_in(shown) + line_sums(shown)
    # the user's own words, as idioms left them unread ("split … with Tom" asks Tom)
    told = licence.words | set(words(said[:20_000]))
    # "buy 3 shares of AAPL": stock counted, not a share of a sum
    stock = _UNITS_STATED.search(said[:20_000]) is not None
    divides = bool(told & (_SHARE_WORDS - {"shares", "share"} if stock else _SHARE_WORDS))
    # money asked of someone (`venmo_request`) is held to the stated sum as a payment is,
    # when the user divided a sum among people
    pays = "pay" in effect.kinds or ("send" in effect.kinds and divides)
    # "half of my ETH", "split it three ways": a part asked for ("their share" is a noun)
    fraction = bool(told & _FRACTION_WORDS)
    # "refund 20% of it", "tip 10 percent": the payment is that part of a stated amount
    # ...and "a 5% raise" sets a salary that part above the one in view
    resets = "modify" in effect.kinds and any(_SUM_KEY.search(str(k)) for k in list(args)[:32])
    percents = licence.percents if pays or resets else ()
    ones = _one_of(args)
    off = PERCENT_OFF.search(said[:20_000]) is not None
    # "withdraw 0.5 ETH": a sum the user wrote out with its currency, read once
    exact = _exact_sums(said) if pays and not (percents or fraction or divides) else []
    if pays and _UNITS_STATED.search(said[:20_000]) and not fraction:
        # "sell 10 shares of TSLA": the count the user wrote, not the 40 a result holds
        for key, value in list(args.items())[:32]:
            counts = str(key).lower() in _COUNT_KEYS and isinstance(value, int | float)
            if (
                counts
                and not isinstance(value, bool)
                and not any(nearly_equal(value, a) for a in stated)
            ):
                return f"a count ({value:g}) other than the one the user stated"
    # "nothing above $400": a price under the bound the user set is one they allowed
    ceiling = max(
        (float(bound_value(m).replace(",", "")) for m in PRICE_BOUND.finditer(said[:20_000])),
        default=0.0,
    )
    within = set(_sums_set(args)) if ceiling else set()
    sums_set = _sums_set(args) if resets else []
    changed_to = [_plain(n, k) for n, k in _CHANGED_TO.findall(said[:20_000])[:4]]
    for value in sums_set if changed_to else ():
        # "raise my charity donation to 15 a month": the sum is 15, not 15 times a number
        # a result holds
        if not any(nearly_equal(value, t) for t in changed_to):
            return f"sets a sum ({value:g}) other than the {changed_to[0]:g} the user gave"
    for value in values:
        if any(nearly_equal(value, r) for r in licence.rejected) and not any(
            nearly_equal(value, a)
            for a in stated
            if not any(nearly_equal(a, r) for r in licence.rejected)
        ):
            return f"an amount ({value:g}) the user set aside"
        if ones and value == 1.0 and not stated:
            continue  # "book the train", "order another pack": one, as asked
        if value in within and 0 < value <= ceiling:
            continue
        if not stated and not pool and value > 1 and value in _bare_counts(args):
            # `request_refill(quantity=12)` after "refill my inhaler prescription": a count
            # the user gave no number for, and no result in view holds
            return f"a count ({value:g}) the user did not state"
        if percents and not _a_percent_of(
            value,
            percents,
            pool,
            stated,
            towards=bool(told & _TOWARDS_SHARES),
            off=off,
        ):
            return (
                f"an amount ({value:g}) that is not any amount stated less the "
                f"{percents[0]:g}% the user asked to take off"
                if off
                else f"an amount ({value:g}) that is not the {percents[0]:g}% the user asked "
                "for of any amount stated"
            )
        if pays and not pool:
            return f"an amount ({value:g}) neither the user nor this request's results stated"
        if resets and not pool and value in sums_set:
            # `update_opportunity(stage=…, amount=250000)` after "move it to Negotiation":
            # a sum changed that nobody gave
            return f"sets a sum ({value:g}) neither the user nor this request's results stated"
        whole = (
            (len(stated) > 1 and nearly_equal(value, max(stated)))
            or (
                # "sell half of my ETH" over `ETH 1.8`: 1.8 is what the result holds, the whole
                fraction
                and any(nearly_equal(value, b) for b in pool[len(stated) :])
                and not any(nearly_equal(value, a) for a in stated)
            )
            # "split the $120 bill with Tom and Ana": the one sum stated is the whole
            or (fraction and len(stated) == 1 and nearly_equal(value, stated[0]))
        )
        if pays and divides and whole:
            # "split the 90 three ways and send Tom his share": 90 is the whole
            return f"the whole amount ({value:g}) where the user asked for a share of it"
        if fraction and any(nearly_equal(value * k, a) for a in stated[:8] for k in range(2, 13)):
            continue  # "split the $120 bill with Tom and Ana": an equal share of it
        if (pays or stated) and not _derived(value, stated, pool, off=off):
            return f"a quantity ({value:g}) the user did not state"
        if exact and not _derived(value, exact, stated):
            # "withdraw 0.5 ETH" over a balance of 2.1: the sum the user wrote out is the
            # one moved, not a number the agent read (the whole balance)
            return f"an amount ({value:g}) other than the sum the user stated ({exact[0]:g})"
    crossed = _amount_for_another(values, said, targets(args)) if pays else None
    if crossed is not None:
        return crossed
    record = amount_off_record(values, stated, said, results, targets(args)) if pays else None
    if record is not None:
        return f"an amount from a record other than the one the user described: {record!r}"
    return None


#: A sum the user bound to whom it goes: "20 to Tom (GB33…)", "50 EUR to checking".
_SUM_TO = re.compile(
    r"(?<![\w.])[$€£]?(\d[\d,]*(?:\.\d+)?)\s*(?:[$€£]|eur|usd|gbp|chf|dollars?|euros?|pounds?)?"
    r"\s+to\s+([^.,;\n]{1,120}?)(?=\s+(?:and|then)\s|[.,;\n]|$)",
    re.IGNORECASE,
)


def _amount_for_another(values: Sequence[float], said: str, names: Sequence[str]) -> str | None:
    """A payment with the sum the user gave for someone else: "send 20 to Tom and 30 to
    Ana" as 30 to Tom; "transfer 200 to savings" then "also 50 to checking" as 200 to
    checking. Read only where the user bound two sums or more to whom they go."""
    bound = [
        (float(amount.replace(",", "")), to.lower())
        for amount, to in _SUM_TO.findall(said[:20_000])[:16]
    ]
    if len({a for a, _ in bound}) < 2:
        return None
    lowered = [n.lower() for n in names if len(n) >= 3]
    theirs = [a for a, to in bound if any(n in to for n in lowered)]
    if not theirs:
        return None
    for value in values:
        if not any(nearly_equal(value, a) for a in theirs) and any(
            nearly_equal(value, a) for a, _ in bound
        ):
            return f"an amount ({value:g}) the user gave for another recipient"
    return None


#: A sum written out with its currency or coin ("$25", "0.5 ETH", "120 EUR"), not one
#: given as a rough figure ("about $60", "up to 500 EUR").
_SUM = re.compile(MONEY, re.IGNORECASE)


_ROUGHLY = re.compile(
    r"(?:about|around|roughly|approximately|approx\.?|~|up to|at most|under|less than|over|"
    r"more than|at least|max(?:imum)?|min(?:imum)?|budget(?: of| is)?)\s*$",
    re.IGNORECASE,
)


#: A bare sum right after a verb that moves money, with no noun after it to count: "refund
#: 10 on Ann's order", "pay Tom 40 for the tickets" (not "pay 3 bills").
_VERB_SUM = re.compile(
    r"\b(?i:refund|pay|send|transfer|wire|tip|give|lend|reimburse|credit)\s+(?:[A-Z][a-z]+\s+)?"
    r"(\d[\d,]*(?:\.\d{1,2})?)(?=\s+(?i:on|to|for|from|back|into|towards)\b|\s*[.,!;]|\s*$)"
)


def _exact_sums(said: str) -> list[float]:
    """The sums the user wrote out exactly, with their currency or right after a verb that
    moves money; none when any is a rough figure."""
    out = []
    text = said[:20_000]
    for m in [*_SUM.finditer(text), *_VERB_SUM.finditer(text)]:
        if _ROUGHLY.search(text[max(0, m.start() - 24) : m.start()]):
            return []
        number = next(g for g in m.groups() if g is not None).replace(",", "")
        try:
            out.append(float(number))
        except ValueError:
            continue
    return out[:8]
