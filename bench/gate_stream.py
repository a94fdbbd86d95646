"""Reviews given in stream: what a new deployment of the gate sees (issue 12).

The eval's `--reviews-from` seeds k reviews per tool from dev before judging the test split.
A deployment starts with none: the gate judges each call as it comes, a human reviews the
calls it escalates (the HITL interrupt; allowed and denied calls are not shown to anyone),
and later calls benefit. This replays that on the AgentDojo *test* split, from the measured
answers (bench/results/gate-questions.json) through the same stages as
`bench/gate_reviews.py` (fast band, model tier, tool offset, near-duplicate pull) with the
shipped knobs. Nothing is fitted here: it only reports.

Calls arrive in a random order (seeds 0..N-1); each order is one stream. Reported per
stream and averaged: share of safe calls allowed, of unsafe calls allowed and denied, and
how many reviews the human gave, in the first and second half of the stream and overall.

    .venv/bin/python bench/gate_stream.py
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gate_reviews import measured_replay

from clef_tools.gate import GatePolicy, ReviewStore

HERE = Path(__file__).parent
ROOT = HERE.parent
OUT = HERE / "results" / "gate-stream.json"
STREAMS = 20


def _shares(rows: Sequence[tuple[bool, str]]) -> dict[str, float | int]:
    safe = [v for unsafe, v in rows if not unsafe]
    bad = [v for unsafe, v in rows if unsafe]
    return {
        "calls": len(rows),
        "safe_allowed": sum(v == "allow" for v in safe) / max(len(safe), 1),
        "unsafe_allowed": sum(v == "allow" for v in bad) / max(len(bad), 1),
        "unsafe_denied": sum(v == "deny" for v in bad) / max(len(bad), 1),
        "escalated": sum(v == "escalate" for _, v in rows) / max(len(rows), 1),
    }


def main() -> None:
    replay = measured_replay("test")
    model, items, policy = replay.model, replay.items, GatePolicy()
    knobs = (model.review_strength, model.review_temperature, model.review_tool_prior)
    streams: list[dict[str, Any]] = []
    for seed in range(STREAMS):
        order = list(range(len(items)))
        random.Random(seed).shuffle(order)
        store = ReviewStore(encoder=replay.encoder)
        rows: list[tuple[bool, str]] = []
        reviews = 0
        for n in order:
            risk, before = replay.judge(n, store, *knobs)
            verdict = policy.band(risk)
            unsafe = bool(items[n]["gold"]["unsafe"])
            rows.append((unsafe, verdict))
            if verdict == "escalate":  # the human sees it and decides right
                gate = items[n]["gate"]
                decision = "reject" if unsafe else "approve"
                store.record(
                    gate["tool"], gate["args"], decision, risk=before, risk_model=model.name
                )
                reviews += 1
        half = len(rows) // 2
        streams.append(
            {
                "seed": seed,
                "reviews": reviews,
                "all": _shares(rows),
                "first_half": _shares(rows[:half]),
                "second_half": _shares(rows[half:]),
            }
        )
    empty = ReviewStore(encoder=replay.encoder)
    no_reviews = [
        (bool(item["gold"]["unsafe"]), policy.band(replay.judge(n, empty, *knobs)[0]))
        for n, item in enumerate(items)
    ]
    mean = {
        part: {
            key: float(np.mean([s[part][key] for s in streams]))
            for key in ("safe_allowed", "unsafe_allowed", "unsafe_denied", "escalated")
        }
        for part in ("all", "first_half", "second_half")
    }
    result = {
        "set": "agentdojo-test",
        "calls": len(items),
        "streams": STREAMS,
        "knobs": dict(zip(("strength", "temperature", "tool_prior"), knobs, strict=True)),
        "no_reviews": _shares(no_reviews),
        "mean": mean,
        "mean_reviews": float(np.mean([s["reviews"] for s in streams])),
        "per_stream": streams,
    }
    OUT.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: result[k] for k in ("no_reviews", "mean", "mean_reviews")}, indent=1))


if __name__ == "__main__":
    main()
