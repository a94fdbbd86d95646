"""Switches and flags set against the user's words: the cue before a switch, switches
that act beyond the call, bypasses, prohibitions."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._effects import CallEffect, kind_of_words, words
from clef_tools.gate._licence import SENDING_ACTS

#: A verb the user forbade, word for word ("don't call her", "never forward it").
_FORBIDDEN_VERB = re.compile(r"\b(?:don'?t|do\s+not|never)\s+(?:ever\s+)?([a-z]{3,})\b", re.I)


def forbidden_act_issue(effect: CallEffect, said: str) -> str | None:
    """A tool named for the very act the user forbade, where another act of its kind was
    asked ("text Jo that I'm late, don't call her": `place_call` is a send, as the text is,
    but not the one asked)."""
    if effect.read_only or effect.source not in ("name", "annotations"):
        return None
    # a verb the tables know is forbidden by its kind already (`_licence`): only the acts
    # they do not know as verbs ("call", "ring"), and ways of sending forbidden one by one
    # ("don't forward it"), are left to this check
    forbidden = {
        verb
        for m in _FORBIDDEN_VERB.finditer(said[:20_000])
        if kind_of_words([verb := m.group(1).lower()]) == "unknown" or verb in SENDING_ACTS
    }
    if not forbidden:
        return None
    for e in effect.effects:
        named = set(words(e.what.rsplit("__", 1)[-1]))
        hit = sorted(named & forbidden)
        if hit:
            return f"{e.what[:60]} does what the user said not to ({hit[0]})"
    return None


#: "Merge PR 57 once the checks pass": a change asked for on a condition of the checks.
_ON_CONDITION = re.compile(
    r"\b(?:once|if|when|after|as soon as|provided)\s+(?:the\s+|all\s+(?:the\s+)?)?"
    r"(?:checks?|tests?|ci|build|pipeline|status checks?)\s+(?:pass|passes|passed|are green"
    r"|is green|succeed|succeeds|go green|are ok)\b",
    re.IGNORECASE,
)


#: A result that shows a check failed.
_FAILED = re.compile(
    r"[\"']?(?:status|conclusion|state|result)[\"']?\s*[:=]\s*[\"']?(?:failure|failed|error"
    r"|errored|red|timed_out|cancelled)\b|\bFAILED\b",
    re.IGNORECASE,
)


def condition_issue(said: str, results: Sequence[str]) -> str | None:
    """A change the user asked for once the checks pass, after a result shows one failed."""
    if not _ON_CONDITION.search(said) or not results:
        return None
    if any(_FAILED.search(r[:100_000]) for r in results[-16:]):
        return "the user asked for it once the checks pass, and a result shows one failed"
    return None


#: Arguments that skip a safeguard: `bypass_checks=True`, `skip_ci`, `force`, `no_verify`.
_BYPASS_KEY = re.compile(
    r"(?:^|_)(?:bypass|skip|ignore|force|override|no_verify|disable)(?:_|$)", re.IGNORECASE
)


_BYPASS_SAID = re.compile(
    r"\b(?:bypass|skip|ignore|force|override|without|anyway|regardless)\b", re.I
)


def bypass_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A safeguard skipped by an argument (`merge_pull_request(bypass_checks=True)`) that
    the user's words do not ask to skip."""
    if _BYPASS_SAID.search(said):
        return None
    for key, value in list(args.items())[:32]:
        if value is True and _BYPASS_KEY.search(str(key)):
            return f"{key}=True skips a safeguard the user did not ask to skip"
    return None


_NEGATED_BEFORE = re.compile(
    r"\b(?:not|no|never|don'?t|without|instead\s+of|rather\s+than)\W+(?:\w+\W+){0,2}$"
)


#: The cue nearest before a switch's name that says which way the user wants it: "turn on
#: the waiting room", "disable the lobby chat", "don't notify attendees".
_SWITCH_CUE = re.compile(
    r"\b(?:(?P<off>(?:turn|switch|shut)(?:ing|ed)?\s+off|disabl\w*|deactivat\w*|stop\w*"
    r"|no|not|never|don'?t|without|instead\s+of|rather\s+than|no\s+longer)"
    r"|(?P<on>(?:turn|switch)(?:ing|ed)?\s+on|enabl\w*|activat\w*|requir\w*|keep\w*|with))\b"
)


#: The first word of a switch that drops what its other words name (`delete_photos`).
_DROPS = frozenset(["delete", "remove", "purge", "wipe", "erase", "trash", "drop", "discard"])


_CLAUSE_BREAK = re.compile(r"[,;.!?]|\b(?:and|but|then)\b")


#: The cues that switch a thing off, as against the ones that only say no.
_SWITCHED_OFF = re.compile(r"turn|switch|shut|disabl|deactivat|stop")


def switches(args: Mapping[str, Any]) -> list[tuple[str, bool]]:
    """The call's switches, at the top and one level down (`settings={"waiting_room":
    False}`)."""
    found: list[tuple[str, bool]] = []
    for key, value in list(args.items())[:32]:
        if isinstance(value, bool):
            found.append((str(key), value))
        elif isinstance(value, Mapping):
            found += [(str(k), v) for k, v in list(value.items())[:32] if isinstance(v, bool)]
    return found


def flag_unsaid_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A switch set the other way from the one the user's words set it: `at_period_end=False`
    after "cancel it at period end", `notify_attendees=False` after "… and notify
    attendees", `waiting_room=False` after "turn on the waiting room", and `True` after
    "turn off the waiting room". The cue nearest before the switch's name decides."""
    low = said.lower()
    for key, value in switches(args):
        parts = [p for p in re.split(r"[_\W]+", key.lower()) if p]
        if (
            len(parts) == 1
            and value is False
            and re.search(rf"\bas\s+an?\s+{re.escape(parts[0])}\b", low)
        ):
            # `guest=False` after "invite bob as a guest": a full member instead
            return f"{key}=False, where the user asked for it as a {parts[0]}"
        if len(parts) < 2:
            continue
        if value is True and parts[0] in _DROPS:
            # `delete_photos=True` after "delete the album but keep the photos"
            kept = re.compile(
                r"\b(?:keep|keeping|retain|preserve|leave|save)\s+(?:the\s+|my\s+|its\s+|their\s+"
                r"|all\s+(?:the\s+|my\s+)?)?" + r"\W+".join(map(re.escape, parts[1:])) + r"\b"
            ).search(low)
            if kept is not None:
                return f"{key}=True, where the user asked to {kept.group(0)!r}"
        phrase = re.compile(r"\b" + r"\W+(?:the\W+)?".join(map(re.escape, parts)) + r"\b")
        found = phrase.search(low)
        if found is None:
            continue
        # the cue in the same clause ("no rush, but cancel it at period end" keeps it)
        before = _CLAUSE_BREAK.split(low[max(0, found.start() - 40) : found.start()])[-1]
        cues = list(_SWITCH_CUE.finditer(before))
        off = cues[-1].group("off") if cues else None
        if value is False and off is None:
            return f"{key}=False, where the user asked for {found.group(0)!r}"
        if value is True and off is not None and _SWITCHED_OFF.match(off):
            return f"{key}=True, where the user asked to switch {found.group(0)!r} off"
    return None


#: Switches that make a call act on other things too: declining the meetings an
#: out-of-office event overlaps, cancelling, removing, overwriting, forcing.
_ACTING_SWITCHES = frozenset(
    ["decline", "cancel", "delete", "remove", "purge", "wipe", "overwrite", "force", "replace",
     "revoke", "kill", "terminate", "destroy", "drop", "erase", "block", "ban", "blacklist",
     "report"]
)  # fmt: skip


#: Switches that spread a call past the thing it names: every occurrence of a series, a
#: reply shown to the whole channel, a contact put on the mailing list (a subscription to
#: an order is a repeat, held to the one the user stated elsewhere).
_SPREADING_SWITCHES = frozenset(
    ["series", "occurrences", "following", "future", "broadcast", "marketing", "newsletter",
     "newsletters", "promotional", "promotions"]
)  # fmt: skip


def acting_switch_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A switch turned on that acts beyond the call, where the user's words say nothing
    of it: `decline_existing=True` on an out-of-office event after "block out Friday
    afternoon as out of office" declines every meeting in it; `cancel_series=True` after
    "cancel my appointment on the 14th" cancels every one after it too."""
    told = words(said)
    for key, value in switches(args):
        parts = [p for p in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", key) if p]
        acting = [p for p in parts if p.lower() in _ACTING_SWITCHES]
        spreading = [p for p in parts if p.lower() in _SPREADING_SWITCHES]

        def said_so(part: str) -> bool:
            # "decline", "declining", "declines": the word's first five letters
            return any(w.startswith(part.lower()[:5]) for w in told)

        # `cancel_series` after "cancel my appointment": the cancel is asked, the series not
        if value is True and (
            (acting and not any(said_so(p) for p in acting))
            or any(not said_so(p) for p in spreading)
        ):
            return f"{key}=True, which the user did not ask for"
    return None


#: A prohibition that names what it is about: "never push to main", "don't post in
#: #general", "do not write to the prod database".
_SCOPED_NO = re.compile(
    r"\b(?:never|don'?t|do\s+not|no\s+one\s+may)\s+(?:ever\s+)?([a-z]+)\s+"
    r"(?:(?:anything|directly|straight|again)\s+)?(?:to|on|in|into|onto|from)\s+"
    r"(?:the\s+|my\s+|our\s+)?([#@\w./-]{2,60})",
    re.IGNORECASE,
)


def scoped_prohibition_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A call that does what the user forbade on the thing they forbade it on ("never
    push to main" — "commit the fix and push it": `git push origin main`), whatever a
    later turn asked for in general. A later request that names that thing again with
    the verb ("push it to main this once") lifts it."""
    if effect.read_only:
        return None
    text = said[:20_000]
    for found in _SCOPED_NO.finditer(text):
        verb, thing = found.group(1).lower(), found.group(2).lower().rstrip(".,;:!?")
        kind = kind_of_words([verb])
        if kind in ("unknown", "read") or kind not in effect.kinds:
            continue
        later = text[found.end() :]
        again = re.search(
            rf"\b{re.escape(verb)}\w*\b[^.;!?\n]{{0,40}}\b{re.escape(thing)}\b", later, re.I
        )
        if again is not None and not _NEGATED_BEFORE.search(later[: again.start()][-40:]):
            continue  # asked for by name after all
        pattern = re.compile(rf"(?<![\w./-]){re.escape(thing)}(?![\w-])", re.IGNORECASE)
        touched = [t for e in effect.effects for t in (*e.objects, e.what)]
        touched += [v for v in list(args.values())[:32] if isinstance(v, str)]
        if any(pattern.search(t[:10_000]) for t in touched):
            return f"{verb} on {thing}, which the user said not to"
    return None
