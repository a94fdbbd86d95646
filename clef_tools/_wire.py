"""`/v1/systemone` JSON in and out, exactly as the served OpenAPI spells it.

In-process code uses LangChain's typed models; this module is the thin translation at the
edge. Duplicate JSON keys are an error here (a plain `json.loads` would silently keep the
last of two identical option labels).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from langchain_core.decisions import ChoiceAnswer, ClassifierResponse, NoulAnswer, ScoreAnswer

from clef_tools._errors import FieldIssue, RequestValidationError
from clef_tools._validation import DecisionRequest, validate_request

__all__ = ["parse_request", "response_from_wire", "response_to_wire"]

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
    if isinstance(body, str | bytes):
        try:
            data = json.loads(body, object_pairs_hook=_pairs)
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
    else:
        data = body
    if not isinstance(data, Mapping):
        raise RequestValidationError.at((), "the request body must be a JSON object", "type_error")
    issues = [
        FieldIssue(loc, f"duplicate key {key!r}", "duplicate")
        for loc, key in _find_duplicates(data, ())
    ]
    for key in data:
        if key not in REQUEST_FIELDS:
            issues.append(
                FieldIssue(
                    (key,),
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
    if issues:
        raise RequestValidationError(issues)
    return validate_request(data["state"], data["questions"]), model


def _find_duplicates(
    value: Any, loc: tuple[str | int, ...]
) -> list[tuple[tuple[str | int, ...], str]]:
    found: list[tuple[tuple[str | int, ...], str]] = []
    if isinstance(value, dict):
        found += [((*loc, k), k) for k in getattr(value, "duplicates", [])]
        for k, v in value.items():
            found += _find_duplicates(v, (*loc, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += _find_duplicates(v, (*loc, i))
    return found


def response_to_wire(response: ClassifierResponse) -> dict[str, Any]:
    """The `SystemOneResponse` body: `model`, `answers`, `usage` (score keys as strings)."""
    answers: dict[str, Any] = {}
    for qid, answer in response.answers.items():
        if isinstance(answer, NoulAnswer):
            answers[qid] = {"type": "noul", "noul": answer.noul}
        elif isinstance(answer, ChoiceAnswer):
            answers[qid] = {
                "type": "choice",
                "choice": answer.choice,
                "confidence": answer.confidence,
                "probabilities": dict(answer.probabilities),
            }
        elif isinstance(answer, ScoreAnswer):
            answers[qid] = {
                "type": "score",
                "score": answer.score,
                "confidence": answer.confidence,
                "legend": {str(k): v for k, v in answer.legend.items()},
                "probabilities": {str(k): v for k, v in answer.probabilities.items()},
            }
        else:
            answers[qid] = answer.model_dump(mode="json")
    usage: Mapping[str, Any] = response.usage or {}
    return {
        "model": response.model,
        "answers": answers,
        "usage": {
            "input_tokens": int(usage.get("input_tokens", 0)),
            "output_tokens": int(usage.get("output_tokens", 0)),
        },
    }


def response_from_wire(
    body: Mapping[str, Any], request_id: str | None = None
) -> ClassifierResponse:
    """Parse a `SystemOneResponse` (score keys `"0"` coerce to ints)."""
    data = dict(body)
    if request_id is not None:
        data["request_id"] = request_id
    return ClassifierResponse.model_validate(data)
