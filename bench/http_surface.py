"""HTTP surface: `clef-tools serve` + `SystemOneClient` overhead, and behaviour under load.

    .venv/bin/python bench/http_surface.py [--model smollm2] [--calls 200]

Overhead = p50 of a loopback round trip (client here, server in its own process) minus p50
of the bare backend on the same request in this process; measured with an instant backend
(the HTTP layer's own cost) and with a real model. Load = N concurrent async clients × M
requests each against the server: errors, p50/p95 latency and throughput. Prints a table and
writes bench/results/http-<model>.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from clef_tools import SystemOneClient, load_decider

sys.path.insert(0, str(Path(__file__).parent))
from _uniform_server import UniformDecider  # a sibling script, found via the line above
from surfaces import REQUEST, bare, summary

HERE = Path(__file__).parent


@contextmanager
def server_process(model: str) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    if model == "uniform":
        cmd = [sys.executable, str(HERE / "_uniform_server.py"), "--http", str(port)]
    else:
        cmd = [
            sys.executable,
            "-m",
            "clef_tools.cli",
            "serve",
            "--model",
            model,
            "--quiet",
            "--port",
            str(port),
        ]
    env = {k: v for k, v in os.environ.items() if k != "CLEF_TOOLS_API_KEY"}
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 600
        while True:
            try:
                if httpx.get(f"{url}/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server for {model} did not start")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def round_trips(url: str, calls: int) -> dict[str, float]:
    client = SystemOneClient(url)
    client.decide(REQUEST["state"], REQUEST["questions"])  # model discovery + warm connection
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        client.decide(REQUEST["state"], REQUEST["questions"])
        times.append(time.perf_counter() - t)
    client.close()
    return summary(times)


async def load(url: str, clients: int, per_client: int) -> dict[str, Any]:
    latencies: list[float] = []
    errors: list[str] = []

    async def one_client() -> None:
        client = SystemOneClient(url, model="m", timeout=600)
        for _ in range(per_client):
            t = time.perf_counter()
            try:
                await client.adecide(REQUEST["state"], REQUEST["questions"])
            except Exception as exc:  # counted, reported
                errors.append(f"{type(exc).__name__}: {exc}")
            latencies.append(time.perf_counter() - t)
        await client.aclose()

    start = time.perf_counter()
    await asyncio.gather(*(one_client() for _ in range(clients)))
    wall = time.perf_counter() - start
    return {
        "clients": clients,
        "requests_per_client": per_client,
        "errors": len(errors),
        "first_errors": errors[:3],
        "wall_s": wall,
        "throughput_rps": clients * per_client / wall,
        **summary(latencies),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="smollm2")
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--model-calls", type=int, default=20)
    args = ap.parse_args()
    result: dict[str, Any] = {"model": args.model}

    with server_process("uniform") as url:
        rounds: list[dict[str, Any]] = []
        for _ in range(3):  # interleaved rounds, so drift hits both sides alike
            b = bare(UniformDecider(), args.calls)
            h = round_trips(url, args.calls)
            rounds.append({"bare": b, "http": h, "overhead_ms": h["p50_ms"] - b["p50_ms"]})
        result["uniform"] = {
            "rounds": rounds,
            "overhead_ms": statistics.median(r["overhead_ms"] for r in rounds),
        }
        result["uniform_load"] = asyncio.run(load(url, 32, 20))

    decider = load_decider(args.model)
    with server_process(args.model) as url:
        rounds = []
        for _ in range(2):
            b = bare(decider, args.model_calls // 2)
            h = round_trips(url, args.model_calls // 2)
            rounds.append({"bare": b, "http": h, "overhead_ms": h["p50_ms"] - b["p50_ms"]})
        result["model_rounds"] = rounds
        result["model_overhead_ms"] = statistics.median(r["overhead_ms"] for r in rounds)
        result["model_load"] = asyncio.run(load(url, 8, 4))
    result["targets"] = {"http_overhead_ms": 3.0, "load_errors": 0}

    u = result["uniform"]
    print(f"{'what':<34} {'p50 ms':>9} {'p95 ms':>9}")
    for i, r in enumerate(u["rounds"]):
        print(
            f"{'instant backend, bare (round ' + str(i) + ')':<34} {r['bare']['p50_ms']:>9.3f} "
            f"{r['bare']['p95_ms']:>9.3f}"
        )
        print(
            f"{'instant backend, HTTP (round ' + str(i) + ')':<34} {r['http']['p50_ms']:>9.3f} "
            f"{r['http']['p95_ms']:>9.3f}"
        )
    for name, r in (
        ("instant, 32 clients x 20", result["uniform_load"]),
        (f"{args.model}, 8 clients x 4", result["model_load"]),
    ):
        print(
            f"{name:<34} {r['p50_ms']:>9.1f} {r['p95_ms']:>9.1f}  errors {r['errors']}, "
            f"{r['throughput_rps']:.1f} req/s"
        )
    for r in result["model_rounds"]:
        print(
            f"{args.model + ' bare / HTTP':<34} {r['bare']['p50_ms']:>9.1f} {r['http']['p50_ms']:>9.1f}"
        )
    print(
        f"HTTP overhead: {u['overhead_ms']:.2f} ms with an instant backend (target <= 3 ms); "
        f"{result['model_overhead_ms']:.1f} ms with {args.model} (inside its own spread)"
    )
    out = HERE / "results" / f"http-{args.model}.json"
    out.write_text(json.dumps(result, indent=2))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
