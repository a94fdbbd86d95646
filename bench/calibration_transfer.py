"""Does a calibration fitted on some questions transfer to others? (issue 11, ECE target)

Two studies on the embedded model's uncalibrated answers (`eval --calibration none`
predictions under bench/results/quality/):

1. Leave one dataset out, dev splits only: for each question kind (noul, choice), fit
   temperatures (and, for noul, temperature + bias) on the other dev sets and score the one
   left out. A default calibration ships for questions nobody has labelled, so this is the
   test that picks what it holds: per kind, the strategy with the lowest mean ECE on the
   left-out sets (the target metric); one that does not beat "no calibration" on unseen
   question kinds does not go into the default.
2. Per question: fit on a set's dev split (`fit_calibration(..., per_question=True)`, what
   `clef-tools calibrate --per-question` does on a user's own labelled answers) and score its
   held-out split, beside no calibration and the shipped default.

3. The previous default (embedded-2026-11: choice 0.05, the search bound, fitted on BFCL
   `multiple` dev alone; yes/no 4.3175 fitted on BFCL "tool fits" dev alone) against the
   current one on every held-out set, per question type.

Writes bench/results/calibration-transfer.json; scripts/quality_doc.py renders it.

    .venv/bin/python bench/calibration_transfer.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from _calibrations import calibration_by_id

from clef_tools import Calibration, fit_calibration
from clef_tools.evaluation import Outcome, read_predictions, recalibrated, type_metrics

ROOT = Path(__file__).resolve().parents[1]
RES = ROOT / "bench" / "results" / "quality"
OUT = ROOT / "bench" / "results" / "calibration-transfer.json"
SHIPPED = ROOT / "clef_tools" / "calibrations" / "embedded.json"

DEV = {
    "noul": ["bfcl-tool-fits-dev", "banking77-noul-train", "vader-noul-train"],
    "choice": ["bfcl-multiple-dev", "bfcl-live-multiple-dev"],
}
PREVIOUS = calibration_by_id("embedded-2026-11")
HELD_OUT = [
    "typed-gguf-test",
    "bfcl-tool-fits-test",
    "banking77-noul-test",
    "vader-noul-test",
    "bfcl-multiple-test",
    "bfcl-live-multiple-test",
    "vader-test",
]
# (dev split, held-out split): the per-question study
PAIRS = [
    ("bfcl-tool-fits-dev", "bfcl-tool-fits-test"),
    ("banking77-noul-train", "banking77-noul-test"),
    ("vader-noul-train", "vader-noul-test"),
    ("bfcl-multiple-dev", "bfcl-multiple-test"),
    ("bfcl-live-multiple-dev", "bfcl-live-multiple-test"),
    ("vader-train", "vader-test"),
]


def _dev(name: str) -> list[Outcome]:
    return read_predictions(RES / "dev" / "embedded" / f"{name}.predictions.jsonl")


def _held_out(name: str) -> list[Outcome]:
    """Uncalibrated answers of the current readout: `raw` where it differs from `before`."""
    raw = RES / "raw" / "embedded" / f"{name}.predictions.jsonl"
    return read_predictions(raw if raw.exists() else RES / "before" / "embedded" / raw.name)


def _metrics(cal: Calibration, outcomes: list[Outcome]) -> dict[str, float]:
    """The eval harness's own metrics of `outcomes` re-scored under `cal`."""
    row = type_metrics([recalibrated(o, cal) for o in outcomes])
    return {"n": row["n"], **{k: round(row[k], 4) for k in ("nll", "ece", "accuracy")}}


def leave_one_out() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind, names in DEV.items():
        sets = {n: _dev(n) for n in names}
        strategies = ["none", "temperature"] + (["temperature+bias"] if kind == "noul" else [])
        rows: list[dict[str, Any]] = []
        for strategy in strategies:
            for held in names:
                rest = [o for n in names if n != held for o in sets[n]]
                if strategy == "none":
                    cal = Calibration()
                else:
                    cal = fit_calibration(
                        rest, id=strategy, noul_bias=strategy == "temperature+bias"
                    )
                rows.append(
                    {
                        "strategy": strategy,
                        "held_out": held,
                        "fitted": {"temperatures": cal.temperatures, "biases": cal.biases},
                        **_metrics(cal, sets[held]),
                    }
                )
        mean = {
            s: {
                k: round(sum(r[k] for r in rows if r["strategy"] == s) / len(names), 4)
                for k in ("nll", "ece", "accuracy")
            }
            for s in strategies
        }
        out[kind] = {
            "rows": rows,
            "mean": mean,
            "chosen": min(mean, key=lambda s: mean[s]["ece"]),
        }
    return out


def per_question() -> list[dict[str, Any]]:
    shipped = Calibration.load(SHIPPED)
    rows = []
    for dev_name, test_name in PAIRS:
        dev, test = _dev(dev_name), _held_out(test_name)
        own = fit_calibration(dev, id=f"{dev_name}-own", per_question=True)
        rows.append(
            {
                "dev": dev_name,
                "test": test_name,
                "type": test[0].type,
                "fitted": {"questions": own.questions, "biases": own.biases},
                "none": _metrics(Calibration(), test),
                "default": _metrics(shipped, test),
                "own": _metrics(own, test),
            }
        )
    return rows


def previous_vs_current() -> list[dict[str, Any]]:
    current = Calibration.load(SHIPPED)
    rows = []
    for name in HELD_OUT:
        outcomes = _held_out(name)
        for kind in ("noul", "choice", "score"):
            group = [o for o in outcomes if o.type == kind]
            if group:
                rows.append(
                    {
                        "set": name,
                        "type": kind,
                        "previous": _metrics(PREVIOUS, group),
                        "current": _metrics(current, group),
                    }
                )
    return rows


def main() -> None:
    result = {
        "default": json.loads(SHIPPED.read_text())["id"],
        "leave_one_out": leave_one_out(),
        "per_question": per_question(),
        "previous_vs_current": previous_vs_current(),
    }
    OUT.write_text(json.dumps(result, indent=2) + "\n")
    for kind, study in result["leave_one_out"].items():
        print(kind, study["mean"], "chosen:", study["chosen"])
    for row in result["per_question"]:
        print(
            row["test"],
            "none",
            row["none"]["ece"],
            "default",
            row["default"]["ece"],
            "own",
            row["own"]["ece"],
        )


if __name__ == "__main__":
    main()
