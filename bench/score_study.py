"""Why score questions were below chance, and which readout fixes it (issue 11, item 4).

Runs readout variants of the same loaded model over a sample of a *training* split (VADER
train: nothing here looks at a test split) and writes accuracy, Spearman and NLL per variant
to bench/results/score-study.json. Variants: the level labels (digits vs letters), a second
row listing the levels highest first (order debiasing), and dividing out the labels' prior
asked about an empty state (contextual calibration).

    .venv/bin/python bench/score_study.py [--data clef-data/vader-train.jsonl] [--n 80]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from clef_tools import ReadoutDecider, evaluate, load_eval_items, load_readout

HERE = Path(__file__).parent

VARIANTS: dict[str, dict[str, Any]] = {
    "digits (before)": {},
    "digits + prior": {"contextual": ("noul", "score")},
    "digits + descending row": {"debias": ("choice", "score")},
    "digits + descending + prior": {"debias": ("choice", "score"), "contextual": ("noul", "score")},
    "letters": {"score_labels": "letters"},
    "letters + descending row": {"score_labels": "letters", "debias": ("choice", "score")},
    "letters + descending + prior": {
        "score_labels": "letters",
        "debias": ("choice", "score"),
        "contextual": ("noul", "score"),
    },
}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="clef-data/vader-train.jsonl")
    p.add_argument("--n", type=int, default=80)
    p.add_argument("--model", default="embedded")
    p.add_argument("--only", nargs="*", default=None, help="variant names to run")
    args = p.parse_args()
    base = load_readout(args.model)
    items = load_eval_items(args.data, limit=args.n)
    out: dict[str, Any] = {
        "data": args.data,
        "n": len(items),
        "model": base.model_id,
        "variants": {},
    }
    path = HERE / "results" / "score-study.json"
    if path.exists():  # variants run earlier on the same data are kept
        earlier = json.loads(path.read_text())
        if (earlier["data"], earlier["n"]) == (args.data, len(items)):
            out["variants"] = earlier["variants"]
    for name, options in VARIANTS.items():
        if args.only is not None and name not in args.only:
            continue
        decider = ReadoutDecider(
            base.model,
            base.tokenizer,
            model_id=base.model_id,
            **{"contextual": ("noul",), **options},
        )
        t = time.perf_counter()
        summary = evaluate(decider, items).summary()["by_type"]["score"]
        summary["seconds"] = time.perf_counter() - t
        out["variants"][name] = summary
        print(
            f"{name:<32} acc {summary['accuracy']:.3f}  spearman {summary['spearman']:.3f}  "
            f"nll {summary['nll']:.3f}  ece {summary['ece']:.3f}  {summary['seconds']:.0f}s",
            flush=True,
        )
        path.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
