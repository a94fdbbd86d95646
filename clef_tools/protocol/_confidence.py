"""Probabilities → answers, with TypeSafe's confidence formulas for every backend.

Confidence is not portable across servers (Clef's release code reports max-prob, LitJev a
Gini index, Laya an entropy). clef-tools recomputes it here from the probabilities alone,
so one threshold means the same thing whichever backend answered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clef_tools.decisions import (
    Choice,
    ChoiceAnswer,
    Noul,
    NoulAnswer,
    Score,
    ScoreAnswer,
)

__all__ = [
    "UpstreamChoiceAnswer",
    "UpstreamScoreAnswer",
    "build_answer",
    "choice_confidence",
    "normalise",
    "score_confidence",
]


def normalise(probabilities: Sequence[float]) -> list[float]:
    """Clip negatives and rescale to sum 1; an all-zero vector becomes uniform."""
    clipped = [max(0.0, float(p)) for p in probabilities]
    total = sum(clipped)
    if total <= 0.0:
        return [1.0 / len(clipped)] * len(clipped) if clipped else []
    return [p / total for p in clipped]


def choice_confidence(probabilities: Sequence[float]) -> float:
    """`(max(p) − 1/K) / (1 − 1/K)`: 0 at uniform, 1 when one option holds all mass."""
    p = normalise(probabilities)
    k = len(p)
    if k <= 1:
        return 1.0
    return _unit((k * max(p) - 1.0) / (k - 1.0))


def score_confidence(probabilities: Sequence[float]) -> float:
    """`max(0, 1 − E|i − mode| / MAD_uniform)`: spread around the mode vs a uniform rubric."""
    p = normalise(probabilities)
    n = len(p)
    if n <= 1:
        return 1.0
    mode = max(range(n), key=p.__getitem__)
    expected_distance = sum(pi * abs(i - mode) for i, pi in enumerate(p))
    centre = (n - 1) / 2.0
    mad_uniform = sum(abs(i - centre) for i in range(n)) / n
    return _unit(1.0 - expected_distance / mad_uniform)


class UpstreamChoiceAnswer(ChoiceAnswer):
    """A `ChoiceAnswer` from a remote model: `confidence` is recomputed here, and the
    value the remote sent is kept for audit (it follows that server's own formula)."""

    upstream_confidence: float | None = None


class UpstreamScoreAnswer(ScoreAnswer):
    """A `ScoreAnswer` from a remote model, with the remote's own confidence kept."""

    upstream_confidence: float | None = None


def build_answer(
    question: Noul | Choice | Score,
    probabilities: Sequence[float],
    *,
    upstream: bool = False,
    upstream_confidence: float | None = None,
) -> NoulAnswer | ChoiceAnswer | ScoreAnswer:
    """Turn one question's probabilities (in option order) into its typed answer.

    Option order: noul `[true, false]`; choice the criteria's insertion order; score
    levels `0..N-1`. `upstream=True` builds the `Upstream*Answer` variants, which carry
    the remote server's own confidence beside ours.
    """
    p = normalise(probabilities)
    if isinstance(question, Noul):
        if len(p) != 2:
            raise ValueError(f"a noul answer needs 2 probabilities, got {len(p)}")
        return NoulAnswer(type="noul", noul=_unit(p[0]))
    if isinstance(question, Choice):
        labels = list(question.criteria)
        if len(p) != len(labels):
            raise ValueError(f"{len(labels)} options but {len(p)} probabilities")
        best = max(range(len(p)), key=p.__getitem__)
        choice_fields: dict[str, Any] = {
            "type": "choice",
            "choice": labels[best],
            "probabilities": dict(zip(labels, p, strict=True)),
            "confidence": choice_confidence(p),
        }
        if upstream:
            return UpstreamChoiceAnswer(**choice_fields, upstream_confidence=upstream_confidence)
        return ChoiceAnswer(**choice_fields)
    levels = question.criteria
    if len(p) != len(levels):
        raise ValueError(f"{len(levels)} levels but {len(p)} probabilities")
    score_fields: dict[str, Any] = {
        "type": "score",
        "score": sum(i * pi for i, pi in enumerate(p)),
        "legend": dict(enumerate(levels)),
        "probabilities": dict(enumerate(p)),
        "confidence": score_confidence(p),
    }
    if upstream:
        return UpstreamScoreAnswer(**score_fields, upstream_confidence=upstream_confidence)
    return ScoreAnswer(**score_fields)


def _unit(x: float) -> float:
    return min(1.0, max(0.0, x))
