"""How much of the cascade's answer to an unsure choice should be the LM's (issue 11).

Offline, from `clef-tools eval` predictions on train/dev splits (bench/quality.sh dev): the
embedding tier alone (its probabilities for every item) and the cascade run with the LM alone
deciding unsure choices (`lm_weight=1`, the cascade before this study). For an item the cascade
sent to the LM, the LM's distribution over the shortlist is the cascade's answer divided by
the shortlist's embedding mass; the fused answer for a weight w is
`p ∝ p_lm^w · p_embedding^(1-w)` (what `CascadeDecider` computes). Picks the w with the lowest
NLL over all dev items, writes bench/results/cascade-fusion.json and, for that w, fused
predictions next to the cascade's (what `calibrate` fits the cascade's calibration on).

    .venv/bin/python bench/cascade_fusion.py [--dev bench/results/quality/dev]
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from clef_tools.backends.compose import fuse
from clef_tools.evaluation import Outcome, read_predictions

HERE = Path(__file__).parent
WEIGHTS = (0.0, 0.2, 0.35, 0.5, 0.65, 0.8, 1.0)
SHORTLIST, SHORTLIST_OVER = 10, 26


def fused(cascade: Outcome, fast: Outcome, w: float) -> Outcome:
    if cascade.tier == "embedding":
        return cascade
    f = fast.probabilities
    n = len(f)
    keep = list(range(n))
    if n > SHORTLIST_OVER:
        keep = sorted(sorted(keep, key=lambda i: -f[i])[:SHORTLIST])
    mass = sum(f[i] for i in keep)
    lm = [cascade.probabilities[i] / mass for i in keep]
    out = list(f)
    for i, p in zip(keep, fuse(lm, [f[i] / mass for i in keep], w), strict=True):
        out[i] = p * mass
    return replace(cascade, probabilities=out, tier="embedding+lm")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--dev", type=Path, default=HERE / "results" / "quality" / "dev")
    args = p.parse_args()
    pairs: dict[str, list[tuple[Outcome, Outcome]]] = {}
    for path in sorted((args.dev / "cascade").glob("*.predictions.jsonl")):
        fast = {o.item: o for o in read_predictions(args.dev / "embedding" / path.name)}
        pairs[path.name] = [(o, fast[o.item]) for o in read_predictions(path)]
    result: dict[str, Any] = {"weights": {}, "sets": sorted(pairs)}
    for w in WEIGHTS:
        outs = [fused(c, f, w) for rows in pairs.values() for c, f in rows]
        acc = sum(o.correct for o in outs) / len(outs)
        nll = -sum(math.log(max(o.probabilities[o.gold], 1e-12)) for o in outs) / len(outs)
        per_set = {
            name: sum(fused(c, f, w).correct for c, f in rows) / len(rows)
            for name, rows in pairs.items()
        }
        result["weights"][str(w)] = {"accuracy": acc, "nll": nll, "accuracy_by_set": per_set}
    best = min(WEIGHTS, key=lambda w: result["weights"][str(w)]["nll"])
    result["chosen_lm_weight"] = best
    out_dir = args.dev / "cascade-fused"
    out_dir.mkdir(exist_ok=True)
    for name, rows in pairs.items():
        with (out_dir / name).open("w") as f:
            for c, e in rows:
                f.write(json.dumps(asdict(fused(c, e, best))) + "\n")
        summary = json.loads(
            (args.dev / "cascade" / name.replace(".predictions.jsonl", ".json")).read_text()
        )
        (out_dir / name.replace(".predictions.jsonl", ".json")).write_text(json.dumps(summary))
    (HERE / "results" / "cascade-fusion.json").write_text(json.dumps(result, indent=2) + "\n")
    sys_out = json.dumps({w: round(v["accuracy"], 3) for w, v in result["weights"].items()})
    Path("/dev/stdout").write_text(f"chosen lm_weight {best}; accuracy by weight {sys_out}\n")


if __name__ == "__main__":
    main()
