"""Whom a call's money or message goes to against whom the user named, and which way."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._effects import CallEffect
from clef_tools.gate._grounding import (
    ADDRESS_TEXT,
    targets,
)

_FROM_TO = re.compile(
    r"\bfrom\s+(?:my\s+|the\s+|our\s+)?([\w.@-]+)[^.;!?]{0,40}?\bto\s+(?:my\s+|the\s+|our\s+)?"
    r"([\w.@-]+)",
    re.IGNORECASE,
)


SOURCE_KEY = re.compile(r"^(?:from|source|src|origin)(?:_\w+)?$|^\w+_from$", re.I)


_TARGET_KEY = re.compile(r"^(?:to|destination|dest|target)(?:_\w+)?$|^\w+_to$", re.I)


def direction_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A move the wrong way round: "move 300 from savings to checking" is not
    `from_account="checking", to_account="savings"` (by the accounts' numbers, it is
    `_extent`'s `ends_swapped_issue`, which reads what the listing calls each)."""
    source = next((str(v).lower() for k, v in args.items() if SOURCE_KEY.match(str(k))), None)
    target = next((str(v).lower() for k, v in args.items() if _TARGET_KEY.match(str(k))), None)
    if not source or not target:
        return None
    for a, b in _FROM_TO.findall(said[:20_000])[:8]:
        a, b = a.lower().rstrip(".-"), b.lower().rstrip(".-")
        if a != b and a in target and b in source and a not in source and b not in target:
            return f"from {source} to {target}, where the user asked from {a} to {b}"
    return None


def recipient_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str] = ()
) -> str | None:
    """Addresses the user wrote out, and a send or grant to none of them: "forward the
    invoice to accounting@acme.io" is not to the sender the invoice came from. An address
    the user replaced ("send it to cfo@… instead") is no longer one of them, and a draft
    sent by its id goes to the addresses its record in view gives."""
    if not effect.kinds & {"send", "grant", "pay"}:
        return None
    text = said[:20_000]
    found = list(itertools.islice(ADDRESS_TEXT.finditer(text), 32))
    stated = {m.group(0).lower().rstrip(".,;") for m in found}
    if not stated:
        return None
    for i, m in enumerate(found):
        if _INSTEAD.match(text, m.end()):
            # the addresses written before it are the ones it replaces
            stated -= {f.group(0).lower().rstrip(".,;") for f in found[:i]}
            stated.add(m.group(0).lower().rstrip(".,;"))
    named = targets(args)
    sent_to = {t.lower() for t in named if ADDRESS_TEXT.fullmatch(t)}
    if not sent_to:
        sent_to = _record_recipients([t for t in named if len(t) >= 3][:8], results)
    if sent_to and not sent_to & stated:
        return f"to {sorted(sent_to)[0][:80]}, where the user gave {sorted(stated)[0][:80]}"
    return None


#: "… to cfo@acme.example instead": the address that replaces the one before it.
_INSTEAD = re.compile(r"[.,;]?\s+(?:instead|rather)\b", re.IGNORECASE)


#: A record's fields that say whom it goes to.
_RECIPIENT_FIELD = re.compile(
    r'"(?:to|recipients?|cc|bcc)"\s*:\s*(\[[^\]]{0,2000}\]|"[^"]{0,300}")'
)


_ID_KEY_BEFORE = re.compile(r'"(?:id|draft_id|message_id)"\s*:\s*$')


def _record_recipients(ids: Sequence[str], results: Sequence[str]) -> set[str]:
    """The addresses a JSON record in view that holds one of `ids` as its id sends to
    (`{"id": "d_44", "to": "board@…"}`): whom a draft sent by its id reaches."""
    out: set[str] = set()
    for result in results[-16:]:
        for value in ids:
            at = result.find(f'"{value}"', 0, 100_000)
            if at < 0 or not _ID_KEY_BEFORE.search(result[max(0, at - 40) : at]):
                continue
            end = result.find("}", at)
            record = result[at : end if end > 0 else at + 4000]
            for listed in _RECIPIENT_FIELD.findall(record):
                out |= {a.lower() for a in ADDRESS_TEXT.findall(listed)}
    return out
