"""bfloat16 or float32 on this CPU: side by side, in one process.

`auto` picks bfloat16 on CPUs with bf16 units and float32 elsewhere. Whether bfloat16 is the
faster choice on a given CPU is measured here, not assumed: the embedded model is loaded
in both dtypes, and the same requests are answered by each in turn (the order alternates
per request, after one warm-up each), so both see the same machine at the same time.

Requests: the gate's question about the first AgentDojo test calls (`clef-tools data
agentdojo`; MIT) and typed-gguf's devset items (`clef-tools data typed-gguf`; MIT), as
`clef-tools eval` sends them. Writes bench/results/dtype-speed.json with the CPU's flags.

    .venv/bin/python bench/dtype_speed.py [--n 12]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import torch

from clef_tools import load_decider
from clef_tools.evaluation import machine_summary
from clef_tools.gate import DEFAULT_GATE_QUESTIONS, gate_state

HERE = Path(__file__).parent
DATA = HERE.parent / "clef-data"
OUT = HERE / "results" / "dtype-speed.json"
DTYPES = ("bf16", "fp32")


def _requests(n: int) -> dict[str, list[tuple[Any, dict[str, Any]]]]:
    gate = []
    for line in (DATA / "agentdojo-test.jsonl").read_text().splitlines()[:n]:
        g = json.loads(line)["gate"]
        state = gate_state(
            g["tool"], g["args"], description=g["description"], messages=g["messages"]
        )
        gate.append((state, dict(DEFAULT_GATE_QUESTIONS)))
    typed = []
    for line in (DATA / "typed-gguf-test.jsonl").read_text().splitlines()[:n]:
        item = json.loads(line)
        typed.append((item["state"], item["questions"]))
    return {"gate": gate, "typed-gguf": typed}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=12, help="requests of each kind")
    n = parser.parse_args().n
    deciders = {d: load_decider("embedded", dtype=d) for d in DTYPES}
    requests = _requests(n)
    seconds: dict[str, dict[str, list[float]]] = {
        kind: {d: [] for d in DTYPES} for kind in requests
    }
    for kind, batch in requests.items():
        for d in DTYPES:  # warm-up: first-call costs are not the request path's
            deciders[d].decide(*batch[0])
        for i, (state, questions) in enumerate(batch):
            for d in DTYPES if i % 2 == 0 else DTYPES[::-1]:
                t0 = time.perf_counter()
                deciders[d].decide(state, questions)
                seconds[kind][d].append(time.perf_counter() - t0)
    result: dict[str, Any] = {
        "model": deciders["bf16"].model_id,
        "requests_per_kind": n,
        "torch_threads": torch.get_num_threads(),
        "machine": machine_summary(),
        "dtypes": {d: deciders[d].info().dtype for d in DTYPES},
        "kinds": {},
    }
    for kind, per in seconds.items():
        p50 = {d: statistics.median(per[d]) * 1000 for d in DTYPES}
        result["kinds"][kind] = {
            "p50_ms": p50,
            "mean_ms": {d: statistics.fmean(per[d]) * 1000 for d in DTYPES},
            "bf16_over_fp32_p50": p50["bf16"] / p50["fp32"],
            "seconds": per,
        }
    OUT.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: {**v, "seconds": "…"} for k, v in result["kinds"].items()}, indent=1))


if __name__ == "__main__":
    main()
