"""One simple command classified: the table of tools, the wrappers that run another
command (`uv run`, `npx`, `python -m`, `bundle exec`, `sudo`), dry runs and the
objects each effect names."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from clef_tools.gate._effects import Effect, EffectKind, table
from clef_tools.gate._pycode import reads_only
from clef_tools.gate._shell._admin import (
    SERVER_RELOAD,
    ansible_effects,
    certbot_effects,
    openssl_effects,
    secret_store_effects,
    server_config_effects,
    service_reads,
    service_restarts,
    settings_effects,
    ssh_add_effects,
    ssh_keygen_effects,
)
from clef_tools.gate._shell._checks import FORMATTERS
from clef_tools.gate._shell._cloud import PAAS, cloud_effects, paas_effects
from clef_tools.gate._shell._common import (
    BROAD,
    args_after,
    flag_values,
    flags_of,
    operands_of,
    shell_words,
)
from clef_tools.gate._shell._data import database_effects
from clef_tools.gate._shell._dev import (
    buf_effects,
    formatter_effects,
    jupyter_effects,
    runner_effects,
    site_builder_effects,
)
from clef_tools.gate._shell._files import (
    archive_effects,
    move_effects,
    remove_effects,
    sed_effects,
    sort_effects,
)
from clef_tools.gate._shell._frameworks import (
    django_effects,
    migration_effects,
    prisma_effects,
    rails_effects,
    runs_manage_py,
)
from clef_tools.gate._shell._git import git_effects
from clef_tools.gate._shell._http import curl_effects
from clef_tools.gate._shell._objects import command_objects
from clef_tools.gate._shell._packages import (
    conda_effects,
    package_database_effects,
    package_effects,
    system_package_effects,
)


def _interpreter(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    if args[:1] in (["--version"], ["-V"], ["--help"]):
        return [Effect("read", what=text)]
    if runs_manage_py(tool, args):
        return django_effects(args[1:], text)
    if tool.startswith("python") and args[:1] == ["-c"] and len(args) > 1 and reads_only(args[1]):
        # `python -c "import json; print(json.load(open('package.json'))['version'])"`
        return [Effect("read", what=text)]
    if tool.startswith("python") and args[:1] == ["-m"] and len(args) > 1:
        # `python -m pip install …`, `python -m pytest`: judged as the module's command
        module, rest = args[1], list(args[2:])
        if module in ("venv", "virtualenv"):
            return [Effect("create", what=text)]
        if module in _BY_TOOL or module in shell_words("routine") or module in shell_words("read"):
            return _classify([module, *rest], elevated=False)
    if args[:1] in (["-c"], ["-e"], ["--eval"], ["-r"], ["-p"], ["--print"]) and len(args) > 1:
        # `python -c "import shutil; shutil.rmtree(…)"`, `node -e "…execSync('rm -rf ~')"`:
        # a program the call writes itself, not one the project holds; what it does is the
        # model's to judge (a line of Python that only reads is allowed above)
        return [Effect("unknown", what=text)]
    return [Effect("execute", what=text)]


def _package_runner(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`npx prisma migrate status`, `bunx tsc`: the command it runs, when the tables know
    it; a package they do not know is fetched and run, which nothing here can judge."""
    rest = [a for a in args if a not in ("--yes", "-y", "--no-install", "--")]
    if not rest or rest[0].startswith("-"):
        return [Effect("unknown", what=text)]
    name = rest[0].split("@", 1)[0] if not rest[0].startswith("@") else rest[0]
    known = name in _BY_TOOL or name in shell_words("routine") or name in shell_words("read")
    if not known or name in ("npx", "bunx"):
        return [Effect("unknown", what=text)]
    return _classify([name, *rest[1:]], elevated=False)


_ENV_RUNNERS = frozenset(["uv", "poetry", "pipenv", "pdm", "hatch", "rye"])


def _env_runner(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`uv run pytest`, `poetry run mypy src`: judged as what it runs; the runner's other
    commands manage the project's packages."""
    sub = next((a for a in args if not a.startswith("-")), "")
    if sub != "run":
        return package_effects(tool, args, text)
    rest = [a for a in args_after(args, "run") if a != "--"]
    while rest and rest[0].startswith("-"):
        rest = rest[2:] if rest[0] in ("--with", "--env-file", "-e", "--python") else rest[1:]
    return _classify(rest, elevated=False) if rest else [Effect("unknown", what=text)]


def _bundle(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`bundle exec rspec` runs what follows it; `bundle install` the project's own gems."""
    if args[:1] == ["exec"] and len(args) > 1:
        return _classify(list(args[1:]), elevated=False)
    if not args or args[:1] in (["install"], ["check"]):
        return [Effect("execute", what=text, routine=True)]
    return package_effects(tool, args, text)


def _simple(kind: EffectKind, **notes: Any) -> Callable[[str, Sequence[str], str], list[Effect]]:
    return lambda tool, args, text: [Effect(kind, what=text, **notes)]


_BY_TOOL: dict[str, Callable[[str, Sequence[str], str], list[Effect]]] = {
    **dict.fromkeys(("curl", "wget", "http", "httpie"), curl_effects),
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
        package_effects,
    ),
    **dict.fromkeys(_ENV_RUNNERS, _env_runner),
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
        cloud_effects,
    ),
    **dict.fromkeys(PAAS, paas_effects),
    **dict.fromkeys(("python", "python3", "node", "ruby", "perl", "php", "deno"), _interpreter),
    **dict.fromkeys(
        ("apt", "apt-get", "yum", "dnf", "brew", "pacman", "apk", "snap"),
        lambda tool, args, text: system_package_effects(args, text),
    ),
    **dict.fromkeys(("dpkg", "rpm"), package_database_effects),
    **dict.fromkeys(
        ("tar", "zip", "unzip", "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd"),
        archive_effects,
    ),
    "ssh-keygen": ssh_keygen_effects,
    "certbot": certbot_effects,
    **dict.fromkeys(("vault", "op"), secret_store_effects),
    "openssl": openssl_effects,
    "mkdocs": site_builder_effects,
    # a Python process's stacks sampled (`py-spy dump --pid 42`); `record` writes a profile
    "py-spy": lambda tool, args, text: [
        Effect("create" if "record" in args[:1] else "read", what=text)
    ],
    "buf": buf_effects,
    "jupyter": jupyter_effects,
    **dict.fromkeys(
        ("ansible", "ansible-inventory", "ansible-doc", "ansible-lint", "ansible-config"),
        ansible_effects,
    ),
    **dict.fromkeys(("conda", "mamba", "micromamba"), conda_effects),
    **dict.fromkeys(FORMATTERS, formatter_effects),
    "apt-cache": _simple("read"),
    **dict.fromkeys(
        ("dd", "mkfs", "fdisk", "parted", "wipefs"),
        _simple("delete", reversible=False, high_impact=True),
    ),
    **dict.fromkeys(
        ("scp", "sftp", "ftp", "nc", "ncat", "netcat", "telnet"),
        _simple("send", reach="external", reversible=False),
    ),
    "mv": lambda tool, args, text: move_effects(args, text),
    **dict.fromkeys(("sort", "uniq"), sort_effects),
    **dict.fromkeys(("cp", "ln", "install", "tee", "truncate"), _simple("modify")),
    **dict.fromkeys(("touch", "mkdir", "mktemp"), _simple("create")),
    **dict.fromkeys(
        ("crontab", "export", "alias", "unset", "ulimit", "sysctl", "iptables", "ufw", "history"),
        settings_effects,
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
        database_effects,
    ),
    **dict.fromkeys(
        ("pg_dump", "pg_dumpall", "mysqldump", "mongodump", "sqlite3_analyzer"), _simple("read")
    ),
    "alembic": lambda tool, args, text: migration_effects(args, text),
    "prisma": lambda tool, args, text: prisma_effects(args, text),
    **dict.fromkeys(("rails", "rake"), rails_effects),
    **dict.fromkeys(("nginx", "apachectl", "apache2ctl", "httpd", "sshd"), server_config_effects),
    **dict.fromkeys(("npx", "bunx"), _package_runner),
    "bundle": _bundle,
    "git": lambda tool, args, text: git_effects(args, text),
    "source": _simple("execute"),
    # PostgreSQL's wrappers: a database made, or dropped with all it holds
    "createdb": _simple("create"),
    "dropdb": _simple("delete", reversible=False, high_impact=True),
    ".": _simple("execute"),
    # a key put in the host's authorized_keys: whoever holds it may log in there
    "ssh-copy-id": _simple("grant", reach="external", reversible=False),
    "ssh-add": ssh_add_effects,
}


def _found_runs(args: Sequence[str]) -> list[list[str]]:
    """The commands `find -exec`/`-execdir`/`-ok` runs, each up to its `;` or `+`; one that
    does not end is the rest of the line."""
    out: list[list[str]] = []
    at = 0
    while at < len(args) and len(out) < 8:
        if args[at] in ("-exec", "-execdir", "-ok", "-okdir"):
            end = next(
                (i for i in range(at + 1, len(args)) if args[i] in (";", "\\;", "+")), len(args)
            )
            out.append([a for a in args[at + 1 : end] if a != "{}"] or ["-exec"])
            at = end
        at += 1
    return out


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
    return bool(flags_of(argv[1:]) & asks)


_TARGETED = frozenset(["make", "just", "rake", "invoke"])


_SCRIPTS = frozenset(["npm", "pnpm", "yarn", "bun"])


def _action(argv: Sequence[str]) -> str:
    """The action a command names, when `[actions]` holds it: a git, docker or kubectl
    subcommand (`git commit`, `docker restart`), a make target (`make clean`), an npm
    script (`npm run deploy`)."""
    tool = argv[0].rsplit("/", 1)[-1]
    if tool in _TARGETED:
        ops = operands_of(argv[1:])
    elif tool in _SCRIPTS or tool in shell_words("subcommand_tools"):
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


def _mild_under_sudo(tool: str, args: Sequence[str]) -> bool:
    """What `sudo` does not make high-impact: the package manager's download cache
    cleaned; a service restarted or reloaded (which service is the question, and the
    service is the machine's: `Effect.system` asks for its name in the user's words)."""
    words = [a for a in args if not a.startswith("-")]
    if tool in ("systemctl", "service"):
        return service_restarts(tool, args)
    if tool in ("nginx", "apachectl", "apache2ctl", "httpd"):
        # `nginx -s reload`, `apachectl graceful`: the server's configuration read again
        return bool({w.lower() for w in words} & SERVER_RELOAD)
    return tool in ("apt", "apt-get", "dnf", "yum") and words[:1] in (["clean"], ["autoclean"])


#: A copy's remote end (`host:path`, `user@host:path`, `rsync://host/path`); not a drive.
_REMOTE_END = re.compile(r"^(?:[\w.-]+@)?[\w.-]{2,}:|^rsync://")


#: scp's and rsync's flags that take a value (`-P 2222`, `-e "ssh -p 2222"`).
_COPY_VALUE_FLAGS = frozenset(["-e", "-P", "-i", "-o", "-F", "-l", "-c"])


def _downloads(args: Sequence[str]) -> bool:
    """A copy whose sources are all on another machine and whose destination is here."""
    operands = operands_of(args, _COPY_VALUE_FLAGS)
    if len(operands) < 2:
        return False
    *sources, destination = operands
    return not _REMOTE_END.match(destination) and all(_REMOTE_END.match(s) for s in sources)


def _classify(argv: Sequence[str], *, elevated: bool) -> list[Effect]:
    text = " ".join(argv)[:200]
    tool = argv[0].rsplit("/", 1)[-1]
    args = list(argv[1:])
    flags = flags_of(args)
    effects: list[Effect]
    if args and args[-1] in ("--help", "--version") and tool not in shell_words("shells"):
        # `python -m cli --help`, `terraform apply --help`: the usage text, nothing run
        effects = [Effect("read", what=text)]
    elif tool in ("rm", "rmdir", "shred", "unlink"):
        effects = remove_effects(tool, args, text, elevated)
    elif tool == "find":
        if "-delete" in args or {"rm", "shred"} & set(args):
            # `find . -name '*.pyc' -delete`: what goes is what the pattern picks, not `.`
            # ...under the folders it starts from: `find / …` reaches every file there is
            picked = tuple(flag_values(args, ("-name", "-iname")))
            starts = list(itertools.takewhile(lambda a: not a.startswith(("-", "(", "!")), args))
            roots = tuple(r for r in starts[:8] if r.rstrip("/") not in ("", "."))
            broad = any(BROAD.match(r) for r in roots) or "/" in starts
            effects = [
                Effect("delete", reversible=False, high_impact=broad, what=text,
                       objects=(*roots, *picked)[:8])
            ]  # fmt: skip
        else:
            # `find . -name '*.py' -exec wc -l {} +`: what it runs on each file decides
            runs = [
                inner
                for inner in _found_runs(args)
                if any(e.kind != "read" for e in classify_command(inner, elevated=elevated))
            ]
            effects = [Effect("execute" if runs else "read", what=text)]
    elif tool == "sed":
        effects = [sed_effects(args, flags, text)]
    elif tool in ("awk", "gawk"):
        effects = [Effect("execute" if "system" in text else "read", what=text)]
    elif tool in ("chmod", "chown", "chgrp", "setfacl"):
        recursive = bool(flags & {"R", "--recursive"})
        broad = recursive and any(BROAD.match(o) for o in operands_of(args))
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
        sources = tuple(operands_of(args, _COPY_VALUE_FLAGS))
        effects = [Effect("create", "external", what=text, objects=sources[:-1][:8], fetched=True)]
        if any(a.startswith("--delete") for a in args):
            effects.append(Effect("delete", reversible=False, what=text))
    elif tool == "rsync":
        remote = any(":" in o for o in operands_of(args))
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
        ports = tuple(re.sub(r"/(?:tcp|udp)$", "", o) for o in operands_of(args))[:8]
        kills = bool(flags & {"k", "--kill"})
        effects = [Effect("delete" if kills else "read", reversible=not kills, what=text,
                          objects=ports)]  # fmt: skip
    elif tool in ("kill", "pkill", "killall"):
        init = "1" in args or "-1" in args
        # `pkill -f 'uvicorn app.main:app'` matches fewer processes than `uvicorn` would:
        # what it acts on is the program, narrowed (an alternation, `a|b`, widens it)
        patterns = operands_of(args, frozenset(["-u", "-U", "-g", "-G", "-t", "-s", "-P"]))
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
    elif tool in ("systemctl", "service") and service_reads(tool, args):
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
                action="restart" if service_restarts(tool, args) else "",
                system=True,
            )
        ]
    elif tool.startswith("mkfs."):
        effects = [Effect("delete", reversible=False, high_impact=True, what=text)]
    elif tool in _BY_TOOL:
        effects = _BY_TOOL[tool](tool, args, text)
    elif tool in shell_words("read"):
        effects = [Effect("read", what=text)]
    elif tool in shell_words("routine"):
        effects = runner_effects(tool, args, text)
    else:
        effects = [Effect("unknown", what=text)]
    if elevated and not _mild_under_sudo(tool, args):
        effects = [
            replace(e, high_impact=e.high_impact or e.kind != "read", routine=False)
            for e in effects
        ]
    return effects
