"""`evaluate`: run a backend over labelled requests and measure what its probabilities are worth.

Each JSONL line is one System One request with its answers: `{"state", "questions", "gold":
{qid: label | true/false | level index}}` (`id` optional). Each request is decided on its own
so latency is per request, as an agent would see it; a request the backend refuses is counted
and reported, never silently dropped.
"""

from __future__ import annotations

import json
import math
import platform
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from clef_tools._progress import Progress
from clef_tools.backends._base import Decider
from clef_tools.decisions import ChoiceAnswer, ClassifierResponse, NoulAnswer, ScoreAnswer
from clef_tools.evaluation import _metrics as m
from clef_tools.protocol._errors import ClefError
from clef_tools.protocol._types import SCORED_TYPES

__all__ = [
    "EvalItem",
    "EvalReport",
    "Outcome",
    "evaluate",
    "load_eval_items",
    "read_predictions",
    "summarise",
    "write_predictions",
]

AUTOMATION_ERRORS = (0.01, 0.05)


@dataclass(frozen=True)
class EvalItem:
    id: str
    state: Any
    questions: dict[str, Any]
    gold: dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    """One answered question: probabilities in option order and where the gold answer is."""

    item: str
    qid: str
    type: str
    options: list[str]
    probabilities: list[float]
    gold: int
    tier: str | None = None
    expected: float | None = None
    """Score questions: the expected level `sum(i * p_i)`."""

    @property
    def predicted(self) -> int:
        return max(range(len(self.probabilities)), key=lambda i: self.probabilities[i])

    @property
    def confidence(self) -> float:
        return self.probabilities[self.predicted]

    @property
    def correct(self) -> bool:
        return self.predicted == self.gold


@dataclass
class EvalReport:
    model: str
    data: str
    backend: dict[str, Any]
    requests: int
    refused: int
    outcomes: list[Outcome] = field(repr=False)
    latencies_s: list[float] = field(repr=False)
    refusals: list[dict[str, str]] = field(default_factory=list)
    measured: dict[str, Any] = field(default_factory=dict)
    """`latency_ms` and `machine` as an earlier run measured them: a re-scored report keeps
    its run's figures rather than percentiles of percentiles."""

    def summary(self) -> dict[str, Any]:
        return summarise(self)


def load_eval_items(path: str | Path, limit: int | None = None) -> list[EvalItem]:
    """Read the JSONL, with the line number in any error (a bad line is the data's fault,
    and the user needs to find it). `limit`: a fixed random sample (seed 0) of that size."""
    from clef_tools.protocol._jsonl import jsonl_objects

    items: list[EvalItem] = []
    for n, row in jsonl_objects(path):
        missing = [k for k in ("state", "questions", "gold") if k not in row]
        if missing:
            raise ValueError(f"{path}:{n}: missing field {missing[0]!r}")
        questions, gold = row["questions"], row["gold"]
        if not isinstance(questions, dict) or not isinstance(gold, dict) or not gold:
            raise ValueError(f"{path}:{n}: `questions` and `gold` must be objects")
        unknown = [q for q in gold if q not in questions]
        if unknown:
            raise ValueError(f"{path}:{n}: gold.{unknown[0]} names no question")
        items.append(EvalItem(str(row.get("id", f"line-{n}")), row["state"], questions, gold))
    if not items:
        raise ValueError(f"{path}: no items")
    if limit is not None and limit < len(items):
        # a fixed random sample, not the first N: files are often sorted by label
        keep = sorted(random.Random(0).sample(range(len(items)), limit))
        items = [items[i] for i in keep]
    return items


def _outcome(item: EvalItem, qid: str, answer: Any, tier: str | None) -> Outcome:
    gold = item.gold[qid]
    where = f"{item.id}: gold.{qid}"
    if isinstance(answer, NoulAnswer):
        if not isinstance(gold, bool):
            raise ValueError(f"{where}: a noul answer is true or false, got {gold!r}")
        return Outcome(
            item.id,
            qid,
            "noul",
            ["true", "false"],
            [answer.noul, 1 - answer.noul],
            0 if gold else 1,
            tier,
        )
    if isinstance(answer, ChoiceAnswer):
        options = list(answer.probabilities)
        if gold not in options:
            raise ValueError(f"{where}: {gold!r} is not one of the options")
        return Outcome(
            item.id,
            qid,
            "choice",
            options,
            list(answer.probabilities.values()),
            options.index(gold),
            tier,
        )
    if isinstance(answer, ScoreAnswer):
        levels = sorted(answer.probabilities, key=int)
        if not isinstance(gold, int) or isinstance(gold, bool) or not 0 <= gold < len(levels):
            raise ValueError(f"{where}: a score answer is a level index, got {gold!r}")
        return Outcome(
            item.id,
            qid,
            "score",
            [str(level) for level in levels],
            [answer.probabilities[level] for level in levels],
            gold,
            tier,
            expected=answer.score,
        )
    raise ValueError(f"{where}: cannot score a {type(answer).__name__}")


def evaluate(
    decider: Decider,
    items: Sequence[EvalItem] | str | Path,
    *,
    progress: bool = False,
    limit: int | None = None,
) -> EvalReport:
    """Decide every item and keep what each answer says about its gold label."""
    data = str(items) if isinstance(items, str | Path) else "<items>"
    rows = load_eval_items(items, limit) if isinstance(items, str | Path) else list(items)
    outcomes: list[Outcome] = []
    latencies: list[float] = []
    refusals: list[dict[str, str]] = []
    bar = Progress(progress).bar(len(rows), "eval", unit="req")
    for item in rows:
        t = time.perf_counter()
        try:
            response: ClassifierResponse = decider.decide(item.state, item.questions)
        except ClefError as exc:
            refusals.append({"id": item.id, "error": type(exc).__name__, "message": str(exc)[:300]})
        else:
            latencies.append(time.perf_counter() - t)
            tiers = getattr(response, "tiers", None) or {}
            for qid in item.gold:
                outcomes.append(_outcome(item, qid, response.answers[qid], tiers.get(qid)))
        bar.update(1)
    bar.close()
    return EvalReport(
        decider.model_id,
        data,
        backend_summary(decider),
        len(rows),
        len(refusals),
        outcomes,
        latencies,
        refusals,
    )


def backend_summary(decider: Decider) -> dict[str, Any]:
    """What answered, as a report records it: the same numbers mean different things in
    another dtype or under another calibration."""
    info = decider.info()
    return {
        "kind": info.kind,
        "model": info.model_id,
        "dtype": info.dtype,
        "device": info.device,
        "calibration": info.calibration,
    }


def machine_summary() -> dict[str, Any]:
    """The CPU and Python a report's latencies were measured on."""
    return {"cpu": cpu_info(), "python": platform.python_version()}


def type_metrics(outs: Sequence[Outcome]) -> dict[str, Any]:
    probs = [o.probabilities for o in outs]
    gold = [o.gold for o in outs]
    conf = [o.confidence for o in outs]
    correct = [o.correct for o in outs]
    kind = outs[0].type
    row: dict[str, Any] = {
        "n": len(outs),
        "accuracy": m.accuracy(probs, gold),
        "macro_f1": m.macro_f1(
            [o.options[o.predicted] for o in outs], [o.options[o.gold] for o in outs]
        ),
        "ece": m.ece(conf, correct),
        "brier": m.brier(probs, gold, binary=kind == "noul"),
        "nll": m.nll(probs, gold),
    }
    for e in AUTOMATION_ERRORS:
        row[f"automatable_at_{round(e * 100)}pct"] = m.automatable_share(conf, correct, e)
    if kind == "noul":
        row["auroc"] = m.auroc([o.probabilities[0] for o in outs], [o.gold == 0 for o in outs])
        row["share_true"] = sum(o.gold == 0 for o in outs) / len(outs)
    if kind == "score":
        row["spearman"] = m.spearman(
            [o.expected or 0.0 for o in outs], [float(o.gold) for o in outs]
        )
    return row


def summarise(report: EvalReport) -> dict[str, Any]:
    by_type: dict[str, Any] = {}
    for kind in SCORED_TYPES:
        outs = [o for o in report.outcomes if o.type == kind]
        if outs:
            by_type[kind] = type_metrics(outs)
            tiers = Counter(o.tier for o in outs if o.tier)
            if tiers:
                by_type[kind]["tiers"] = dict(tiers)
                by_type[kind]["by_tier"] = {
                    t: type_metrics([o for o in outs if o.tier == t]) for t in sorted(tiers)
                }
    lat = [s * 1000 for s in report.latencies_s]
    return {
        "model": report.model,
        "data": report.data,
        "backend": report.backend,
        "requests": report.requests,
        "refused": report.refused,
        "by_type": by_type,
        "latency_ms": report.measured.get("latency_ms")
        or (
            {"p50": m.percentile(lat, 50), "p95": m.percentile(lat, 95)}
            if lat
            else {"p50": math.nan, "p95": math.nan}
        ),
        "machine": report.measured.get("machine") or machine_summary(),
    }


def cpu_info() -> dict[str, Any]:
    """The CPU's model name and the flags speed depends on (bf16/AVX-512 units)."""
    info: dict[str, Any] = {"arch": platform.machine()}
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return info
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name" and "model" not in info:
            info["model"] = value.strip()
        if key.strip() == "flags" and "flags" not in info:
            flags = value.split()
            info["flags"] = sorted(f for f in flags if f.startswith(("avx512", "amx", "avx2")))
    return info


def write_predictions(report: EvalReport, path: Path) -> None:
    with path.open("w") as f:
        for o in report.outcomes:
            f.write(json.dumps(asdict(o)) + "\n")


def read_predictions(path: str | Path) -> list[Outcome]:
    with Path(path).open() as f:
        return [Outcome(**json.loads(line)) for line in f if line.strip()]
