"""A coding agent's change against the project the user is working in.

Edits and builds inside the project can be undone and are the agent's job; a change to the
user's home, the machine's services or a dot-folder that runs code reaches further than
the words "fix the bug" ask.
"""

from __future__ import annotations

import re

from clef_tools.gate._effects import CallEffect, words
from clef_tools.gate._grounding import (
    Grounding,
    object_named,
)
from clef_tools.gate._licence import Licence
from clef_tools.gate._shell import beyond_project


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


def outside_project(effect: CallEffect, grounding: Grounding, said: str) -> bool:
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


def on_current_work(effect: CallEffect, licence: Licence) -> bool:
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


def in_project(effect: CallEffect, grounding: Grounding) -> bool:
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
