"""Post-hoc calibration: temperatures that make probabilities mean what they say.

A temperature `T` rescales a distribution as `p_i^(1/T) / sum_j p_j^(1/T)`, which is exactly
dividing the logits by `T` before the softmax, so it applies to any backend's output and
never changes the argmax. Temperatures are kept per question type, optionally per cascade
tier and per question id (the most specific one wins), fitted by `clef-tools calibrate` on a
labelled split.

A yes/no answer can also get a *bias*: `b` added to its log-odds after the temperature
(Platt scaling). A temperature alone can only sharpen or flatten around 50/50, so a model
that leans to "yes" on a question stays leaning, and the best temperature flattens every
answer to pay for it. The bias moves the point where yes and no are equally likely, so it
can flip an answer. The lean differs from question to question (the embedded model's best
bias was -2.0 on one dev set and +3.35 on another), so a bias belongs to one question, fitted
on its own labels (`--per-question`); the shipped default holds none.

`CalibratedDecider` applies them to any backend; `load_decider` wraps the backends that
ship a default calibration unless told `calibration="none"`. The calibration's id is part
of the backend's identity (`info().calibration`, `model_info`, response metadata), so results
and thresholds are never mixed across calibrations.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from clef_tools.backends._base import BackendInfo, Decider, RequestScores
from clef_tools.protocol._errors import ConfigError
from clef_tools.protocol._validation import DecisionRequest

__all__ = [
    "CALIBRATION_FORMAT",
    "CalibratedDecider",
    "Calibration",
    "default_calibration",
    "with_calibration",
]

CALIBRATION_FORMAT = "clef-tools.calibration/1"
OFF = frozenset({"none", "off", "false"})
MAX_BIAS = 10.0
SELF_CALIBRATED_TIERS = frozenset({"examples", "examples+lm"})
"""Tiers whose temperature comes with them (an example index fits its own on its rows):
only a temperature given for that tier applies to their answers."""


def _numbers(raw: object, where: str, what: str, ok: Callable[[float], bool]) -> dict[str, float]:
    """A calibration file's `{key: number}` object, every number checked, errors naming it."""
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where} must be an object of {what}s")
    out = {}
    for key, value in raw.items():
        number = float(value) if isinstance(value, int | float) and value is not True else None
        if number is None or not math.isfinite(number) or not ok(number):
            raise ConfigError(f"{where}.{key}: {value!r} is not a valid {what}")
        out[str(key)] = number
    return out


def _temps(raw: object, where: str) -> dict[str, float]:
    return _numbers(raw, where, "temperature (a positive number)", lambda t: t > 0)


def _biases(raw: object, where: str) -> dict[str, float]:
    return _numbers(
        raw, where, f"bias (log-odds within ±{MAX_BIAS:g})", lambda b: abs(b) <= MAX_BIAS
    )


@dataclass(frozen=True)
class Calibration:
    """Temperatures by question type, by tier and type, and by question id."""

    id: str = "none"
    temperatures: dict[str, float] = field(default_factory=dict)
    tiers: dict[str, dict[str, float]] = field(default_factory=dict)
    questions: dict[str, float] = field(default_factory=dict)
    biases: dict[str, float] = field(default_factory=dict)
    """Log-odds added to "yes" of `noul` answers: key `noul` for every yes/no question, or a
    question id (which wins)."""
    model: str | None = None
    """The model id it was fitted for (a default calibration only applies to that model)."""
    backend: str | None = None
    """The backend kind it was fitted for (`readout`, `cascade`, `embedding`, …)."""
    fitted_on: tuple[str, ...] = ()
    """The labelled files it was fitted on (train/dev splits, never a reported test split)."""

    @classmethod
    def identity(cls) -> Calibration:
        return cls()

    def temperature(
        self, question_type: str, tier: str | None = None, qid: str | None = None
    ) -> float:
        if qid is not None and qid in self.questions:
            return self.questions[qid]
        if tier is not None and question_type in self.tiers.get(tier, {}):
            return self.tiers[tier][question_type]
        if tier in SELF_CALIBRATED_TIERS:
            return 1.0
        return self.temperatures.get(question_type, 1.0)

    def bias(self, question_type: str, tier: str | None = None, qid: str | None = None) -> float:
        if question_type != "noul" or tier in SELF_CALIBRATED_TIERS:
            return 0.0
        if qid is not None and qid in self.biases:
            return self.biases[qid]
        return self.biases.get("noul", 0.0)

    def apply(
        self,
        question_type: str,
        probabilities: Sequence[float],
        tier: str | None = None,
        qid: str | None = None,
    ) -> list[float]:
        t = self.temperature(question_type, tier, qid)
        b = self.bias(question_type, tier, qid) if len(probabilities) == 2 else 0.0
        if t == 1.0 and b == 0.0:
            return list(probabilities)
        logs = [math.log(p) / t if p > 0 else -math.inf for p in probabilities]
        if math.isfinite(logs[0]):
            logs[0] += b
        top = max(logs)
        weights = [math.exp(v - top) for v in logs]
        total = sum(weights)
        return [w / total for w in weights]

    # -- files --------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], name: str = "calibration") -> Calibration:
        tiers = data.get("tiers", {})
        if not isinstance(tiers, Mapping):
            raise ConfigError(f"{name}: tiers must be an object")
        return cls(
            id=str(data.get("id", name)),
            temperatures=_temps(data.get("temperatures", {}), f"{name}: temperatures"),
            tiers={str(k): _temps(v, f"{name}: tiers.{k}") for k, v in tiers.items()},
            questions=_temps(data.get("questions", {}), f"{name}: questions"),
            biases=_biases(data.get("biases", {}), f"{name}: biases"),
            model=data.get("model"),
            backend=data.get("backend"),
            fitted_on=tuple(str(f) for f in data.get("fitted_on", ())),
        )

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise ConfigError(f"cannot read calibration {path}: {exc}") from None
        if not isinstance(data, Mapping):
            raise ConfigError(f"{path}: a calibration file is a JSON object")
        return cls.from_dict(data, Path(path).stem)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": CALIBRATION_FORMAT,
            "id": self.id,
            "temperatures": self.temperatures,
        }
        if self.tiers:
            out["tiers"] = self.tiers
        if self.questions:
            out["questions"] = self.questions
        if self.biases:
            out["biases"] = self.biases
        for key in ("model", "backend"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.fitted_on:
            out["fitted_on"] = list(self.fitted_on)
        return out

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2) + "\n")


class CalibratedDecider(Decider):
    """Wraps `inner`; every answer's probabilities pass through `calibration`."""

    def __init__(self, inner: Decider, calibration: Calibration) -> None:
        self.inner = inner
        self.calibration = calibration
        self.calibration_id = calibration.id
        self.supported_types = inner.supported_types

    def _wrapped(self) -> list[Decider]:
        return [self.inner]

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def info(self) -> BackendInfo:
        return replace(self.inner.info(), calibration=self.calibration.id)

    def check_supported(self, request: DecisionRequest, loc_prefix: tuple[str | int, ...]) -> None:
        self.inner.check_supported(request, loc_prefix)

    def _calibrate(
        self, requests: Sequence[DecisionRequest], scores: Sequence[RequestScores]
    ) -> list[RequestScores]:
        out = []
        for request, score in zip(requests, scores, strict=True):
            tiers = score.tiers or {}
            probabilities = {
                qid: self.calibration.apply(request.questions[qid].type, probs, tiers.get(qid), qid)
                for qid, probs in score.probabilities.items()
            }
            out.append(replace(score, probabilities=probabilities))
        return out

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        return self._calibrate(requests, self.inner.score(requests))

    async def _ascore(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        return self._calibrate(requests, await self.inner.ascore(requests))


def default_calibration(info: BackendInfo) -> Calibration | None:
    """The calibration shipped for this backend kind and model, if there is one."""
    folder = resources.files("clef_tools") / "calibrations"
    if not folder.is_dir():
        return None
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        data = json.loads(entry.read_text())
        if data.get("model") == info.model_id and data.get("backend") == info.kind:
            return Calibration.from_dict(data, entry.name.removesuffix(".json"))
    return None


def with_calibration(decider: Decider, calibration: object) -> Decider:
    """`"default"`: the shipped calibration for this backend if any; `None`/`"none"`: off;
    a path or a `Calibration`: that one."""
    if calibration is None or calibration is False:
        return decider
    if isinstance(calibration, str) and calibration.lower() in OFF:
        return decider
    if isinstance(calibration, str) and calibration == "default":
        found = default_calibration(decider.info())
        return CalibratedDecider(decider, found) if found else decider
    if not isinstance(calibration, Calibration):
        if not isinstance(calibration, str | Path):
            raise TypeError("calibration is 'default', 'none', a file path or a Calibration")
        calibration = Calibration.load(calibration)
    return CalibratedDecider(decider, calibration)
