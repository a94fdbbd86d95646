"""Git's subcommands, by what each does to the history, the working tree and the remote."""

from __future__ import annotations

from collections.abc import Sequence

from clef_tools.gate._effects import Effect
from clef_tools.gate._shell._common import args_after, flags_of, shell_words

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


def git_effects(args: Sequence[str], text: str) -> list[Effect]:
    sub = next((a for a in args if not a.startswith("-")), "")
    rest = args_after(args, sub)
    flags = flags_of(rest)
    if sub in ("commit", "push", "merge", "am") and "--no-verify" in flags:
        # the project's hooks (its lint, its tests) skipped for this commit or push
        return [
            *git_effects([a for a in args if a != "--no-verify"], text),
            Effect("modify", what=text, action="weaken-tests"),
        ]
    if sub == "reflog" and rest[:1] in (["expire"], ["delete"]):
        # the record of where branches were, which is how lost commits are found again
        high = any(a.startswith("--expire") for a in rest) or "--all" in rest
        return [Effect("delete", reversible=False, high_impact=high, what=text)]
    if sub == "branch" and not flags & {"d", "D", "m", "M", "--delete", "--move"}:
        return [_git_branch(rest, flags, text)]
    if sub in shell_words("git_read") or (sub == "stash" and rest[:1] in (["list"], ["show"])):
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


_GIT_CONFIG_READS = frozenset(
    ["--list", "l", "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--show-origin",
     "--show-scope", "--get-color", "--get-colorbool"]
)  # fmt: skip


_GIT_CONFIG_WRITES = frozenset(
    ["--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section",
     "e", "--edit"]
)  # fmt: skip
