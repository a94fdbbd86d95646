"""Re-scoring an earlier uncalibrated run under another calibration, without the model:
temperatures are a pure function of the probabilities, so the numbers are exactly what a
live run would give."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from clef_tools.backends.compose._calibration import Calibration
from clef_tools.evaluation._run import EvalReport, Outcome, read_predictions

__all__ = ["as_calibration", "raw_run_summary", "recalibrated", "rescore"]


def raw_run_summary(path: Path) -> dict[str, Any]:
    """The summary `eval` wrote beside `path` (empty if none); refused when that run was
    calibrated: re-scoring and fitting both need the backend's raw probabilities."""
    summary_path = path.with_name(path.name.removesuffix(".predictions.jsonl") + ".json")
    old: dict[str, Any] = json.loads(summary_path.read_text()) if summary_path.exists() else {}
    if old.get("backend", {}).get("calibration") not in (None, "none"):
        used = old["backend"]["calibration"]
        raise ValueError(
            f"{path} comes from a run calibrated with {used!r}; re-scoring and fitting need "
            "raw probabilities: re-run it with `clef-tools eval DATA --calibration none`"
        )
    return old


def rescore(path: Path, calibration: object) -> EvalReport:
    """The report an uncalibrated run's predictions would have had under `calibration`."""
    old = raw_run_summary(path)
    cal = as_calibration(calibration)
    outcomes = [recalibrated(o, cal) for o in read_predictions(path)]
    backend = {**old.get("backend", {}), "calibration": cal.id if cal else None}
    return EvalReport(
        model=old.get("model", "?"),
        data=old.get("data", str(path)),
        backend=backend,
        requests=old.get("requests", 0),
        refused=old.get("refused", 0),
        outcomes=outcomes,
        latencies_s=[],
        # latency is the original run's: calibration costs microseconds
        measured={k: old[k] for k in ("latency_ms", "machine") if k in old},
    )


def as_calibration(calibration: object) -> Calibration | None:
    if calibration in (None, "none", "default"):
        if calibration == "default":
            raise ValueError("name the calibration file to re-score with (--calibration FILE)")
        return None
    if isinstance(calibration, Calibration):
        return calibration
    return Calibration.load(str(calibration))


def recalibrated(o: Outcome, cal: Calibration | None) -> Outcome:
    if cal is None:
        return o
    probs = cal.apply(o.type, o.probabilities, o.tier, o.qid)
    expected = sum(i * p for i, p in enumerate(probs)) if o.type == "score" else None
    return replace(o, probabilities=probs, expected=expected)
