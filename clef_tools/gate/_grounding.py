"""Where the things a call acts on come from: the user's words, this request's tool
results, or nowhere; and, for a result that lists several records, which record.

A call is on "what the user named" when every target (an address, an account, a path, an
id, digits included) is in the user's own words or in a result of this request: the
recipient may come from the request and the message id from the inbox listing. An id
that a result returned is the user's object only if its record is the one they
described: "cancel my Netflix subscription" over a listing of Netflix and Spotify makes
`sub_02` (Spotify) a different object, though the result named it.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol
from urllib.parse import urlsplit

import yaml

from clef_tools.gate._assets import currency_named
from clef_tools.gate._dates import dates_in
from clef_tools.gate._effects import (
    OPERATION_KEY,
    REVIEW_VERDICT_KEYS,
    REVIEW_VERDICTS,
    kind_of_words,
    split_camel,
    table,
    verb_words,
    words,
)
from clef_tools.gate._evidence import ACCOUNT_PATTERN, EMAIL_PATTERN, _names, text_values
from clef_tools.gate._taint import split_at_order

__all__ = [
    "ADDRESS_TEXT",
    "COPY_OF",
    "MONEY",
    "PARTY_KEY",
    "PRICE_BOUND",
    "SETTING_KEYS",
    "SUM_KEY",
    "Grounding",
    "Ranker",
    "address_words",
    "amount_off_record",
    "bound_value",
    "copy_described",
    "ground_call",
    "ground_objects",
    "holds_named",
    "is_setting_key",
    "line_sums",
    "numbers_in",
    "object_named",
    "partly_named",
    "records_of",
    "shape_unseen",
    "targets",
    "times_in",
]

#: Arguments that say how, not on what or to whom: free text the agent writes, a time, a
#: role (judged against the one asked for), an answer to an invitation.
_NOT_TARGETS = frozenset(
    {"title", "subject", "body", "message", "text", "content", "description", "note", "notes",
     "prompt", "instructions", "summary", "comment", "start", "end", "time", "date", "when",
     "duration", "timezone", "role", "permission", "permissions", "access", "level",
     "response", "rsvp", "recurrence", "frequency", "reply_all", "label", "labels", "caption",
     "memo", "reason", "program", "mode", "reference", "emoji", "reaction",
     # when, not what: `set_alarm(days=["mon", "tue"])`
     "day", "days", "weekdays", "repeat", "repeat_days",
     # what kind of thing an argument is (`{"type": "file", "file_id": "f12"}`)
     "type", "kind", "format", "mime_type", "mimetype", "content_type",
     # a browser tool's handle on an element of the page it shows (`ref="e3"`); the
     # checkout a git tool works in (`repo_path="."`): where, not on what
     "ref", "element_ref", "repo_path", "cwd", "working_directory", "workdir",
     # where a browser tool types (`selector="input[name=email]"`): what is typed is named
     "selector", "css_selector", "locator", "xpath",
     # how a pull request is merged, how a listing is sorted
     "merge_method", "merge_strategy", "sort", "sort_by", "order_by",
     # who a link reaches, by kind (`scope="domain"`): judged as access, not as a name
     "scope", "link_scope", "audience"}
)  # fmt: skip
#: Arguments that hold a sum or a count of a record. A sum given in words
#: (`amount="statement_balance"`) names no payee or record: it is held to the user's words
#: as a sum (`_extent`).
SUM_KEY = re.compile(
    r"^(?:amount|price|total|sum|fee|cost|rate|salary|quantity|qty|balance)$"
    r"|_(?:amount|price|total|fee|cost)$",
    re.IGNORECASE,
)
#: Arguments that set a state rather than name a target (`label="wontfix"`,
#: `status="closed"`): an injected passage can still choose them, and a record that holds
#: the value already is not thereby the one the user described.
SETTING_KEYS = frozenset(
    ["label", "labels", "tag", "tags", "status", "state", "priority", "role", "permission",
     "permissions", "access", "level", "mode", "category", "folder", "visibility", "stage",
     "plan", "tier", "department", "dept"]
)  # fmt: skip
#: A setting's key with its id suffix (`stateId`, `status_id`, `labelIds`).
_SETTING_ID = re.compile(r"^(.*?)(?:_?ids?|Ids?|IDs?)$")


def is_setting_key(key: str) -> bool:
    """Whether an argument sets a state (`status`, `stateId`, `labelIds`), not a target."""
    return (_SETTING_ID.sub(r"\1", key) or key).lower() in SETTING_KEYS


#: A review's verdict (`event="REQUEST_CHANGES"`): what the review does, not to what.
_VERDICTS = REVIEW_VERDICTS | {"pending", "dismiss", "dismissed"}
#: Values that name nothing (`link_access="none"`, `send_updates="none"`).
_NOTHING = frozenset(["none", "null", "nil", "off", "no", "false", "n/a", "default", "auto"])
_TIME = re.compile(r"^\d{1,2}:\d{2}(:\d{2})?$|^\d{4}-\d{2}-\d{2}([T ][\d:.]+Z?)?$")
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
#: An address written out in prose, without the trailing or doubled dots `_ADDRESS` takes
#: ("mail accounting@acme.io." ends at `io`): what a user gave, or a message adds.
ADDRESS_TEXT = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_ACCOUNT = re.compile(ACCOUNT_PATTERN)
#: What free text can carry out of the user's control: links, addresses, account numbers.
_CARRIED = re.compile(
    rf"https?://\S+|www\.\S+|{_ADDRESS.pattern}|\b{_ACCOUNT.pattern}\b"
    # a link written without its scheme (`bit.ly/free-prize`, `evil.xyz/login`)
    r"|(?<![\w@./-])(?i:(?:[a-z0-9-]+\.)+(?:com|org|net|io|ly|co|me|xyz|app|dev|info|biz|gg|to"
    r"|sh|ai|us|uk|de|ru|cn|link|site|online|click|top|page|gl)/\S*)"
)
#: A phone number as people write one (`+44 7700 900123`, `(415) 555-0133`): a party.
_PHONE = re.compile(r"\+?\(?\d[\d\s().-]{5,22}\d")
#: Where a phone number is written in free text or a listing.
_PHONE_IN_TEXT = re.compile(rf"(?<![\w+.:/-]){_PHONE.pattern}(?![\w.:/-]?\d)")
_PHONE_DIGITS = 7
#: Keys whose digits name a thing (an event, a pull request, a row, a file attached), not a
#: quantity.
_SHORT_ID = re.compile(r"\d+(?:\.\d+)?|(?=\D*\d)[\w.:-]{1,12}")
_ID_KEY = re.compile(
    r"(?:^|_)(?:id|ids|number|no|num|ts|key|ref|uid|uuid|pid|attachments?)$"
    r"|(?-i:(?<=[a-z0-9])(?:Id|Ids|ID|IDs|Number|No|Num|Key|Ref|Uid|Uuid))$",  # `pullNumber`
    re.I,
)
#: A machine's address (`203.0.113.7`, `10.0.0.0/24`): where a record or a rule points.
_IPV4 = re.compile(
    r"(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}(?:/\d{1,2})?"
)
#: A message's stamp as chat APIs key a message by it (`pins.add(timestamp=…)`): seconds
#: and a fraction, as text; a time as a date or a bare count of seconds is a time.
_STAMP_KEY = re.compile(r"(?:^|_)timestamp$|(?-i:[a-z]Timestamp)$", re.IGNORECASE)
_STAMP = re.compile(r"\d{3,12}\.\d{1,6}")
#: A word in any script: "Tomás" is one word, not "tom" and "s".
_WORD = re.compile(r"[^\W_]+(?:['_-][^\W_]+)*")
#: A number as a bill or a listing writes it; not a time (`20:00`), a date or a part of a name.
#: A number as a listing writes it; a debit's sign (`-1450.00`) is no part of a word or a
#: date (`2026-12-01`, `t-3`), and the sum is read without it.
_NUMBER = re.compile(r"(?<![\w.:/])(?<!\w-)(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w:/]|[.-]\d)")
_STOP = frozenset(
    """the a an my our your their his her its this that these those to from for with and or
    of in on at by as is are was were be been it me us i we you they them please all any
    some one can could would will should just also now then than so if not no yes do does
    did done what which who whom whose when where why how there here about into onto over
    under again last next same new old via per each every other others more most less""".split()  # noqa: SIM905
)
_ENTITY = re.compile(r"[a-z_]{2,24}\.([a-z0-9_]+)")
#: Endings of a host's name: `google.com` is a site, not the `com` entity of a `google` domain.
_TOP_LEVEL = frozenset(
    ["com", "org", "net", "io", "dev", "co", "ai", "app", "edu", "gov", "uk", "de", "fr", "us",
     "info", "biz", "me", "tv", "xyz", "eu", "ca", "au", "in", "jp", "cn", "ru", "nl", "ch",
     "example", "local", "internal", "cloud", "site", "online", "shop", "store", "tech"]
)  # fmt: skip
#: An opaque id (`sub_02`, `evt_45`, `m_220`, `5513`): it names one record, not a party.
_OPAQUE = re.compile(r"(?=[^\d]*\d)[A-Za-z0-9_.-]{1,40}")
_MAX_RECORDS = 500
#: A full stop typed without the space after it ("… to www.our-company.com.They sent …"):
#: the next sentence's first word, then a space, is not part of the name before it.
_GLUED_STOP = re.compile(r"(?<=[a-z0-9])\.(?=[A-Z][a-z]+\s)")
#: A file's kind, not its name: `report.pdf` is named by "the report", not by "pdf".
_FILE_EXTENSIONS = frozenset(
    ["pdf", "doc", "docx", "odt", "rtf", "txt", "md", "csv", "tsv", "xls", "xlsx", "ods",
     "ppt", "pptx", "odp", "key", "pages", "numbers", "png", "jpg", "jpeg", "gif", "svg",
     "webp", "heic", "zip", "tar", "gz", "tgz", "json", "yaml", "yml", "xml", "html", "htm",
     "log", "mp3", "mp4", "mov", "wav", "eml", "ics", "vcf"]
)  # fmt: skip
_MAX_TEXT = 100_000
Origin = Literal["clean", "planted", "unseen"]


@dataclass(frozen=True)
class Grounding:
    in_request: bool
    """Every target is in the user's words (a call with no targets is on nothing unnamed)."""
    in_session: bool
    """Every target is in the user's words or in a result of this request."""
    unnamed: tuple[str, ...]
    """Targets found nowhere."""
    off_record: str | None
    """A result record the call acts on that shares nothing with what the user described,
    while another record of the same results does."""
    names: tuple[str, ...] = ()
    """Every target looked up (a path, an address, an id, a command's operand)."""
    tied: bool = False
    """`off_record` is another party the user's words describe just as well, not better
    ("add Omar" over two Omars): which one they meant is theirs to say."""
    origin: Origin = "clean"
    """Where the targets come from once a result has addressed the agent (`provenance`)."""
    ranked: bool = False
    """A target from a listing the user picked by how it ranks ("the best-rated hotel
    under 200", "the channel with the most users"): whether it is the one that ranks
    first is read from the listing by the model, not by these tables."""


def targets(args: Mapping[str, Any]) -> list[str]:
    """The values that name what a call acts on or whom it reaches. Free text is the
    agent's own wording, but a link, an address or an account number inside it is a target
    like any other (a message body is how a phishing link or a leaked address leaves);
    digits name a thing under an id-like key (`event_id`, `pull_number`)."""
    out: list[str] = []
    # Home Assistant's `call_service(domain="light", service="turn_on", …)`: the domain and
    # the service say what is done; the entities are what it is done to
    service = args.get("service")
    calls_service = isinstance(service, str) and bool(_SERVICE.fullmatch(service.strip()))
    for key, value in args.items():
        if (
            calls_service
            and key in ("service", "domain")
            and isinstance(value, str)
            and (key == "service" or _SERVICE.fullmatch(value.strip()))
        ):
            continue
        if _operation_named(str(key), value) or _verdict(str(key), value):
            continue  # `method="GET"`, `action="delete"`: what is done, not to what
        out += _targets_of(str(key), value)
        if len(out) >= 64:
            break
    return out[:64]


_HTTP_METHOD = frozenset(["get", "head", "options", "post", "put", "patch", "delete"])


def _verdict(key: str, value: Any) -> bool:
    return (
        key.lower() in REVIEW_VERDICT_KEYS
        and isinstance(value, str)
        and value.strip().lower().replace(" ", "_") in _VERDICTS
    )


def _operation_named(key: str, value: Any) -> bool:
    if not (key.lower() == "method" or OPERATION_KEY.match(key)) or not isinstance(value, str):
        return False
    if len(value) > 40:
        return False
    low = value.strip().lower()
    return low in _HTTP_METHOD or kind_of_words(words(split_camel(value.strip()))) != "unknown"


#: A Home Assistant domain or service (`light`, `turn_on`, `lock.unlock`).
_SERVICE = re.compile(r"[a-z][a-z0-9_]{1,40}(?:\.[a-z][a-z0-9_]{1,40})?")
#: Arguments that hold a search in a mail or issue tracker's syntax (`label:newsletters
#: older_than:1y`, `from:ana@corp.example is:unread`).
_QUERY_KEYS = frozenset(["query", "q", "search", "search_query", "filter", "keywords"])
_OPERATOR = re.compile(r"(?<!\S)-?([a-z_]+):(\S+)", re.I)
#: Search operators whose value is a time, a state or a size, not something named.
_QUERY_STATES = frozenset(
    ["older_than", "newer_than", "after", "before", "is", "has", "in", "larger", "smaller",
     "size", "sort", "type", "filename", "category", "state", "status", "created", "updated"]
)  # fmt: skip


def _query_targets(query: str) -> list[str]:
    """A search by what its operators name (`newsletters`, `ana@corp.example`), each on its
    own: the operators and their times and states (`is:unread`, `older_than:1y`) are the
    search's grammar. The words outside any operator name something together."""
    out = [
        v.strip("\"'()")
        for op, v in _OPERATOR.findall(query[:4000])
        if op.lower() not in _QUERY_STATES and v.strip("\"'()")
    ]
    rest = " ".join(_OPERATOR.sub(" ", query[:4000]).split())
    named = out + (_names(rest) if rest else [])
    # a search that names nothing (`older_than:1y`) picks everything of that age or state:
    # the query as a whole is then its target, which nobody named
    return named[:16] if named else [query[:200]]


def _targets_of(key: str, value: Any) -> list[str]:
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, str) and _IPV4.fullmatch(value.strip()):
        # `content="203.0.113.7"`: the address a DNS record or a firewall rule points to,
        # under whatever key (not a phone number, nor free text)
        return [value.strip()]
    if _not_target(key):
        # a list or record under such a key still carries what it carries
        # (`permissions=[{"email": …, "role": "reader"}]`)
        if isinstance(value, str):
            return _CARRIED.findall(value)[:8]
        if isinstance(value, list | tuple):
            return [t for v in value[:64] for t in _targets_of(key, v)][:64]
        if isinstance(value, Mapping):
            return [t for k, v in value.items() for t in _targets_of(str(k), v)][:64]
        return []
    if isinstance(value, int | float):
        return [_plain_number(value)] if _ID_KEY.search(key) else []
    if isinstance(value, str):
        if _TIME.match(value) or value.strip().lower() in _NOTHING:
            return []
        if SUM_KEY.search(key) and not re.search(r"\d", value):
            return []
        if key.lower() in _QUERY_KEYS and _OPERATOR.search(value):
            return _query_targets(value)
        if (_ID_KEY.search(key) and _SHORT_ID.fullmatch(value.strip())) or (
            _STAMP_KEY.search(key) and _STAMP.fullmatch(value.strip())
        ):
            # `ts="1733300002.2"`, `id="n2"`: a record's id, however short, names the one
            # record the call acts on; so does Slack's `timestamp="1733300002.000200"`
            return [value.strip()]
        phone = _phone(value)
        if phone is not None:
            return [phone]
        return _names(value)
    if isinstance(value, Mapping):
        return [t for k, v in value.items() for t in _targets_of(str(k), v)][:64]
    if isinstance(value, list | tuple):
        return [t for v in value[:64] for t in _targets_of(key, v)][:64]
    return []


#: What a key's last word says it holds when that is a level, not a thing
#: (`access_level="comment"`, `share_role="viewer"`, `permission_level`).
_LEVEL_WORDS = frozenset(["role", "permission", "permissions", "access", "level", "rights"])


#: The last word of a compound key that says it holds text or a kind, not a name
#: (`entityType`, `start_time`, `issue_body`, `observations`).
_TEXT_ENDINGS = frozenset(
    ["type", "kind", "format", "title", "subject", "body", "message", "text", "content",
     "contents", "description", "note", "notes", "summary", "comment", "time", "date",
     "timezone", "caption", "memo", "reason", "observation", "observations", "fact", "facts"]
)  # fmt: skip


def _not_target(key: str) -> bool:
    low = key.lower()
    last = split_camel(key).lower().replace(" ", "_").rsplit("_", 1)[-1]
    return low in _NOT_TARGETS or last in _LEVEL_WORDS or last in _TEXT_ENDINGS


def _phone(value: str) -> str | None:
    """`tel:<digits>` for a value that is a phone number, else None."""
    plain = value.strip()
    if not _PHONE.fullmatch(plain) or re.fullmatch(r"\d+(?:\.\d+)?", plain):
        return None
    digits = re.sub(r"\D", "", plain)
    return f"tel:{digits}" if len(digits) >= _PHONE_DIGITS else None


def _phones_in(text: str) -> set[str]:
    """The last nine digits of every phone number written in `text` (a country code or a
    trunk 0 is written one way or another)."""
    out = set()
    for match in _PHONE_IN_TEXT.finditer(text[:_MAX_TEXT]):
        digits = re.sub(r"\D", "", match.group(0))
        if len(digits) >= _PHONE_DIGITS:
            out.add(digits[-9:])
    return out


def _plain_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


#: Parts of a name that say only that it belongs to the project: `app_` of
#: `app_production`, `_db` of `orders_db`.
_FILLER = frozenset(["app", "apps", "db", "database", "main", "default", "svc", "service"])


#: Payment cards by their network, as a tool names the user's card.
_CARD_BRANDS = frozenset(
    ["visa", "mastercard", "amex", "american express", "discover", "maestro", "jcb"]
)
#: Parts of a path that name no folder of their own (`~`, `.`).
_HOME_PARTS = frozenset(["", "~", ".", ".."])
#: A handle made of a person's names alone (`@alice`, `@alice_smith`; not `@alice99`).
_HANDLE = re.compile(r"@([a-z]{2,}(?:[_.-][a-z]{2,}){0,2})")


#: Values an API takes for a record by its rank, and the user's words for that rank.
_LATEST = re.compile(r"\b(?:last|latest|newest|most\s+recent)\b", re.IGNORECASE)
_EARLIEST = re.compile(r"\b(?:first|oldest|earliest)\b", re.IGNORECASE)
_RANK_VALUES = {
    "latest": _LATEST,
    "last": _LATEST,
    "newest": _LATEST,
    "first": _EARLIEST,
    "oldest": _EARLIEST,
}


def _in(target: str, text: str) -> bool:
    """`target` in `text` as a whole name (`accounting@mycorp.co` is not in
    "accounting@mycorp.com"), or, for a plain name such as `light.living_room`, every
    part of it among the words ("the living room lights")."""
    low = target.lower().strip()
    if not low:
        return False
    if low.startswith("tel:"):
        return low[4:][-9:] in _phones_in(text)
    if low.replace(".", "").replace("-", "").isdigit():
        # `12` is not the 12 of "12.50"
        return re.search(rf"(?<![\w.]){re.escape(low)}(?!\w|\.\d)", text) is not None
    if re.search(rf"(?<![\w.@+-]){re.escape(low)}(?![\w@-]|\.\w)", text):
        return True
    if currency_named(target, text):
        return True  # `EUR` after "send €25": the currency, by its sign or its name
    if low in _RANK_VALUES and _RANK_VALUES[low].search(text):
        # `post_id="latest"` after "delete my last post": the rank, as the API spells it
        return True
    if low in _CARD_BRANDS and re.search(r"\b(?:credit|debit)\s+card\b", text, re.IGNORECASE):
        return True  # `card="visa"` after "pay my credit card bill": the user's card, by kind
    if re.match(r"https?://", low) and _below_link(low, text):
        return True
    if _home_path_in(low, text):
        return True
    if copy_described(low, text):
        return True
    folder, _, base = low.rpartition("/")
    folder = re.sub(rf"^{_HOME}(?=/|$)", "~", folder, flags=re.IGNORECASE)
    if (
        folder
        and _file_extension(base) is not None
        and re.search(rf"(?<![\w./@+-]){re.escape(base)}(?![\w@-]|\.\w)", text)
        and all(_word_in(d, text) for d in re.split(r"[/\\]+", folder) if d not in _HOME_PARTS)
    ):
        # `~/Documents/resume-draft-old.pdf` after "delete resume-draft-old.pdf" in the
        # Documents folder the user spoke of (not the copy in /tmp, nobody's folder)
        return True
    handle = _HANDLE.fullmatch(low)
    if handle is not None:
        # `@alice_smith` after "pay Alice Smith back": the person's name, as a handle
        words = r"[\s_.-]+".join(re.escape(p) for p in re.split(r"[_.-]+", handle.group(1)))
        return re.search(rf"(?<![\w@]){words}(?![\w@])", text, re.IGNORECASE) is not None
    if _CARRIED.search(target) or "@" in low:
        return False  # an address, a handle, a link, an account: only the whole names it
    stem, dot, extension = low.rpartition(".")
    entity = (
        None if extension in _FILE_EXTENSIONS or extension in _TOP_LEVEL else _ENTITY.fullmatch(low)
    )
    if dot and stem and extension in _FILE_EXTENSIONS:
        low = stem  # "the attached summary" names `q3-summary.pdf`; "pdf" alone names nothing
    elif entity:  # Home Assistant's `cover.garage_door`: the domain is the kind, not the name
        if _the_device(low.split(".", 1)[0], entity.group(1), text):
            return True
        low = entity.group(1)
    # short parts are left out ("the living room" names `light.living_room`), but not
    # digits: `task_9` is not "the task", `bedroom_2` not "the bedroom"
    split = [p for p in re.split(r"[^a-z0-9]+", low) if p]
    parts = [p for p in split if len(p) > 2 or re.search(r"\d", p)]
    if not parts or (len(parts) < len(split) and all(p.isdigit() and len(p) <= 2 for p in parts)):
        # `ct_1` is not the 1 of "+1 415 …": a short number left alone names nothing
        return False
    # a hyphenated word kept whole, as the user wrote it: "the Sony WH-1000XM5" names
    # the `WH-1000XM5` of a query (but "#old-project" does not name `#project`)
    whole = _WORD.findall(low)
    if any("-" in w for w in whole) and _whole_said(
        [w for w in whole if len(w) > 2 or "-" in w], text
    ):
        return True
    return _parts_said(parts, text)


#: A user's home folder as a listing prints it (`/home/u`, `/Users/ana`, `/root`).
_HOME = r"(?:/home/[\w.-]+|/users/[\w.-]+|/root)"


#: "the duplicate of report.pdf", "the copy of notes.txt": the thing named is the original.
COPY_OF = re.compile(
    r"\b(?:duplicates?|dupes?|cop(?:y|ies)|backups?|older\s+versions?)\s+of\s+(?:the\s+|my\s+)?"
    r"[\"'`]?([\w.-]+\.\w+|[\w-]+)",
    re.IGNORECASE,
)
#: A copy's file name as file managers and browsers make it: `report (1).pdf`,
#: `report copy.pdf`, `report-copy-2.pdf`.
_COPY_NAME = re.compile(r"(.+?)(?:\s*\(\d{1,3}\)|[ _-]copy(?:[ _-]?\d{1,3})?)(\.\w{1,8})?")


def copy_described(name: str, text: str) -> bool:
    """A copy of a file named as a copy of the original ("delete the duplicate of
    report.pdf" names `report (1).pdf`)."""
    copy = _COPY_NAME.fullmatch(name.rstrip("/").rsplit("/", 1)[-1].lower())
    if copy is None:
        return False
    original = copy.group(1) + (copy.group(2) or "")
    return original in {m.lower() for m in COPY_OF.findall(text[:20_000])}


def _home_path_in(low: str, text: str) -> bool:
    """`~/Downloads/x.iso` in a listing that prints `/home/u/Downloads/x.iso`, and the
    other way round: the same file, written from the home folder or from the root."""
    home = re.match(rf"{_HOME}/(.+)", low, re.IGNORECASE)
    rest = low[2:] if low.startswith("~/") else home.group(1) if home else ""
    if len(rest) < 3:
        return False
    tail = rf"/{re.escape(rest)}(?![\w@-]|\.\w)"
    return re.search(rf"(?:(?<![\w.])~|{_HOME}){tail}", text, re.IGNORECASE) is not None


def _parts_said(parts: list[str], text: str) -> bool:
    """Every part of a name among the user's words, leaving out the parts that only say
    whose it is: `app_production` for "the production database"."""
    if not parts:
        return False
    # "Ana's photo" says `ana` of `p_ana_beach`
    found = _WORD.findall(text)
    said = {w for word in found for w in (word, _stem(word), re.sub(r"['’]s$", "", word))}
    if len(parts) > 1 and not any(re.search(r"\d", p) for p in parts):
        parts = [p for p in parts if p not in _FILLER] or parts
    return all(p in said or _stem(p) in said or _past_of(p, said) for p in parts)


def _whole_said(parts: list[str], text: str) -> bool:
    """`_parts_said` for a name with hyphenated words, each of which must be a word the
    user wrote as it stands: `acme-lab` is not "acme-labs" (a handle, an org, a model
    number is not a plural)."""
    said = set(_WORD.findall(text))
    rest = [p for p in parts if "-" not in p]
    return all(p in said for p in parts if "-" in p) and (not rest or _parts_said(rest, text))


def _past_of(part: str, said: set[str]) -> bool:
    """A state a verb the user used leaves (`closed` after "close issue #42", `merged`,
    `archived`, `opened`)."""
    if len(part) < 5 or not part.endswith("ed"):
        return False
    return part[:-1] in said or part[:-2] in said


def _below_link(link: str, text: str) -> bool:
    """ "Item 7 from https://todo.example/items" names `https://todo.example/items/7`: a
    link the user wrote, one level down by a number or word of theirs."""
    head, _, last = link.rstrip("/").rpartition("/")
    if not last or not re.fullmatch(r"[a-z0-9_-]{1,40}", last) or head.endswith(":/"):
        return False
    written = re.search(rf"(?<![\w.@/-]){re.escape(head)}/?(?![\w/-])", text) is not None
    return written and re.search(rf"(?<![\w.-]){re.escape(last)}(?![\w-]|\.\w)", text) is not None


def _the_device(domain: str, name: str, text: str) -> bool:
    """ "Set the thermostat to 20" names the home's `climate.*`: the device by its kind, with
    nothing that picks one of several ("the bedroom thermostat", "the thermostat upstairs").
    A device whose own name is another kind of its domain is not it: "the garage door" is
    not `cover.front_gate`."""
    pattern = _device_pattern(domain)
    if pattern is None:
        return False
    said = {w.lower() for m in pattern.finditer(text) for w in _WORD.findall(m.group(0))}
    if not said:
        return False
    kinds = table().devices[domain]
    own = {p for p in re.split(r"[^a-z0-9]+", name) if p in kinds or _stem(p) in kinds}
    return not own or bool(own & said or {_stem(w) for w in own} & {_stem(w) for w in said})


@functools.cache
def _device_pattern(domain: str) -> re.Pattern[str] | None:
    """Per entity domain, once: its kind words after a determiner. A vacuum's "in the
    kitchen" is where it cleans, not which vacuum."""
    kinds = table().devices.get(domain)
    if not kinds:
        return None
    alt = "|".join(re.escape(k) for k in sorted(kinds, key=len, reverse=True))
    # "the alarm in away mode" is how it is set, not where it is
    after = (
        ""
        if domain == "vacuum"
        else r"(?!\s+(?:in|on|at|of)\b(?!\s+\w+\s+mode\b)|\s+(?:upstairs|downstairs)\b)"
    )
    return re.compile(rf"\b(?:the|my|our)\s+(?:{alt})(?:\s+(?:{alt}))?\b(?!['’]s){after}", re.I)


_TAG = re.compile(r"(?<![\w])[#@]([^\W_][\w-]*)")


def _stems(found: set[str]) -> set[str]:
    """`found` with plurals read as their singular ("channels" is "channel")."""
    return {_stem(w) for w in found}


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _plain_operand(obj: str) -> str:
    """An operand as a name: lower-case, unquoted, without `./`, a trailing `/` or the
    colon before a port (`lsof -i :3000`)."""
    return obj.lower().strip("'\"").removeprefix("./").rstrip("/").lstrip(":")


#: A path going on past a name ("src/legacy_api.py" past `src`, `C:\build\tmp` past
#: `C:\build`; not "dist/." at a full stop).
_GOES_ON = r"[/\\](?:[\w-]|\.\w)"


def holds_named(folder: str, text: str) -> bool:
    """Whether `folder` is only the start of a path written in `text` (lower-case): `src/`
    of "src/legacy_api.py", where what is named is inside it, not the folder itself."""
    plain = _plain_operand(folder)
    if not plain or set(plain) <= set("./*~"):
        return False
    return bool(re.search(rf"(?<![\w.-]){re.escape(plain)}{_GOES_ON}", text))


#: `deploy@staging.example.com:/var/www/`, `staging.example.com`: a host (and a path on it).
_REMOTE = re.compile(r"(?:[\w.-]+@)?([a-z0-9-]+(?:\.[a-z0-9-]+)+)(?::\S*)?")
#: What a user calls a machine by its role ("the staging server").
_MACHINE = r"(?:server|host|box|machine|instance|vm|node|cluster)s?"


#: The folders a project's build writes to.
_BUILD_OUTPUT = frozenset(["dist", "build", "out", "target/release", "public", "_site"])


def _server_described(host: str, text: str) -> bool:
    """ "The staging server" names `staging.example.com`: its first label, as the word
    before what the user calls a machine."""
    label = host.split(".", 1)[0]
    if len(label) < 3 or label in ("www", "api", "app", "mail", "ssh"):
        return False
    return bool(re.search(rf"(?<![\w.-]){re.escape(label)}\s+{_MACHINE}\b", text))


#: The part of a pod's name its replica set generated (`-5c6b7d9f8-q9z8r`).
_REPLICA_SUFFIX = re.compile(r"-(?=[a-z]*\d)[a-z0-9]{6,10}-[a-z0-9]{5}$")


def _contents_asked(folder: str, text: str) -> bool:
    """Whether the user asked about all a folder holds ("empty the logs folder", "clear
    out tmp/", "everything in build"), not one kind of file in it."""
    last = re.escape(re.split(r"[/\\]", folder.rstrip("/"))[-1])
    return bool(
        last
        and re.search(
            rf"\b(?:empty|clear|wipe|purge)\s+(?:out\s+)?(?:the\s+|my\s+|our\s+)?{last}\b"
            rf"|\b(?:everything|all\s+(?:the\s+)?files?)\s+(?:in|under|inside)\s+"
            rf"(?:the\s+|my\s+|our\s+)?{last}\b",
            text,
            re.IGNORECASE,
        )
    )


#: A folder or file kept for the time being (`tmp/`, `.temp`, `upload.tmp`).
_TEMP_FOLDER = re.compile(r"\.?(?:tmp|temp)|[\w.-]+\.(?:tmp|temp)", re.IGNORECASE)

#: Words that name such things ("the temp files", "temporary folders").
_TEMP_SAID = re.compile(r"\b(?:temp|tmp|temporary)\b", re.IGNORECASE)


def object_named(obj: str, text: str) -> bool:
    """A command's operand in `text`: by itself or by its last part ("the dist folder"
    names `dist/`); one as broad as `~/` is named only as the user typed it, word for word."""
    plain = _plain_operand(obj)
    if not plain or plain in (".", "..", "*", "~", "/") or set(plain) <= set("./*~"):
        # only when the user typed it as it stands: "rm -rf ~/" names `~/`, "tidy up" not
        raw = obj.lower()
        return len(raw) > 1 and bool(re.search(rf"(?<!\S){re.escape(raw)}(?!\S)", text))
    if re.match(r"(?:https?|ftp)://", plain):
        # a web link is named whole, or below a link the user gave: another server's
        # `set.csv` is not the one the user's link points to (a bucket is named by its
        # name: "the acme-archive bucket" is `s3://acme-archive/`)
        return _in(obj, text)
    if (glob := re.fullmatch(r"\*\.([a-z0-9]{1,8})", plain)) is not None:
        # `*.pyc`: "the .pyc files", "pyc files"
        return bool(re.search(rf"(?<![\w-])\.?{glob.group(1)}(?:\s+files?)?(?![\w-])", text))
    folder, _, pattern = plain.rpartition("/")
    if folder and "*" in pattern and "*" not in folder:
        # `~/Downloads/*.dmg`, `~/Downloads/*invoice*.pdf`: the folder named, and every
        # word of the pattern ("the .dmg files in my Downloads", "the invoice PDFs")
        parts = [p for p in re.split(r"[*?.\[\]_-]+", pattern) if len(p) > 1]
        if pattern in ("*", "**", ".*", "*.*") and _contents_asked(folder, text):
            return True  # `logs/*` after "empty the logs folder": all it holds, as asked
        if (
            parts
            and object_named(folder, text)
            and all(re.search(rf"(?<![\w-])\.?{re.escape(p)}", text) for p in parts)
        ):
            return True
    if (remote := _REMOTE.fullmatch(plain)) is not None and _server_described(remote[1], text):
        return True
    if plain in _BUILD_OUTPUT and re.search(r"\b(?:the|this|my|our)\s+build\b", text):
        return True  # "copy the build": what the project's build writes
    if _TEMP_FOLDER.fullmatch(re.split(r"[/\\]", plain)[-1]) and _TEMP_SAID.search(text):
        return True  # "clean up the temp files": the project's `tmp/`, `.tmp`, `*.tmp`
    if re.fullmatch(r"[a-z][\w-]*(?::[\w-]+)+", plain) and all(
        _word_in(part, text) for part in plain.split(":")
    ):
        return True  # `session:42`: a key by its parts ("the cached session for user 42")
    if (pod := _REPLICA_SUFFIX.search(plain)) is not None and pod.start() > 2:
        # `worker-5c6b7d9f8-q9z8r`, "the worker pod": a deployment's pod by its deployment
        plain = plain[: pod.start()]
    if copy_described(plain, text):
        return True
    last = re.split(r"[/\\]", plain)[-1]
    # a folder written only as the start of a longer path ("src/legacy_api.py") is where
    # the named file is, not itself named: `rm -r src/` is not asked for by it
    end = rf"(?![\w-])(?!{_GOES_ON})"
    return bool(
        re.search(rf"(?<![\w.-]){re.escape(plain)}{end}", text)
        or (len(last) > 2 and re.search(rf"(?<![\w.-]){re.escape(last)}{end}", text))
        # a database or service by its words: `app_production`, "the production database"
        or (
            re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", plain) is not None
            and _parts_said([p for p in plain.split("_") if len(p) > 2], text)
        )
        # a machine or a resource by its words: `test-vm`, "the test VM"
        or (
            re.fullmatch(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+", plain) is not None
            and _parts_said(plain.split("-"), text)
        )
    )


#: The shapes a target can take, most specific first.
_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("address", re.compile(EMAIL_PATTERN)),
    # a link or a path: "bill.txt" and "shop.example" cannot be told apart by shape
    (
        "place",
        re.compile(
            r"(?:[a-z][\w+.-]*://|www\.)\S+|[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}(?:/\S*)?"
            r"|[~.]?[\w.-]*[\\/][\w./\\-]*|[\w-]+\.[a-z][a-z0-9]{0,4}",
            re.I,
        ),
    ),
    ("account", _ACCOUNT),
    ("phone", re.compile(r"\+\d[\d ().-]{6,}\d")),
)


def shape_of(name: str) -> str | None:
    """`address`, `place` (a link or a path), `account`, `phone`, or None for a word or a
    number."""
    for shape, pattern in _SHAPES:
        if pattern.fullmatch(name.strip()):
            return shape
    return None


def shape_unseen(names: Sequence[str], results: Sequence[str]) -> bool:
    """Whether every name is an address, a phone number or an account, and no result in
    view holds anything of its shape: the agent did not read it there (a file listing
    holds no addresses), so the results cannot show it is not the user's to give."""
    if not names:
        return False
    shown = "\n".join(r[:_MAX_TEXT] for r in results[-16:])
    patterns = dict(_SHAPES)
    for name in names[:16]:
        shape = shape_of(name)
        if shape not in ("address", "phone", "account") or patterns[shape].search(shown):
            return False
    return True


#: A record's id (`7`, `5f1c…`, a UUID): what a listing returns, not what a person types.
_RECORD_ID = re.compile(
    r"\d{1,12}|(?=[a-f]*\d)[0-9a-f]{8,40}"
    r"|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    # a catalogue's or a system's code: `B01`, `ev_123`, `INV-2024-001`, `B08N5WRWNW`
    r"|[a-z]{1,5}[-_]?\d[\w-]{0,30}"
    # ...and a slug id with a digit in it: `ord_tsla_1`, `sess_ipad_2019`
    r"|[a-z]{1,5}[-_](?=[\w-]*\d)[a-z0-9]+(?:[-_][a-z0-9]+){0,4}",
    re.I,
)

_WEB_LINK = re.compile(r"https?://", re.IGNORECASE)
#: The user asking for a link by what it points to ("the link to the design doc").
_LINK_SAID = re.compile(r"\b(?:link|links|url|urls)\b", re.IGNORECASE)
#: A company's name as a bill gives it (`FiberNet`, `City Water`, `AT&T`).
_BILLER = re.compile(r"[A-Z][\w&.'-]{1,30}(?: [A-Z][\w&.'-]{1,30}){0,2}")
#: The user naming a payment by what it is for ("the internet bill", "my rent").
_BILL_SAID = re.compile(
    r"\b(?:bill|bills|rent|invoice|invoices|subscription|utility|utilities|premium|dues)\b",
    re.IGNORECASE,
)
#: The shapes of identifiers an agent looks up for the user rather than being told them.
_LOOKED_UP = frozenset({"address", "account", "phone"})


def looked_up(names: Sequence[str], said: str, *, ids_only: bool = False) -> bool:
    """Whether every name is an identifier an agent finds for the user (an account
    number, an email address, a phone number, a record id) and the user wrote none of
    that shape: the landlord's account after "pay the rent" may simply be the one the
    agent read. Another account than one the user wrote is not; neither is a channel, a
    path or a word, which the user would name. `ids_only`: only record ids count (an
    update picks its record by id, but a payee it sets is a change nobody asked for)."""
    if not names:
        return False
    shapes = [shape_of(n) for n in names]
    if not all(
        # an IBAN such as DE89…, all hex digits, is an account, not a record id
        (s in _LOOKED_UP and not ids_only)
        or (s not in _LOOKED_UP and s != "place" and _RECORD_ID.fullmatch(n))
        # a document by its file name (`q3.pdf` for "the quarterly report"): the name the
        # agent found for what the user described; a path or a link is not
        or (s == "place" and not ids_only and _document_name(n))
        # "send Bob the link to the design doc": a link the user asked for by what it is
        or (s == "place" and not ids_only and _WEB_LINK.match(n) and _LINK_SAID.search(said))
        # "pay the internet bill": the biller's name (`FiberNet`) is the agent's to find
        or (s is None and not ids_only and _BILLER.fullmatch(n) and _BILL_SAID.search(said))
        for s, n in zip(shapes, names, strict=True)
    ):
        return False
    written = {
        shape
        for shape, pattern in _SHAPES
        if shape in shapes
        for m in pattern.finditer(said[:20_000])
        if shape_of(m.group(0)) == shape
        # a document is another document only if the user wrote a file name
        and (shape != "place" or _document_name(m.group(0).rstrip(".,;:)!?")))
    }
    return not written


#: A person's name in full (`Alex Kim`) or as a handle made of it (`@alex-kim`).
_FULL_NAME = re.compile(r"@?([A-Za-z][a-z]+)(?:[ _.-][A-Za-z][a-z]+){1,2}")


def partly_named(names: Sequence[str], said: str, results: Sequence[str]) -> bool:
    """Every name is a person's fuller name, or a handle made of it, whose first name the
    user wrote as a name ("send $20 to Alex" and `@alex-kim`), and no result in view
    speaks of anyone by that name: the agent chose which Alex, which the user's words
    cannot confirm and do not contradict. (A contact listed as `@jamie-park` and paid as
    `@jamie-parks` is another matter.) So is a thing named by its owner and a shorter word
    for it ("wipe Tom's lost phone" for `Tom's iPhone`), a plain word the user shortened
    ("the physio receipt" for `category="physiotherapy"`), or a kind of a thing the user
    named (`UberX` for "an Uber"): which one the agent meant, the words cannot confirm."""
    if not names:
        return False
    if all(_owned_thing(n, said) or _shortened(n, said) or _variant(n, said) for n in names[:16]):
        return True
    proper = _proper_words(said)
    firsts = []
    for name in names:
        m = _FULL_NAME.fullmatch(name.strip())
        if m is None or m.group(1).lower() not in proper:
            return False
        firsts.append(m.group(1).lower())
    return not any(_word_in(f, r[:_MAX_TEXT].lower()) for f in firsts for r in results[-16:])


_OWNED = re.compile(r"([A-Z][a-z]+)['’]s\s+([A-Za-z]+)")


def _owned_thing(name: str, said: str) -> bool:
    """`Tom's iPhone` after "Tom's lost phone": the owner as written, and the thing's
    word ending in a word the user gave for it (four letters at least)."""
    found = _OWNED.fullmatch(name.strip())
    if found is None or f"{found[1]}'s" not in said.replace("’", "'"):
        return False
    thing = found[2].lower()
    after = re.findall(rf"\b{found[1]}['’]s\s+((?:\w+\s+){{0,2}}\w+)", said[:_MAX_TEXT])
    given = [g for words in after[:8] for g in words.split()]
    return any(len(g) >= 4 and thing.endswith(g.lower()) for g in given)


def _shortened(name: str, said: str) -> bool:
    """`physiotherapy` for "physio": a lower-case word of the user's, five letters at
    least, that the name's one word starts with."""
    plain = name.strip()
    if not re.fullmatch(r"[a-z]{6,}", plain):
        return False
    return any(
        plain.startswith(w) and len(w) >= 5
        for w in re.findall(r"(?<![\w-])[a-z]{5,}(?![\w-])", said[:_MAX_TEXT])
    )


def _variant(name: str, said: str) -> bool:
    """`UberX`, `Uber Black` for "an Uber": a name the user wrote (capitalised, four
    letters at least), and a part after it that starts a word of its own — which of the
    kind the agent picked, the words cannot confirm (`Alexa` is not a kind of Alex)."""
    plain = name.strip()
    return any(
        plain.startswith(w) and re.match(r"[\s-]?[A-Z0-9]", plain[len(w) :]) is not None
        for w in re.findall(r"(?<![\w-])[A-Z][a-z]{3,}(?![\w-])", said[:_MAX_TEXT])[:64]
        if len(w) < len(plain) <= len(w) + 12
    )


def _document_name(name: str) -> bool:
    stem, dot, extension = name.rpartition(".")
    return (
        bool(dot and stem)
        and extension.lower() in _FILE_EXTENSIONS
        and not re.search(r"[/\\:~$]", name)
        and not stem.startswith(".")
    )


def hosts_named(names: Sequence[str], said: str) -> bool:
    """Every name is a link to a host the user wrote ("find a charger on shop.example"
    names `https://shop.example/search?q=charger`): the site the user sent the agent to."""
    if not names:
        return False
    said = _GLUED_STOP.sub(". ", said)
    for name in names:
        if not re.match(r"(?:https?://|www\.)", name, re.I):
            return False
        host = urlsplit(name if "://" in name else f"http://{name}").hostname or ""
        host = host.removeprefix("www.")
        if "." not in host:
            return False
        if re.search(rf"(?<![\w.@-])(?:www\.)?{re.escape(host)}(?![\w-]|\.\w)", said, re.I):
            continue
        # "the pricing page of vercel" names vercel.com: the site's own name, as a word
        label = _site_label(host)
        if len(label) < 4 or not re.search(
            rf"(?<![\w.@/-]){re.escape(label)}(?![\w@-]|\.\w)", said, re.I
        ):
            return False
    return True


def _site_label(host: str) -> str:
    """The name a site goes by: `vercel` for docs.vercel.com, `bbc` for www.bbc.co.uk."""
    parts = host.lower().split(".")
    if (
        len(parts) >= 3
        and len(parts[-1]) == 2
        and parts[-2] in ("co", "com", "org", "net", "ac", "gov")
    ):
        return parts[-3]
    return parts[-2] if len(parts) >= 2 else ""


def ground_call(
    args: Mapping[str, Any], said: str, results: Sequence[str], counts: Ranker | None = None
) -> Grounding:
    """Where each target of a tool call's arguments comes from; `counts` ranks a pick by
    how many ("the channel with the most users") where no result scores the candidates."""
    names = targets(args)
    names += [v for v in _listed_ids(args, results) if v not in names][: max(0, 64 - len(names))]
    marked = [m.group(1) for m in itertools.islice(_MARKED_AS.finditer(said[:20_000]), 4)]
    # a channel the call names beside a member ("remove Omar from #product") names where,
    # not whom: the product manager's record is not described by it
    tags = [n for n in names if n.startswith("#") and _in(n, said.lower())]
    grounding = _ground(
        names, _in, said, results, counts, [*_set_to(args), *marked, *tags], _added_names(args)
    )
    if grounding.off_record is None and results:
        ranked = _ranked_in_text(args, said, results)
        if ranked is not None:
            return replace(grounding, off_record=ranked)
    return grounding


def _listed_ids(args: Mapping[str, Any], results: Sequence[str]) -> list[str]:
    """Short values a result gives as a record's id (`"id": "c3"`), under whatever key the
    call holds them (`merge_contacts(keep="c2", merge=["c1", "c3"])`): each names the
    record it is the id of, as an id under an id key does."""
    if not results:
        return []
    values = [
        v.strip()
        for value in list(args.values())[:32]
        for v in (value[:32] if isinstance(value, list | tuple) else [value])
        if isinstance(v, str) and _SHORT_ID.fullmatch(v.strip()) and not v.strip().isdigit()
    ]
    return [v for v in dict.fromkeys(values[:64]) if _given_as_id(v, results)]


#: Arguments that hold what a call adds to a record (`add_attendees`, `new_members`).
_ADDED_KEY = re.compile(r"^(?:add|added|adds|new|invite|invites)_?[a-z]", re.IGNORECASE)


#: The state a record is marked as ("mark Lena's order as fulfilled"): where the record
#: goes, not which one it is (the order fulfilled already is not Lena's).
_MARKED_AS = re.compile(
    r"\bmark(?:ed|ing|s)?\b[^.;!?\n]{0,60}?\bas\s+(?:the\s+|a\s+|an\s+)?((?:not\s+)?[\w'-]+)",
    re.IGNORECASE,
)


def _set_to(args: Mapping[str, Any]) -> list[str]:
    """The values a call gives its settings (`stateId="In Progress"`) and the words of
    the operation it names (`service="turn_off"`): where the user's words name one ("move
    the login issue to In Progress", "turn off the kitchen light"), they say where the
    record goes or what is done to it, not which record it is."""
    out: list[str] = []
    for key, value in list(args.items())[:32]:
        if (str(key).lower() == "service" or OPERATION_KEY.match(str(key))) and isinstance(
            value, str
        ):
            # `service="turn_off"`: "turn off the kitchen light" says what is done by "off"
            out += [w for w in re.split(r"[\W_]+", split_camel(value).lower()) if len(w) > 1][:4]
        elif is_setting_key(str(key)) or _ADDED_KEY.match(str(key)):
            # `add_attendees=["bo@…"]`: "add bo@… to the vendor call" names whom it adds,
            # not which event
            values = value if isinstance(value, list | tuple) else [value]
            out += [
                v.strip() for v in values[:8] if isinstance(v, str) and 1 < len(v.strip()) <= 60
            ]
    return out


def _added_names(args: Mapping[str, Any]) -> list[str]:
    """The names of the people a call adds by address (`attendees=["lena@acme.example"]`):
    "add Lena to the offsite" describes the meeting by "offsite", not by "Lena"."""
    out: list[str] = []
    for key, value in list(args.items())[:32]:
        if not (_ADDED_KEY.match(str(key)) or PARTY_KEY.match(str(key))):
            continue
        for v in (value if isinstance(value, list | tuple) else [value])[:8]:
            if isinstance(v, str) and ADDRESS_TEXT.fullmatch(v.strip()):
                # the whole address first: what is left of it must not describe a record
                out += [v.strip(), *address_words(v.strip())]
    return out


def address_words(address: str) -> list[str]:
    """The words of an address's local part a person goes by (`lena`, `ortiz` of
    `lena.ortiz@acme.example`), short pieces left out."""
    return [p for p in re.split(r"[._+-]+", address.split("@", 1)[0]) if len(p) > 2]


#: Arguments that hold the people a call sends to, invites or shares with: whom it
#: reaches, not which record it acts on ("share the budget with finance@…" describes the
#: budget by "budget", not by "finance").
PARTY_KEY = re.compile(
    r"^(?:to|cc|bcc|recipients?|attendees|add_attendees|invitees|participants|guests|members"
    r"|add_members|new_members|emails?|email_addresses|share_with|users|collaborators)$",
    re.IGNORECASE,
)


def _ranked_in_text(args: Mapping[str, Any], said: str, results: Sequence[str]) -> str | None:
    """A candidate a listing scores, named in the call's own wording ("Dinner at Le
    Bistrot") after the user picked by rank ("the French restaurant with the best
    reviews"): it must be the one that ranks first, as a target would."""
    if not (_BY_RATING.search(said[:_MAX_TEXT]) or _BY_PRICE.search(said[:_MAX_TEXT])):
        return None
    text = " ".join(t[:2_000] for t in itertools.islice(text_values(args), 64)).lower()
    candidates = {k for _, scores in _score_maps(results) for k in scores if len(k) > 2}
    inside = [c for c in candidates if re.search(rf"(?<!\w){re.escape(c)}(?!\w)", text)]
    if len(inside) != 1 or rank_of(inside, said, results) != "other":
        return None
    return f"{inside[0]}, which does not rank first by the scores in view"


def ground_objects(
    objects: Sequence[str], said: str, results: Sequence[str], counts: Ranker | None = None
) -> Grounding:
    """The same for a command's operands (`rm -rf build`, `kill 4312`): a command that
    names no object, or one as broad as `.`, is not on something anyone named."""
    if not objects:
        return Grounding(False, False, (), None)
    return _ground(objects, object_named, said, results, counts)


def ground_page_words(words: Sequence[str], said: str, results: Sequence[str]) -> Grounding:
    """The same for the words of a clicked element (`cart`, `sku`, `4411` of
    `#add-to-cart-sku-4411`): each a whole word of the user's or of a result. A selector
    drops a word's hyphen (`usbc` for "usb-c", `wifi` for "wi-fi"), so the user's words
    are read with it dropped too."""
    if not words:
        return Grounding(False, False, (), None)
    joined = _IN_WORD_HYPHEN.sub("", said[:_MAX_TEXT])
    return _ground(words, _word_in, f"{said}\n{joined}" if joined != said else said, results)


_IN_WORD_HYPHEN = re.compile(r"(?<=[A-Za-z0-9])-(?=[A-Za-z0-9])")


def _word_in(word: str, text: str) -> bool:
    return bool(re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", text))


def _ground(
    names: Sequence[str],
    found_in: Callable[[str, str], bool],
    said: str,
    results: Sequence[str],
    counts: Ranker | None = None,
    set_to: Sequence[str] = (),
    added: Sequence[str] = (),
) -> Grounding:
    """`set_to`: values the call gives its settings, left out of the user's words where
    they describe a record; `added`: the names of the people it adds, likewise."""
    request = _GLUED_STOP.sub(". ", said).lower()
    returned = "\n".join(r[:_MAX_TEXT] for r in results).lower()
    unnamed: list[str] = []
    from_results: list[str] = []
    partial: list[str] = []
    for name in names:
        if found_in(name, request):
            # a file named by some of its words ("the old resume draft" for `resume.pdf`):
            # a listing in view may hold one the description fits better
            base = name.rsplit("/", 1)[-1]
            if returned and _file_extension(base.lower()) and base.lower() not in request:
                partial.append(base)
            continue
        if returned and found_in(name, returned):
            from_results.append(name)
        else:
            unnamed.append(name)
    # once per call: both the record check and the rank check read it
    rank = rank_of(from_results, said, results, counts) if from_results and results else None
    return Grounding(
        in_request=not unnamed and not from_results,
        in_session=not unnamed,
        unnamed=tuple(unnamed),
        off_record=(
            off := _off_record_of([*from_results, *partial], said, results, rank, set_to, added)
        )[0],
        tied=off[1],
        names=tuple(names),
        origin=provenance([*from_results, *unnamed], found_in, results),
        ranked=bool(from_results) and _ranked_pick(from_results, said, results, rank),
    )


def _off_record_of(
    found: Sequence[str],
    said: str,
    results: Sequence[str],
    rank: str | None,
    set_to: Sequence[str],
    added: Sequence[str],
) -> tuple[str | None, bool]:
    """`_off_record` with the values the call sets left out of the description; the names
    of the people it adds are left out too, except where the address itself is checked
    (whether the user's words describe that person)."""
    base = _without(said, set_to)
    if not added:
        return _off_record(found, base, results, rank)
    people = [f for f in found if _ADDRESS.fullmatch(f.lower())]
    off = _off_record([f for f in found if f not in people], _without(base, added), results, rank)
    return off if off[0] is not None or not people else _off_record(people, base, results, rank)


def _without(said: str, values: Sequence[str]) -> str:
    for value in values:
        said = re.sub(rf"(?<!\w){re.escape(value)}(?!\w)", " ", said, flags=re.IGNORECASE)
    return said


#: Words that pick one of several by how it ranks.
_RANKING = re.compile(
    r"\b(?:best|worst|cheapest|priciest|highest|lowest|nearest|closest|farthest|fastest"
    r"|slowest|earliest|largest|biggest|smallest|shortest|longest|newest|oldest|most|least"
    r"|fewest|top|top-rated|best-rated|highest-rated|lowest-rated|most-rated|greatest)\b",
    re.IGNORECASE,
)


_EVERY_ONE = re.compile(r"\b(?:each|every|all)\b", re.IGNORECASE)


def _ranked_pick(found: Sequence[str], said: str, results: Sequence[str], rank: str | None) -> bool:
    """The user picked by rank, and the listing holds records the call's names are not in:
    there was a choice, and the tables cannot tell which record ranks first. A pick by
    recency ("my last tweet") is checked where every record is dated: the newest (or the
    oldest, for "first") is vouched for, another record, or several, is not."""
    said = said[:_MAX_TEXT]
    recency = _RECENCY.search(said)
    if not (_RANKING.search(said) or recency) or _EVERY_ONE.search(QUOTED_NAME.sub(" ", said)):
        # "write to each user by how active they are": every record is asked (a quoted
        # message's "hi all" asks nothing of the records)
        return False
    if rank is not None:
        return False  # the scores in view settle it, either way (see `_off_record`)
    records = [r.lower() for r in itertools.islice(_records(results), _MAX_RECORDS)]
    if len(records) < 2:
        # one JSON object that maps each candidate to its score: `{"A": 4.6, "B": 4.1}`
        records = [p for r in records for p in re.split(r",\s*(?=\")", r)]
    lowered = [f.lower() for f in found[:16]]
    holding = [any(f in r for f in lowered) for r in records]
    if recency is not None and not _RANKING.search(said):
        dates = [_DATED.search(r) for r in records]
        if len(records) >= 2 and all(dates):
            stamps = [d.group(0) for d in dates if d is not None]
            newest = recency.group(1).lower() not in ("first", "earliest")
            pick = stamps.index(max(stamps) if newest else min(stamps))
            return sum(holding) != 1 or not holding[pick]
    return any(holding) and not all(holding)


#: "the best-rated", "the top-rated": the highest rating; "the cheapest": the lowest price.
_BY_RATING = re.compile(
    r"\b(?:best|top|highest)(?:[- ]rated)?\b|\bhighest\s+rating\b|\bmost\s+popular\b", re.I
)
_BY_PRICE = re.compile(
    r"\b(?:(cheapest|least\s+expensive|lowest[- ]priced?|lowest\s+price)"
    r"|(priciest|most\s+expensive|highest[- ]priced?))\b",
    re.IGNORECASE,
)
_RATING_VALUE = re.compile(r"\brating\s*[:=]?\s*(\d+(?:\.\d+)?)", re.IGNORECASE)
_PRICE_RANGE = re.compile(
    r"^\s*(?:price(?:\s+range)?\s*[:=]\s*)?\$?\s*(\d+(?:\.\d+)?)\s*(?:-|–|to)\s*\$?\s*"
    r"\d+(?:\.\d+)?\s*(?:[a-z]{3}|€|\$|£)?\s*$",
    re.IGNORECASE,
)
#: A floor on the rating the user set beside another ranking: "rating above 4".
_RATING_FLOOR = re.compile(
    r"\brat(?:ing|ed)\s+(?:of\s+)?(above|over|higher\s+than|more\s+than|at\s+least|>=?)\s*"
    r"(\d(?:\.\d+)?)",
    re.IGNORECASE,
)
_BARE_NUMBER = re.compile(r"^\s*\$?\s*(\d+(?:\.\d+)?)\s*(?:[a-z]{3}|€|\$|£)?\s*$", re.I)


def _score_maps(results: Sequence[str]) -> list[tuple[str, dict[str, float]]]:
    """The results that score candidates, one number each (`{"Le Vert": "Rating: 4.6",
    "Chez Nous": "Rating: 4.1"}`, `{"GreenDrive": 55.0, "CityCars": 48.0}`), with what
    they score: "rating" or "price" (a bare number)."""
    out: list[tuple[str, dict[str, float]]] = []
    for result in results[-16:]:
        data = _structured(result.strip()[:_MAX_TEXT])
        if data is None:
            continue
        out += _listing_scores(data)
        if not isinstance(data, Mapping) or len(data) < 2:
            continue
        ratings: dict[str, float] = {}
        prices: dict[str, float] = {}
        for key, value in list(data.items())[:200]:
            if isinstance(value, int | float) and not isinstance(value, bool):
                prices[str(key).lower()] = float(value)
            elif isinstance(value, str):
                if (rated := _RATING_VALUE.search(value)) is not None:
                    ratings[str(key).lower()] = float(rated.group(1))
                elif (bare := _BARE_NUMBER.match(value)) is not None:
                    prices[str(key).lower()] = float(bare.group(1))
                elif (span := _PRICE_RANGE.search(value)) is not None:
                    # "Price range: 80.0 - 150.0": ranked by where it starts
                    prices[str(key).lower()] = float(span.group(1))
        if len(ratings) >= 2 and len(ratings) == len(data):
            out.append(("rating", ratings))
        if len(prices) >= 2 and len(prices) == len(data):
            out.append(("price", prices))
    return out


_RATING_KEY = re.compile(r"^(?:rating|stars|score|review_score|avg_rating|average_rating)$", re.I)
_PRICE_KEY = re.compile(
    r"^(?:price|cost|rate|fare|total|price_per_(?:night|day|hour|person|month)|nightly_rate"
    r"|daily_rate|price_min|min_price|price_from|from_price|starting_price|price_low)$",
    re.IGNORECASE,
)


def _structured(text: str) -> object:
    """A result's data, where it is JSON, or a YAML listing (`- name: Hôtel Bellecour`,
    the way agent frameworks often print a tool's records); None for prose."""
    if text.startswith(("{", "[")):
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            return None
    if not text.startswith("- ") or len(text) > _MAX_YAML:
        return None
    try:
        return yaml.load(text, Loader=_YAML_LOADER)
    except (yaml.YAMLError, RecursionError, ValueError):
        return None


#: YAML parsing is slower than JSON's: a listing larger than this is left unranked.
_MAX_YAML = 20_000
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _listing_scores(data: object) -> list[tuple[str, dict[str, float]]]:
    """A listing of records, each with its own rating or price (`[{"name": "Hôtel
    Bellecour", "rating": 4.6, "price": 180}, …]`, or such a list under one key): every
    short text a record holds (its name, its company) is scored by that record's number;
    a text two records share (their city) names neither."""
    data = _listed(data)
    if data is None or not 2 <= len(data) <= 200:
        return []
    records = [r for r in data if isinstance(r, Mapping)]
    if len(records) != len(data):
        return []
    out: list[tuple[str, dict[str, float]]] = []
    for what, key_pattern in (("rating", _RATING_KEY), ("price", _PRICE_KEY)):
        each = [_keyed_score(r, key_pattern) for r in records]
        if None in each:
            continue  # a listing scores every record, or it ranks none of them
        scores: dict[str, float] = {}
        seen: dict[str, int] = {}
        for record, score in zip(records, each, strict=True):
            for v in list(record.values())[:32]:
                if isinstance(v, str) and 0 < len(v) <= 80 and score is not None:
                    seen[v.lower()] = seen.get(v.lower(), 0) + 1
                    scores[v.lower()] = score
        scores = {k: v for k, v in scores.items() if seen[k] == 1}
        if len(scores) >= 2:
            out.append((what, scores))
    return out


def _listed(data: object) -> list[Any] | None:
    """A result's listing: the list it is, or the one list a record holds (`{"hotels":
    […]}`); None when it holds none, or several."""
    if isinstance(data, Mapping):
        lists = [v for v in data.values() if isinstance(v, list)]
        data = lists[0] if len(lists) == 1 else None
    return data if isinstance(data, list) else None


def _dated_otherwise(results: Sequence[str], stated: set[tuple[int, int]]) -> set[str]:
    """The texts of a listing's records that are dated, but on none of the dates the user
    stated (what a pick among the rest does not compete with)."""
    if not stated:
        return set()
    out: set[str] = set()
    for result in results[-16:]:
        for record in (_listed(_structured(result.strip()[:_MAX_TEXT])) or [])[:200]:
            if not isinstance(record, Mapping):
                continue
            texts = [v for v in list(record.values())[:32] if isinstance(v, str) and len(v) <= 80]
            dated = set().union(*(dates_in(t) for t in texts)) if texts else set()
            if dated and not dated & stated:
                out |= {t.lower() for t in texts}
    return out


def _described_otherwise(results: Sequence[str], said: str) -> set[str]:
    """The texts of a listing's records that lack a word the user picked by, which other
    records of the listing hold ("French" of "the best-rated French restaurant" over a
    French and a Japanese one): a pick by rank is among the records so described. The
    noun the rank picks among ("hotel" of "the cheapest hotel in Lisbon") says what kind
    of record is meant, not which: a hotel whose name lacks the word is one still."""
    told = _content_words(said[:_MAX_TEXT]) - _ranked_nouns(said[:_MAX_TEXT])
    out: set[str] = set()
    for result in results[-16:]:
        records = [
            r for r in (_listed(_structured(result.strip()[:_MAX_TEXT])) or [])[:200]
            if isinstance(r, Mapping)
        ]  # fmt: skip
        texts = [
            [v for v in list(r.values())[:32] if isinstance(v, str) and len(v) <= 80]
            for r in records
        ]
        held = [{w for t in ts for w in _content_words(t)} & told for ts in texts]
        common: set[str] = set(held[0]).intersection(*held[1:]) if held else set()
        picking = set().union(*held) - common
        if not picking:
            continue
        for ts, words_held in zip(texts, held, strict=True):
            if not words_held & picking:
                out |= {t.lower() for t in ts}
    return out


#: A ranking word and the words after it up to a preposition or a clause's end: "cheapest
#: hotel", "best-rated French restaurant".
_RANKED_PHRASE = re.compile(
    rf"(?:{_RANKING.pattern})(?:[- ]rated|[- ]priced)?((?:\s+[^\W\d_][\w-]*){{1,4}}?)"
    r"(?=\s+(?:in|on|at|for|from|near|nearby|with|under|below|over|above|by|to|that|which|and|or)\b"
    r"|\s*[.,;:!?]|\s*$)",
    re.IGNORECASE,
)


def _ranked_nouns(said: str) -> set[str]:
    """The last word of each phrase a rank picks by: the kind of thing picked among."""
    out: set[str] = set()
    for found in _RANKED_PHRASE.finditer(said):
        phrase = found.group(1).split()
        if phrase:
            out |= _content_words(phrase[-1])
    return out


def _keyed_score(record: Mapping[str, Any], key: re.Pattern[str]) -> float | None:
    return next((_score_value(v) for k, v in list(record.items())[:32] if key.match(str(k))), None)


def _score_value(value: object) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str) and (bare := _BARE_NUMBER.match(value)) is not None:
        return float(bare.group(1))
    return None


class Ranker(Protocol):
    def rank(self, names: Sequence[str]) -> str | None: ...


def rank_of(
    found: Sequence[str], said: str, results: Sequence[str], counts: Ranker | None = None
) -> str | None:
    """Whether the one the call names ranks first the way the user picked ("book the
    best-rated hotel", "rent the cheapest car"), by the scores a result gives each
    candidate, or by `counts` ("the channel with the most users"): "first", "other", or
    None when nothing in view scores it so."""
    text = said[:_MAX_TEXT]
    by_rating = _BY_RATING.search(text) is not None
    by_price = _BY_PRICE.search(text)
    if not by_rating and by_price is None:
        return counts.rank(found) if counts is not None else None
    verdict: str | None = None
    maps = _score_maps(results)
    floor = _RATING_FLOOR.search(text)
    # "rating above 4 and the lowest price": the candidates rated below the floor are out
    below: set[str] = set()
    if floor is not None:
        bound, strict = float(floor.group(2)), floor.group(1).lower() not in ("at least", ">=")
        for what, scores in maps:
            if what == "rating":
                below |= {k for k, v in scores.items() if v < bound or (strict and v == bound)}
    # "the highest-rated hotel under 200 euros": the candidates priced over it are out too
    ceilings = [float(bound_value(m).replace(",", "")) for m in PRICE_BOUND.finditer(text)]
    if ceilings:
        for what, scores in maps:
            if what == "price":
                below |= {k for k, v in scores.items() if v > max(ceilings[:8])}
    # "the cheapest flight on Dec 20": a record dated another day is no candidate
    below |= _dated_otherwise(results, dates_in(text))
    # "the best-rated French restaurant": one of another cuisine is no candidate
    below |= _described_otherwise(results, text)
    for what, scores in maps:
        if (what == "rating" and not by_rating) or (what == "price" and by_price is None):
            continue
        picked = [f.lower() for f in found[:16] if f.lower() in scores]
        if len(picked) != 1:
            continue
        if picked[0] in below:
            return "other"
        kept = [v for k, v in scores.items() if k not in below] or list(scores.values())
        highest = what == "rating" or (by_price is not None and by_price.group(2) is not None)
        best = max(kept) if highest else min(kept)
        if scores[picked[0]] != best:
            return "other"
        verdict = "first"
    if verdict is None and counts is not None:
        return counts.rank(found)
    return verdict


#: A pick by recency of one thing: "my last tweet", "the latest invoice", "the most recent
#: email" ("last week", "the last 3 emails" are a time and a count, not a pick).
_RECENCY = re.compile(
    r"\b(?:my|the|our)\s+(last|latest|newest|most recent|first|earliest)\s+"
    r"(?!(?:week|month|year|night|time|day|quarter|weekend|few|couple|\d)\b)[a-z]+\b",
    re.IGNORECASE,
)
#: A record's date and time as ISO writes it (sorts as text).
_DATED = re.compile(r"\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2})?)?")


def provenance(
    found: Sequence[str], found_in: Callable[[str, str], bool], results: Sequence[str]
) -> Origin:
    """Where the targets the user did not write come from, read in the order the results
    came: "planted" when one of them first turned up in a passage addressed to the agent,
    or when such passages name every one of them (the call is wholly what a passage asked
    for: the hotel a review urges, listed by the search before it); "clean" when each first
    turned up in a result before any such passage; "unseen" when, of the rest, some were
    found nowhere (nothing shows the call is the one a passage asked for). Where a name
    first turned up decides, not where it was seen last: the account a hijacked payment
    went to is echoed by the listing the agent reads after it, and stays the passage's.
    Meaningful only once some result addressed the agent (`taint_of`)."""
    parts = [(head.lower(), tail.lower()) for head, tail in split_at_order(results)]
    if not found or not any(tail for _, tail in parts):
        return "clean"  # no passage addressed the agent: nothing was planted
    first: dict[str, str] = {}
    for name in found:
        for head, tail in parts:
            if found_in(name, head):
                first[name] = "clean"
                break
            if tail and found_in(name, tail):
                first[name] = "planted"
                break
    if "planted" in first.values() or all(
        any(tail and found_in(name, tail) for _, tail in parts) for name in found
    ):
        return "planted"
    return "clean" if len(first) == len(found) else "unseen"


def _off_record(
    found: Sequence[str], said: str, results: Sequence[str], rank: str | None
) -> tuple[str | None, bool]:
    """The first record holding a target whose words share nothing the user said that
    tells records apart, when another record does share such words; and whether that is
    a tie (another party described just as well, not better)."""
    if not found or not results:
        return None, False
    if rank == "other":
        return f"{found[0]}, which does not rank first by the scores in view", False
    records = list(_joined_records(tuple(results)))
    role = _page_role(found, records)
    if role is not None:
        # a page's elements: a button is picked among buttons, a link among links (the
        # user's words that describe the Email box pick no button)
        records = [r for r in records if _role_of(r) == role]
    matching = _described(records, said)
    owned = _owned(records, said)
    told_by: list[set[str]] | None = None  # read once, for the first target that needs it
    for target in found:
        low = target.lower()
        if _ADDRESS.fullmatch(low):
            other, better = _other_party(low, said, results)
            if other is not None:
                how = "better" if better else "just as well"
                return f"{target}, where the user's words describe {other} {how}", not better
        party = _party(low)
        if party is not None:
            # a party (an address, a phone number) is told apart among the records that
            # list one: "text Mum" over `Mum +44…; Dad +44…` picks Mum's line, and a file
            # listing beside the contacts does not count against it
            among = [r for r in records if party(r)]
            picked = _described(among, said)
            if picked is None:
                continue
            holding = [i for i, r in enumerate(among) if _in(target, r.lower())]
            if holding and not any(picked[i] for i in holding):
                return among[holding[0]][:160], False
            if len(holding) == 1:
                # "text Ana Lopez" over Ana Ruiz's line and Ana Lopez's: both hold "Ana",
                # one holds every word of the name
                told = _telling(among, said)
                mine = told[holding[0]]
                if any(i != holding[0] and mine < other for i, other in enumerate(told)):
                    return among[holding[0]][:160], False
            continue
        if not (
            _OPAQUE.fullmatch(target)
            or _ENTITY.fullmatch(low)
            or _CODE.fullmatch(target)
            or _JOINED_CODE.fullmatch(target)
            or _file_extension(low) is not None
            or (low.startswith("/") and len(low) <= 200)  # a path names its record
            or _SCHEMED_ID.match(target) is not None
            or _keyed_id(target, results)
            or _handle(target, results)
            or _another_named(target, said, results)
            or _STREET.fullmatch(target) is not None
            or _SLASHED.fullmatch(target) is not None
            or _JOINED_NAME.fullmatch(low) is not None
            # a pick by rank is read by the rank checks, not by the words of a name
            or (_sibling_name(target, records) and _RANKING.search(said) is None)
        ):
            continue
        holding = [
            i for i, r in enumerate(records) if low in r.lower() or _home_path_in(low, r.lower())
        ]
        # the record whose own id it is, not a group that lists it among its members
        # (`{"id": "C11", "members": ["U01", "U02"]}` holds U02 but is not U02)
        if any(_is_own_id(records[i], target) for i in holding):
            holding = [i for i in holding if not _among_members(records[i], target)]
        if owned is not None and holding and not any(owned[i] for i in holding):
            # "delete my message" over the user's message and Nina's: by its author
            return records[holding[0]][:160], False
        if matching is None:
            if (
                owned is None
                and len(holding) == 1
                and not _every_record(records, found)
                and _unpicked(records, holding[0], target, said)
            ):
                return records[holding[0]][:160], True
            continue
        if _CARRIED.search(target) and (
            len(holding) != 1
            or not any(matching[i] and _CARRIED.search(r) for i, r in enumerate(records))
        ):
            # a link or an account number in free text, or a party of many records (every
            # transaction names the user's own account): no one record to tell apart; and
            # only another account the user's words pick is the one they meant (a bill's
            # "Water bill: 61.40 due, IBAN …" is one record in two clauses)
            continue
        if holding and not any(matching[i] for i in holding):
            return records[holding[0]][:160], False
        if len(holding) == 1 and len(records) > 1:
            told_by = told_by if told_by is not None else _telling(records, said)
            if _outmatched(records, told_by, holding[0], target):
                return records[holding[0]][:160], False
            if _other_day_described(records, matching, holding[0], said):
                return records[holding[0]][:160], True
            if _picked_by_place(records, matching, told_by, holding[0], said):
                return records[holding[0]][:160], True
    return None, False


#: A pick by place or age among records alike ("the second one", "the latest charge"):
#: the order a listing gives is not always the order the user means.
_BY_PLACE = re.compile(
    r"\b(?:first|second|third|fourth|fifth|last|latest|newest|oldest|earliest|earlier|later"
    r"|older|newer|most\s+recent|previous)\b",
    re.IGNORECASE,
)


def _picked_by_place(
    records: Sequence[str],
    matching: Sequence[bool],
    told_by: Sequence[set[str]],
    held: int,
    said: str,
) -> bool:
    """Whether the user picked by place or age, and another record the words describe at
    least as well is in view: which is "the second" the gate cannot check, so the pick is
    a tie."""
    if not _BY_PLACE.search(said[:_MAX_TEXT]):
        return False
    mine = told_by[held]
    return any(
        i != held and matching[i] and mine <= told for i, told in enumerate(told_by[:_MAX_RECORDS])
    )


#: A day the user names relative to now ("yesterday's daily note", "today's standup"):
#: which date it is, the gate cannot tell.
_RELATIVE_DAY = re.compile(
    r"\b(?:yesterday|today|tomorrow|tonight)(?:['’]s)?\b|\bthis\s+(?:morning|afternoon|evening)"
    r"\b|\blast\s+night\b",
    re.IGNORECASE,
)


def _other_day_described(
    records: Sequence[str], matching: Sequence[bool], held: int, said: str
) -> bool:
    """Whether the user picked by a day named relative to now, and another record the
    words describe as well is dated another day: which of them is "yesterday's" the gate
    cannot check, so the pick is a tie."""
    if not _RELATIVE_DAY.search(said[:_MAX_TEXT]):
        return False
    dated = [d.group(0)[:10] if (d := _DATED.search(r[:_MAX_TEXT])) else None for r in records]
    mine = dated[held]
    return mine is not None and any(
        i != held and matching[i] and day is not None and day != mine
        for i, day in enumerate(dated[:_MAX_RECORDS])
    )


#: An id written as a URI (Shopify's `gid://shopify/Product/72`, `urn:li:person:…`, an AWS
#: `arn:…`, `spotify:track:…`): it names one record, as an opaque id does.
_SCHEMED_ID = re.compile(r"^(?:gid://|urn:|arn:|spotify:|ari:)\S{3,200}$", re.IGNORECASE)


#: A street address (`400 Market St`, `12 Oak Street`): it names one place as an id does.
_STREET = re.compile(
    r"\d{1,6}[a-z]?\s+(?:[A-Za-z][\w'.-]*\s+){1,4}(?:st|street|ave|avenue|rd|road|blvd"
    r"|boulevard|ln|lane|dr|drive|way|ct|court|pl|place|sq|square|terrace|ter|hwy|highway)\.?",
    re.IGNORECASE,
)
#: A name in parts split by slashes, as branches and repositories are written
#: (`feat/dark-mode`, `acme/app`): it names one record as an id does.
_SLASHED = re.compile(r"[A-Za-z0-9][\w.-]{0,60}(?:/[A-Za-z0-9][\w.-]{0,60}){1,4}")
#: A name in snake case, as ids without digits are written (`cam_front`, `living_room`).
_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
#: A record's name of words joined by hyphens (`api-key-ci`, `acme-assets`): picked among
#: its kind by the words the user gave for it.
_JOINED_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")


def _keyed_id(target: str, results: Sequence[str]) -> bool:
    """Whether `target` is a snake-case name some result gives as an id (`"id":
    "cam_front"`): it names one record as an opaque id does, though it holds no digit."""
    return bool(_SNAKE.fullmatch(target)) and len(target) <= 40 and _given_as_id(target, results)


#: A person's handle (`@raj-p`), and the keys under which a listing gives one.
_AT_HANDLE = re.compile(r"@[A-Za-z0-9][\w.-]{0,38}")
_HANDLE_FIELD = re.compile(
    r'"(?:user_?name|handle|login|screen_name|slug|user)"\s*:\s*"', re.IGNORECASE
)


def _handle(target: str, results: Sequence[str]) -> bool:
    """Whether `target` is a person's handle (`@raj-p`, or a value a result gives as a
    `username`): it names one person's record as an id does, though it reads as a word."""
    if len(target) > 40 or not re.fullmatch(r"@?[A-Za-z0-9][\w.-]*", target):
        return False
    return _AT_HANDLE.fullmatch(target) is not None or _given_under(
        _HANDLE_FIELD.pattern + "@?", target, results
    )


def _given_as_id(value: str, results: Sequence[str]) -> bool:
    """Whether one of the latest results gives `value` as a record's id (`"id": "c3"`,
    `"device_id": "cam_front"`)."""
    return _given_under(_ID_FIELD.pattern, value, results)


def _given_under(field: str, value: str, results: Sequence[str]) -> bool:
    """Whether one of the latest results gives `value` whole as a string under a key that
    `field` (a pattern up to the value's opening quote) matches."""
    keyed = re.compile(field + re.escape(value) + '"', re.IGNORECASE)
    return any(keyed.search(r[:_MAX_TEXT]) for r in results[-16:])


def _sibling_name(value: str, records: Sequence[str]) -> bool:
    """Whether `value` is the whole value of a field that another record of the listing
    fills too (`"company": "RoadKing"` beside `"company": "SunDrive"`): a record picked by
    its name among its like, which the user's description must fit."""
    if not 0 < len(value) <= 80 or '"' in value:
        return False
    held = [r for r in records if f'": "{value}"' in r]
    if len(held) != 1:
        return False
    slot = _slot(held[0], value)
    if slot is None or _STATE_FIELD.search(slot.split('"')[1]):
        return False  # `"state": "heat"`: what a record is in, which a call may set
    return sum(1 for r in records if slot in r) >= 2


_STATE_FIELD = re.compile(r"state|status|mode|type|kind|category|level|role|stage|priority", re.I)


def _another_named(value: str, said: str, results: Sequence[str]) -> bool:
    """Whether `value` is a record's whole name in one of the latest results (`"title":
    "Budget"`) and the user named another record there by its whole name ("delete the
    Notes tab"): one record picked by name over another, as by an id."""
    if not 0 < len(value) <= 80 or "\n" in value:
        return False
    names = {
        m.group(1).lower()
        for r in results[-16:]
        for m in itertools.islice(_NAME_VALUE.finditer(r[:_MAX_TEXT]), 64)
    }
    # ...or an item of a listing of bare names (`{"members": ["alice", "bob", "chen"]}`):
    # "invite bob" picks bob among them, not chen
    groups: list[set[str] | frozenset[str]] = [
        names,
        *(g for r in results[-16:] for g in _name_lists(r)),
    ]
    low = said[:_MAX_TEXT].lower()
    return any(
        value.lower() in group
        and any(
            name != value.lower() and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", low)
            for name in itertools.islice(group, 128)
        )
        for group in groups
    )


@functools.lru_cache(maxsize=64)
def _name_lists(result: str) -> tuple[frozenset[str], ...]:
    """The lists of short names a JSON or YAML result holds, at its top or one key down:
    each list's names, lowered. Cached: every target of a call asks of the same results."""
    data = _structured(result.strip()[:_MAX_TEXT])
    tops = list(data.values())[:16] if isinstance(data, Mapping) else [data]
    return tuple(
        [
            frozenset(v.lower() for v in top[:200])
            for top in tops
            if isinstance(top, list)
            and 2 <= len(top) <= 200
            and all(isinstance(v, str) and 0 < len(v) <= 80 and "\n" not in v for v in top[:200])
        ][:8]
    )


#: A record's name, whole: `"name": "Notes"`, `"title": "Q4 actuals"`.
_NAME_VALUE = re.compile(
    r'"(?:name|title|display_?name|sheet_?name|list_?name)"\s*:\s*"([^"\n]{1,80})"', re.I
)


def _is_own_id(record: str, target: str) -> bool:
    """Whether the record's first line gives `target` as its own `"id"`."""
    head = record.split("\n", 1)[0][:2000]
    return re.search(r'"id"\s*:\s*"?' + re.escape(target) + r'"?\s*[,}]', head, re.I) is not None


def _among_members(record: str, target: str) -> bool:
    """Whether the record's first line holds `target` only as an item of a list (a
    channel's `"members": ["U01", "U02"]`), not as a value of its own."""
    head = record.split("\n", 1)[0][:2000]
    quoted = '"' + re.escape(target) + '"'
    in_list = re.search(r"\[[^\[\]]*" + quoted + r"[^\[\]]*\]", head, re.I) is not None
    as_value = re.search(r":\s*" + quoted, head, re.I) is not None
    return in_list and not as_value


#: A record's id field, up to its value: `"id": "`, `"device_id": "`.
_ID_FIELD = re.compile(r'"(?:id|[a-z_]*_id)"\s*:\s*"', re.IGNORECASE)


#: A line of a browser's accessibility snapshot: `[ref=e5] button 'Place order'`.
_PAGE_ELEMENT = re.compile(r"^\s*[-*]?\s*\[ref=[\w-]+\]\s+([a-z]+)\b")


def _role_of(record: str) -> str | None:
    element = _PAGE_ELEMENT.match(record)
    return element.group(1) if element is not None else None


def _page_role(found: Sequence[str], records: Sequence[str]) -> str | None:
    """The role of the snapshot element that holds what the call names (`button`), when
    it is one: the `[ref=e5] button 'Place order ($84.20)'` a click on e5 names."""
    for target in found[:8]:
        low = target.lower()
        for record in records[:_MAX_RECORDS]:
            role = _role_of(record)
            if role is not None and low in record.lower():
                return role
    return None


def _shape(name: str) -> str:
    """An id's shape, its digits aside: `rx_11` and `rx_12` are both `rx_#`."""
    return re.sub(r"\d+", "#", name.lower())


def _holds_shape(record: str, shape: str) -> bool:
    """Whether `record` holds an id of that shape."""
    return any(_shape(t) == shape for t in _OPAQUE.findall(record.lower()))


def _every_record(records: Sequence[str], found: Sequence[str]) -> bool:
    """Whether the call names each record the results list ("mark the newsletters as
    read" over two newsletters): no choice among them was made."""
    lowered = [f.lower() for f in found[:64]]
    return len(records) <= 64 and all(any(f in r.lower() for f in lowered) for r in records)


def _unpicked(records: Sequence[str], held: int, target: str, said: str) -> bool:
    """Whether the user described the record by words no record holds ("my blood pressure
    prescription" over `Lisinopril` and `Oxycodone`), and another record offers an id of
    the same shape: the agent chose by what it knows, which the gate cannot check."""
    shape = _shape(target)
    slot = _slot(records[held], target)
    others = [
        r
        for i, r in enumerate(records)
        if i != held and (_holds_shape(r, shape) or (slot is not None and slot in r))
    ]
    if not others or _RANKING.search(said) or _RECENCY.search(said):
        return False  # "my last tweet": picked by its rank, which the gate checks apart
    held_words = set().union(*(_stems(_record_words(r)) for r in records))
    plain = _CARRIED.sub(" ", said[:_MAX_TEXT])
    owners = [w for w in _POSSESSOR.findall(plain) if w.lower() not in _NOT_POSSESSOR]
    proper = [
        name
        for before, name in _PROPER_NAME.findall(plain)
        if before not in _BEFORE_PLACE_OR_TIME
        and name.lower() not in _CALENDAR_NAMES | _NOT_POSSESSOR
    ]
    phrases = " ".join([*_DESCRIBED.findall(plain), *owners, *proper])
    return bool(_stems(_content_words(phrases)) - held_words)


#: A name written mid-sentence ("sell 10 shares of Tesla", "cancel the plan with Verizon"):
#: what the user calls the thing, which a listing may not spell that way.
#: ...not a place or a time the records are all of ("a hotel in Paris", "from Lisbon to
#: London on March 3").
_PROPER_NAME = re.compile(r"(?<![\w'’-])([a-z0-9]+[,;:]?) ([A-Z][a-z]{2,})\b(?![\'’]s\b)")
_BEFORE_PLACE_OR_TIME = frozenset(
    ["in", "to", "from", "at", "on", "near", "around", "until", "till", "by", "via", "into"]
)
_CALENDAR_NAMES = frozenset(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december", "monday", "tuesday", "wednesday", "thursday",
     "friday", "saturday", "sunday", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
     "sept", "oct", "nov", "dec", "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri",
     "sat", "sun"]
)  # fmt: skip


#: Whose the record is, by name: "approve Lena's time off", "cancel Orbit's plan".
_POSSESSOR = re.compile(r"\b([A-Za-z][\w-]+)['’]s\s+(?=[a-z])")
#: Words before "'s" that are contractions or days, not an owner's name.
_NOT_POSSESSOR = frozenset(
    ["it", "that", "what", "there", "here", "let", "he", "she", "who", "where", "how",
     "when", "this", "today", "yesterday", "tomorrow", "tonight", "everyone", "everybody",
     "someone", "somebody", "one", "other", "another", "nobody", "anyone", "why", "name"]
)  # fmt: skip


def _slot(record: str, target: str) -> str | None:
    """The field that holds `target` in a JSON record (`"symbol": "` of `{"symbol":
    "VTI"}`): another record with that field offers a thing of the same kind (a ticker
    beside `TSLA`), whatever its shape."""
    found = re.search(r'"([\w-]{1,40})"\s*:\s*"' + re.escape(target) + '"', record[:_MAX_TEXT])
    return f'"{found.group(1)}": "' if found is not None else None


#: What a user calls a record: the words after "my", "the" up to a preposition or a stop
#: ("my blood pressure prescription", "the duplicate contact").
_DESCRIBED = re.compile(
    r"\b(?:my|the|our|your|his|her|their|this|that)\s+((?:[\w'-]+\s+){0,3}?[\w'-]+)"
    r"(?=\s+(?:on|in|at|for|from|to|with|by|and|or|that|which|who|about|i|i'm|saying|telling|"
    r"asking|letting|because|since|but|so)\b|\s*[.,;:!?]|\s*$)",
    re.IGNORECASE,
)


#: "my message", "my last comment", "the post I wrote": the user's own writing.
_MINE = re.compile(
    r"\bmy\s+(?:own\s+|last\s+|latest\s+|earlier\s+|previous\s+|old\s+)?"
    r"(?:message|messages|post|posts|comment|comments|reply|replies|tweet|tweets|review|"
    r"reviews|answer|answers|draft|drafts)\b"
    r"|\b(?:message|post|comment|reply|tweet|review|answer)s?\s+(?:that\s+)?I\s+"
    r"(?:wrote|posted|sent|left|made)\b",
    re.IGNORECASE,
)
#: Who wrote a record, and the words a listing uses for the user themself.
_AUTHOR = re.compile(
    r"[\"']?\b(?:user|author|sender|from|posted_by|created_by|owner|username)\b[\"']?\s*[:=]\s*"
    r"[\"']?([^\"',;\n}]{1,60})",
    re.IGNORECASE,
)
_SELF = frozenset(["me", "you", "self", "myself", "yourself"])


def _owned(records: Sequence[str], said: str) -> list[bool] | None:
    """Which records the user wrote, when the user asked about their own writing and the
    records name their authors, some the user and some others (None otherwise)."""
    if len(records) < 2 or not _MINE.search(said[:_MAX_TEXT]):
        return None
    authors = [m.group(1).strip().lower() if (m := _AUTHOR.search(r)) else None for r in records]
    mine = [a in _SELF for a in authors]
    if not any(mine) or all(mine) or any(a is None for a in authors):
        return None
    return mine


def _person_words(text: str) -> set[str]:
    """The words a user names a person or a role by ("the old intern's access" → old,
    intern, access): content words, with every joined name split into its parts."""
    return _content_words(re.sub(r"[^a-z0-9]+", " ", text.lower()[:_MAX_TEXT]))


def _other_party(address: str, said: str, results: Sequence[str]) -> tuple[str | None, bool]:
    """Another address of these results that the user's words describe as well as or
    better than this one: "reply to Maria" over `maria.costa@… (cc: legal@…)` describes
    Maria, not legal@; "our lawyer, Hana" is not `hans@…`; "add Omar" over `omar@corp…`
    and `omar.reyes@gmail…` does not say which Omar (the agent chose: a tie), "add Omar
    Reyes" does (the other is described better)."""
    said_words = _person_words(_CARRIED.sub(" ", said))
    if not said_words:
        return None, False
    names = _address_names(results)

    def described(a: str) -> frozenset[str]:
        local = a.split("@", 1)[0]
        own = {p for p in re.split(r"[^a-z0-9]+", local) if len(p) > 2} | names.get(a, set())
        return frozenset(own) & said_words

    mine = described(address)
    seen = 0
    for result in results:
        for match in _ADDRESS.finditer(result[:_MAX_TEXT]):
            seen += 1
            if seen > _MAX_RECORDS:
                return None, False
            other = match.group(0).lower().rstrip(".-")  # "… at dora@gmail.com."
            theirs = described(other) if other != address else frozenset()
            if theirs and theirs >= mine:
                return other, theirs > mine
    return None, False


#: A name written before an address: `Priya Nair <pnair@vendor.example>`.
_NAME_BEFORE = re.compile(
    r"([A-Z][\w'-]+(?:[ \t]+[A-Z][\w'-]+){0,3})[ \t]*[<(\[][ \t]*" + r"([\w.+-]+@[\w-]+\.[\w.-]+)"
)
_NAME_KEY = re.compile(r"name|^contact$|^person$", re.IGNORECASE)


def _address_names(results: Sequence[str]) -> dict[str, set[str]]:
    """The name each address is listed under (`{"name": "Priya Nair", "email": "pnair@…"}`,
    `Priya Nair <pnair@…>`), as words: "email Priya Nair" describes `pnair@…`."""
    out: dict[str, set[str]] = {}
    for record in _records(results):
        if record.startswith("{"):
            try:
                data = json.loads(record)
            except ValueError:
                continue
            if not isinstance(data, Mapping):
                continue
            found = {a.lower() for a in _ADDRESS.findall(record)}
            named = " ".join(
                v for k, v in list(data.items())[:32] if isinstance(v, str) and _NAME_KEY.search(k)
            )
            if len(found) == 1 and named:
                out.setdefault(found.pop(), set()).update(_person_words(named))
        else:
            for name, address in _NAME_BEFORE.findall(record[:4_000]):
                out.setdefault(address.lower(), set()).update(_person_words(name))
    return out


def _party(target: str) -> Callable[[str], bool] | None:
    """For a target that is a party, which records list a party of its kind."""
    if target.startswith("tel:"):
        return lambda record: bool(_phones_in(record))
    if _ADDRESS.fullmatch(target):
        return lambda record: _ADDRESS.search(record) is not None
    return None


def _record_words(record: str) -> set[str]:
    """A record's words, and the parts of its joined names (`promo-bot-2000` → promo, bot;
    `MusicBox` → music, box)."""
    # `"merged": false` says the branch is not merged: the key is no word of the record
    record = _FALSE_FIELD.sub(" ", record[:_MAX_TEXT])
    found = set(_WORD.findall(record.lower()))
    camel = {
        p.lower() for w in _CAMEL.findall(record[:_MAX_TEXT]) for p in re.findall(r"[A-Z][a-z]+", w)
    }
    return found | _parts_of(found) | camel


#: A JSON field whose value says the record is not so: `"merged": false`, `"paid": null`.
_FALSE_FIELD = re.compile(r'"[\w-]{1,40}"\s*:\s*(?:false|null|""|\[\])(?=\s*[,}])', re.IGNORECASE)


def _parts_of(found: set[str]) -> set[str]:
    """The parts of joined names (`api-key-ci` → api, key, ci)."""
    return {p for w in found if "-" in w or "_" in w for p in re.split(r"[-_']", w) if p}


#: A name of capitalised words run together (`MusicBox`, `StreamFlix`).
_CAMEL = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b")


def _phrase_words(said: str) -> set[str]:
    """The words of what the user calls a record ("the old resume draft"), the table's
    verbs among them: after a determiner, "resume" and "draft" are what it is called."""
    phrases = " ".join(_DESCRIBED.findall(_CARRIED.sub(" ", said[:_MAX_TEXT]))[:32])
    return {w for w in _WORD.findall(phrases.lower()) if len(w) > 2 and w not in _STOP}


#: Two-letter words written capitalised that are no one's name.
#: Two-letter things, names when written in capitals ("turn off the TV").
_SHORT_THINGS = frozenset(["tv", "pc"])
_SHORT_WORDS = (
    frozenset(["ok", "hi", "go", "pm", "am", "id", "mr", "ms", "dr", "st"]) | _SHORT_THINGS
)


def _proper_words(said: str) -> set[str]:
    """Words written as names inside a sentence ("into the Archive folder"), even those
    the verb table knows: a folder called Archive is not an act of archiving."""
    out: set[str] = set()
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", said[:_MAX_TEXT])[:64]:
        for word in re.findall(r"\S+", sentence)[1:64]:
            plain = word.strip("\"'()[],.;:!?")
            # "with Jo": a name of two letters too, where it is no common word
            # "turn off the TV": two capitals name a thing as well
            if (
                re.fullmatch(r"[A-Z][a-z]{2,}", plain)
                or (
                    re.fullmatch(r"[A-Z][a-z]", plain) and plain.lower() not in _STOP | _SHORT_WORDS
                )
                or (re.fullmatch(r"[A-Z]{2}", plain) and plain.lower() in _SHORT_THINGS)
            ):
                out.add(plain.lower())
    return out


#: The value a change sets, not a word describing what it changes: "move it to In
#: Progress", "mark them as done", "rename it to Final".
_NEW_VALUE = re.compile(
    r"\b(?:move|moving|set|change|mark|switch|transition|rename|turn)\s+(?:it|them|this|that"
    r"|those|these|(?:the|my|our)\s+(?:status|state|stage|column))\s+(?:back\s+)?(?:to|as|into)"
    r"\s+[^.;,!?\n]{1,40}",
    re.IGNORECASE,
)


#: A role given to someone ("make Grace an admin", "promote Sam to owner"): the role is
#: what the call sets, not what describes the record it acts on.
_ROLE_GIVEN = re.compile(
    r"\b(?:make|made|promote|demote|appoint)\s+[\w'.-]+(?:\s+[\w'.-]+)?\s+(?:to\s+|as\s+)?"
    r"(?:an?\s+|the\s+)?((?:workspace\s+|org\s+|repo\s+)?(?:admin|administrator|owner|member"
    r"|editor|viewer|guest|moderator|manager|maintainer|reader|writer|commenter|collaborator)s?)\b",
    re.IGNORECASE,
)


def _keep_whom(found: re.Match[str]) -> str:
    """The match with its role left out: whom the role goes to still describes a record."""
    return found.group(0)[: found.start(1) - found.start(0)] + " "


#: A household service by the words its bills go by (stems, as `_stems` leaves them).
_UTILITY_GROUPS = (
    ("electricity", "electric", "power", "energy"),
    ("internet", "broadband", "fiber", "fibre", "wifi"),
    ("phone", "mobile", "cell", "cellular", "wireless", "telecom"),
)
_UTILITY = {
    _stem(w): frozenset(_stem(o) for o in g) - {_stem(w)} for g in _UTILITY_GROUPS for w in g
}
#: A month by its name and by the short form files and records use ("the December
#: invoice" is `invoice-dec.pdf`).
_MONTH_NAMES = (
    "january", "february", "march", "april", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
_MONTH_FORMS = {_stem(m): _stem(m[:3]) for m in _MONTH_NAMES} | {
    _stem(m[:3]): _stem(m) for m in _MONTH_NAMES
}


def _telling(records: Sequence[str], said: str) -> list[set[str]]:
    """Per record, the words of the user's description it holds that not every record
    holds ("from", "evt" tell no record apart)."""
    said = _ROLE_GIVEN.sub(_keep_whom, _NEW_VALUE.sub(" ", said[:_MAX_TEXT]))
    # a channel or a handle is a name even when it is a verb too ("#launch")
    tags = {t.lower() for t in _TAG.findall(said[:_MAX_TEXT])}
    described = _stems(_states(_content_words(_CARRIED.sub(" ", said)) | tags)) | times_in(said)
    described |= _stems(_proper_words(said) | _phrase_words(said)) | _marks(said)
    words_of = [_stems(_states(_record_words(r))) | times_in(r) | _marks(r) for r in records]
    held = set().union(*words_of) if words_of else set()
    # "my electricity bill" is the one City Power sends; "the phone case" is a phone case
    # where a record says so, not a wireless plan
    described |= {other for w in described if w not in held for other in _UTILITY.get(w, ())}
    described |= {_MONTH_FORMS[w] for w in described if w in _MONTH_FORMS}
    # "make bo an editor": a name of two letters, written small, where a record's address
    # begins with it
    short = {w for w in _WORD.findall(said.lower()) if len(w) == 2 and w not in _STOP}
    described |= {w for w in short if any(f"{w}@" in r.lower() for r in records[:_MAX_RECORDS])}
    # "the CI API key": an acronym of two letters that is a part of a record's joined name
    # (`api-key-ci`)
    acronyms = {w.lower() for w in re.findall(r"\b[A-Z]{2}\b", said)} - _STOP
    if acronyms:  # read the records' joined names only where there is one to look for
        joined = set().union(
            *(_parts_of(set(_WORD.findall(r.lower()))) for r in records[:_MAX_RECORDS])
        )
        described |= acronyms & joined
    common = set.intersection(*words_of) if words_of else set()
    return [w & (described - common) for w in words_of]


def _file_extension(name: str) -> str | None:
    """A file name's extension, where it is a known one (`pdf` of `resume.pdf`)."""
    stem, dot, extension = name.rpartition(".")
    return extension if dot and stem and extension in _FILE_EXTENSIONS else None


#: A short mark of digits and letters a title carries ("1:1", "Q3", "v2", "P0").
_MARK = re.compile(
    r"(?<![\w:./-])(?:\d{1,2}:\d{1,2}|[a-z]{1,2}\d{1,2}|\d{1,2}[a-z]{1,2})(?![\w:./-])", re.I
)


def _marks(text: str) -> set[str]:
    """The marks in `text` ("my 1:1 with Bo" holds `1:1`), a clock time aside (`10:00`)."""
    return {
        m.lower() for m in _MARK.findall(text[:_MAX_TEXT]) if not re.fullmatch(r"\d{1,2}:\d{2}", m)
    }


def _outmatched(
    records: Sequence[str], told_by: Sequence[set[str]], held: int, target: str
) -> bool:
    """Whether another record of the same kind (an id of the target's shape) holds every
    word of the user's description that the target's record holds, and more: "the slides
    for the design review" over `design-review-slides.pdf` and `q4-sales-slides.pdf`."""
    mine = told_by[held]
    extension = _file_extension(target.lower())
    entity = _ENTITY.fullmatch(target.lower())
    if extension is not None:
        # `resume.pdf` beside `resume-draft-old.pdf` or `resume_draft.docx`: another file
        same: re.Pattern[str] | None = _ANY_FILE
    elif _SOURCE_FILE.search(target.lower()):
        # `src/new_module.py` beside `scratch.py`: another file of a project, wherever it is
        same = _SOURCE_FILE
    elif entity is not None:
        # `light.hallway` beside `light.porch`: a device of the same domain
        domain = target.lower().split(".", 1)[0]
        same = re.compile(rf"(?<![\w.]){re.escape(domain)}\.[a-z0-9_]+")
    elif _SNAKE.fullmatch(target.lower()) and not _OPAQUE.fullmatch(target):
        same = _ID_FIELD  # `cam_front` beside `cam_garage`: another record with an id
    else:
        shape = _shape(target)
        same = None
    # `"sku": "MUG-RED"` beside `"sku": "MUG-BLU"`: the same field, whatever the ids' shapes
    slot = _slot(records[held], target)
    return any(
        i != held
        and mine < other
        and (
            (slot is not None and slot in records[i])
            or (
                same.search(records[i].lower()) is not None
                if same is not None
                else _holds_shape(records[i], shape)
            )
        )
        for i, other in enumerate(told_by)
    )


#: A file's name with a known extension, anywhere in a record.
_ANY_FILE = re.compile(
    r"[\w-][\w.-]*\.(?:" + "|".join(sorted(_FILE_EXTENSIONS, key=len, reverse=True)) + r")\b"
)
#: A project's file by its extension: code, settings, data kept beside it.
_SOURCE_FILE = re.compile(
    r"[\w-][\w.-]*\.(?:py|js|jsx|ts|tsx|go|rs|rb|java|kt|php|cpp|cc|c|h|cs|swift|sh|sql|toml"
    r"|ini|cfg|conf|env|lock)\b"
)


def _described(records: Sequence[str], said: str) -> list[bool] | None:
    """Which records share a word with the user's description that tells records apart
    (None: fewer than two records, or nothing the user said tells them apart)."""
    if len(records) < 2:
        return None
    for phrase in QUOTED_NAME.findall(said[:_MAX_TEXT])[:8]:
        # a name the user quoted is matched whole: "the note called 'old wifi password'"
        # is not the note "wifi password"
        quoted = [phrase.lower().strip() in r.lower() for r in records]
        if any(quoted) and not all(quoted):
            return quoted
        # held by several: the one that holds it as its whole name ("/Family Photos", not
        # "/Family Photos (private)")
        whole = re.compile(
            rf"(?:^|[\s\"'/:=]){re.escape(phrase.lower().strip())}(?=\s*(?:[\"'\n,}}]|$))"
        )
        exact = [whole.search(r.lower()) is not None for r in records]
        if sum(quoted) > 1 and any(exact) and not all(exact):
            return exact
    # an address or a link the user wrote picks the records that hold it ("the spam from
    # promo@deals.example" over a listing of senders)
    carried = {c.lower().rstrip(".,;") for c in _CARRIED.findall(said[:_MAX_TEXT])}
    if carried:
        holding = [any(c in r.lower() for c in carried) for r in records]
        if any(holding) and not all(holding):
            return holding
    # a time the user bounded ("decline any meeting after 5pm") picks the records whose
    # time is on its side, when every record states one
    within = _within_times(records, said)
    if within is not None:
        return within
    on_day = _on_dates(records, said)
    if on_day is not None:
        return on_day
    matching = [bool(w) for w in _telling(records, said)]
    told = any(matching)
    if not told:
        matching = [True] * len(records)  # nothing the user said tells them apart
    # "the Q4 budget spreadsheet" over `Q4 budget.xlsx` and `Q4 budget (old).xlsx`: the
    # one set aside (old, a copy, a draft) is not it, unless the user said so
    low_said = said[:_MAX_TEXT].lower()
    unsaid = [w for w in _SET_ASIDE if w not in low_said]
    marks = re.compile(rf"\b(?:{'|'.join(unsaid)})\b") if unsaid else None
    aside = [marks is not None and marks.search(r.lower()) is not None for r in records]
    pairs = list(zip(matching, aside, strict=True))
    if any(m and not a for m, a in pairs) and any(m and a for m, a in pairs):
        return [m and not a for m, a in pairs]
    # ...and "the old Q1 plan" over `Q1 plan` and `Q1 plan (old)` is the one set aside
    said_aside = [w for w in _SET_ASIDE if w not in unsaid]
    if said_aside:
        mark = re.compile(rf"\b(?:{'|'.join(said_aside)})\b")
        carries = [mark.search(r.lower()) is not None for r in records]
        chosen = [m and c for m, c in zip(matching, carries, strict=True)]
        if any(chosen) and not all(carries):
            return chosen
    return matching if told else None


#: Words that mark a record as a version set aside: not the one meant, unless named so.
_SET_ASIDE = (
    "old", "copy", "backup", "bak", "draft", "archived", "deprecated", "obsolete",
    "outdated", "duplicate", "previous", "superseded", "unused", "test", "sample", "template",
)  # fmt: skip


#: A bound on a time of day: "after 5pm", "before noon", "later than 18:00".
_TIME_BOUND = re.compile(
    r"\b(after|later\s+than|past|before|earlier\s+than)\s+(noon|midnight|\d{1,2}(?::\d{2})?"
    r"\s*(?:[ap]\.?m\.?)?)(?!\w)",
    re.IGNORECASE,
)


#: "on the 14th": a day of the month, with the month left to the records.
_ORDINAL_DAY = re.compile(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)
_ISO_DAY = re.compile(r"(?<!\d)\d{4}-(\d{2})-(\d{2})(?!\d)")


def _on_dates(records: Sequence[str], said: str) -> list[bool] | None:
    """Which records fall on a date the user wrote ("my return flight on the 14th" over
    flights on 2026-12-07 and 2026-12-14), when every record states one (None: no date
    said, a record without one, or every record or none on it)."""
    text = said[:_MAX_TEXT]
    days = dates_in(text)
    bare = {int(d) for d in _ORDINAL_DAY.findall(text)}
    if not days and not bare:
        return None
    held = [{(int(m), int(d)) for m, d in _ISO_DAY.findall(r)} for r in records]
    if not all(held):
        return None
    on = [any(md in days or md[1] in bare for md in h) for h in held]
    return on if any(on) and not all(on) else None


def _within_times(records: Sequence[str], said: str) -> list[bool] | None:
    """Which records hold a time inside the user's bounds (None: no bound, a record
    without a time, or every record or none inside)."""
    bounds: list[tuple[bool, str]] = []
    for word, when in _TIME_BOUND.findall(said[:_MAX_TEXT])[:4]:
        low = when.lower()
        clock = {"noon": {"12:00"}, "midnight": {"00:00"}}.get(low) or times_in(low)
        if not clock and re.fullmatch(r"\d{1,2}", low) and 1 <= int(low) <= 12:
            # "after 5" of a working day is 5pm, "before 9" 9am: the hours people work
            hour = int(low) + (12 if int(low) < 8 else 0)
            clock = {f"{hour:02d}:00"}
        if clock:
            bounds.append((word.lower().startswith(("after", "later", "past")), min(clock)))
    if not bounds:
        return None
    times = [times_in(r) for r in records]
    if not all(times):
        return None
    inside = [
        any(all(t > b if later else t < b for later, b in bounds) for t in ts) for ts in times
    ]
    return inside if any(inside) and not all(inside) else None


def holds_described(said: str, results: Sequence[str]) -> bool:
    """Whether a record in view is the one the user described ("my rent" over a listing
    with a rent line): then the agent had the user's record in front of it."""
    matching = _described(list(_joined_records(tuple(results))), said)
    return matching is not None and any(matching)


def amount_off_record(
    amounts: Sequence[float],
    stated: Sequence[float],
    said: str,
    results: Sequence[str],
    ids: Sequence[str] = (),
) -> str | None:
    """The record an amount the user did not state comes from, when a result states
    several and the user (or the call) picked another: "pay the minimum due" over
    `balance 1,240.00; minimum due 35.00` picks the part that names the minimum;
    `pay_invoice(id="in_7")` picks in_7's own line. None when nothing picks a record."""
    unstated = [a for a in amounts if not any(_same(a, b) for b in stated)]
    if not unstated or not results:
        return None
    records = list(_records(results))
    if len(records) < 2:
        # one line that states several amounts ("balance 1,240.00, minimum due 35.00"):
        # each of its clauses is a record of its own
        records = [c for r in records for c in _CLAUSE.split(r) if c.strip()]
        if len(records) < 2:
            return None
    lowered = [r.lower() for r in records]
    other = _other_partys_sum(unstated, records, lowered, ids, said)
    if other is not None:
        return other
    said_words = set(_WORD.findall(said.lower()))
    picked: list[bool] | None = None
    descriptors = said_words & _AMOUNT_WORDS
    if descriptors:
        # a field's name is words too (`minimum_due`)
        # the clause that holds the most of them ("statement balance" is
        # `statement_balance`, not `current_balance`)
        counts = [len(descriptors & set(re.findall(r"[a-z]+", r))) for r in lowered]
        most = max(counts)
        picked = [c > 0 and c == most for c in counts]
    # an account or an address is a party, found in many records; an id names one
    named = [i for i in ids if _LETTERED_ID.fullmatch(i) and not _CARRIED.search(i)]
    if not _tells_apart(picked) and named:
        picked = [
            any(re.search(rf"(?<![\w-]){re.escape(i.lower())}(?![\w-])", r) for i in named)
            for r in lowered
        ]
    described = False
    if not _tells_apart(picked):
        # "refund order 8812, the customer got a broken mug" over the order's items: the
        # user's words may describe several things (the payee and the record read for
        # the sum), so only a figure beside every record is held against them
        picked, described = _described(records, said), True
    if picked is None or not _tells_apart(picked):
        return None
    numbers = [numbers_in([r]) for r in records]
    shown: list[float] | None = None
    for value in unstated:
        holding = [i for i, ns in enumerate(numbers) if any(_same(n, value) for n in ns)]
        elsewhere = [n for i, ns in enumerate(numbers) if picked[i] for n in ns]
        if holding and elsewhere and not any(picked[i] for i in holding) and not described:
            return records[holding[0]][:160]
        if described and not holding and elsewhere:
            # a figure outside every record (the order's `total`) where the user
            # described one of its records: the whole, not the part they meant
            shown = numbers_in(results[-16:]) if shown is None else shown
            if any(_same(n, value) for n in shown):
                return f"the figure {value:g} beside the records, not {_first(picked, records)}"
    return None


def _other_partys_sum(
    unstated: Sequence[float],
    records: Sequence[str],
    lowered: Sequence[str],
    ids: Sequence[str],
    said: str,
) -> str | None:
    """The record a sum comes from, when it is another party's and the user's words pick
    the payee's record, not the sum's: a listing of invoices, each with its own account,
    paid to one account with another's sum ("pay the Acme Paper invoice" as Acme's account
    and Blue Ink's sum). "Send X what I paid for the gym" takes the gym's sum, which the
    words pick."""
    payees = [i.lower() for i in ids if _CARRIED.search(i)]
    paying = [any(p in r for p in payees) for r in lowered]
    if not any(paying) or all(paying):
        return None
    # what the user's words pick, beside the payee's account they wrote
    picked = _described(records, _without(said, ids))
    # a record that names a party of its own (an account, an address)
    partied = [_CARRIED.search(r[:4000]) is not None for r in records]
    for value in unstated:
        holding = [
            i for i, r in enumerate(records) if any(_same(n, value) for n in numbers_in([r]))
        ]
        if not holding or any(paying[i] for i in holding):
            continue
        if not all(partied[i] for i in holding):
            continue  # a sum on a line of its own (a bill's "Total 98.70") is no party's
        if (
            picked is not None
            and _tells_apart(picked)
            and not any(picked[i] for i in holding)
            and all(picked[i] for i, p in enumerate(paying) if p)
        ):
            return records[holding[0]][:160]
    return None


def _first(picked: Sequence[bool], records: Sequence[str]) -> str:
    return next((r for p, r in zip(picked, records, strict=True) if p), "")[:160]


def _tells_apart(picked: Sequence[bool] | None) -> bool:
    """Some records picked, not all of them."""
    return picked is not None and any(picked) and not all(picked)


def _same(a: float, b: float) -> bool:
    return abs(a - b) < 0.005


#: Words that tell one amount of a statement from another.
_AMOUNT_WORDS = frozenset(
    ["minimum", "min", "total", "subtotal", "balance", "due", "outstanding", "remaining",
     "deposit", "fee", "fees", "tax", "tip", "monthly", "annual", "yearly", "weekly",
     "overdue", "instalment", "installment", "downpayment", "refundable", "shipping",
     "statement", "current", "pending", "available", "principal", "interest"]
)  # fmt: skip
#: Where one clause of a line ends: a comma or a semicolon before a space (not `1,240`).
_CLAUSE = re.compile(r"[,;]\s+")
#: An id with letters and digits (`in_7`, `ch_1Q2w`): matched whole in a record.
_LETTERED_ID = re.compile(r"(?=[^\d]*\d)(?=.*[A-Za-z])[A-Za-z0-9_-]{3,40}")


#: A name the user quoted ("the contact 'Old Plumber'"): matched whole, not in part.
QUOTED_NAME = re.compile(r"(?:^|[\s(:])[\"'“‘`]([^\"'”’`\n]{3,80})[\"'”’`](?=$|[\s.,;:!?)])")
_CLOCK = re.compile(
    r"\b(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)\b|(?:\b|(?<=\dT))(\d{1,2}):(\d{2})\b", re.I
)


#: A state's words, each group read as one ("the finished tasks" over `(done)`).
_STATE_GROUPS = (
    ("done", "finished", "complete", "completed", "closed", "resolved", "ticked"),
    ("open", "pending", "todo", "unfinished", "incomplete", "active"),
    ("paid", "settled"),
    ("unpaid", "overdue"),
    ("cancelled", "canceled"),
    ("failed", "failing", "broken", "red"),
    ("passed", "passing", "green"),
)
_STATE = {word: group[0] for group in _STATE_GROUPS for word in group}


def state_group(word: str) -> str | None:
    """The group a state word reads as ("unfinished" → open), None for any other word."""
    return _STATE.get(word.lower())


def _states(found: set[str]) -> set[str]:
    """`found`, with each state word read as its group's first ("finished" → done)."""
    return {_STATE.get(w, w) for w in found}


def times_in(text: str) -> set[str]:
    """Times of day as `HH:MM` ("8pm" and "20:00" are the same showing; `2026-12-03T10:30`
    holds 10:30)."""
    out = set()
    for hour, minute, half, hour24, minute24 in _CLOCK.findall(text[:_MAX_TEXT]):
        if hour24:
            h, m = int(hour24), int(minute24)
        else:
            h, m = int(hour) % 12 + (12 if half.lower() == "pm" else 0), int(minute or 0)
        if h < 24 and m < 60:
            out.add(f"{h:02d}:{m:02d}")
    return out


def _content_words(text: str) -> set[str]:
    verbs = verb_words()
    found = (w.removesuffix("'s") for w in _WORD.findall(text.lower()))  # "Ana's" names Ana
    return {w for w in found if len(w) > 2 and w not in _STOP and w not in verbs}


def records_of(result: str) -> list[str]:
    """The records one result lists (see `_records`)."""
    return [r for r in _split(result[:_MAX_TEXT]) if r.strip()][:_MAX_RECORDS]


def _records(results: Sequence[str]) -> Iterator[str]:
    """The records a result lists: a JSON array's items, a YAML list's items, else lines
    (and `;`-separated parts of a line)."""
    count = 0
    for result in results:
        for record in _split(result[:_MAX_TEXT]):
            if record.strip():
                yield record
                count += 1
                if count >= _MAX_RECORDS:
                    return


@functools.lru_cache(maxsize=4)
def _joined_records(results: tuple[str, ...]) -> tuple[str, ...]:
    """The records of `results`, joined as `_joined` joins them: read once per call,
    though both the record check and the described-record check ask for them."""
    return tuple(_joined(list(_records(results))))


def _joined(records: list[str]) -> list[str]:
    """Each JSON record with the records it refers to by their id appended: a time-off
    request that gives `"employee": "e_101"` is described by the words of e_101's record
    in another listing ("approve Lena's time off" picks the request that points to Lena)."""
    parsed: list[Mapping[str, Any] | None] = []
    ids: dict[str, int] = {}
    for i, record in enumerate(records):
        data = _structured(record) if record[:1] == "{" else None
        parsed.append(data if isinstance(data, Mapping) else None)
        own = parsed[-1].get("id") if parsed[-1] is not None else None
        if isinstance(own, str) and _JOIN_ID.fullmatch(own):
            ids.setdefault(own, i)
    if len(ids) < 2:
        return records
    out = []
    for i, (record, data) in enumerate(zip(records, parsed, strict=True)):
        refs: dict[int, None] = {}
        for key, value in itertools.islice(data.items(), 64) if data is not None else ():
            if key != "id" and isinstance(value, str) and ids.get(value, i) != i:
                refs[ids[value]] = None
        out.append(record + "".join("\n" + records[j] for j in itertools.islice(refs, 4)))
    return out


#: An id a record can be referred to by: not a bare word or a small number.
_JOIN_ID = re.compile(r"(?=[^\s]*[\d_-])[\w.:-]{2,64}")


def _split(text: str) -> list[str]:
    stripped = text.strip()
    if stripped[:1] in "[{":
        try:
            data = json.loads(stripped)
        except ValueError:
            data = None
        if isinstance(data, Mapping):
            lists = [v for v in data.values() if isinstance(v, list)]
            data = lists[0] if len(lists) == 1 else [data]
        if isinstance(data, list):
            return [json.dumps(item, ensure_ascii=False, default=str) for item in data]
    lines = stripped.splitlines()
    if any(line.startswith("- ") for line in lines):
        out: list[str] = []
        for line in lines:
            if line.startswith("- ") or not out:
                out.append(line)
            else:
                out[-1] += "\n" + line
        return out
    return [
        item for line in _under_headings(lines) for part in _parts(line) for item in _items(part)
    ]


def _under_headings(lines: list[str]) -> list[str]:
    """Lines with the heading they are indented under appended (`git status`'s "Changes
    not staged for commit:" over `\tmodified: src/app.py`): "commit my changes" describes
    the files under it, not the heading, and not the untracked ones under another."""
    out: list[str] = []
    heading: str | None = None
    for i, line in enumerate(lines):
        indented = line[:1].isspace()
        if not indented:
            following = lines[i + 1] if i + 1 < len(lines) else ""
            is_heading = _HEADING.fullmatch(line) is not None and following[:1].isspace()
            heading = line.strip() if is_heading else None
            if is_heading:
                continue
        out.append(line if heading is None or not indented else f"{line}\n{heading}")
    return out


#: A line that only labels the indented lines below it: "Untracked files:".
_HEADING = re.compile(r"[^\s:][^:\n]{0,78}:\s*")
_HEADER = re.compile(r"^[^:;]{1,60}:\s+")


def _parts(line: str) -> list[str]:
    """A line's `;`-separated parts, less the header they share ("Members of #ops: U11 …;
    U12 …": `#ops` describes every member, not the first one)."""
    parts = re.split(r";\s+", line)
    header = _HEADER.match(parts[0]) if len(parts) > 1 else None
    if header is not None:
        parts[0] = parts[0][header.end() :]
    return parts


#: A code that names one thing among its kind (`ETH`, `LHR`, `SKU`): told apart by records.
_CODE = re.compile(r"[A-Z]{2,6}")
#: A code of capitals in parts: a product's `C-USB`, a plan's `PRO_ANNUAL`.
_JOINED_CODE = re.compile(r"[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+")
_ITEM_SEP = re.compile(r",\s+|\s*\(\s*|\s*\)\s*")
_BRACKET_OR_COMMA = re.compile(r"[()\[\]{}]|,\s+")


def _items(part: str) -> list[str]:
    """A line that lists several things, each with its own id or code (`ETH 1.8, BTC
    0.05`; `f_21 Brand guide (folder: fld_2 Marketing)`), split into them; any other line
    stays whole (`ch_3Px9: 60.00 USD, succeeded` is one charge)."""
    # by commas first: `#launch (C11), #leadership (C12)` is two items, each with its name,
    # and `T-1 'Login' (open, assigned: me), T-2 'Dark mode'` two with their details
    for pieces in (_outside_brackets(part), _ITEM_SEP.split(part)):
        pieces = [p for p in pieces if p.strip()]
        if 2 <= len(pieces) <= 64 and all(_has_id(p) for p in pieces):
            return _under_its_heading(pieces)
    return [part]


def _outside_brackets(part: str) -> list[str]:
    """`part` split at the commas that are not inside brackets."""
    pieces, depth, start = [], 0, 0
    for found in _BRACKET_OR_COMMA.finditer(part):
        mark = found.group(0)
        if mark in "([{":
            depth += 1
        elif mark in ")]}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            pieces.append(part[start : found.start()])
            start = found.end()
    return [*pieces, part[start:]]


def _under_its_heading(pieces: list[str]) -> list[str]:
    """A list's heading is a word of each of its items, not of the first alone: "notes:
    n_81 Groceries, n_77 Trip ideas" does not make Groceries more the note "Delete the Trip
    ideas note" names, and "salaries: Maria 92k, Tom 88k" are both salaries. Where every
    item opens so (`Groceries: n_81, Trips: n_77`), the words are the items' own."""
    heading = _HEADER.match(pieces[0])
    if heading is None or _has_id(heading.group(0)) or any(_HEADER.match(p) for p in pieces[1:]):
        return pieces
    return [pieces[0], *(heading.group(0).strip() + " " + p.strip() for p in pieces[1:])]


def _has_id(piece: str) -> bool:
    tokens = re.findall(r"[\w.-]+", piece)
    return any(_LETTERED_ID.fullmatch(t) or _CODE.fullmatch(t) for t in tokens) or bool(
        _NUMBERED.search(piece)
    )


#: A record's number written as one (`#5521`, `No. 88`): an id, like a lettered one.
_NUMBERED = re.compile(r"(?<![\w#])(?:#|no\.\s?)\d{2,}(?![\w.])", re.IGNORECASE)


#: A sum written with its currency: the figure after a sign (group 1) or before a
#: currency's name (group 2). "$25", "0.5 ETH", "120 EUR"; not "25 minutes".
MONEY = (
    r"(?<![\w.])(?:[$€£¥]\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s?(?:(?:usd|eur|gbp"
    r"|chf|dollars?|euros?|pounds?|bucks|btc|eth|sol|usdc|usdt|bitcoin|ether)\b|[€£]))"
)
#: What a price is for, where the user gives one without its currency ("200 a night").
_PRICE_UNIT = r"(?:night|day|person|head|month|hour|week|seat|ticket|guest|room|item|unit)"
#: A price bound the user set: "under $30", "no more than 200 EUR", "a budget of $50".
PRICE_BOUND = re.compile(
    r"\b(?:under|below|less\s+than|at\s+most|no\s+more\s+than|not\s+over|max(?:imum)?"
    r"|(?:nothing|not|none)\s+(?:above|over|more\s+than|higher\s+than|pricier\s+than)"
    r"|no\s+(?:higher|pricier)\s+than"
    r"(?:\s+of)?|up\s+to|cheaper\s+than|within|budget(?:\s+of|\s+is)?)\s*"
    # "under 200 a night", "below 150/day": a price by its unit, without a currency
    rf"(?:{MONEY}|(?<![\w.])(\d[\d,]*(?:\.\d+)?)(?=\s*(?:a|an|per|/)\s*{_PRICE_UNIT}\b))",
    re.IGNORECASE,
)


def bound_value(match: re.Match[str]) -> str:
    """The amount a `PRICE_BOUND` match holds, with or without its currency."""
    return str(match.group(1) or match.group(2) or match.group(3))


#: One record of a listing, innermost (`{"sku": "MUG-BLU", "qty": 2, "price": 12.0}`).
_INNER_RECORD = re.compile(r"\{[^{}]{1,2000}\}")
_LINE_COUNT = re.compile(r"[\"']?(?:qty|quantity|count|units)[\"']?\s*[:=]\s*(\d{1,4})\b", re.I)
_LINE_PRICE = re.compile(
    r"[\"']?(?:price|unit_price|unit_amount|unit_cost)[\"']?\s*[:=]\s*[\"']?[$€£]?(\d[\d,]*(?:\.\d+)?)",
    re.IGNORECASE,
)


def line_sums(texts: Sequence[str]) -> list[float]:
    """What each line of an order or an invoice in `texts` comes to: its count times its
    unit price, where one record gives both ("refund the blue mugs": 2 × 12)."""
    out: list[float] = []
    for text in texts:
        for record in _INNER_RECORD.findall(text[:_MAX_TEXT])[:64]:
            count, price = _LINE_COUNT.search(record), _LINE_PRICE.search(record)
            if count is not None and price is not None:
                out.append(int(count.group(1)) * float(price.group(1).replace(",", "")))
    return out


def numbers_in(texts: Sequence[str]) -> list[float]:
    """The numbers written in `texts` (amounts a bill or a listing states)."""
    out: list[float] = []
    for text in texts:
        for match in _NUMBER.finditer(text[:_MAX_TEXT]):
            try:
                out.append(float(match.group(0).replace(",", "")))
            except ValueError:
                continue
            if len(out) >= 256:
                return out
    return out
