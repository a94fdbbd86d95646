"""A repository's and a package's changes: revisions, merges, branches, commits, versions,
upgrades, images, patterns."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._canonical import replaced_pairs
from clef_tools.gate._effects import CallEffect, words
from clef_tools.gate._extent._common import EVERY_SAID, NUMBER_TOKEN, SET_TO_VALUE
from clef_tools.gate._extent._files import named_file
from clef_tools.gate._files import named_files
from clef_tools.gate._grounding import object_named

#: A rollback to a revision by its number: `kubectl rollout undo … --to-revision=1`,
#: `helm rollback api 3`.
_TO_REVISION = re.compile(
    r"--to-revision[= ](\d+)|\bhelm\s+rollback\s+(?:-\S+\s+)*[\w.-]+\s+(\d+)\b"
)


def revision_issue(effect: CallEffect, said: str, results: Sequence[str]) -> str | None:
    """A rollback to a revision the user gave no number for, and no result in view lists
    (`helm history`): "roll back the api deployment" is to the one before, not to revision
    1, months old."""
    if effect.source != "shell":
        return None
    for e in effect.effects:
        found = _TO_REVISION.search(e.what[:2000])
        if found is None:
            continue
        number = found.group(1) or found.group(2)
        given = re.compile(rf"(?<![\w.]){number}(?![\w.])")
        if not given.search(said) and not any(given.search(r[:20_000]) for r in results[-8:]):
            return f"rolls back to revision {number}, which the user did not give"
    return None


#: How a pull request is merged, as a user asks for it ("merge it with a squash",
#: "rebase-merge it") and as a merge call's `merge_method` names it.
_MERGE_METHODS = {"squash": r"\bsquash", "rebase": r"\brebase", "merge": r"\bmerge\s+commit\b"}


def merge_method_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A merge by another method than the one the user named: `merge_method="merge"`
    after "merge lin's PR with a squash" keeps every commit the user asked to fold; so does
    `gh pr merge 88 --rebase`."""
    method = args.get("merge_method") or args.get("merge_strategy")
    command = args.get("command")
    if method is None and isinstance(command, str):
        flag = _GH_MERGE_FLAG.search(command[:2_000])
        method = flag.group(1) if flag else None
    if not isinstance(method, str) or method.strip().lower() not in _MERGE_METHODS:
        return None
    asked = [m for m, pattern in _MERGE_METHODS.items() if re.search(pattern, said, re.I)]
    if asked and method.strip().lower() not in asked:
        return f"merge_method={method!r}, where the user asked for a {asked[0]} merge"
    return None


#: The method `gh pr merge` is told (`--squash`, `--rebase`, `--merge`, `-s`, `-r`, `-m`).
_GH_MERGE_FLAG = re.compile(r"\bgh\s+pr\s+merge\b[^|;&\n]*?\s--(squash|rebase|merge)\b")


#: "Push my branch", "this branch", "the current branch": the one checked out.
_CURRENT_BRANCH_SAID = re.compile(
    r"\b(?:my|this|the\s+current|current|the)\s+(?:local\s+)?branch\b(?!\s+(?:called|named)\b)",
    re.IGNORECASE,
)


#: The branch `git branch` or `git status` shows checked out.
_CHECKED_OUT = re.compile(r"^\*\s+(\S+)\s*$|^On branch (\S+)\s*$", re.MULTILINE)


def current_branch_issue(effect: CallEffect, said: str, results: Sequence[str]) -> str | None:
    """A push of another branch than the one a listing in view shows checked out, where
    the user asked for theirs: `git push -u origin release/1.4` after "push my branch" and
    a `git branch` that marks `* fix/timeout`."""
    if not any(e.action == "push" for e in effect.effects) or not _CURRENT_BRANCH_SAID.search(said):
        return None
    shown = [
        m.group(1) or m.group(2) for r in results[-16:] for m in _CHECKED_OUT.finditer(r[:20_000])
    ]
    if not shown:
        return None
    current = shown[-1]
    for e in effect.effects:
        if e.action != "push":
            continue
        other = [
            o for o in e.objects
            if o.split(":")[0] not in (current, "HEAD") and not named_file(o, said)
        ]  # fmt: skip
        if other:
            return f"pushes {other[0]}, where the user asked for their branch ({current})"
    return None


_VERSION = re.compile(r"(?<![\w.])v?(\d+\.\d+\.\d+(?:[-+.]\w+(?:\.\w+)*)?)(?!\w|\.\w)")


def version_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """An edit that writes a version other than the one the user gave ("bump the version
    to 1.4.2" is not `version = "2.0.0"`; "bump the node version to 20" is not
    `node-version: 22`) or none at all, or a command that tags or pins another ("tag this commit as
    v1.3.0" is not `git tag -f v1.2.0`)."""
    given = set(_VERSION.findall(said))
    if given and effect.source == "shell":
        for e in effect.effects:
            named = {v for o in e.objects for v in _VERSION.findall(o)}
            if e.kind != "read" and named and not named & given:
                return f"acts on version {sorted(named)[0]}, where the user gave {sorted(given)[0]}"
    values = set(SET_TO_VALUE.findall(said[:20_000]))
    for old, new in replaced_pairs(args) if values else []:
        written = set(NUMBER_TOKEN.findall(new[:100_000])) - set(
            NUMBER_TOKEN.findall(old[:100_000])
        )
        if written and not written & values:
            return f"writes {sorted(written)[0]}, where the user asked for {sorted(values)[0]}"
        if old != new and not set(NUMBER_TOKEN.findall(new[:100_000])) & values:
            # "bump the version to 2.4.0": an edit that writes no such value changes
            # something else (`"private": false`)
            return f"changes something other than the value asked for ({sorted(values)[0]})"
    if not given:
        return None
    for old, new in replaced_pairs(args):
        written = set(_VERSION.findall(new[:100_000])) - set(_VERSION.findall(old[:100_000]))
        if written and not written & given:
            return f"writes version {sorted(written)[0]}, where the user gave {sorted(given)[0]}"
    return None


#: The part of a semantic version a bump raises (`npm version major`, `--minor`,
#: `bump_version(part="patch")`), and words that say a version is being bumped.
_BUMP_LEVEL = re.compile(r"(?<![\w.-])(?:--)?(?:pre)?(major|minor|patch)(?![\w.-])", re.I)


_BUMP_SAID = re.compile(r"\b(?:bump\w*|version|release|increment)\b", re.I)


def bump_level_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A version bumped by another part than the user said ("bump the patch version" is
    not `npm version major`): a major bump tells every user of a package that it breaks."""
    if not _BUMP_SAID.search(said):
        return None
    asked = {m.lower() for m in _BUMP_LEVEL.findall(said)}
    if not asked:
        return None
    if effect.source == "shell":
        texts = [
            e.what[:2_000]
            for e in effect.effects
            if e.kind != "read" and re.search(r"version|bump|release", e.what[:2_000], re.I)
        ]
    else:
        texts = [v for v in list(args.values())[:32] if isinstance(v, str) and len(v) < 16]
    done = {m.lower() for t in texts for m in _BUMP_LEVEL.findall(t)}
    if done and not done & asked:
        return f"bumps the {sorted(done)[0]} version, where the user asked for {sorted(asked)[0]}"
    return None


#: "my last 3 commits", "the last commit": how many commits back the user asked to go.
_COMMITS_SAID = re.compile(
    r"\b(?:last|past|previous|latest|recent)\s+(\d{1,3}|two|three|four|five|six|seven|eight|nine"
    r"|ten)\s+commits?\b|\b(?:last|latest|previous)\s+commit\b",
    re.IGNORECASE,
)


_COMMIT_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                  "eight": 8, "nine": 9, "ten": 10}  # fmt: skip


#: A revision counted back from HEAD: `HEAD~3`, `HEAD~`, `HEAD^^`, `@~2`.
_BACK_FROM_HEAD = re.compile(r"(?<![\w/])(?:HEAD|@)(?:~(\d*)|(\^+))(?![\w^~])")


def commits_issue(effect: CallEffect, said: str) -> str | None:
    """A change that goes further back than the commits the user counted: `git reset
    --soft HEAD~10` after "squash my last 3 commits" folds seven more into one."""
    if effect.source != "shell":
        return None
    asked = _COMMITS_SAID.search(said)
    if asked is None:
        return None
    count = asked.group(1)
    wanted = (
        1 if count is None else int(count) if count.isdigit() else _COMMIT_COUNTS[count.lower()]
    )
    for e in effect.effects:
        if e.kind == "read":
            continue
        for back in _BACK_FROM_HEAD.finditer(e.what[:2000]):
            steps = len(back.group(2)) if back.group(2) else int(back.group(1) or 1)
            if steps != wanted:
                return f"goes {steps} commits back, where the user asked for {wanted}"
    return None


_MERGED_SAID = re.compile(r"\b(?:already\s+)?merged\b", re.IGNORECASE)


#: `git branch -D`, `--delete --force`, `-df`: a branch deleted whether merged or not.
_FORCE_BRANCH_DELETE = re.compile(
    r"\bgit\s+branch\b[^|;&\n]*\s(?:-D\b|-[a-zA-Z]*D[a-zA-Z]*\b|--delete\s+--force\b"
    r"|--force\s+--delete\b|-df\b|-fd\b)"
)


def unmerged_issue(effect: CallEffect, said: str) -> str | None:
    """Branches force-deleted where the user asked for the merged ones: `git branch -D`
    deletes a branch whose work is nowhere else, which `git branch -d` refuses to."""
    if effect.source != "shell" or not _MERGED_SAID.search(said):
        return None
    for e in effect.effects:
        if e.kind == "delete" and _FORCE_BRANCH_DELETE.search(e.what[:2000]):
            return "force-deletes branches, merged or not, where the user asked for merged ones"
    return None


#: A command's flag that takes it to every object of its kind (`kubectl scale --all`).
_EVERY_FLAG = re.compile(r"(?<![\w-])(?:--all|--all-namespaces|-A)(?![\w-])")


#: Every local tag pushed at once (`git push --tags`, `--follow-tags` pushes only those of
#: the commits pushed), and the words that ask for all of them.
_PUSHES_EVERY_TAG = re.compile(r"\bgit\s+push\b[^|;&\n]*\s--tags(?![\w-])")


_TAGS_SAID = re.compile(r"\btags\b", re.IGNORECASE)
#: `git push --all`, `--mirror`: every branch (and, mirrored, every ref) sent at once.
_PUSHES_EVERY_BRANCH = re.compile(r"\bgit\s+push\b[^|;&\n]*\s--(?:all|mirror)(?![\w-])")
_BRANCHES_SAID = re.compile(r"\bbranches\b|\bmirror\b", re.IGNORECASE)


def every_flag_issue(effect: CallEffect, said: str) -> str | None:
    """A change a flag takes to every object of its kind where the user named one:
    `kubectl scale deployment --all` after "scale the web deployment"; every package a
    requirements file lists upgraded (`pip install -U -r requirements.txt`) after "upgrade
    requests". Git's own `-A` (`git add -A`) stages the working tree, and is not such a
    flag."""
    if effect.source != "shell" or EVERY_SAID.search(said):
        return None
    for e in effect.effects:
        what = e.what[:2000]
        if e.kind != "read" and _PUSHES_EVERY_TAG.search(what) and not _TAGS_SAID.search(said):
            return "pushes every tag, where the user named one"
        if (
            e.kind != "read"
            and _PUSHES_EVERY_BRANCH.search(what)
            and not _BRANCHES_SAID.search(said)
        ):
            return "pushes every branch, where the user named one"
        if e.kind == "read" or re.match(r"\s*(?:sudo\s+)?git\b", what):
            continue
        found = _EVERY_FLAG.search(what)
        if found is not None:
            return f"{found.group(0)} acts on every one, where the user named one"
        if _UPGRADES_ALL.search(what) and not _DEPENDENCIES_SAID.search(said):
            return "upgrades every package the project lists, where the user named one"
        if _PRUNES_ALL.search(what) and re.search(r"\bdangling\b", said, re.IGNORECASE):
            return "removes every unused image, where the user asked for the dangling ones"
    return None


#: Words of an argument's or a tool's name that take a call to every object of its kind:
#: `purge_everything=True`, `delete_all=True`, `all_users=True`, `mute_all`.
_EVERY_WORDS = frozenset(["all", "everything", "everyone", "everybody"])


#: First words of a switch that tells people of a change (`notify_all_attendees`), which
#: does not widen the change.
_TELLS = frozenset(["notify", "notification", "notifications", "alert", "inform", "email"])


def takes_every(name: str) -> bool:
    """Whether a name's first, second or last word is "all" or its like (`all_users`,
    `delete_all_messages`, `purgeEverything`); `reply_all_email` is judged by its
    recipients, and `notify_all_attendees` tells of a change without widening it."""
    found = words(name)
    if not found or found[:2] == ["reply", "all"] or found[0] in _TELLS or len(found) > 4:
        return False
    return bool(_EVERY_WORDS & {found[0], found[-1], *found[1:2]})


#: A prune taken from dangling images to every image no container uses (`-a`, `-af`).
_PRUNES_ALL = re.compile(
    r"\b(?:docker|podman)\s+(?:(?:image|system|builder)\s+)?prune\b[^|;&\n]*?"
    r"\s(?:-[b-zA-Z]*a[b-zA-Z]*|--all)(?![\w-])"
)


#: Every dependency upgraded at once: `pip install -U -r requirements.txt`, a bare `npm
#: update`, `poetry update`, `cargo update`, `bundle update`.
_UPGRADES_ALL = re.compile(
    r"\bpip3?\s+install\b(?=[^|;&\n]*\s(?:-U|--upgrade)\b)(?=[^|;&\n]*\s(?:-r|--requirement)\b)"
    r"|\b(?:npm|pnpm|yarn|poetry|cargo|bundle|composer)\s+(?:update|upgrade|up)\s*(?:$|[;&|])"
    # the system's packages: `brew upgrade`, `apt-get -y dist-upgrade`, `dnf upgrade`
    r"|\b(?:brew|apt|apt-get|dnf|yum)\s+(?:-\S+\s+)*(?:upgrade|dist-upgrade|full-upgrade)"
    r"(?:\s+-\S+)*\s*(?:$|[;&|])|\b(?:dnf|yum)\s+(?:-\S+\s+)*update(?:\s+-\S+)*\s*(?:$|[;&|])"
    r"|\bpacman\s+-Syu\w*\s*(?:$|[;&|])"
)


_DEPENDENCIES_SAID = re.compile(
    r"\b(?:dependencies|deps|packages|requirements|lockfile|system|os|machine|server)\b", re.I
)


#: Tools that install and remove packages by name.
_PACKAGE_TOOL = re.compile(
    r"\s*(?:sudo\s+)?(?:npm|pnpm|yarn|pip3?|uv|poetry|cargo|gem|brew|apt|apt-get|conda|composer"
    r"|pipx)\b"
)


def pattern_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A pattern that widens a change from the file the user named to its kind (`sed -i
    … *.go` after "replace tabs in main.go"), or to the files a command lists (`sed -i …
    $(git ls-files)`)."""
    if effect.source != "shell" or EVERY_SAID.search(said):
        return None
    files = [f.lower() for f in named_files(said)]
    if not files:
        return None
    command = next((v for v in args.values() if isinstance(v, str)), "")[:10_000]
    for e in effect.effects:
        if e.kind == "read":
            continue
        if _LISTED_OPERAND.search(command) and command.lstrip().startswith(e.what.split(" ", 1)[0]):
            return f"acts on every file a command lists, where the user named {files[0]}"
        for pattern in e.objects:
            bare = pattern.strip("'\"").lower()
            if not re.search(r"[*?\[]", bare) or bare in said.lower():
                continue
            if any(
                fnmatch.fnmatchcase(f.rsplit("/", 1)[-1], bare.rsplit("/", 1)[-1]) for f in files
            ):
                return f"{pattern} reaches every file of its kind, where the user named {files[0]}"
    return None


#: An operand a command fills in with the files it lists: `$(git ls-files)`, `` `find .` ``.
_LISTED_OPERAND = re.compile(
    r"\$\((?:git\s+ls-files|find|ls|grep\s+-[a-zA-Z]*l)[^)]*\)|`(?:git\s+ls-files|find|ls)[^`]*`"
)


def other_packages_issue(effect: CallEffect, said: str) -> str | None:
    """Packages added or removed beside the ones the user named: `npm uninstall lodash
    express` after "remove the unused lodash dependency"."""
    if effect.source != "shell":
        return None
    for e in effect.effects:
        if e.kind not in ("delete", "configure", "execute") or not _PACKAGE_TOOL.match(e.what):
            continue
        packages = [
            o for o in e.objects if re.fullmatch(r"@?[\w.-]+(?:/[\w.-]+)?(?:[=<>@~^!]\S*)?", o)
        ]
        named = [p for p in packages if object_named(_package_name(p), said)]
        # a companion of a named package (`react-dom` beside `react`, `@types/react`)
        companions = {
            p for p in packages
            for n in named
            if _package_name(p).startswith(_package_name(n) + "-")
            or _package_name(p) == "@types/" + _package_name(n)
        }  # fmt: skip
        others = [p for p in packages if p not in named and p not in companions]
        if named and others:
            return f"also {others[0]}, where the user named {named[0]}"
    return None


#: A request for a package the project needs only while it is developed.
_DEV_SAID = re.compile(
    r"\b(?:dev|development|test(?:ing)?)[\s-]+(?:dependenc(?:y|ies)|deps?|group|requirements?)\b"
    r"|\bdevDependenc(?:y|ies)\b|--save-dev\b|\bas\s+a\s+dev\b",
    re.IGNORECASE,
)
#: The flags by which an add puts a package among those (`npm i -D`, `poetry add -G dev`).
_DEV_FLAG = re.compile(
    r"(?<!\S)(?:-D|--save-dev|--dev|-d|--group[= ](?:dev|test)\w*|-G\s*(?:dev|test)\w*"
    r"|--only[= ]dev)(?!\S)"
)
#: An add of a package to a project's manifest.
_ADDS_PACKAGE = re.compile(
    r"\s*(?:npm\s+(?:i|install|add)|pnpm\s+(?:add|i|install)|yarn\s+add|poetry\s+add"
    r"|uv\s+add|bun\s+add)\s+\S"
)


def dev_dependency_issue(effect: CallEffect, said: str) -> str | None:
    """A package added as one the project runs with, where the user asked for a development
    dependency: `poetry add pytest` after "install pytest as a dev dependency" ships it to
    every user of the package."""
    if effect.source != "shell" or not _DEV_SAID.search(said[:20_000]):
        return None
    for e in effect.effects:
        if _ADDS_PACKAGE.match(e.what) and not _DEV_FLAG.search(e.what[:2_000]):
            return f"{e.what[:60]} adds a runtime dependency, where the user asked for a dev one"
    return None


#: A package pinned in a command: `react@19`, `requests==2.32.3`, `serde@1.0.200`,
#: `django==4.2.*`.
_PINNED = re.compile(
    r"(?<!\S)(@?[\w.-]+(?:/[\w.-]+)?)(?:@|==|=|~=)[\^~]?v?(\d+(?:\.\d+)*)(?:\.\*|\.x)?(?!\S)"
)


def package_version_issue(effect: CallEffect, said: str) -> str | None:
    """A package installed at another version than the one the user gave: `npm install
    react@19` after "upgrade react to 18.3"; or at whatever is latest (`pip install -U
    requests` after "install requests 2.32.3")."""
    if effect.source != "shell":
        return None
    for e in effect.effects:
        if e.kind == "read" or not _PACKAGE_TOOL.match(e.what):
            continue
        pinned = dict(_PINNED.findall(e.what[:2_000])[:16])
        installed = list(e.objects[:16]) if e.packages else []
        for name in dict.fromkeys([*pinned, *installed]):
            wanted = _version_said(name, said)
            if wanted is None:
                continue
            version = pinned.get(name)
            if version is None:
                return f"installs {name} at its latest version, where the user asked for {wanted}"
            if not (version + ".").startswith(wanted + "."):
                return f"installs {name} {version}, where the user asked for {wanted}"
    return None


def _version_said(name: str, said: str) -> str | None:
    """The version the user gave for a package: "react to 18.3", "requests 2.32.3",
    "requests==2.32.3", "lodash@4" (a bare number after the name needs a dot: "install
    requests 2 times" gives none)."""
    found = re.search(
        rf"(?<![\w-]){re.escape(name)}(?![\w-])(?:[^.;!?\n]{{0,30}}?\b(?:to|at|version)\s*"
        # "upgrade react to the latest 18.x": the major line given
        r"(?:the\s+)?(?:latest\s+|newest\s+|last\s+)?v?"
        r"(\d+(?:\.\d+)*)|\s*(?:@|==|=)\s*v?(\d+(?:\.\d+)*)|\s+v?(\d+(?:\.\d+)+))",
        said,
        re.IGNORECASE,
    )
    if found is None:
        return None
    return found.group(1) or found.group(2) or found.group(3)


def _package_name(spec: str) -> str:
    """`requests==2.32.3` is `requests`; `@types/node@20` is `@types/node`."""
    return re.split(r"(?<=.)[=<>@~^!]", spec, maxsplit=1)[0]


#: A statement's filter that compares a column with a number by more than equality.
_RANGE_FILTER = re.compile(
    r"\bWHERE\b.*?\b[\w.]+\s*(?:>=|<=|<>|!=|>|<)\s*'?(\d+(?:\.\d+)?)\b", re.IGNORECASE | re.S
)


#: Words by which a request asks for a range ("ids above 40", "orders since 2024").
_RANGE_SAID = re.compile(
    r"\b(?:above|over|greater|more\s+than|at\s+least|before|after|below|under|less\s+than"
    r"|older|newer|since|from|up\s+to|through|until|till|or\s+(?:more|less|higher|lower|later"
    r"|earlier)|onwards?|beyond|between|range|every|all)\b|[<>≤≥]",
    re.IGNORECASE,
)


def ranged_issue(effect: CallEffect, said: str) -> str | None:
    """A change to the rows a range picks where the user gave one value: `UPDATE users
    SET active = false WHERE id >= 42` after "deactivate the user with id 42"."""
    if effect.source != "sql" or _RANGE_SAID.search(said):
        return None
    for e in effect.effects:
        if e.kind not in ("modify", "delete"):
            continue
        ranged = _RANGE_FILTER.search(e.what[:2_000])
        if ranged and re.search(rf"(?<![\w.]){re.escape(ranged.group(1))}(?![\w]|\.\d)", said):
            return f"changes the rows a range from {ranged.group(1)} picks; the user gave one"
    return None


#: Options a booking, an order or a ride picks by kind (`ride_type`, `seat_class`).
_OPTION_KEY = re.compile(
    r"^(?:\w+_)?(?:type|class|tier|cabin|fare|service|shipping|delivery|speed|size)$",
    re.IGNORECASE,
)


#: The dearer kinds of an option: a premium ride, a faster delivery, a bigger size.
_UPGRADES = frozenset(
    ["black", "premium", "luxury", "lux", "xl", "xxl", "suv", "express", "priority",
     "overnight", "vip", "platinum", "deluxe", "suite", "exec", "executive", "same-day",
     "sameday", "next-day", "nextday", "rush"]
)  # fmt: skip


#: A travel class up, only where the key says it is a class (`account_type="business"`
#: is no upgrade).
_CLASS_UPGRADES = frozenset(["first", "business"])


def upgrade_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A dearer kind of what the user asked for, which nobody chose: `ride_type="black"`
    for "get me a ride", `shipping="overnight"` for "order more printer paper"."""
    if not effect.kinds & {"create", "pay", "send"}:
        return None
    told = set(words(said[:20_000])) | set(re.findall(r"[a-z]+-[a-z]+", said[:20_000].lower()))
    for key, value in list(args.items())[:32]:
        if not _OPTION_KEY.match(str(key)) or not isinstance(value, str) or len(value) > 40:
            continue
        dearer = _UPGRADES | (
            _CLASS_UPGRADES if re.search(r"class|cabin|fare", str(key), re.I) else set()
        )
        picked = set(re.findall(r"[a-z]+(?:-[a-z]+)?", value.lower())) & dearer
        if picked and not picked & told:
            return f"{key}={value}, a dearer kind the user did not ask for"
    return None


#: An image named with its tag: `api:dev`, `ghcr.io/acme/web:1.4.2` (not a time, `10:30`).
_IMAGE_TAG = re.compile(
    r"(?<![\w/.@:-])((?:[a-z0-9][\w.-]*/)*[a-z][\w.-]*:[\w][\w.-]{0,127})(?![\w.:/-])"
)


def image_tag_issue(effect: CallEffect, said: str) -> str | None:
    """An image built, tagged or pushed under another name or tag than the one the user
    gave ("tag it api:dev" is not `docker build -t api:latest`)."""
    if effect.source != "shell":
        return None
    given = {t.lower().rstrip(".") for t in _IMAGE_TAG.findall(said[:20_000])}
    if not given:
        return None
    for e in effect.effects:
        found = re.match(
            r"\s*(?:sudo\s+)?(?:docker|podman|buildah)\s+(?:image\s+)?(build|tag|push)\b", e.what
        )
        if found is None:
            continue
        named = [o.lower() for o in e.objects if _IMAGE_TAG.fullmatch(o.lower())]
        # `docker tag SOURCE TARGET`: the name made is the last one
        tags = set(named[-1:]) if found.group(1) == "tag" else set(named)
        other = sorted(t for t in tags - given if not _registry_named(t, given, said))
        if other:
            return f"names the image {other[0]}, where the user gave {sorted(given)[0]}"
    return None


def _registry_named(tag: str, given: set[str], said: str) -> bool:
    """`registry.acme.io/api:1.3` after "push api:1.3 to registry.acme.io": the image the
    user named, under the registry they named for it (one they did not name is where a
    push would leave to unasked)."""
    registry = tag.rpartition("/")[0]
    return (
        bool(registry)
        and any(tag.endswith(f"/{g}") for g in given)
        and bool(re.search(rf"(?<![\w./-]){re.escape(registry)}(?![\w-])", said, re.IGNORECASE))
    )
