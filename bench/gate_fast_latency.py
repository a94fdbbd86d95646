"""The gate's own work per call, without the model: this checkout beside an older one.

Each split's test calls are judged once by the default gate whose scorer raises on every
question (`clef_tools.testing.BrokenDecider`), so what is timed is everything the gate
does before it would ask the model: effects, licence, grounding, the encoder's relevance
and the fast risk. A warm-up pass over the gate set's dev split comes first. With `--old
PATH` (a checkout of an earlier commit, e.g. `git worktree add /tmp/old <commit>`), the
same is run from that checkout in a subprocess, alternating with this one for `--rounds`
rounds, so both see the same machine at the same time. Every call is judged once per
round in a fresh process: what one call of a turn left in the encoder's cache is what the
next call of the turn finds, as in use.

Data: `clef-tools data agentdojo`, `clef-tools data gate-set` and the AgentDojo sessions
(bench/agentdojo_sessions.py) in clef-data/. Writes bench/results/gate-fast-latency.json
with the CPU's flags.

    .venv/bin/python bench/gate_fast_latency.py [--old /tmp/old] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
ROOT = HERE.parent
DATA = ROOT / "clef-data"
OUT = HERE / "results" / "gate-fast-latency.json"
SPLITS = ("gate-set-test", "agentdojo-test", "agentdojo-sessions-test")


def _measure() -> dict[str, Any]:
    """This process's checkout: ms per call for each split (run as `--child`)."""
    logging.getLogger("sqlglot").setLevel(logging.ERROR)  # the old checkout's parses warn
    from clef_tools.evaluation._gate_eval import _items
    from clef_tools.gate import ToolGate
    from clef_tools.testing import BrokenDecider

    gate = ToolGate(BrokenDecider())

    def run(name: str) -> list[float]:
        seconds = []
        for item in _items(DATA / f"{name}.jsonl"):
            g = item["gate"]
            start = time.perf_counter()
            gate.judge(
                g["tool"],
                g.get("args", {}),
                description=g.get("description"),
                messages=g.get("messages"),
                annotations=g.get("annotations"),
            )
            seconds.append(time.perf_counter() - start)
        return seconds

    run("gate-set-dev")
    out: dict[str, Any] = {}
    for name in SPLITS:
        ms = [1000 * s for s in run(name)]
        out[name] = {
            "n": len(ms),
            "p50_ms": round(statistics.median(ms), 2),
            "mean_ms": round(statistics.mean(ms), 2),
            "p95_ms": round(sorted(ms)[int(0.95 * (len(ms) - 1))], 2),
        }
    return out


def _child(checkout: Path | None) -> dict[str, Any]:
    env = dict(os.environ)
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); "
        "from gate_fast_latency import _measure, _source; "
        "print(json.dumps({'source': _source(), **_measure()}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(HERE)],
        env=env,
        cwd="/",  # not the checkout: the import must come from PYTHONPATH or the install
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _source() -> str:
    import clef_tools

    return str(Path(clef_tools.__file__).parent.parent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, help="an earlier checkout to run beside this one")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    from clef_tools.evaluation import machine_summary

    runs: dict[str, list[dict[str, Any]]] = {"new": [], "old": []}
    for _ in range(args.rounds):
        if args.old is not None:
            runs["old"].append(_child(args.old.resolve()))
        runs["new"].append(_child(None))
    summary: dict[str, Any] = {}
    for split in SPLITS:
        row: dict[str, Any] = {}
        for which, found in runs.items():
            if found:
                row[which] = {
                    "p50_ms": [r[split]["p50_ms"] for r in found],
                    "mean_ms": [r[split]["mean_ms"] for r in found],
                    "n": found[0][split]["n"],
                }
        if runs["old"]:
            row["ratio_p50"] = round(
                statistics.mean(row["new"]["p50_ms"]) / statistics.mean(row["old"]["p50_ms"]), 3
            )
            row["ratio_mean"] = round(
                statistics.mean(row["new"]["mean_ms"]) / statistics.mean(row["old"]["mean_ms"]), 3
            )
        summary[split] = row
    result = {
        "about": "the gate's work per call without the model (scorer raising), each test "
        "call judged once per round after a warm-up on the gate set's dev split; old and "
        "new alternate, one fresh process each",
        "machine": machine_summary(),
        "new": runs["new"][0]["source"] if runs["new"] else None,
        "old": runs["old"][0]["source"] if runs["old"] else None,
        "rounds": args.rounds,
        "splits": summary,
    }
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
