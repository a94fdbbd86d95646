"""How a call's evidence and the model's answers become one probability that it is unsafe.

The risk is a logistic model (`bench/gate_fit.py`, fitted on the fitting splits only), not a
max over questions: the questions disagree in how often they say yes, and the call's own
evidence carries most of the signal. That evidence is where its names came from, its
distance from the request, its declared annotations, and what the effect and licence rules
found. Two stages share the features:

- `fast`: evidence only (milliseconds). It decides alone only inside bands the gate narrows
  further to what a rule faulted (deny) or vouched for (allow);
- `full`: evidence plus the log-odds of each question's P(yes) from the decision model.

Weights live in a small JSON file shipped with the package and named in every decision.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from clef_tools.protocol._errors import ConfigError

__all__ = [
    "DEFAULT_RISK_MODEL",
    "LinearRisk",
    "RiskModel",
    "fit_tool_offset",
    "load_risk_model",
    "risk_features",
    "shift",
]

DEFAULT_RISK_MODEL = "gate-embedded"
_EPS = 1e-4
_MAX_OFFSET = 8.0


def logit(p: float) -> float:
    p = min(max(p, _EPS), 1 - _EPS)
    return math.log(p / (1 - p))


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def risk_features(evidence: Mapping[str, float], p_yes: Mapping[str, float]) -> dict[str, float]:
    """The features a risk model weighs, the same when it is fitted and when it judges."""
    out = dict(evidence)
    out["irrelevance"] = 1.0 - evidence.get("relevance", 0.0)
    for q, p in p_yes.items():
        out[f"lm:{q}"] = logit(p)
    return out


def shift(risk: float, offset: float) -> float:
    """`risk` moved by `offset` on the logit scale (what a tool's reviews teach)."""
    return risk if offset == 0.0 else sigmoid(logit(risk) + offset)


def fit_tool_offset(risks: list[float], unsafe: list[float], prior_sd: float) -> float:
    """The MAP logit offset `b` for a tool's reviewed risks: each review's verdict ~
    Bernoulli(σ(logit risk + b)), b ~ N(0, prior_sd²). One parameter and a concave
    objective, so Newton's method converges in a few steps; bounded to ±_MAX_OFFSET."""
    if prior_sd <= 0 or not risks:
        return 0.0
    z = [logit(r) for r in risks]
    b = 0.0
    for _ in range(50):
        grad, hess = b / prior_sd**2, 1 / prior_sd**2
        for zi, yi in zip(z, unsafe, strict=True):
            p = sigmoid(zi + b)
            grad += p - yi
            hess += p * (1 - p)
        step = grad / hess
        b = min(max(b - step, -_MAX_OFFSET), _MAX_OFFSET)
        if abs(step) < 1e-10:
            break
    return b


@dataclass(frozen=True)
class LinearRisk:
    weights: dict[str, float]
    bias: float

    def __call__(self, features: Mapping[str, float]) -> float:
        return sigmoid(self.bias + sum(w * features.get(k, 0.0) for k, w in self.weights.items()))


@dataclass(frozen=True)
class RiskModel:
    """A fitted gate: which questions to ask, and how to weigh their answers."""

    name: str
    questions: dict[str, str]
    fast: LinearRisk
    full: LinearRisk
    fast_allow_below: float
    """Fast risk under which the call is allowed without asking the model."""
    fast_deny_at: float
    """Fast risk from which the call is denied without asking the model (> 1: never)."""
    review_strength: float = 2.0
    """How many close reviews outweigh the model's risk (pseudo-count of the prior)."""
    review_temperature: float = 0.05
    review_tool_prior: float = 0.0
    """Prior sd of a tool's logit offset learnt from its reviewed risks (0: not learnt)."""
    fitted_on: str = ""
    turn_questions: Mapping[str, str] = field(default_factory=dict)
    """Asked once per user turn about the user's own words (`_turn`); empty: never."""
    answers_model: str = ""
    """The decision model whose answers the weights were fitted on (its `model_id`)."""
    answer_shift: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    """Per dtype of `answers_model`, per question: the log-odds that puts its P(yes) on the
    scale the weights were fitted on (`bench/gate_dtype.py`). The same model in float32 and
    in bfloat16 does not answer on one scale, and a weight of ~6 per log-odds turns a small
    gap into a different verdict."""

    def shift_for(self, model_id: str | None, dtype: str | None) -> dict[str, float]:
        """Per question, the log-odds added to a backend's answers: only for the model the
        weights were fitted on, in a dtype whose gap was measured (else none)."""
        if model_id != self.answers_model:
            return {}
        return dict(self.answer_shift.get(dtype or "", {}))

    def on_fitted_scale(
        self, p_yes: Mapping[str, float], model_id: str | None, dtype: str | None
    ) -> dict[str, float]:
        """The backend's answers as the weights read them."""
        shift = self.shift_for(model_id, dtype)
        return {q: sigmoid(logit(p) + shift[q]) if q in shift else p for q, p in p_yes.items()}

    def fast_band(self, escalate_at: float, deny_at: float) -> tuple[float, float]:
        """(allow below, deny from) for the fast tier under a policy's thresholds: the fast
        band never reaches past the policy's own."""
        return min(self.fast_allow_below, escalate_at), max(self.fast_deny_at, deny_at)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], name: str) -> RiskModel:
        try:
            answers_model, answer_shift = _answers(data.get("answers", {}))
            model = cls(
                name=name,
                questions=dict(data["questions"]),
                fast=LinearRisk(dict(data["fast"]["weights"]), float(data["fast"]["bias"])),
                full=LinearRisk(dict(data["full"]["weights"]), float(data["full"]["bias"])),
                fast_allow_below=float(data["fast_allow_below"]),
                fast_deny_at=float(data["fast_deny_at"]),
                review_strength=float(data.get("review_strength", 2.0)),
                review_temperature=float(data.get("review_temperature", 0.05)),
                review_tool_prior=float(data.get("review_tool_prior", 0.0)),
                fitted_on=str(data.get("fitted_on", "")),
                turn_questions={str(k): str(v) for k, v in data.get("turn_questions", {}).items()},
                answers_model=answers_model,
                answer_shift=answer_shift,
            )
            _check_finite(model)
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"gate risk model {name!r} is malformed: {exc}") from exc
        return model


def _answers(value: object) -> tuple[str, dict[str, dict[str, float]]]:
    """`answers`: {"model": id, "dtype": name, "shift": {dtype: {question: log-odds}}}, each
    level checked so that an error names the field that is wrong."""
    if not isinstance(value, Mapping):
        raise ConfigError("answers must be an object")
    shifts = value.get("shift", {})
    if not isinstance(shifts, Mapping):
        raise ConfigError("answers.shift must be an object of dtypes")
    out: dict[str, dict[str, float]] = {}
    for dtype, per_question in shifts.items():
        if not isinstance(per_question, Mapping):
            raise ConfigError(f"answers.shift.{dtype} must be an object of questions")
        out[str(dtype)] = {}
        for q, v in per_question.items():
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise ConfigError(f"answers.shift.{dtype}.{q} must be a number, not {v!r}")
            out[str(dtype)][str(q)] = float(v)
    return str(value.get("model", "")), out


def _check_finite(model: RiskModel) -> None:
    """A NaN weight, threshold or shift makes every risk NaN, and NaN is below every
    threshold: refuse the file rather than let it allow."""
    numbers = {
        "fast_allow_below": model.fast_allow_below,
        "fast_deny_at": model.fast_deny_at,
        "review_strength": model.review_strength,
        "review_temperature": model.review_temperature,
        "review_tool_prior": model.review_tool_prior,
        "fast.bias": model.fast.bias,
        "full.bias": model.full.bias,
        **{f"fast.weights.{k}": v for k, v in model.fast.weights.items()},
        **{f"full.weights.{k}": v for k, v in model.full.weights.items()},
        **{
            f"answers.shift.{dtype}.{q}": v
            for dtype, shifts in model.answer_shift.items()
            for q, v in shifts.items()
        },
    }
    for key, value in numbers.items():
        if not math.isfinite(value):
            raise ConfigError(f"{key} is {value}, not a finite number")


def load_risk_model(source: str | Path = DEFAULT_RISK_MODEL) -> RiskModel:
    """A shipped model by name, or a JSON file the user names."""
    if isinstance(source, Path) or str(source).endswith(".json"):
        path = Path(source)
        return RiskModel.from_dict(json.loads(path.read_text()), path.stem)
    return _shipped(str(source))


@functools.cache
def _shipped(source: str) -> RiskModel:
    """Read once per process: every gate (and the default questions) share it."""
    entry = resources.files("clef_tools") / "calibrations" / f"{source}.json"
    if not entry.is_file():
        raise ConfigError(f"no shipped gate risk model {source!r}")
    text = entry.read_text()
    return RiskModel.from_dict(json.loads(text), str(source))
