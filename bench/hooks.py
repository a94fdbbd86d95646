"""Hook latency and proxy overhead (issue 29): what a tool call costs in the agent host.

    .venv/bin/python bench/hooks.py [--model embedded] [--calls 30]

Hook: `clef-tools hook claude-code` exactly as Claude Code runs it — a new process per
event, the event on stdin, the answer on stdout — against a daemon this script starts
through the first event. `cold`: the first PreToolUse a freshly loaded daemon answers;
`warm`: the ones after. Every PreToolUse here is decided by the effect table and the
licence (no decision-model pass); the times include the process start.

Proxy: the same read-only call through `clef-tools mcp-proxy` and to the upstream
directly, with the MCP SDK's client; overhead = the difference of the medians.

Writes bench/results/hooks-<model>.json with the CPU's flags (docs/performance.md reads it).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from clef_tools.evaluation import cpu_info
from clef_tools.hooks._wire import ask_daemon

HERE = Path(__file__).parent
PROXY = ["-m", "clef_tools.cli", "mcp-proxy", "--model"]
UPSTREAM = HERE.parent / "tests" / "mcp_surface" / "_upstream_server.py"
CALLS = [
    ("Bash", {"command": "make test"}),
    ("Bash", {"command": "pytest -q tests/unit"}),
    ("Read", {"file_path": "/work/app/setup.cfg"}),
    ("Grep", {"pattern": "TODO", "path": "/work/app"}),
    ("Bash", {"command": "git status && git diff --stat"}),
    ("Bash", {"command": "rm -rf ~/"}),
    ("Bash", {"command": "git push --force origin main"}),
]


def summary(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    return {
        "p50_ms": round(statistics.median(ordered), 1),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
        "min_ms": round(ordered[0], 1),
        "max_ms": round(ordered[-1], 1),
        "n": len(ordered),
    }


def hook_latency(model: str, calls: int) -> dict[str, Any]:
    run = Path(tempfile.mkdtemp(prefix="clef-bench-"))
    flags = ["--socket", str(run / "hook.sock"), "--model", model, "--audit", str(run / "a.db"),
             "--reviews", "none", "--idle", "600"]  # fmt: skip
    argv = [sys.executable, "-m", "clef_tools.cli", "hook", "claude-code", *flags]
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(run / "claude")}

    def send(event: dict[str, Any], *extra: str) -> tuple[float, str | None]:
        started = time.perf_counter()
        done = subprocess.run(
            [*argv, *extra], input=json.dumps(event).encode(), capture_output=True, env=env
        )
        took = (time.perf_counter() - started) * 1000
        out = done.stdout.decode().strip()
        decision = json.loads(out)["hookSpecificOutput"]["permissionDecision"] if out else None
        return took, decision

    prompt = {"session_id": "b", "hook_event_name": "UserPromptSubmit",
              "prompt": "Run the test suite and tell me what fails."}  # fmt: skip
    started = time.perf_counter()
    send(prompt, "--start-wait", "600")
    daemon_start_s = time.perf_counter() - started

    def pre(i: int) -> dict[str, Any]:
        tool, tool_input = CALLS[i % len(CALLS)]
        return {"session_id": "b", "hook_event_name": "PreToolUse", "tool_name": tool,
                "tool_input": tool_input, "tool_use_id": f"t{i}"}  # fmt: skip

    cold, cold_decision = send(pre(0))
    warm: list[float] = []
    decisions: dict[str, str | None] = {}
    for i in range(1, calls + 1):
        took, decision = send(pre(i))
        warm.append(took)
        decisions[json.dumps(CALLS[i % len(CALLS)])] = decision
    # the client alone: a daemon that answers at once (a ping), process start included
    alone = []
    for _ in range(10):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import clef_tools.hooks._client"], check=True)
        alone.append((time.perf_counter() - t) * 1000)
    pid = int(ask_daemon(run / "hook.sock", {"ping": True}, 10)["pid"])
    os.kill(pid, signal.SIGTERM)
    return {
        "daemon_start_s": round(daemon_start_s, 2),
        "cold_ms": round(cold, 1),
        "cold_decision": cold_decision,
        "warm": summary(warm),
        "client_import_only": summary(alone),
        "decisions": decisions,
    }


def proxy_overhead(model: str, calls: int) -> dict[str, Any]:
    log = Path(tempfile.mkdtemp(prefix="clef-bench-")) / "ran.log"

    async def timed(params: StdioServerParameters) -> list[float]:
        async with Client(params) as client:
            await client.list_tools()
            await client.call_tool("read_note", {"title": "groceries"})  # warm
            out = []
            for _ in range(calls):
                t = time.perf_counter()
                result = await client.call_tool("read_note", {"title": "groceries"})
                out.append((time.perf_counter() - t) * 1000)
                assert not result.is_error
            return out

    direct = anyio.run(
        timed, StdioServerParameters(command=sys.executable, args=[str(UPSTREAM), str(log)])
    )
    proxied = anyio.run(
        timed,
        StdioServerParameters(
            command=sys.executable,
            args=[*PROXY, model, "--quiet", "--", sys.executable, str(UPSTREAM), str(log)],
        ),
    )
    return {
        "direct": summary(direct),
        "proxied": summary(proxied),
        "overhead_p50_ms": round(statistics.median(proxied) - statistics.median(direct), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="embedded")
    parser.add_argument("--calls", type=int, default=30)
    args = parser.parse_args()
    result = {
        "model": args.model,
        "machine": {
            "cpu": cpu_info(),
            "cpu_count": os.cpu_count(),
            "python": platform.python_version(),
        },
        "targets": {"hook_warm_p50_ms": 150},
        "hook": hook_latency(args.model, args.calls),
        "proxy": proxy_overhead(args.model, args.calls),
    }
    out = HERE / "results" / f"hooks-{args.model}.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
