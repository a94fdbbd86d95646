"""Render docs/performance.md from the benchmark JSON in bench/results/.

Nothing in the page is typed by hand: every figure is read from a file a `bench/` script
wrote, and each section names that file and the CPU it ran on (files from before CPUs
were recorded say so). `scripts/docs_tables.py` writes it; a test fails when the
committed page differs from what this renders.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
OUT = ROOT / "docs" / "performance.md"
EMBEDDED = "qwen2.5-coder-1.5b-instruct-q4_k_m"


def _json(name: str) -> dict[str, Any] | None:
    path = RESULTS / name
    return json.loads(path.read_text()) if path.exists() else None


def _md(head: list[str], rows: list[list[str]]) -> list[str]:
    return [
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
        *["| " + " | ".join(row) + " |" for row in rows],
    ]


def _machine(data: dict[str, Any]) -> str:
    machine = data.get("machine")
    cpu = machine.get("cpu") if isinstance(machine, dict) else None
    if not cpu:
        return "CPU not recorded (a run from before the benchmarks recorded it)"
    flags = " ".join(cpu.get("flags", [])) or "none of avx2/avx512/amx"
    dtype = data.get("dtype")
    return f"{cpu.get('model', '?')}; flags: {flags}" + (f"; dtype {dtype}" if dtype else "")


def _s(ms: float) -> str:
    return f"{ms / 1000:.2f} s" if ms >= 1000 else f"{ms:.0f} ms" if ms >= 10 else f"{ms:.2f} ms"


def _suite() -> list[str]:
    data = _json(f"suite-{EMBEDDED}.json")
    if data is None:
        return []
    out = [
        "## Request-path suite",
        "",
        f"`scripts/bench` (`bench/suite.py`) on the embedded model, one process; "
        f"`bench/results/suite-{EMBEDDED}.json`. Machine: {_machine(data)}; "
        f"{data.get('torch_threads', '?')} torch threads.",
        "",
    ]
    rows: list[list[str]] = []
    one = data.get("one_pass_vs_per_option")
    if one:
        rows.append(
            [
                f"one-pass readout vs one forward per option, {one['questions']} questions × "
                f"{one['options']} options",
                f"{_s(one['one_pass']['p50_ms'])} vs {_s(one['per_option']['p50_ms'])}: "
                f"**{one['speedup']:.1f}× faster**, max probability difference "
                f"{one['max_probability_difference']:.1e}",
                f"≥ {one['target_speedup']}×, ≤ 1e-4",
            ]
        )
    for row in data.get("prefix", []):
        rows.append(
            [
                f"growing transcript of {row['input_tokens']} tokens, cold vs prefix hit",
                f"{row['cold_p50_s']:.2f} s → {row['hit_p50_s']:.2f} s ({row['ratio']:.2f}×)",
                "≤ 0.3× at 1k" if row["target_tokens"] == 1000 else "",
            ]
        )
    conc = data.get("concurrency", {})
    serial = conc.get("serial")
    for name, row in conc.items():
        if name == "serial" or serial is None:
            continue
        rows.append(
            [
                f"{row['callers']} concurrent callers vs serial (short yes/no requests)",
                f"throughput {row['throughput_ratio']:.2f}×; p95 {_s(row['p95_ms'])} vs "
                f"{_s(serial['p95_ms'])} serial",
                "≥ 3× at 8" if row["callers"] == 8 else "",
            ]
        )
    surfaces = data.get("surfaces")
    if surfaces:
        rows.append(
            [
                "overhead over an instant backend: LangChain invoke / HTTP / MCP stdio",
                " / ".join(
                    f"{surfaces[k]:.2f} ms"
                    for k in ("langchain_overhead_ms", "http_overhead_ms", "mcp_stdio_overhead_ms")
                ),
                "≤ 1 / 3 / 5 ms",
            ]
        )
    if "peak_rss_gib" in data:
        rows.append(["peak RSS", f"{data['peak_rss_gib']:.1f} GiB", ""])
    return [*out, *_md(["what", "result", "target"], rows), ""]


def _core() -> list[str]:
    data = _json(f"core-{EMBEDDED}.json")
    if data is None:
        return []
    rows = []
    if "load_cold_s" in data:
        rows.append(
            [
                "first load (assemble, verify, convert; once per machine)",
                f"{data['load_cold_s']:.0f} s",
            ]
        )
    rows += [
        ["later loads (safetensors cache)", f"{data['load_cached_s']:.1f} s"],
        [
            f"1 yes/no question, {data['state_tokens']}-token state "
            f"(p50 of {data['one_question']['runs']})",
            f"{data['one_question']['p50_s']:.2f} s",
        ],
        [
            "5 questions (2 yes/no, a 4-way choice, 2 scores), same state "
            f"({data['five_questions']['input_tokens']} input tokens)",
            f"{data['five_questions']['p50_s']:.2f} s",
        ],
        ["peak RSS", f"{data['peak_rss_gib']:.1f} GiB"],
    ]
    return [
        "## The embedded model",
        "",
        f"`bench/core.py`, `bench/results/core-{EMBEDDED}.json`. Machine: "
        f"{_machine({**data, 'dtype': str(data.get('dtype', '?')).removeprefix('torch.')})}.",
        "",
        *_md(["figure", "value"], rows),
        "",
    ]


def _cascade() -> list[str]:
    bfcl = _json("cascade-bfcl-all.json")
    banking = _json("cascade.json")
    if bfcl is None and banking is None:
        return []
    rows: list[list[str]] = []
    if bfcl is not None:
        b = bfcl["bfcl_multiple"]
        c = b["cascade"]
        rows += [
            [
                "BFCL `multiple`",
                "embedding alone",
                str(b["items"]),
                f"{b['embedding_accuracy']:.3f}",
                _s(b["embedding_p50_ms"]),
                f"ECE {b['embedding_ece_top']:.2f}; "
                f"{b['embedding_coverage']:.0%} clear the threshold",
            ],
            [
                "BFCL `multiple`",
                "LM alone (embedded)",
                str(b["lm_alone"]["items"]),
                f"{b['lm_alone']['accuracy']:.3f}",
                _s(b["lm_alone"]["p50_ms"]),
                "",
            ],
            [
                "BFCL `multiple`",
                "cascade",
                str(c["items"]),
                f"{c['accuracy']:.3f}",
                _s(c["p50_ms"]),
                ", ".join(f"{n} by {t}" for t, n in c["tiers"].items())
                + f"; p95 {_s(c['p95_ms'])}",
            ],
        ]
    if banking is not None:
        b = banking["banking77_test"]
        c = b["cascade"]
        rows += [
            [
                "BANKING77 test (77 intents)",
                "embedding alone",
                str(b["items"]),
                f"{b['embedding_accuracy']:.2f}",
                _s(b["embedding_p50_ms"]),
                f"{b['embedding_coverage']:.0%} clear the threshold",
            ],
            [
                "BANKING77 test",
                "cascade (top-10 shortlist to the LM)",
                str(c["items"]),
                f"{c['accuracy']:.2f}",
                _s(c["p50_ms"]),
                f"embedding alone {c['embedding_accuracy_same_items']:.2f} on the same items",
            ],
        ]
    source = bfcl or banking or {}
    return [
        "## Cascade",
        "",
        "`bench/cascade.py` (held-out items; temperature "
        f"{source.get('temperature')} and threshold {source.get('threshold')} fitted on dev "
        "splits); `bench/results/cascade-bfcl-all.json` and `cascade.json`. Machine: "
        f"{_machine(source)}. The current defaults and their calibration are measured by "
        "`clef-tools eval` in [quality.md](quality.md).",
        "",
        *_md(["set", "tier", "items", "accuracy", "p50", "notes"], rows),
        "",
    ]


def _http() -> list[str]:
    data = _json("http-smollm2.json")
    if data is None:
        return []
    load, model = data["uniform_load"], data["model_load"]
    rows = [
        [
            "HTTP overhead over an instant backend (p50, median of rounds)",
            f"{data['uniform']['overhead_ms']:.2f} ms",
            f"≤ {data['targets']['http_overhead_ms']} ms",
        ],
        [
            f"{load['clients']} concurrent clients × {load['requests_per_client']} requests, "
            "instant backend",
            f"{load['errors']} errors, p50 {_s(load['p50_ms'])}, p95 {_s(load['p95_ms'])}, "
            f"{load['throughput_rps']:.0f} req/s",
            "0 errors",
        ],
        [
            f"{model['clients']} clients × {model['requests_per_client']} requests, SmolLM2",
            f"{model['errors']} errors, p50 {_s(model['p50_ms'])}, "
            f"{model['throughput_rps']:.1f} req/s",
            "",
        ],
    ]
    return [
        "## HTTP",
        "",
        "`bench/http_surface.py` (loopback, server in its own process, client and server "
        f"sharing the cores); `bench/results/http-smollm2.json`. Machine: {_machine(data)}.",
        "",
        *_md(["what", "result", "target"], rows),
        "",
    ]


def _surfaces() -> list[str]:
    data = _json("surfaces-smollm2.json")
    if data is None:
        return []
    rows = [
        [
            "`ClefDecisionModel.invoke` overhead (p50)",
            f"{data['langchain_overhead_ms']:.2f} ms",
            f"≤ {data['targets']['langchain_overhead_ms']} ms",
        ],
        [
            "MCP stdio overhead, instant backend (p50)",
            f"{data['mcp_stdio_overhead_isolated_ms']:.2f} ms",
            f"≤ {data['targets']['mcp_stdio_overhead_ms']} ms",
        ],
    ]
    return [
        "## Surfaces",
        "",
        f"`bench/surfaces.py`, `bench/results/surfaces-smollm2.json` ({data['uniform_bare']['n']} "
        f"calls per figure). Machine: {_machine(data)}.",
        "",
        *_md(["what", "result", "target"], rows),
        "",
    ]


def _hooks() -> list[str]:
    data = _json("hooks-embedded.json")
    if data is None:
        return []
    hook, proxy = data["hook"], data["proxy"]
    warm = hook["warm"]
    rows = [
        [
            "`PreToolUse`, warm daemon, process start included (p50 / p95)",
            f"{_s(warm['p50_ms'])} / {_s(warm['p95_ms'])}",
            f"≤ {data['targets']['hook_warm_p50_ms']} ms (p50)",
        ],
        ["first `PreToolUse` of a fresh daemon", _s(hook["cold_ms"]), ""],
        ["daemon start (model load) on the first event", f"{hook['daemon_start_s']:.1f} s", ""],
        [
            "hook client start alone (Python + its imports, p50)",
            _s(hook["client_import_only"]["p50_ms"]),
            "",
        ],
        [
            "`mcp-proxy` overhead per allowed call (p50 proxied − p50 direct)",
            _s(proxy["overhead_p50_ms"]),
            "",
        ],
    ]
    return [
        "## Gate in agent hosts",
        "",
        f"`bench/hooks.py`, `bench/results/hooks-embedded.json` ({warm['n']} hook events, "
        f"{proxy['proxied']['n']} proxied calls; every call decided by the effect table and "
        f"the licence, without a decision-model pass). Machine: {_machine(data)}.",
        "",
        *_md(["what", "result", "target"], rows),
        "",
    ]


def _dtype() -> list[str]:
    data = _json("dtype-speed.json")
    if not data:
        return []
    rows = [
        [
            kind,
            _s(k["p50_ms"]["bf16"]),
            _s(k["p50_ms"]["fp32"]),
            f"{k['bf16_over_fp32_p50']:.2f}",
        ]
        for kind, k in data["kinds"].items()
    ]
    return [
        "## bfloat16 or float32",
        "",
        f"`bench/dtype_speed.py`, `bench/results/dtype-speed.json`: the embedded model loaded "
        f"in both dtypes in one process, the same {data['requests_per_kind']} requests of each "
        f"kind answered by each in turn (alternating order, after a warm-up). Machine: "
        f"{_machine(data)}; {data['torch_threads']} torch threads.",
        "",
        *_md(["requests", "bfloat16 p50", "float32 p50", "bfloat16 / float32"], rows),
        "",
        "`auto` picks bfloat16 on any CPU with bf16 units; where this ratio is above 1, "
        'float32 is the faster choice there (`CLEF_TOOLS_DTYPE=fp32` or `dtype="fp32"`; '
        "the weights take twice the memory). Decision quality in float32 is in "
        "[quality.md](quality.md) (phase *float32*); the gate shifts float32 answers onto its "
        "risk model's scale ([gate.md](gate.md)).",
        "",
    ]


def _attack() -> list[str]:
    data = _json("attack-round2.json")
    if data is None:
        return []
    serve, mcp = data["serve"], data["mcp"]

    def statuses(row: dict[str, Any]) -> str:
        return ", ".join(f"{n}× {s}" for s, n in sorted(row["statuses"].items()))

    ready = serve["readiness_while_busy"]
    flood = mcp["session_flood"]
    rows = [
        ["64 questions × 255 options (200 KB)", statuses(serve["huge_request"])],
        [
            "a client that leaves mid-decision",
            "CPU-s in the 5 s after it left: "
            f"{serve['client_leaves']['cpu_s_in_5s_after_leaving']}",
        ],
        ["32 trickling bodies, then 10 real requests", statuses(serve["trickling_bodies"])],
        ["200 invalid bodies at once", statuses(serve["invalid_bodies"])],
        ["lone-surrogate key; 10 MiB `model`", statuses(serve["small_holes"])],
        [
            "/healthz and /readyz while the model is busy",
            f"{ready['healthz']} in {ready['healthz_ms']:.0f} ms; {ready['readyz']}",
        ],
        [
            f"MCP: {sum(flood['statuses'].values())} `initialize` in {flood['flood_s']} s",
            f"{statuses(flood)}; a new client got a session {flood['new_client_waited_s']} s after",
        ],
    ]
    return [
        "## Under attack",
        "",
        f"`bench/attack_round2.py`, `bench/results/attack-round2.json`: the console scripts "
        f"(`clef-tools serve`, `clef-tools mcp --http`, model `{data['model']}`) on loopback, "
        "every request with a client timeout. "
        f"{data['totals']['5xx']} 5xx, {data['totals']['hangs']} hangs; peak RSS "
        f"{serve['peak_rss_mb']:.0f} MB (serve), {mcp['peak_rss_mb']:.0f} MB (MCP).",
        "",
        *_md(["attack", "answers"], rows),
        "",
    ]


def render() -> str:
    out = [
        "# Performance",
        "",
        "<!-- generated by scripts/docs_tables.py from bench/results; do not edit -->",
        "",
        "Speed and memory of the request path, each figure from the JSON a `bench/` script "
        "wrote, with the machine it ran on. Figures from different machines are not "
        "comparable: compare within a section (each is one run, side by side). Decision "
        "quality is in [quality.md](quality.md).",
        "",
        *_suite(),
        *_core(),
        *_dtype(),
        *_cascade(),
        *_http(),
        *_surfaces(),
        *_hooks(),
        *_attack(),
    ]
    return "\n".join(out).rstrip("\n") + "\n"
