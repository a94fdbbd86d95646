"""A pick by how many: "the channel with the most users", "the user who wrote the most
messages", "the list with the fewest items".

The scores such a pick ranks by are not in any one result: they are the length of each
listing the agent read (one call per candidate), or how often each name heads the records
it read. Both are counted here from the calls and their results, so whether the one a call
names ranks first is checked rather than left to the model. Only where the agent read
every candidate a listing offered: a count of some of them says nothing of the rest.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from clef_tools.gate._grounding import records_of
from clef_tools.gate._lookups import Lookup, lookups

__all__ = ["Counted", "counted"]

#: "the most users", "the fewest open issues", "the smallest number of messages", "the
#: most total channel messages": the direction and the noun counted.
_BY_COUNT = re.compile(
    r"\b(?:(most|(?:largest|highest|greatest|biggest)\s+(?:number|count)\s+of)"
    r"|(fewest|least|(?:smallest|lowest)\s+(?:number|count)\s+of))\s+"
    r"(?:[a-z]+\s+){0,2}?([a-z]{3,}s)\b",
    re.IGNORECASE,
)
#: A field naming who a record is by: `sender: Charlie`, `"author": "bob"`.
_OWNER = re.compile(
    r"\b(?:sender|author|from|user|owner|poster|posted_by|created_by|by|assignee)\"?\s*[:=]\s*"
    r"\"?([\w.@+-]{2,80})",
    re.IGNORECASE,
)
#: Nouns whose count a tool named by another gives: a channel's members are its users.
_SAME_COUNT = {
    "member": ("member", "user", "participant"),
    "user": ("user", "member"),
    "participant": ("participant", "member", "user", "attendee"),
    "attendee": ("attendee", "participant", "guest"),
    "post": ("post", "message"),
    "message": ("message", "post"),
}
_MAX_SAID = 20_000


@dataclass(frozen=True)
class Counted:
    """Each candidate's count, by the listing read for it and by the records it heads."""

    most: bool
    per_listing: dict[str, int] = field(default_factory=dict)
    per_owner: dict[str, int] = field(default_factory=dict)

    def rank(self, names: Sequence[str]) -> str | None:
        """ "first" when the one candidate `names` holds ranks first (a tie counts),
        "other" when another does, None when the counts name none or several of them."""
        for table in (self.per_listing, self.per_owner):
            if len(table) < 2:
                continue
            picked = {n.lower() for n in names[:16]} & set(table)
            if len(picked) != 1:
                continue
            best = max(table.values()) if self.most else min(table.values())
            return "first" if table[picked.pop()] == best else "other"
        return None


def counted(said: str, messages: Sequence[Any] | str | None) -> Counted | None:
    """The counts a pick by how many ranks by, or None when the user picked by no count,
    or the agent read no listing of the noun counted, or left candidates unread. The
    agent's calls are paired with their results only when the user picked by a count."""
    asked = _BY_COUNT.search(said[:_MAX_SAID])
    if asked is None:
        return None
    calls = lookups(messages)
    noun = asked.group(3).lower()
    stem = noun[:-3] + "y" if noun.endswith("ies") else noun[:-1]
    stems = _SAME_COUNT.get(stem, (stem,))
    read = [c for c in calls if any(s in c.tool.lower() for s in stems)]
    if not read:
        return None
    per_listing: dict[str, int] = {}
    owners: Counter[str] = Counter()
    for call in read:
        items = list(records_of(call.result))
        values = [v for v in call.args.values() if isinstance(v, str) and v.strip()]
        if len(values) == 1:
            per_listing[values[0].strip().lower()] = len(items)
        for item in items:
            owner = _OWNER.search(item)
            if owner is not None:
                owners[owner.group(1).lower()] += 1
    if not _every_candidate_read(per_listing, calls):
        return None
    return Counted(asked.group(1) is not None, per_listing, dict(owners))


def _every_candidate_read(per_listing: dict[str, int], calls: Sequence[Lookup]) -> bool:
    """No listing offered a candidate the agent did not read: `get_channels` gave four
    channels, and the agent counted the members of three."""
    if len(per_listing) < 2:
        return True
    for call in calls:
        offered = {_bare(r) for r in records_of(call.result)}
        if len(offered & set(per_listing)) >= 2 and not offered <= set(per_listing):
            return False
    return True


def _bare(record: str) -> str:
    """A listing's record as the name it offers: `- general` is `general`."""
    return record.strip().removeprefix("- ").strip().strip("\"'`").lower()
