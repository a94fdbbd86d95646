"""A project's own tools: runners, formatters, notebooks, site builders and schema tools."""

from __future__ import annotations

from collections.abc import Sequence

from clef_tools.gate._effects import Effect
from clef_tools.gate._shell._checks import (
    FORMATTERS,
    SNAPSHOT_FLAGS,
    SNAPSHOT_RUNNERS,
    deselects,
    fixes,
    formats_in_place,
)
from clef_tools.gate._shell._common import args_after, flag_value, operands_of, shell_words
from clef_tools.gate._shell._packages import package_name, publish_effects


def runner_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    sub = next(iter(operands_of(args)), "")
    if tool == "cargo" and sub == "publish":
        return [publish_effects(tool, operands_of(args_after(args, sub)), text, args)]
    if tool == "cargo" and sub == "yank":
        # a version taken back from new installs (`--undo` puts it back); the lockfiles
        # that pin it keep it
        version = flag_value(args, ("--version", "--vers"), ("--version", "--vers"))
        return [Effect("modify", "external", what=text, objects=(version,) if version else ())]
    if tool == "cargo" and sub == "owner":
        listing = bool({"--list", "-l"} & set(args))
        return [Effect("read" if listing else "grant", "external", what=text)]
    if tool == "go" and operands_of(args)[:2] in (["mod", "download"], ["mod", "verify"]):
        return [Effect("execute", what=text, routine=True)]  # the module's pinned dependencies
    pair = operands_of(args)[:2]
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
        names = tuple(package_name(o) for o in operands_of(args_after(args, sub)))[:8]
        return [Effect("configure", "external", what=text, objects=names, packages=bool(names))]
    if tool == "cargo" and sub in ("remove", "rm", "uninstall"):
        return [Effect("delete", what=text)]
    if tool in ("cargo", "go", "rake", "pre-commit") and sub not in shell_words("runner_verbs"):
        # `rake db:drop`, `go generate`: a task the tables cannot vouch for
        return [Effect("unknown", what=text)]
    if tool in SNAPSHOT_RUNNERS and deselects(args):
        # `pytest --deselect tests/test_auth.py`, `-k "not auth"`: a run that leaves
        # tests out passes whatever they would have caught
        return [Effect("execute", what=text, routine=True, action="weaken-tests")]
    if tool in SNAPSHOT_RUNNERS and SNAPSHOT_FLAGS & set(args):
        # `jest -u`, `pytest --snapshot-update`: the expected output rewritten to what the
        # code now does, so the check passes whatever changed
        return [Effect("execute", what=text, routine=True, action="update-snapshots")]
    if tool == "mypy" and "--install-types" in args:
        # the stubs it finds missing installed from PyPI, before the check runs
        return [Effect("configure", "external", what=text, action="install")]
    if formats_in_place(tool, args):
        # a bare `black src`, `cargo fmt`: the files rewritten, which "check the
        # formatting" does not ask for and "run black" does
        return [Effect("modify", what=text, routine=True, action="format-in-place")]
    if fixes(tool, args):
        # `ruff check --fix`, `eslint --fix`, `prettier --write`: the linter rewrites the
        # files it checks, which "run the linter" does not ask for
        return [Effect("modify", what=text, routine=True, action="autofix")]
    return [Effect("execute", what=text, routine=True)]


def jupyter_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`jupyter nbconvert --to html report.ipynb` writes the converted file beside the
    notebook (`--inplace`: over it; `--execute`: its cells run, the project's own code);
    the listings (`kernelspec list`, `--paths`) read."""
    operands = operands_of(args, frozenset(["--to", "--output", "--output-dir", "--template"]))
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


def site_builder_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`mkdocs build`, `mkdocs serve`: the project's docs built or served here;
    `mkdocs gh-deploy` publishes them to the repository's pages site."""
    sub = next(iter(operands_of(args)), "")
    if sub == "gh-deploy":
        return [Effect("send", "external", reversible=False, what=text, action="deploy")]
    if sub in ("build", "serve", ""):
        return [Effect("execute", what=text, routine=True)]
    return [Effect("unknown", what=text)]


def buf_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """Buf, for protobuf: code generated from the project's schemas, the schemas linted or
    compared; `buf push` publishes a module to the registry."""
    sub = next(iter(operands_of(args)), "")
    if sub == "push":
        return [Effect("send", "external", reversible=False, what=text, action="push")]
    if sub in ("lint", "breaking", "ls-files", "build", "--version") or (
        sub == "format" and not {"-w", "--write"} & set(args)
    ):
        return [Effect("read", what=text)]
    if sub in ("generate", "format"):
        return [Effect("modify", what=text, routine=True)]
    return [Effect("unknown", what=text)]


def formatter_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`gofmt -w .` rewrites the project's files (routine work, a change to ask for);
    `gofmt -l .`, `rustfmt --check` only print what they would change."""
    flags = {a.split("=", 1)[0] for a in args if a.startswith("-")}
    writes = bool(flags & FORMATTERS[tool]) or (tool == "rustfmt" and "--check" not in flags)
    if not writes:
        return [Effect("read", what=text)]
    return [Effect("modify", what=text, routine=True, action="format-in-place")]
