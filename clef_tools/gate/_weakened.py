"""An edit that takes the teeth out of the project's tests.

"Fix the failing test" asks for a change, and an edit of the test file is one; but an
edit that deletes the assertion, makes it trivially true, checks that a value is there
instead of what it is, or marks the test skipped makes the check pass without the fix.
That is the shortcut a coding agent takes under pressure, and the user relies on the very
check it removes, so such an edit is an action of its own (`weaken-tests` in
`effects.toml`'s `[actions]`) that the user must ask for ("skip the flaky test", "remove
that assertion").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["edit_weakens_tests", "edits", "is_test_path", "sed_weakens_tests", "substitutions"]

#: Where tests live, by the conventions of pytest, unittest, Jest/Vitest, Go, RSpec, JUnit.
_TEST_PATH = re.compile(
    r"(?:^|[\\/])(?:tests?|__tests__|specs?|testing)[\\/]|(?:^|[\\/])test_[^\\/]+\.py$"
    r"|_test\.(?:py|go|rb|exs?)$|\.(?:test|spec)\.[cm]?[jt]sx?$|_spec\.rb$"
    r"|(?:Test|Tests|Spec)\.(?:java|kt|cs|php|swift|scala)$",
    re.I,
)
#: What checks something in a test.
_ASSERTION = re.compile(
    r"\bassert\w*|\bexpect\s*\(|\.should\b|\bt\.(?:Error|Fatal|Fail)\w*\s*\(|\bself\.fail\b"
    r"|\bpytest\.raises\b|\bXCTAssert\w*|\bassertThat\b|\bverify\s*\(",
)
#: A check that cannot fail.
_TRIVIAL = re.compile(
    r"\bassert\s*\(?\s*(?:True|true|1)\s*\)?\s*(?:$|[;#\n])|\bexpect\s*\(\s*true\s*\)\s*\.\s*toBe\s*\(\s*true"
    r"|\bassertTrue\s*\(\s*(?:True|true)\s*\)",
    re.M,
)
#: What skips a test, or expects it to fail.
_SKIP = re.compile(
    r"@pytest\.mark\.(?:skip|xfail)\w*|\bpytest\.(?:skip|xfail)\s*\(|@unittest\.(?:skip|expectedFailure)\w*"
    r"|\bself\.skipTest\s*\(|\b(?:it|test|describe|context)\.(?:skip|todo)\s*\(|\bx(?:it|describe|test)\s*\("
    r"|\bt\.Skip\w*\s*\(|@Disabled\b|@Ignore\b|#\[ignore\]|\bpending\s*\(|@skip\b"
)
#: A check of an exact value (`assert x == 3`, `assertEqual`, `toEqual`): turned into a
#: check that something is there (`assert x is not None`), it passes on a wrong value.
_EXACT = re.compile(
    r"\bassert\b[^\n]*?(?:==|!=)|\bassert(?:Equal|Equals|NotEqual|CountEqual|DictEqual"
    r"|ListEqual|AlmostEqual|SequenceEqual)\s*\(|\.to(?:Strict)?Equal\s*\(|\.toBe\s*\((?!\s*\))"
    r"|\bassert_called(?:_once)?_with\s*\(|\bisEqualTo\s*\(|\bassert_eq!\s*\("
)
#: A check made unable to fail where it runs (a CI workflow, a Makefile, a script): its
#: failure swallowed (`pytest || true`), or the job let fail (`continue-on-error: true`,
#: GitLab's `allow_failure: true`, `ruff check --exit-zero`).
_NEUTERED = re.compile(
    r"\b(?:pytest|py\.test|tox|nox|unittest|(?:npm|yarn|pnpm|bun)\s+(?:run\s+)?(?:test|lint|check)"
    r"|jest|vitest|mocha|go\s+(?:test|vet)|cargo\s+(?:test|clippy)|make\s+(?:test|check|lint)"
    r"|ruff|mypy|flake8|pylint|eslint|tsc|phpunit|rspec|mvn\s+test|gradle\w*\s+test)\b"
    r"[^\n|]*\|\|\s*(?:true|exit\s+0|:)(?![\w-])"
    r"|\bcontinue-on-error\s*:\s*true\b|\ballow_failure\s*:\s*true\b|--exit-zero\b",
    re.IGNORECASE,
)
#: A linter's or type checker's finding silenced where it is found.
_SUPPRESSED = re.compile(
    r"#\s*noqa\b|#\s*type:\s*ignore\b|#\s*pylint:\s*disable\b|#\s*pragma:\s*no\s*cover\b"
    r"|\beslint-disable\b|@ts-(?:ignore|nocheck|expect-error)\b|//\s*nolint\b|#!?\[allow\("
    r"|@SuppressWarnings\b|#\s*mypy:\s*ignore-errors\b",
    re.IGNORECASE,
)
#: A checker's list of rules in its config (`select = ["E", "F"]`, `ignore = [...]`,
#: `disable = ...`): fewer rules selected, or more ignored, is a check turned down.
_RULE_LIST = re.compile(
    r"^\s*[\"']?(?P<key>select|extend-select|enable|ignore|extend-ignore|disable"
    r"|per-file-ignores)[\"']?\s*[=:]\s*(?P<rules>.*)$",
    re.IGNORECASE | re.MULTILINE,
)
#: A threshold a check is held to (`fail_under = 80`, `--cov-fail-under=80`).
_THRESHOLD = re.compile(
    r"(?:fail[_-]under|--cov-fail-under|min[_-]coverage|coverageThreshold)\D{0,8}(\d+(?:\.\d+)?)",
    re.IGNORECASE,
)


def _rules(text: str) -> tuple[int, int]:
    """(rules selected, rules ignored) across a config's rule lists."""
    selected = ignored = 0
    for m in _RULE_LIST.finditer(text[:200_000]):
        count = len(re.findall(r"[\w.-]+", m.group("rules")[:2_000]))
        if m.group("key").lower() in ("select", "extend-select", "enable"):
            selected += count
        else:
            ignored += count
    return selected, ignored


def _turned_down(old: str, new: str) -> bool:
    """Whether an edit silences a finding, narrows a checker's rules or lowers its bar."""
    if not old:
        return False  # a file written whole: nothing to compare with
    if len(_SUPPRESSED.findall(new[:200_000])) > len(_SUPPRESSED.findall(old[:200_000])):
        return True
    (was_on, was_off), (now_on, now_off) = _rules(old), _rules(new)
    if (was_on and now_on < was_on) or now_off > was_off:
        return True
    bars = [float(v) for v in _THRESHOLD.findall(old[:200_000])]
    lowered = [float(v) for v in _THRESHOLD.findall(new[:200_000])]
    return (
        bool(bars)
        and len(lowered) == len(bars)
        and any(n < b for n, b in zip(lowered, bars, strict=True))
    )


#: A line commented out, in the languages above.
_COMMENT = re.compile(r"^\s*(?:#|//|--|/\*|\*)")


def is_test_path(path: str) -> bool:
    """Whether `path` is where a project keeps its tests."""
    return bool(_TEST_PATH.search(path[:1000]))


def _live(text: str) -> str:
    return "\n".join(line for line in text[:200_000].splitlines() if not _COMMENT.match(line))


def _weakens(old: str, new: str) -> bool:
    old, new = _live(old), _live(new)
    return (
        len(_ASSERTION.findall(new)) < len(_ASSERTION.findall(old))
        or len(_TRIVIAL.findall(new)) > len(_TRIVIAL.findall(old))
        or len(_SKIP.findall(new)) > len(_SKIP.findall(old))
        or len(_EXACT.findall(new)) < len(_EXACT.findall(old))
    )


def edits(name: str, args: Mapping[str, Any]) -> Iterable[tuple[str, str]]:
    """(old text, new text) of each change an `Edit`, `MultiEdit`, `Write` or
    `NotebookEdit` makes (a file written whole has no old text)."""
    if name == "MultiEdit" and isinstance(args.get("edits"), list):
        for edit in args["edits"][:256]:
            if isinstance(edit, Mapping):
                yield str(edit.get("old_string", "")), str(edit.get("new_string", ""))
    elif name == "Write":
        yield "", str(args.get("content", ""))
    elif name == "NotebookEdit":
        yield "", str(args.get("new_source", ""))
    else:
        yield str(args.get("old_string", "")), str(args.get("new_string", ""))


def edit_weakens_tests(name: str, args: Mapping[str, Any]) -> bool:
    """Whether Claude Code's `Edit`/`MultiEdit`/`Write` on a test file removes an
    assertion, makes one trivially true or skips a test (a whole file written is judged by
    what it adds: there is no old text to compare); or, in any file, makes a check unable
    to fail."""
    path = str(args.get("file_path") or args.get("notebook_path") or args.get("path") or "")
    changes = list(edits(name, args))
    if any(
        len(_NEUTERED.findall(new[:200_000])) > len(_NEUTERED.findall(old[:200_000]))
        for old, new in changes
    ):
        return True  # `run: pytest || true`: the check runs and can no longer fail
    if any(_turned_down(old, new) for old, new in changes):
        return True  # a noqa comment, `select = ["E"]` for `["E", "F"]`, `fail_under = 0`
    return is_test_path(path) and any(_weakens(old, new) for old, new in changes)


#: A sed substitution (`s/PATTERN/REPLACEMENT/flags`, any delimiter) or a deleting address.
_SUBSTITUTE = re.compile(r"s(.)((?:\\.|(?!\1).)*)\1((?:\\.|(?!\1).)*)\1")
_DELETE = re.compile(r"/((?:\\.|[^/])*)/\s*d\b")


def sed_weakens_tests(scripts: Sequence[str], files: Sequence[str]) -> bool:
    """Whether `sed -i` on a test file deletes lines with assertions, or replaces an
    assertion with something that checks less (`s/assert .*/pass/`)."""
    if not any(is_test_path(f) for f in files):
        return False
    for pattern, replacement in substitutions(scripts):
        if _ASSERTION.search(pattern) and _weakens(pattern, replacement):
            return True
        if _SKIP.search(replacement) or _TRIVIAL.search(replacement):
            return True
    return any(_ASSERTION.search(p) for s in scripts[:16] for p in _DELETE.findall(s[:4000]))


def substitutions(scripts: Sequence[str]) -> Iterable[tuple[str, str]]:
    """(pattern, replacement) of each `s/…/…/` in sed scripts."""
    for script in scripts[:16]:
        for m in _SUBSTITUTE.finditer(script[:4000]):
            yield m.group(2), m.group(3)
