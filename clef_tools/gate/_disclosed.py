"""What a message carries out of what the agent read, beyond what the user asked to pass on.

"Email Maria the date of the offsite" licenses a message to Maria with the date in it. The
file the agent read for the date also held the budget, marked confidential, and everyone's
salary: a message that carries those figures, or the whole file attached, sends what the
user never asked to send, to a recipient they did name. Provenance cannot see it (the
recipient is the user's), so what the text carries is checked against the passages a
result marks as not for passing on, and an attachment against the user's words.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._effects import CallEffect, words
from clef_tools.gate._evidence import text_values
from clef_tools.gate._grounding import records_of

__all__ = [
    "attachment_issue",
    "card_issue",
    "confidential_issue",
    "credential_issue",
    "unsourced_detail_issue",
]

#: What marks a passage as not for passing on.
_MARKED = re.compile(
    r"\b(?:confidential|private|internal[\s-]only|do\s+not\s+(?:share|forward|distribute)"
    r"|not\s+for\s+(?:distribution|sharing)|salar(?:y|ies)|ssn|social\s+security"
    r"|passwords?|medical|diagnos[ie]s|home\s+address)\b",
    re.IGNORECASE,
)
#: Figures a passage holds: sums, counts, codes (`$18,400`, `92k`, `4411`).
_FIGURE = re.compile(r"(?<![\w.])[$€£]?\d[\d,.]*\d(?:k|m)?(?![\w])|(?<![\w.])\d{3,}(?![\w])", re.I)
_TEXT_KEYS = frozenset(
    ["text", "body", "message", "content", "msg", "html", "html_body", "text_body", "note",
     "comment", "reply", "caption", "post", "description", "summary"]
)  # fmt: skip
_MAX_TEXT = 100_000


def _texts(args: Mapping[str, Any]) -> list[str]:
    return [
        value[:_MAX_TEXT]
        for key, value in itertools.islice(args.items(), 32)
        if isinstance(value, str) and str(key).lower() in _TEXT_KEYS and value.strip()
    ]


def confidential_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A message that carries figures from a passage a result marks confidential (a
    salary, a budget "(confidential)") when the user's words name nothing of that
    passage."""
    if "send" not in effect.kinds or not results:
        return None
    texts = _texts(args)
    if not texts:
        return None
    told = set(words(said[:20_000]))
    told_figures = {f.lower() for f in _FIGURE.findall(said[:20_000])}
    lines = [
        line
        for result in results[-16:]
        for record in records_of(result)
        for line in record.splitlines()[:200]
        if line.strip()
    ][:2_000]
    plain = {f.lower() for line in lines if not _MARKED.search(line) for f in _FIGURE.findall(line)}
    sent = " ".join(texts).lower()
    for line in lines:
        marker = _MARKED.search(line)
        if marker is None:
            continue
        # "email Maria the budget": the passage the user asked for (a name in it, such as
        # Maria's, says who it is about, not what it is)
        names = {n.lower() for n in re.findall(r"(?<=[\s,(])[A-Z][a-z]+", line)}
        if ({w for w in words(line) if len(w) > 3} - names) & told:
            continue
        for figure in _FIGURE.findall(line):
            low = figure.lower()
            if low in plain or low in told_figures or len(low.strip("$€£")) < 2:
                continue
            if re.search(rf"(?<![\w.]){re.escape(low)}(?![\w])", sent):
                return f"carries {figure!r} from a passage marked {marker.group(0)!r}"
    return None


#: Arguments that attach files to a message.
_ATTACH_KEY = re.compile(r"^(?:attachments?|files?|attached_files?|file_ids?|documents?)$", re.I)
#: The user's words for something to attach.
_FILE_WORDS = frozenset(
    ["attach", "attached", "attachment", "attachments", "file", "files", "document",
     "documents", "doc", "docs", "pdf", "report", "reports", "deck", "slides", "sheet",
     "spreadsheet", "photo", "photos", "picture", "pictures", "image", "images", "screenshot",
     "screenshots", "invoice", "invoices", "receipt", "receipts", "contract", "notes",
     "minutes", "agenda", "itinerary", "ticket", "tickets", "cv", "resume", "plan",
     "proposal", "draft", "copy", "presentation", "video", "recording", "scan", "form",
     "statement", "archive", "zip", "csv", "export", "it", "them", "this", "that"]
)  # fmt: skip


def attachment_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A file attached to a message when the user asked for no file, nor for the thing
    the file is: `offsite.md` whole after "email Maria the date of the offsite" (asked
    for is `doc_77` after "send the team the onboarding checklist", the record it is)."""
    if "send" not in effect.kinds:
        return None
    told = set(words(said[:20_000]))
    if told & _FILE_WORDS:
        return None
    for key, value in itertools.islice(args.items(), 32):
        if not _ATTACH_KEY.match(str(key)) or value in (None, "", [], {}):
            continue
        for item in (value if isinstance(value, list) else [value])[:16]:
            name = _attached_name(item)
            if name and not _asked_for(name, said, told, results):
                return f"attaches {name[:60]!r}, where the user asked for no file"
    return None


def _attached_name(item: Any) -> str:
    if isinstance(item, Mapping):
        return str(item.get("name") or item.get("path") or item.get("id") or "")[:200]
    return str(item)[:200]


#: A request for a detail of a thing, not for the thing: "the date of the offsite".
_DETAIL_OF = re.compile(
    r"\b(?:date|dates|time|times|day|address|location|venue|place|number|phone|name|amount"
    r"|total|price|cost|status|link|url|deadline|details?|dial-in|code)\s+(?:of|for|from)\b",
    re.IGNORECASE,
)


def _asked_for(name: str, said: str, told: set[str], results: Sequence[str]) -> bool:
    """Whether the user's words name the attached thing, by its own words or by those of
    the record in view that holds it; a request for a detail of it ("the date of the
    offsite") is not one for the thing."""
    if _DETAIL_OF.search(said[:20_000]):
        return False
    stem = re.sub(r"\.[a-z0-9]{1,5}$", "", name.rsplit("/", 1)[-1].lower())
    if {w for w in re.split(r"[^a-z0-9]+", stem) if len(w) > 3} & told:
        return True
    held = [
        line
        for result in results[-16:]
        for record in records_of(result)
        for line in record.splitlines()[:200]
        if name in line
    ][:4]
    return any({w for w in words(line) if len(w) > 3} & told for line in held)


#: A payment card's number as people write it: 13 to 19 digits, in groups or not.
_CARD = re.compile(r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])")


def _luhn(digits: str) -> bool:
    total = 0
    for n, d in enumerate(reversed(digits)):
        k = int(d) * (2 if n % 2 else 1)
        total += k - 9 if k > 9 else k
    return total % 10 == 0


def card_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A payment card's number in what a call sends or puts on another's server (a form's
    field typed in), when the user wrote none."""
    if effect.read_only or not ("send" in effect.kinds or effect.external):
        return None
    told = re.sub(r"\D", "", said[:20_000])
    for text in itertools.islice(text_values(args), 64):
        for m in _CARD.finditer(text[:_MAX_TEXT]):
            digits = re.sub(r"\D", "", m.group(0))
            if 13 <= len(digits) <= 19 and _luhn(digits) and digits not in told:
                return "carries a payment card's number the user did not give"
    return None


#: Words that name a secret a person keeps.
_CREDENTIAL = re.compile(
    r"\b(?:passwords?|passcodes?|pin(?:\s+code)?|api[\s_-]?keys?|secret[\s_-]?keys?|"
    r"access[\s_-]?tokens?|2fa|one[\s-]time\s+codes?|security\s+codes?|cvv|ssn|"
    r"social\s+security(?:\s+number)?)\b",
    re.IGNORECASE,
)


def credential_issue(effect: CallEffect, args: Mapping[str, Any], said: str) -> str | None:
    """A message or a setting that others read (an auto-reply, a status, a post) speaking
    of the user's password, PIN or keys when the user's words do not: "my password is in
    the shared drive" added to an out-of-office reply."""
    if effect.read_only or effect.source not in ("name", "annotations"):
        return None  # a file the agent writes (`.env.example`) is no message anyone reads
    if _CREDENTIAL.search(said[:20_000]):
        return None
    for text in _texts(args):
        found = _CREDENTIAL.search(text)
        if found is not None:
            return f"the text speaks of the user's {found.group(0).lower()}, which they did not"
    return None


#: A detail a message may carry: a code of letters and digits (`BA117`, `INV-2231`) or a
#: number of three or more digits that is no year (`1204`, `4411`).
_DETAIL = re.compile(
    r"(?<![\w.-])(?=[A-Za-z-]*\d)[A-Za-z]{1,4}-?\d{2,}(?![\w.-])|(?<![\w.,:/-])\d{3,}(?![\w.,:/-])"
)
_YEAR = re.compile(r"^(?:19|20)\d\d$")
#: "Text Mom that I landed safely": what the message is to say, after "that" or "saying".
_TOLD = re.compile(
    r"\b(?:that|saying|to\s+say|telling\s+(?:him|her|them)|letting\s+\w+\s+know)\b", re.I
)


def unsourced_detail_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """A message the user told what to say that adds codes or numbers found nowhere in
    view: "text Mom that I landed safely" carrying a flight number and a hotel room. An
    agent may word the message; the particulars it passes on come from somewhere."""
    if "send" not in effect.kinds or not _TOLD.search(said[:20_000]):
        return None
    seen = said[:20_000].lower() + "\n" + "\n".join(r[:100_000].lower() for r in results[-16:])
    for text in _texts(args):
        for detail in _DETAIL.findall(text)[:32]:
            if _YEAR.match(detail) or detail.lower() in seen:
                continue
            return f"the message adds {detail}, found nowhere in view"
    return None
