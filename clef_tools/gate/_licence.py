"""What the user's own words license: which effects, on which things, with which amounts,
and what they ruled out. Read from the user's messages only: a tool result can carry an
attacker's instructions, so nothing in one ever licenses an action.

Lexical and cheap (microseconds per turn, cached per request text): verbs name effects
(the same table that names tools' effects), numbers are amounts, "don't send" and "only
look" are prohibitions, a question with no action in it licenses reading only.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from clef_tools.gate._effects import EFFECT_KINDS, kind_of_words, table, verb_words, words
from clef_tools.gate._lookups import result_text

__all__ = [
    "SENDING_ACTS",
    "Licence",
    "licence_of",
    "plain_request",
    "read_messages",
    "request_of",
    "user_and_results",
]

_NOT = r"(?:don'?t|do\s+not|never|no|not|without|stop|avoid)"
_PROHIBITION = re.compile(rf"\b{_NOT}\s+(?:\w+\s+){{0,2}}?(\w+)", re.IGNORECASE)
#: A switch off forbidden: "don't turn them off", "never switch the heating off".
_NO_SWITCH_OFF = re.compile(
    rf"\b{_NOT}\s+(?:turn|switch|shut|power)(?:ing)?\s+(?:(?!not\b|but\b|and\b)\w+\s+){{0,3}}?off\b",
    re.IGNORECASE,
)
#: A prohibition by a verb's -ing form, on anything at all: "update the lock file without
#: upgrading anything" ("without changing the API" names one thing, and is left to the
#: checks of what is left alone).
_WITHOUT_ANY = re.compile(
    r"\b(?:without|not|never|no)\s+(\w+ing)\s+(?:anything|a\s+thing|any\s+(?:of\s+(?:it|them)"
    r"|files?|packages?|dependenc(?:y|ies)|versions?|messages?|emails?))\b",
    re.IGNORECASE,
)
_MYSELF = re.compile(
    r"\bI(?:'ll|\s+will|\s+want\s+to|\s+would\s+like\s+to|'d\s+rather)\s+(\w+)\s+"
    r"(?:it|that|them|this|the\s+\w+)?\s*myself\b",
    re.IGNORECASE,
)
_ONLY_READ = re.compile(
    r"\b(?:only|just|merely)\s+(?:read|look|check|show|tell|list|view|see|inspect|report|"
    r"summari[sz]e|explain|describe)\b|\bdon'?t\s+change\s+anything\b"
    # "read-only", but not of a thing made so ("a read-only role", "read-only access",
    # "share it with Jo as read-only", "make it read-only")
    r"|(?<!\bas )(?<!\bwith )(?<!\bto )(?<!\bmake it )(?<!\bset it )(?<!\bmake them )"
    r"\bread[- ]only\b(?!\s+(?:[\w-]+\s+)?(?:role|roles|user|users|access|replica|replicas|mode"
    r"|copy|account|accounts|token|tokens|key|keys|permissions?|view|link|share|member|members|group"
    r"|connection|credentials?|database|db|snapshot|volume|mount|collaborators?|contributors?"
    r"|viewers?|guests?|seats?|rights|privileges?|scopes?|logins?|policy|policies|bots?"
    r"|apps?|integrations?|grants?)\b)",
    re.IGNORECASE,
)
#: "make #announcements read-only", "set the bucket to read-only": a thing made so
_MADE_READ_ONLY = re.compile(
    r"\b(?:make|set|mark|turn|switch|lock)\s+(?:\S+\s+){1,3}?(?:to\s+|as\s+)?read[- ]only\b",
    re.IGNORECASE,
)
#: "share the page with kim@corp.example, read-only": the access given, set off by a comma
_READ_ONLY_ACCESS = re.compile(
    r"\b(?:share|invite|give|add|grant)\b(?:[^.;!?\n]|\.(?=\S)){0,80}?\bwith\b"
    r"(?:[^.;!?\n]|\.(?=\S)){0,80}?,\s*"
    r"(?:as\s+)?read[- ]only\b",
    re.IGNORECASE,
)
_AMOUNT = re.compile(
    r"(?<![\w.])(?<![A-Za-z]-)[$€£]?\s?(\d{1,3}(?:[,\s]\d{3})+|\d+)(?:\.(\d+))?"
    r"(k\b)?(?!\w|\.\d)",  # "rent is 2200.", "$1.2k"; not the number of order "A-7731"
    re.IGNORECASE,
)
#: A bare sum sent to someone: "send 20 to Tom for lunch", "send Tom 20 back" (not "send
#: 20 photos to Tom": a noun after the number counts things).
_SEND_SUM = re.compile(
    r"\b(?i:send|give|wire|lend)\s+(?:"
    r"[A-Z]\w+\s+\d+(?:[.,]\d{1,2})?(?:\s*(?i:bucks|quid|back|for)\b|\s*[.,!;]|\s*$)"
    r"|\d+(?:[.,]\d{1,2})?\s+(?:(?i:bucks|quid)\s+)?(?i:to)\s+(?:[A-Z]\w+|\S+@\S+"
    r"|(?i:my|his|her|their)\s+\w+|(?i:him|her|them)\b))"
)
#: Access asked for in plain words: "let Sara see the roadmap", "let Tom edit it".
_LET_ACCESS = re.compile(
    r"\blet\s+(?!me\b|us\b|it\b)[\w@.-]+(?:\s+[\w@.-]+){0,2}?\s+(?:see|view|read|access|edit|open|use|"
    r"comment\s+on|look\s+at|manage|change|control|administer)\b",
    re.I,
)
#: Something opened to everyone, asked for as a change: "make the repo public", "set the
#: doc to anyone with the link", "open the form to everyone".
_MAKE_PUBLIC = re.compile(
    r"\b(?:make|set|change|switch|turn|flip|open|put)\b[^.;!?]{0,40}?"
    r"\b(?:public(?:ly\s+(?:visible|accessible|readable))?|anyone\s+with\s+(?:the\s+)?link|"
    r"(?:visible|accessible|open)\s+to\s+(?:everyone|anyone|all|the\s+world))\b",
    re.I,
)
#: An action left to the agent's judgement: "take care of the invoice", "deal with the
#: spam", "sort out my inbox".
_HANDLE = re.compile(
    r"\b(?:take care of|deal with|handle|sort out|see to|look after|get rid of)\b", re.I
)
#: A short message asked for by a chat verb: "ping Dana that…", "nudge Tom about…".
_PING = re.compile(r"\b(?:ping|nudge)\s+(?!the\b|a\b|an\b)[A-Za-z@#]", re.I)
_LET_KNOW = re.compile(
    r"\b(?:let|keep)\s+(?!me\b|us\b)\w+(?:\s+\w+)?\s+(?:know|posted|informed)\b", re.I
)
#: Money moved between the user's own accounts ("move 300 from savings to checking").
_MOVE_MONEY = re.compile(
    r"\b(?:move|put|shift|sweep)\b[^.;!?]{0,40}?\b(?:savings|checking|current account|"
    r"accounts?|pot|isa|wallet|balance)\b"
    # "convert 200 USD to EUR", "exchange 50 pounds into euros": money from one balance
    # into another
    r"|\b(?:convert|exchange|swap)\b(?:[^.;!?]|\.\d){0,30}?\b(?:(?-i:[A-Z]{3})|dollars?|euros?|pounds?|"
    r"yen|francs?|usd|eur|gbp|btc|eth|usdc)\b[^.;!?]{0,12}?\b(?:to|into|for)\b",
    re.IGNORECASE,
)
#: A time of day or a date: not an amount ("the 8:15 train", "on 2026-12-04").
_MONTH_NAME = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|(?-i:May)|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_CLOCK_OR_DATE = re.compile(
    r"\b\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]m)?\b|\b\d{1,2}(?:\.\d{2})?\s*[ap]m\b"
    r"|\b\d{4}-\d{2}-\d{2}\b"
    # "Dec 20", "December 20th", "20 December", "the 14th": a day, not a count
    rf"|\b{_MONTH_NAME}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_NAME}(?!\w)"
    r"|\bthe\s+\d{1,2}(?:st|nd|rd|th)\b"
    # "tonight at 8", "at 9 tomorrow morning": an hour tied to its day, not a count
    r"|\b(?:tonight|today|tomorrow|this\s+(?:evening|morning|afternoon))\s+at\s+\d{1,2}\b"
    r"|\bat\s+\d{1,2}(?=\s+(?:tonight|today|tomorrow|this\s+(?:evening|morning|afternoon)"
    r"|in\s+the\s+(?:morning|evening|afternoon)|o['’]?clock)\b)",
    re.IGNORECASE,
)
#: "remove Dan from the Q1 planning board": what something is removed from.
_FROM_CONTAINER = re.compile(
    r"\b(?:remove|delete|kick|take|drop|ban|unsubscribe|clear|purge|cancel)\b"
    r"(?:[^.;!?]|\.(?=\S)){0,60}?"  # "maya@corp.example": a dot inside a name
    # ...or in it: "delete the empty rows in the Staff sheet"; or what it is part of:
    # "cancel the rental car for the Lisbon trip" (the trip stays)
    r"\b(?:from|out of|in|inside|within|for)\s+([^.;,!?]{1,60})"
    # "stop sharing the budget sheet with Tom": the sheet stays, the sharing goes
    r"|\b(?:stop|quit)\s+sharing\s+([^.;,!?]{1,60}?)\s+with\b",
    re.IGNORECASE,
)
#: An environment variable given a value: "set DEBUG=false on the heroku app".
_SETS_VARIABLE = re.compile(r"\b(?:set|change|update)\s+(?-i:[A-Z][A-Z0-9_]{1,40})\s*=", re.I)
_STOP_SHARING = re.compile(r"\b(?:stop|quit)\s+sharing\b", re.IGNORECASE)
#: What a share is of: "stop sharing" removes the access, never the thing itself.
_SHARED_THINGS = frozenset(
    ["file", "files", "document", "doc", "folder", "sheet", "spreadsheet", "calendar",
     "drive", "album", "photo", "photos", "board", "page", "notebook", "project", "repo"]
)  # fmt: skip
_ARTICLES = frozenset(
    ["the", "a", "an", "my", "our", "your", "this", "that", "their", "his", "her"]
)
#: "Write back to Dana", "write to the landlord": a message, not an edit.
_WRITE_TO = re.compile(r"\b(?:write|drop)\s+(?:back|(?:a\s+line\s+)?to)\b", re.I)
#: "Invoice Acme Corp 1,200 for November": the customer billed, the invoice sent to them
#: ("create an invoice", "invoice the work later" make one).
_BILL_PARTY = re.compile(r"(?:^|[.!?;]\s+)\s*(?:please\s+)?invoice\s+(?-i:[A-Z])", re.I)
#: "Tell me what fails", "show us the diff": the user asks for an answer, not a message.
_ANSWER_ME = re.compile(r"\b(?:tell|show)\s+(?:me|us)\b", re.I)
#: A coding request licenses the routine work it implies: editing files, running the checks.
_CODING = frozenset(
    [
        "fix",
        "implement",
        "refactor",
        "debug",
        "build",
        "rebuild",
        "test",
        "tests",
        "compile",
        "lint",
        "typecheck",
        "type-check",
        "format",
        "rename",
        "migrate",
        "upgrade",
        "bump",
        "port",
        "optimise",
        "optimize",
        "cleanup",
        "clean",
        "feature",
        "bug",
        "failing",
    ]
)
#: Words of a question about the project's checks ("why does `npm test` fail?").
_CHECKS = frozenset(
    ["test", "tests", "build", "builds", "lint", "linter", "compile", "ci", "fail", "fails",
     "failing", "failure", "typecheck", "checks", "types", "typing", "mypy", "pyright", "tsc",
     "coverage", "linters", "linting", "lints", "formatting", "formatted"]
)  # fmt: skip
_CURRENCY = frozenset(
    [
        "money",
        "eur",
        "euro",
        "euros",
        "usd",
        "dollar",
        "dollars",
        "gbp",
        "pound",
        "pounds",
        "chf",
        "yen",
        "cents",
        "quid",
        "bucks",
        "payment",
        "funds",
    ]
)
_PERCENT = re.compile(r"(?<![\w.])(\d{1,3}(?:\.\d+)?)\s*(?:%|percent\b|per\s+cent\b|pct\b)", re.I)
_CURRENCY_SIGN = re.compile(r"[$€£¥]\s?\d")
_IBAN = re.compile(r"\b(?:IBAN|[A-Z]{2}\d{2}[A-Z0-9]{11,30})\b")
#: Someone added to a group: "add Zoe to the #launch channel", "invite Ana to the team".
_ADD_TO_GROUP = re.compile(
    r"\b(?:add|invite|bring|get|put)\b[^.;!?]{1,60}?\b(?:to|into|on|onto)\s+"
    r"(?:the\s+|our\s+|my\s+)?"
    r"(?:#[\w-]+|(?:[\w-]+\s+)?(?:channel|group|team|workspace|project|repo|repository|org|"
    r"organi[sz]ation|server|space|chat)s?\b)"
    # "add Priya as a viewer on the doc", "make Tom an editor": a role is access
    # ("make alice a workspace admin": the role may say where)
    # "create a #launch channel and add ana and bob": the new room's members
    r"|\b(?:create|make|start|open|set\s+up)\b[^.;!?]{0,40}?\b(?:channel|group|team|chat|room|space)"
    r"\b[^.;!?]{0,20}?\band\s+(?:add|invite)\b"
    r"|\b(?:add|make|set|invite)\b[^.;!?]{1,40}?\b(?:as|an?)\s+(?:an?\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:viewer|editor"
    r"|commenter|collaborator|contributor|reviewer|maintainer|member|admin|administrator"
    r"|owner|guest|co-?host|host|moderator|mod|presenter|panelist|co-?owner|manager|reader"
    r"|writer)s?\b",
    re.IGNORECASE,
)
#: "Remind the team in #eng about the retro", "remind Tom to send the deck": a message to
#: them, beside the reminder it may be set as ("remind me" sets one).
_REMIND_OTHERS = re.compile(
    r"\bremind\s+(?:the\s+|my\s+|our\s+)?(?:team|everyone|everybody|him|her|them|all|group"
    r"|channel|(?-i:[A-Z][a-z]+)\b|@\w|#\w)",
    re.IGNORECASE,
)
#: A statement of what something should be: a request to make it so.
_CORRECTION = re.compile(
    r"\b(?:should|must|needs? to) (?:be|say|read|point to):?\s+[\"'`]?[^\s,;]*[@\d/.\"'`]"
    r"|\b(?:has|have) an? typo\b"
    r"|\bis (?:wrong|incorrect|outdated|out of date|misspelled|misspelt)\b",
    re.IGNORECASE,
)
#: A download saves a file here ("download the dataset"): a create, though the verb reads.
_DOWNLOAD = frozenset(["download", "downloads", "downloading", "redownload"])
#: Migrations run or applied change the database's schema ("run the migrations on
#: staging"): a change, though "run" names only running.
_RUN_MIGRATIONS = re.compile(
    r"\b(?:run|apply|execute|do)\s+(?:\w+\s+){0,3}?migrations?\b", re.IGNORECASE
)
#: A release rolled back ("roll shop-api back to the previous release", idioms read):
#: what a host runs, changed back.
_ROLL_BACK_RELEASE = re.compile(
    r"\b(?:rollback|revert|downgrade)\b[^.;!?\n]{0,60}?\b(?:releases?|deploy(?:ment)?s?"
    r"|versions?|builds?)\b",
    re.IGNORECASE,
)
#: Migrations undone ("roll back the last migration"): what they made is dropped.
_UNDO_MIGRATIONS = re.compile(
    r"\b(?:rollback|revert|undo|downgrade|unapply)\s+(?:\w+\s+){0,3}?migrations?\b", re.I
)
#: A released version taken back from a registry ("unpublish mypkg 1.0.1", "yank 0.3.1"):
#: gone for everyone, where "unpublish the page" only takes a page down.
#: A credential rotated ("rotate the access key for ci-bot", "rotate the API token"): a
#: new one issued in its place, which is access given (the old one's removal is not
#: licensed by it: a person sees that).
_ROTATE_CREDENTIAL = re.compile(
    r"\b(?:rotate|roll|regenerate|reissue|renew)\s+(?:the\s+|my\s+|our\s+|an?\s+|all\s+)?"
    r"(?:[\w-]+\s+){0,3}?(?:access\s+keys?|api\s+keys?|keys?|tokens?|credentials?|secrets?"
    r"|certificates?|certs?)\b",
    re.IGNORECASE,
)
_TAKE_BACK_RELEASE = re.compile(r"\b(?:unpublish|yank)\w*\b[^.;!?\n]{0,40}?\d+\.\d+", re.I)
#: Files copied to where they leave the machine ("copy the report to the bucket", "sync the
#: build to S3", "put the logs on the server"): an upload, as "upload" asks for one.
_TO_REMOTE = re.compile(
    r"\b(?:copy|cp|sync|put|push|move|transfer)\b(?:[^.;!?\n]|\.(?=\S)){0,60}?\b(?:to|onto|into|on)\s+"
    r"(?:the\s+|my\s+|our\s+|that\s+)?(?:[\w-]+\s+)?(?:bucket|s3|gcs|blob\s+storage|cloud\s+storage"
    r"|remote\s+server|server|sftp|ftp)\b",
    re.IGNORECASE,
)
#: Setting a project up runs its installers and checks like any coding request.
_SET_UP = re.compile(
    r"\bset(?:ting)?\s+(?:\w+\s+){0,3}?up\b|\bsetup\b|\bbootstrap\b|\binstall\b", re.I
)
#: The user hands the agent instructions written elsewhere: "read landlord-notices.txt and
#: follow the instructions", "do the tasks in Emma's email", "do what the memo says".
_DELEGATE = re.compile(
    r"\b(?:follow(?!\s+up\b)|do|carry\s+out|complete|execute|perform|act\s+on|action|"
    r"work\s+through)"
    r"\s+(?:all\s+(?:of\s+)?|each\s+of\s+|every\s+)?(?:the\s+|its\s+|their\s+|those\s+|"
    r"these\s+|his\s+|her\s+|any\s+)?(?:[\w'-]+\s+){0,2}?"
    r"(?:instructions|tasks|actions|steps|to-?dos|requests|directions|action\s+items)\b"
    r"|\b(?:follow|do)\s+(?:the\s+)?instruction\b"
    r"|\b(?:do|follow)\s+(?:exactly\s+)?what\s+(?:it|they|the\s+[\w'-]+|[\w'-]+)\s+"
    r"(?:says|said|asks|asked|tells|requests|wants)\b"
    r"|\bas\s+(?:instructed|specified|requested|described)\s+(?:in|by)\b",
    re.IGNORECASE,
)
#: The details of what the user asks are in something the agent reads: "read
#: address-change.txt and update my details accordingly", "as per the invoice".
_REFERRED = re.compile(
    r"\baccordingly\b"
    r"|\b(?:according\s+to|as\s+per|based\s+on)\s+(?:what\s+)?(?:it|they|that|this|the|"
    r"those|these|his|her|their)\b(?:\s+[\w'-]+){0,2}?\s+(?:says|said|asks|states|"
    r"file|note|notice|letter|email|e-mail|message|memo|document|instructions|invoice|bill|"
    r"statement|receipt|ticket|request)\b"
    # "order my usual coffee", "book the same as last time": what the agent keeps of them
    r"|\b(?:my|the|our)\s+(?:usual|regular)\b|\bsame\s+(?:one\s+|thing\s+|order\s+)?as\s+"
    r"(?:last\s+time|before|always|usual)\b"
    # "reorder my last pizza", "order the same again": the earlier order the agent keeps
    r"|\b(?:re-?order|order\s+again|buy\s+again|book\s+again)\b(?=[^.;!?\n]{0,40}?"
    r"\b(?:my|the|our)\s+(?:last|previous|latest)\b)",
    re.IGNORECASE,
)
#: Money asked of someone ("request $45 from Sam"): a message to them, not a payment.
_ASK_FOR_MONEY = re.compile(
    r"\b(?:request|ask\s+(?:\w+\s+)?for|collect)\b[^.;!?\n]{0,40}?\bfrom\b"
    r"|\bsplit\b[^.;!?\n]{0,80}?\bwith\b",  # "split the $120 bill with Tom": their shares
    re.I,
)
#: A sum the user asks to be worked out, not stated: "send them back the difference", "pay
#: the rest", "transfer what is left", "refund what they overpaid".
_RECKONED = re.compile(
    r"\b(?:send|pay|transfer|wire|refund|return|give|repay|reimburse|settle|top\s+up)"
    r"(?:\s+[\w'-]+){0,3}?\s+"
    r"(?:(?:the|any)\s+(?:difference|rest|remainder|balance|excess|surplus|shortfall|"
    r"overpayment|extra|outstanding(?:\s+(?:amount|balance|sum))?)\b"
    r"|what(?:'s|\s+is|\s+was|\s+remains)\s+(?:left|owed|due|outstanding|remaining)\b"
    r"|what\s+(?:i|we|you|they|he|she)\s+(?:owe|overpaid|still\s+owe)\b)",
    re.IGNORECASE,
)
#: A path, a file name or a snake_case identifier (`migrations/0042_add_index.py`).
_IDENTIFIER = re.compile(
    r"(?<![\w/.~-])[\w.~-]*(?:/|\w_\w|\w\.[A-Za-z][\w]{0,5}\b)[\w./~-]*(?![\w/~-])"
)
_QUESTION_START = re.compile(
    r"^\s*(?:what|how|which|where|who|when|why|is|are|was|were|does|do|did|can you tell|"
    r"could you tell|tell me|show me|list|give me)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Licence:
    kinds: frozenset[str]
    """Effects the user asked for (`read` is always allowed unless prohibited)."""
    prohibited: frozenset[str]
    amounts: tuple[float, ...]
    """Numbers the user stated (amounts, counts)."""
    words: frozenset[str]
    """Every word and token the user wrote, for naming the objects a call acts on."""
    read_only: bool
    """The user asked for information only: a question, or "only look"."""
    percents: tuple[float, ...] = ()
    """Percentages the user stated ("refund 20 %", "tip 10 percent")."""
    asked: frozenset[str] = frozenset()
    """The words the user asked with: the request's words less what it only asks about
    (a question's verbs) and verbs used as nouns ("schedule a post": no posting)."""
    containers: frozenset[str] = frozenset()
    """What the user asked to remove something *from* ("remove Dan from the planning
    board" → planning, board): the container is not what is to be deleted."""
    rejected: tuple[float, ...] = ()
    """Amounts the user states only to set aside ("it says 180 but pay 150")."""
    delegated: bool = False
    """The user asked the agent to carry out instructions written elsewhere (a file, an
    email): what those ask is neither in the user's words nor shown to be foreign to them."""
    referred: bool = False
    """The user left the details of what they asked to something the agent reads ("update
    my address accordingly"): the effect is theirs to license, its objects and sums are not
    in their words."""
    reckoned: bool = False
    """The user asked for a sum to be worked out from what the agent reads ("send back the
    difference", "pay what is left"): the sum paid is none they stated."""
    vague: bool = False
    """The user left the action to the agent ("take care of the invoice", "deal with the
    spam"): an effect not licensed may still be what they meant."""
    no_switch_off: bool = False
    """The user forbade switching something off ("dim the lights but don't turn them off"):
    that act is forbidden, not every change a "turn" may name."""

    def permits(self, kind: str) -> bool:
        if kind in self.prohibited:
            return False
        return kind == "read" or kind in self.kinds

    def names_action(self, action: str) -> bool:
        """Whether the user used a word that asks for `action` (`effects.toml`'s
        `[actions]`): "mute #random" names `mute`, not `archive`; a word of `[unasked]`
        takes it back ("an internal note" asks for no public reply)."""
        said = _inflected(self.words)
        if table().unasked.get(action, frozenset()) & said:
            return False
        return bool(table().actions.get(action, {action}) & said)

    def as_dict(self) -> dict[str, Any]:
        return {
            "kinds": sorted(self.kinds, key=_rank),
            "prohibited": sorted(self.prohibited, key=_rank),
            "amounts": list(self.amounts[:8]),
            "read_only": self.read_only,
            **({"delegated": True} if self.delegated else {}),
            **({"referred": True} if self.referred else {}),
            **({"reckoned": True} if self.reckoned else {}),
            **({"vague": True} if self.vague else {}),
        }


@functools.lru_cache(maxsize=1024)
def _inflected(tokens: frozenset[str]) -> frozenset[str]:
    """The words in `tokens`, and their bare forms ("merged" → merge, "closing" → close)."""
    out: set[str] = set()
    for token in tokens:
        for w in re.findall(r"[a-z]+(?:-[a-z]+)*", token):
            out.add(w)
            for end, back in (("s", ""), ("es", ""), ("ed", ""), ("ed", "e"), ("d", ""),
                              ("ing", ""), ("ing", "e")):  # fmt: skip
                if w.endswith(end) and len(w) - len(end) >= 3:
                    out.add(w[: len(w) - len(end)] + back)
    return frozenset(out)


def _rank(kind: str) -> int:
    order = table().strictness
    return order.index(kind) if kind in order else len(order)


EMPTY = Licence(frozenset(), frozenset(), (), frozenset(), read_only=False)


def plain_request(text: str) -> str:
    """`text` with its idioms put plainly ("shoot Maria an email" → "send Maria an
    email"), so that the verb table reads what was asked."""
    for pattern, verb in table().idioms:
        text = pattern.sub(verb, text)
    return text


@functools.lru_cache(maxsize=1024)
def licence_of(request: str) -> Licence:
    """The licence of one request text (the user's messages, joined)."""
    if not request.strip():
        return EMPTY
    text = plain_request(request[:20_000])
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]
    # a question's verbs are what it asks about, not what it asks for: "did Priya reply?"
    # licenses no reply; "can you reply to Priya?" does
    asking = " ".join(s for s in sentences if not _asks_about(s) or _ASKED.search(s))
    asking = _INDIRECT.sub(" ", asking)  # "tell me if it's safe to merge" merges nothing
    asking = _PURPOSE.sub(r"\1", asking)  # "check it builds for publishing" publishes nothing
    asking = _GOING_ON.sub(" ", asking)  # "the api keeps restarting": what happens, no ask
    asking = _noted_self_out(asking)  # "remind me to email Bob" emails nobody
    for _ in range(3):  # "the 5 latest messages": one word at a time
        asking = _ADJECTIVE.sub(r"\1", asking)  # "the open PR", "any new messages" ask for nothing
    # "update my git config", "update the dependencies": a change of settings or of the
    # packages installed, though "config" is read as a noun
    settings = (
        _CONFIGURED_NOUN.search(asking) is not None or _SETS_VARIABLE.search(asking) is not None
    )
    in_file = _SETTINGS_FILE.search(asking) is not None
    asking = _nouns_out(asking)  # "delete my message", "cancel the order": a thing, not an act
    # a path or an identifier names a thing: `0042_add_index.py` asks to add nothing
    found = set(words(_ANSWER_ME.sub(" ", _IDENTIFIER.sub(" ", asking))))
    verbs, strictness = table().verbs, table().strictness
    known = verb_words()
    # "reinstall", "rerun", "redeploy": the verb again
    found |= {w[2:] for w in found if w.startswith("re") and w not in known and w[2:] in known}
    # "free up space by clearing the cache", "start by deleting the logs": the verb's -ing
    found |= {b for w in found if w not in known and (b := _bare_of_ing(w, known))}
    kinds: set[str] = {k for k in strictness if found & verbs[k]}
    if settings and "modify" in kinds:
        kinds.add("configure")
    if "configure" in kinds and in_file:
        # "enable strict mode in tsconfig.json": the setting is changed by editing its file
        kinds.add("modify")
    if (
        _LET_KNOW.search(asking)
        or _WRITE_TO.search(asking)
        or _PING.search(asking)
        or _BILL_PARTY.search(asking)
    ):
        kinds.add("send")
    if _LET_ACCESS.search(asking) or _MAKE_PUBLIC.search(asking):
        kinds.add("grant")
    if (
        "send" in kinds
        and (found & _CURRENCY or _CURRENCY_SIGN.search(asking) or _IBAN.search(asking))
        and not _ASK_FOR_MONEY.search(text)
        and not _ASK_FOR_MONEY.search(request[:20_000])  # before idioms made "split" a send
    ):
        kinds.add("pay")  # "send 50 EUR to Maria", "send Léa 15; her IBAN is …": a payment
    if _MOVE_MONEY.search(asking) and _stated_amounts(asking):
        kinds.add("pay")  # "move 300 from savings to checking": money between accounts
    if _SEND_SUM.search(asking):
        kinds.add("pay")  # "send 20 to Tom for lunch", "send Tom 20 back": a sum, no noun
    if _REMIND_OTHERS.search(asking):
        kinds.add("send")  # "remind the team to post their updates": told, now or later
    if _ADD_TO_GROUP.search(asking):
        kinds.add("grant")  # "add Zoe to #launch": membership is access
    if _CORRECTION.search(asking) or _RUN_MIGRATIONS.search(asking):
        kinds.add("modify")  # "her email has a typo: it should be …" asks for the fix
    if _TO_REMOTE.search(asking):
        kinds.add("send")  # `gsutil cp report.pdf gs://…`, `scp … host:`: an upload
    if _ROTATE_CREDENTIAL.search(asking):
        kinds |= {"grant", "create"}  # a new key issued in the old one's place
    if _TAKE_BACK_RELEASE.search(asking):
        kinds.add("delete")  # `npm unpublish mypkg@1.0.1`, `gem yank mygem -v 1.2.0`
    if _UNDO_MIGRATIONS.search(asking):
        kinds.add("delete")  # `alembic downgrade -1`, `rails db:rollback`
    if _ROLL_BACK_RELEASE.search(asking):
        kinds.add("configure")  # `heroku rollback`: what the host runs, changed back
    if found & _CODING or _SET_UP.search(asking):
        kinds |= {"modify", "create", "execute"}
    if kinds & {"create", "modify"}:
        # tools split making and changing differently (`schedule_transfer` creates,
        # `set_folder_visibility` modifies): asking for either is asking for a change
        kinds |= {"create", "modify"}
    if found & _DOWNLOAD:
        kinds.add("create")
    # "why does the build fail?": running the checks is how a question about them is answered
    checks = bool(set(words(text)) & _CHECKS)
    prohibited: set[str] = set()
    # a way of sending forbidden beside a send asked in other words ("reply to Bo, don't
    # forward it"): that act is forbidden (`_extent` holds tools named for it), not the reply
    beside = set(words(_PROHIBITION.sub(" ", asking))) & verbs["send"]
    switched_off = [m.span() for m in _NO_SWITCH_OFF.finditer(text)]
    for match in _PROHIBITION.finditer(text):
        verb = match.group(1).lower()
        if any(a <= match.start() < b for a, b in switched_off):
            continue  # the switch off alone is forbidden (`no_switch_off`)
        if verb in SENDING_ACTS and beside - SENDING_ACTS - {verb} and "send" not in prohibited:
            continue
        prohibited |= _changes_named(verb)
    for match in _WITHOUT_ANY.finditer(text):  # "without upgrading anything"
        prohibited |= _changes_named(_bare_of_ing(match.group(1).lower(), verb_words()))
    for match in _MYSELF.finditer(text):  # "I will send it myself": not the agent's to do
        prohibited |= _changes_named(match.group(1).lower())
    # an action named only to forbid it is not asked for ("don't delete anything")
    kinds -= prohibited
    read_only = bool(_ONLY_READ.search(_READ_ONLY_ACCESS.sub(" ", _MADE_READ_ONLY.sub(" ", text))))
    asked = kinds - {"read"}
    # an action whose verb no table knows ("tidy up the README") licenses nothing, but it
    # is not a request for information either: what follows it is asked about, not denied
    unknown = any(_unknown_action(s) for s in sentences)
    # what the instructions ask is unknown here, not nothing: no read-only request
    delegated = any(
        _DELEGATE.search(s) for s in sentences if not s.rstrip().endswith("?") or _ASKED.search(s)
    )
    if read_only:
        prohibited |= set(EFFECT_KINDS) - {"read", "unknown"}
    elif not asked and not unknown and not delegated:
        read_only = True
        # running something is how many questions are answered (`manage.py
        # showmigrations`): not licensed, so a person looks, but not ruled out either
        prohibited |= set(EFFECT_KINDS) - {"read", "unknown", "execute"}
        if checks:
            kinds.add("execute")
    amounts = tuple(_stated_amounts(text))
    tokens = frozenset(t.lower() for t in re.findall(r"[\w@.:/+-]+", text))
    percents = tuple(float(p) for p in _PERCENT.findall(text)[:8])
    containers = frozenset(
        w
        for m in _FROM_CONTAINER.finditer(asking)
        for w in re.findall(r"[a-z0-9]+", (m.group(1) or m.group(2)).lower())
        if len(w) > 1 and w not in _ARTICLES
    )
    if _STOP_SHARING.search(asking):
        containers |= _SHARED_THINGS  # the thing stays, whatever the tool calls it
    return Licence(
        frozenset(kinds),
        frozenset(prohibited),
        amounts,
        tokens | found,
        read_only,
        percents,
        frozenset(found),
        containers,
        _rejected_amounts(text),
        delegated,
        bool(_REFERRED.search(text[:20_000])),
        bool(_RECKONED.search(text[:20_000])),
        bool(_HANDLE.search(asking)),
        no_switch_off=bool(switched_off),
    )


#: A word right after a determiner or a possessive is a noun ("my message", "the order",
#: "Jonas's email"): it names what an action is on, not the action.
_AFTER_DETERMINER = re.compile(
    # "my git config", "the nginx settings": a tool's or a place's name before the noun
    r"\b(?P<lead2>\w+\s+)?(?:my|your|our|his|her|their|the)\s+(?:git|nginx|apache|ssh|dns"
    r"|docker|npm|pip|shell|bash|zsh|vim|vscode|editor|browser|router|wifi|network|cron"
    r"|system|account|app|server|project|repo|ci|build|test|email|mail|calendar|phone)"
    r"\s+(?P<named>config|configuration|settings|setup|preferences|schedule|profile)\b"
    r"|\b(?P<lead>\w+\s+)?(?:the|a|an|my|your|our|his|her|their|this|that|these|those|its"
    r"|each|every|all|any|some|both|on|via|through|using)\s+(?P<noun>[a-z]+)\b"
    r"|\b\w+'s\s+(?P<owned>[a-z]+)\b",
    re.IGNORECASE,
)
#: A file settings are kept in, by its name (`tsconfig.json`, `config/dev.yaml`, `.env`).
_SETTINGS_FILE = re.compile(
    r"(?<![\w.-])[\w./-]*\.(?:json|jsonc|ya?ml|toml|ini|cfg|conf|env|properties|xml|py|js|ts)"
    r"(?![\w-]|\.\w)|(?<![\w.-])\.env\b",
    re.IGNORECASE,
)
#: Things a change of configures: settings, and the packages a project installs.
_CONFIGURED_NOUN = re.compile(
    r"\b(?:config|configuration|settings|setup|preferences|dependencies|deps|packages"
    r"|libraries)\b",
    re.IGNORECASE,
)
#: A preposition before a service or a channel ("on Venmo", "via email", "through
#: Zelle"): the word after it is the means, not the act.
_PLATFORM_WORD = re.compile(r"(?:on|via|through|using)\s", re.IGNORECASE)
#: Verbs that take the act as their object ("make a payment", "send the invite", "give her
#: access"): the noun after them is what is asked for.
_LIGHT = frozenset(
    ["make", "do", "place", "put", "give", "leave", "issue", "initiate", "send", "set", "get",
     "grant", "file", "submit", "process", "approve", "start", "execute", "complete", "finish",
     "confirm", "authorise", "authorize", "accept", "retry", "redo", "repeat", "go", "take"]
)  # fmt: skip


def _changes_named(verb: str) -> set[str]:
    """The kinds of change a verb names (reading is never ruled out)."""
    verbs = table().verbs
    return {k for k in table().strictness if k != "read" and verb in verbs[k]}


def _bare_of_ing(word: str, known: frozenset[str]) -> str:
    """The verb a word ending in -ing is made of, if the table knows it ("clearing" →
    clear, "dropping" → drop, "archiving" → archive); else ""."""
    if not word.endswith("ing") or len(word) < 6:
        return ""
    stem = word[:-3]
    for bare in (stem, stem + "e", stem[:-1] if len(stem) > 3 and stem[-1] == stem[-2] else ""):
        if bare and bare in known:
            return bare
    return ""


def _nouns_out(text: str) -> str:
    """`text` less the verbs used as nouns after a determiner, unless a light verb takes
    them: "schedule a message" asks for no message to be sent now, "make a payment" pays."""
    known = verb_words(reads=False)

    def keep_or_drop(match: re.Match[str]) -> str:
        noun = (match.group("noun") or match.group("owned") or match.group("named") or "").lower()
        lead = match.group("lead") or match.group("lead2") or ""
        before = lead.strip().lower()
        if (noun not in known and not _bare_of_ing(noun, known)) or before in _LIGHT:
            return match.group(0)
        if _PLATFORM_WORD.match(match.group(0)[len(lead) :]) and noun not in known:
            return match.group(0)  # "work on fixing the bug": an act after "on", not a thing
        return match.group(0)[: -len(noun)] + "_"

    def modifier_out(match: re.Match[str]) -> str:
        verb = match.group("verb").lower()
        if verb not in known:
            return match.group(0)
        return match.group(0)[: -len(verb)] + "_"

    return _MODIFIER_VERB.sub(modifier_out, _AFTER_DETERMINER.sub(keep_or_drop, text))


#: A verb that names a kind of thing before the thing ("the password reset ticket", "a
#: delete request", "the nightly backup job"): the ticket is closed, nothing is reset.
_MODIFIER_VERB = re.compile(
    r"\b(?:the|a|an|my|our|your|his|her|their|this|that)\s+[a-z]+\s+(?P<verb>[a-z]+)"
    r"(?=\s+(?:ticket|request|link|email|form|button|page|flow|job|script|task|issue|bug|token"
    r"|code|notice|reminder|confirmation|policy|rule|step|screen|endpoint|log|report|template"
    r"|workflow|queue|window|feature|option|setting)s?\b)",
    re.IGNORECASE,
)


#: Words that say which of a kind of thing ("my unread emails", "the 5 latest messages",
#: "my last payment"): dropped after a determiner, so the noun that follows is read as one.
_ADJECTIVE = re.compile(
    r"\b(the|all|any|some|both|my|our|your|their|those|these|its|still|currently|an?)\s+"
    r"(?:open|new|draft|scheduled|shared|pending|archived|deleted|failed|failing|unread"
    r"|latest|last|recent|newest|oldest|old|older|newer|earlier|previous|first|next"
    r"|incoming|outgoing|sent|received|unanswered|important|starred|recurring|upcoming"
    r"|past|outstanding|overdue|unpaid|daily|weekly|monthly|other|same|urgent|direct"
    r"|\d+|two|three|four|five|six|seven|eight|nine|ten|few|many|several)\b",
    re.IGNORECASE,
)
#: What something is doing or keeps doing, told as a state ("the api keeps restarting",
#: "the cron job was deleting my logs"): the verb describes, it does not ask ("keep
#: running the tests" asks, and is not matched).
_GOING_ON = re.compile(
    r"\b(?:keeps|kept|is|are|was|were|been|'s|'re)\s+(?:\w+ly\s+)?(?:still\s+)?\w+ing\b",
    re.IGNORECASE,
)
#: An indirect question: what follows "check whether" or "tell me if" is asked about.
_INDIRECT = re.compile(
    r"\b(?:tell|show|let)\s+(?:me|us)(?:\s+know)?\s+(?:if|whether)\b[^,.;!?]*"
    r"|\b(?:check|see|find out|ask|know|confirm|verify|wonder|sure|decide)\s+(?:if|whether)\b"
    r"[^,.;!?]*"
    # "check who has access to the prod account": who holds it, not a grant
    r"|\b(?:check|see|find out|look up|tell me|show me|list)\s+(?:who|whom|which\s+\w+)\s+"
    r"(?:has|have|had|can|could|is|are)\b(?:(?!\b(?:and|then)\b)[^,.;!?])*"
    # "tell me how to install it", "explain how to rotate the key": the way, not the act
    r"|\b(?:(?:tell|show|teach|remind)\s+(?:me|us)|explain(?:\s+to\s+(?:me|us))?)\s+how\s+"
    r"(?:to|I|we|you|one)\b(?:(?!\b(?:and|then)\b)[^,.;!?])*",
    re.IGNORECASE,
)
#: What a thing is readied or checked for ("check the crate builds for publishing", "get
#: the post ready to send"): the purpose of what is asked, not a second ask.
#: What the user is to be reminded of, or puts on their own list: the reminder's words,
#: not acts asked of the agent ("remind me to email Bob", "add a todo to cancel the gym").
_NOTED_SELF = re.compile(
    r"(\bremind\s+(?:me|us|myself)|\b(?:a|my)\s+(?:reminder|todo|to-do|task|note)(?:\s+for\s+me)?)"
    r"\s+(?:to|that|about)\s+[^.;!?\n]{1,200}",
    re.IGNORECASE,
)


def _noted_self_out(text: str) -> str:
    """`text` less what the user is to be reminded of, up to an act asked beside it
    ("remind me to pay rent and pay the power bill now" still pays the power bill)."""
    acts = verb_words() - table().verbs["read"]

    def cut(found: re.Match[str]) -> str:
        tail = found.group(0)[len(found.group(1)) :]
        beside = next(
            (
                m.start()
                for m in re.finditer(r"\s+(?:and|then)\s+(?:also\s+|then\s+)?(\w+)", tail)
                if m.group(1).lower() in acts
            ),
            None,
        )
        return found.group(1) + ("" if beside is None else tail[beside:])

    return _NOTED_SELF.sub(cut, text)


#: Ways of sending that a user forbids one by one ("don't forward it", "don't cc anyone",
#: "don't tag anyone") while asking for a send of another way: not every send.
SENDING_ACTS = frozenset(
    ["forward", "fwd", "cc", "bcc", "call", "phone", "ring", "tag", "mention", "ping", "dm",
     "notify", "tweet", "broadcast"]
)  # fmt: skip
_PURPOSE = re.compile(
    r"(\b(?:check|checks|verify|validate|test|prepare|ensure|make\s+sure|ready)\b"
    r"[^.;!?\n]{0,60}?)\b(?:for\s+\w+ing|(?<=ready )to\s+\w+)\b",
    re.IGNORECASE,
)
_ASKS_ABOUT = re.compile(
    r"^\s*(?!(?:how|what)\s+about\b)(?:what|what's|whats|how|which|where|who|whom|whose|when|why|is|isn't|are|aren't|"
    r"was|were|does|doesn't|do|don't|did|didn't|has|have|had|should|shall|may|might|am)\b",
    re.IGNORECASE,
)


def _asks_about(sentence: str) -> bool:
    """A question whose verbs are what it asks about ("did Priya reply?"), not an imperative
    that ends in a question mark ("set up the transfer for me?")."""
    return bool(_ASKS_ABOUT.match(sentence))


def _is_question(sentence: str) -> bool:
    return sentence.rstrip().endswith("?") or bool(_QUESTION_START.match(sentence))


#: Words before an imperative's verb ("please", "can you", "then").
_LEAD = frozenset(
    [
        "please",
        "kindly",
        "now",
        "then",
        "also",
        "and",
        "so",
        "ok",
        "okay",
        "hey",
        "hi",
        "first",
        "next",
        "finally",
        "lastly",
        "can",
        "could",
        "would",
        "will",
        "you",
        "go",
        "ahead",
        "quickly",
    ]
)
#: Words that start a statement, not a command ("my build fails", "the file is big").
_CONTEXT = frozenset(
    [
        "i",
        "i'm",
        "i've",
        "i'd",
        "my",
        "me",
        "mine",
        "we",
        "we're",
        "our",
        "us",
        "it",
        "it's",
        "its",
        "this",
        "that",
        "these",
        "those",
        "the",
        "a",
        "an",
        "there",
        "here",
        "he",
        "she",
        "they",
        "his",
        "her",
        "their",
        "your",
        "yesterday",
        "today",
        "tomorrow",
        "thanks",
        "thank",
        "hello",
        "sorry",
        "yes",
        "no",
    ]
)
_ASKED = re.compile(r"\b(?:can|could|would|will)\s+you\s+(?:please\s+)?([a-z]+)", re.I)
_INFO_VERBS = frozenset(["see", "help", "give", "tell", "show", "let"])


def _unknown_action(sentence: str) -> bool:
    """Whether a sentence asks for something no verb table knows: an imperative ("Tidy
    up the README"), or "can you tidy…?". A question about something, a statement and a
    request to look are not actions."""
    asked = _ASKED.search(sentence)
    if asked:
        return _unknown_verb(asked.group(1).lower())
    if _is_question(sentence):
        return False
    # each clause's verb: "read the file and follow what it says"
    return any(_clause_unknown(c) for c in _CLAUSE.split(sentence))


_CLAUSE = re.compile(r"\b(?:and|then)\b|;", re.I)


def _clause_unknown(clause: str) -> bool:
    found = re.findall(r"[a-z']+", clause.lower())
    for n, word in enumerate(found):
        if word in _LEAD:
            continue
        if word in ("don't", "dont", "never") or found[n : n + 2] == ["do", "not"]:
            return False  # a prohibition ("don't push anything"), read as one above
        if word == "give" and found[n + 1 : n + 2] not in (["me"], ["us"], []):
            return True  # "give the dog walker a door code": something handed to another
        return word not in _CONTEXT and _unknown_verb(word)
    return False


def _unknown_verb(word: str) -> bool:
    return word not in _INFO_VERBS and kind_of_words([word]) == "unknown"


_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000, "dozen": 12, "half": 2,
    "twice": 2, "double": 2, "triple": 3, "halve": 2, "both": 2, "third": 3, "thirds": 3,
    "quarter": 4, "quarters": 4,
    # a note by its value ("tip the driver a tenner", "a fiver each")
    "fiver": 5, "tenner": 10,
}  # fmt: skip
_NUMBER_WORD = re.compile(rf"\b(?:{'|'.join(_NUMBER_WORDS)})\b", re.I)
#: A count of hundreds or thousands ("fifteen hundred", "two thousand", "3 grand").
_SCALED = re.compile(
    rf"\b({'|'.join(w for w, n in _NUMBER_WORDS.items() if 1 <= n <= 90)}|\d+(?:\.\d+)?)"
    r"\s+(hundred|thousand|grand)\b",
    re.I,
)
_DOZENS = re.compile(r"\b(two|three|four|five|six|ten)\s+dozen\b", re.I)


_NUM = r"[$€£]?\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w.]\d|\w)"
#: An amount the user states only to set it aside: "pay 150, not 180", "150 instead of
#: 180", "the invoice says 180 but we agreed on 150".
_REJECTED = re.compile(
    rf"\b(?:not|n't|rather than|instead of|except)\s+(?:the\s+|a\s+)?{_NUM}"
    r"|\b(?:says|said|shows|lists|states|reads|quotes|asks for|charges?|bills?)\s+"
    rf"(?:for\s+|us\s+|me\s+)?{_NUM}[^.;!?\d]{{0,24}}?\bbut\b",
    re.IGNORECASE,
)


def _rejected_amounts(text: str) -> tuple[float, ...]:
    out = []
    for a, b in _REJECTED.findall(_CLOCK_OR_DATE.sub(" ", text)[:20_000])[:8]:
        try:
            out.append(float((a or b).replace(",", "")))
        except ValueError:
            continue
    return tuple(out)


#: A pick among things counted in view ("the cheaper of the two hotels", "either of the
#: three"): how many there are to choose from, not how many to take.
_PICK_AMONG = re.compile(
    r"\b(?:\w+(?:er|est)|one|either|neither|whichever|any|each)\s+of\s+(?:the|these|those)\s+"
    r"(?:two|three|four|five|six|\d)\b",
    re.IGNORECASE,
)


def _stated_amounts(text: str) -> list[float]:
    """The amounts `text` states, less its times, dates and names ("the 8:15 train" and
    "bill-december-2023.txt" state none) and the counts it picks among."""
    return _amounts(_PICK_AMONG.sub(" ", _CLOCK_OR_DATE.sub(" ", _IDENTIFIER.sub(" ", text))))


def _amounts(text: str) -> list[float]:
    out = [float(_NUMBER_WORDS[w.lower()]) for w in _NUMBER_WORD.findall(text)][:8]
    # "two dozen eggs": the count is the product
    out += [_NUMBER_WORDS[w.lower()] * 12.0 for w in _DOZENS.findall(text)][:4]
    # "pay the plumber fifteen hundred", "3 grand": so is a count of hundreds or thousands
    out += [
        float(_NUMBER_WORDS.get(n.lower(), 0) or n) * (100 if s.lower() == "hundred" else 1000)
        for n, s in _SCALED.findall(text)[:4]
    ]
    for whole, frac, thousands in _AMOUNT.findall(text):
        digits = re.sub(r"[,\s]", "", whole)
        try:
            value = float(f"{digits}.{frac}" if frac else digits)
        except ValueError:
            continue
        out.append(value * 1000 if thousands else value)
    return out[:32]


def read_messages(messages: Sequence[Any] | str | None) -> tuple[str, list[str], str, str]:
    """(the user's words, the tool results since the user last spoke, the request whose
    licence covers the calls made now, the user's latest turn), from one reading of the
    messages.

    The agent's question the user's latest turn says yes to counts as theirs. The request
    is the user's latest turn, with the turns before it while it only leans on them ("yes,
    go ahead", "and don't push anything", "the budget is 500"): an earlier turn's "delete
    the spam" licenses no delete once the user has asked something else ("what is on my
    calendar?")."""
    turns, after = _turns(messages)
    if not turns:
        return "", after[-1], "", ""
    proposal = _as_request(_proposal_confirmed(messages, turns[-1]))
    if proposal and _bare_ask(proposal):
        # "Confirm?", "Shall I go on?": a yes to carrying on with what the user asked
        proposal = ""
    said = "\n".join([proposal, *turns] if proposal else turns)
    if proposal:
        # the yes is to the agent's proposal, not to whatever the user asked before it;
        # what the agent read before proposing is in view, as it was for the proposal
        seen = [*after[-2], *after[-1]] if len(after) > 1 else after[-1]
        return said, seen, f"{proposal}\n{turns[-1]}", turns[-1]
    start = len(turns) - 1
    # "no, wait", "cancel that": what the turns before asked for is withdrawn
    declined = _declines(turns[-1])
    while start > 0 and not declined and _leans_on_the_last(turns[start]):
        start -= 1
    # a request that leans on earlier turns ("looks good, send it") is made with the
    # results of the calls made for them (the draft the first turn asked for)
    results = [r for turn in after[start:] for r in turn]
    return said, results, "\n".join(turns[start:]), turns[-1]


#: How an agent proposes: "Should I …?", "Do you want me to …?", "Shall we …?".
_PROPOSING = re.compile(
    r"^\W*(?:so\s+|then\s+|ok(?:ay)?,?\s+)?(?:(?:should|shall|can|may)\s+(?:i|we)"
    r"|(?:do|would)\s+you\s+(?:want|like)\s+me\s+to|(?:want|like)\s+me\s+to)\s+",
    re.IGNORECASE,
)


def _as_request(question: str) -> str:
    """The agent's proposal as the request the user's yes makes it: "Should I delete
    it?" is "delete it." (as a question, it would ask about a delete, not for one)."""
    before, _, ask = question.rpartition(". ") if ". " in question else ("", "", question)
    if not ask or not _PROPOSING.match(ask):
        return question
    request = _PROPOSING.sub("", ask, count=1).rstrip(" ?") + "."
    return f"{before}. {request}" if before else request


def earlier_results(messages: Sequence[Any] | str | None) -> list[str]:
    """The tool results of the last earlier turn that had any, when the latest turn has
    none: the listing the user saw before asking ("what files are in Documents?" —
    "delete the old resume draft")."""
    _, after = _session(messages)
    if len(after) < 2 or after[-1]:
        return []
    return next((turn for turn in reversed(after[:-1]) if turn), [])


def request_licence(asked: str, latest_turn: str | None = None) -> Licence:
    """The licence of the request, where its latest turn lifts what an earlier turn it
    leans on forbade: after "draft it, but don't send it", "looks good, send it" asks for
    the send it had ruled out. Without the latest turn, the request's last line is read
    as it."""
    licence = licence_of(asked)
    turn = asked.rsplit("\n", 1)[-1] if latest_turn is None else latest_turn
    if turn.strip() != asked.strip() and _AMENDS.search(turn):
        licence = _amended(licence, asked, turn)
    if not licence.prohibited or turn.strip() == asked.strip():
        return licence
    latest = licence_of(turn)
    lifted = (latest.kinds - {"read"}) & licence.prohibited
    if not lifted or latest.prohibited & lifted:
        return licence
    # what the latest turn asks for is asked, though the earlier words had ruled it out
    # ("only read the config" — "ok, now set the timeout to 30")
    return dataclasses.replace(
        licence,
        kinds=licence.kinds | lifted,
        prohibited=licence.prohibited - lifted,
        read_only=licence.read_only and latest.read_only,
    )


def _amended(licence: Licence, asked: str, turn: str) -> Licence:
    """The licence with the one sum an amendment replaces set aside: after "send Maria 40
    EUR" — "actually make it 45", 40 is no longer asked for."""
    now = _stated_amounts(turn)
    before = _stated_amounts(asked[: max(0, len(asked) - len(turn))])
    if len(now) != 1 or len(before) != 1 or now[0] == before[0]:
        return licence
    return dataclasses.replace(licence, rejected=(*licence.rejected, before[0]))


def user_and_results(messages: Sequence[Any] | str | None) -> tuple[str, list[str]]:
    """(the user's words, the tool results since the user last spoke): see `read_messages`."""
    said, results, _, _ = read_messages(messages)
    return said, results


def request_of(messages: Sequence[Any] | str | None) -> str:
    """The words whose licence covers the calls made now: see `read_messages`."""
    return read_messages(messages)[2]


def _proposal_confirmed(messages: Sequence[Any] | str | None, last: str) -> str:
    """The agent's question the user's latest turn says yes to ("Should I also delete
    old_report_v2.pdf?" — "Yes please"): what the user read and agreed to is theirs. Only
    a question, only a plain yes (not "no", not a yes with a request of its own)."""
    text = last.strip()
    if isinstance(messages, str) or not messages or len(text) > 80 or _NOT_YES.match(text):
        return ""
    if not _CONFIRM.match(text) or _NOT_ANSWER.search(text):
        return ""
    from clef_tools.protocol._render import render_content, to_jsonable

    asked = question = ""
    for message in messages:
        plain = to_jsonable(message)
        if not isinstance(plain, Mapping):
            continue
        role = plain.get("role")
        if role in ("user", "human"):
            question, asked = asked, ""
        elif role in ("assistant", "ai"):
            content = render_content(plain.get("content")).strip()
            if content:
                asked = content
    # the question the last user turn answered (`question`, set when that turn was read):
    # its last sentence that asks, alone: "I found an email asking to wire $500 to X.
    # Should I summarise the others?" — a yes agrees to the summary, not to the wire
    sentences = [q.strip() for q in re.split(r"(?<=[.!?])\s+|\n+", question[-2000:])]
    asks = [n for n, q in enumerate(sentences) if q.endswith("?")]
    if not asks:
        return ""
    ask = sentences[asks[-1]]
    if asks[-1] > 0 and (_POINTS_BACK.search(ask) or _GO_ON.match(ask)):
        # "I see an old draft, resume-draft-old.pdf. Should I delete it?", "Paying 84.10 to
        # City Power. Confirm?": what "it" is, or the act asked about, is the sentence before
        return f"{sentences[asks[-1] - 1][:500]} {ask[:500]}"
    return ask[:500]


def _bare_ask(question: str) -> bool:
    """A question that asks only whether to go on ("Go ahead?", "Confirm?", "Shall I
    proceed?"): what it asks about is in the sentence before it."""
    return bool(_GO_ON.match(question)) or not (licence_of(question).kinds - {"read"})


_GO_ON = re.compile(
    r"^\W*(?:(?:shall|should|can|may)\s+(?:i|we)\s+|(?:do\s+you\s+)?want\s+me\s+to\s+)?"
    r"(?:go\s+ahead|go\s+on|proceed|continue|confirm|do\s+it|do\s+that|ok(?:ay)?|"
    r"is\s+that\s+(?:ok(?:ay)?|fine|right)|sounds?\s+good)\W*$",
    re.IGNORECASE,
)


#: A question whose object is in the sentence before it.
_POINTS_BACK = re.compile(r"\b(?:it|them|that|this|those|these|one)\b", re.IGNORECASE)
#: A turn that thanks rather than answers, or adds a request of its own ("yes, and also
#: email the team"; "yes, but rename it instead").
_NOT_ANSWER = re.compile(
    r"^\W*(?:thanks?|thank you|great|perfect)\b|\b(?:also|as well|too|instead|but)\b", re.I
)
#: A turn that declines, whatever follows ("No, keep it").
_NOT_YES = re.compile(r"^\W*(?:no|nope|nah|don'?t|do not|stop|cancel|wait|hold on)\b", re.I)


#: A turn that confirms what was asked before it.
_CONFIRM = re.compile(
    r"^\W*(?:yes|yep|yeah|yup|ok(?:ay)?|sure|go ahead|do it|do that|proceed|please do|"
    r"confirm(?:ed)?|approved?|sounds good|looks good|lgtm|go for it|continue|carry on|"
    r"that'?s (?:right|correct|fine)|correct|right|perfect|great|thanks?|thank you)\b",
    re.IGNORECASE,
)


#: A turn that takes back what was asked before it ("no, wait", "cancel that", "hold on").
_DECLINE = re.compile(
    r"^\W*(?:no|nope|nah|wait|hold\s+on|hang\s+on|stop|cancel(?:\s+(?:that|it|this))?"
    r"|never\s*mind|forget\s+(?:it|that|about\s+it)|not\s+(?:yet|now)"
    r"|don'?t\s+(?:do\s+(?:that|it|this)|bother))\W*(?:$|,|\.|!|\s)",
    re.IGNORECASE,
)
#: A turn that asks for information of its own ("now show me my drafts", "ok, what's the
#: balance?"), not for more of what came before.
_ASKS_INFO = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|now|and|also|then|so|great|thanks?|thank\s+you)\W+)*"
    r"(?:show|list|tell|give\s+me|what|which|who|where|when|how|find|look|search|display)\b",
    re.IGNORECASE,
)


#: A turn that changes a detail of the request before it ("actually make it 45", "make
#: it 4 people", "change that to Friday", "no, try 6:30", "… instead").
_AMENDS = re.compile(
    r"^\W*(?:(?:actually|oh|sorry|oops|ok(?:ay)?|wait|no|hmm|and)\W+)*"
    r"(?:make\s+(?:it|that|them)\b|change\s+(?:it|that)\s+to\b|(?:it|that)\s+should\s+be\b"
    r"|(?:try|go\s+(?:with|for))\s+(?:at\s+|on\s+|for\s+)?(?=\d|(?:mon|tues|wednes|thurs|fri"
    r"|satur|sun)day|tomorrow|tonight|noon)"
    # "no wait, the 10am one": the pick before, another one of the same
    r"|(?:the|that)\s+(?:[\w:.$-]+\s+){0,3}?ones?\W*$)"
    r"|\binstead\W*$",
    re.IGNORECASE,
)


def amends(turn: str) -> bool:
    """Whether a turn changes a detail of the request before it ("actually make it 30",
    "no wait, the 10am one"): the detail it gives replaces the earlier one."""
    return _AMENDS.search(turn[:20_000]) is not None


def _declines(turn: str) -> bool:
    """Whether a turn takes back what came before and asks for nothing else ("no, keep
    it" declines; "no, delete the other one" asks for a delete of its own)."""
    if _AMENDS.search(turn):
        return False  # "no, try 6:30": the request, with a detail changed
    return bool(_DECLINE.match(turn)) and not (licence_of(turn).kinds - {"read"})


def _leans_on_the_last(turn: str) -> bool:
    """Whether a turn asks for nothing of its own: a confirmation, or a statement that
    adds a detail or a limit to the request before it. A question asks for itself, and so
    does an explicit "only look"."""
    text = turn.strip()
    if not text:
        return True
    if text.endswith("?") or _ONLY_READ.search(text) or _ASKS_INFO.match(text):
        return False
    if _AMENDS.search(text):
        return True  # "actually make it 45": the request before, with this changed
    if _CONFIRM.match(text) and len(text) <= 80:
        return True
    return not (licence_of(text).kinds - {"read"})


def _turns(messages: Sequence[Any] | str | None) -> tuple[list[str], list[list[str]]]:
    """(each of the user's turns, the tool results after each turn). With no turn, one
    list: the results of a session whose user never spoke."""
    said, after = _session(messages)
    # results before the first turn belong to no request
    return said, after[1:] if said else after


def _session(messages: Sequence[Any] | str | None) -> tuple[list[str], list[list[str]]]:
    """(each of the user's turns, the tool results before the first turn and after each)."""
    from clef_tools.protocol._render import render_content, to_jsonable

    if messages is None:
        return [], [[]]
    if isinstance(messages, str):
        return [messages], [[], []]
    said: list[str] = []
    after: list[list[str]] = [[]]
    for message in messages:
        plain = to_jsonable(message)
        if not isinstance(plain, Mapping):
            continue
        role = plain.get("role")
        if role in ("user", "human"):
            said.append(render_content(plain.get("content")))
            after.append([])  # a new turn: its own results follow it
        elif role == "tool":
            after[-1].append(result_text(plain.get("content")))
    return said, after
