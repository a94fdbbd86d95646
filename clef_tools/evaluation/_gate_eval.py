"""`clef-tools eval` on a gate set: verdicts, risk AUROC, tier mix and a threshold chart.

A gate item is `{"id", "gate": {"tool", "args", "description", "annotations", "messages"},
"gold": {"unsafe": bool}}` (what `clef-tools data agentdojo` writes). Each call is judged by
a `ToolGate` under its default policy, exactly as an agent's calls are. With
`--reviews-from DEV.jsonl --reviews-per-tool K`, K labelled calls per tool from another
split are first recorded as human reviews (approve if safe, reject if not): how the gate
does after K reviews.
"""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clef_tools._progress import Progress
from clef_tools.evaluation._metrics import auroc, percentile
from clef_tools.evaluation._run import backend_summary, machine_summary
from clef_tools.gate import RiskInputs, ToolGate
from clef_tools.gate._evidence import CallEvidence, call_evidence
from clef_tools.protocol._jsonl import jsonl_objects

__all__ = [
    "GateRow",
    "evaluate_gate",
    "is_gate_data",
    "item_evidence",
    "item_risk_inputs",
    "summarise_gate",
    "threshold_curve",
]


@dataclass(frozen=True)
class GateRow:
    id: str
    tool: str
    unsafe: bool
    verdict: str
    risk: float | None
    tier: str
    seconds: float
    error: str | None = None
    family: str = ""
    """The item's `meta.family` (clef-tools' own gate set has five), if any."""


@dataclass
class GateReport:
    data: str
    model: str
    rows: list[GateRow] = field(default_factory=list)
    reviews: dict[str, dict[str, int]] = field(default_factory=dict)
    policy: dict[str, Any] = field(default_factory=dict)
    backend: dict[str, Any] = field(default_factory=dict)


def item_evidence(item: dict[str, Any], encoder: Any = None) -> CallEvidence:
    """The evidence the gate reads for one gate item (the bench scripts' features)."""
    g = item["gate"]
    return call_evidence(
        g["tool"],
        g.get("args", {}),
        description=g.get("description"),
        messages=g.get("messages"),
        annotations=g.get("annotations"),
        encoder=encoder,
    )


def item_risk_inputs(gate: ToolGate, item: dict[str, Any]) -> RiskInputs:
    """What `gate`'s risk model weighs for one gate item (the fit scripts' features)."""
    g = item["gate"]
    return gate.risk_inputs(
        g["tool"],
        g.get("args", {}),
        description=g.get("description"),
        messages=g.get("messages"),
        annotations=g.get("annotations"),
    )


def is_gate_data(path: str | Path) -> bool:
    with Path(path).open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                try:
                    return "gate" in json.loads(line)
                except ValueError:
                    return False
    return False


def _items(path: str | Path, limit: int | None = None) -> list[dict[str, Any]]:
    items = []
    for number, obj in jsonl_objects(path):
        gate, gold = obj.get("gate"), obj.get("gold")
        if not isinstance(gate, dict) or not isinstance(gate.get("tool"), str):
            raise ValueError(f"{path}:{number}: gate.tool: a gate item needs the tool's name")
        if not isinstance(gold, dict) or not isinstance(gold.get("unsafe"), bool):
            raise ValueError(f"{path}:{number}: gold.unsafe: must be true or false")
        items.append(obj)
    if limit is not None and limit < len(items):
        items = random.Random(0).sample(items, limit)
    return items


def seed_reviews(gate: ToolGate, path: str | Path, per_tool: int, seed: int = 0) -> None:
    """Up to `per_tool` labelled calls of each tool, each judged by `gate` and then
    reviewed as a human would have decided: what the gate has learnt after that many
    reviews in use (the risk it gave each call is kept with the review)."""
    by_tool: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in _items(path):
        by_tool[item["gate"]["tool"]].append(item)
    rng = random.Random(seed)
    for tool in sorted(by_tool):
        picked = rng.sample(by_tool[tool], min(per_tool, len(by_tool[tool])))
        for item in picked:
            g = item["gate"]
            args, messages = g.get("args", {}), g.get("messages")
            gate.judge(
                tool,
                args,
                description=g.get("description"),
                messages=messages,
                annotations=g.get("annotations"),
            )
            gate.record_review(
                tool,
                args,
                "reject" if item["gold"]["unsafe"] else "approve",
                description=g.get("description"),
                messages=messages,
            )


def evaluate_gate(
    gate: ToolGate, path: str | Path, *, limit: int | None = None, progress: bool = False
) -> GateReport:
    items = _items(path, limit)
    report = GateReport(
        data=str(path),
        model=gate.decider.model_id,
        reviews=gate.reviews.counts() if gate.reviews is not None else {},
        policy={
            "escalate_at": gate.policy.escalate_at,
            "deny_at": gate.policy.deny_at,
            "on_error": gate.policy.on_error,
            "questions": sorted(gate.policy.questions),
            "risk_model": gate.risk_model.name if gate.risk_model is not None else None,
            "answer_shift": gate.answer_shift(),
        },
        backend=backend_summary(gate.decider),
    )
    bar = Progress(progress).bar(len(items), "eval", unit="call")
    for item in items:
        g = item["gate"]
        decision = gate.judge(
            g["tool"],
            g.get("args", {}),
            description=g.get("description"),
            messages=g.get("messages"),
            annotations=g.get("annotations"),
        )
        report.rows.append(
            GateRow(
                id=str(item.get("id", len(report.rows))),
                tool=g["tool"],
                unsafe=item["gold"]["unsafe"],
                verdict=decision.verdict,
                risk=decision.risk,
                tier=decision.tier,
                seconds=decision.seconds or 0.0,
                error=decision.error,
                family=str((item.get("meta") or {}).get("family", "")),
            )
        )
        bar.update(1)
    bar.close()
    return report


def _share(rows: list[GateRow], verdict: str) -> float | None:
    return sum(r.verdict == verdict for r in rows) / len(rows) if rows else None


def threshold_curve(rows: list[GateRow], steps: int = 101) -> list[dict[str, float]]:
    """False-allow (unsafe under the threshold) and false-escalate (safe at or over it)
    as the escalation threshold moves; a failed judgment counts as risk 1."""
    safe = [1.0 if r.risk is None else r.risk for r in rows if not r.unsafe]
    unsafe = [1.0 if r.risk is None else r.risk for r in rows if r.unsafe]
    out = []
    for i in range(steps):
        t = i / (steps - 1)
        out.append(
            {
                "threshold": t,
                "false_allow": sum(r < t for r in unsafe) / len(unsafe) if unsafe else 0.0,
                "false_escalate": sum(r >= t for r in safe) / len(safe) if safe else 0.0,
            }
        )
    return out


def _shares(rows: list[GateRow]) -> dict[str, Any]:
    """AUROC, the verdict shares of safe and unsafe calls, escalations per 100 calls (the
    attention a person pays), and latency."""
    safe = [r for r in rows if not r.unsafe]
    unsafe = [r for r in rows if r.unsafe]
    risks = [1.0 if r.risk is None else r.risk for r in rows]
    secs = [r.seconds * 1000 for r in rows]
    return {
        "n": len(rows),
        "safe": len(safe),
        "unsafe": len(unsafe),
        "auroc": auroc(risks, [r.unsafe for r in rows]) if safe and unsafe else None,
        "safe_allowed": _share(safe, "allow"),
        "safe_denied": _share(safe, "deny"),
        "unsafe_allowed": _share(unsafe, "allow"),
        "escalations_per_100": 100 * sum(r.verdict == "escalate" for r in rows) / len(rows),
        "latency_ms": {"p50": percentile(secs, 50), "p95": percentile(secs, 95)},
    }


def summarise_gate(report: GateReport) -> dict[str, Any]:
    rows = report.rows
    safe = [r for r in rows if not r.unsafe]
    unsafe = [r for r in rows if r.unsafe]
    risks = [1.0 if r.risk is None else r.risk for r in rows]
    tiers = Counter(r.tier for r in rows)
    latency: dict[str, dict[str, float]] = {}
    for tier in sorted(tiers):
        secs = [r.seconds * 1000 for r in rows if r.tier == tier]
        latency[tier] = {"p50": percentile(secs, 50), "p95": percentile(secs, 95), "n": len(secs)}
    every = [r.seconds * 1000 for r in rows]
    latency["all"] = {"p50": percentile(every, 50), "p95": percentile(every, 95), "n": len(every)}
    return {
        "kind": "gate",
        "data": report.data,
        "model": report.model,
        "backend": report.backend,
        "machine": machine_summary(),
        "policy": report.policy,
        "reviews": report.reviews,
        "n": len(rows),
        "safe": len(safe),
        "unsafe": len(unsafe),
        "auroc": auroc(risks, [r.unsafe for r in rows]) if safe and unsafe else None,
        "safe_allowed": _share(safe, "allow"),
        "safe_escalated": _share(safe, "escalate"),
        "safe_denied": _share(safe, "deny"),
        "unsafe_allowed": _share(unsafe, "allow"),
        "unsafe_escalated": _share(unsafe, "escalate"),
        "unsafe_denied": _share(unsafe, "deny"),
        "errors": sum(r.tier == "error" for r in rows),
        "tiers": {t: n / len(rows) for t, n in sorted(tiers.items())} if rows else {},
        "latency_ms": latency,
        "by_tool": {
            tool: {
                "n": len(group),
                "unsafe": sum(r.unsafe for r in group),
                "verdicts": dict(Counter(r.verdict for r in group)),
            }
            for tool, group in sorted(_by_tool(rows).items())
        },
        "threshold_curve": threshold_curve(rows),
        "by_family": {
            family: _shares([r for r in rows if r.family == family])
            for family in sorted({r.family for r in rows if r.family})
        },
    }


def _by_tool(rows: list[GateRow]) -> dict[str, list[GateRow]]:
    out: dict[str, list[GateRow]] = defaultdict(list)
    for r in rows:
        out[r.tool].append(r)
    return out


def format_gate_table(summary: dict[str, Any], title: str = "") -> str:
    def pct(key: str) -> str:
        v = summary.get(key)
        return "–" if v is None else f"{100 * v:.0f} %"

    auc = summary.get("auroc")
    lines = [title] if title else []
    lines += [
        "| calls | allowed | escalated | denied |",
        "|---|---|---|---|",
        f"| safe ({summary['safe']}) | {pct('safe_allowed')} | {pct('safe_escalated')} | "
        f"{pct('safe_denied')} |",
        f"| unsafe ({summary['unsafe']}) | {pct('unsafe_allowed')} | {pct('unsafe_escalated')} "
        f"| {pct('unsafe_denied')} |",
        f"risk AUROC {'–' if auc is None else f'{auc:.3f}'}; tiers "
        + ", ".join(f"{t} {100 * s:.0f} %" for t, s in summary["tiers"].items()),
        "latency: "
        + ", ".join(
            f"{t} p50 {v['p50']:.0f} ms / p95 {v['p95']:.0f} ms"
            for t, v in summary["latency_ms"].items()
        ),
    ]
    return "\n".join(lines)


def write_gate_rows(report: GateReport, path: Path) -> None:
    with path.open("w", encoding="utf-8") as f:
        for r in report.rows:
            f.write(json.dumps(r.__dict__) + "\n")
