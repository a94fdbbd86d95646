"""Cold vs prefix-cache-hit latency on a growing transcript (embedded model by default).

    .venv/bin/python bench/prefix.py [--model embedded] [--sizes 250 1000] [--repeats 3]

For each target size, a transcript of about that many tokens gets one more user message
and one yes/no question: "cold" decides it with the prefix cache off; "hit" decides it right
after the same transcript without the new message (the usual agent pattern), so only the
new message and the question are computed. Prints a table, writes bench/results/prefix-*.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from langchain_core.decisions import Noul
from langchain_core.messages import AIMessage, HumanMessage

from clef_tools import ReadoutDecider, load_readout

Q = {"late": Noul(instructions="Is the customer's parcel late?")}
TURNS = [
    HumanMessage(
        "Hi, I ordered a walnut desk lamp (order 4411) on the 3rd and paid for express delivery."
    ),
    AIMessage("Thanks for reaching out! Let me look up order 4411 for you."),
    HumanMessage("The tracking page has said 'label created' for twelve days now."),
    AIMessage("I can see the label was created on the 4th but there is no carrier scan yet."),
]


def transcript(decider: ReadoutDecider, tokens: int) -> list[Any]:
    out: list[Any] = []
    i = 0
    while (
        len(decider.tokenizer(decider.frame.prefix(str([m.content for m in out])))["input_ids"])
        < tokens
    ):
        out.append(TURNS[i % len(TURNS)])
        i += 1
    return out


def measure(base: ReadoutDecider, sizes: list[int], repeats: int) -> list[dict[str, Any]]:
    """Cold vs hit rows for each transcript size (the suite calls this too)."""
    cold = ReadoutDecider(base.model, base.tokenizer, model_id=base.model_id, prefix_cache_tokens=0)
    cold.decide("warm-up", Q)  # the yes/no prior is computed once per question: not timed
    rows: list[dict[str, Any]] = []
    for size in sizes:
        history = transcript(base, size)
        cold_t, hit_t = [], []
        for r in range(repeats):
            new = [*history, HumanMessage(f"Any news on my parcel? (follow-up {r})")]
            t = time.perf_counter()
            a = cold.decide(new, Q)
            cold_t.append(time.perf_counter() - t)
            warm = ReadoutDecider(base.model, base.tokenizer, model_id=base.model_id)
            warm.decide(history, Q)  # the previous turn, as an agent would have asked it
            t = time.perf_counter()
            b = warm.decide(new, Q)
            hit_t.append(time.perf_counter() - t)
            assert abs(a.nouls["late"].noul - b.nouls["late"].noul) < 1e-4
        tokens = a.usage["input_tokens"] if a.usage else 0
        rows.append(
            {
                "target_tokens": size,
                "input_tokens": tokens,
                "cold_p50_s": statistics.median(cold_t),
                "hit_p50_s": statistics.median(hit_t),
                "ratio": statistics.median(hit_t) / statistics.median(cold_t),
                "cold_s": cold_t,
                "hit_s": hit_t,
            }
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="embedded")
    ap.add_argument("--sizes", type=int, nargs="+", default=[250, 1000])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    base = load_readout(args.model)
    rows = measure(base, args.sizes, args.repeats)
    print(f"{'tokens':>7} {'cold p50 s':>11} {'hit p50 s':>10} {'hit/cold':>9}")
    for r in rows:
        print(
            f"{r['input_tokens']:>7} {r['cold_p50_s']:>11.2f} {r['hit_p50_s']:>10.2f} {r['ratio']:>9.2f}"
        )
    out = Path(__file__).parent / "results" / f"prefix-{base.model_id}.json"
    out.write_text(
        json.dumps({"model": base.model_id, "rows": rows, "target_ratio_at_1k": 0.3}, indent=2)
    )
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
