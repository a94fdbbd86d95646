"""Test runners and fixers: which flags skip tests, accept new snapshots or rewrite
files in place."""

from __future__ import annotations

import re
from collections.abc import Sequence

from clef_tools.gate._shell._common import operands_of

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


def formats_in_place(tool: str, args: Sequence[str]) -> bool:
    sub = next(iter(operands_of(args)), "")
    checks = _FORMATS_IN_PLACE.get((tool, sub), _FORMATS_IN_PLACE.get((tool, "")))
    if checks is None:
        return False
    flags = {a.split("=", 1)[0] for a in args if a.startswith("-")}
    return not flags & (checks | {"--help", "-h", "--version"})


def fixes(tool: str, args: Sequence[str]) -> bool:
    flags = {a.split("=", 1)[0] for a in args if a.startswith("-")}
    return bool(flags & _FIX_FLAGS or flags & _SHORT_FIX.get(tool, frozenset())) or (
        tool == "cargo" and next(iter(operands_of(args)), "") == "fix"
    )


#: A test runner's flags that leave tests out of the run.
_DESELECT_FLAGS = (
    "--deselect", "--ignore", "--ignore-glob", "--testPathIgnorePatterns",
    "--testPathIgnorePattern", "--skip", "-skip", "--exclude",
)  # fmt: skip


def deselects(args: Sequence[str]) -> bool:
    for n, a in enumerate(args):
        if a.split("=", 1)[0] in _DESELECT_FLAGS:
            return True
        if a == "-k" and n + 1 < len(args) and re.search(r"\bnot\b", args[n + 1]):
            return True
        if a.startswith("-k") and len(a) > 2 and re.search(r"\bnot\b", a[2:]):
            return True
    return False


SNAPSHOT_RUNNERS = frozenset(
    ["pytest", "jest", "vitest", "mocha", "rspec", "cargo", "go", "playwright", "cypress"]
)


SNAPSHOT_FLAGS = frozenset(
    ["-u", "--updateSnapshot", "--update-snapshots", "--snapshot-update", "--force-regen",
     "--update-goldens", "--update", "-update", "--accept"]
)  # fmt: skip


#: Code formatters, and the flags by which each rewrites files in place (`rustfmt` does
#: unless told only to check).
FORMATTERS: dict[str, frozenset[str]] = {
    "gofmt": frozenset(["-w"]),
    "goimports": frozenset(["-w"]),
    "clang-format": frozenset(["-i"]),
    "autopep8": frozenset(["-i", "--in-place"]),
    "yapf": frozenset(["-i", "--in-place"]),
    "shfmt": frozenset(["-w", "--write"]),
    "rustfmt": frozenset(),
}
