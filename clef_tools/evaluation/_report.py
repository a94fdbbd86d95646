"""How an eval run is shown: the metric columns, the plain-text (and Markdown) table,
JSON without NaN. One place, read by `clef-tools eval` and the docs' generated tables."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["METRIC_COLUMNS", "finite", "format_table"]

METRIC_COLUMNS = (
    ("n", "n", "{:d}"),
    ("accuracy", "acc", "{:.3f}"),
    ("macro_f1", "F1", "{:.3f}"),
    ("ece", "ECE", "{:.3f}"),
    ("brier", "Brier", "{:.3f}"),
    ("nll", "NLL", "{:.3f}"),
    ("auroc", "AUROC", "{:.3f}"),
    ("spearman", "Spearman", "{:.3f}"),
    ("automatable_at_1pct", "auto@1%", "{:.2f}"),
    ("automatable_at_5pct", "auto@5%", "{:.2f}"),
)


def finite(value: Any) -> Any:
    """JSON has no NaN: undefined metrics (AUROC with one class) become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite(v) for v in value]
    return value


def format_table(summary: dict[str, Any], title: str = "") -> str:
    """A plain-text (and Markdown) table: one row per question type and tier."""
    head = ["type", *[label for _, label, _ in METRIC_COLUMNS]]
    rows: list[list[str]] = []
    for kind, metrics in summary["by_type"].items():
        rows.append([kind, *_cells(metrics)])
        for tier, sub in metrics.get("by_tier", {}).items():
            rows.append([f"  {kind}/{tier}", *_cells(sub)])
    lat = summary.get("latency_ms", {})
    lines = [f"{title}" if title else ""]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "|".join("---" for _ in head) + "|")
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    p50, p95 = lat.get("p50"), lat.get("p95")
    if p50 is not None and p95 is not None and math.isfinite(p50):
        lines.append(f"latency per request: p50 {p50:.0f} ms, p95 {p95:.0f} ms")
    return "\n".join(line for line in lines if line)


def _cells(metrics: dict[str, Any]) -> list[str]:
    out = []
    for key, _, fmt in METRIC_COLUMNS:
        value = metrics.get(key)
        ok = value is not None and not (isinstance(value, float) and not math.isfinite(value))
        out.append(fmt.format(value) if ok else "–")
    return out
