"""Names the user did not give that are still no fault of the call.

The container of a record named by its number, the user's own account a transfer is paid
from, a draft addressed to the people named: the gate cannot check these against the words,
and nothing in them reaches anyone the user did not name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._effects import CallEffect, words
from clef_tools.gate._grounding import (
    Grounding,
    targets,
)
from clef_tools.gate._stakes._parties import SOURCE_KEY

#: Arguments that say which repository, project or workspace holds the record a call acts
#: on (`owner="acme", repo="web", pull_number=412`).
_CONTAINER_KEYS = frozenset(
    ["owner", "repo", "repository", "org", "organization", "organisation", "project",
     "project_key", "project_id", "workspace", "workspace_id", "namespace", "space", "team"]
)  # fmt: skip


def in_unnamed_container(args: Mapping[str, Any], unnamed: Sequence[str], said: str) -> bool:
    """Every name the user did not give is the container of a record the user named by
    its number ("approve PR #412" as `owner="acme", repo="web", pull_number=412`) or by its
    tag ("create a release v2.0" as `repo="acme/web", tag="v2.0"`): the agent's own working
    context (the checkout it is in), which the gate cannot check and a person can."""
    if not unnamed:
        return False
    items = [(str(k), v) for k, v in list(args.items())[:32] if not isinstance(v, bool)]
    held = {t for k, v in items if k.lower() in _CONTAINER_KEYS for t in targets({k: v})}
    if not set(unnamed) <= held:
        return False
    numbers = [
        t
        for k, v in items
        if k.lower() not in _CONTAINER_KEYS
        and isinstance(v, int | str)
        and (_RECORD_NUMBER_KEY.search(k) or k.lower() in _TAG_KEYS)
        for t in targets({k: v})
    ]
    text = said[:20_000]
    return bool(numbers) and all(
        re.search(rf"(?<![\w.]){re.escape(n)}(?![\w.])", text) for n in numbers
    )


#: A key that gives a record by its number (`pull_number`, `issue_number`, `pullNumber`).
_RECORD_NUMBER_KEY = re.compile(r"(?:^|_)(?:number|num|no)$|(?-i:[a-z]Number)$", re.IGNORECASE)


#: Keys that give a release or a version by its tag (`tag="v2.0"`, `tag_name="1.4.0"`).
_TAG_KEYS = frozenset(["tag", "tag_name", "version"])


#: Arguments that address a message or an invitation.
_ADDRESSED = re.compile(r"^(?:to|cc|bcc|recipients?|attendees|invitees|participants)$", re.I)


def addressed_by_name(
    effect: CallEffect, grounding: Grounding, args: Mapping[str, Any], said: str
) -> bool:
    """A draft kept here, addressed to the people the user named by name (`tom@corp.example`
    after "draft a reply to Tom"): nothing leaves, and the address is checked when the draft
    is sent; only an address whose local part is the user's own words for the person, and
    only as whom the draft is to (not a contact's address changed)."""
    if effect.external or effect.kinds != {"create"} or not grounding.unnamed:
        return False
    addressed = " ".join(
        str(v) for k, v in list(args.items())[:32] if _ADDRESSED.match(str(k))
    ).lower()
    told = set(words(said[:20_000]))
    for name in grounding.unnamed[:16]:
        if name.lower() not in addressed:
            return False
        local, at, _ = name.lower().partition("@")
        parts = [p for p in re.split(r"[._+-]+", local) if p]
        if not at or not parts or not all(len(p) > 1 and p in told for p in parts):
            return False
    return True


def bare_ids_only(names: Sequence[str]) -> bool:
    """Whether every name is a bare id or word: no link, host, address or path."""
    return bool(names) and all(re.fullmatch(r"[\w-]{1,64}", n) for n in names[:16])


def paid_from_unnamed(effect: CallEffect, grounding: Grounding, args: Mapping[str, Any]) -> bool:
    """A transfer whose only unnamed value is the account it is paid from ("transfer $1.2k
    to savings" from `checking`): the money still reaches only the named payee, in the
    named sum, so the user's choice of their own account is no one else's name."""
    if effect.kinds != {"pay"} or not grounding.unnamed:
        return False
    sources = {
        str(v).strip().lower()
        for k, v in list(args.items())[:32]
        if SOURCE_KEY.match(str(k)) and isinstance(v, str)
    }
    return bool(sources) and all(n.strip().lower() in sources for n in grounding.unnamed[:16])
