"""Which file an edit is on, against the files the user named.

A coding agent may edit files the user did not name: fixing "the failing test in
tests/test_setup.py" can mean changing `src/setup.cfg`, and renaming a function means
editing its callers. But when the user named the files to change and an edit lands in an
unrelated one ("fix the typo in README.md" → `LICENSE` rewritten), it is another object
than the one named. Related means: the two files share a stem word (`test_setup.py` and
`setup.cfg`), or the edit's text carries an identifier or a file stem the user wrote
(`parse_date` in a caller, `utils` in an import).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._effects import CallEffect
from clef_tools.gate._licence import Licence
from clef_tools.gate._weakened import edits, is_test_path

__all__ = ["folder_issue", "other_file_issue"]

#: A file the user wrote out: a name with an extension, with or without its folder.
_FILE = re.compile(r"(?<![\w@/.-])((?:[\w.-]+/)*[\w-]+(?:\.[\w-]+)*\.[a-zA-Z][\w]{0,9})(?![\w/-])")
#: A kind of file by its extension, not a dotfile: "the .pyc files", "every .log".
_EXTENSION_ALONE = re.compile(
    r"\.(?:[\w-]+\s+files?\b|(?:py|pyc|pyo|js|ts|tsx|jsx|go|rs|java|c|h|cpp|md|txt|log|json"
    r"|ya?ml|toml|csv|lock|tmp|bak|swp|o|so|class|html|css|sh|sql|xml|ini|cfg|zip|gz|png|jpg"
    r"|pdf|docx?|xlsx?)\b)",
    re.IGNORECASE,
)
_ASSIGNED = re.compile(r"`[^`\n]*`|\b\w+\s*=\s*\S+")
#: A file named by a leading dot: `.env`, `.env.production`, `.gitignore`, `config/.npmrc`.
_DOTFILE = re.compile(r"(?<![\w@/.-])((?:[\w.-]+/)*\.[A-Za-z][\w-]*(?:\.[\w-]+)*)(?![\w/-])")
#: Extensions that are not a file's (`2.4.0`, `e.g`, an address's domain).
_NOT_EXTENSIONS = frozenset(["g", "e", "com", "org", "net", "io", "example", "x"])
#: An identifier the user wrote: snake_case, camelCase, dotted or in backticks.
_IDENTIFIER = re.compile(r"`([^`\n]{2,80})`|\b([A-Za-z_][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)\b"
                         r"|\b([a-z]+[A-Z][A-Za-z0-9]*)\b")  # fmt: skip
#: Words that ask for work across the project rather than in the files named.
_ACROSS = re.compile(
    r"\b(?:everywhere|across|all (?:the )?(?:files|callers|usages|uses|references|imports)"
    r"|callers|call sites|usages|references|imports|and (?:its|their) tests|the codebase"
    r"|the repo(?:sitory)?|project-wide|throughout)\b",
    re.IGNORECASE,
)
#: Words that ask for a fault found and fixed: where it lies is the agent's to find.
_DEBUGGING = re.compile(
    r"\b(?:fail\w*|bugs?|buggy|errors?|crash\w*|broken|breaks?|exceptions?|traceback|flaky"
    r"|debug\w*|why|regression|leak\w*|hangs?|slow)\b",
    re.IGNORECASE,
)
#: A request for tests written ("write a unit test for parse_date", "add tests for the
#: parser").
_TESTS_ASKED = re.compile(
    r"\b(?:write|add|create)\s+(?:an?\s+|some\s+|more\s+|the\s+)?(?:unit\s+|integration\s+"
    r"|regression\s+|e2e\s+|end-to-end\s+)?tests?\b",
    re.IGNORECASE,
)
#: Words that ask for the code itself changed too ("… and implement it", "and make it pass").
_CODE_ASKED = re.compile(
    r"\b(?:implement\w*|refactor\w*|make\s+(?:it|them)\s+pass|and\s+(?:fix|change|update))\b",
    re.IGNORECASE,
)
_LITERAL = re.compile(r"(?<![\w-])(?:--?[A-Za-z][\w-]+|\d+(?:\.\d+)+|\d{2,})(?![\w-])")
_QUOTED = re.compile(r"'([^'\n]{2,80})'|\"([^\"\n]{2,80})\"")
_EDITS = frozenset(["edit", "multiedit", "write", "notebookedit"])
_STEM_PARTS = re.compile(r"[a-z0-9]+")
#: Words in file names that say what kind of file, not which.
_KIND_WORDS = frozenset(["test", "tests", "spec", "src", "lib", "main", "index", "init", "py"])


def named_files(said: str) -> list[str]:
    """The files the user wrote out (`README.md`, `src/dates.py`, `.env`)."""
    out = []
    for m in _FILE.finditer(said[:20_000]):
        name = m.group(1)
        extension = name.rsplit(".", 1)[-1].lower()
        if extension in _NOT_EXTENSIONS or re.fullmatch(r"[\d.]+", name):
            continue
        out.append(name)
    out += [
        m.group(1)
        for m in _DOTFILE.finditer(said[:20_000])
        if m.group(1) not in out and not _EXTENSION_ALONE.match(said[m.start(1) : m.end(1) + 12])
    ]
    return out[:32]


def _stem_words(path: str) -> set[str]:
    base = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    stem = base.split(".", 1)[0] if not base.startswith(".") else base
    return {w for w in _STEM_PARTS.findall(stem) if len(w) >= 3 and w not in _KIND_WORDS}


#: A new file made out of another ("create a .env.example from .env", "generate the docs
#: based on README.md"): the other is where it comes from.
_MADE_FROM = re.compile(
    r"\b(?:create|make|generate|write|build|derive|produce|draft|add|copy|render|compile)\b",
    re.IGNORECASE,
)
#: Work that changes the file things are taken from as well ("move the helper from app.py
#: into utils.py", "split models.py").
_TAKEN_OUT = re.compile(
    r"\b(?:move|moving|extract|split|pull|factor|refactor|migrate|port|inline|convert"
    r"|transform|merge|consolidate|dedupe|remove|delete|strip|clean|update|fix|change|edit"
    r"|rename|replace)\b",
    re.IGNORECASE,
)
_FROM_WORD = re.compile(
    r"\b(?:from|based\s+on|out\s+of|off|using|copying|mirroring|like)\s+(?:the\s+|my\s+|our\s+"
    r"|your\s+|its\s+|existing\s+|current\s+)*`?$",
    re.IGNORECASE,
)


def _sources_only(said: str, files: list[str]) -> set[str]:
    """The named files every mention of which says what another file is made from, when
    the request makes a new file and changes none."""
    text = said[:20_000]
    if len(files) < 2 or not _MADE_FROM.search(text) or _TAKEN_OUT.search(text):
        return set()
    out = set()
    for name in files:
        spans = [
            m.start()
            for m in re.finditer(rf"(?<![\w.-]){re.escape(name)}(?![\w-]|\.\w)", text, re.I)
        ]
        if spans and all(_FROM_WORD.search(text[max(0, at - 40) : at]) for at in spans):
            out.add(name.replace("\\", "/").lower().rsplit("/", 1)[-1])
    return out


def _variant_of(base: str, named: str) -> bool:
    """Whether `base` is the named file's name with a part added (`.env.production` of
    `.env`, `config.prod.yaml` of `config.yaml`, `settings_local.py` of `settings.py`)."""
    if base == named:
        return False
    if named.startswith(".env") and base.startswith(".env"):
        return True
    stem, dot, extension = named.rpartition(".")
    if not dot or not stem:
        return False
    return (
        re.fullmatch(rf"{re.escape(stem)}[._-][\w-]{{1,20}}\.{re.escape(extension)}", base)
        is not None
    )


def other_file_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """An edit of a file the user did not name, when they named the files to change and
    nothing ties this one to them."""
    if effect.source != "builtin" or not effect.effects:
        return None
    if effect.tool.lower() not in _EDITS:
        return None
    path = args.get("file_path") or args.get("notebook_path") or args.get("path")
    if not isinstance(path, str) or not path.strip():
        return None
    # a setting written out (`DEBUG=false`) says what to set, not that something fails
    prose = _ASSIGNED.sub(" ", said[:20_000])
    if (
        _TESTS_ASKED.search(said[:20_000])
        and not _DEBUGGING.search(prose)
        and not _CODE_ASKED.search(said[:20_000])
        and not is_test_path(path.replace("\\", "/"))
    ):
        # "write a unit test for parse_date": the test is the work; the code under test
        # changed to pass it is not
        return f"edits {path[:80]}, where the user asked only for tests"
    files = named_files(said)
    norm = path.replace("\\", "/").lower()
    base = norm.rsplit("/", 1)[-1]
    if base in _sources_only(said, files):
        # "create a .env.example listing the variables from .env": .env is read, not written
        return f"writes {path[:80]}, the file the user named as what to make another from"
    bases = {n.lower().rsplit("/", 1)[-1] for n in files}
    if base not in bases and any(_variant_of(base, n) for n in bases):
        # `.env.production` is another environment's settings than the `.env` named, and
        # `config.prod.yaml` than `config.yaml`, whatever else the request leaves open
        return f"edits {path[:80]}, another environment's file than the one the user named"
    if not files or _ACROSS.search(said[:20_000]) or _DEBUGGING.search(prose):
        return None
    if any(is_test_path(name) for name in files):
        return None  # a failing test is fixed in the code it tests, whatever its name
    for name in files:
        low = name.lower()
        if norm == low or norm.endswith("/" + low) or low.endswith("/" + norm.rsplit("/", 1)[-1]):
            return None
    own = _stem_words(path)
    said_words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", said[:20_000])}
    if any(own & _stem_words(name) for name in files) or own & said_words:
        return None  # `test_setup.py` and `setup.cfg`; `test_slugify.py` for "slugify"
    if is_test_path(norm) and re.search(r"\btests?\b", said[:20_000], re.I):
        return None  # "add a unit test for …": a test file of the agent's naming
    tool = effect.tool
    text = " ".join(f"{old[:20_000]} {new[:20_000]}" for old, new in edits(tool, args))
    low_text = f"{text} {norm}".lower()  # a test named for the function it tests
    identifiers = {next(g for g in m.groups() if g) for m in _IDENTIFIER.finditer(said[:20_000])}
    # a version, a flag, a number or quoted words the user gave (the changelog's "2.5.0",
    # the README's `--verbose`)
    identifiers |= {m.group(0) for m in _LITERAL.finditer(said[:20_000])}
    identifiers |= {q for m in _QUOTED.finditer(said[:20_000]) for q in m.groups() if q}
    stems = {w for name in files for w in _stem_words(name)}
    if any(i.lower() in low_text for i in identifiers) or any(
        re.search(rf"\b{re.escape(s)}\b", low_text) for s in stems
    ):
        return None
    return (
        f"edits {path[:80]}, a file other than the one{'s' if len(files) > 1 else ''} the "
        f"user named ({', '.join(files[:3])})"
    )


def redirected_file_issue(effect: CallEffect, said: str) -> str | None:
    """A command's output written into a file other than the one the user named for it:
    "save the list of installed packages to packages.txt" is not `pip freeze >
    requirements.txt`, which overwrites the project's own file."""
    if effect.source != "shell":
        return None
    files = {
        n.lower().replace("\\", "/")
        for n in named_files(said)
        if re.search(rf"{_SAVED_TO}\s*`?{re.escape(n)}", said[:20_000], re.IGNORECASE)
    }
    if not files:
        return None
    for e in effect.effects:
        found = _REDIRECT.fullmatch(e.what[:4200])
        if e.kind != "modify" or found is None:
            continue
        target = found.group(1).strip("'\"").lower().replace("\\", "/").removeprefix("./")
        if any(target == f or target.endswith("/" + f) or f.endswith("/" + target) for f in files):
            continue
        return f"writes {target[:80]}, where the user named {sorted(files)[0][:80]}"
    return None


#: Where a user names the file output goes to: "save … to packages.txt", "write it into
#: out.csv", "dump the schema as schema.sql" (not "fix the test in test_api.py").
_SAVED_TO = (
    r"\b(?:save|saved|saving|write|writing|dump|dumping|export|exporting|output|put|store"
    r"|redirect|log|pipe|copy)\b[^.;!?\n]{0,80}?\b(?:to|into|in|as)"
)


#: A redirection's effect as the shell walk writes it (`> requirements.txt`).
_REDIRECT = re.compile(r"(?:>|>>|>\||&>|&>>)\s+(\S{1,4096})")


#: Words that ask for a folder, or everything in it, to go.
_WHOLE_FOLDER = frozenset(
    ["folder", "folders", "directory", "directories", "dir", "dirs", "everything", "all",
     "whole", "entire", "contents", "tree"]
)  # fmt: skip


def folder_issue(effect: CallEffect, licence: Licence, results: Sequence[str]) -> str | None:
    """A folder deleted whole where the request named something in it: `rm -rf
    ~/Downloads` after "delete the iso" from a listing of ~/Downloads. The folder may be in
    the user's earlier words ("list the files in ~/Downloads"); the request that asks for
    the delete must name the folder, or ask for all of it."""
    if effect.source != "shell" or licence.words & _WHOLE_FOLDER:
        return None
    shown = "\n".join(r[:100_000] for r in results[-16:])
    for e in effect.effects:
        if e.kind != "delete" or e.action == "rebuild":
            continue
        for target in e.objects[:16]:
            base = target.rstrip("/").rsplit("/", 1)[-1]
            if len(base) < 2 or "." in base.lstrip(".") or base.lower() in licence.words:
                continue
            if re.search(rf"(?:^|[\s/\"']){re.escape(base)}/[^\s/]", shown, re.IGNORECASE):
                return f"deletes the whole of {target[:60]}, where the user named what is in it"
    return None
