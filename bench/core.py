"""Core readout figures: load time, per-request latency, peak memory.

    .venv/bin/python bench/core.py [--model embedded] [--repeats 7] [--cold]

Prints a table and writes bench/results/core-<model>.json. Latencies are medians over
repeated runs with min/max spread; `--cold` rebuilds the converted cache in a temp dir
first (minutes for the embedded model) to time the one-time conversion.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import torch
from langchain_core.decisions import Choice, Noul, Score

from clef_tools import ReadoutDecider, load_decider
from clef_tools.evaluation import cpu_info

STATE = (
    "Ticket #88231 from Dana (premium plan, customer since 2019). Subject: double charge and "
    "missing parcel. Message: Hi, I ordered the walnut desk lamp (order 4411) on the 3rd. My "
    "card was charged twice, 89.90 each, and the parcel still shows 'label created' after "
    "twelve days. I have emailed twice without an answer. I need one charge refunded today and "
    "either the lamp shipped with express delivery or a full refund. If this is not solved by "
    "Friday I will dispute both charges with my bank and cancel my subscription. Previous "
    "tickets: #80112 (login problem, solved), #84550 (late delivery, refunded shipping fee). "
    "Agent notes: payment provider shows two captures 40 seconds apart; warehouse has no scan."
)
QUESTIONS: dict[str, Any] = {
    "refund": Noul(instructions="Is the customer asking for a refund?"),
    "team": Choice(
        instructions="Which team should handle this ticket first?",
        criteria={
            "billing": "charges, refunds",
            "shipping": "parcels, delivery",
            "fraud": "stolen cards",
            "tech": "bugs",
        },
    ),
    "urgency": Score(
        instructions="How urgent is this?", criteria=["can wait", "this week", "today", "now"]
    ),
    "churn": Noul(instructions="Is the customer threatening to leave?"),
    "anger": Score(
        instructions="How angry is the customer?", criteria=["calm", "annoyed", "angry"]
    ),
}


def timed(fn: Any, repeats: int) -> dict[str, float]:
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return {
        "p50_s": statistics.median(times),
        "min_s": min(times),
        "max_s": max(times),
        "runs": len(times),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="embedded")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--cold", action="store_true")
    args = ap.parse_args()

    result: dict[str, Any] = {
        "model": args.model,
        "machine": {
            "cpus": os.cpu_count(),
            "torch_threads": torch.get_num_threads(),
            "platform": platform.platform(),
            "cpu": cpu_info(),
        },
    }
    if args.cold:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["CLEF_TOOLS_CACHE"] = tmp
            t = time.perf_counter()
            load_decider(args.model)
            result["load_cold_s"] = time.perf_counter() - t
            os.environ.pop("CLEF_TOOLS_CACHE")
    t = time.perf_counter()
    # prefix reuse off: these are cold-request figures (bench/prefix.py measures reuse)
    decider = load_decider(args.model, prefix_cache_tokens=0, calibration="none")
    assert isinstance(decider, ReadoutDecider), "bench/core.py measures a local LM readout"
    result["load_cached_s"] = time.perf_counter() - t
    result["dtype"] = str(next(decider.model.parameters()).dtype)
    state_tokens = len(decider.tokenizer(STATE)["input_ids"])
    result["state_tokens"] = state_tokens
    one = {"refund": QUESTIONS["refund"]}
    result["one_question"] = timed(lambda: decider.decide(STATE, one), args.repeats)
    result["five_questions"] = timed(lambda: decider.decide(STATE, QUESTIONS), args.repeats)
    usage: dict[str, Any] = dict(decider.decide(STATE, QUESTIONS).usage or {})
    result["five_questions"]["input_tokens"] = usage.get("input_tokens")
    result["peak_rss_gib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20

    rows = [
        ("model", f"{decider.model_id} ({result['dtype']})"),
        ("state tokens", str(state_tokens)),
        (
            "load, cold (convert + cache)",
            f"{result['load_cold_s']:.1f} s" if "load_cold_s" in result else "not run (--cold)",
        ),
        ("load, cached", f"{result['load_cached_s']:.1f} s"),
        (
            "1 question p50 [min–max]",
            "{p50_s:.2f} s [{min_s:.2f}–{max_s:.2f}]".format(**result["one_question"]),
        ),
        (
            "5 questions p50 [min–max]",
            "{p50_s:.2f} s [{min_s:.2f}–{max_s:.2f}]".format(**result["five_questions"]),
        ),
        ("peak RSS", f"{result['peak_rss_gib']:.2f} GiB"),
    ]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    out = Path(__file__).parent / "results" / f"core-{decider.model_id}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
