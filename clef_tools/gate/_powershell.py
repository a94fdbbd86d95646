"""What a PowerShell command does: Windows agents (Codex, Cursor's terminal, a `PowerShell`
tool) run cmdlets, which the bash grammar reads as unknown programs, so every one of them
escalated, `Get-ChildItem` as much as `Format-Volume`.

A cmdlet says what it does in its name: PowerShell's approved verbs (`Get`, `Set`, `New`,
`Remove`, `Install`, …, Microsoft's documented list) each belong to one kind of effect, and
the few cmdlets that do more than their verb says (`Format-Volume`, `Out-File`,
`Invoke-WebRequest -Method Post`) are named below. A script block (`ForEach-Object {
Remove-Item $_ }`) is read as the commands it holds; a native program (`git`, `npm`,
`dotnet`) as the bash table reads it. What the tables do not know is `unknown`, for the
model tier. No PowerShell parser installs from PyPI, so the splitting is done here, and it
is narrow on purpose: what it cannot split (an unclosed quote or block, a subexpression
`$(…)`, a call operator `&`) is unknown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from clef_tools.gate._effects import CallEffect, Effect, EffectKind, table
from clef_tools.gate._shell import classify_command

__all__ = ["looks_like_powershell", "powershell_effects"]

#: Cmdlets, by their documented aliases (the ones PowerShell ships, on Windows too).
_ALIASES = {
    **dict.fromkeys(("gci", "ls", "dir"), "get-childitem"),
    **dict.fromkeys(("gc", "cat", "type"), "get-content"),
    **dict.fromkeys(("ri", "rm", "del", "erase", "rd", "rmdir"), "remove-item"),
    **dict.fromkeys(("cpi", "cp", "copy"), "copy-item"),
    **dict.fromkeys(("mi", "mv", "move"), "move-item"),
    **dict.fromkeys(("rni", "ren"), "rename-item"),
    **dict.fromkeys(("ni",), "new-item"),
    **dict.fromkeys(("mkdir", "md"), "new-item"),
    **dict.fromkeys(("iwr", "wget", "curl"), "invoke-webrequest"),
    "irm": "invoke-restmethod",
    "iex": "invoke-expression",
    "icm": "invoke-command",
    "ii": "invoke-item",
    "sls": "select-string",
    **dict.fromkeys(("?", "where"), "where-object"),
    **dict.fromkeys(("%", "foreach"), "foreach-object"),
    "select": "select-object",
    "sort": "sort-object",
    "measure": "measure-object",
    **dict.fromkeys(("echo", "write"), "write-output"),
    **dict.fromkeys(("gps", "ps"), "get-process"),
    **dict.fromkeys(("spps", "kill"), "stop-process"),
    "gsv": "get-service",
    "sasv": "start-service",
    "spsv": "stop-service",
    **dict.fromkeys(("saps", "start"), "start-process"),
    **dict.fromkeys(("gl", "pwd"), "get-location"),
    **dict.fromkeys(("sl", "cd", "chdir"), "set-location"),
    **dict.fromkeys(("cls", "clear"), "clear-host"),
    "gi": "get-item",
    "gp": "get-itemproperty",
    "sp": "set-itemproperty",
    "gcm": "get-command",
    "gm": "get-member",
    **dict.fromkeys(("ft", "fl", "fw"), "format-table"),
}

#: Approved verbs, by the kind of effect they have (Microsoft's "Approved Verbs for
#: PowerShell Commands").
_VERB_KINDS: dict[str, EffectKind] = {
    **dict.fromkeys(
        ("get", "find", "search", "select", "where", "sort", "measure", "test", "resolve",
         "compare", "show", "read", "group", "trace", "watch", "format", "convertto",
         "convertfrom", "convert", "join", "split", "out", "write", "receive", "wait",
         "foreach", "tee", "push", "pop", "import", "use", "confirm", "ping"),
        "read",
    ),
    **dict.fromkeys(("new", "add", "copy", "export", "compress", "expand", "save"), "create"),
    **dict.fromkeys(
        ("set", "rename", "move", "edit", "update", "merge", "reset", "restore", "lock",
         "unlock", "mount", "dismount", "sync"),
        "modify",
    ),
    **dict.fromkeys(("remove", "clear", "uninstall", "unregister"), "delete"),
    **dict.fromkeys(
        ("start", "stop", "restart", "suspend", "resume", "enable", "disable", "install",
         "register"),
        "configure",
    ),
    **dict.fromkeys(("send", "publish"), "send"),
    **dict.fromkeys(("grant", "revoke", "block", "unblock", "protect", "unprotect"), "grant"),
}  # fmt: skip

#: Cmdlets that do more than their verb says.
_WIPES = frozenset(
    ["format-volume", "clear-disk", "initialize-disk", "remove-partition", "format-disk",
     "clear-recyclebin", "remove-computer"]
)  # fmt: skip
_POWER = frozenset(["stop-computer", "restart-computer"])
#: Cmdlets that write a file's text (`Clear-Content` empties it).
_WRITES_FILE = frozenset(
    ["out-file", "export-csv", "export-clixml", "set-content", "tee-object", "add-content",
     "clear-content", "set-item"]
)  # fmt: skip
_IN_SESSION = frozenset(
    ["set-location", "push-location", "pop-location", "set-variable", "new-variable",
     "add-member", "add-type", "new-object", "clear-host", "set-strictmode",
     "set-psreadlineoption"]
)  # fmt: skip
_GRANTS = re.compile(r"^(?:set-acl|add-(?:local|ad)?groupmember|grant-.*)$")
_WEB = frozenset(["invoke-webrequest", "invoke-restmethod"])
_RUNS_CODE = frozenset(["invoke-expression", "invoke-command", "start-job"])

#: Parameters that take no value (switches).
_SWITCHES = frozenset(
    ["recurse", "force", "whatif", "confirm", "verbose", "passthru", "noprofile", "nonewline",
     "raw", "append", "all", "quiet", "wait", "asjob", "file", "directory", "hidden", "debug",
     "usebasicparsing", "noninteractive", "allowclobber", "skippublishercheck",
     "acceptlicense", "simplematch", "casesensitive", "list", "unique", "descending",
     "recursive", "r", "fo", "rf", "s", "a", "nologo", "wrap", "autosize", "expandproperty"]
)  # fmt: skip
#: Parameters whose value is what the cmdlet acts on.
_OBJECT_PARAMS = frozenset(
    ["path", "literalpath", "filepath", "destination", "name", "id", "processname",
     "computername", "uri", "to", "newname", "displayname", "member", "identity", "user",
     "outfile", "infile", "driveletter", "number", "disknumber"]
)  # fmt: skip
_SENDING_PARAMS = frozenset(["body", "infile", "form"])
_CMDLET = re.compile(r"^[A-Za-z]+-[A-Za-z][A-Za-z0-9]*$")
_BROAD = re.compile(
    r"^(?:[A-Za-z]:[\\/]?|[\\/]|~[\\/]?|\$home[\\/]?|\$env:\w+[\\/]?|\*|\.[\\/]?\*?)$", re.I
)
_MAX_PARTS = 64


def looks_like_powershell(command: str) -> bool:
    """Whether a command given to a shell tool is a PowerShell one: it starts with a cmdlet
    (`Get-ChildItem`, `Remove-Item`) whose verb is an approved one."""
    first = command.lstrip().split(None, 1)[0] if command.strip() else ""
    return bool(_CMDLET.match(first)) and first.split("-", 1)[0].lower() in _VERB_KINDS


def powershell_effects(command: str, *, depth: int = 0) -> CallEffect:
    """Every part of a PowerShell command, classified. Never raises."""
    parts = _split(command)
    if parts is None or depth > 3:
        note = "the command does not split as PowerShell"
        return CallEffect((Effect("unknown", what=command[:80]),), "unparsed", note)
    effects: list[Effect] = []
    for tokens in parts[:_MAX_PARTS]:
        effects.extend(_element(tokens, depth))
    return CallEffect(tuple(effects) or (Effect("read", what=command[:80]),), "shell")


def _element(tokens: list[str], depth: int) -> list[Effect]:
    """One command of a pipeline, and the commands of the script blocks it is given."""
    inner = [
        e
        for t in tokens
        if t.startswith("{") and t.endswith("}")
        for e in powershell_effects(t[1:-1], depth=depth + 1).effects
    ]
    tokens, written = _redirects(tokens)
    if not tokens:
        return [*written, *inner]
    head = tokens[0]
    if head.startswith(("$", "(", "[", "'", '"', "{")) or re.match(r"^-?\d", head):
        # an expression (`$_.Status -eq 'Running'`, `$x = 1`): values in memory
        return [Effect("read", what=" ".join(tokens)[:200]), *written, *inner]
    if head.startswith("&") or "$(" in " ".join(tokens):
        return [Effect("unknown", what=" ".join(tokens)[:200]), *written, *inner]
    name = _ALIASES.get(head.lower(), head.lower())
    if not _CMDLET.match(name):
        # a program (`git status`, `npm ci`, `dotnet test`): as the bash table reads it
        argv = [head.removesuffix(".exe"), *(_plain(t) for t in tokens[1:])]
        return [*classify_command(argv), *written, *inner]
    return [_cmdlet(name, tokens[1:], head), *written, *inner]


_REDIRECT = re.compile(r"^(?:[1-6*]?>>?)(.*)$")


def _redirects(tokens: list[str]) -> tuple[list[str], list[Effect]]:
    """The tokens less their redirections, and the files those write (`> out.txt`; not
    `2>&1` or `> $null`, which write none)."""
    kept: list[str] = []
    written: list[Effect] = []
    i = 0
    while i < len(tokens):
        match = _REDIRECT.match(tokens[i])
        if match is None or tokens[i].startswith(("'", '"')):
            kept.append(tokens[i])
            i += 1
            continue
        target = match.group(1)
        if not target and i + 1 < len(tokens):
            target = tokens[i + 1]
            i += 1
        target = _plain(target)
        if target and not target.startswith("&") and target.lower() != "$null":
            written.append(Effect("modify", what=f"> {target}"[:200], objects=(_path(target),)))
        i += 1
    return kept, written


def _cmdlet(name: str, args: Sequence[str], written_as: str) -> Effect:
    text = " ".join([written_as, *args])[:200]
    params, objects = _params(args)
    verb = name.split("-", 1)[0]
    if "whatif" in params:
        return Effect("read", what=text, objects=objects)  # what it would do, shown
    if name in _WIPES:
        return Effect("delete", reversible=False, high_impact=True, what=text, objects=objects,
                      system=True)  # fmt: skip
    if name in _POWER:
        return Effect("configure", reversible=False, high_impact=True, what=text, system=True,
                      action="restart" if verb == "restart" else "")  # fmt: skip
    if name in _RUNS_CODE:
        # a string or a block run as code: what it runs is not in the call
        return Effect("execute", "external", reversible=False, high_impact=True, what=text)
    if name in _WEB:
        method = str(params.get("method", "get")).lower()
        if method in ("post", "put", "patch", "delete") or params.keys() & _SENDING_PARAMS:
            return Effect("send", "external", reversible=False, what=text, objects=objects)
        if "outfile" in params:
            return Effect("create", "external", what=text, objects=objects, fetched=True)
        return Effect("read", "external", what=text, objects=objects)
    if name == "set-executionpolicy":
        loose = any(
            str(v).lower() in ("unrestricted", "bypass") for v in (*objects, *params.values())
        )
        return Effect("configure", what=text, system=True,
                      action="weaken-security" if loose else "")  # fmt: skip
    if name in _IN_SESSION:
        return Effect("read", what=text)
    if name.endswith("-item") and verb == "remove":
        recursive = bool(params.keys() & {"recurse", "r", "rf"})
        broad = any(_BROAD.match(o) for o in objects)
        return Effect("delete", reversible=False, high_impact=broad or (recursive and not objects),
                      what=text, objects=objects)  # fmt: skip
    if name in _WRITES_FILE:
        changed: EffectKind = "delete" if name == "clear-content" else "modify"
        return Effect(changed, what=text, objects=objects)
    if _GRANTS.match(name):
        return Effect("grant", "external", reversible=False, what=text, objects=objects)
    kind: EffectKind = _VERB_KINDS.get(verb, "unknown")
    if name == "stop-process":
        kind = "delete"  # a process ended, as `kill` and `pkill` end one
    noun = name.split("-", 1)[1]
    system = noun in ("service", "process", "computer", "netfirewallrule", "localuser",
                      "scheduledtask", "windowsfeature", "windowsoptionalfeature")  # fmt: skip
    if verb in ("install", "uninstall") and noun in ("module", "package", "script", "psresource"):
        kind = "delete" if verb == "uninstall" else "configure"
        return Effect(kind, "external" if kind == "configure" else "local", what=text,
                      objects=objects, packages=kind == "configure")  # fmt: skip
    if any(o.lower().startswith(("hklm:", "hkcu:", "registry::")) for o in objects):
        system = True
    action = verb if verb in table().actions else ""
    return replace(
        Effect(kind, what=text, objects=objects, system=system and kind != "read"),
        action=action if kind != "read" else "",
    )


def _params(args: Sequence[str]) -> tuple[dict[str, str], tuple[str, ...]]:
    """(named parameters and their values, what the cmdlet acts on: its positional values
    and those of the parameters that name a path, a service, a process)."""
    params: dict[str, str] = {}
    objects: list[str] = []
    i = 0
    while i < len(args):
        token = args[i]
        if re.match(r"^-[A-Za-z]", token):
            key, _, value = token[1:].partition(":")
            key = key.lower()
            if (
                not value
                and key not in _SWITCHES
                and i + 1 < len(args)
                and not args[i + 1].startswith("-")
            ):
                value = args[i + 1]
                i += 1
            params[key] = _plain(value) if value else "true"
            if key in _OBJECT_PARAMS and value:
                objects.extend(_path(v) for v in _plain(value).split(",") if v.strip())
        elif not token.startswith("{"):
            objects.extend(_path(v) for v in _plain(token).split(",") if v.strip())
        i += 1
    return params, tuple(dict.fromkeys(o for o in objects if o))[:16]


def _path(value: str) -> str:
    """`.\\logs\\` → `logs`: a path as the rest of the gate reads one."""
    path = value.strip().replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/") if len(path) > 1 else path


def _plain(token: str) -> str:
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "'\"":
        return token[1:-1]
    return token


def _split(command: str) -> list[list[str]] | None:
    """The command's simple commands, each as its tokens: statements split at `;`, `&&`,
    `||` and new lines, pipelines at `|`, all outside quotes, blocks and parentheses.
    None when it cannot be split so (an unclosed quote, block or parenthesis)."""
    parts: list[list[str]] = []
    tokens: list[str] = []
    token = ""
    depth = 0
    quote = ""
    i = 0
    text = command[:100_000]
    while i < len(text):
        c = text[i]
        if quote:
            token += c
            if c == "`" and quote == '"' and i + 1 < len(text):
                token += text[i + 1]
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
            token += c
        elif c in "{(":
            depth += 1
            token += c
        elif c in "})":
            depth -= 1
            if depth < 0:
                return None
            token += c
        elif depth == 0 and (c in ";\n|" or text.startswith("&&", i)):
            if token:
                tokens.append(token)
            if tokens:
                parts.append(tokens)
            token, tokens = "", []
            if text.startswith(("&&", "||"), i):
                i += 1
        elif depth == 0 and c.isspace():
            if token:
                tokens.append(token)
            token = ""
        else:
            token += c
        i += 1
    if quote or depth:
        return None
    if token:
        tokens.append(token)
    if tokens:
        parts.append(tokens)
    return parts
