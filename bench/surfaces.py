"""Surface overheads: the same request through each surface vs the bare backend.

    .venv/bin/python bench/surfaces.py [--model smollm2] [--calls 40]

MCP stdio: a real `clef-tools mcp` subprocess and the SDK client; overhead = p50 of the
round trip minus p50 of `decider.decide` on the same request in this process. Prints a
table and writes bench/results/surfaces-<model>.json. The small model keeps the backend's
own time (and so its noise) low, which is what makes a millisecond difference visible.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from clef_tools import Decider, load_decider

sys.path.insert(0, str(Path(__file__).parent))
from _uniform_server import UniformDecider  # a sibling script, found via the line above

REQUEST: dict[str, Any] = {
    "state": "Where is my parcel? The tracking page has said in transit for nine days.",
    "questions": {
        "team": {
            "type": "choice",
            "instructions": "Which team?",
            "criteria": {"billing": "charges", "shipping": "parcels", "tech": "bugs"},
        },
        "late": {"type": "noul", "instructions": "Is a parcel late?"},
    },
}


def summary(times: list[float]) -> dict[str, float]:
    ms = sorted(t * 1000 for t in times)
    return {
        "p50_ms": statistics.median(ms),
        "p95_ms": ms[int(0.95 * (len(ms) - 1))],
        "min_ms": ms[0],
        "max_ms": ms[-1],
        "n": len(ms),
    }


def bare(decider: Decider, calls: int) -> dict[str, float]:
    decider.decide(REQUEST["state"], REQUEST["questions"])
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        decider.decide(REQUEST["state"], REQUEST["questions"])
        times.append(time.perf_counter() - t)
    return summary(times)


def langchain_uniform(calls: int) -> dict[str, dict[str, float]]:
    """ClefDecisionModel.invoke vs the bare backend on the same request, interleaved."""
    from langchain_clef import ClefDecisionModel

    decider = UniformDecider()
    model = ClefDecisionModel(decider=decider)
    bare_t, lc_t = [], []
    for _ in range(calls):
        t = time.perf_counter()
        decider.decide(REQUEST["state"], REQUEST["questions"])
        bare_t.append(time.perf_counter() - t)
        t = time.perf_counter()
        model.invoke(REQUEST)  # type: ignore[arg-type]
        lc_t.append(time.perf_counter() - t)
    return {"bare": summary(bare_t), "langchain_invoke": summary(lc_t)}


async def mcp_stdio(model: str, calls: int) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k in ("HOME", "PATH", "CLEF_TOOLS_CACHE", "LANG")}
    if model == "uniform":
        args = [str(Path(__file__).with_name("_uniform_server.py"))]
    else:
        args = ["-m", "clef_mcp", "--model", model, "--quiet"]
    params = StdioServerParameters(command=sys.executable, args=args, env=env)
    times = []
    async with Client(params, read_timeout_seconds=600) as client:
        await client.call_tool("decide", REQUEST)
        for _ in range(calls):
            t = time.perf_counter()
            result = await client.call_tool("decide", REQUEST)
            times.append(time.perf_counter() - t)
            assert not result.is_error, result.content
    return summary(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="smollm2")
    ap.add_argument("--calls", type=int, default=40)
    args = ap.parse_args()
    result: dict[str, Any] = {"model": args.model, "calls": args.calls}
    # interleave two rounds so drift in machine load hits both sides alike
    rounds: dict[str, list[dict[str, float]]] = {"bare": [], "mcp_stdio": []}
    for _ in range(2):
        rounds["bare"].append(bare(load_decider(args.model), args.calls // 2))
        rounds["mcp_stdio"].append(anyio.run(mcp_stdio, args.model, args.calls // 2))
    for name, rs in rounds.items():
        result[name] = {"p50_ms": statistics.median(r["p50_ms"] for r in rs), "rounds": rs}
    result["mcp_stdio_overhead_ms"] = result["mcp_stdio"]["p50_ms"] - result["bare"]["p50_ms"]
    # the same difference with an instant backend: the surface's own cost, without model noise
    result["uniform_bare"] = bare(UniformDecider(), args.calls * 5)
    result["uniform_mcp_stdio"] = anyio.run(mcp_stdio, "uniform", args.calls * 5)
    result["mcp_stdio_overhead_isolated_ms"] = (
        result["uniform_mcp_stdio"]["p50_ms"] - result["uniform_bare"]["p50_ms"]
    )
    result["langchain"] = langchain_uniform(max(200, args.calls * 5))
    result["langchain_overhead_ms"] = (
        result["langchain"]["langchain_invoke"]["p50_ms"] - result["langchain"]["bare"]["p50_ms"]
    )
    result["targets"] = {"mcp_stdio_overhead_ms": 5.0, "langchain_overhead_ms": 1.0}
    print(f"{'surface':<12} {'p50 ms':>10}  rounds (p50 ms)")
    for name in rounds:
        print(
            f"{name:<12} {result[name]['p50_ms']:>10.1f}  "
            + ", ".join(f"{r['p50_ms']:.1f}" for r in rounds[name])
        )
    print(f"{'uniform bare':<12} {result['uniform_bare']['p50_ms']:>10.2f}")
    print(f"{'uniform mcp':<12} {result['uniform_mcp_stdio']['p50_ms']:>10.2f}")
    spread = result["bare"]["rounds"][0]["max_ms"] - result["bare"]["rounds"][0]["min_ms"]
    print(
        f"MCP stdio overhead: {result['mcp_stdio_overhead_ms']:.1f} ms with {args.model} "
        f"(its own min-max spread {spread:.0f} ms); "
        f"{result['mcp_stdio_overhead_isolated_ms']:.2f} ms with an instant backend (target ≤ 5 ms)"
    )
    print(
        f"LangChain ClefDecisionModel.invoke overhead: {result['langchain_overhead_ms']:.3f} ms "
        f"(p50 over {result['langchain']['bare']['n']} calls; target ≤ 1 ms)"
    )
    out = Path(__file__).parent / "results" / f"surfaces-{args.model}.json"
    out.write_text(json.dumps(result, indent=2))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
