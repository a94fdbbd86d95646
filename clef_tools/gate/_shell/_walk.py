"""A whole command line walked with tree-sitter's bash grammar: pipelines, `&&`, `;`,
subshells, `$(…)`, redirections and prefixes, each simple command classified."""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from clef_tools.gate._effects import MAX_COMMAND_CHARS, CallEffect, Effect
from clef_tools.gate._insecure import env_turns_off_checks, turns_off_checks
from clef_tools.gate._shell._classify import classify_command
from clef_tools.gate._shell._common import HARMLESS_TARGETS, args_after, beyond_project, shell_words

_MAX_NESTING = 3


#: A variable that says where programs, libraries or startup code come from, set for
#: what runs next: `export PATH=…`, `LD_PRELOAD=/tmp/x.so cmd`, `PROMPT_COMMAND=…`.
_SEARCH_PATH_SET = re.compile(
    r"(?:^|[;&|(]\s*|\bexport\s+|\benv\s+)(?:PATH|LD_PRELOAD|LD_LIBRARY_PATH|DYLD_\w+|PYTHONPATH"
    r"|PYTHONSTARTUP|NODE_OPTIONS|NODE_PATH|PERL5LIB|RUBYLIB|BASH_ENV|ENV|PROMPT_COMMAND"
    r"|GIT_SSH_COMMAND|GIT_EXEC_PATH)=\S*"
)


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
        if op is None or target in HARMLESS_TARGETS or target.startswith("&"):
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
        prefixes, shells = shell_words("prefixes"), shell_words("shells")
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
            inner = args_after(argv, "-c")[:1]
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
        return " ".join(shlex.quote(a) for a in args_after(args, "--")) if "--" in args else None
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
