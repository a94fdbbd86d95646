"""`/v1/systemone` JSON in and out, exactly as the served OpenAPI spells it.

In-process code uses LangChain's typed models; this module is the thin translation at the
edge. Duplicate JSON keys are an error here (a plain `json.loads` would silently keep the
last of two identical option labels).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from clef_tools.decisions import ChoiceAnswer, ClassifierResponse, NoulAnswer, ScoreAnswer
from clef_tools.protocol import _schema as wire
from clef_tools.protocol._errors import FieldIssue, IssueList, RequestValidationError
from clef_tools.protocol._limits import MAX_MODEL_NAME_CHARS
from clef_tools.protocol._render import to_jsonable
from clef_tools.protocol._validation import (
    DecisionRequest,
    json_int,
    loc_part,
    validate_request,
)

__all__ = [
    "parse_request",
    "request_to_wire",
    "response_from_wire",
    "response_to_wire",
]

REQUEST_FIELDS = frozenset({"state", "questions", "model"})


class _DupDict(dict[str, Any]):
    """A JSON object that remembers keys it saw twice."""

    duplicates: list[str]


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = _DupDict()
    out.duplicates = []
    for key, value in pairs:
        if key in out:
            out.duplicates.append(key)
        out[key] = value
    return out


def parse_request(body: str | bytes | Mapping[str, Any]) -> tuple[DecisionRequest, str | None]:
    """Validate a `/v1/systemone` body; returns the request and its `model` field, if any."""
    data = _loads(body) if isinstance(body, str | bytes) else body
    if not isinstance(data, Mapping):
        raise RequestValidationError.at((), "the request body must be a JSON object", "type_error")
    issues = IssueList()
    # duplicates below the top are reported by validation's walk, which visits every object
    for key in getattr(data, "duplicates", ()):
        issues.append(FieldIssue((loc_part(key),), f"duplicate key {loc_part(key)!r}", "duplicate"))
    for key in data:
        if key not in REQUEST_FIELDS:
            issues.append(
                FieldIssue(
                    (loc_part(key),),
                    f"unknown field; allowed: {', '.join(sorted(REQUEST_FIELDS))}",
                    "extra_forbidden",
                )
            )
    for key in ("state", "questions"):
        if key not in data:
            issues.append(FieldIssue((key,), "field required", "missing"))
    model = data.get("model")
    if model is not None and not isinstance(model, str):
        issues.append(FieldIssue(("model",), "model must be a string", "string_type"))
    elif isinstance(model, str) and len(model) > MAX_MODEL_NAME_CHARS:
        issues.append(
            FieldIssue(
                ("model",),
                f"model names are at most {MAX_MODEL_NAME_CHARS} characters, got {len(model)}",
                "string_too_long",
            )
        )
    if issues:
        raise RequestValidationError(issues)
    return validate_request(data["state"], data["questions"]), model


def _loads(body: str | bytes) -> Any:
    """Strict JSON with every failure as a 422: syntax, encoding, nesting past the
    parser's recursion limit. Over-long integers come back as `OversizeNumber`, so the
    validator can name their field instead of the parser failing on the whole body."""
    try:
        return json.loads(body, object_pairs_hook=_pairs, parse_int=json_int)
    except json.JSONDecodeError as exc:
        raise RequestValidationError.at(
            (),
            f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
            "json_invalid",
        ) from exc
    except UnicodeDecodeError as exc:
        raise RequestValidationError.at(
            (), f"body is not UTF-8: {exc.reason}", "json_invalid"
        ) from exc
    except RecursionError as exc:
        raise RequestValidationError.at((), "JSON nested too deeply to parse", "too_deep") from exc


def response_to_wire(response: ClassifierResponse) -> dict[str, Any]:
    """The `SystemOneResponse` body: `model`, `answers`, `usage` (score keys as strings)."""
    tiers = getattr(response, "tiers", None) or {}
    answers: dict[str, wire.NoulAnswer | wire.ChoiceAnswer | wire.ScoreAnswer] = {}
    for qid, answer in response.answers.items():
        extra: dict[str, Any] = {"tier": tiers.get(qid)}
        upstream = getattr(answer, "upstream_confidence", None)
        if upstream is not None:
            extra["upstream_confidence"] = upstream
        if isinstance(answer, NoulAnswer):
            answers[qid] = wire.NoulAnswer.model_construct(type="noul", noul=answer.noul, **extra)
        elif isinstance(answer, ChoiceAnswer):
            answers[qid] = wire.ChoiceAnswer.model_construct(
                type="choice",
                choice=answer.choice,
                confidence=answer.confidence,
                probabilities=dict(answer.probabilities),
                **extra,
            )
        elif isinstance(answer, ScoreAnswer):
            answers[qid] = wire.ScoreAnswer.model_construct(
                type="score",
                score=answer.score,
                confidence=answer.confidence,
                legend={str(k): v for k, v in answer.legend.items()},
                probabilities={str(k): v for k, v in answer.probabilities.items()},
                **extra,
            )
        else:
            raise TypeError(f"{type(answer).__name__} answers have no System One spelling")
    usage: Mapping[str, Any] = response.usage or {}
    body = wire.SystemOneResponse.model_construct(
        model=response.model,
        answers=answers,
        usage=wire.Usage.model_construct(
            input_tokens=int(usage.get("input_tokens", 0)),
            output_tokens=int(usage.get("output_tokens", 0)),
        ),
        calibration=getattr(response, "calibration", None),
    )
    # built from answers the backends already checked: constructed, not validated again
    return body.model_dump(mode="json")


def response_from_wire(
    body: Mapping[str, Any], request_id: str | None = None
) -> ClassifierResponse:
    """Parse a `SystemOneResponse` (score keys `"0"` coerce to ints)."""
    data = dict(body)
    if request_id is not None:
        data["request_id"] = request_id
    return ClassifierResponse.model_validate(data)


def request_to_wire(request: DecisionRequest, model: str | None) -> dict[str, Any]:
    """The `SystemOneRequest` body for a validated request (`model` omitted when `None`)."""
    body: dict[str, Any] = {} if model is None else {"model": model}
    body["state"] = to_jsonable(request.state)
    body["questions"] = {
        qid: q.model_dump(mode="json", exclude_none=True) for qid, q in request.questions.items()
    }
    return body
