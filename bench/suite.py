"""The request-path benchmark suite: one command, one process, the embedded model.

    scripts/bench                       # = .venv/bin/python bench/suite.py
    .venv/bin/python bench/suite.py --quick   # smaller sizes, for a smoke run

Sections (each prints a table; all land in bench/results/suite-<model>.json):
1. one-pass readout vs per-option likelihood scoring (colibri/LitJev: one teacher-forced
   forward per option) on the same Q×K requests: latency ratio, max probability difference;
2. cold vs prefix-cache hit on a growing transcript (0.25k, 1k, 4k tokens);
3. serial vs 8 and 32 concurrent callers: throughput ratio, p50/p95;
4. surface overheads with an instant backend (LangChain invoke, HTTP, MCP stdio);
5. peak RSS.
Medians over repeats, with every run kept in the JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import torch

from clef_tools import ReadoutDecider, load_readout
from clef_tools.evaluation import cpu_info

sys.path.insert(0, str(Path(__file__).parent))
import prefix as prefix_bench  # sibling scripts, found via the line above
import surfaces as surface_bench

HERE = Path(__file__).parent

STATE = (
    "Ticket from Dana (premium plan): my card was charged twice for order 4411 and the parcel "
    "still shows 'label created' after twelve days. I need one charge refunded today."
)
CHOICES: dict[str, Any] = {
    "team": {
        "type": "choice",
        "instructions": "Which team should handle this ticket?",
        "criteria": {
            "billing": "charges and refunds",
            "shipping": "parcels and delivery",
            "tech": "bugs and login",
            "sales": "new orders and upgrades",
        },
    },
    "next_step": {
        "type": "choice",
        "instructions": "What should the agent do next?",
        "criteria": {
            "refund": "refund a charge",
            "escalate": "hand to a human",
            "reply": "answer with information",
            "close": "close the ticket",
        },
    },
}


def _ms(times: list[float]) -> dict[str, float]:
    ms = sorted(t * 1000 for t in times)
    return {
        "p50_ms": statistics.median(ms),
        "p95_ms": ms[int(0.95 * (len(ms) - 1))],
        "min_ms": ms[0],
        "max_ms": ms[-1],
        "n": len(ms),
    }


# -- 1. one pass vs per option ------------------------------------------------------------


def per_option(d: ReadoutDecider, state: str, questions: dict[str, Any]) -> dict[str, list[float]]:
    """colibri-style: each option's label teacher-forced in its own full forward pass."""
    request = d.prepare([{"state": state, "questions": questions}])[0]
    plan = d._plan(request)
    prefix_ids, suffixes = d._split(d.frame.prefix(plan.state_text), plan.rows)
    out: dict[str, list[float]] = {}
    for row, suffix in zip(plan.rows, suffixes, strict=True):
        logps = []
        for label in row.labels.token_ids:
            ids = torch.tensor([[*prefix_ids, *suffix, label]])
            with torch.inference_mode():
                logits = d.model(input_ids=ids).logits[0, -2].float()
            logps.append(torch.log_softmax(logits, -1)[label].item())
        out[row.qid] = torch.softmax(torch.tensor(logps, dtype=torch.float64), 0).tolist()
    return out


def one_pass_vs_per_option(base: ReadoutDecider, repeats: int) -> dict[str, Any]:
    # the pure readout on both sides: no rotation, no prior division, no prefix reuse
    d = ReadoutDecider(
        base.model,
        base.tokenizer,
        model_id=base.model_id,
        debias=False,
        contextual=(),
        prefix_cache_tokens=0,
    )
    one_t, per_t, diffs = [], [], []
    for _ in range(repeats):
        t = time.perf_counter()
        fast = d.decide(STATE, CHOICES)
        one_t.append(time.perf_counter() - t)
        t = time.perf_counter()
        slow = per_option(d, STATE, CHOICES)
        per_t.append(time.perf_counter() - t)
        for qid in CHOICES:
            a = list(fast.choices[qid].probabilities.values())
            diffs += [abs(x - y) for x, y in zip(a, slow[qid], strict=True)]
    k = len(CHOICES["team"]["criteria"])
    ratio = statistics.median(per_t) / statistics.median(one_t)
    return {
        "questions": len(CHOICES),
        "options": k,
        "one_pass": _ms(one_t),
        "per_option": _ms(per_t),
        "speedup": ratio,
        "target_speedup": 0.8 * k,
        "max_probability_difference": max(diffs),
    }


# -- 3. concurrency -----------------------------------------------------------------------


async def callers(d: ReadoutDecider, n: int, per_caller: int) -> dict[str, Any]:
    latencies: list[float] = []

    async def one(i: int) -> None:
        for j in range(per_caller):
            t = time.perf_counter()
            await d.adecide(
                f"Caller {i}, message {j}: where is my parcel?",
                {"late": {"type": "noul", "instructions": "Is a parcel late?"}},
            )
            latencies.append(time.perf_counter() - t)

    start = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(n)))
    wall = time.perf_counter() - start
    return {
        "callers": n,
        "requests": n * per_caller,
        "wall_s": wall,
        "throughput_rps": n * per_caller / wall,
        **_ms(latencies),
    }


def concurrency(base: ReadoutDecider, sizes: list[int], total: int) -> dict[str, Any]:
    asyncio.run(callers(base, 1, 1))  # warm the system prefix and the yes/no prior
    serial = asyncio.run(callers(base, 1, total))
    rows = {"serial": serial}
    for n in sizes:
        r = asyncio.run(callers(base, n, max(1, total // n)))
        r["throughput_ratio"] = r["throughput_rps"] / serial["throughput_rps"]
        r["p95_vs_unloaded"] = r["p95_ms"] / serial["p95_ms"]
        rows[f"concurrent_{n}"] = r
    return rows


# -- main ---------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="embedded")
    ap.add_argument("--quick", action="store_true", help="small sizes (smoke run)")
    ap.add_argument(
        "--skip",
        nargs="*",
        default=[],
        help="sections to skip: one_pass prefix concurrency surfaces",
    )
    args = ap.parse_args()
    repeats = 2 if args.quick else 3
    base = load_readout(args.model)
    result: dict[str, Any] = {
        "model": base.model_id,
        "machine": {"cpu": cpu_info(), "python": platform.python_version()},
        "dtype": base.info().dtype,
        "torch_threads": torch.get_num_threads(),
    }

    if "one_pass" not in args.skip:
        r = result["one_pass_vs_per_option"] = one_pass_vs_per_option(base, repeats)
        print(f"\n1. one pass vs per option ({r['questions']} questions x {r['options']} options)")
        print(
            f"   one pass {r['one_pass']['p50_ms'] / 1000:.2f} s, per option "
            f"{r['per_option']['p50_ms'] / 1000:.2f} s -> {r['speedup']:.1f}x faster "
            f"(target >= {r['target_speedup']:.1f}x); max |dp| {r['max_probability_difference']:.2e}"
        )
    if "prefix" not in args.skip:
        sizes = [250, 1000] if args.quick else [250, 1000, 4000]
        rows = result["prefix"] = prefix_bench.measure(base, sizes, 2)
        print("\n2. growing transcript: cold vs prefix hit")
        print(f"   {'tokens':>7} {'cold p50 s':>11} {'hit p50 s':>10} {'hit/cold':>9}")
        for row in rows:
            print(
                f"   {row['input_tokens']:>7} {row['cold_p50_s']:>11.2f} {row['hit_p50_s']:>10.2f}"
                f" {row['ratio']:>9.2f}"
            )
    if "concurrency" not in args.skip:
        total = 8 if args.quick else 16
        r = result["concurrency"] = concurrency(base, [8] if args.quick else [8, 32], total)
        print("\n3. concurrent callers (short yes/no requests)")
        print(f"   {'':<14} {'req/s':>7} {'x serial':>9} {'p50 ms':>9} {'p95 ms':>9}")
        for name, row in r.items():
            print(
                f"   {name:<14} {row['throughput_rps']:>7.2f} "
                f"{row.get('throughput_ratio', 1.0):>9.2f} {row['p50_ms']:>9.0f} {row['p95_ms']:>9.0f}"
            )
    if "surfaces" not in args.skip:
        lc = surface_bench.langchain_uniform(200)
        import anyio
        from _uniform_server import UniformDecider
        from http_surface import round_trips, server_process
        from surfaces import mcp_stdio

        bare = surface_bench.bare(UniformDecider(), 200)
        with server_process("uniform") as url:
            http = round_trips(url, 200)
        mcp = anyio.run(mcp_stdio, "uniform", 200)
        result["surfaces"] = {
            "langchain_overhead_ms": lc["langchain_invoke"]["p50_ms"] - lc["bare"]["p50_ms"],
            "http_overhead_ms": http["p50_ms"] - bare["p50_ms"],
            "mcp_stdio_overhead_ms": mcp["p50_ms"] - bare["p50_ms"],
        }
        print("\n4. surface overheads, instant backend (p50 minus bare p50)")
        for name, v in result["surfaces"].items():
            print(f"   {name:<24} {v:.2f} ms")
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result["peak_rss_gib"] = rss_kb / 1024 / 1024
    print(f"\n5. peak RSS {result['peak_rss_gib']:.2f} GiB")
    out = HERE / "results" / f"suite-{base.model_id}{'-quick' if args.quick else ''}.json"
    out.write_text(json.dumps(result, indent=2))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
