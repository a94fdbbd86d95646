"""A remote server's `SystemOneResponse`, read back into probabilities in our option order:
the one place a hosted answer is checked against the request that asked it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clef_tools.backends._base import RequestScores
from clef_tools.protocol._errors import RemoteError
from clef_tools.protocol._validation import DecisionRequest, option_labels

__all__ = ["scores_from_wire"]

#: Hosted servers round to 4 decimals; anything further outside [0, 1] is a broken server.
_PROBABILITY_SLACK = 1e-3


def scores_from_wire(
    request: DecisionRequest, body: object, request_id: str | None
) -> RequestScores:
    """A remote `SystemOneResponse` → probabilities in our option order, checked against
    the request, so a server that drops a question or invents an option fails loudly."""

    def broken(loc: str, msg: str) -> RemoteError:
        return RemoteError(
            f"the endpoint's answer is malformed at {loc}: {msg}", request_id=request_id
        )

    if not isinstance(body, Mapping) or not isinstance(body.get("answers"), Mapping):
        raise broken("<response>", "expected an object with `answers`")
    answers = body["answers"]
    probabilities: dict[str, list[float]] = {}
    upstream: dict[str, float | None] = {}
    for qid, question in request.questions.items():
        loc = f"answers.{qid}"
        answer = answers.get(qid)
        if not isinstance(answer, Mapping):
            raise broken(loc, "missing")
        if answer.get("type") != question.type:
            raise broken(f"{loc}.type", f"{answer.get('type')!r}, asked {question.type!r}")
        if question.type == "noul":
            p_true = _probability(answer.get("noul"), f"{loc}.noul", broken)
            probabilities[qid] = [p_true, 1.0 - p_true]
            continue
        labels = option_labels(question)
        given = answer.get("probabilities")
        if not isinstance(given, Mapping):
            raise broken(f"{loc}.probabilities", "missing")
        given = {str(k): v for k, v in given.items()}
        unknown = sorted(set(given) - set(labels))
        if unknown:
            raise broken(f"{loc}.probabilities", f"options not asked: {unknown[:5]}")
        missing = [label for label in labels if label not in given]
        if missing:
            raise broken(f"{loc}.probabilities", f"no probability for {missing[:5]}")
        probabilities[qid] = [
            _probability(given[label], f"{loc}.probabilities.{label}", broken) for label in labels
        ]
        conf = answer.get("confidence")
        upstream[qid] = float(conf) if isinstance(conf, int | float) else None
    usage = body.get("usage")
    tokens = usage.get("input_tokens") if isinstance(usage, Mapping) else None
    model = body.get("model")
    return RequestScores(
        probabilities=probabilities,
        input_tokens=int(tokens) if isinstance(tokens, int | float) else 0,
        model=model if isinstance(model, str) and model else None,
        request_id=request_id,
        upstream_confidence=upstream,
    )


def _probability(value: object, loc: str, broken: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise broken(loc, f"expected a number, got {value!r}")
    p = float(value)
    if not -_PROBABILITY_SLACK <= p <= 1.0 + _PROBABILITY_SLACK:
        raise broken(loc, f"{p} is not a probability")
    return min(1.0, max(0.0, p))
