"""What many commands share: their words read as flags and operands, the paths a
project does not hold, and the effect of a copy."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Collection, Sequence

from clef_tools.gate._effects import Effect, table

#: Operands as broad as a whole disk, home or top-level folder (`/`, `~/*`, `/home/amy/*`).
BROAD = re.compile(
    r"^(/|~/?|\$\{?HOME\}?/?|\.{1,2}/?|\*|/\*|(?:~|\$\{?HOME\}?|\.)/\*|/[a-z]+/?\*?"
    r"|/(?:home|Users)/[^/\s]+/?\*?|/root/?\*?)$"
)


def shell_words(name: str) -> frozenset[str]:
    return table().shell[name]


def flags_of(argv: Sequence[str]) -> set[str]:
    """Every single-letter flag (`-rf` → r, f) and long flag (`--force`)."""
    out: set[str] = set()
    for a in argv:
        if a.startswith("--"):
            out.add(a.split("=", 1)[0])
        elif a.startswith("-") and len(a) > 1:
            out.update(a[1:])
    return out


def operands_of(
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


def args_after(argv: Sequence[str], word: str) -> list[str]:
    return list(argv[argv.index(word) + 1 :]) if word in argv else []


def flag_values(
    args: Sequence[str], flags: Collection[str], inline: Collection[str] = ()
) -> list[str]:
    """What a command gives any of `flags` (`-X DELETE`), in order; then what it gives
    those of `inline` written with their value (`--method=DELETE`)."""
    spaced = [args[n + 1] for n, a in enumerate(args[:-1]) if a in flags]
    joined = [a.split("=", 1)[1] for a in args if "=" in a and a.split("=", 1)[0] in inline]
    return spaced + joined


def flag_value(
    args: Sequence[str], flags: Collection[str], inline: Collection[str] = ()
) -> str | None:
    """The first value `_flag_values` finds, or None."""
    return next(iter(flag_values(args, flags, inline)), None)


#: A cloud CLI's hyphenated operation: `stop-instances`, `delete-bucket-policy`.
OPERATION = r"[a-z]{2,}(?:-[a-z][a-z0-9]*)+"


#: Cloud CLI flags that take a value (`--profile prod`): the value is not a path.
VALUE_FLAGS = frozenset(
    ["--acl", "--profile", "--region", "--storage-class", "--exclude", "--include", "--sse",
     "--endpoint-url", "--sse-kms-key-id", "--content-type", "--cache-control", "--grants",
     "--expires", "--metadata", "--output", "--project", "--account-name", "-a", "-h", "-z"]
)  # fmt: skip


def copy_effect(operands: Sequence[str], moves: bool, text: str) -> Effect:
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


#: The user's cache folder, or a folder in it (`~/.cache/pip`, `~/Library/Caches/Homebrew`).
_USER_CACHE = re.compile(
    r"(?:~|\$HOME|\$\{HOME\}|/home/[\w.-]+|/Users/[\w.-]+)/(?:\.cache|Library/Caches)"
    r"(?:/[\w][\w.-]*)*/?$"
)


def rebuilt(path: str) -> bool:
    """A path the project's own tools make again: dependencies, caches, build output."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    if ".." in path.split("/"):
        return False
    if _USER_CACHE.match(path):
        return True  # `~/.cache/pip`: what programs keep to go faster, fetched again
    if not name or path.startswith(("/", "~", "$")):
        return False
    return name in shell_words("rebuilt") or any(
        fnmatch.fnmatchcase(name, pattern) for pattern in shell_words("rebuilt_patterns")
    )


#: Flags whose value is a setting, not what the command acts on (`ssh-keygen -t ed25519`).
KUBE_SCOPE_FLAGS = frozenset(
    ["-n", "--namespace", "--context", "--kube-context", "--kubeconfig", "--cluster", "-o",
     "--output"]
)  # fmt: skip


HARMLESS_TARGETS = ("/dev/null", "/dev/stderr", "/dev/stdout")


#: Scratch space any program may write: not the user's files, nor their settings.
SCRATCH = re.compile(r"(?:/tmp|/var/tmp|/dev/null|/dev/stdout|/dev/stderr)(?:/|$)")


def beyond_project(path: str) -> bool:
    """A path past the project a coding agent works in (`~/.bashrc`, `/etc/hosts`,
    `../other-repo`), other than scratch space (`/tmp/out.txt`)."""
    return (path.startswith(("/", "~", "$")) and not SCRATCH.match(path)) or ".." in re.split(
        r"[\\/]+", path
    )
