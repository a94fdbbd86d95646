"""Package managers and registries: installs by where they fetch from, publishes by the
registry they reach, and the system's own package tools."""

from __future__ import annotations

import re
from collections.abc import Sequence

from clef_tools.gate._effects import Effect
from clef_tools.gate._shell._checks import SNAPSHOT_FLAGS, deselects, fixes
from clef_tools.gate._shell._common import args_after, flag_values, flags_of, operands_of, rebuilt


#: Tools that run a command inside the project's environment (`uv run pytest`).
def package_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    sub = next((a for a in args if not a.startswith("-")), "")
    if tool == "yarn" and not sub:
        return [Effect("execute", what=text, routine=True)]  # `yarn`: the lockfile's install
    ops = operands_of(args_after(args, sub))
    lockfile = sub == "ci" or (sub in ("install", "i", "sync") and not ops)
    requirements = tool in ("pip", "pip3", "uv") and sub == "install" and "r" in flags_of(args)
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
        if SNAPSHOT_FLAGS & set(handed):
            return [Effect("execute", what=text, routine=True, action="update-snapshots")]
        if deselects(handed):
            return [Effect("execute", what=text, routine=True, action="weaken-tests")]
        if fixes(tool, handed):
            # `npm run lint -- --fix`: the script's linter rewrites what it checks
            return [Effect("modify", what=text, routine=True, action="autofix")]
        return [Effect("execute", what=text, routine=True)]
    source = _package_source(args)
    if source and sub in ("install", "i", "add", "ci", "sync", "update", "upgrade", "up"):
        # `pip install -r requirements.txt --index-url http://pypi.evil.example/simple`:
        # the packages come from wherever the flag points, which must be the user's word
        names = tuple(package_name(o) for o in ops if o not in ("install", "add"))
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
        # the ranges it pins, a change its lockfile's history undoes; "install the
        # dependencies" asks for the pinned ones, not every one moved
        return [Effect("configure", what=text, action="update-all")]
    if sub in ("install", "i", "add", "update", "upgrade", "up"):
        # `pip install -U requests`, `yarn upgrade lodash`: versions change, as on an
        # install; what the user names is the package, not `lodash@latest`
        names = tuple(package_name(o) for o in ops if o not in ("install", "add"))
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
        return [publish_effects(tool, ops, text, args)]
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
    named = tuple(package_name(o) for o in ops[1:] if o) if sub in ("owner", "dist-tag") else ()
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


def package_name(operand: str) -> str:
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


def publish_effects(
    tool: str, operands: Sequence[str], text: str, args: Sequence[str] = ()
) -> Effect:
    """A package leaves for its registry: the registry is what it reaches, so "publish it
    to npm" names `npm publish`; one the command names (`twine upload -r testpypi`, `npm
    publish --registry https://npm.acme.example`) is the one it reaches. A path it
    publishes from is an object too, unless it is the project's build output (`twine
    upload dist/*`)."""
    given = flag_values(args, _REGISTRY_FLAGS, _REGISTRY_FLAGS)[:1]
    named = given
    if given and (host := _PYPI_UPLOAD.match(given[0])) is not None:
        named = ["testpypi" if host.group(1) else "pypi"]  # its upload address, by its name
    paths = tuple(
        o
        for o in operands
        if o not in given
        and ("/" in o or o.startswith("."))
        and not rebuilt(o.lstrip("./").split("/", 1)[0])
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


def conda_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """conda and mamba: `conda env list` reports; an environment removed goes with every
    package in it (`conda env remove -n ml`, `conda remove -n ml --all`)."""
    ops = operands_of(args, frozenset(["-n", "--name", "-p", "--prefix", "-c", "--channel"]))
    sub = " ".join(ops[:2]) if ops[:1] == ["env"] else next(iter(ops), "")
    named = tuple(flag_values(args, ("-n", "--name")))[:4]
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
        names = tuple(package_name(o) for o in ops[1:9])
        return [Effect("configure", "external", what=text, objects=(*named, *names),
                       packages=bool(names))]  # fmt: skip
    return [Effect("unknown", what=text)]


def system_package_effects(args: Sequence[str], text: str) -> list[Effect]:
    sub = next(iter(operands_of(args)), "")
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


def package_database_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    flags = flags_of(args)
    if flags & _PACKAGE_QUERIES[tool]:
        return [Effect("read", what=text)]
    removes = flags & {"r", "P", "e", "--remove", "--purge", "--erase"}
    return [Effect("delete" if removes else "configure", what=text)]
