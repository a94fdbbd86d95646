"""What a tool call does: its effect, reach and reversibility, from what the tool declares and
how it is named, and for tools that run commands, from the command itself.

A call's provenance (are its names in the user's words?) says nothing about a delete after
"show me" or a force-push after "what changed?": those act on the very objects the user
named. The effect is what lets the gate allow what only reads, and hold back what changes,
sends, pays or grants unless the user asked for it. A tool's own effect is static, so it is
computed once per tool description and cached; a command is parsed per call (`_shell`,
`_sql`). The words and commands are a data table, `effects.toml`, documented in
docs/gate.md. What the table does not know is `unknown`: never allowed on evidence alone.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal, cast

__all__ = [
    "EFFECT_KINDS",
    "CallEffect",
    "Effect",
    "EffectKind",
    "after_verb",
    "kind_of_words",
    "kinds_in",
    "table",
    "tool_effect",
    "tool_verb",
    "verb_words",
    "words",
]

EffectKind = Literal[
    "read", "create", "modify", "delete", "send", "pay", "execute", "grant", "configure", "unknown"
]
EFFECT_KINDS: tuple[EffectKind, ...] = (
    "read",
    "create",
    "modify",
    "delete",
    "send",
    "pay",
    "execute",
    "grant",
    "configure",
    "unknown",
)
Reach = Literal["local", "external"]

#: The longest command or query the gate parses; a longer one is judged unparsed.
MAX_COMMAND_CHARS = 64_000


@dataclass(frozen=True)
class Effect:
    """One thing a call does. `high_impact`: a change that is hard to undo or far-reaching
    (a recursive delete of a broad path, a force-push, a format, an unfiltered `DELETE`)."""

    kind: EffectKind
    reach: Reach = "local"
    reversible: bool = True
    high_impact: bool = False
    what: str = ""
    """The part of the call it comes from (`git push --force`, `DELETE FROM users`)."""
    objects: tuple[str, ...] = ()
    """What a command acts on (`rm -rf dist` → `dist`; `git rebase main` → `main`): the
    names the user must have given for it to be their object, not the command's words."""
    routine: bool = False
    """The project's own checks or build (`pytest`, `npm test`, `npm ci`): code the
    project holds, not code a result could have pointed the agent to."""
    action: str = ""
    """The action among its kind's that the call names (`archive` for `archive_channel`,
    `commit` for `git commit`, `clean` for `make clean`), when `effects.toml`'s `[actions]`
    holds it: the user must ask for that action, not just for a change."""
    settings: tuple[tuple[str, float], ...] = ()
    """The numbers a statement sets, by column (`SET price = 249.9`): quantities like a
    tool's `amount` argument, checked against the ones the user stated."""
    by_pattern: bool = False
    """It acts on everything a name matches (`pkill node` stops every node process, not the
    one on port 3000): the name must be the user's own word, not one a result listed."""
    packages: bool = False
    """It installs or upgrades the packages in `objects` from a registry (`npm install
    lodash@latest` → `lodash`): "update lodash" asks for it, though the request's verb is a
    change and the command's a configuration."""
    system: bool = False
    """It acts on the machine, not on the project (`systemctl restart nginx`): like an app's
    objects, what it acts on must be named in the user's own words; a coding agent's
    latitude over the project's files does not reach it."""
    fetched: bool = False
    """A copy made here of what another machine holds (`wget URL`, `scp host:path .`):
    nothing of the user's leaves, so a source nobody named is a person's to check, not a
    reason to deny on the evidence alone."""
    moved_to: str = ""
    """Where a move puts the user's files (`mv draft.md /tmp/notes.md` → `/tmp/notes.md`):
    a folder past the project, scratch space included (it is wiped), takes them out of it,
    so that folder must be the user's own words, not only the file's new name."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "reach": self.reach,
            "reversible": self.reversible,
            "high_impact": self.high_impact,
            "what": self.what[:200],
            **({"objects": list(self.objects[:16])} if self.objects else {}),
            **({"action": self.action} if self.action else {}),
        }


@dataclass(frozen=True)
class CallEffect:
    """Everything one call does, and where that reading came from."""

    effects: tuple[Effect, ...]
    source: str
    """`annotations`, `name`, `builtin`, `shell`, `sql`, `page` (a click), or `unparsed`."""
    parse_error: str | None = None

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(e.kind for e in self.effects)

    @property
    def read_only(self) -> bool:
        return bool(self.effects) and self.kinds == {"read"} and self.parse_error is None

    @property
    def tool(self) -> str:
        """The tool's name (or a command's program), as the first effect records it."""
        return self.effects[0].what.split(" ", 1)[0] if self.effects else ""

    @property
    def high_impact(self) -> bool:
        return any(e.high_impact for e in self.effects)

    @property
    def irreversible(self) -> bool:
        return any(not e.reversible for e in self.effects)

    @property
    def external(self) -> bool:
        return any(e.reach == "external" for e in self.effects)

    @property
    def settings(self) -> tuple[tuple[str, float], ...]:
        return tuple(s for e in self.effects for s in e.settings)[:16]

    @property
    def objects(self) -> tuple[str, ...]:
        """What the call's commands act on (empty for a call that is not a command)."""
        return tuple(dict.fromkeys(o for e in self.effects for o in e.objects))

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "effects": [e.as_dict() for e in self.effects[:16]],
            "source": self.source,
        }
        if self.parse_error:
            out["parse_error"] = self.parse_error
        return out


@dataclass(frozen=True)
class EffectTable:
    strictness: tuple[EffectKind, ...]
    verbs: Mapping[EffectKind, frozenset[str]]
    money: frozenset[str]
    money_asked: frozenset[str]
    members: frozenset[str]
    own_details: frozenset[str]
    published: frozenset[str]
    drafts: frozenset[str]
    handed_over: frozenset[str]
    actions: Mapping[str, frozenset[str]]
    """Per action, the words that ask for it (the action's own name among them)."""
    shell: Mapping[str, frozenset[str]]
    builtin: Mapping[str, Effect]
    devices: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Per Home Assistant entity domain, the words people call the device by."""
    unasked: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Per action, the words that take it back ("an internal note" is no public reply)."""
    idioms: tuple[tuple[re.Pattern[str], str], ...] = ()
    """Colloquial ways of asking, each with the plain verb it means."""


@functools.cache
def table() -> EffectTable:
    """`effects.toml`, read once."""
    raw = tomllib.loads(resources.files("clef_tools.gate").joinpath("effects.toml").read_text())

    def split(text: str) -> frozenset[str]:
        return frozenset(text.split())

    builtin = {}
    for tool, spec in raw["builtin"].items():
        kind, *notes = spec.split()
        builtin[tool.lower()] = Effect(
            cast(EffectKind, kind),
            "external" if "external" in notes else "local",
            reversible="irreversible" not in notes,
            what=tool,
        )
    return EffectTable(
        strictness=tuple(raw["strictness"]),
        verbs={cast(EffectKind, k): split(v) for k, v in raw["verbs"].items()},
        money=split(raw["objects"]["money"]),
        money_asked=split(raw["objects"]["money_asked"]),
        members=split(raw["objects"]["members"]),
        own_details=split(raw["objects"]["own_details"]),
        published=split(raw["objects"]["published"]),
        drafts=split(raw["objects"]["drafts"]),
        handed_over=split(raw["objects"]["handed_over"]),
        actions={k: split(v) | {k} for k, v in raw["actions"].items()},
        unasked={k: split(v) for k, v in raw.get("unasked", {}).items()},
        shell={k: split(v) for k, v in raw["shell"].items()},
        builtin=builtin,
        devices={k: split(v) for k, v in raw.get("devices", {}).items()},
        idioms=tuple(
            (re.compile(pattern, re.IGNORECASE), verb)
            for verb, patterns in raw.get("idioms", {}).items()
            for pattern in patterns
        ),
    )


_WORD = re.compile(r"[A-Za-z]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def words(text: str) -> list[str]:
    """`sendMoney`, `send_money`, `mcp__bank__send-money` → `send`, `money`; a phrasal
    verb the table knows as one word (`top_up_card`, "top up my card") → `topup`,
    `check_in` → `checkin`."""
    found = [w.lower() for part in _WORD.findall(text) for w in _CAMEL.split(part) if w]
    out: list[str] = []
    for w in found:
        if w == "up" and out and out[-1] == "top":
            out[-1] = "topup"
        elif w == "in" and out and out[-1] == "check":
            out[-1] = "checkin"  # `check_in(booking=…)` checks a traveller in, it reads nothing
        else:
            out.append(w)
    return out


def _kind_of(word: str) -> EffectKind:
    t = table()
    return next((k for k in t.strictness if word in t.verbs[k]), "unknown")


@functools.cache
def verb_words(*, reads: bool = True) -> frozenset[str]:
    """Every word the verb table knows (`reads=False`: less the reading kind's own list)."""
    t = table()
    return frozenset(w for kind in t.strictness if reads or kind != "read" for w in t.verbs[kind])


def lead_verb(found: Sequence[str]) -> str:
    """The first word the verb table knows (`get` in `get_scheduled_transactions`); a
    device's name is not a verb (`AugustSmartLockSearchGuests` searches); a verb that only
    opens another (`start_transfer`, `open_dispute`) gives way to it."""
    at, lead = next(
        (
            (i, w)
            for i, w in enumerate(found)
            if _kind_of(w) != "unknown" and found[i - 1 : i] != ["smart"]
        ),
        (0, ""),
    )
    after = found[at + 1 : at + 2]
    if lead in _OPENERS and after and _kind_of(after[0]) != "unknown":
        return after[0]
    return lead


#: The keys a review's verdict is given under (`event="REQUEST_CHANGES"`), and the verdicts
#: that post it (GitHub's and GitLab's events, and plain words).
REVIEW_VERDICT_KEYS = frozenset(["event", "review_event", "decision", "verdict", "review_state"])
REVIEW_VERDICTS = frozenset(
    ["approve", "approved", "approval", "lgtm", "request_changes", "changes_requested",
     "comment", "commented", "reject", "rejected", "deny", "denied", "accept", "accepted"]
)  # fmt: skip


#: Known verbs that open an act named after them (`start_transfer`, `open_dispute`); an
#: unknown one (`initiate_transfer`) is passed over anyway.
_OPENERS = frozenset(["start", "open"])


#: Verbs that ask another party for money, or act on a record of it, rather than move it
#: (`request_money`, `dispute_transaction`, `categorize_transaction`).
_MOVES_NO_MONEY = frozenset(
    ["request", "requests", "dispute", "disputes", "categorize", "categorise", "tag", "label",
     "flag", "annotate", "note"]
)  # fmt: skip


#: The argument of a find-and-replace that gives the text looked for (`find`, `old_text`).
FIND_KEY = re.compile(
    r"^(?:find|search|old|old_?text|old_?string|match|pattern|target_?text)$", re.I
)
#: A switch that keeps a thing to its members (`private`, `is_private`).
PRIVATE_KEY = re.compile(r"^(?:is_?)?private$", re.I)


#: What a tool named `log_…` reads rather than records (`log_entries`, `log_history`).
_LOG_NOUNS = frozenset(
    ["log", "logs", "entry", "entries", "event", "events", "history", "output", "messages",
     "lines", "tail", "stream", "file", "files"]
)  # fmt: skip


#: Verbs that take someone's access away (`deactivate_user`, `suspend_member`,
#: `unshare_file`): a change to who may reach a thing, which gives nobody anything and
#: leaves the thing itself.
TAKES_ACCESS = frozenset(
    ["deactivate", "suspend", "disable", "lock", "block", "freeze", "pause", "expire", "unshare",
     "uninvite", "unassign", "unfollow", "unwatch"]
)  # fmt: skip


#: A card or an account kept on file to pay with: changing which is no payment.
_HOW_PAID = frozenset(["method", "methods", "instrument", "instruments"])


def kind_of_words(found: Iterable[str]) -> EffectKind:
    """A tool name's effect: its leading verb, else the strictest verb in it; an action on
    money is a payment, on membership a grant (so is handing a thing to another owner); a
    post made is published."""
    listed = list(found)
    t = table()
    lead = lead_verb(listed)
    kind: EffectKind = _kind_of(lead) if lead else "unknown"
    if lead == "log" and listed[-1] not in _LOG_NOUNS:
        kind = "create"  # `log_workout`, `log_expense`: an entry recorded (`log` alone reads)
    present = set(listed)
    if kind == "pay" and lead in ("transfer", "transfers") and present & t.handed_over:
        return "grant"  # `transfer_repo`: another owner given it, no money moved
    if kind in ("send", "create", "modify", "delete") and present & _HOW_PAID:
        return kind  # `set_payment_method`: how the user pays, no payment
    if kind in ("send", "create", "modify") and present & t.money and lead not in _MOVES_NO_MONEY:
        return kind if kind != "send" and present & t.money_asked else "pay"
    if (
        kind in ("create", "modify")
        and present & t.members
        and not present & t.own_details
        and lead not in TAKES_ACCESS
    ):
        return "grant"
    if kind == "create" and present & t.published and not present & t.drafts:
        return "send"
    return kind


def kinds_in(text: str) -> frozenset[EffectKind]:
    """Every effect a request's words name (a user may ask for several things)."""
    present = set(words(text))
    t = table()
    return frozenset(k for k in t.strictness if present & t.verbs[k])


_WEB = frozenset(
    ["web", "webpage", "website", "site", "url", "http", "https", "internet", "online", "browser"]
)


#: Words of a tool name that move money out, beside which "request" is not a request for it.
_PAYS_OUT = frozenset(["pay", "send", "transfer", "wire", "buy", "purchase", "checkout"])
_VERSION_CONTROL = frozenset(["git", "svn", "hg", "mercurial", "branch", "repo", "vcs"])
#: What opening shows rather than makes (`open_file`, not `open_ticket`).
_VIEWED = frozenset(
    ["file", "files", "url", "link", "page", "tab", "node", "nodes", "document", "doc",
     "folder", "directory", "window", "app", "image", "pdf", "browser", "editor", "note"]
)  # fmt: skip
#: A booking is made with a hotel, a restaurant or an airline: it leaves the user's hands.
_RENTS = frozenset(["rent", "hire", "lease"])
_BOOKED = frozenset(
    ["book", "reserve", "booking", "reservation", "reservations", "rent", "rental", "hire"]
)


#: Home Assistant's domains: `lock_unlock` is the lock domain's `unlock` service.
_DEVICE_DOMAINS = frozenset(
    ["lock", "light", "switch", "cover", "climate", "fan", "vacuum", "media", "alarm",
     "scene", "script", "automation", "siren", "valve", "humidifier", "camera", "remote",
     "button", "water", "input"]
)  # fmt: skip


def tool_verb(name: str) -> str:
    """The verb a tool is named by (`add` in `add_user_to_channel`, `unlock` in
    `lock_unlock`), or ''."""
    return lead_verb(_service_words(words(name.rsplit("__", 1)[-1])))


def after_verb(name: str, verbs: frozenset[str]) -> list[str] | None:
    """The words of a tool's name after its first verb among `verbs` (`repository` of
    `GitHubDeleteRepository`, whose toolkit comes first), or None when it holds none."""
    found = words(name.rsplit("__", 1)[-1])
    at = next((i for i, w in enumerate(found) if w in verbs), None)
    return None if at is None else found[at + 1 :]


def _service_words(found: list[str]) -> list[str]:
    """A device service's name less its domain, when a verb follows it (`lock_unlock` →
    unlock, `switch_turn_on` → turn on); `lock_door` keeps its verb."""
    if found[:2] == ["vacuum", "clean"]:
        return found[:1] + found[2:]  # `vacuum_clean_area`: a vacuum's cleaning is a run
    if len(found) > 1 and found[0] in _DEVICE_DOMAINS and lead_verb(found[1:]):
        return found[1:]
    return found


@functools.lru_cache(maxsize=4096)
def _tool_effect(name: str, description: str, hints: tuple[tuple[str, bool], ...]) -> Effect:
    notes = dict(hints)
    own = _service_words(words(name.rsplit("__", 1)[-1]))
    # the tool's own name outranks its description (which mentions what it does not do)
    kind = kind_of_words(own)
    if kind == "unknown" and set(own) & _RENTS:
        # `rent_car`, `hire_bike`: a booking ("rent" and "hire" are no verbs of the table:
        # "rent is 2200" and "a new hire" name things)
        kind = "create"
    described = kind == "unknown"
    if described:
        kind = kind_of_words(words(description)[:12])
    asks_for_money = (
        "request" in own
        and not set(own) & _PAYS_OUT
        and (kind == "pay" or (kind == "send" and bool(set(own) & table().money)))
    )
    if asks_for_money:
        kind = "send"  # `venmo_request`, `request_money`: asks someone for money, pays nothing
    if kind == "pay" and "checkout" in own and set(own) & _VERSION_CONTROL:
        kind = "modify"  # `git_checkout` switches a branch; a shop's checkout pays
    if kind == "delete" and own == ["git", "reset"]:
        kind = "modify"  # the MCP git server's `git_reset` unstages; the files are kept
    opened = own.index("open") if "open" in own else -1
    if kind == "create" and 0 <= opened < len(own) - 1 and own[opened + 1] in _VIEWED:
        kind = "read"  # `open_nodes`, `open_file`, `open_url`: shown, not made
    destructive = notes.get("destructiveHint") is True
    if (kind == "unknown" or described) and notes.get("readOnlyHint") is True and not destructive:
        # a name that says it changes things outranks a claim that it does not; a
        # description's verb does not ("Send an ICMP echo to a host", read-only)
        kind = "read"
    if destructive and kind in ("read", "create"):
        kind = "modify"  # (a tool whose words say nothing stays unknown: it goes to the model)
    named = set(words(name))
    lead = lead_verb(own)
    action = lead if lead in table().actions and kind != "read" else ""
    if not action and kind != "read" and "all" in own[1:]:
        action = "all"  # `reply_all_email`, `delete_all_alarms`: everyone, everything
    if asks_for_money:
        action = "request-money"  # "send Marta 25" pays her; it does not ask her to pay
    # a thing handed to another owner is theirs (taken back only if they give it back)
    handed = kind == "grant" and lead in ("transfer", "transfers")
    external = (
        notes.get("openWorldHint") is True
        or kind in ("send", "pay")
        or bool(named & (_WEB | _BOOKED))
        or handed
    )
    reversible = kind in ("read", "create", "modify", "configure") and not destructive
    return Effect(
        kind,
        "external" if external else "local",
        reversible,
        high_impact=handed,
        what=name,
        action=action,
    )


def tool_effect(
    name: str, description: str | None = None, annotations: Mapping[str, Any] | None = None
) -> Effect:
    """The effect a tool has by what it is (cached per tool description)."""
    hints = tuple(sorted((k, v) for k, v in (annotations or {}).items() if isinstance(v, bool)))
    return _tool_effect(name, (description or "")[:500], hints)


#: Arguments that name what a tool of several uses does in this call (`action="delete"`,
#: `command="unlock"`, `response="accepted"`): a verb, not a thing acted on.
OPERATION_KEY = re.compile(
    r"^(?:action|operation|op|operation_?(?:id|type|name)|action_?(?:id|type|name)|verb|"
    r"crud|mode|command|command_?(?:type|name)|response|rsvp|rsvp_?status|response_?status|"
    r"decision)$",
    re.IGNORECASE,
)


def split_camel(value: str) -> str:
    """`setHeatingSetpoint` → `set Heating Setpoint`: a device's command, as words."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", value)
