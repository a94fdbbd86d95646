"""Does the gate's risk model hold on a CPU without bf16 units? (issue 12)

The shipped risk model (`bench/gate_fit.py`) reads the log-odds of its questions' P(yes)
as the embedded model gives them in bfloat16, which is what `auto` picks on a CPU with bf16
units. A CPU without them runs the model in float32, and its yes/no answers are not on the
same scale: the first fp32 eval of the AgentDojo test split allowed 3 of 40 unsafe calls
(target ≤ 5 %), against 2 in bfloat16, and 94 % of safe calls against 87 %.

This asks the shipped model's questions about every AgentDojo call (dev and test, via
`clef-tools data agentdojo`; MIT) with the embedded model in float32, uncalibrated as the
risk model reads them, next to the bfloat16 answers in bench/results/gate-questions.json.
On **dev only** it fits one log-odds shift per question (the mean of bf16 − fp32) and
writes it into clef_tools/calibrations/gate-embedded.json (`answers`: the model, the dtype
the weights were fitted in, and the shift per other dtype): the gate adds it to the
embedded model's float32 answers, which puts them on the scale the weights were fitted on. Test is reported for the record (how well one constant describes the gap).
Writes bench/results/gate-dtype.json (resumable, digests as gate_questions.py keeps them).

    .venv/bin/python bench/gate_dtype.py [--fresh]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from gate_questions import _items, _state, call_digest, load_measured
from langchain_core.decisions import Noul

from clef_tools import load_decider
from clef_tools.gate import logit

HERE = Path(__file__).parent
ROOT = HERE.parent
OUT = HERE / "results" / "gate-dtype.json"
MODEL = ROOT / "clef_tools" / "calibrations" / "gate-embedded.json"
DTYPE = "float32"
FITTED_DTYPE = "bfloat16"  # what gate_questions.py measured in (`auto` on this CPU)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fresh", action="store_true", help="ask every call again")
    fresh = parser.parse_args().fresh
    shipped = json.loads(MODEL.read_text())
    questions: dict[str, str] = shipped["questions"]
    done: dict[str, Any] = json.loads(OUT.read_text()) if OUT.exists() and not fresh else {}
    rows: dict[str, Any] = done.get("items", {}) if done.get("questions") == questions else {}
    decider = load_decider("embedded", dtype="fp32", calibration="none")
    assert decider.info().dtype == DTYPE, decider.info()
    asked = {k: Noul(instructions=v) for k, v in questions.items()}
    for split, item in _items("clef-data"):
        digest = call_digest(item["gate"])
        if rows.get(item["id"], {}).get("gate_sha") == digest:
            continue
        t0 = time.perf_counter()
        nouls = decider.decide(_state(item["gate"]), asked).nouls
        rows[item["id"]] = {
            "split": split,
            "p_yes": {k: v.noul for k, v in nouls.items()},
            "seconds": round(time.perf_counter() - t0, 3),
            "gate_sha": digest,
        }
        if len(rows) % 10 == 0:
            _save(questions, rows, {})
            print(len(rows), flush=True)
    bf16 = load_measured()["items"]
    gaps: dict[str, dict[str, dict[str, float]]] = {}
    for q in questions:
        for split in ("dev", "test"):
            diffs = [
                logit(bf16[key]["p_yes"][q]) - logit(row["p_yes"][q])
                for key, row in rows.items()
                if row["split"] == split
            ]
            gaps.setdefault(q, {})[split] = {
                "calls": len(diffs),
                "mean": round(statistics.fmean(diffs), 4),
                "sd": round(statistics.pstdev(diffs), 4),
                "min": round(min(diffs), 4),
                "max": round(max(diffs), 4),
            }
    shipped["answers"] = {
        "model": decider.model_id,
        "dtype": FITTED_DTYPE,
        "shift": {DTYPE: {q: gaps[q]["dev"]["mean"] for q in questions}},
    }
    MODEL.write_text(json.dumps(shipped, indent=2) + "\n")
    _save(questions, rows, gaps)
    print(json.dumps(gaps, indent=1))


def _save(questions: dict[str, str], rows: dict[str, Any], gaps: dict[str, Any]) -> None:
    OUT.write_text(
        json.dumps(
            {
                "dtype": DTYPE,
                "questions": questions,
                "log_odds_gap_bf16_minus_fp32": gaps,
                "items": rows,
            },
            indent=1,
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
