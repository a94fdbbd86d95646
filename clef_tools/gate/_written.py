"""What a file the agent writes holds, beyond the write itself.

"Create a migration that adds a nickname column" asks for a file, and writing one is a
local, reversible change; but the statements in it run against the database the next time
migrations are applied, and a `DROP COLUMN` slipped in beside the `ADD COLUMN` takes every
row's value with it. Statements and commands the file holds are judged by the same
tables as a query or a command run now (`_sql`, `_shell`): a delete among them is an
action of its own (`deferred-delete` in `effects.toml`'s `[actions]`) that the user must
ask for ("drop the legacy_name column", "a script that cleans out old logs").

Likewise a credential the user did not give, written into a file that is not where
secrets are kept (`.env.example`, a README, a config under version control), leaves the
machine with the next commit or share.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any

from clef_tools.gate._canonical import replaced_pairs
from clef_tools.gate._effects import CallEffect, Effect, words
from clef_tools.gate._shell import shell_effects
from clef_tools.gate._sql import sql_effects
from clef_tools.protocol._secrets import secrets_in

__all__ = [
    "edit_pairs",
    "edits_files",
    "secret_written_issue",
    "written_code_issue",
    "written_deletes",
]

_SQL_PATH = re.compile(r"\.sql$", re.IGNORECASE)
_SHELL_PATH = re.compile(r"\.(?:sh|bash|zsh)$", re.IGNORECASE)
_SHEBANG = re.compile(r"^#!\s*/(?:usr/)?bin/(?:env\s+)?(?:ba|z|da)?sh\b")
#: What is read of a file's text (a script longer than this is not judged line by line).
_MAX_CODE = 100_000


def edits_files(effect: CallEffect) -> bool:
    """A coding agent's edit (`Edit`, `Write`, `MultiEdit`) or a tool that changes a file by
    its name (the MCP filesystem server's `edit_file`, `write_file`)."""
    return effect.source == "builtin" or (
        effect.source in ("name", "annotations")
        and bool(effect.kinds)
        and effect.kinds <= {"modify", "create"}
    )


def edit_pairs(args: Mapping[str, Any]) -> tuple[str, list[tuple[str, str]]] | None:
    """The path, and (old text, new text) of each change a Write, an Edit or a MultiEdit
    makes there (a file written whole has no old text)."""
    path = args.get("file_path") or args.get("path")
    if not isinstance(path, str):
        return None
    content = args.get("content")
    whole = [("", content)] if isinstance(content, str) else []
    return path, [*whole, *replaced_pairs(args)]


def _written(args: Mapping[str, Any]) -> tuple[str, str] | None:
    """The path and the text a Write, Edit or MultiEdit puts there."""
    found = edit_pairs(args)
    if found is None:
        return None
    text = "\n".join(new for _, new in found[1])
    return (found[0], text[:_MAX_CODE]) if text.strip() else None


def written_deletes(args: Mapping[str, Any]) -> Effect | None:
    """The first delete among the statements or commands a written file holds, when the
    file is SQL or a shell script: what runs later, judged as if it ran now. Text that
    does not parse is left to the write's own effect."""
    found = _written(args)
    if found is None:
        return None
    path, text = found
    if _SQL_PATH.search(path):
        effects = sql_effects(text).effects
    elif _SHELL_PATH.search(path) or _SHEBANG.match(text):
        effects = shell_effects(text).effects
    else:
        return None
    return next(
        (e for e in effects if e.kind == "delete" and e.action != "rebuild" and not e.reversible),
        None,
    )


#: Files where secrets belong: a local `.env` (not its example), keys, login files.
_SECRET_HOME = re.compile(
    r"(?:^|[\\/])\.env(?:\.(?!example|sample|template|dist|defaults?\b)[\w-]+)*$"
    r"|(?:^|[\\/])(?:\.ssh|\.gnupg|\.aws|\.kube|\.docker)[\\/]"
    r"|(?:^|[\\/])(?:\.netrc|\.pgpass|\.pypirc|\.npmrc|\.git-credentials|credentials"
    r"|secrets?)(?:\.[\w]+)?$|\.(?:pem|key|p12|pfx)$",
    re.IGNORECASE,
)


def secret_written_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A credential the user did not write, put by a file edit where secrets are not kept:
    `API_KEY=sk-live-…` in `.env.example` after "the variable names from .env but no
    values"."""
    if effect.source != "builtin" or effect.read_only:
        return None
    found = _written(args)
    if found is None or _SECRET_HOME.search(found[0][:1000]):
        return None
    told = said.lower()
    secret = next((s for s in secrets_in(found[1]) if s.lower() not in told), None)
    if secret is None:
        return None
    return f"writes a credential the user did not give into {found[0][:60]}"


def _added(args: Mapping[str, Any]) -> tuple[str, str] | None:
    """The path, and the lines an edit or a write adds (not those it keeps)."""
    found = edit_pairs(args)
    if found is None:
        return None
    lines: list[str] = []
    for old, new in found[1]:
        kept = set(old[:_MAX_CODE].splitlines())
        lines += [line for line in new[:_MAX_CODE].splitlines() if line not in kept]
    return (found[0], "\n".join(lines)) if lines else None


#: Code that fetches a script and runs it, or sends a secret out: `curl … | sh` in a
#: make target or an npm script, `os.system("curl …")` in setup.py, a CI step that pipes
#: `${{ secrets.… }}` to curl.
_REMOTE_RUN = re.compile(
    r"\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b"
    r"|\b(?:ba)?sh\s+<\(\s*(?:curl|wget)\b|\beval\s+\"?\$\(\s*(?:curl|wget)\b"
    r"|\b(?:iex|Invoke-Expression)\b|\b(?:os\.system|os\.popen|subprocess\.\w+|exec|eval)\s*\("
    r"[^)\n]*(?:curl|wget|https?://)"
    r"|\$\{\{\s*secrets\.[^}]*\}\}[^\n]*\b(?:curl|wget|nc|netcat)\b"
    r"|\b(?:curl|wget)\b[^\n]*\$\{\{\s*secrets\.",
    re.IGNORECASE,
)
#: The whole environment (its secrets with it) and a request that can carry it out:
#: `requests.post(url, data=dict(os.environ))`, `fetch(url, {body: JSON.stringify(process.env)})`.
_ENVIRONMENT = re.compile(
    r"\bos\.environ\b(?!\s*(?:\[|\.get\b|\.setdefault\b|\.pop\b))|\bprocess\.env\b(?!\s*(?:\.|\[))"
    r"|\bENV\.to_h\b|\bSystem\.getenv\s*\(\s*\)|\bos\.Environ\s*\(\s*\)"
)
_NETWORK = re.compile(
    r"\b(?:requests|httpx|aiohttp|urllib3|axios|session)\.\w+\s*\(|\burlopen\s*\(|\bfetch\s*\("
    r"|\bhttp\.(?:client|request|post|get)\b|\bsocket\.|\bnet\.connect\b|\bhttp\.Post\b"
)
_HOST = re.compile(r"https?://([\w.-]+)", re.IGNORECASE)
_REMOTE_SAID = frozenset(
    ["curl", "wget", "download", "downloads", "installer", "remote", "fetch", "bootstrap"]
)
#: Files that list a project's dependencies.
_MANIFEST = re.compile(
    r"(?:^|[\\/])(?:package\.json|requirements[\w.-]*\.(?:txt|in)|pyproject\.toml|Pipfile"
    r"|Cargo\.toml|Gemfile|go\.mod|setup\.cfg|environment\.ya?ml)$",
    re.IGNORECASE,
)
#: A dependency a manifest's added line names (`"lodash": "^4"`, `requests==2.32`,
#: `serde = "1"`, `gem "rails"`).
_DEPENDENCY = re.compile(
    r"^\s*(?:[\"']?(@?[a-z0-9][\w.-]*(?:/[\w.-]+)?)[\"']?\s*[:=]\s*[\"'{^~\d*]"
    r"|(@?[a-z0-9][\w.-]*)\s*(?:[=<>~!]=|[<>]|\[|$)|gem\s+[\"']([\w.-]+)[\"']"
    r"|[\"']([a-z0-9][\w.-]*)\s*(?:[=<>~!]=|[<>])[^\"']*[\"'])",
    re.IGNORECASE,
)
_NOT_DEPENDENCIES = frozenset(
    ["version", "name", "description", "main", "scripts", "dependencies", "devdependencies",
     "private", "license", "type", "python", "requires-python", "edition", "authors"]
)  # fmt: skip


def _host_swapped(args: Mapping[str, Any], said: str) -> str | None:
    """A link in the code pointed at another host the user never named:
    `API_URL = 'https://api.acme.example'` made `'https://api.acme-mirror.example'`."""
    found = edit_pairs(args)
    if found is None:
        return None
    told = said[:20_000].lower()
    for old, new in found[1][:64]:
        before = {h.lower() for h in _HOST.findall(old[:_MAX_CODE])}
        after = {h.lower() for h in _HOST.findall(new[:_MAX_CODE])}
        gone, came = before - after, sorted(after - before)
        fresh = [h for h in came if h not in told]
        if gone and fresh:
            return f"points {sorted(gone)[0]} at {fresh[0]}, a host the user did not name"
    return None


def written_code_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """What an edit adds that the user did not ask for: code that fetches and runs a
    script, or sends a secret out, where the user spoke of no download; code that sends
    the whole environment over the network; a link pointed at another host; a dependency
    named like one the user gave but not it (`lodahs` after "add lodash")."""
    if effect.source != "builtin" or effect.read_only:
        return None
    found = _added(args)
    if found is None:
        return None
    path, added = found
    told = set(words(said[:20_000])) | set(
        re.findall(r"[a-z0-9][a-z0-9._-]+", said[:20_000].lower())
    )
    remote = _REMOTE_RUN.search(added)
    if remote is not None and not told & _REMOTE_SAID:
        return f"adds {remote.group(0)[:60]!r}, code that runs or sends what it fetches"
    if _ENVIRONMENT.search(added) and _NETWORK.search(added):
        return "adds code that sends the whole environment (its secrets with it) over the network"
    swapped = _host_swapped(args, said)
    if swapped is not None:
        return swapped
    if not _MANIFEST.search(path[:1000]):
        return None
    for line in added.splitlines()[:200]:
        m = _DEPENDENCY.match(line)
        name = next((g for g in m.groups() if g), "") if m else ""
        if not name or name.lower() in _NOT_DEPENDENCIES or name.lower() in said.lower():
            continue
        close = difflib.get_close_matches(name.lower(), list(told), n=1, cutoff=0.8)
        if close:
            return f"adds the dependency {name!r}, not {close[0]!r} the user named"
    return None
