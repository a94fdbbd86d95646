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

import re
from collections.abc import Mapping
from typing import Any

from clef_tools.gate._effects import CallEffect, Effect
from clef_tools.gate._shell import shell_effects
from clef_tools.gate._sql import sql_effects
from clef_tools.protocol._secrets import secrets_in

__all__ = ["secret_written_issue", "written_deletes"]

_SQL_PATH = re.compile(r"\.sql$", re.IGNORECASE)
_SHELL_PATH = re.compile(r"\.(?:sh|bash|zsh)$", re.IGNORECASE)
_SHEBANG = re.compile(r"^#!\s*/(?:usr/)?bin/(?:env\s+)?(?:ba|z|da)?sh\b")
#: What is read of a file's text (a script longer than this is not judged line by line).
_MAX_CODE = 100_000


def _written(args: Mapping[str, Any]) -> tuple[str, str] | None:
    """The path and the text a Write, Edit or MultiEdit puts there."""
    path = args.get("file_path") or args.get("path")
    if not isinstance(path, str):
        return None
    texts = [args.get(k) for k in ("content", "new_string", "new_str", "new_text")]
    texts += [e.get("new_string") for e in args.get("edits") or [] if isinstance(e, dict)][:64]
    text = "\n".join(t for t in texts if isinstance(t, str))
    return (path, text[:_MAX_CODE]) if text.strip() else None


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
