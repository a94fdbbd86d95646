"""What a call sets on a device or a shared thing against what the user asked to set.

The opposite act, everything of a kind for a part of it, a switch turned off, no end where
the user set one, a home set outside the range it is lived in: each is a change the words
did not ask for, on the very thing they named.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from clef_tools.gate._dates import is_time_key
from clef_tools.gate._effects import CallEffect, words
from clef_tools.gate._extent import switches
from clef_tools.gate._grounding import (
    targets,
)
from clef_tools.gate._licence import Licence
from clef_tools.gate._stakes._quantities import nearly_equal

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
    r"(?:^|_)(?:entity|entities|entity_id|entity_ids|target|targets|device|devices|ids?|scope)$",
    re.I,
)


#: "all the lights downstairs", "all of the emails from Bob": all of a part, not of a kind;
#: "all other sessions", "every light but the porch": all less some.
_QUALIFIED_ALL = re.compile(
    r"\ball\s+(?:of\s+)?(?:the\s+|my\s+|our\s+|your\s+)?([a-z]+(?:\s+[a-z]+)?)\s+"
    r"(?:in|on|at|from|of|upstairs|downstairs|outside|inside|outdoors|indoors|by|with|under)\b"
    r"|\b(?:all|every)\s+(?:of\s+)?(?:the\s+|my\s+)?other\b"
    r"|\b(?:all|every(?:thing|one)?)\b[^.;!?]{0,40}?\b(?:but|except|apart\s+from|other\s+than)\b",
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


def switch_named(args: Mapping[str, Any], said: str) -> bool:
    """Whether every switch the call sets is one the user named by every word of its name
    (`waiting_room` for "enable the waiting room"; not `lobby_chat` beside it)."""
    found = set(words(said[:20_000]))
    keys = [words(key) for key, _ in switches(args)]
    return bool(keys) and all(parts and set(parts) <= found for parts in keys)


#: Argument keys (or parts of them) that switch something: a mode, a state, power.
_SWITCH_KEYS = frozenset(
    ["mode", "state", "status", "power", "enabled", "active", "on", "armed", "switch"]
)


#: Switches that keep a thing safe: a domain's transfer lock, two-factor sign-in, backups.
_GUARDS = frozenset(
    ["lock", "locked", "protection", "protected", "privacy", "mfa", "2fa", "tfa", "encryption",
     "encrypted", "verification", "backup", "backups", "firewall", "guard", "safesearch"]
)  # fmt: skip
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
    heating down to 18" is not `climate_turn_off`. A protection switched off
    (`transfer_lock=False` beside "turn on auto-renew") is held whatever else is switched
    off, unless the user named it ("unlock the domain")."""
    for key, value in list(args.items())[:32]:
        guard = next((p for p in re.split(r"[_\W]+", str(key).lower()) if p in _GUARDS), None)
        if value is False and guard and not any(guard[:4] in w for w in licence.words):
            return f"{key}=False: switches off a protection the user did not name"
    if licence.words & _OFF_WORDS and not licence.no_switch_off:
        return None
    if effect is not None and effect.source in ("name", "annotations"):
        for e in effect.effects:
            name = "_".join(words(e.what.rsplit("__", 1)[-1]))
            if _OFF_TOOL.search(name):
                return f"{e.what[:60]} switches off what the user did not ask to switch off"
    switched = _switched(args, on=False)
    if switched is not None:
        key, value = switched
        return f"{key}={value!r}: switches off what the user did not ask to switch off"
    return None


def _switched(args: Mapping[str, Any], *, on: bool) -> tuple[str, Any] | None:
    """The first switch (`mode`, `power`, `enabled`…) the call sets on, or off."""
    values = _ON_VALUES if on else _OFF_VALUES
    for key, value in list(args.items())[:32]:
        parts = re.split(r"[_\W]+", str(key).lower())
        if not any(p in _SWITCH_KEYS for p in parts):
            continue
        if value is on or (isinstance(value, str) and value.strip().lower() in values):
            return str(key), value
    return None


#: Values that switch something on.
_ON_VALUES = frozenset(["on", "enabled", "enable", "true", "active", "armed", "started", "running"])


#: The user asking for something to be switched on: "turn the fan on", "enable alerts"
#: ("turn off the lights on the porch" asks for nothing on).
_ON_ASKED = re.compile(
    r"\b(?:turn|switch|power|put|flip)\s+(?:(?!off\b)[\w'-]+\s+){0,4}?on\b"
    r"|\b(?:turn|switch|power)\s+on\b|\b(?:enable|activate|arm|start|resume|unmute|unpause"
    r"|restart|reactivate|wake)\w*\b",
    re.IGNORECASE,
)


def switch_on_issue(args: Mapping[str, Any], licence: Licence, said: str) -> str | None:
    """A switch turned on where the user asked only to switch things off: "turn off the
    kitchen lights" is not `on=True`, "disarm the alarm" is not `armed=True`."""
    if licence.no_switch_off or not licence.words & _OFF_WORDS or _ON_ASKED.search(said[:20_000]):
        return None
    switched = _switched(args, on=True)
    if switched is not None:
        key, value = switched
        return f"{key}={value!r}: switches on what the user asked to switch off"
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


#: A bound the user set: "for the next hour", "for 30 minutes", "until 6pm", "today only",
#: "for this weekend".
_USER_BOUND = re.compile(
    r"\bfor\s+(?:the\s+)?(?:next\s+|coming\s+)?(?:\d+|an?|one|two|three|few|couple\s+of)?\s*"
    r"(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|nights?)\b"
    r"|\bfor\s+(?:this|the|next)\s+(?:coming\s+)?weekend\b"
    r"|\b(?:until|till)\b|\b(?:today|tonight)\s+only\b|\bfor\s+(?:today|tonight)\b",
    re.I,
)


#: A state put in place until a time ("set my status to busy until 3pm", "mute #ops until
#: Monday"), the end a call must carry (a device set "until 10pm" has no end to carry, and
#: is left to the rest of the checks).
_SET_UNTIL = re.compile(
    r"\b(?:set\s+(?:my\s+|our\s+)?(?:slack\s+|teams\s+|chat\s+|discord\s+)?status|mute|snooze"
    r"|pause|share|block|(?:turn\s+on|enable)\s+"
    r"(?:do\s+not\s+disturb|dnd|focus|away|vacation))\b[^.;!?\n]{0,60}?\b(?:until|till)\s+\w",
    re.IGNORECASE,
)
#: A value that tells a time or a date (`"15:00"`, `"2026-12-08"`, `"3pm"`, `"Monday"`).
_TIMED = re.compile(
    r"\d{1,2}:\d{2}|\d{4}-\d{2}-\d{2}|\b\d{1,2}\s*[ap]\.?m\b|\b(?:mon|tues|wednes|thurs|fri|satur"
    r"|sun)day\b|\btomorrow\b|\btonight\b",
    re.IGNORECASE,
)


def bound_issue(args: Mapping[str, Any], said: str) -> str | None:
    """No end where the user set one: "share my location with Sam for the next hour" is
    not `duration_minutes=None`."""
    if not _USER_BOUND.search(said[:20_000]):
        return None
    if (
        _SET_UNTIL.search(said[:20_000])
        and args
        and not any(
            _BOUND_KEYS.search(str(k)) or is_time_key(str(k)) or _TIMED.search(str(v)[:80])
            for k, v in list(args.items())[:32]
        )
    ):
        # "set my status to 'in a meeting' until 3pm" as `set_status(text=…)`: no end at all
        return "sets no end, where the user set one"
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
        if not _TEMPERATURE_KEY.search(str(key)) or any(nearly_equal(value, n) for n in stated):
            continue
        unit = "F" if "fahrenheit" in str(key).lower() or value > 40 else "C"
        low, high = _LIVED_IN[unit]
        if not low <= value <= high:
            return (
                f"{key}={value:g}: outside the range a home is kept at, not a number the user gave"
            )
    return None
