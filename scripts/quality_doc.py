"""Write docs/quality.md from the `clef-tools eval` results in bench/results/quality/.

Nothing in the page is typed by hand: every figure comes from a `<set>.json` summary that
`bench/quality.sh` produced, and the targets section compares those figures with issue 11's
targets. Run: .venv/bin/python scripts/quality_doc.py
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from clef_tools.evaluation._commands import METRIC_COLUMNS

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "quality"
OUT = ROOT / "docs" / "quality.md"
PHASES = ("before", "after")
SETS = (
    ("typed-gguf-test", "typed-gguf devset (MIT): 24 choice, 18 score, 18 noul; all held out"),
    ("vader-test", "VADER lexicon (MIT) as a 5-level score question; test half, 300 sampled"),
    ("bfcl-multiple-test", "BFCL v4 `multiple` (Apache-2.0) tool choice; test split (70 %)"),
    ("bfcl-live-multiple-test", "BFCL v4 `live_multiple` tool choice; test split, 60 sampled"),
    ("bfcl-tool-fits-test", "BFCL v4 'does a tool fit' (irrelevance vs multiple); 80 sampled"),
    ("banking77-test", "BANKING77 (CC-BY-4.0) 77 intents, names only; test split, 80 sampled"),
)
COLUMNS = METRIC_COLUMNS


def _load(phase: str, backend: str, name: str) -> dict[str, Any] | None:
    path = RESULTS / phase / backend / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


def _fmt(value: Any, fmt: str) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    return fmt.format(value)


def _backends() -> list[str]:
    found = {p.name for phase in PHASES for p in (RESULTS / phase).glob("*") if p.is_dir()}
    order = ["embedded", "embedding", "cascade"]
    return [b for b in order if b in found] + sorted(found - set(order))


def _table(name: str) -> list[str]:
    head = ["backend", "phase", "calibration", "type", *[c[1] for c in COLUMNS], "p50 ms"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for backend in _backends():
        for phase in PHASES:
            summary = _load(phase, backend, name)
            if summary is None:
                continue
            cal = summary["backend"].get("calibration") or "none"
            p50 = summary.get("latency_ms", {}).get("p50")
            for kind, metrics in summary["by_type"].items():
                cells = [_fmt(metrics.get(k), f) for k, _, f in COLUMNS]
                lines.append(
                    f"| {backend} | {phase} | {cal} | {kind} | "
                    + " | ".join(cells)
                    + f" | {_fmt(p50, '{:.0f}')} |"
                )
                for tier, sub in metrics.get("by_tier", {}).items():
                    cells = [_fmt(sub.get(k), f) for k, _, f in COLUMNS]
                    lines.append(f"| | | | ↳ tier {tier} | " + " | ".join(cells) + " | |")
    return lines if len(lines) > 2 else []


def _metric(phase: str, backend: str, name: str, kind: str, key: str) -> float | None:
    summary = _load(phase, backend, name)
    if summary is None or kind not in summary["by_type"]:
        return None
    value = summary["by_type"][kind].get(key)
    return float(value) if value is not None else None


TARGETS = (
    ("noul accuracy, typed-gguf", "embedded", "typed-gguf-test", "noul", "accuracy", ">=", 0.8),
    ("noul AUROC, BFCL tool fits", "embedded", "bfcl-tool-fits-test", "noul", "auroc", ">=", 0.85),
    ("score accuracy, typed-gguf", "embedded", "typed-gguf-test", "score", "accuracy", ">=", 0.5),
    ("score Spearman, VADER", "embedded", "vader-test", "score", "spearman", ">=", 0.6),
    ("BANKING77 accuracy (cascade)", "cascade", "banking77-test", "choice", "accuracy", ">=", 0.7),
    ("BFCL multiple accuracy", "embedded", "bfcl-multiple-test", "choice", "accuracy", ">=", 0.99),
    (
        "BFCL live_multiple accuracy",
        "embedded",
        "bfcl-live-multiple-test",
        "choice",
        "accuracy",
        ">=",
        0.95,
    ),
)


def _targets() -> list[str]:
    lines = ["| target | backend | needed | before | after | met |", "|---|---|---|---|---|---|"]
    for label, backend, name, kind, key, op, bound in TARGETS:
        before = _metric("before", backend, name, kind, key)
        after = _metric("after", backend, name, kind, key)
        met = (
            "–" if after is None else ("yes" if after >= bound else f"no (by {bound - after:.3f})")
        )
        lines.append(
            f"| {label} | {backend} | {op} {bound} | {_fmt(before, '{:.3f}')} | "
            f"{_fmt(after, '{:.3f}')} | {met} |"
        )
    # ECE <= 0.05 after calibration, every held-out set and backend measured
    worst: list[tuple[float, str]] = []
    for backend in _backends():
        for name, _ in SETS:
            summary = _load("after", backend, name)
            for kind, metrics in (summary or {}).get("by_type", {}).items():
                if metrics.get("ece") is not None:
                    worst.append((metrics["ece"], f"{backend} {name} {kind}"))
    if worst:
        top = max(worst)
        met = "yes" if top[0] <= 0.05 else f"no: {sum(e > 0.05 for e, _ in worst)} of {len(worst)}"
        lines.append(
            f"| ECE after calibration, worst | {top[1]} | <= 0.05 | | {top[0]:.3f} | {met} |"
        )
    # the cascade never below the embedding tier alone on BANKING77
    cas = _metric("after", "cascade", "banking77-test", "choice", "accuracy")
    emb = _metric("after", "embedding", "banking77-test", "choice", "accuracy")
    if cas is not None and emb is not None:
        met = "yes" if cas >= emb else f"no (by {emb - cas:.3f})"
        lines.append(
            f"| BANKING77 cascade ≥ embedding alone | cascade | ≥ {emb:.3f} | | {cas:.3f} | {met} |"
        )
    return lines


def _plots() -> list[str]:
    lines = []
    for backend in _backends():
        for name, _ in SETS:
            for kind in ("reliability", "coverage"):
                png = RESULTS / "after" / backend / f"{name}.{kind}.png"
                if png.exists():
                    rel = png.relative_to(ROOT)
                    lines.append(f"![{backend} {name} {kind}](../{rel})")
    return lines


def main() -> None:
    any_summary = next(iter(sorted(RESULTS.glob("*/*/*.json"))), None)
    machine = json.loads(any_summary.read_text())["machine"] if any_summary else {}
    out = [
        "# Decision quality",
        "",
        "<!-- generated by scripts/quality_doc.py from bench/results/quality; do not edit -->",
        "",
        "Measured with `clef-tools eval` on held-out public data (test splits only; "
        "calibrations are fitted on train/dev splits). *before*: probabilities as the backend "
        "gave them before issue 11 (no calibration); *after*: the current code with its "
        "default calibration. auto@1% / auto@5%: share of items that can be acted on "
        "automatically at ≤ 1 % / 5 % error by acting only above one confidence threshold.",
        "",
        f"Machine: {machine.get('cpu', {}).get('model', '?')}, "
        f"flags {' '.join(machine.get('cpu', {}).get('flags', []))}.",
        "",
        "## Targets",
        "",
        *_targets(),
        "",
    ]
    for name, about in SETS:
        table = _table(name)
        if table:
            out += [f"## {name}", "", about, "", *table, ""]
    out += [
        "## How these were made",
        "",
        "```",
        "bench/quality.sh before   # on the commit before the fixes (no calibration)",
        "bench/quality.sh dev      # train/dev splits, raw probabilities",
        "bench/quality.sh fit      # clef-tools calibrate --predictions ... (writes the defaults)",
        "bench/quality.sh after    # held-out sets, default calibration",
        ".venv/bin/python scripts/quality_doc.py",
        "```",
        "",
        "Each run of `clef-tools eval DATA.jsonl --model M --out DIR` writes `DIR/<set>.json`, "
        "`<set>.predictions.jsonl` and the two plots below.",
        "",
        "## Plots (after)",
        "",
        *_plots(),
        "",
    ]
    OUT.write_text("\n".join(out))
    sys.stdout.write(f"wrote {OUT.relative_to(ROOT)}\n")


if __name__ == "__main__":
    main()
