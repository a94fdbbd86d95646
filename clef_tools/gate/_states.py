"""A state the call sets other than the one the user named.

"Move the postgres upgrade to done", "move Jo to the team plan", "set the priority to
high": the request names the state a record goes to. A call on the right record can set
another one (`status="To Do"`, `plan="pro"`), and the licence (a change) and the names
(the record, from the listing) still vouch for it. The state is read from the user's words
after "to", "as" or "into", and held against the call's settings: a setting whose value
the user never wrote (in any form: "close" writes `closed`), on a call that carries nothing
of the state they named, is another state. A state said in other words (`closed` for
"mark it as complete") is read as one.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._effects import CallEffect, split_camel
from clef_tools.gate._evidence import text_values
from clef_tools.gate._grounding import is_setting_key

__all__ = ["state_issue", "switched_state_issue", "unasked_mode_issue"]

_MAX_SAID = 20_000
#: The state a request names: "to done", "as a customer", "into the team plan".
_NAMED_STATE = re.compile(
    r"\b(?:to|as|into)\s+(?:the\s+|a\s+|an\s+)?((?:[\w'-]+\s+){0,2}?[\w'-]+)"
    r"(?=\s*(?:[.,;!?]|:(?!\d)|$)|\s+(?:and|for|so|because|since|please|now|instead|too)\b)",
    re.IGNORECASE,
)
#: Words after "to" that name no state ("to me", "to it", "to the team": a person or a
#: place is a recipient, checked elsewhere).
_NOT_STATES = frozenset(
    ["me", "it", "him", "her", "them", "us", "you", "everyone", "all", "this", "that"]
)
#: States that are one state in other words.
_SAME_STATE = (
    frozenset(["done", "complete", "completed", "finished", "closed", "resolved", "fixed"]),
    frozenset(["in progress", "doing", "started", "wip", "in-progress", "active"]),
    frozenset(["to do", "todo", "backlog", "open", "not started", "new"]),
)
#: Nouns that say which setting a state is of ("the team plan", "high priority").
_SETTING_NOUNS = frozenset(
    ["plan", "tier", "status", "state", "stage", "column", "list", "priority", "label",
     "category", "role", "level", "mode", "lane", "board"]
)  # fmt: skip


def state_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A setting the call gives a value the user never wrote, where the user named a state
    the call carries nothing of: `status="To Do"` for "move it to done"."""
    values = _setting_values(args) if effect.kinds & {"modify", "create"} else []
    if not values:
        return None  # most calls set no state: the user's words need no reading
    text = said[:_MAX_SAID]
    named = [
        " ".join(w for w in m.group(1).lower().split() if w not in _SETTING_NOUNS)
        for m in _NAMED_STATE.finditer(text)
    ][:8]
    # a state has a name: "to 7:15" is a time, "to 3" a number
    named = [n for n in named if n and n not in _NOT_STATES and not any(c.isdigit() for c in n)]
    if not named:
        return None
    carried = " ".join(_plain(v[:200]) for v in itertools.islice(text_values(args), 256))
    if any(_holds(carried, n) for n in named):
        return None  # the call sets the state the user named, whatever else it sets
    told = {_stem(w) for w in re.findall(r"[a-z]+", text.lower())}
    for key, value in values:
        if not {_stem(w) for w in _plain(value).split()} <= told:
            return f"{key}={value!r}, where the user asked for {named[0]!r}"
    return None


#: Arguments that pick what a machine does (a wash programme, an oven's mode).
_MODE_KEYS = frozenset(
    ["mode", "program", "programme", "cycle", "preset", "hvac_mode", "fan_mode", "wash_program"]
)


def unasked_mode_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A mode set that nobody named, where the user named none: `set_oven(mode=
    "self_clean", temperature=200)` after "preheat the oven to 200" runs a cleaning
    cycle. The mode a result shows the thing in is kept, not chosen."""
    if effect.read_only:
        return None
    told = {_stem(w) for w in re.findall(r"[a-z]+", said[:_MAX_SAID].lower())}
    shown = " ".join(r[:_MAX_SAID] for r in results[-8:]).lower()
    for key, value in list(args.items())[:32]:
        if str(key).lower() not in _MODE_KEYS or not isinstance(value, str):
            continue
        parts = [_stem(w) for w in _plain(value[:200]).split() if len(w) >= 3]
        if not parts or any(p in told for p in parts):
            continue
        if re.search(rf"(?<![\w-]){re.escape(value.lower())}(?![\w-])", shown):
            continue
        return f"sets the {key} to {value[:40]!r}, which the user did not ask for"
    return None


def _setting_values(args: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The settings a call gives a state's name (`status="To Do"`, `plan="pro"`), not an
    id (`folder_id="fold_9"`), top-level and one level down (`fields={…}`)."""
    out: list[tuple[str, str]] = []
    pairs = list(args.items())[:32] + [
        (k, v) for inner in list(args.values())[:32] if isinstance(inner, Mapping)
        for k, v in list(inner.items())[:32]
    ]  # fmt: skip
    for key, value in pairs:
        if not is_setting_key(str(key)) or not isinstance(value, str):
            continue
        state = value.strip()
        if 1 < len(state) <= 30 and not any(c.isdigit() for c in state):
            out.append((str(key), state))
    return out


def _plain(value: str) -> str:
    """A value as words: `IN_PROGRESS` and `inProgress` are "in progress"."""
    return " ".join(re.split(r"[_\W]+", split_camel(value).lower())).strip()


def _stem(word: str) -> str:
    """A word without its ending: "closed", "close" and "closing" are one."""
    return re.sub(r"(?:ing|ed|es|e|s)$", "", word) or word


def _holds(text: str, state: str) -> bool:
    """Whether `text` names `state`, or a state that is the same in other words."""
    names = next((group for group in _SAME_STATE if state in group), frozenset([state]))
    return any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text) for n in names)


#: Switches that put a record out of use or out of sight, and the words a request asks
#: for each by: `archived=True` beside "make the repo private" is an archive nobody asked
#: for.
_STATE_SWITCHES: dict[str, str] = {
    "archived": r"archiv\w*",
    "locked": r"lock\w*",
    "deleted": r"delet\w*|remov\w*",
    "trashed": r"trash\w*|bin",
    "disabled": r"disabl\w*|deactivat\w*|(?:turn|switch)\w*\s+(?:\w+\s+){0,3}?off",
    "suspended": r"suspend\w*",
    "banned": r"ban|bann\w*",
    "blocked": r"block\w*",
    "frozen": r"froz\w*|freez\w*",
    "hidden": r"hid\w*",
}
_SWITCH_FORMS = {
    form: state
    for state in _STATE_SWITCHES
    for form in (state, state.removesuffix("d"), state.removesuffix("ed"))
} | {"freeze": "frozen", "hide": "hidden", "ban": "banned", "trash": "trashed"}


def switched_state_issue(
    effect: CallEffect, switches: Sequence[tuple[str, bool]], said: str
) -> str | None:
    """A switch the call turns on (of `switches`, the call's own and its settings') that
    takes a record out of use or out of sight (`archived`, `locked`, `disabled`,
    `delete`), on a change or a new record whose request says nothing of it: a repository
    archived beside "make acme/docs private", a mail filter that deletes what it labels."""
    if not effect.kinds & {"modify", "configure", "create"}:
        return None
    text = said[:_MAX_SAID]
    for key, value in switches[:64]:
        if value is not True:
            continue
        parts = [p for p in re.split(r"[_\W]+", split_camel(str(key)).lower()) if p]
        if parts[:1] in (["is"], ["set"]):
            parts = parts[1:]
        state = _SWITCH_FORMS.get(parts[0]) if len(parts) == 1 else None
        if state is None:
            continue
        if not re.search(rf"\b(?:{_STATE_SWITCHES[state]})\b", text, re.IGNORECASE):
            return f"{key}=True, which the user's words say nothing of"
    return None
