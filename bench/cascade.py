"""Cascade: fit the embedding tier on dev splits, then measure it on held-out items.

    .venv/bin/python bench/cascade.py --fit            # writes bench/results/cascade-fit.json
    .venv/bin/python bench/cascade.py [--lm-items 40]  # writes bench/results/cascade.json

Data: BANKING77 (../shared/data/banking77, CC-BY-4.0) and BFCL v4 (`bfcl-eval==2026.3.23`,
Apache-2.0; installed --no-deps into a cache folder on first use). Fit: temperature by NLL
and the hand-off threshold on BANKING77 *train* and BFCL *live_multiple* only. Report: BFCL
`multiple` (state = the user turn, options = function names with descriptions, gold = the
ground-truth function) and BANKING77 *test*, never items used for fitting.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clef_tools import CascadeDecider, EmbeddingDecider, choice_confidence, load_readout
from clef_tools.evaluation import banking77_folder, dataset_wheel

HERE = Path(__file__).parent
BANKING = banking77_folder()
BFCL_VERSION = "2026.3.23"
PRECISION_TARGET = 0.97
Item = tuple[str, dict[str, Any], str]  # state, criteria, gold label


# -- data ---------------------------------------------------------------------------------


def banking(split: str, n: int, seed: int = 0) -> list[Item]:
    labels = json.loads((BANKING / "categories.json").read_text())
    with (BANKING / f"{split}.csv").open() as f:
        rows = list(csv.DictReader(f))
    random.Random(seed).shuffle(rows)
    criteria = {label: None for label in labels}
    return [(r["text"], criteria, r["category"]) for r in rows[:n]]


def bfcl(name: str, n: int | None = None, seed: int = 0) -> list[Item]:
    with dataset_wheel("bfcl-eval", BFCL_VERSION) as zf:
        questions = [
            json.loads(line)
            for line in zf.read(f"bfcl_eval/data/BFCL_v4_{name}.json").decode().splitlines()
        ]
        answers = {
            a["id"]: a
            for a in (
                json.loads(line)
                for line in zf.read(f"bfcl_eval/data/possible_answer/BFCL_v4_{name}.json")
                .decode()
                .splitlines()
            )
        }
    items: list[Item] = []
    for q in questions:
        gold = next(iter(answers[q["id"]]["ground_truth"][0]))
        turns = [m["content"] for m in q["question"][0] if m["role"] == "user"]
        names = [f["name"] for f in q["function"]]
        if len(set(names)) != len(names) or gold not in names:
            continue
        criteria = {f["name"]: f.get("description") or None for f in q["function"]}
        items.append((turns[-1], criteria, gold))
    if n is not None:
        random.Random(seed).shuffle(items)
        items = items[:n]
    return items


# -- fitting ------------------------------------------------------------------------------


def cosines(fast: EmbeddingDecider, items: list[Item]) -> list[tuple[list[float], int]]:
    out = []
    for state, criteria, gold in items:
        if fast.fits(state):
            out.append((fast.similarities(state, criteria), list(criteria).index(gold)))
    return out


def nll(scored: list[tuple[list[float], int]], t: float) -> float:
    total = 0.0
    for cos, gold in scored:
        logits = [c / t for c in cos]
        top = max(logits)
        total += top + math.log(sum(math.exp(x - top) for x in logits)) - logits[gold]
    return total / len(scored)


def fit_temperature(scored: list[tuple[list[float], int]]) -> float:
    lo, hi = math.log(1e-3), math.log(1.0)  # golden-section search on log T
    g = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if nll(scored, math.exp(a)) < nll(scored, math.exp(b)):
            hi = b
        else:
            lo = a
    return math.exp((lo + hi) / 2)


def probs(cos: list[float], t: float) -> list[float]:
    top = max(c / t for c in cos)
    e = [math.exp(c / t - top) for c in cos]
    return [x / sum(e) for x in e]


def pick_threshold(scored: list[tuple[list[float], int]], t: float) -> dict[str, float]:
    rows = []
    for cos, gold in scored:
        p = probs(cos, t)
        rows.append((choice_confidence(p), max(range(len(p)), key=p.__getitem__) == gold))
    for threshold in [i / 100 for i in range(101)]:
        kept = [ok for conf, ok in rows if conf >= threshold]
        if kept and sum(kept) / len(kept) >= PRECISION_TARGET:
            return {
                "threshold": threshold,
                "dev_precision": sum(kept) / len(kept),
                "dev_coverage": len(kept) / len(rows),
            }
    return {"threshold": 1.01, "dev_precision": float("nan"), "dev_coverage": 0.0}


def ece(rows: list[tuple[float, bool]], bins: int = 10) -> float:
    total = 0.0
    for b in range(bins):
        cell = [
            (p, ok)
            for p, ok in rows
            if b / bins <= p < (b + 1) / bins or (b == bins - 1 and p == 1)
        ]
        if cell:
            total += (
                len(cell)
                / len(rows)
                * abs(statistics.mean(p for p, _ in cell) - statistics.mean(ok for _, ok in cell))
            )
    return total


def fit(args: argparse.Namespace) -> None:
    fast = EmbeddingDecider()
    dev = {
        "banking77_train": banking("train", args.dev_items),
        "bfcl_live_multiple": bfcl("live_multiple", args.dev_items),
    }
    scored = {name: cosines(fast, items) for name, items in dev.items()}
    pooled = [row for rows in scored.values() for row in rows]
    t = fit_temperature(pooled)
    result: dict[str, Any] = {
        "temperature": t,
        "precision_target": PRECISION_TARGET,
        "dev_items": {k: len(v) for k, v in scored.items()},
    }
    result |= pick_threshold(pooled, t)
    for name, rows in scored.items():
        result[name] = {"nll": nll(rows, t), **pick_threshold(rows, t)}
    out = HERE / "results" / "cascade-fit.json"
    out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    print(f"wrote {out}; copy temperature/threshold into clef_tools/_embedding.py/_cascade.py")


# -- evaluation ---------------------------------------------------------------------------


def timed(fn: Any) -> tuple[Any, float]:
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def evaluate(args: argparse.Namespace) -> None:
    fast = EmbeddingDecider()
    lm = load_readout("embedded")
    cascade = CascadeDecider(lm, fast)
    result: dict[str, Any] = {"temperature": fast.temperature, "threshold": cascade.threshold}
    sets: dict[str, Callable[[], list[Item]]] = {
        "bfcl_multiple": lambda: bfcl("multiple"),
        "banking77_test": lambda: banking("test", args.banking_items),
    }
    for name, load_items in sets.items():
        if name not in args.sets:
            continue
        items = load_items()
        q = "pick"
        rows, emb_times, conf_ok = [], [], []
        for state, criteria, gold in items:
            question = {
                q: {
                    "type": "choice",
                    "instructions": "Which option fits the request?",
                    "criteria": criteria,
                }
            }
            r, dt = timed(lambda s=state, qq=question: fast.decide(s, qq))
            emb_times.append(dt)
            p = r.choices[q]
            conf_ok.append((max(p.probabilities.values()), p.choice == gold))
            rows.append((state, question, gold, p.choice == gold, p.confidence))
        section: dict[str, Any] = {
            "items": len(rows),
            "embedding_accuracy": statistics.mean(ok for *_, ok, _ in rows),
            "embedding_p50_ms": 1000 * statistics.median(emb_times),
            "embedding_p95_ms": 1000 * sorted(emb_times)[int(0.95 * (len(emb_times) - 1))],
            "embedding_ece_top": ece(conf_ok),
            "embedding_coverage": statistics.mean(c >= cascade.threshold for *_, c in rows),
        }
        # LM alone and the cascade on the same first N items; the cascade's LM calls are
        # the same requests as LM-alone's for the items it hands off, so they are timed once.
        n = args.lm_items if name == "bfcl_multiple" else args.banking_lm_items
        subset = rows[:n]
        lm_ok, lm_t, cas_ok, cas_t, tiers = [], [], [], [], []
        for state, question, gold, _, _ in subset:
            if name == "bfcl_multiple":
                r, dt = timed(lambda s=state, qq=question: lm.decide(s, qq))
                lm_ok.append(r.choices[q].choice == gold)
                lm_t.append(dt)
            r, dt = timed(lambda s=state, qq=question: cascade.decide(s, qq))
            cas_ok.append(r.choices[q].choice == gold)
            cas_t.append(dt)
            tiers.append(r.tiers[q])
        if lm_ok:
            section["lm_alone"] = {
                "items": len(lm_ok),
                "accuracy": statistics.mean(lm_ok),
                "p50_ms": 1000 * statistics.median(lm_t),
            }
        section["cascade"] = {
            "items": len(cas_ok),
            "accuracy": statistics.mean(cas_ok),
            "p50_ms": 1000 * statistics.median(cas_t),
            "p95_ms": 1000 * sorted(cas_t)[int(0.95 * (len(cas_t) - 1))],
            "tiers": {t: tiers.count(t) for t in sorted(set(tiers))},
            "embedding_accuracy_same_items": statistics.mean(ok for *_, ok, _ in subset),
        }
        result[name] = section
        print(name, json.dumps(section, indent=1))
    result["targets"] = {"cascade_p50_ms": 50, "cascade_accuracy_vs_lm": ">="}
    out = HERE / "results" / args.out
    out.write_text(json.dumps(result, indent=2))
    print(f"wrote {out}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("--dev-items", type=int, default=400)
    ap.add_argument("--lm-items", type=int, default=40)
    ap.add_argument("--banking-items", type=int, default=300)
    ap.add_argument("--banking-lm-items", type=int, default=20)
    ap.add_argument("--sets", nargs="+", default=["bfcl_multiple", "banking77_test"])
    ap.add_argument("--out", default="cascade.json")
    args = ap.parse_args()
    fit(args) if args.fit else evaluate(args)


if __name__ == "__main__":
    main()
