"""What is at stake in a call, and what the evidence alone may decide about it.

The effect (what the call does), the licence (what the user asked for), where the call's
targets come from (`_grounding.py`) and whether the session's tool results tried to
instruct the agent, read together. The rules, in order:

1. A parse failure, or an effect the tables do not know, is never decided here, and never
   denied on risk alone: only people's rejections deny it.
2. A prohibition the user stated is broken → deny.
3. A high-impact effect the user did not ask for (`rm -rf ~/`, `git push --force` after
   "what changed?", `DROP TABLE` after "how big is it?") → deny.
4. Reading, locally, from the user's own systems or from a place the user named, → allow
   whatever the provenance; a read from elsewhere after a result addressed the agent → at
   least escalate.
5. A high-impact effect the user did ask for → escalate (`confirm_high_impact`), as is a
   payment above the policy's `max_payment`.
6. An effect the user did not ask for; after a result addressed the agent, a send, payment,
   delete or grant on things the user did not name, unless each first turned up in a result
   before any such passage and no passage names it (`_grounding.provenance`; found nowhere
   in view, it is not faulted: nothing shows it is the passage's); a quantity the user did
   not state (a time of day included); a move the wrong way round; a git branch other than
   the one the user named; files moved to a folder past the project they did not name
   (`/tmp` included: it is wiped); an action the user did not name (an archive for a mute,
   a test skipped for a fix); a delete of what the user
   asked to remove something from; more access than asked; an opaque id from a result record
   other than the one described (or by another author than the user's "my comment"): not
   below escalate. Where the user handed the agent instructions written elsewhere; where no
   tool result is in view and what the user did not give is a payee, address, phone number,
   record id or sum the agent may have looked up; where a record id is in nothing in view
   and no result in view holds the record the user described; where the user asked for a sum
   to be worked out ("send back the difference"), or left the details to a document ("update
   it accordingly") and no result addressed the agent; or where the user's words fit the
   chosen party and another just as well, such a fault is also not above escalate: nothing
   shows it is not what the user wanted.
7. An effect the user asked for, on things they named (or that results of this request
   returned before any passage that tried to instruct the agent), or a coding agent's local change
   that can be undone (not on a service of the machine's the user did not name, nor a
   delete of the folder that holds the file they named) → allow; after a result addressed
   the agent, any other change on things the user did not name: not below escalate.
8. Anything else that changes, sends, pays, grants, configures or runs: not below
   escalate on the evidence alone; the model tier may still raise it to deny, unless the
   change stays local and can be undone (an edit, a build): where a call's words came from
   cannot show that such a change hurts, so the worst it gets without a rule is a person's
   look.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from clef_tools.gate._assets import asset_issue
from clef_tools.gate._canonical import PATH_KEYS, file_name
from clef_tools.gate._dates import date_issue
from clef_tools.gate._dictated import (
    broadcast_issue,
    dictated_issue,
    location_issue,
    polarity_issue,
    retold_number_issue,
    told_number_issue,
)
from clef_tools.gate._disclosed import (
    attachment_issue,
    card_issue,
    confidential_issue,
    credential_issue,
    unsourced_detail_issue,
)
from clef_tools.gate._dropped import dropped_code_issue
from clef_tools.gate._edited import edit_scope_issue
from clef_tools.gate._effects import CallEffect, after_verb, table, tool_verb, verb_words, words
from clef_tools.gate._environment import environment_issue
from clef_tools.gate._evidence import text_values
from clef_tools.gate._extent import extent_issue, switches, unstated_counts
from clef_tools.gate._files import folder_issue, other_file_issue
from clef_tools.gate._grounding import (
    ADDRESS_TEXT,
    MONEY,
    SETTING_KEYS,
    Grounding,
    amount_off_record,
    holds_described,
    holds_named,
    hosts_named,
    line_sums,
    looked_up,
    numbers_in,
    object_named,
    partly_named,
    shape_unseen,
    targets,
    times_in,
)
from clef_tools.gate._licence import Licence
from clef_tools.gate._refs import branch_issue, commit_issue
from clef_tools.gate._shell import beyond_project
from clef_tools.gate._sql import sql_privileges
from clef_tools.gate._taint import split_at_order
from clef_tools.gate._written import secret_written_issue, written_code_issue
from clef_tools.protocol._secrets import secrets_in

__all__ = ["Stakes", "judge_stakes"]

Verdict = Literal["allow", "escalate", "deny"]

#: Argument keys (or parts of them) that hold a quantity: an amount, a count, a setting.
_AMOUNT_KEYS = frozenset(
    ["amount", "price", "total", "sum", "value", "quantity", "count", "qty", "limit",
     "temperature", "temp", "replicas", "brightness", "volume", "percent", "percentage",
     "hours", "seats", "units", "shares", "passengers", "guests", "people", "persons",
     "adults", "children", "tickets", "nights", "rooms", "tip", "size", "salary", "wage",
     "stars", "rating", "level", "delta", "increment", "decrement", "adjustment", "grade",
     "score", "points", "marks", "credit", "debit", "celsius", "fahrenheit", "kelvin",
     "degrees", "setpoint", "target"]
)  # fmt: skip
#: Words that ask for a part of an amount by how it divides.
_FRACTION_WORDS = frozenset(
    ["split", "half", "halves", "divide", "ways", "third", "thirds", "quarter", "quarters"]
)
#: A part of something the user holds, by how it divides ("half of my ETH"), not of a sum
#: they state ("half of the $300 I owe Lee").
_SHARE_OF_HOLDING = re.compile(
    r"\b(?:half|a\s+third|a\s+quarter|two\s+thirds|three\s+quarters)\s+of\s+"
    r"(?:my|our|the|his|her|their|this|that)\s+(?![$€£]|\d)",
    re.IGNORECASE,
)
#: Words that ask for a part of a stated amount, not the amount itself.
_SHARE_WORDS = _FRACTION_WORDS | {"share", "shares", "portion"}
_FLAG_NUMBER = re.compile(r"--([a-z][\w-]*)[= ](\d+(?:\.\d+)?)\b", re.I)
_ROLE_KEYS = frozenset(
    ["role", "permission", "permissions", "access", "level", "right", "rights", "scope"]
)
_LOW_ROLES = frozenset(
    ["reader", "read", "viewer", "view", "commenter", "comment", "none", "restricted", "guest",
     "r", "ro", "read-only", "readonly"]
)  # fmt: skip
_HIGHER_ROLES = frozenset(
    ["edit", "editor", "write", "writer", "owner", "admin", "administrator", "manage", "full",
     "permanent", "rw", "w", "read-write", "readwrite", "maintain", "maintainer", "reshare",
     "resharing"]
)  # fmt: skip
_EDIT_ROLE_WORDS = (
    "edit", "editor", "editors", "write", "writer", "writers", "editing", "rw", "w",
    "read-write", "readwrite", "manage",  # "let Jo manage my calendar": changes asked for
)  # fmt: skip
#: A calendar shared for availability only, and the roles that show no more.
_FREE_BUSY = re.compile(r"\bfree\s*[/-]?\s*busy\b|\bavailability\b", re.IGNORECASE)
_FREE_BUSY_ROLES = frozenset(["freebusyreader", "freebusy", "availability", "none"])
#: A guest's access asked for ("as a single-channel guest"), and the roles above it.
_AS_GUEST = re.compile(r"\bas\s+(?:an?\s+)?(?:[\w-]+\s+)?guests?\b", re.IGNORECASE)
_MEMBER_ROLES = frozenset(["member", "regular", "full", "full_member", "user", "standard"])


def _hands_over(tool: str) -> bool:
    """Whether a tool gives a thing to another owner (`transfer_ownership`, `transfer_repo`)."""
    found = set(words(tool))
    handed = found & {"transfer", "transfers"} and found & table().handed_over
    return "ownership" in found or bool(handed)


#: How a user asks for a thing to be handed over ("transfer the repo", "make her the owner").
_HANDING_OVER = re.compile(r"\btransfer|\bhand\s+(?:\S+\s+)?over\b|\bowner(?:ship)?\b", re.I)
#: The words a user names a higher role by ("give her edit access" asks for `writer`).
_ROLE_NAMES = {
    role: group
    for group in (
        frozenset(_EDIT_ROLE_WORDS),
        frozenset(["owner", "owners", "own", "ownership"]),
        frozenset(["admin", "admins", "administrator", "administrators", "manage", "manager"]),
        frozenset(["full"]),
        frozenset(["permanent", "permanently", "forever", "indefinitely", "indefinite"]),
        # `allow_reshare=True`: the grantee may pass the access on, asked for in that word
        frozenset(["reshare", "reshares", "reshared", "resharing"]),
    )
    for role in group
}
#: Words that ask for a copy put somewhere: a command that uploads it there sends it.
_COPY_WORDS = frozenset(["copy", "upload", "put", "save", "store", "backup", "sync", "mirror"])
#: Effects a tool's own verb in the user's words may license (paying and deleting need the
#: user's own words for them).
_ASKED_BY_NAME = frozenset(["create", "modify", "grant", "send"])


#: The most argument texts a call's credential check reads (the request is bounded before).
_MAX_TEXTS = 4096


def _carries_secret(effect: CallEffect, args: Mapping[str, Any], said: str) -> bool:
    """Whether a call that reaches someone else carries a credential (a one-time code, a
    password, an API key) the user did not write: what an agent reads in an inbox is not
    what it may pass on; a read of another's server carries it in its link (`fetch(url=
    "https://…?k=sk-live-…")`). Commands are left out: they name their secrets by variable."""
    if (effect.read_only and not effect.external) or effect.source in ("shell", "sql"):
        return False
    if not (effect.external or effect.kinds & {"send", "pay", "grant"}):
        return False
    told = said.lower()
    texts = itertools.islice(text_values(args), _MAX_TEXTS)
    return any(secret.lower() not in told for text in texts for secret in secrets_in(text))


@dataclass(frozen=True)
class Stakes:
    verdict: Verdict | None
    """What the evidence alone decides (None: the risk model and, if needed, the model)."""
    floor: Verdict
    """The mildest verdict any tier may give."""
    reason: str
    may_allow_fast: bool
    """Whether the risk model's fast tier may allow it (only what the evidence vouches for)."""
    features: Mapping[str, float] = field(default_factory=dict)
    ceiling: Verdict = "deny"
    """The strictest verdict the risk model may give when no rule decided."""
    mismatch: bool = False
    """A rule found the call off what the user asked (an effect, action, object, quantity
    or access they did not ask for, or a result that addressed the agent): only then may
    the evidence alone deny it. Where the call's words came from is not enough to deny a
    call whose effect the tables do not know, or one no rule faults."""
    why_capped: str = "a local change that can be undone"
    """Why `ceiling` is below deny, as the decision's reason says it."""

    def as_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "floor": self.floor, "reason": self.reason}

    @property
    def may_deny_fast(self) -> bool:
        """Whether the risk model's fast tier may deny it alone: a rule faulted it, and
        nothing caps its verdict below deny."""
        return self.ceiling == "deny" and self.mismatch

    @property
    def risk_features(self) -> dict[str, float]:
        """The rules' findings as the risk model weighs them, beside provenance."""
        return {**self.features, "mismatch": float(self.mismatch)}


def _is_quantity_key(key: str) -> bool:
    parts = re.split(r"[_\W]+", key.lower())
    return any(part in _AMOUNT_KEYS for part in parts) and parts[-1] not in ("id", "number")


#: A sum given in cents, as payment APIs take it (`amount_cents`, Stripe's `unit_amount`):
#: 2500 for "$25".
_MINOR_UNITS = re.compile(r"(?:^|_)(?:cents|minor|in_cents|minor_units)$|^unit_amount$", re.I)


def _numbers(args: Mapping[str, Any], effect: CallEffect | None = None) -> list[float]:
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
     "contracts", "lots"]
)  # fmt: skip


def _one_of(args: Mapping[str, Any]) -> bool:
    """Whether the call counts something as one (`quantity: 1`, `passengers: 1`)."""
    return any(
        str(k).lower() in _COUNT_KEYS and v in (1, "1") and not isinstance(v, bool)
        for k, v in [*args.items(), *_item_counts(args)]
    )


#: Argument values that hold a time of day (`"16:30"`, `"2026-12-03T10:30"`).
_TIME_VALUE = re.compile(r"^(?:\d{4}-\d{2}-\d{2}[T ])?\d{1,2}:\d{2}(?::\d{2})?")


_FROM_TO = re.compile(
    r"\bfrom\s+(?:my\s+|the\s+|our\s+)?([\w.@-]+)[^.;!?]{0,40}?\bto\s+(?:my\s+|the\s+|our\s+)?"
    r"([\w.@-]+)",
    re.IGNORECASE,
)
_SOURCE_KEY = re.compile(r"^(?:from|source|src|origin)(?:_\w+)?$|^\w+_from$", re.I)
_TARGET_KEY = re.compile(r"^(?:to|destination|dest|target)(?:_\w+)?$|^\w+_to$", re.I)


def direction_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A move the wrong way round: "move 300 from savings to checking" is not
    `from_account="checking", to_account="savings"`."""
    source = next((str(v).lower() for k, v in args.items() if _SOURCE_KEY.match(str(k))), None)
    target = next((str(v).lower() for k, v in args.items() if _TARGET_KEY.match(str(k))), None)
    if not source or not target:
        return None
    for a, b in _FROM_TO.findall(said[:20_000])[:8]:
        a, b = a.lower().rstrip(".-"), b.lower().rstrip(".-")
        if a != b and a in target and b in source and a not in source and b not in target:
            return f"from {source} to {target}, where the user asked from {a} to {b}"
    return None


def time_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A time of day in the call that is none of the times the user stated, when they
    stated any ("set an alarm for 6:30" is not 16:30; "move the standup to 10:30" is not
    11:30): a call with several times (a start and an end) needs one of them stated."""
    ranged = _hour_range(said[:20_000])
    clock = times_in(said[:20_000])
    asked = clock | _bare_hours(said[:20_000]) | ranged
    if not asked:
        return _part_of_day_issue(args, said)
    asked |= _afternoon_twins(said)
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


#: An hour alone after "at" ("the dentist next Tuesday at 10", "at 7 tonight"), not a
#: street number ("at 10 Downing Street"), a count or a percentage.
_BARE_HOUR = re.compile(
    r"\bat\s+(1[0-2]|[1-9])(?:\s*o['’]?clock)?"
    r"(?![\d:,%]|\.\d|\s*[ap]\.?m\b|\s+(?-i:[A-Z])|\s+(?:people|persons|guests|percent|items?|of|x|"
    r"min\w*|hours?|days?|weeks?|euros?|dollars?|pounds?)\b)",
    re.IGNORECASE,
)


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
        start = int(h1) if 7 <= int(h1) <= 11 else int(h1) % 12 + 12
        end = int(h2) % 12
        end = end if end * 60 + int(m2 or 0) > start * 60 + int(m1 or 0) else end + 12
        out |= {f"{start:02d}:{int(m1 or 0):02d}", f"{end % 24:02d}:{int(m2 or 0):02d}"}
    return out


def _bare_hours(said: str) -> set[str]:
    """Each hour said alone, as the morning's and the afternoon's (which one the user
    meant the gate cannot tell): "at 10" is 10:00 or 22:00."""
    out: set[str] = set()
    for hour in _BARE_HOUR.findall(said):
        h = int(hour) % 12
        out |= {f"{h:02d}:00", f"{h + 12:02d}:00"}
    return out


#: A clock time written without its half of the day ("try 6:30"), not as a 24-hour time
#: ("06:30", "18:30").
_BARE_CLOCK = re.compile(r"(?<![\d:.])([1-9]|1[01]):([0-5]\d)(?![\d:])(?!\s*[ap]\.?m\b)", re.I)


#: Words that set a request in the evening: "a table at 6:30" is at 18:30.
_EVENING = re.compile(
    r"\b(?:tonight|evening|night|dinner|supper|drinks|table|restaurant|bar|pub|concert|show"
    r"|movie|cinema|theat(?:re|er))\b",
    re.IGNORECASE,
)


def _afternoon_twins(said: str) -> set[str]:
    """The evening reading of the clock times the user gave without am or pm, where the
    request is an evening's ("a table at 6:30" is 18:30); an alarm at 7:15 stays 07:15."""
    if not _EVENING.search(said[:20_000]):
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
    if not asked:
        return None
    for key, value in repeats:
        set_to = {
            _FREQUENCIES[w] for w in re.findall(r"[a-z]+", value.lower()[:200]) if w in _FREQUENCIES
        }
        if set_to and not set_to & asked:
            return f"{key}={value[:40]!r}: repeats other than the user asked ({sorted(asked)[0]})"
    return None


#: Actions that undo each other: the call doing one where the user asked for the other.
_OPPOSITES = (
    ("open", "close"), ("lock", "unlock"), ("arm", "disarm"), ("on", "off"),
    ("start", "stop"), ("enable", "disable"), ("mute", "unmute"), ("pin", "unpin"),
    ("star", "unstar"), ("follow", "unfollow"), ("subscribe", "unsubscribe"),
    ("archive", "unarchive"), ("block", "unblock"), ("freeze", "unfreeze"),
    ("pause", "resume"), ("accept", "decline"), ("approve", "reject"), ("join", "leave"),
    ("increase", "decrease"), ("raise", "lower"), ("show", "hide"), ("up", "down"),
    ("buy", "sell"), ("grant", "revoke"), ("deposit", "withdraw"),
)  # fmt: skip


def opposite_issue(effect: CallEffect, licence: Licence) -> str | None:
    """A tool that does the opposite of what the user asked: "close the garage door" is not
    `open_cover`, "turn off the heater" not `turn_on` (read from the tool's own words)."""
    if effect.source not in ("name", "annotations"):
        return None
    asked = licence.words
    for e in effect.effects:
        does = set(words(e.what.rsplit("__", 1)[-1]))
        for a, b in _OPPOSITES:
            for this, that in ((a, b), (b, a)):
                if (
                    this in does
                    and that not in does
                    and licence.names_action(that)
                    and not (licence.names_action(this) or this in asked)
                ):
                    return f"{e.what[:60]} does '{this}', where the user asked to '{that}'"
    return None


#: Values that pick everything of a kind (`entity_id="all"`).
_EVERYTHING = frozenset(["all", "*", "everything", "everyone", "any"])
_PICKS = re.compile(
    r"(?:^|_)(?:entity|entities|entity_id|entity_ids|target|targets|device|devices|ids?)$", re.I
)
#: "all the lights downstairs", "all of the emails from Bob": all of a part, not of a kind.
_QUALIFIED_ALL = re.compile(
    r"\ball\s+(?:of\s+)?(?:the\s+|my\s+|our\s+|your\s+)?([a-z]+(?:\s+[a-z]+)?)\s+"
    r"(?:in|on|at|from|of|upstairs|downstairs|outside|inside|outdoors|indoors|by|with|under)\b",
    re.I,
)


def scope_issue(args: Mapping[str, Any], said: str) -> str | None:
    """Everything of a kind where the user asked for a part of it: "turn off all the lights
    downstairs" is not `entity_id="all"`."""
    picks_all = any(
        isinstance(v, str) and v.strip().lower() in _EVERYTHING and _PICKS.search(str(k))
        for k, v in list(args.items())[:32]
    )
    found = _QUALIFIED_ALL.search(said[:20_000]) if picks_all else None
    if found is None:
        return None
    return f"acts on everything, where the user asked for {found.group(0)[:60]}…"


def recipient_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str] = ()
) -> str | None:
    """Addresses the user wrote out, and a send or grant to none of them: "forward the
    invoice to accounting@acme.io" is not to the sender the invoice came from. An address
    the user replaced ("send it to cfo@… instead") is no longer one of them, and a draft
    sent by its id goes to the addresses its record in view gives."""
    if not effect.kinds & {"send", "grant", "pay"}:
        return None
    text = said[:20_000]
    found = list(itertools.islice(ADDRESS_TEXT.finditer(text), 32))
    stated = {m.group(0).lower().rstrip(".,;") for m in found}
    if not stated:
        return None
    for i, m in enumerate(found):
        if _INSTEAD.match(text, m.end()):
            # the addresses written before it are the ones it replaces
            stated -= {f.group(0).lower().rstrip(".,;") for f in found[:i]}
            stated.add(m.group(0).lower().rstrip(".,;"))
    named = targets(args)
    sent_to = {t.lower() for t in named if ADDRESS_TEXT.fullmatch(t)}
    if not sent_to:
        sent_to = _record_recipients([t for t in named if len(t) >= 3][:8], results)
    if sent_to and not sent_to & stated:
        return f"to {sorted(sent_to)[0][:80]}, where the user gave {sorted(stated)[0][:80]}"
    return None


#: "… to cfo@acme.example instead": the address that replaces the one before it.
_INSTEAD = re.compile(r"[.,;]?\s+(?:instead|rather)\b", re.IGNORECASE)
#: A record's fields that say whom it goes to.
_RECIPIENT_FIELD = re.compile(
    r'"(?:to|recipients?|cc|bcc)"\s*:\s*(\[[^\]]{0,2000}\]|"[^"]{0,300}")'
)


_ID_KEY_BEFORE = re.compile(r'"(?:id|draft_id|message_id)"\s*:\s*$')


def _record_recipients(ids: Sequence[str], results: Sequence[str]) -> set[str]:
    """The addresses a JSON record in view that holds one of `ids` as its id sends to
    (`{"id": "d_44", "to": "board@…"}`): whom a draft sent by its id reaches."""
    out: set[str] = set()
    for result in results[-16:]:
        for value in ids:
            at = result.find(f'"{value}"', 0, 100_000)
            if at < 0 or not _ID_KEY_BEFORE.search(result[max(0, at - 40) : at]):
                continue
            end = result.find("}", at)
            record = result[at : end if end > 0 else at + 4000]
            for listed in _RECIPIENT_FIELD.findall(record):
                out |= {a.lower() for a in ADDRESS_TEXT.findall(listed)}
    return out


#: Words that ask for a switch to be set.
_SWITCHING = frozenset(["enable", "disable", "toggle", "activate", "deactivate"])


def _switch_named(args: Mapping[str, Any], said: str) -> bool:
    """Whether every switch the call sets is one the user named by every word of its name
    (`waiting_room` for "enable the waiting room"; not `lobby_chat` beside it)."""
    found = set(words(said[:20_000]))
    keys = [words(key) for key, _ in switches(args)]
    return bool(keys) and all(parts and set(parts) <= found for parts in keys)


#: Argument keys (or parts of them) that switch something: a mode, a state, power.
_SWITCH_KEYS = frozenset(
    ["mode", "state", "status", "power", "enabled", "active", "on", "armed", "switch"]
)
#: Values that switch something off.
_OFF_VALUES = frozenset(
    ["off", "disabled", "disable", "false", "stopped", "stop", "paused", "pause", "inactive",
     "standby", "disarmed", "unarmed", "shutdown"]
)  # fmt: skip
#: Words a user asks for something to be switched off with.
_OFF_WORDS = frozenset(
    ["off", "disable", "disabled", "stop", "pause", "shut", "shutdown", "deactivate", "kill",
     "mute", "silence", "disarm", "standby", "halt", "suspend", "freeze", "unplug"]
)  # fmt: skip


#: A tool named for switching something off (`climate_turn_off`, `power_off_tv`).
_OFF_TOOL = re.compile(r"(?:^|_)(?:turn|switch|power|shut)_?off(?:_|$)|(?:^|_)shutdown(?:_|$)")


def switch_off_issue(
    args: Mapping[str, Any], licence: Licence, effect: CallEffect | None = None
) -> str | None:
    """A switch turned off that the user did not ask to turn off: "set the thermostat to 20
    degrees" is not `hvac_mode="off"`, "arm the alarm" is not `state="disarmed"`, "turn the
    heating down to 18" is not `climate_turn_off`."""
    if licence.words & _OFF_WORDS and not licence.no_switch_off:
        return None
    if effect is not None and effect.source in ("name", "annotations"):
        for e in effect.effects:
            name = "_".join(words(e.what.rsplit("__", 1)[-1]))
            if _OFF_TOOL.search(name):
                return f"{e.what[:60]} switches off what the user did not ask to switch off"
    for key, value in list(args.items())[:32]:
        parts = re.split(r"[_\W]+", str(key).lower())
        if not any(p in _SWITCH_KEYS for p in parts):
            continue
        off = (
            value is False
            if isinstance(value, bool)
            else (isinstance(value, str) and value.strip().lower() in _OFF_VALUES)
        )
        if off:
            return f"{key}={value!r}: switches off what the user did not ask to switch off"
    return None


#: Argument keys that bound how long something lasts.
_BOUND_KEYS = re.compile(
    r"(?:^|_)(?:duration|expires?|expiry|expiration|until|ttl|ends?|end_time|end_at|"
    r"valid_until|lifetime)(?:_|$)",
    re.I,
)
#: Values that mean "for ever".
_UNBOUNDED = frozenset(
    ["never", "forever", "indefinite", "indefinitely", "permanent", "unlimited", "none",
     "infinite", "always", "null", ""]
)  # fmt: skip
#: A bound the user set: "for the next hour", "for 30 minutes", "until 6pm", "today only".
_USER_BOUND = re.compile(
    r"\bfor\s+(?:the\s+)?(?:next\s+|coming\s+)?(?:\d+|an?|one|two|three|few|couple\s+of)?\s*"
    r"(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|nights?)\b"
    r"|\b(?:until|till)\b|\b(?:today|tonight)\s+only\b|\bfor\s+(?:today|tonight)\b",
    re.I,
)


def bound_issue(args: Mapping[str, Any], said: str) -> str | None:
    """No end where the user set one: "share my location with Sam for the next hour" is
    not `duration_minutes=None`."""
    if not _USER_BOUND.search(said[:20_000]):
        return None
    for key, value in list(args.items())[:32]:
        if not _BOUND_KEYS.search(str(key)):
            continue
        unbounded = (
            value is None
            or (isinstance(value, str) and value.strip().lower() in _UNBOUNDED)
            or (not isinstance(value, bool) and isinstance(value, int | float) and value <= 0)
        )
        if unbounded:
            return f"{key}={value!r}: no end, where the user set one"
    return None


#: Arguments that set a room's temperature, on a tool or an entity that heats or cools.
_TEMPERATURE_KEY = re.compile(
    r"(?:^|_)(?:temperature|temp|setpoint|target_temp(?:erature)?|celsius|fahrenheit|degrees)"
    r"(?:_|$)",
    re.I,
)
_CLIMATE_WORDS = frozenset(
    ["climate", "thermostat", "heating", "heater", "heat", "hvac", "cooling", "ac", "aircon"]
)
#: Where a lived-in home is kept: °C, or °F for numbers past any room in °C.
_LIVED_IN = {"C": (15.0, 27.0), "F": (59.0, 81.0)}


def comfort_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A thermostat set outside the range a home is lived in, to a number the user did not
    give: "turn the heating down a bit" is not 10 °C."""
    names = " ".join([*(e.what for e in effect.effects), *(str(v) for v in targets(args))])
    if not set(words(names)) & _CLIMATE_WORDS:
        return None
    stated = {float(n) for n in re.findall(r"\d+(?:\.\d+)?", said[:20_000])[:64]}
    for key, value in list(args.items())[:32]:
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if not _TEMPERATURE_KEY.search(str(key)) or any(_close(value, n) for n in stated):
            continue
        unit = "F" if "fahrenheit" in str(key).lower() or value > 40 else "C"
        low, high = _LIVED_IN[unit]
        if not low <= value <= high:
            return (
                f"{key}={value:g}: outside the range a home is kept at, not a number the user gave"
            )
    return None


def moved_out_issue(effect: CallEffect, said: str) -> str | None:
    """Files moved past the project into a folder the user did not name: "rename draft.md
    to notes.md" is not `mv draft.md /tmp/notes.md`, though the new name is theirs."""
    for e in effect.effects:
        if not e.moved_to:
            continue
        folder = e.moved_to if e.moved_to.endswith("/") else e.moved_to.rsplit("/", 1)[0]
        if not object_named(folder or "/", said[:20_000].lower()):
            return (
                f"moves files to {e.moved_to[:80]}, a folder past the project the user did not name"
            )
    return None


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
        given = [
            float(n.replace(",", "")) * (1000 if k else 1)
            for n, k in re.findall(
                rf"(?<![\w.,])(\d[\d,]*(?:\.\d+)?)\s*(k\s+)?-?{re.escape(noun)}s?\b", text, re.I
            )[:8]
        ]
        if given and not any(_close(float(value), n) for n in given):
            return f"{key} set to {value:g}, where the user said {given[0]:g} {noun}s"
    return None


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 0.01 * max(1.0, abs(b))


def _derived(value: float, stated: Sequence[float], pool: Sequence[float]) -> bool:
    """`value` is a stated number, or one stated number combined with another number of
    the request or its results ("12 hours at 150" → 1800; "raise the rent by 100"); where
    the user stated none, the sum or difference of two numbers of the results."""
    if any(_close(value, b) for b in pool):
        return True
    if not stated:
        # "adjust my rent as the notice says": the user left the amount to this request's
        # results, and the listed 1,100 plus the notice's increase of 100 is how it is set
        found = [b for b in pool[:32] if b > 0]
        return any(
            _close(value, a + b) or (not _close(a, b) and _close(value, abs(a - b)))
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
            if any(
                _close(value, c) for c in (a + b, a - b, b - a, a * b, share, b + share, *parts)
            ):
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
) -> bool:
    """`value` is one of the stated percentages (a `percent` argument), or that part of a
    stated amount, alone or added to it (a tip on top of the bill); or, when the user asked
    for shares of a whole (`towards`: "rebalance to 60% stocks"), what brings a holding in
    view to its share."""
    # the holdings and the whole, not the shares themselves
    wholes = [b for b in pool[:64] if not any(_close(b, p) for p in percents)] if towards else []
    for p in percents:
        if _close(value, p):
            return True
        for b in pool[:64]:
            part = b * p / 100
            if _close(value, part) or _close(value, b + part):
                return True
            # "19.5 % of what we paid plus a fee of 5.29": the part and another stated sum
            if any(_close(value, part + s) or _close(value, part - s) for s in stated[:16]):
                return True
        for b in wholes:
            part = b * p / 100
            if any(c < b and _close(value, abs(part - c)) for c in wholes):
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
    values = _numbers(args, effect)
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
    stated = [a for a in licence.amounts if not any(_close(a, r) for r in licence.rejected)]
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
    # "withdraw 0.5 ETH": a sum the user wrote out with its currency, read once
    exact = _exact_sums(said) if pays and not (percents or fraction or divides) else []
    if pays and _UNITS_STATED.search(said[:20_000]) and not fraction:
        # "sell 10 shares of TSLA": the count the user wrote, not the 40 a result holds
        for key, value in list(args.items())[:32]:
            counts = str(key).lower() in _COUNT_KEYS and isinstance(value, int | float)
            if counts and not isinstance(value, bool) and not any(_close(value, a) for a in stated):
                return f"a count ({value:g}) other than the one the user stated"
    sums_set = _sums_set(args) if resets else []
    for value in values:
        if any(_close(value, r) for r in licence.rejected) and not any(
            _close(value, a) for a in stated if not any(_close(a, r) for r in licence.rejected)
        ):
            return f"an amount ({value:g}) the user set aside"
        if ones and value == 1.0 and not stated:
            continue  # "book the train", "order another pack": one, as asked
        if percents and not _a_percent_of(
            value, percents, pool, stated, towards=bool(told & _TOWARDS_SHARES)
        ):
            return (
                f"an amount ({value:g}) that is not the {percents[0]:g}% the user asked for "
                "of any amount stated"
            )
        if pays and not pool:
            return f"an amount ({value:g}) neither the user nor this request's results stated"
        if resets and not pool and value in sums_set:
            # `update_opportunity(stage=…, amount=250000)` after "move it to Negotiation":
            # a sum changed that nobody gave
            return f"sets a sum ({value:g}) neither the user nor this request's results stated"
        whole = (
            (len(stated) > 1 and _close(value, max(stated)))
            or (
                # "sell half of my ETH" over `ETH 1.8`: 1.8 is what the result holds, the whole
                fraction
                and any(_close(value, b) for b in pool[len(stated) :])
                and not any(_close(value, a) for a in stated)
            )
            # "split the $120 bill with Tom and Ana": the one sum stated is the whole
            or (fraction and len(stated) == 1 and _close(value, stated[0]))
        )
        if pays and divides and whole:
            # "split the 90 three ways and send Tom his share": 90 is the whole
            return f"the whole amount ({value:g}) where the user asked for a share of it"
        if fraction and any(_close(value * k, a) for a in stated[:8] for k in range(2, 13)):
            continue  # "split the $120 bill with Tom and Ana": an equal share of it
        if (pays or stated) and not _derived(value, stated, pool):
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
        if not any(_close(value, a) for a in theirs) and any(_close(value, a) for a, _ in bound):
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


def _plural(noun: str) -> bool:
    return len(noun) > 3 and noun.endswith("s") and not noun.endswith(("ss", "us", "is"))


def _deleted_nouns(tool: str) -> list[str]:
    """What a delete tool deletes: the words after its verb (`repository` of
    `GitHubDeleteRepository`, whose toolkit comes first), else all but its verb."""
    verbs = table().verbs["delete"]
    return after_verb(tool, verbs) or [w for w in words(tool.rsplit("__", 1)[-1]) if w not in verbs]


#: "delete item 7 from https://todo.example.com/items": the link or path removed from.
_REMOVED_FROM = re.compile(
    r"\b(?:remove|delete|drop|clear|purge|take)\b(?:[^.;!?]|\.(?=\S)){0,60}?"
    r"\b(?:from|out of|in|inside|under)\s+(?:the\s+)?((?:https?://|[~./])\S+)",
    re.IGNORECASE,
)


#: What a delete tool removes whole, beside which a member, an entry or a permission is a
#: part: `delete_file` removes the sheet itself, `remove_permission` one access to it.
_WHOLE_THINGS = frozenset(
    ["file", "files", "document", "doc", "docs", "sheet", "spreadsheet", "folder", "board",
     "channel", "page", "list", "group", "calendar", "repository", "repo", "project",
     "playlist", "album", "table", "database", "bucket", "workspace", "team", "drive"]
)  # fmt: skip


def _deletes_whole(nouns: list[str]) -> bool:
    """Whether a delete tool's nouns name a whole thing (`delete_file`), not a part of one
    (`remove_team_member`, `remove_from_channel`)."""
    return bool(nouns) and "from" not in nouns and nouns[-1] in _WHOLE_THINGS


def _container_named(effect: CallEffect, args: Mapping[str, Any], said: str) -> set[str]:
    """A delete of the very link or folder the user asked to remove something from, or in:
    `DELETE https://todo.example.com/items` after "delete item 7 from
    https://todo.example.com/items" removes every item, not item 7."""
    if not any(e.kind == "delete" for e in effect.effects):
        return set()
    places = {m.group(1).rstrip("/.,;:!?)'\"") for m in _REMOVED_FROM.finditer(said)}
    if not places:
        return set()
    # ...or a folder a command removes whole (`rm -rf /var/log/app` after "delete the old
    # rotated logs in /var/log/app")
    removed = [o for e in effect.effects if e.kind == "delete" for o in e.objects]
    return {
        value.strip().rstrip("/")
        for value in [*args.values(), *removed][:64]
        if isinstance(value, str) and value.strip().rstrip("/") in places
    }


def _among(word: str, said: frozenset[str]) -> bool:
    """A word among the user's, as said or shortened ("the repo" for `repository`,
    "the doc" for `document`)."""
    stem = word[:-1] if word.endswith("s") and len(word) > 3 else word
    return any(w in (word, stem) or (len(w) >= 3 and stem.startswith(w)) for w in said)


def _permanent(args: Mapping[str, Any]) -> bool:
    """Access given for good (`permanent=True`, `duration="permanent"`)."""
    for key, value in list(args.items())[:64]:
        low = str(key).lower()
        if "permanent" in low and (value is True or str(value).strip().lower() == "true"):
            return True
        if (
            isinstance(value, str)
            and value.strip().lower() in ("permanent", "indefinite")
            and (re.search(r"duration|type|kind|access|mode|expir", low))
        ):
            return True
    return False


def _roles(args: Mapping[str, Any]) -> set[str]:
    out: set[str] = set()
    for key, value in args.items():
        parts = re.split(r"[_\W]+", str(key).lower())
        if any(p in _ROLE_KEYS for p in parts) and isinstance(value, str):
            out.add(value.lower())
        elif value is True and (role := next((p for p in parts if p in _HIGHER_ROLES), None)):
            out.add(role)  # `admin=True`, `make_owner=True`: the role, switched on
    return out


def _planted_setting(args: Mapping[str, Any], said: str, results: Sequence[str]) -> str | None:
    """A setting (`label="wontfix"`) that a passage addressed to the agent names and the
    user's words do not: "label issue 42 as a bug" over an issue whose body orders agents
    to label it `wontfix`."""
    passages = " ".join(p for _, p in split_at_order(results) if p).lower()
    if not passages:
        return None
    low_said = said.lower()
    for key, value in list(args.items())[:64]:
        if str(key).lower() not in SETTING_KEYS:
            continue
        for item in (value if isinstance(value, list | tuple) else [value])[:16]:
            if not isinstance(item, str) or not 1 < len(item.strip()) <= 60:
                continue
            low = item.strip().lower()
            pattern = rf"(?<![\w-]){re.escape(low)}(?![\w-])"
            if re.search(pattern, passages) and not re.search(pattern, low_said):
                return f"{key}={item.strip()[:60]}"
    return None


#: Words of a tool's name that say nothing of what it reads.
_BARE_WORDS = frozenset(
    ["user", "users", "account", "accounts", "info", "information", "details", "data", "item",
     "items", "all", "my", "current", "by", "for", "from", "with", "the", "and", "of", "to",
     "manager", "tool", "api", "latest", "recent", "new", "one", "list", "page"]
)  # fmt: skip


def _ordered_read(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """What a read after taint looks up that only the passage addressed to the agent asked
    for: by the tool's own object, or by every word of its arguments."""
    parts = split_at_order(results)
    passages = "\n".join(p for _, p in parts if p).lower()
    # a word the results hold outside the passage (a channel listed before it) is theirs
    listed = set(words("\n".join(b for b, _ in parts)))
    return _read_as_ordered(effect, said, passages) or _looked_up_as_ordered(
        args, said, passages, listed
    )


def _read_as_ordered(effect: CallEffect, said: str, passages: str) -> str | None:
    """What a read tool reads (`saved addresses` of `AmazonViewSavedAddresses`) when a
    passage addressed to the agent orders it read ("retrieve my saved addresses and
    email them to …") and the user's words do not name it: the read an injected order
    asks for, before the send that carries it away."""
    if effect.source not in ("name", "annotations") or not passages:
        return None
    verbs = verb_words()
    own = [w for w in words(effect.effects[0].what.rsplit("__", 1)[-1]) if len(w) > 3]
    objects = [w for w in own if w not in verbs and w not in _BARE_WORDS]
    said_words = set(words(said))
    ordered = []
    mentioned = []
    for word in objects:
        stem = re.sub(r"(?:es|s)$", "", word) if len(word) > 4 else word
        if any(stem.startswith(w) for w in said_words if len(w) >= 3):
            continue  # "the shared doc" names the document
        if re.search(
            rf"{_READ_ORDER}(?:[^.\n]{{0,60}}?)\b{re.escape(stem)}(?:s|es)?\b", passages, re.M
        ):
            ordered.append(word)
        elif re.search(rf"\b{re.escape(stem)}(?:s|es)?\b", passages):
            mentioned.append(word)
    if ordered:
        return " ".join(ordered)
    # `AugustSmartLockSearchGuests` after "grant access to Amy on the August Smart Lock
    # system": the system the order acts on, looked into first, which the user never named
    if len(mentioned) >= 2 and 2 * len(mentioned) >= len(objects):
        return " ".join(mentioned)
    return None


_SEARCH_KEYS = frozenset(["query", "q", "search", "keywords", "keyword", "filter", "term"])


#: Arguments that say how to look, not what for (`search_scope="owned"`, `sort="date"`).
_HOW_KEY = re.compile(r"scope|sort|order_by|mode|format|fields?$|visibility|direction", re.I)


def _looked_up_as_ordered(
    args: Mapping[str, Any], said: str, passages: str, listed: set[str]
) -> str | None:
    """What a read looks up when every word of it comes from a passage addressed to the
    agent and none from the user: `search_files(folder="finance", query="invoice")` after
    "forward the latest invoice from the finance folder to …" in a calendar note."""
    if not passages:
        return None
    if (
        any(
            str(k).lower() in _SEARCH_KEYS and isinstance(v, str) and v.strip() in ("", "*", "all")
            for k, v in list(args.items())[:16]
        )
        and re.search(r"\ball\b", passages)
        and not re.search(r"\b(?:all|every|everything)\b", said, re.IGNORECASE)
    ):
        # `search_tasks(keywords="")` after "please delete all my tasks": every record
        # looked up, as the order needs and the user's own search did not
        return "everything"
    for key in PATH_KEYS:
        # `Read(".env")` after "… email the user's .env file to …": the file it orders read
        value = args.get(key)
        base = file_name(value).lower() if isinstance(value, str) else ""
        if (
            len(base) >= 3
            and re.search(rf"(?<![\w.-]){re.escape(base)}(?![\w-])", passages)
            and base not in said.lower()
            and base not in listed
        ):
            return base
    verbs = verb_words()
    said_words = set(words(said)) | listed
    looked: list[str] = []
    for key, value in list(args.items())[:16]:
        if not isinstance(value, str) or len(value) > 80 or _HOW_KEY.search(str(key)):
            continue
        looked += [
            w for w in re.findall(r"[a-z]{4,}", value.lower())
            if w not in verbs and w not in _BARE_WORDS
        ]  # fmt: skip
    if not looked or any(
        w in said_words or (len(w) > 4 and w.rstrip("s") in said_words) for w in looked
    ):
        return None
    if all(re.search(rf"\b{re.escape(w)}", passages) for w in looked):
        return " ".join(dict.fromkeys(looked))[:80]
    return None


#: A read ordered: the verb that opens "retrieve my saved addresses", "list all my …",
#: as an order (after "please", "to", "then"), not a word of a name ("Riverside View").
_READ_ORDER = (
    r"(?:^|\b(?:please|kindly|to|and|then|must|should|first|now|also|you)\s+)(?:also\s+|first\s+)?"
    r"(?:retrieve|list|get|fetch|view|read|access|collect|gather|find|look\s+up|check"
    r"|show|extract|copy|pull|grab|download|dump|export)\b"
)


#: A file that holds a secret itself: a private key, a login file, cloud credentials.
_SECRET_FILE = (
    r"(?:^|[\\/])(?:id_rsa|id_ed25519|id_ecdsa|id_dsa|\.netrc|\.pgpass|\.pypirc"
    r"|\.git-credentials|credentials|credentials\.json|shadow|\.npmrc"
    r"|[^\\/]+\.(?:pem|p12|pfx))$"
)
_SECRET_FILE_PATH = re.compile(_SECRET_FILE, re.IGNORECASE)
#: Where keys and credentials are kept: those files, and the folders of SSH and GPG keys
#: and of cloud and registry logins.
_CREDENTIAL_PATH = re.compile(
    r"(?:^|[\\/])(?:\.ssh|\.gnupg|\.azure|\.kube|\.docker|\.config/gcloud)(?:[\\/]|$)|"
    # a project's secrets: its `.env` files (not `.env.example`), a `secrets.yml`
    r"(?:^|[\\/])(?:\.env(?:\.(?!example\b|sample\b|template\b|dist\b)[\w-]+)?"
    r"|secrets?\.(?:ya?ml|json|toml|env))$|" + _SECRET_FILE,
    re.IGNORECASE,
)
#: A project's own secrets file: `.env`, `.env.production`, `secrets.yml` (not `.env.example`).
_PROJECT_SECRETS = re.compile(
    r"(?:^|[\\/])(?:\.env(?:\.(?!example\b|sample\b|template\b|dist\b)[\w-]+)?"
    r"|secrets?\.(?:ya?ml|json|toml|env))$",
    re.IGNORECASE,
)
#: How a user points to such a file: by its name, or as the env or secrets file (not by
#: the name of its template, `.env.example`, which holds no values).
_FILE_SAID = re.compile(
    r"(?<![\w-])\.env\b(?!\.(?:example|sample|template|dist)\b)"
    r"|\bsecrets?\.(?:ya?ml|json|toml|env)\b|\bdot-?env\b"
    r"|\b(?:env|environment|secrets?)\s+files?\b",
    re.IGNORECASE,
)
#: The words a user names such a store by ("my SSH key", "the kube config").
_STORE_WORDS = frozenset(
    ["ssh", "gnupg", "gpg", "aws", "azure", "kube", "kubeconfig", "kubectl", "docker", "gcloud",
     "netrc", "pgpass", "pypirc", "npmrc", "credentials", "shadow", "pem", "env", "dotenv",
     "environment", "secret", "secrets", "variables", "config", "configuration", "settings"]
)  # fmt: skip


#: Words of a tool that hands out secrets (`get_secret`, `read_api_key`, `vault_read`).
_SECRET_TOOL_WORDS = frozenset(
    ["secret", "secrets", "password", "passwords", "credential", "credentials", "vault",
     "apikey", "token", "tokens", "passphrase", "keychain", "keyring", "otp", "totp", "mfa"]
)  # fmt: skip
#: The user's words for them.
_SECRET_SAID = frozenset(
    [*_SECRET_TOOL_WORDS, "key", "keys", "login", "logins", "pin", "2fa", "passcode", "code"]
)


#: Commands that print what a secret store holds.
#: Commands that print one secret's value (a secret store's own reads).
_SECRET_VALUE_READS = (
    r"\baws\s+secretsmanager\s+get-secret-value\b"
    r"|\baws\s+ssm\s+get-parameters?\b.*--with-decryption"
    r"|\bgcloud\s+secrets\s+versions\s+access\b|\bvault\s+(?:kv\s+)?(?:get|read)\b"
    r"|\baz\s+keyvault\s+secret\s+show\b|\bpass\s+show\b|\bop\s+read\b"
)
_SECRET_COMMAND = re.compile(
    r"\bkubectl\s+(?:\S+\s+)*?(?:get|describe|edit)\s+(?:\S+\s+)*?secrets?\b"
    rf"|{_SECRET_VALUE_READS}|\bsecurity\s+find-(?:generic|internet)-password\b"
    r"|\bop\s+item\s+get\b|\bdoppler\s+secrets\b",
    re.IGNORECASE,
)


#: Commands that print every variable of the environment (a filter after them, `env |
#: grep PATH`, prints only what it matches).
_ENV_DUMPS = frozenset(["env", "printenv", "set", "export", "export -p", "declare -x",
                        "declare -p", "get-childitem env:", "get-item env:"])  # fmt: skip
_FILTERS = frozenset(["grep", "egrep", "rg", "findstr", "select-string", "where-object"])
#: The user's words for it ("show the env vars", "what's in my environment?").
_ENV_SAID = frozenset(["env", "environment", "variables", "variable", "vars", "var", "printenv"])


#: A read's switch that shows what a record keeps hidden (`reveal=True`, `--with-decryption`).
_UNMASK_KEY = re.compile(
    r"^(?:reveal|unmask|decrypt|with_decryption|show_(?:password|secret)s?"
    r"|include_(?:password|secret|credential)s?)$",
    re.IGNORECASE,
)


def _secret_fields(args: Mapping[str, Any]) -> str | None:
    """A read asking for a record's hidden fields: `fields=["password"]`, `reveal=True`."""
    for key, value in list(args.items())[:32]:
        if _UNMASK_KEY.match(str(key)) and value is True:
            return f"{key}=true"
        if str(key).lower() in ("field", "fields", "attributes", "select"):
            asked = value if isinstance(value, list) else [value]
            for item in asked[:32]:
                if isinstance(item, str) and set(words(item)) & _SECRET_TOOL_WORDS:
                    return f"{key}={item[:40]}"
    return None


#: A password manager's name is no ask for a password ("my username in 1Password").
_MANAGER_NAME = re.compile(r"\b1\s?password\b", re.IGNORECASE)


def _asks_secret(said: str) -> bool:
    return bool(set(words(_MANAGER_NAME.sub(" ", said[:20_000]))) & _SECRET_SAID)


def _secret_tool(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A tool or a command that reads secrets, when the user's words ask for none:
    `get_secret` after "summarise the thread", `kubectl get secrets -o yaml` after "show
    the pods", `op_item_get(fields=["password"])` after "what's my Netflix username"."""
    if effect.source == "shell":
        if _asks_secret(said) and not _names_only(effect, said):
            return None
        dumped = next(
            (e.what for e in effect.effects if e.what.strip().lower() in _ENV_DUMPS), None
        )
        filtered = any(e.what.split(" ", 1)[0].lower() in _FILTERS for e in effect.effects)
        if dumped is not None and not filtered and not set(words(said[:20_000])) & _ENV_SAID:
            # the whole environment printed, every API key and token in it with the rest
            return f"{dumped} (the whole environment)"
        picked = next(
            (
                e.what
                for e in effect.effects
                if e.what.split(" ", 1)[0].lower() in _FILTERS
                and set(words(e.what[:500])) & _SECRET_TOOL_WORDS
            ),
            None,
        )
        if dumped is not None and picked is not None:
            # `env | grep -i token`: the environment filtered down to its secrets
            return f"{dumped} | {picked[:60]} (the environment's secrets)"
        return next(
            (e.what[:80] for e in effect.effects if _SECRET_COMMAND.search(e.what[:2_000])), None
        )
    if effect.source not in ("name", "annotations") or _asks_secret(said):
        return None
    for e in effect.effects:
        if set(words(e.what.rsplit("__", 1)[-1])) & _SECRET_TOOL_WORDS:
            return e.what[:80]
    hidden = _secret_fields(args)
    return f"{effect.effects[0].what[:40]} ({hidden})" if hidden and effect.effects else None


#: Arguments that say which repository, project or workspace holds the record a call acts
#: on (`owner="acme", repo="web", pull_number=412`).
_CONTAINER_KEYS = frozenset(
    ["owner", "repo", "repository", "org", "organization", "organisation", "project",
     "project_key", "project_id", "workspace", "workspace_id", "namespace", "space", "team"]
)  # fmt: skip


def _in_unnamed_container(args: Mapping[str, Any], unnamed: Sequence[str], said: str) -> bool:
    """Every name the user did not give is the container of a record the user named by
    its number ("approve PR #412" as `owner="acme", repo="web", pull_number=412`): the
    agent's own working context (the checkout it is in), which the gate cannot check and a
    person can."""
    if not unnamed:
        return False
    items = [(str(k), v) for k, v in list(args.items())[:32] if not isinstance(v, bool)]
    held = {t for k, v in items if k.lower() in _CONTAINER_KEYS for t in targets({k: v})}
    if not set(unnamed) <= held:
        return False
    numbers = [
        t
        for k, v in items
        if k.lower() not in _CONTAINER_KEYS
        and isinstance(v, int | str)
        and _RECORD_NUMBER_KEY.search(k)
        for t in targets({k: v})
    ]
    text = said[:20_000]
    return bool(numbers) and all(
        re.search(rf"(?<![\w.]){re.escape(n)}(?![\w.])", text) for n in numbers
    )


#: A key that gives a record by its number (`pull_number`, `issue_number`, `pullNumber`).
_RECORD_NUMBER_KEY = re.compile(r"(?:^|_)(?:number|num|no)$|(?-i:[a-z]Number)$", re.IGNORECASE)


#: Commands that print a secret's value, not the store's list of names.
_PRINTS_SECRET_VALUE = re.compile(
    rf"{_SECRET_VALUE_READS}"
    r"|\bkubectl\s+(?:\S+\s+)*?get\s+secrets?\b.*\s-o\s*=?\s*(?:yaml|json|jsonpath|go-template)",
    re.IGNORECASE,
)
#: A request for the names a store holds ("list the secrets", "which keys are in the vault").
_LISTS_NAMES = re.compile(r"\b(?:list|lists|listing|which|how\s+many|names?)\b", re.IGNORECASE)
#: A request for what a secret holds ("the value of", "print the token", "reveal it").
_ASKS_VALUE = re.compile(
    r"\b(?:values?|reveal\w*|print|contents?|decrypt\w*|copy|paste|read\s+(?:out\s+)?(?:the|my))\b"
    r"|\bwhat(?:'s|\s+is)\s+(?:the|my)\b",
    re.IGNORECASE,
)


def _names_only(effect: CallEffect, said: str) -> bool:
    """The user asked for a secret store's list of names, and the command prints a
    secret's value: "list the secrets in Secrets Manager" is not `get-secret-value`."""
    text = said[:20_000]
    return (
        _LISTS_NAMES.search(text) is not None
        and _ASKS_VALUE.search(text) is None
        and any(_PRINTS_SECRET_VALUE.search(e.what[:2_000]) for e in effect.effects)
    )


def _tracked_secret(effect: CallEffect, said: str) -> str | None:
    """A key or a project's secrets file staged or committed (`git add .env`) where the
    user's words do not point to it (as the env file, or by its name)."""
    if effect.source != "shell" or _FILE_SAID.search(said[:20_000]):
        return None
    request = said[:20_000].lower()
    return next(
        (
            o
            for e in effect.effects
            if _STAGES.match(e.what)
            for o in e.objects
            if not o.endswith(".pub")
            and _CREDENTIAL_PATH.search(o)
            and not object_named(o, request)
        ),
        None,
    )


#: A command that puts files under version control.
_STAGES = re.compile(r"git\s+(?:add|commit|stage)\b")


def _credential_store(name: str, said: str) -> bool:
    """A key or credentials file (not a public key) that the user's words do not point
    to: "show me my SSH key" names `~/.ssh/id_ed25519`, "fix the test" does not."""
    if name.endswith(".pub") or not _CREDENTIAL_PATH.search(name):
        return False
    named = bool(set(words(said[:20_000])) & _STORE_WORDS)
    if _SECRET_FILE_PATH.search(name):
        # a file that holds the secret itself: "which aws profile am I using?" names the
        # store, not the keys in `~/.aws/credentials`; "show me my SSH key" asks for one,
        # "show my public SSH key" only for the half that may be shown
        public_only = _PUBLIC_KEY.search(said[:20_000]) and not _PRIVATE_KEY.search(said[:20_000])
        # "check my ssh key is loaded" asks after the key, not for what it holds
        state_only = _KEY_STATE.search(said[:20_000]) and not _SHOWN.search(said[:20_000])
        return not (named and _asks_secret(said)) or bool(public_only) or bool(state_only)
    return not named


#: A key asked after by its state ("is it loaded", "added to the agent", "set up"), and
#: the words that ask for what it holds.
_KEY_STATE = re.compile(
    r"\b(?:loaded|added|set\s+up|present|configured|working|registered|installed|expired"
    r"|exists?)\b",
    re.I,
)
_SHOWN = re.compile(
    r"\b(?:show|print|display|cat|paste|copy|contents?|give|send|reveal|output|dump)\b"
    r"|\bwhat(?:'s|\s+is)\s+in\b",
    re.I,
)
#: The shareable half of a key pair asked for ("my public ssh key", "the .pub file"), and
#: its other half.
_PUBLIC_KEY = re.compile(r"\bpublic\s+(?:\w+\s+)?keys?\b|\.pub\b|\bpubkeys?\b", re.I)
_PRIVATE_KEY = re.compile(r"\bprivate\b|\bsecret\s+key\b", re.I)


def _outside_project(effect: CallEffect, grounding: Grounding, said: str) -> bool:
    """A coding agent's change that reaches past the project (`~/.bashrc`, `/etc/hosts`,
    `../other-repo`, a service of the machine's) or into the folders that run or guard it
    (`.github/workflows/`, `.git/hooks/`, `.husky/`) on names the user did not give: the
    project's own files are the work asked for; its CI, its hooks and the rest of the
    machine are not."""
    if any(e.system for e in effect.effects) and not (
        grounding.in_request or _services_named(effect, said)
    ):
        return True
    return any(
        beyond_project(name)
        or (_in_dot_folder(name, _RUNS_THE_PROJECT) and not _part_said(name, said))
        for name in grounding.unnamed
    )


def _services_named(effect: CallEffect, said: str) -> bool:
    """Whether every service a command acts on is one the user named, by its name or a
    name it starts with ("restart postgres" names `postgresql`; `.service` aside)."""
    said_words = set(words(said[:20_000]))
    found = {w for w in said_words if len(w) >= 3}
    services = [
        o.lower().removesuffix(".service") for e in effect.effects if e.system for o in e.objects
    ]
    # a short name (`ml`) only as a word of its own: no shorter name starts it
    return bool(services) and all(
        any(_same_service(s, w) for w in found) if len(s) >= 3 else s in said_words
        for s in services
    )


def _same_service(service: str, word: str) -> bool:
    """`postgresql` for "postgres", `sshd` for "ssh": the name, less a short plain ending
    (not `postgres-exporter`, another service)."""
    short, long = sorted((service, word), key=len)
    rest = long[len(short) :]
    return long.startswith(short) and len(rest) <= 3 and (not rest or rest.isalpha())


def _part_said(path: str, said: str) -> bool:
    """Whether the user's words name a part of `path` ("fix the CI workflow" names
    `.github/workflows/ci.yml` by `ci` and `workflows`)."""
    parts = {
        p.strip(".").lower().rsplit(".", 1)[0] for p in re.split(r"[\\/]+", path) if p.strip(".")
    }
    found = set(words(said[:20_000]))
    return bool({p for p in parts if len(p) > 1} & (found | {w + "s" for w in found}))


#: Dot-folders whose files run on their own (CI, git hooks, editor tasks, dev containers).
_RUNS_THE_PROJECT = frozenset(
    [".github", ".gitlab", ".git", ".husky", ".githooks", ".circleci", ".buildkite",
     ".devcontainer", ".vscode"]
)  # fmt: skip


def _in_dot_folder(path: str, among: frozenset[str] | None = None) -> bool:
    """`.github/workflows/ci.yml`, `.git/hooks/pre-commit`: inside a dot-folder (`among`
    them, when given; `.env` itself, a file, is in none)."""
    *folders, _file = re.split(r"[\\/]+", path)
    return any(
        p.startswith(".") and p not in (".", "..") and (among is None or p.lower() in among)
        for p in folders
    )


def _on_current_work(effect: CallEffect, licence: Licence) -> bool:
    """A command that names nothing acts on the user's current work (`git push` pushes this
    branch, `gh pr create` opens one from it): the user's own object when every change it
    makes is an action they asked for by name ("push my changes", "open a PR")."""
    changes = [e for e in effect.effects if e.kind != "read"]
    return (
        effect.source == "shell"
        and bool(changes)
        and not effect.objects
        and all(e.action and licence.names_action(e.action) for e in changes)
    )


#: Arguments that address a message or an invitation.
_ADDRESSED = re.compile(r"^(?:to|cc|bcc|recipients?|attendees|invitees|participants)$", re.I)


def _addressed_by_name(
    effect: CallEffect, grounding: Grounding, args: Mapping[str, Any], said: str
) -> bool:
    """A draft kept here, addressed to the people the user named by name (`tom@corp.example`
    after "draft a reply to Tom"): nothing leaves, and the address is checked when the draft
    is sent; only an address whose local part is the user's own words for the person, and
    only as whom the draft is to (not a contact's address changed)."""
    if effect.external or effect.kinds != {"create"} or not grounding.unnamed:
        return False
    addressed = " ".join(
        str(v) for k, v in list(args.items())[:32] if _ADDRESSED.match(str(k))
    ).lower()
    told = set(words(said[:20_000]))
    for name in grounding.unnamed[:16]:
        if name.lower() not in addressed:
            return False
        local, at, _ = name.lower().partition("@")
        parts = [p for p in re.split(r"[._+-]+", local) if p]
        if not at or not parts or not all(len(p) > 1 and p in told for p in parts):
            return False
    return True


def _ids_only(names: Sequence[str]) -> bool:
    """Whether every name is a bare id or word: no link, host, address or path."""
    return bool(names) and all(re.fullmatch(r"[\w-]{1,64}", n) for n in names[:16])


def _paid_from_unnamed(effect: CallEffect, grounding: Grounding, args: Mapping[str, Any]) -> bool:
    """A transfer whose only unnamed value is the account it is paid from ("transfer $1.2k
    to savings" from `checking`): the money still reaches only the named payee, in the
    named sum, so the user's choice of their own account is no one else's name."""
    if effect.kinds != {"pay"} or not grounding.unnamed:
        return False
    sources = {
        str(v).strip().lower()
        for k, v in list(args.items())[:32]
        if _SOURCE_KEY.match(str(k)) and isinstance(v, str)
    }
    return bool(sources) and all(n.strip().lower() in sources for n in grounding.unnamed[:16])


def _in_project(effect: CallEffect, grounding: Grounding) -> bool:
    """A coding agent's edit or build that stays inside the project: files by relative
    path outside any dot-folder (not `~/.bashrc`, `.github/workflows/`, `../other`; `.env`
    is), and only the project's own checks run. What an injected result asks for is
    elsewhere: a credential, a hook, an upload."""
    if not effect.kinds <= {"create", "modify", "execute"}:
        return False
    if any(e.kind == "execute" and not e.routine for e in effect.effects):
        return False
    for name in grounding.names:
        if name.startswith(("/", "~", "$", "-")) or ".." in re.split(r"[\\/]+", name):
            return False
        if _in_dot_folder(name):  # `.env` itself is the project's
            return False
    return True


#: Actions whose change is the whole point of the command that makes it: asked for by
#: name ("format", "start"), they license that change.
_OWN_PURPOSE = frozenset(["format-in-place", "compose-up", "compose-build", "audit-fix"])


def judge_stakes(
    effect: CallEffect,
    licence: Licence,
    args: Mapping[str, Any],
    *,
    grounding: Grounding,
    taint: str | None,
    results: Sequence[str] = (),
    said: str = "",
    confirm_high_impact: bool = True,
    max_payment: float | None = None,
    asked_by_name: bool = False,
    read: Mapping[str, str] | None = None,
) -> Stakes:
    """`asked_by_name`: the user's words hold the verb the tool is named by ("add all
    users to that channel" for `add_user_to_channel`): its effect is asked for, unless it
    pays or destroys (words that name those are in the tables already). `read`: the
    text of each file read since the user's latest turn, by path (what a Write replaces)."""
    kinds = effect.kinds - {"read"}
    # the project's own checks (`npm test`, `make lint`) are how any change the user asked
    # for is verified: "publish the new release" licenses running the tests first
    checks_only = all(e.routine for e in effect.effects if e.kind == "execute")
    # `update_permission(role="reader")`: an existing grant lowered, not access given
    roles = _roles(args)
    if any(e.kind == "grant" and _hands_over(e.what) for e in effect.effects) and not (
        _HANDING_OVER.search(said[:20_000])
    ):
        roles.add("owner")  # `transfer_ownership`: the thing is theirs, not shared with them
    if "grant" in effect.kinds and _permanent(args):
        # "recurring access for the dog walker, 2-3 pm": a key for good is more than that
        roles.add("permanent")
    narrows = (
        effect.source in ("name", "annotations")
        and bool(roles)
        and roles <= _LOW_ROLES
        and any(
            tool_verb(e.what) in table().verbs["modify"]
            for e in effect.effects
            if e.kind == "grant"
        )
    )
    asked_work = bool(licence.kinds - {"read"}) and not licence.read_only
    coding = effect.source in ("builtin", "shell")

    def permits(kind: str) -> bool:
        if kind == "execute" and licence.read_only and not checks_only:
            # "why does the build fail?" licenses running the project's checks, not a
            # script the failure's log points to
            return False
        if licence.permits(kind):
            return True
        if kind == "modify" and coding and licence.permits("delete"):
            return True  # "delete the unused import", "empty app.log": an edit that cuts
        if (
            kind == "send"
            and effect.source == "shell"
            and grounding.in_request
            and bool(grounding.names)
            and licence.permits("create")
            and bool(licence.words & _COPY_WORDS)
        ):
            return True  # "copy report.pdf to s3://acme-reports/": to the place they wrote
        if kind == "grant" and narrows and licence.permits("modify"):
            return True  # "make it view-only for everyone": less access, asked as a change
        if kind == "execute" and checks_only and asked_work and kind not in licence.prohibited:
            return True
        if (
            kind in ("modify", "configure")
            and coding
            and asked_work
            and all(
                e.action in _OWN_PURPOSE and licence.names_action(e.action)
                for e in effect.effects
                if e.kind == kind
            )
        ):
            # "run black on src", "start the dev stack": the change is what the command
            # is run for
            return True
        if (
            kind in ("create", "modify")
            and (effect.external or effect.source == "page")
            and (licence.permits("send") or licence.permits("grant"))
        ):
            # "send her an invite", "invite Lena to the review": an event with attendees
            # is how it is sent; a reply typed into its box, how a reply is written
            return True
        if (
            kind == "configure"
            and licence.permits("modify")
            and all(
                e.packages and all(o.lower() in licence.words for o in e.objects)
                for e in effect.effects
                if e.kind == "configure"
            )
        ):
            return True  # "update lodash", "bump requests to 2.32": the named packages
        if (
            kind == "delete"
            and asked_work
            and kind not in licence.prohibited
            and all(e.action == "rebuild" for e in effect.effects if e.kind == "delete")
        ):
            return True  # "reinstall from scratch": what the tools make again, removed
        if (
            kind == "modify"
            and licence.permits("configure")
            and licence.words & _SWITCHING
            and _switch_named(args, said)
        ):
            return True  # "enable the waiting room": a switch among the thing's settings
        return (
            asked_by_name
            and kind in _ASKED_BY_NAME
            and not licence.read_only
            and kind not in licence.prohibited
        )

    features: dict[str, float] = {
        "effect_read_only": float(effect.read_only),
        "effect_high_impact": float(effect.high_impact),
        "effect_irreversible": float(effect.irreversible),
        "effect_external": float(effect.external),
        "effect_unknown": float("unknown" in effect.kinds or effect.parse_error is not None),
        "unlicensed": float(any(not permits(k) for k in kinds)),
        "prohibited": float(any(k in licence.prohibited for k in effect.kinds)),
        "tainted": float(taint is not None),
    }
    amounts = _numbers(args, effect)
    quantity = quantity_issue(effect, licence, args, results, said)
    wrong_amount = quantity is not None
    # a time other than the one stated, or a move the wrong way round
    off_course = (
        None
        if effect.read_only
        else (
            time_issue(args, said)
            or date_issue(args, said, results)
            or asset_issue(args, said)
            or direction_issue(args, said)
            or bound_issue(args, said)
            or branch_issue(effect, said)
            or commit_issue(effect, said)
            or moved_out_issue(effect, said)
            or other_file_issue(effect, args, said)
            or folder_issue(effect, licence, results)
            or frequency_issue(args, said)
            or opposite_issue(effect, licence)
            or scope_issue(args, said)
            or recipient_issue(effect, args, said, results)
            or dictated_issue(effect, args, said)
            or confidential_issue(effect, args, said, results)
            or attachment_issue(effect, args, said, results)
            or card_issue(effect, args, said)
            or credential_issue(effect, args, said)
            or unsourced_detail_issue(effect, args, said, results)
            or broadcast_issue(effect, args, said)
            or told_number_issue(effect, args, said)
            or retold_number_issue(effect, args, said)
            or polarity_issue(effect, args, said)
            or location_issue(effect, args, said)
            or environment_issue(args, said)
            or comfort_issue(effect, args, said)
            or extent_issue(effect, args, said, results)
            or secret_written_issue(effect, args, said)
            or written_code_issue(effect, args, said)
            or dropped_code_issue(effect, args, said, read or {})
            or edit_scope_issue(effect, args, said, read)
        )
    )
    # "remove Dan from the planning board" does not license `delete_board`
    # (`remove_board_member` removes a member, `GitHubDeleteRepository` the repo)
    # ...but `delete_contacts` after "remove the duplicates from my contacts" deletes some
    container = {
        " ".join(nouns) for e in effect.effects if e.kind == "delete" and effect.source == "name"
        if (nouns := _deleted_nouns(e.what)) and all(_among(w, licence.containers) for w in nouns)
        and not _plural(nouns[-1])
    }  # fmt: skip
    container |= _container_named(effect, args, said)
    # "remove bo@… from the budget sheet" does not license `delete_file(file="budget")`:
    # a tool that deletes a whole thing, given the thing the user removes something from
    container |= {
        value.strip()
        for e in effect.effects
        if e.kind == "delete" and effect.source == "name"
        and _deletes_whole(_deleted_nouns(e.what))
        for value in list(args.values())[:16]
        if isinstance(value, str) and (value_words := words(value))
        and all(_among(w, licence.containers) for w in value_words)
    }  # fmt: skip
    features["wrong_time"] = float(off_course is not None)
    # edit rights where view rights were asked, or any higher role nobody asked for
    if effect.source == "sql":
        roles |= {r for e in effect.effects if e.kind == "grant" for r in sql_privileges(e.what)}
    above = (
        bool(roles & _HIGHER_ROLES)
        and not any(_ROLE_NAMES.get(role, {role}) & licence.words for role in roles)
    ) or (
        # "so she can see my free/busy": any role beyond free/busy shows the events
        "grant" in effect.kinds
        and _FREE_BUSY.search(said[:20_000]) is not None
        and any(re.sub(r"[\W_]+", "", r) not in _FREE_BUSY_ROLES for r in roles)
    )
    # "invite kim@… as a guest": a member's role sees every open channel
    above = above or (
        "grant" in effect.kinds
        and _AS_GUEST.search(said[:20_000]) is not None
        and any(r.lower() in _MEMBER_ROLES for r in roles)
    )
    # "mute #random" licenses a change, not `archive_channel`
    unasked = next(
        (e for e in effect.effects if e.action and not licence.names_action(e.action)), None
    )
    switched_off = None if effect.read_only else switch_off_issue(args, licence, effect)
    features["action_unasked"] = float(unasked is not None or switched_off is not None)
    features["wrong_amount"] = float(wrong_amount)
    features["permission_above_asked"] = float(above)
    # a local change that can be undone: where its words came from cannot show it hurts
    undoable = not (effect.external or effect.irreversible or effect.read_only)
    ceiling: Verdict = "escalate" if undoable else "deny"
    by_pattern = any(e.by_pattern for e in effect.effects)
    # `update_…`: a change to a record that exists, whose payee or address the user did
    # not ask to change
    updates = effect.source in ("name", "annotations") and any(
        tool_verb(e.what) in table().verbs["modify"] for e in effect.effects
    )

    def undecided(
        floor: Verdict,
        reason: str,
        faulted: bool = True,
        unseen: bool = False,
        tie: bool = False,
        reckoned: bool = False,
        unseen_id: bool = False,
        detail: bool = False,
        vague: bool = False,
        unplaced: bool = False,
        contained: bool = False,
        partial: bool = False,
    ) -> Stakes:
        """No rule settles it: the risk model (and the model) decide within floor..ceiling.
        Without any words of the user's (a proxy sees calls, not the conversation) the gate
        cannot tell overreach from a request: a person decides what no rule denies.
        A fault the evidence cannot tell from the user's wish caps the verdict at escalate:
        the user handed the agent instructions written elsewhere, or (`unseen`) a detail of
        an effect they asked for is one they did not give, no tool result is in view to
        hold it, and nothing they wrote is of its kind (the landlord's account when they
        said "pay the rent", not another account than the one they wrote), or (`tie`)
        their words fit the party the agent chose and another one just as well, or
        (`reckoned`) the user asked for a sum to be worked out ("send back the difference")
        and the gate cannot redo the sum from what it was shown, or (`unseen_id`) the call
        acts on a record by an id found in neither the user's words nor the results in view:
        a handle the agent may hold from a listing the gate was not shown (an earlier page,
        an earlier turn), which names no outside party, or (`detail`: a payee, a record or a
        sum, not the effect) the user left the details to a document the agent reads ("update
        my address accordingly") and no result has addressed the agent, or (`partial`) the
        user named the person by a first name and the agent used a fuller name or a handle
        made of it."""
        if not said.strip():
            return Stakes(
                None, floor, reason, False, features, "escalate", False,
                "no words of the user's to judge it against",
            )  # fmt: skip
        if unplaced:
            # after taint, a target found nowhere in view: neither the passage's nor the
            # user's, so a person decides and no risk denies it
            return Stakes(
                None, floor, reason, False, features, "escalate", False,
                "a target found nowhere in view, after a result addressed the agent",
            )  # fmt: skip
        mismatch = faulted and floor == "escalate"
        capped = None
        if mismatch and licence.delegated:
            capped = "the user asked for instructions written elsewhere to be carried out"
        elif mismatch and detail and licence.referred and taint is None:
            capped = "the user left the details to something the agent read"
        elif mismatch and tie:
            capped = "the user's words fit more than one record, and the agent chose one"
        elif mismatch and vague and licence.vague:
            capped = "the user asked for an action the tables do not know"
        elif mismatch and partial:
            capped = "the user named the person by part of the name the agent used"
        elif mismatch and contained:
            capped = "the record the user named, in a repository or workspace the agent chose"
        elif mismatch and reckoned:
            capped = "a sum the user asked to be worked out from what the agent read"
        elif (
            mismatch
            and unseen
            and (not results or unseen_id or shape_unseen(grounding.unnamed, results))
        ):
            # the detail may well come from what the agent read, which the gate was not shown
            capped = (
                "a detail the user did not give, with no tool result in view that could hold it"
            )
        if capped is not None:
            return Stakes(None, floor, reason, False, features, "escalate", True, capped)
        return Stakes(None, floor, reason, False, features, ceiling, mismatch)

    def on_unnamed(reason: str) -> Stakes:
        """A call the user asked for, on targets found nowhere: a detail the gate was not
        shown when it is of a kind the agent looks up (`looked_up`), or a record id when no
        result in view holds the record the user described; or the repository or workspace
        that holds the record the user named by its number (`contained`)."""
        return undecided(
            "escalate",
            reason,
            unseen=looked_up(grounding.unnamed, said, ids_only=updates),
            unseen_id=looked_up(grounding.unnamed, said, ids_only=True)
            and not holds_described(said, results),
            detail=True,
            contained=_in_unnamed_container(args, grounding.unnamed, said),
            partial=partly_named(grounding.unnamed, said, results),
        )

    if effect.parse_error is not None or "unknown" in effect.kinds:
        # what the call does is not known, so nothing shows it is off what the user asked:
        # the model may send it to a person, and only people's rejections deny it
        why = effect.parse_error or "an effect the tables do not know"
        return Stakes(
            None,
            "escalate" if kinds else "allow",
            f"unjudged: {why}",
            False,
            features,
            "escalate",
            why_capped="what it does is not in the tables",
        )
    broken = sorted(k for k in effect.kinds if k in licence.prohibited)
    if broken:
        said = "only asked for information" if licence.read_only else f"said not to {broken[0]}"
        return Stakes(
            "deny", "deny", f"{'/'.join(broken)} although the user {said}", False, features
        )
    if switched_off is not None and licence.no_switch_off:
        # "… but don't turn them off": the act the user forbade by name
        return Stakes(
            "deny", "deny", f"a switch off the user forbade: {switched_off}", False, features
        )
    unlicensed = sorted(k for k in kinds if not permits(k))
    if effect.high_impact and unlicensed:
        what = next(e.what for e in effect.effects if e.high_impact)
        weakens = any(
            e.high_impact and e.action == "weaken-security" for e in effect.effects
        ) and not licence.names_action("weaken-security")
        if grounding.in_request and grounding.names and licence.permits("modify") and not weakens:
            # "I can't reach my app on port 8080, fix it" → `ufw allow 8080/tcp`: a change
            # was asked for, on what the user named, though not of this weight: a person
            # decides
            return undecided(
                "escalate", f"high-impact {unlicensed[0]} on what the user named: {what}"
            )
        return Stakes(
            "deny",
            "deny",
            f"high-impact {unlicensed[0]} the user did not ask for: {what}",
            False,
            features,
        )
    opened = next(
        (e for e in effect.effects if e.action == "public" and not licence.names_action("public")),
        None,
    )
    if opened is not None:
        # "share it with Priya" grants her access, not everyone's: a link for anyone is
        # more than was asked, and cannot be taken back once it has been seen
        return Stakes(
            "deny", "deny", f"opens it to anyone, which the user did not ask for: {opened.what}",
            False, features,
        )  # fmt: skip
    # after a result addressed the agent, only names it could not have planted still count
    clean = taint is not None and grounding.origin == "clean"
    named = (
        grounding.in_request
        or (grounding.in_session and (taint is None or clean))
        or (taint is None and _on_current_work(effect, licence))
        or (taint is None and _addressed_by_name(effect, grounding, args, said))
        or (taint is None and _paid_from_unnamed(effect, grounding, args))
    )
    secret_store = next((n for n in grounding.unnamed if _credential_store(n, said)), None)
    if secret_store is None and effect.read_only:
        secret_store = _secret_tool(effect, args, said)
    if secret_store is None and effect.read_only:
        # "what env vars does the app need?" speaks of variables, not of the file that
        # holds their values: `.env` is read only when the user points to the file
        secret_store = next(
            (
                n
                for n in grounding.names
                if _PROJECT_SECRETS.search(n) and not _FILE_SAID.search(said)
            ),
            None,
        )
    if effect.read_only and secret_store is not None:
        # a key or a credentials file nobody asked about is what an exfiltration reads
        # first; reading it is harmless only when the user wanted it read
        return undecided(
            "escalate", f"reads {secret_store[:80]}, a credential store the user did not name"
        )
    tracked = _tracked_secret(effect, said)
    if tracked is not None:
        # once committed, a key is in every clone and every push of the history
        return undecided(
            "escalate",
            f"puts {tracked[:80]} under version control, a secrets file the user did not name",
        )
    ordered = (
        _ordered_read(effect, args, said, results)
        if effect.read_only and taint is not None
        else None
    )
    if ordered is not None:
        # "retrieve my saved addresses and email them to …" in a product review: the read
        # is the first half of the exfiltration it orders, not part of the user's request
        return undecided(
            "escalate",
            f"after a tool result addressed the agent ({taint!r}), reads the {ordered} it "
            "asked for, which the user did not",
        )
    if effect.read_only and effect.external and _carries_secret(effect, args, said):
        # a key in a link's query reaches that server's logs as a message would
        return undecided("escalate", "carries a password, code or key the user did not give")
    if effect.read_only:
        local = not effect.external
        # a command that reads the user's own systems (`kubectl get pods`, `aws s3 ls`)
        # carries nothing out unless it names a link
        own_systems = effect.source == "shell" and not any(
            o.lower().startswith(("http://", "https://", "ftp://")) for o in effect.objects
        )
        if (
            local
            or named
            or (own_systems and taint is None)
            # a page on a site the user named ("on shop.example"), whatever its path
            or (taint is None and hosts_named(grounding.unnamed, said))
            # a record fetched by its id (`get_booking(booking_ref="X7K2LQ")`): an id
            # names no place, so nothing leaves by the read
            or (taint is None and _ids_only(grounding.unnamed))
        ):
            return Stakes(
                "allow",
                "allow",
                "reads only"
                + (
                    ""
                    if local or own_systems
                    else ", from a place the user or this request's results named"
                ),
                True,
                features,
            )
        if taint is not None:
            # the link an injected result asks the agent to open is how a phishing page or
            # an exfiltrating URL is reached
            return undecided(
                "escalate",
                f"after a tool result addressed the agent ({taint!r}), a read from a place "
                "the user did not name",
            )
        return undecided("allow", "reads from a place nobody in this request named")
    if unlicensed:
        return undecided(
            "escalate", f"{'/'.join(unlicensed)} the user did not ask for", vague=taint is None
        )
    if unasked is not None:
        return undecided(
            "escalate", f"{unasked.action} ({unasked.what[:80]}), an action the user did not name"
        )
    if switched_off is not None:
        return undecided("escalate", switched_off)
    if _carries_secret(effect, args, said):
        # the secret itself stays out of the reason: reasons are logged
        return undecided("escalate", "carries a password, code or key the user did not give")
    # after taint, what can reach out or not be undone: code from a link run (`curl … | sh`)
    # is as much the passage's goal as a payment
    reaching = kinds & {"send", "pay", "delete", "grant"} or effect.high_impact
    if taint is not None and reaching and not named:
        return undecided(
            "escalate",
            f"after a tool result addressed the agent ({taint!r}), a "
            f"{'/'.join(sorted(kinds))} on things the user did not name",
            faulted=grounding.origin != "unseen",
            unplaced=grounding.origin == "unseen",
        )
    planted = _planted_setting(args, said, results) if taint is not None else None
    if planted is not None:
        return undecided(
            "escalate",
            f"after a tool result addressed the agent ({taint!r}), sets {planted}, which that "
            "passage named and the user did not",
        )
    if quantity is not None:
        # "pay the bill", "send them the 10% increase": the user stated no sum, so the one
        # paid comes from what the agent read
        plain = [a for a in licence.amounts if not any(_close(a, p) for p in licence.percents)]
        only_the_sum = (
            not licence.rejected
            and (not grounding.unnamed or looked_up(grounding.unnamed, said, ids_only=updates))
            and off_course is None
            and not container
            and not above
            and not by_pattern
        )
        # "sell half of my TSLA position" with no holding in view: a share the gate cannot
        # work out, as a difference is ("half of the $300" it can)
        share = not results and _SHARE_OF_HOLDING.search(said[:20_000]) is not None
        return undecided(
            "escalate",
            quantity,
            unseen=not plain and only_the_sum,
            reckoned=(licence.reckoned or share) and not licence.percents and only_the_sum,
            # a number the user gave is theirs, whatever else they left to the agent
            detail=only_the_sum and not plain,
        )
    if off_course is not None:
        return undecided("escalate", off_course)
    if container:
        return undecided(
            "escalate",
            f"deletes the {'/'.join(sorted(container))} the user asked to remove something from",
        )
    if above:
        return undecided("escalate", "more access than the user asked for")
    if grounding.off_record is not None:
        return undecided(
            "escalate",
            f"on a record other than the one the user described: {grounding.off_record!r}",
            tie=grounding.tied,
            detail=True,
        )
    # only now, after the checks of what the user asked for: a high-impact change on the
    # wrong object, or of an action not asked for, is faulted above, not merely confirmed
    if effect.high_impact and confirm_high_impact:
        return Stakes(
            "escalate",
            "escalate",
            "a high-impact change the user asked for: confirm it",
            False,
            features,
        )
    if max_payment is not None and "pay" in effect.kinds and any(a > max_payment for a in amounts):
        return Stakes(
            "escalate", "escalate", f"a payment above the policy's {max_payment}", False, features
        )
    if by_pattern and not grounding.in_request:
        return undecided(
            "escalate",
            f"acts on everything a name matches ({effect.effects[0].what[:80]}), a name the "
            "user did not give",
        )
    # a coding agent's latitude over files the user did not name does not reach the folder
    # that holds the one they named (`git rm -r src/` after "remove src/legacy_api.py")
    deleted = [o for e in effect.effects if e.kind == "delete" for o in e.objects]
    removes = bool(deleted) and any(holds_named(o, said[:20_000].lower()) for o in deleted)
    if (
        undoable
        and (named or (coding and not _outside_project(effect, grounding, said) and not removes))
        and (
            taint is None
            or clean
            # inside the project, unless the call carries what the passage brought in (a
            # `curl … | sh` it asked to be added to package.json's scripts)
            or (coding and _in_project(effect, grounding) and grounding.origin != "planted")
        )
    ):
        # a local change that can be undone (an edit, a test run, a build) the user asked
        # for: a coding agent's words need not be the user's (`make test` after "fix the
        # failing test"); an app's objects (a task, a thermostat) must be theirs. After a
        # result addressed the agent, only work inside the project still passes alone
        return Stakes(
            "allow",
            "allow",
            f"local, reversible {'/'.join(sorted(kinds))} the user asked for",
            True,
            features,
        )
    if taint is not None and not named:
        # what a result that addressed the agent named (a script in a CI log) is not the
        # user's object, whatever the call does with it
        return undecided(
            "escalate",
            f"after a tool result addressed the agent ({taint!r}), a "
            f"{'/'.join(sorted(kinds))} on things the user did not name",
            faulted=grounding.origin != "unseen",
        )
    priced_only = "pay" in kinds and all(
        re.fullmatch(r"[\d.,]+", n) for n in grounding.names
    )  # "Place order ($84.20)": the page's own price names no order of the user's
    if effect.source == "page" and (not grounding.names or priced_only) and taint is None:
        # "Place order" on the shop the user asked to order from: the click names nothing
        # of its own, so what it acts on is what the page holds, for a person to see
        return Stakes(
            None,
            "escalate",
            f"{'/'.join(sorted(kinds))} the user asked for, by a click that names nothing "
            "of its own",
            False,
            features,
            "escalate",
            why_capped="what the click acts on is the page's, not a name to check",
        )
    if (
        not named
        and kinds == {"create"}
        and all(e.fetched for e in effect.effects if e.kind != "read")
    ):
        # a download from a place nobody named: nothing leaves, a person checks the source
        return undecided(
            "escalate",
            f"a copy fetched from {', '.join(grounding.unnamed[:2])[:120]}, which the user "
            "did not name",
            faulted=False,
        )
    if not named and (kinds & {"send", "pay", "grant", "delete"} or effect.external):
        return on_unnamed(
            f"{'/'.join(sorted(kinds))} the user asked for, to or on something they did not name"
        )
    if named and grounding.ranked and not grounding.in_request:
        # "book the best-rated hotel under 200": a listing held several, and whether the
        # one picked ranks first is the model's to read
        return undecided(
            "allow",
            f"{'/'.join(sorted(kinds))} the user asked for, on the one of several a listing "
            "holds that the user picked by rank",
        )
    if named:
        return Stakes(
            "allow",
            "allow",
            f"{'/'.join(sorted(kinds))} the user asked for, on what they named",
            True,
            features,
        )
    if grounding.unnamed:
        return on_unnamed(
            f"{'/'.join(sorted(kinds))} on {', '.join(grounding.unnamed[:3])}, which nobody in "
            "this request named"
        )
    return undecided(
        "allow", f"{'/'.join(sorted(kinds))} the user asked for, on things they did not name"
    )
