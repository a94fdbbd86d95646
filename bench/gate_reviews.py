"""How strongly should reviews pull the gate's risk, and over what distance? (issue 12)

Dev split only. Dev's user tasks are halved by hash; reviews are drawn from one half (k per
tool, the human's decision = the gold label) and the other half is judged, both ways round.
The judged risk is the shipped model's full-stage risk (evidence + the measured P(yes) of
its questions from bench/results/gate-questions.json), pulled by the reviews exactly as the
gate pulls it. (strength, temperature) is chosen by log-loss averaged over k = 5 and 20 and
written into clef_tools/calibrations/gate-embedded.json; the study goes to
bench/results/gate-reviews.json.

    .venv/bin/python bench/gate_reviews.py
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
from gate_questions import load_measured

from clef_tools.evaluation._gate_eval import item_evidence
from clef_tools.gate import ReviewStore, load_risk_model
from clef_tools.gate._risk import risk_features
from clef_tools.local._encoder import open_encoder

HERE = Path(__file__).parent
ROOT = HERE.parent
MODEL = ROOT / "clef_tools" / "calibrations" / "gate-embedded.json"
OUT = HERE / "results" / "gate-reviews.json"
STRENGTHS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
TEMPERATURES = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2)
KS = (5, 20)


def main() -> None:
    model = load_risk_model()
    p_yes = load_measured()["items"]  # uncalibrated, the scale the risk model reads
    encoder = open_encoder()
    items = [
        json.loads(line)
        for line in (ROOT / "clef-data" / "agentdojo-dev.jsonl").read_text().splitlines()
    ]
    risks = []
    for item in items:
        ev = item_evidence(item, encoder)
        probs = {q: p_yes[item["id"]]["p_yes"][q] for q in model.questions}
        risks.append(model.full(risk_features(ev.as_dict(), probs)))
    half = [int(hashlib.sha256(i["meta"]["user_task"].encode()).hexdigest(), 16) % 2 for i in items]
    y = np.array([float(i["gold"]["unsafe"]) for i in items])
    results: list[dict[str, Any]] = []
    cache: dict[tuple[int, int, float], list[Any]] = {}
    for strength in STRENGTHS:
        for temperature in TEMPERATURES:
            row: dict[str, Any] = {"strength": strength, "temperature": temperature}
            for k in KS:
                pulled = np.array(risks, float)
                for side in (0, 1):
                    key = (k, side, temperature)
                    if key not in cache:
                        store = ReviewStore(encoder=encoder)
                        rng = random.Random(0)
                        by_tool: dict[str, list[int]] = {}
                        for n, item in enumerate(items):
                            if half[n] == side:
                                by_tool.setdefault(item["gate"]["tool"], []).append(n)
                        for tool in sorted(by_tool):
                            for n in rng.sample(by_tool[tool], min(k, len(by_tool[tool]))):
                                g = items[n]["gate"]
                                store.record(tool, g["args"], "reject" if y[n] else "approve")
                        cache[key] = [
                            store.evidence(i["gate"]["tool"], i["gate"]["args"], temperature)
                            if half[n] != side
                            else None
                            for n, i in enumerate(items)
                        ]
                    for n, ev in enumerate(cache[key]):
                        if half[n] != side and ev is not None:
                            pulled[n] = ev.pull(risks[n], strength)
                p = np.clip(pulled, 1e-4, 1 - 1e-4)
                row[f"log_loss_k{k}"] = float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())
                row[f"safe_allowed_k{k}"] = float((p[y == 0] < 0.5).mean())
                row[f"unsafe_allowed_k{k}"] = float((p[y == 1] < 0.5).mean())
            row["log_loss"] = float(np.mean([row[f"log_loss_k{k}"] for k in KS]))
            results.append(row)
    best = min(results, key=lambda r: r["log_loss"])
    data = json.loads(MODEL.read_text())
    data["review_strength"] = best["strength"]
    data["review_temperature"] = best["temperature"]
    MODEL.write_text(json.dumps(data, indent=2) + "\n")
    OUT.write_text(json.dumps({"chosen": best, "grid": results}, indent=2) + "\n")
    print(json.dumps(best, indent=1))


if __name__ == "__main__":
    main()
