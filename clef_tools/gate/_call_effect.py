"""What one call does: a command or query it carries is judged by itself (`_shell`,
`_sql`), a click by what it clicks (`_page`); Claude Code's built-in tools by what each
does; any other tool by its own effect."""

from __future__ import annotations

import itertools
import re
import shlex
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from clef_tools.gate._effects import (
    FIND_KEY,
    OPERATION_KEY,
    PRIVATE_KEY,
    REVIEW_VERDICT_KEYS,
    REVIEW_VERDICTS,
    CallEffect,
    Effect,
    EffectKind,
    kind_of_words,
    lead_verb,
    split_camel,
    table,
    tool_effect,
    words,
)
from clef_tools.gate._insecure import edit_turns_off_checks
from clef_tools.gate._page import click_effect
from clef_tools.gate._powershell import looks_like_powershell, powershell_effects
from clef_tools.gate._shell import shell_effects
from clef_tools.gate._sql import describe_effect, sql_effects
from clef_tools.gate._weakened import edit_weakens_tests
from clef_tools.gate._written import written_deletes

__all__ = ["call_effect", "notifies", "operation_verb"]

_COMMAND_ARGS = ("command", "cmd", "script", "shell", "bash")
_SQL_ARGS = ("query", "sql", "statement", "statements")
_SQL_START = re.compile(
    r"^\s*(select|insert|update|delete|drop|truncate|grant|revoke|create|alter|with|replace"
    r"|merge|show|describe|copy|vacuum|analyze|explain)\b",
    re.IGNORECASE,
)


_RECIPIENT_KEYS = frozenset(
    {"attendees", "invitees", "participants", "guests", "to", "cc", "bcc", "recipients",
     "members", "share_with", "shared_with", "emails", "invite"}
)  # fmt: skip


def _has_recipients(args: Mapping[str, Any]) -> bool:
    """Whether the call names people it reaches (`attendees`, `add_attendees`, `cc`)."""
    return any(
        _recipient_key(str(key)) and value not in (None, "", [], {}) for key, value in args.items()
    )


def _recipient_key(key: str) -> bool:
    low = key.lower()
    if low in _RECIPIENT_KEYS:
        return True
    parts = re.split(r"[_\W]+", low)
    return len(parts) > 1 and parts[-1] in _RECIPIENT_KEYS and parts[-1] not in ("to", "invite")


_SHELLS = frozenset(
    ["bash", "sh", "zsh", "dash", "/bin/bash", "/bin/sh", "/bin/zsh", "/usr/bin/bash"]
)


#: Words of a tool that runs what it is given on a machine: its `command` is a shell's.
_SHELL_TOOL = frozenset(
    ["shell", "bash", "sh", "zsh", "terminal", "exec", "execute", "run", "cmd", "console",
     "ssh", "powershell", "script", "cli", "process", "subprocess", "os", "system"]
)  # fmt: skip


def _device_command(bare: str, command: str) -> bool:
    """A command a device or a service takes by name (`smartthings_command(command=
    "unlock")`, `setHeatingSetpoint`): one word the verb table knows, given to a tool whose
    name says nothing of a shell. Judged as the operation it names, not as a program."""
    if set(words(bare)) & _SHELL_TOOL or not re.fullmatch(r"[A-Za-z][A-Za-z_]{1,60}", command):
        return False
    return kind_of_words([_base(w) for w in words(split_camel(command))]) != "unknown"


_POWERSHELLS = frozenset(["powershell", "powershell.exe", "pwsh", "pwsh.exe"])


def _command_text(value: Any) -> str | None:
    """A command as a shell would run it: a string as it stands; an argv list (Codex's
    `{"command": ["bash", "-lc", "rm -rf src"]}`) as the script a shell is handed, or as
    its words quoted back into one command line."""
    if isinstance(value, str):
        return value
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        return None
    argv = [str(v) for v in value[:4096]]
    if argv[0] in _SHELLS and len(argv) == 3 and argv[1] in ("-c", "-lc", "-cl"):
        return argv[2]
    if argv[0].rsplit("\\", 1)[-1].lower() in _POWERSHELLS:
        # `["powershell.exe", "-NoProfile", "-Command", "Get-ChildItem"]`: the script
        rest = [
            a for a in argv[1:] if a.lower() not in ("-noprofile", "-noninteractive", "-nologo")
        ]
        if len(rest) == 2 and rest[0].lower() in ("-command", "-c"):
            return rest[1]
    return shlex.join(argv)


def call_effect(
    name: str,
    args: Mapping[str, Any],
    *,
    description: str | None = None,
    annotations: Mapping[str, Any] | None = None,
) -> CallEffect:
    """What this call does: a command or query it carries is judged by itself; Claude
    Code's built-in tools by what each does; any other tool by its own effect."""
    bare = name.rsplit("__", 1)[-1]
    command = next(
        (c for k in _COMMAND_ARGS if (c := _command_text(args.get(k))) is not None), None
    )
    if (
        command is not None
        and kind_of_words(words(bare)) in ("execute", "unknown")
        and not _device_command(bare, command)
    ):
        if re.search(r"powershell|pwsh", bare, re.I) or looks_like_powershell(command):
            return powershell_effects(command)
        return shell_effects(command)
    code = _python_code(bare, args)
    if code is not None:
        # a code interpreter's cell is judged as `python -c` is: what only reads is a read
        return shell_effects("python3 -c " + shlex.quote(code))
    query = next((args[k] for k in _SQL_ARGS if isinstance(args.get(k), str)), None)
    if query is not None and _SQL_START.match(query):
        return sql_effects(query)
    described = describe_effect(query) if query is not None else None
    if described is not None:
        return described
    clicked = click_effect(name, args)
    if clicked is not None:
        return clicked
    builtin = table().builtin.get(bare.lower())
    if builtin is not None and bare[:1].isupper():
        content = args.get("content")
        if bare == "NotebookEdit" and str(args.get("edit_mode", "")).lower() == "delete":
            # a cell removed is a delete, whatever the tool is called
            path = str(args.get("notebook_path", ""))[:200]
            builtin = Effect("delete", what=f"deletes a cell of {path}")
        elif (
            bare == "Write"
            and isinstance(content, str)
            and not content.strip()
            and str(args.get("file_path", "")).replace("\\", "/").rsplit("/", 1)[-1]
            not in _EMPTY_BY_DESIGN
        ):
            # writing nothing over a file is how its contents are destroyed
            path = str(args.get("file_path", ""))[:200]
            builtin = Effect("delete", reversible=False, what=f"empties {path}")
        elif builtin.kind == "modify":
            # a test weakened, a check switched off: actions the user must name
            action = (
                "weaken-tests"
                if edit_weakens_tests(bare, args)
                else "weaken-security"
                if edit_turns_off_checks(bare, args)
                else "deferred-delete"
                if written_deletes(args) is not None
                else ""
            )
            if action:
                path = str(args.get("file_path") or args.get("notebook_path") or "")[:200]
                builtin = replace(builtin, what=f"{bare} {path}", action=action)
        return CallEffect((builtin,), "builtin")
    service = _service_called(bare, args)
    effect = tool_effect(service or name, None if service else description, annotations)
    operated = _operation_effect(bare, effect, args)
    if operated is not None:
        effect = operated
    if effect.kind == "execute":
        if set(words(bare)) & _RUNS_CODE or effect.reach == "external":
            # runs something the call does not show: not judgeable
            effect = Effect("unknown", effect.reach, effect.reversible, what=effect.what)
        else:
            # `start_appliance`, `vacuum_start`: a device's program, stopped the same way
            effect = Effect("execute", what=effect.what, action=effect.action)
    unfiltered = _unfiltered(args) if effect.kind in ("delete", "modify") else None
    if unfiltered is not None:
        # `delete_many(filter={})`: a filter that holds nothing matches every record, as a
        # `DELETE` without a `WHERE` does
        what = f"{effect.what}: {unfiltered} matches every record"
        effect = replace(effect, reversible=False, high_impact=True, what=what)
    if effect.kind == "send" and _kept_as_draft(args):
        # `create_post(status="draft")`, `publish=False`: made and kept, nothing goes out
        effect = Effect("create", what=f"{effect.what} (a draft)")
    if effect.kind != "read" and _switches_off_watch(bare, args):
        effect = replace(effect, action="watch-off")
    if effect.action == "replace" and any(FIND_KEY.match(str(k)) for k in list(args)[:32]):
        # `docs_replace_text(find="January 5", replace="January 12")`: one passage edited,
        # as a change asks, not the whole text set anew
        effect = replace(effect, action="")
    if effect.kind == "read" and _downloads_a_link(bare, args):
        # `download_file(url=…)` saves what a link holds here, as `wget` does
        effect = Effect("create", "external", what=effect.what)
    elif effect.kind == "read" and effect.reach == "local" and _holds_a_link(args, 16):
        # `fetch(url="https://…")`: a request to another's server, whatever its name says
        # (a query string carries what it is given)
        effect = replace(effect, reach="external")
    source = "annotations" if annotations else "name"
    return _with_switches(CallEffect(_companions(effect, bare, args), source), bare, args)


#: What a code interpreter's tool is called by (`execute_python`, `run_code`, `python`).
_INTERPRETER_WORDS = frozenset(
    ["python", "py", "python3", "ipython", "jupyter", "notebook", "interpreter", "code", "repl"]
)
_CODE_ARGS = ("code", "python_code", "source_code", "python", "cell")
_PYTHON_NAMES = frozenset(["python", "python3", "py", "ipython"])


def _python_code(bare: str, args: Mapping[str, Any]) -> str | None:
    """The Python a code interpreter's call runs (`execute_python(code=…)`, `run_code(code=
    …, language="python")`), if it is one."""
    named = set(words(bare))
    if not named & _INTERPRETER_WORDS or kind_of_words(words(bare)) not in ("execute", "unknown"):
        return None
    language = str(args.get("language") or args.get("lang") or "").strip().lower()
    # no language given: the tool's name must say which (`execute_python`, `jupyter_run`)
    implied = not language and bool(named & (_PYTHON_NAMES | {"jupyter", "notebook"}))
    if language not in _PYTHON_NAMES and not implied:
        return None
    return next((c for k in _CODE_ARGS if isinstance(c := args.get(k), str)), None)


#: Arguments that pick the records a bulk call acts on (MongoDB's `filter`, a search
#: query, Elasticsearch's `query`).
_FILTER_KEY = re.compile(r"^(?:filter|where|selector|criteria|conditions|query|q|match)$", re.I)
_EMPTY_FILTERS = frozenset(["", "{}", "[]", "*", "*:*"])


def _unfiltered(args: Mapping[str, Any]) -> str | None:
    """The filter argument that picks every record (`filter={}`, `query="*"`,
    `query={"match_all": {}}`), if the call has one."""
    for key, value in itertools.islice(args.items(), 64):
        if not _FILTER_KEY.match(str(key)):
            continue
        if (
            isinstance(value, Mapping)
            and set(value) <= {"match_all"}
            and (not value or value.get("match_all") in ({}, None))
        ):
            return f"{key}={dict(value)}"
        empty = isinstance(value, str) and value.strip() in _EMPTY_FILTERS
        if empty or (isinstance(value, list) and not value):
            return f"{key}={value!r}"
    return None


#: Switches that make a rule or a setting act on its own: mail a filter deletes or
#: forwards as it arrives (`create_filter(delete=True)`, `forward=True`).
_SWITCHED_KINDS: dict[str, EffectKind] = {
    "delete": "delete", "trash": "delete", "purge": "delete", "discard": "delete",
    "forward": "send", "autoforward": "send",
}  # fmt: skip


#: What a comment, a note or a reply on a record is called: its `public` flag says who
#: reads it (the ticket's requester), not that the record is opened to everyone.
_REMARKS = frozenset(["comment", "comments", "note", "notes", "reply", "replies", "remark"])


#: Rooms of a workspace's chat, which a "public" setting opens to its members only.
_ROOMS = frozenset(["channel", "channels", "room", "rooms", "chat", "chats", "conversation"])


def _companions(effect: Effect, bare: str, args: Mapping[str, Any]) -> tuple[Effect, ...]:
    """The tool's effect and what its arguments add to it: a thing opened to anyone, an
    approval, an invitation's notices."""
    opened = _opens_to_anyone(args)
    named = set(words(bare))
    if (
        opened is not None
        and effect.kind == "create"
        and named & _ROOMS
        and PRIVATE_KEY.match(opened.split("=", 1)[0])
    ):
        # `create_channel(is_private=False)`: a channel the workspace can find, as chat
        # apps make one by default; not a thing opened to the world
        opened = None
    if (
        (opened is not None or "public" in named)
        and effect.kind not in ("read", "unknown")
        and named & _REMARKS
    ):
        # `add_ticket_comment(public=True)`, `add_public_reply`: the comment goes to the
        # requester, as a reply does; "add an internal note" asks for none
        told = Effect("send", "external", reversible=False,
                      what=f"{bare}: {opened}" if opened else bare,
                      action="public-reply")  # fmt: skip
        return (effect, told)
    if opened is not None and effect.kind not in ("read", "unknown"):
        # `private=False`, `visibility="public"`, `link_access="anyone"`: whatever the tool
        # calls the change, it hands the thing to everyone, which no later change takes back
        public = Effect(
            "grant",
            "external",
            reversible=False,
            high_impact=True,
            what=f"{bare}: {opened}",
            action="public",
        )
        return (effect, public)
    verdict = _verdict_given(args)
    if effect.kind == "read" and verdict is not None:
        # `review_pr(event="REQUEST_CHANGES")`: a review posted, not one read
        effect = Effect("send", "external", reversible=False, what=f"{bare}: {verdict}")
    approval = _approves(args)
    if approval is not None and effect.kind not in ("read", "unknown"):
        # `create_pull_request_review(event="APPROVE")`: the change let through the review
        # rule, like `gh pr review --approve`; the user asks for that in so many words
        approve = Effect(
            "grant", "external", reversible=False, what=f"{bare}: {approval}", action="approve"
        )
        if effect.kind == "send" and not _says_something(args):
            return (approve,)  # a review that says nothing is the approval alone
        return (effect, approve)
    if effect.kind in ("create", "modify") and _sent_as_made(args):
        # `create_invoice(send=True)`: made and sent in one call, as `send_invoice` is
        sent = Effect("send", "external", False, what=f"{bare}: sent as it is made")
        return (effect, sent)
    notify = notifies(args)
    invites = effect.kind in ("create", "modify") and _has_recipients(args)
    if invites and notify is not False and "draft" not in bare.lower():
        # an event or a document with attendees is an invitation: it reaches other people
        # (`send_updates="all"`: now, and as a message of its own)
        effect = replace(effect, reach="external", reversible=False)
        if notify:
            sent = Effect("send", "external", False, what=f"{bare}: notifies its recipients")
            return (effect, sent)
    return (effect,)


#: An argument that agrees to a charge (`upgrade_fee=180`, `late_fee`, `surcharge`).
_FEE_KEY = re.compile(r"(?:^|_)(?:fee|fees|surcharge)$|Fee$|Surcharge$")


def _fee(args: Mapping[str, Any]) -> str | None:
    """The argument by which a call agrees to pay a charge, if one does (a positive sum)."""
    for key, value in itertools.islice(args.items(), 32):
        if not _FEE_KEY.search(str(key)) or isinstance(value, bool):
            continue
        try:
            paid = float(str(value).replace(",", "").lstrip("$€£"))
        except ValueError:
            continue
        if paid > 0:
            return f"{key}={value}"
    return None


def _with_switches(call: CallEffect, bare: str, args: Mapping[str, Any]) -> CallEffect:
    """The call's effects and those of switches it turns on (`delete=True` on a filter
    deletes what it matches, whatever the tool's own name says), and a charge it agrees to
    (`check_in(seat_upgrade=True, upgrade_fee=180)` pays 180)."""
    found: list[Effect] = []
    fee = _fee(args) if "pay" not in call.kinds else None
    if fee is not None:
        found.append(Effect("pay", "external", reversible=False, what=f"{bare}: {fee}"))
    for key, value in itertools.islice(args.items(), 32):
        if value is not True:
            continue
        parts = re.split(r"[_\W]+", str(key).lower())
        kind = next((_SWITCHED_KINDS[p] for p in parts if p in _SWITCHED_KINDS), None)
        if kind is not None and kind not in call.kinds:
            what = f"{bare}: {key}=True"
            found.append(
                Effect(kind, "external", reversible=False, what=what)
                if kind == "send"
                else Effect(kind, reversible=False, what=what)
            )
    return replace(call, effects=(*call.effects, *found[:2])) if found else call


_LINK = re.compile(r"^\s*(?:https?|ftp)://", re.IGNORECASE)

#: Verbs of a tool that does several things, the one it does named by an argument
#: (`manage_records(action="delete")`, `control_device(action="turn off")`).
_GENERIC_VERBS = frozenset(
    ["manage", "control", "handle", "perform", "process", "operate", "do", "crud", "invoke",
     "call", "use", "api", "apply", "command", "commands"]
)  # fmt: skip
#: An HTTP method is what a request tool does to the resource at its link.
_HTTP_METHODS: dict[str, Any] = {
    "get": "read", "head": "read", "options": "read", "post": "send", "put": "modify",
    "patch": "modify", "delete": "delete",
}  # fmt: skip
_HTTP_TOOL = frozenset(["http", "https", "request", "requests", "api", "fetch", "curl", "rest"])


def _operation_effect(bare: str, effect: Effect, args: Mapping[str, Any]) -> Effect | None:
    """What a tool that does several things does in this call, by the argument naming
    it: `EpicFHIRManagePatientRecords(action="delete")` deletes, whatever the first verb
    of its description ("List, create, update, and delete …"); `http_request(method=
    "DELETE")` deletes, `method="GET"` only reads."""
    own = words(bare)
    method = args.get("method")
    if isinstance(method, str) and set(own) & _HTTP_TOOL:
        kind = _HTTP_METHODS.get(method.strip().lower())
        if kind is not None:
            reversible = kind in ("read", "modify")
            return Effect(kind, "external", reversible, what=f"{bare} {method.upper()[:10]}")
    found = _operation(bare, args)
    if found is None:
        return None
    key, value, named = found
    if not _generic(own):
        # `TradeStock(action="sell")`: the tool's own verb holds, but what the argument
        # says it does is what the user's words are checked against
        return replace(effect, what=f"{effect.what} {key}={value[:40]}")
    # the tool's own nouns still say what is acted on: an `add` of a collaborator grants
    kind = kind_of_words([*named, *(w for w in own if w not in _GENERIC_VERBS)])
    if kind == effect.kind:
        return None
    reversible = kind in ("read", "create", "modify", "configure")
    lead = lead_verb(named)
    action = lead if lead in table().actions and kind != "read" else ""
    return Effect(kind, effect.reach, reversible, what=f"{bare} {key}={value[:40]}", action=action)


def _generic(own: list[str]) -> bool:
    """A tool whose name says no one thing it does (`manage_records`, `control_device`)."""
    return not own or kind_of_words(own) == "unknown" or bool(set(own) & _GENERIC_VERBS)


def _operation(bare: str, args: Mapping[str, Any]) -> tuple[str, str, list[str]] | None:
    """The argument that names what a tool of several uses does (key, value, its words)."""
    for key, value in itertools.islice(args.items(), 64):
        if OPERATION_KEY.match(str(key)) and isinstance(value, str) and len(value) <= 60:
            named = [_base(w) for w in words(split_camel(value))]
            if named and kind_of_words(named) != "unknown":
                return str(key), " ".join(named), named
    return None


def _base(word: str) -> str:
    """A verb as the table holds it: `declined` → decline, `accepted` → accept."""
    if kind_of_words([word]) != "unknown":
        return word
    for cut in ("d", "ed"):
        if word.endswith(cut) and kind_of_words([word[: -len(cut)]]) != "unknown":
            return word[: -len(cut)]
    return word


def operation_verb(name: str, args: Mapping[str, Any]) -> str:
    """The verb an argument names for a tool of several uses (`add` of
    `GitHubManageCollaborator(action="add")`), or ''."""
    bare = name.rsplit("__", 1)[-1]
    found = _operation(bare, args) if _generic(words(bare)) else None
    return lead_verb(found[2]) if found else ""


#: What watches a home, and the words that stop it watching.
_WATCHES = frozenset(["camera", "cameras", "siren", "detector", "surveillance", "alarm", "smoke"])
_OFF = frozenset(["off", "disable", "disarm", "stop", "mute", "deactivate", "pause"])
_WATCH_ENTITY = re.compile(r"^(?:camera|siren|alarm_control_panel)\.", re.IGNORECASE)


def _switches_off_watch(bare: str, args: Mapping[str, Any]) -> bool:
    """`camera_turn_off`, `turn_off(entity_id="camera.porch")`, `disarm_alarm`: a camera,
    an alarm or a detector stopped from watching."""
    own = set(words(bare))
    if not own & _OFF:
        return False
    if own & _WATCHES:
        return True
    return any(
        isinstance(v, str) and _WATCH_ENTITY.match(v)
        for v in itertools.chain(args.values(), *(x for x in args.values() if isinstance(x, list)))
    )


def _holds_a_link(args: Mapping[str, Any], first: int) -> bool:
    """Whether one of the first `first` arguments is a link."""
    return any(
        isinstance(v, str) and _LINK.match(v) is not None
        for v in itertools.islice(args.values(), first)
    )


def _downloads_a_link(bare: str, args: Mapping[str, Any]) -> bool:
    """A download tool given a link (not `download_statement(month=…)`, which reads the
    user's own records)."""
    if "download" not in words(bare):
        return False
    return _holds_a_link(args, 64)


def _service_called(bare: str, args: Mapping[str, Any]) -> str | None:
    """Home Assistant's generic `call_service(domain="cover", service="open_cover")`: the
    service named is what the call does (`lock.unlock` unlocks), not "call a service"."""
    if "service" not in bare.lower() or not isinstance(args.get("service"), str):
        return None
    service = args["service"].strip()
    if "." in service and not isinstance(args.get("domain"), str):
        service = service.split(".", 1)[1]  # `service="lock.unlock"`
    return service[:80] if re.fullmatch(r"[a-z][a-z0-9_]{1,79}", service) else None


#: Files that are empty by design (a package's `__init__.py`, a folder kept in git by its
#: `.gitkeep`, PEP 561's `py.typed`): written empty, they are made, not emptied.
_EMPTY_BY_DESIGN = frozenset(["__init__.py", ".gitkeep", ".keep", "py.typed", ".nojekyll"])


#: What a tool that runs something runs, when it is code rather than a device's program.
_RUNS_CODE = frozenset(
    ["script", "scripts", "code", "command", "commands", "cmd", "shell", "bash", "python",
     "js", "javascript", "eval", "exec", "job", "jobs", "workflow", "workflows", "pipeline",
     "program", "macro", "function", "lambda", "notebook", "cell", "query", "sql", "terminal",
     "process", "container", "automation", "action", "actions", "task", "tasks", "plugin"]
)  # fmt: skip
_NOTIFY_KEY = re.compile(
    r"^(?:send_?(?:updates|notifications?|invit\w*|emails?)|notify\w*|"
    r"send_?invites?)$",
    re.I,
)
_NO = frozenset(["none", "no", "false", "off", "never", "0"])

#: Arguments that say who may see a thing, and the values that mean "anyone".
_AUDIENCE_KEY = re.compile(
    r"^(?:visibility|privacy|access|link_?access|general_?access|audience|acl|sharing|"
    r"share_?mode|scope|who_?can_?(?:view|see|access)|permission|role_?type|type)$",
    re.I,
)
_ANYONE = re.compile(
    r"^(?:public(?:[-_ ]read(?:[-_ ]write)?)?|anyone(?:[-_ ]with[-_ ]the[-_ ]link)?|"
    r"anyone[-_ ]?with[-_ ]?link|everyone|world|all|all[-_ ]?users|internet|open)$",
    re.I,
)
_PUBLIC_KEY = re.compile(r"^(?:is_?|make_?)?public(?:ly_?(?:visible|accessible))?$", re.I)


#: Keys whose value says what a review or a request decides, and the values that approve.
_APPROVES = frozenset(["approve", "approved", "approval", "lgtm"])
#: Where a review or a message holds its words.
_SAYING_KEYS = ("body", "comment", "text", "message", "content")


def _says_something(args: Mapping[str, Any]) -> bool:
    """Whether a call carries words of its own (a review's `body`), not only a verdict."""
    return any(isinstance(args.get(k), str) and args[k].strip() for k in _SAYING_KEYS)


def _verdict_given(args: Mapping[str, Any]) -> str | None:
    """The argument by which a call posts a review's verdict (`event="REQUEST_CHANGES"`)."""
    for key, value in list(args.items())[:32]:
        if (
            str(key).lower() in REVIEW_VERDICT_KEYS
            and isinstance(value, str)
            and value.strip().lower().replace(" ", "_") in REVIEW_VERDICTS
        ):
            return f"{key}={value}"
    return None


def _approves(args: Mapping[str, Any]) -> str | None:
    """The argument by which a call approves (`event="APPROVE"`), if one does."""
    for key, value in list(args.items())[:32]:
        if (
            str(key).lower() in REVIEW_VERDICT_KEYS
            and isinstance(value, str)
            and value.strip().lower() in _APPROVES
        ):
            return f"{key}={value}"
    return None


def _opens_to_anyone(args: Mapping[str, Any]) -> str | None:
    """The argument that opens what a call acts on to everyone (`private=False`,
    `visibility="public"`, `link_access="anyone"`), if one does; top-level and one level
    down (`settings={"visibility": "public"}`)."""
    for key, value in itertools.chain(
        args.items(),
        *(v.items() for v in args.values() if isinstance(v, Mapping)),
    ):
        name = str(key)
        flag = _flag(value)
        if (
            name.lower() == "scope"
            and isinstance(value, Mapping)
            and str(value.get("type", "")).lower() == "default"
        ):
            # Google Calendar's ACL: the `default` scope is the public, everyone
            return "scope.type=default"
        if PRIVATE_KEY.match(name) and flag is False:
            return f"{name}={value}"
        if _PUBLIC_KEY.match(name) and flag is True:
            return f"{name}={value}"
        if _AUDIENCE_KEY.match(name) and isinstance(value, str) and _ANYONE.match(value.strip()):
            if name.lower() == "scope" and value.strip().lower() == "all":
                continue  # `delete_event(scope="all")`: every occurrence, not every person
            return f"{name}={value}"
    return None


#: A switch that sends what a call makes (`send=True`, `send_now`, `auto_send`), and one
#: that keeps it unsent (`status="draft"`, `draft=True`, `publish=False`).
_SEND_NOW_KEY = re.compile(
    r"^(?:send|send_?now|send_?immediately|auto_?send|deliver|publish|publish_?now"
    r"|email_?(?:customer|client)"
    r"|send_?to_?(?:customer|client))$",
    re.IGNORECASE,
)
_DRAFT_STATE_KEY = re.compile(r"^(?:status|state|post_?status|visibility)$", re.IGNORECASE)
_PUBLISH_KEY = re.compile(r"^(?:publish|published|publish_?now|send|send_?now)$", re.IGNORECASE)


def _flag(value: object) -> bool | None:
    """A switch's setting, as a boolean or its text (`"true"`, `"False"`); None otherwise."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


def _switched_on(value: object) -> bool:
    """A switch set on, in the words tools take for it (`True`, `"yes"`, `"now"`)."""
    return _flag(value) is True or (
        isinstance(value, str) and value.strip().lower() in ("yes", "1", "now")
    )


def _sent_as_made(args: Mapping[str, Any]) -> bool:
    return any(_SEND_NOW_KEY.match(str(k)) and _switched_on(v) for k, v in list(args.items())[:32])


def _kept_as_draft(args: Mapping[str, Any]) -> bool:
    for key, value in list(args.items())[:32]:
        name = str(key)
        drafted = (
            _DRAFT_STATE_KEY.match(name) is not None
            and isinstance(value, str)
            and value.strip().lower() in ("draft", "drafted", "unpublished")
        )
        flagged = name.lower() in ("draft", "is_draft", "as_draft") and _switched_on(value)
        withheld = _PUBLISH_KEY.match(name) is not None and _flag(value) is False
        if drafted or flagged or withheld:
            return True
    return False


def notifies(args: Mapping[str, Any]) -> bool | None:
    """Whether a call's own flag says it sends notices (`send_updates="all"`, `notify:
    true`); None when it has no such flag."""
    said: bool | None = None
    for key, value in args.items():
        if not _NOTIFY_KEY.match(str(key)):
            continue
        if isinstance(value, bool):
            on = value
        elif isinstance(value, str):
            on = value.strip().lower() not in _NO
        else:
            continue
        said = on or bool(said)
    return said
