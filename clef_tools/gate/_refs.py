"""The git branch a user named, and a command that moves to or acts on another one.

A branch is a coding agent's object like a file, but its name is rarely written in full:
"switch to the release branch" names `release/2.4` by one word of it. A checkout of
`feature/x` after that request is a local, undoable change the user asked for in kind, so
only the branch itself shows it is not what they asked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from clef_tools.gate._effects import CallEffect
from clef_tools.gate._grounding import object_named

__all__ = ["branch_issue", "commit_issue"]

#: "the release branch", "branch feature/login", "a branch called fix-login".
_BEFORE = re.compile(r"\b([\w][\w./-]{0,80})\s+branch(?:es)?\b", re.I)
_AFTER = re.compile(r"\bbranch(?:es)?\s+(?:called\s+|named\s+)?[`'\"]?([\w][\w./-]{0,80})", re.I)
#: Words before "branch" that say which one without naming it ("this branch", "my branch").
_NOT_NAMES = frozenset(
    ["the", "a", "an", "this", "that", "my", "your", "our", "their", "its", "his", "her",
     "new", "current", "same", "other", "another", "each", "every", "any", "which", "what",
     "git", "remote", "local", "default", "working", "feature", "old", "stale", "merged",
     "one", "to", "from", "on", "into", "onto", "of", "off", "and", "or", "called", "named",
     "that's", "whose", "before", "after", "with", "for", "in", "at", "back", "i", "we",
     "you", "it", "is", "was", "are", "were", "has", "had", "have", "be", "been", "so", "as",
     "up", "out", "then", "now", "first", "there", "here", "if", "but", "by", "name",
     # "all the branches except main": what follows is kept, not named as the target
     "except", "besides", "apart", "aside", "excluding", "not", "all", "both", "other"]
)  # fmt: skip
#: Names the same branch goes by.
_ALIASES = {"main": {"main", "master", "trunk"}, "master": {"main", "master", "trunk"}}
#: The git subcommands that move to, merge or remove a branch by name.
_ON_BRANCH = re.compile(r"^git\s+(?:checkout|switch|merge|rebase|branch)\b")
#: The branch a run is asked on, by the names most projects give their long-lived ones.
_RUN_ON = re.compile(r"\b(?:on|from|against|off)\s+(?:the\s+)?(main|master|develop|trunk)\b", re.I)
#: A run or a deploy told which branch to use (`gh workflow run deploy.yml --ref main`).
_REF_FLAG = re.compile(r"\s--(?:ref|branch)[= ]([\w./-]+)")


def _named(said: str) -> set[str]:
    text = said[:20_000]
    found = {m.group(1).lower().rstrip(".,") for m in _BEFORE.finditer(text)}
    found |= {m.group(1).lower().rstrip(".,") for m in _AFTER.finditer(text)}
    return {w for w in found if w and w not in _NOT_NAMES}


def _parts(ref: str) -> set[str]:
    return {p for p in re.split(r"[/_.-]+", ref.lower()) if p}


def _fits(ref: str, names: set[str]) -> bool:
    low = ref.lower().removeprefix("origin/")
    pieces = _parts(low)
    for name in names:
        aliases = _ALIASES.get(name, {name})
        if low in aliases or name == low or pieces & aliases:
            return True
        if len(name) >= 3 and any(
            p.startswith(name) or name.startswith(p) for p in pieces if len(p) >= 3
        ):
            return True  # "the dev branch" over `develop`
    return False


def branch_issue(effect: CallEffect, said: str) -> str | None:
    """A checkout, switch, merge, rebase or branch delete of a branch other than the one the
    user named by a word ("switch to the release branch" is not `git checkout feature/x`);
    None when the user named no branch, or the command names one of theirs."""
    # each change with the branches its flags name (`--ref main`), read once
    flagged = [(e, _REF_FLAG.findall(e.what)[:4]) for e in effect.effects if e.kind != "read"]
    moves = [(e, on_flag) for e, on_flag in flagged if on_flag or _ON_BRANCH.match(e.what)]
    names = _named(said) if effect.source == "shell" and moves else set()
    if any(on_flag for _, on_flag in moves):
        # "trigger the deploy workflow on main": a run's branch, said without "branch"
        names |= {m.lower() for m in _RUN_ON.findall(said[:20_000])[:4]}
    if not names:
        return None
    request = said[:20_000].lower()
    for e, on_flag in moves:
        refs: Sequence[str] = on_flag or [o for o in e.objects if o not in (".", "-")]
        # a ref the user wrote out anywhere is theirs ("merge the release branch into main")
        if refs and not any(_fits(ref, names) or object_named(ref, request) for ref in refs):
            return f"on branch {refs[0][:80]}, where the user named the {sorted(names)[0]} branch"
    return None


#: A commit written as its hash, whole or cut short (`abc1234`, `9fceb02d0ae5`).
_HASH = re.compile(r"(?<![\w./-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w-])")
#: The git subcommands that act on a commit by its hash.
_ON_COMMIT = re.compile(
    r"^git\s+(?:cherry-pick|revert|reset|checkout|switch|rebase|show|tag|branch)\b"
)


def commit_issue(effect: CallEffect, said: str) -> str | None:
    """A cherry-pick, revert, reset or checkout of a commit other than the one the user
    gave by its hash ("cherry-pick abc1234" is not `git cherry-pick def5678`)."""
    if effect.source != "shell":
        return None
    given = {h.lower() for h in _HASH.findall(said[:20_000])}
    if not given:
        return None
    for e in effect.effects:
        if e.kind == "read" or not _ON_COMMIT.match(e.what):
            continue
        for ref in e.objects:
            for found in _HASH.findall(ref.lower()):
                if not any(found.startswith(g) or g.startswith(found) for g in given):
                    return f"on commit {found[:12]}, where the user gave {sorted(given)[0][:12]}"
    return None
