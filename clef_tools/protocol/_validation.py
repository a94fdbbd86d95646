"""One validation pass for every entry point (Python, LangChain, wire JSON, MCP, HTTP).

It collects every problem instead of stopping at the first, so a caller fixing a request
sees all bad fields at once, each named by its path (`questions.route.criteria`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage
from pydantic import ValidationError

import clef_tools.protocol._limits as L
from clef_tools.decisions import Box, Choice, Noul, Score, State
from clef_tools.protocol._errors import FieldIssue, IssueList, RequestValidationError
from clef_tools.protocol._media import IMAGE_TYPES, MEDIA_TYPES, media_parts
from clef_tools.protocol._render import render_state

__all__ = [
    "DecisionRequest",
    "OversizeNumber",
    "json_int",
    "loc_part",
    "option_labels",
    "printable",
    "scan_json",
    "validate_request",
]

#: Integers beyond this many bits cannot be rendered to text at all past Python's
#: 4300-digit guard, and mean nothing to a model anyway.
_MAX_INT_BITS = 1024
#: Questions are small: their text fields nest at most this deep (criteria descriptions).
_MAX_QUESTION_DEPTH = 8
_LOC_PART_CHARS = 120


#: Integer literals longer than this become `OversizeNumber` when parsed (`json_int`).
_MAX_INT_DIGITS = 400


def json_int(digits: str) -> int | OversizeNumber:
    """`json.loads(..., parse_int=json_int)`: an over-long integer is kept as a marker for
    validation to name its field, instead of the parser failing on the whole body."""
    return int(digits) if len(digits) <= _MAX_INT_DIGITS else OversizeNumber(digits)


class OversizeNumber:
    """A JSON number too long to convert (the wire parser returns it instead of failing,
    so validation can name the field that holds it)."""

    def __init__(self, digits: str) -> None:
        self.digits = len(digits)


AnyQuestion = Noul | Choice | Score | Box
_QUESTION_MODELS: dict[str, type[AnyQuestion]] = {
    "noul": Noul,
    "choice": Choice,
    "score": Score,
    "box": Box,
}


Loc = tuple[str | int, ...]


class StateFacts:
    """What validation learnt about a state, kept so that no backend walks it again: its
    approximate size, where its media parts are (relative to the state, with their type),
    and its rendered text, made once on first use. Requests derived from one request (the
    cascade's halves, a state without its images) share it."""

    __slots__ = ("_media", "_text", "size", "state")

    def __init__(
        self, state: object, size: int, media: tuple[tuple[Loc, str], ...] | None = None
    ) -> None:
        self.state = state
        self.size = size
        self._media = media
        self._text: str | None = None

    @classmethod
    def of(cls, state: object) -> StateFacts:
        """For a request built without `validate_request` (a backend's own sub-request):
        nothing is looked at until asked."""
        return cls(state, 0)

    @property
    def media(self) -> tuple[tuple[Loc, str], ...]:
        """Each media part's place (relative to the state) and type, in reading order."""
        if self._media is None:
            self._media = () if isinstance(self.state, str) else _media_of(self.state)
        return self._media

    @property
    def text(self) -> str:
        """The text a language-model backend reads (`render_state`), rendered once."""
        if self._text is None:
            self._text = render_state(self.state)
        return self._text

    @property
    def images(self) -> int:
        return sum(1 for _, kind in self.media if kind in IMAGE_TYPES)


def _media_of(state: object) -> tuple[tuple[Loc, str], ...]:
    return tuple((where, str(part.get("type"))) for where, part in media_parts(state, ()))


@dataclass(frozen=True)
class DecisionRequest:
    """A request that passed validation: questions are typed models, in caller order;
    `facts` carries what validation learnt about the state."""

    state: State
    questions: dict[str, AnyQuestion]
    facts: StateFacts = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.facts is None or self.facts.state is not self.state:
            object.__setattr__(self, "facts", StateFacts.of(self.state))

    def with_questions(self, questions: dict[str, AnyQuestion]) -> DecisionRequest:
        """The same state (and what is known of it) with other questions."""
        return DecisionRequest(self.state, questions, self.facts)


def option_labels(question: AnyQuestion) -> list[str]:
    """The one option order every backend reports probabilities in (`RequestScores`):
    noul `true, false`; choice the criteria's insertion order; score levels `"0"…"N-1"`."""
    if isinstance(question, Noul):
        return ["true", "false"]
    if isinstance(question, Score):
        return [str(i) for i in range(len(question.criteria))]
    if isinstance(question, Choice):
        return list(question.criteria)
    raise TypeError(f"{question.type!r} questions have no option list")


def validate_request(
    state: object, questions: object, *, loc_prefix: tuple[str | int, ...] = ()
) -> DecisionRequest:
    """Check a request against the documented limits and return it typed.

    Raises `RequestValidationError` listing every offending field.
    """
    issues = IssueList()
    facts = _check_state(state, (*loc_prefix, "state"), issues)
    typed = _check_questions(questions, (*loc_prefix, "questions"), issues)
    if issues or facts is None:
        raise RequestValidationError(issues)
    return DecisionRequest(state, typed, facts)  # type: ignore[arg-type]


# -- state -------------------------------------------------------------------------------


def _check_state(state: object, loc: tuple[str | int, ...], issues: IssueList) -> StateFacts | None:
    if state is None or isinstance(state, bool | int | float):
        issues.append(
            FieldIssue(
                loc,
                f"state must be a string, JSON object, JSON array or chat messages, "
                f"not {_json_kind(state)}",
                "type_error",
            )
        )
        return None
    if isinstance(state, bytes | bytearray):
        issues.append(
            FieldIssue(loc, "state must be text, not bytes (decode it first)", "type_error")
        )
        return None
    if not isinstance(state, str | BaseMessage | Mapping | Sequence):
        issues.append(
            FieldIssue(loc, f"unsupported state type {type(state).__name__}", "type_error")
        )
        return None
    seen_media: list[bool] = []
    size = _walk_state(state, loc, issues, 0, seen_media)
    facts = StateFacts(state, size, _media_of(state) if seen_media and not issues else ())
    images = facts.images
    if images > L.MAX_IMAGES:
        issues.append(
            FieldIssue(
                loc,
                f"{images} images; at most {L.MAX_IMAGES} per request",
                "too_many_images",
            )
        )
    if size > L.MAX_STATE_CHARS:
        issues.append(
            FieldIssue(
                loc,
                f"state is about {size} characters; the limit is {L.MAX_STATE_CHARS} "
                "(it is refused, never truncated)",
                "too_long",
            )
        )
    return facts


def _duplicates(value: Mapping[Any, Any], loc: tuple[str | int, ...], issues: IssueList) -> None:
    """Keys the wire parser saw twice in this object (it marks them; see `_wire._pairs`):
    reported by the one walk that already visits the object."""
    for key in getattr(value, "duplicates", ()):
        issues.append(
            FieldIssue((*loc, loc_part(key)), f"duplicate key {loc_part(key)!r}", "duplicate")
        )


def _walk_state(
    value: object, loc: tuple[str | int, ...], issues: IssueList, depth: int, media: list[bool]
) -> int:
    """Check JSON-compatibility at every depth; return an approximate rendered size, and
    note in `media` whether any object is typed like a media part (so the media search,
    which needs the state's shape, runs only for states that may hold some)."""
    if depth > L.MAX_STATE_DEPTH:
        issues.append(FieldIssue(loc, f"nested deeper than {L.MAX_STATE_DEPTH} levels", "too_deep"))
        return 0
    if issues.full:
        return 0  # nothing more will be listed: stop walking a hostile request
    if isinstance(value, str):
        _check_text(value, loc, issues)
        return len(value)
    if value is None or isinstance(value, bool):
        return 5
    if isinstance(value, int | float | OversizeNumber):
        _check_number(value, loc, issues)
        return 12
    if isinstance(value, BaseMessage):
        return _walk_state(value.content, (*loc, "content"), issues, depth + 1, media) + 16
    if isinstance(value, Mapping):
        _duplicates(value, loc, issues)
        kind = value.get("type")
        if not media and isinstance(kind, str) and kind in MEDIA_TYPES:
            media.append(True)
        total = 2
        for key, item in value.items():
            if not isinstance(key, str):
                issues.append(
                    FieldIssue((*loc, loc_part(key)), "object keys must be strings", "type_error")
                )
                continue
            key_loc = (*loc, loc_part(key))
            _check_text(key, key_loc, issues, what="key")
            total += len(key) + 4 + _walk_state(item, key_loc, issues, depth + 1, media)
        return total
    if isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        return 2 + sum(
            _walk_state(item, (*loc, i), issues, depth + 1, media) + 1
            for i, item in enumerate(value)
        )
    issues.append(FieldIssue(loc, f"{type(value).__name__} is not JSON-compatible", "type_error"))
    return 0


def scan_json(
    value: object,
    *,
    max_depth: int,
    loc: tuple[str | int, ...] = (),
    issues: IssueList | None = None,
    max_text: int | None = None,
) -> IssueList:
    """Problems a JSON value holds that a strict parser, a tokenizer or a UTF-8 writer
    would fail on far from their field: lone surrogates (in text and keys), non-finite or
    over-long numbers, nesting past `max_depth` below `loc`, and (with `max_text`) text
    longer than that. Adds to `issues` (default: a new list that keeps the first one)."""
    found = issues if issues is not None else IssueList(1)
    _scan(value, loc, found, 0, max_depth, max_text)
    return found


def _scan(
    value: object,
    loc: tuple[str | int, ...],
    issues: IssueList,
    depth: int,
    max_depth: int,
    max_text: int | None,
) -> None:
    if depth > max_depth:
        issues.append(FieldIssue(loc, f"nested deeper than {max_depth} levels", "too_deep"))
    elif isinstance(value, str):
        _check_text(value, loc, issues)
        if max_text is not None and len(value) > max_text:
            issues.append(
                FieldIssue(
                    loc,
                    f"{len(value)} characters; question text is limited to {max_text} "
                    "(put long material in the state)",
                    "too_long",
                )
            )
    elif isinstance(value, int | float | OversizeNumber) and not isinstance(value, bool):
        _check_number(value, loc, issues)
    elif isinstance(value, Mapping):
        _duplicates(value, loc, issues)
        for key, item in value.items():
            if issues.full:
                return
            key_loc = (*loc, loc_part(key))
            if isinstance(key, str):
                _check_text(key, key_loc, issues, what="key")
            _scan(item, key_loc, issues, depth + 1, max_depth, max_text)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            if issues.full:
                return
            _scan(item, (*loc, i), issues, depth + 1, max_depth, max_text)


def _check_text(
    value: str, loc: tuple[str | int, ...], issues: IssueList, what: str = "text"
) -> None:
    """Text must be encodable as UTF-8: a lone surrogate (`"\\ud800"` in JSON) would fail
    later, in the tokenizer or while writing the answer, far from the field that held it."""
    if value.isascii():
        return
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        issues.append(
            FieldIssue(
                loc,
                f"{what} holds a lone surrogate ({value[exc.start]!r} at character "
                f"{exc.start}); text must be valid Unicode",
                "string_unicode",
            )
        )


def _check_number(
    value: float | OversizeNumber, loc: tuple[str | int, ...], issues: IssueList
) -> None:
    if isinstance(value, OversizeNumber):
        issues.append(
            FieldIssue(loc, f"a number with {value.digits} digits is too long", "number_too_long")
        )
    elif isinstance(value, float) and not math.isfinite(value):
        issues.append(FieldIssue(loc, f"{value} is not valid JSON", "value_error"))
    elif isinstance(value, int) and value.bit_length() > _MAX_INT_BITS:
        issues.append(
            FieldIssue(loc, f"integer too large (over {_MAX_INT_BITS} bits)", "number_too_long")
        )


def loc_part(key: object) -> str:
    """A key as it may appear in an error path: one printable line (control characters,
    line breaks and lone surrogates escaped as in a Python literal), not too long."""
    text = key if isinstance(key, str) else repr(key)
    text = printable(text)
    if len(text) > _LOC_PART_CHARS:
        text = text[: _LOC_PART_CHARS - 1] + "…"
    return text


def printable(text: str) -> str:
    """`text` with every non-printable character escaped (`\\x1e`, `\\n`, `\\ud800`)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return "a number"


# -- questions ---------------------------------------------------------------------------


def _check_questions(
    questions: object, loc: tuple[str | int, ...], issues: IssueList
) -> dict[str, AnyQuestion]:
    if not isinstance(questions, Mapping):
        issues.append(
            FieldIssue(
                loc, "questions must be an object mapping question ids to questions", "type_error"
            )
        )
        return {}
    _duplicates(questions, loc, issues)
    if len(questions) < L.MIN_QUESTIONS:
        issues.append(FieldIssue(loc, "at least one question is required", "too_short"))
    elif len(questions) > L.MAX_QUESTIONS:
        issues.append(
            FieldIssue(
                loc,
                f"{len(questions)} questions; at most {L.MAX_QUESTIONS} fit in one request "
                "(split it)",
                "too_long",
            )
        )
        return {}  # checking each of a million questions would be the attack's payload
    typed: dict[str, AnyQuestion] = {}
    for qid, raw in questions.items():
        qloc = (*loc, loc_part(qid))
        if not isinstance(qid, str) or not L.ID_PATTERN.fullmatch(qid):
            shown = loc_part(qid)
            issues.append(
                FieldIssue(
                    qloc,
                    f"question id {shown!r} must match {L.ID_PATTERN.pattern}",
                    "string_pattern_mismatch",
                )
            )
            continue
        plain = raw.model_dump() if isinstance(raw, Noul | Choice | Score | Box) else raw
        before = len(issues) + issues.dropped
        # descriptions may be JSON, but small: a state may not hide in a question
        scan_json(
            plain,
            max_depth=_MAX_QUESTION_DEPTH,
            loc=qloc,
            issues=issues,
            max_text=L.MAX_QUESTION_TEXT_CHARS,
        )
        if len(issues) + issues.dropped > before:
            continue
        question = _coerce_question(raw, qloc, issues)
        if question is not None:
            _check_options(question, qloc, issues)
            typed[qid] = question
    return typed


def _coerce_question(
    raw: object, loc: tuple[str | int, ...], issues: IssueList
) -> AnyQuestion | None:
    if isinstance(raw, Noul | Choice | Score | Box):
        return raw
    if not isinstance(raw, Mapping):
        issues.append(
            FieldIssue(loc, "a question must be an object with a `type` field", "type_error")
        )
        return None
    kind = raw.get("type")
    model = _QUESTION_MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        issues.append(
            FieldIssue(
                (*loc, "type"),
                f"unknown question type {kind!r}; expected one of "
                f"{', '.join(repr(k) for k in _QUESTION_MODELS)}",
                "literal_error",
            )
        )
        return None
    data: dict[str, Any] = dict(raw)
    # System One makes instructions optional; the LangChain models do not. An absent
    # instruction is rendered from the question id, as Clef does.
    if data.get("instructions") is None:
        data["instructions"] = ""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        for err in exc.errors():
            issues.append(FieldIssue((*loc, *err["loc"]), err["msg"], err["type"]))
        return None


def _check_options(question: AnyQuestion, loc: tuple[str | int, ...], issues: IssueList) -> None:
    cloc = (*loc, "criteria")
    if isinstance(question, Choice):
        labels = list(question.criteria)
        n = len(labels)
        if not L.MIN_CHOICE_OPTIONS <= n <= L.MAX_CHOICE_OPTIONS:
            issues.append(
                FieldIssue(
                    cloc,
                    f"a choice needs {L.MIN_CHOICE_OPTIONS}–{L.MAX_CHOICE_OPTIONS} options, "
                    f"got {n}",
                    "too_short" if n < L.MIN_CHOICE_OPTIONS else "too_long",
                )
            )
        seen: dict[str, str] = {}
        for label in labels:
            key = label.strip().casefold()
            if not key:
                issues.append(
                    FieldIssue(
                        (*cloc, loc_part(label)), "option labels must not be empty", "value_error"
                    )
                )
            elif len(label) > L.MAX_OPTION_LABEL_CHARS:
                issues.append(
                    FieldIssue(
                        (*cloc, label[:40] + "…"),
                        f"option label longer than {L.MAX_OPTION_LABEL_CHARS} characters",
                        "too_long",
                    )
                )
            elif key in seen:
                issues.append(
                    FieldIssue(
                        (*cloc, loc_part(label)),
                        f"duplicate option: {label!r} and {seen[key]!r} differ only in case "
                        "or surrounding space",
                        "duplicate",
                    )
                )
            else:
                seen[key] = label
    elif isinstance(question, Score):
        n = len(question.criteria)
        if not L.MIN_SCORE_LEVELS <= n <= L.MAX_SCORE_LEVELS:
            issues.append(
                FieldIssue(
                    cloc,
                    f"a score rubric needs {L.MIN_SCORE_LEVELS}–{L.MAX_SCORE_LEVELS} levels, "
                    f"got {n}",
                    "too_short" if n < L.MIN_SCORE_LEVELS else "too_long",
                )
            )
