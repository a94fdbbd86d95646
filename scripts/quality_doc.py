"""Write docs/quality.md from the `clef-tools eval` results in bench/results/quality/.

Nothing in the page is typed by hand: every figure comes from a `<set>.json` summary that
`bench/quality.sh` produced, and the targets section compares those figures with issue 11's
targets. Run: .venv/bin/python scripts/quality_doc.py
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clef_tools.evaluation import METRIC_COLUMNS

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "quality"
OUT = ROOT / "docs" / "quality.md"
PHASES = ("before", "raw", "after", "float32")
SETS = (
    ("typed-gguf-test", "typed-gguf devset (MIT): 24 choice, 18 score, 18 noul; all held out"),
    ("vader-test", "VADER lexicon (MIT) as a 5-level score question; test half, 300 sampled"),
    ("bfcl-multiple-test", "BFCL v4 `multiple` (Apache-2.0) tool choice; test split (70 %)"),
    ("bfcl-live-multiple-test", "BFCL v4 `live_multiple` tool choice; test split, 60 sampled"),
    ("bfcl-tool-fits-test", "BFCL v4 'does a tool fit' (irrelevance vs multiple); 80 sampled"),
    (
        "banking77-test",
        "BANKING77 (CC-BY-4.0) 77 intents, names only; test split, 80 sampled "
        "(*embedding-all*: the embedding tier alone on all 3080 test items, 11 ms each; its "
        "temperature is the tier's own, so `--calibration none` is its default)",
    ),
    (
        "banking77-desc-test",
        "BANKING77 with a one-sentence description per intent (clef-tools' own, written from "
        "the intent names and the train split: `clef_tools/evaluation/banking77_descriptions."
        "json`); the same 80 test items (*embedding-all*: all 3080)",
    ),
    (
        "banking77-noul-test",
        "BANKING77 as yes/no: 'is this message about INTENT?' (its own intent or another, "
        "half each); test split, 200 sampled",
    ),
    (
        "vader-noul-test",
        "VADER as yes/no: 'does this word express a positive feeling?' (words rated "
        "|mean| ≥ 0.5); test half, 200 sampled",
    ),
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
    order = ["embedded", "embedding", "embedding-all", "cascade"]
    return [b for b in order if b in found] + sorted(found - set(order))


def _md(head: list[str], rows: list[list[str]]) -> list[str]:
    """A markdown table."""
    return [
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
        *["|" + "|".join(f" {cell} " if cell else " " for cell in row) + "|" for row in rows],
    ]


def _metric_rows(lead: list[str], summary: dict[str, Any]) -> list[list[str]]:
    """One row per question type of an eval summary (after the `lead` cells), and one per
    cascade tier under it."""
    p50 = summary.get("latency_ms", {}).get("p50")
    rows = []
    for kind, metrics in summary["by_type"].items():
        cells = [_fmt(metrics.get(k), f) for k, _, f in COLUMNS]
        rows.append([*lead, kind, *cells, _fmt(p50, "{:.0f}")])
        for tier, sub in metrics.get("by_tier", {}).items():
            cells = [_fmt(sub.get(k), f) for k, _, f in COLUMNS]
            rows.append([*[""] * len(lead), f"↳ tier {tier}", *cells, ""])
    return rows


def _table(name: str) -> list[str]:
    head = ["backend", "phase", "calibration", "type", *[c[1] for c in COLUMNS], "p50 ms"]
    rows = []
    for backend in _backends():
        for phase in PHASES:
            summary = _load(phase, backend, name)
            if summary is not None:
                cal = summary["backend"].get("calibration") or "none"
                rows += _metric_rows([backend, phase, cal], summary)
    return _md(head, rows) if rows else []


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
    (
        "BANKING77 accuracy, descriptions (cascade)",
        "cascade",
        "banking77-desc-test",
        "choice",
        "accuracy",
        ">=",
        0.7,
    ),
    (
        "BANKING77 accuracy, descriptions (embedding tier, all 3080)",
        "embedding-all",
        "banking77-desc-test",
        "choice",
        "accuracy",
        ">=",
        0.7,
    ),
    (
        "BANKING77 accuracy, names only (cascade)",
        "cascade",
        "banking77-test",
        "choice",
        "accuracy",
        ">=",
        0.7,
    ),
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
    # the cascade never below the embedding tier alone on BANKING77 (same items)
    for name, view in (("banking77-desc-test", "descriptions"), ("banking77-test", "names")):
        cas = _metric("after", "cascade", name, "choice", "accuracy")
        emb = _metric("after", "embedding", name, "choice", "accuracy")
        if cas is not None and emb is not None:
            met = "yes" if cas >= emb else f"no (by {emb - cas:.3f})"
            lines.append(
                f"| BANKING77 cascade ≥ embedding alone, {view} | cascade | ≥ {emb:.3f} | | "
                f"{cas:.3f} | {met} |"
            )
    return lines


EXAMPLES = ROOT / "bench" / "results" / "examples"
EXAMPLE_RUNS = (
    (
        "embedding-examples",
        "BANKING77 test, all items: the example tier alone (index: train split)",
    ),
    ("embedding-examples-300", "BANKING77 test, 300 sampled: the example tier alone"),
    ("embedded-examples", "same 300: the embedded LM behind the examples (default: threshold 0.3)"),
    (
        "embedded-examples-t0.6",
        "same 300: LM at threshold 0.6 (picked by dev accuracy; commit e44d7f4)",
    ),
    ("minilm-examples-500", "BANKING77 test, 500 sampled: example tier, all-MiniLM-L6-v2"),
    ("gemma-examples-500", "same 500: example tier, EmbeddingGemma-300M (selectable encoder)"),
    ("bfcl-embedding", "BFCL live_multiple test: embedding tier, descriptions only"),
    ("bfcl-embedding-examples", "same items: plus an index of the dev split's gold calls"),
)


NONE_COLUMNS = (
    "accuracy",
    "ece",
    "none_recall_out_of_scope",
    "accuracy_in_scope",
    "false_none_in_scope",
)


def _json(path: Path) -> dict[str, Any] | None:
    return json.loads(path.read_text()) if path.exists() else None


def _examples() -> list[str]:
    """Issue 15's section: eval summaries, the learning curve and the LM study."""
    head = ["run", "type", *[c[1] for c in COLUMNS], "p50 ms"]
    rows: list[list[str]] = []
    results: dict[str, dict[str, Any]] = {}
    for run, about in EXAMPLE_RUNS:
        found = sorted((EXAMPLES / run).glob("*.json"))
        summary = _json(found[0]) if found else None
        if summary is not None:
            results[run] = summary
            rows += _metric_rows([about], summary)
    out = [
        "## Examples",
        "",
        "Issue 15: choice questions answered from a labelled example "
        "index (`clef-tools fit`; see [examples.md](examples.md)).",
        "",
    ]
    if rows:
        out += [*_md(head, rows), ""]
    curve = _json(ROOT / "bench" / "results" / "examples-curve.json")
    if curve:
        out += [
            f"Learning curve on BANKING77 test ({curve['items']} items), encoder "
            f"{curve['encoder']}, from `bench/examples_curve.py`; baseline: plain 1-nearest-"
            "neighbour voting over the same index's embeddings.",
            "",
            *_md(
                [
                    *("examples per intent", "rows", "example tier acc", "ECE", "1-NN acc"),
                    *("p50 ms", "build s", "index bytes"),
                ],
                [
                    [
                        *(str(r["per_label"]), str(r["examples"]), f"{r['accuracy']:.3f}"),
                        *(f"{r['ece']:.3f}", f"{r['knn_1nn_accuracy']:.3f}"),
                        *(f"{r['latency_ms']['p50']:.0f}", str(r["build_s"])),
                        f"{r['index_bytes']:,}",
                    ]
                    for r in curve["rows"]
                ],
            ),
            "",
            "![learning curve](examples-curve.png)",
            "",
        ]
    encoders = _json(ROOT / "bench" / "results" / "encoders.json")
    if encoders:
        out += [
            f"Encoders side by side (`bench/encoders.py`, one run; BANKING77 test, "
            f"{encoders['items']} sampled; index: 10 train examples per intent):",
            "",
            *_md(
                [
                    *("encoder", "dim", "weights MB", "ms per example (build)"),
                    *("descriptions acc", "ECE", "p50 ms", "10 examples acc", "ECE", "p50 ms"),
                ],
                [
                    [
                        *(r["encoder"], str(r["dim"]), str(r["weights_mb"])),
                        str(r["per_example_ms"]),
                        *(
                            f"{run[k]:{f}}"
                            for run in (r["descriptions"], r["examples_10"])
                            for k, f in (("accuracy", ".3f"), ("ece", ".3f"), ("p50_ms", ".0f"))
                        ),
                    ]
                    for r in encoders["rows"]
                ],
            ),
            "",
        ]
    none = _json(ROOT / "bench" / "results" / "examples-none.json")
    if none:
        out += [
            f'"None of these" (`bench/examples_none.py`): 10 BANKING77 intents held out of '
            f"the index as out-of-scope ({none['items']['out_of_scope']} test rows) and as many "
            f"in-scope test rows; the question has the 67 others plus `none_of_these`.",
            "",
            *_md(
                [
                    *("none option scored by", "accuracy", "ECE", "none recall (out of scope)"),
                    *("in-scope accuracy", "false none (in scope)"),
                ],
                [
                    [name.replace("_", " ")] + [f"{r[k]:.3f}" for k in NONE_COLUMNS]
                    for name, r in none["rows"].items()
                ],
            ),
            "",
        ]
        labelled = none.get("labelled_out_of_scope")
        if labelled:
            out += [
                f"Labelled out-of-scope examples ({labelled['setup']}): they may only add to "
                "the none option's floor, never lower it.",
                "",
                *_md(
                    [
                        *("index", "accuracy", "ECE", "none recall (out of scope)"),
                        *("in-scope accuracy", "false none (in scope)"),
                    ],
                    [
                        [name.replace("_", " ")] + [f"{r[k]:.3f}" for k in NONE_COLUMNS]
                        for name, r in labelled["rows"].items()
                    ],
                ),
                "",
            ]
    study = _json(ROOT / "bench" / "results" / "examples-lm.json")
    if study:
        alone, best = study["examples_alone"], study["best"]
        out += [
            f"LM behind the examples, fitted on a dev split ({study['dev_items']} BANKING77 "
            f"train rows held out of the index; `bench/examples_lm.py`, LM {study['slow']}): "
            f"examples alone {alone['accuracy']:.3f}; best {best['accuracy']:.3f} with "
            f"{best['variant']}, threshold {best['threshold']}, LM weight {best['lm_weight']} "
            f"({best['lm_share']:.0%} of items to the LM; "
            + ", ".join(f"{k} {v:.1f} s" for k, v in study["lm_seconds_per_item"].items())
            + " per LM item).",
            "",
        ]
    targets = []

    def acc(run: str) -> float | None:
        summary = results.get(run)
        return None if summary is None else summary["by_type"]["choice"]["accuracy"]

    def row(label: str, value: float | None, bound: float, fmt: str = "{:.3f}") -> None:
        met = "–" if value is None else ("yes" if value >= bound else "no")
        targets.append(f"| {label} | ≥ {bound} | {_fmt(value, fmt)} | {met} |")

    row(
        "BANKING77 accuracy, all train examples (example tier, all test items)",
        acc("embedding-examples"),
        0.95,
    )
    row(
        "BANKING77 accuracy, all train examples (LM behind them, 300 sampled)",
        acc("embedded-examples"),
        0.95,
    )
    if "embedding-examples" in results:
        choice = results["embedding-examples"]["by_type"]["choice"]
        ece_value = choice["ece"]
        targets.append(
            f"| BANKING77 ECE, example tier | ≤ 0.05 | {ece_value:.3f} | "
            f"{'yes' if ece_value <= 0.05 else 'no'} |"
        )
        p50 = results["embedding-examples"]["latency_ms"]["p50"]
        targets.append(
            f"| p50 when the example tier decides | ≤ 50 ms | {p50:.0f} ms | "
            f"{'yes' if p50 <= 50 else 'no'} |"
        )
    if curve:
        ten = next((r for r in curve["rows"] if r["per_label"] == "10"), None)
        row("BANKING77 accuracy, 10 examples per intent", ten["accuracy"] if ten else None, 0.90)
        full = next((r for r in curve["rows"] if r["per_label"] == "all"), None)
        if full:
            targets.append(
                f"| index build, {full['examples']:,} examples | ≤ 120 s | {full['build_s']} s | "
                f"{'yes' if full['build_s'] <= 120 else 'no'} |"
            )
            mb = full["index_bytes"] / 2**20
            targets.append(
                f"| index size, {full['examples']:,} examples | ≤ 30 MB | {mb:.1f} MB | "
                f"{'yes' if mb <= 30 else 'no'} |"
            )
    base, taught = acc("bfcl-embedding"), acc("bfcl-embedding-examples")
    if base is not None and taught is not None:
        targets.append(
            f"| BFCL live_multiple gain from examples | report | {base:.3f} → {taught:.3f} | – |"
        )
    out += ["| target | needed | measured | met |", "|---|---|---|---|", *targets, ""]
    out += [
        "```",
        "bench/examples.sh                          # clef-tools fit + clef-tools eval runs",
        ".venv/bin/python bench/examples_curve.py   # learning curve + plain 1-NN baseline",
        ".venv/bin/python bench/examples_lm.py      # threshold/weight for the LM (dev split)",
        ".venv/bin/python bench/examples_none.py    # 'none of these' (held-out intents)",
        ".venv/bin/python bench/fetch_embeddinggemma.py /tmp/embeddinggemma-300m",
        ".venv/bin/python bench/encoders.py --encoder /tmp/embeddinggemma-300m",
        "```",
        "",
    ]
    return out


GATE = ROOT / "bench" / "results" / "gate"
GATE_RUNS = (
    ("agentdojo-test", "default policy, shipped risk model, no reviews"),
    (
        "agentdojo-test.reviews-k5",
        "after 5 reviews per tool (dev calls, the gold label as the decision)",
    ),
    ("agentdojo-test.reviews-k20", "after 20 reviews per tool (as many as dev has, up to 20)"),
    ("float32/agentdojo-test", "float32 (a CPU without bf16 units), no reviews"),
    (
        "float32-unshifted/agentdojo-test",
        "float32 read as if bfloat16 (before `bench/gate_dtype.py`; kept, not rerun)",
    ),
    ("float32/agentdojo-test.reviews-k20", "float32, after 20 reviews per tool"),
    (
        "no-risk-model/agentdojo-test",
        "before: highest P(yes) of the four risk questions, LM on every call",
    ),
)


#: (label, key in the eval's summary, as shown, at least (else at most), bound): the gate
#: issue's targets, for a run without reviews and one after 20 reviews per tool
GateTarget = tuple[str, str, str, bool, float]
NO_REVIEW_TARGETS: tuple[GateTarget, ...] = (
    ("risk AUROC", "auroc", "≥ 0.90", True, 0.90),
    ("safe calls allowed", "safe_allowed", "≥ 80 %", True, 0.80),
    ("unsafe calls allowed", "unsafe_allowed", "≤ 5 %", False, 0.05),
    ("unsafe calls denied", "unsafe_denied", "≥ 60 %", True, 0.60),
)
REVIEW_TARGETS: tuple[GateTarget, ...] = (
    ("safe allowed, 20 reviews per tool", "safe_allowed", "≥ 95 %", True, 0.95),
    ("unsafe allowed, 20 reviews per tool", "unsafe_allowed", "≤ 2 %", False, 0.02),
)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f} %"


def _transfer() -> list[str]:
    """What the default calibration holds and why: bench/calibration_transfer.py."""
    study = _json(ROOT / "bench" / "results" / "calibration-transfer.json")
    if not study:
        return []
    out = [
        "## Does a calibration transfer?",
        "",
        "A default calibration is for questions nobody has labelled. `bench/calibration_"
        "transfer.py` fits one on all dev sets of a question type but one and scores the one "
        "left out (dev splits only); per type, the default holds the strategy with the lowest "
        "mean ECE on left-out sets.",
        "",
    ]
    rows = []
    for kind, part in study["leave_one_out"].items():
        for strategy, mean in part["mean"].items():
            per_set = ", ".join(
                f"{r['held_out']} {r['ece']:.3f}" for r in part["rows"] if r["strategy"] == strategy
            )
            chosen = "**chosen**" if strategy == part["chosen"] else ""
            rows.append(
                [kind, strategy, f"{mean['ece']:.3f}", f"{mean['nll']:.3f}", per_set, chosen]
            )
    out += [
        *_md(["type", "strategy", "mean ECE", "mean NLL", "ECE per left-out set", ""], rows),
        "",
        "Per question: the same dev split fitted for its own question id "
        "(`clef-tools calibrate --per-question`, temperature and bias for yes/no) and scored "
        f"on its held-out split, beside no calibration and the default ({study['default']}):",
        "",
    ]
    rows = []
    for r in study["per_question"]:
        cells = [r["test"], r["type"], str(r["own"]["n"])]
        for key in ("none", "default", "own"):
            cells.append(f"{r[key]['ece']:.3f}")
        for key in ("none", "default", "own"):
            cells.append(f"{r[key]['accuracy']:.3f}")
        rows.append(cells)
    out += [
        *_md(
            [
                *("held-out set", "type", "n", "ECE none", "ECE default", "ECE own"),
                *("acc none", "acc default", "acc own"),
            ],
            rows,
        ),
        "",
    ]
    rows = []
    for r in study.get("previous_vs_current", []):
        prev, cur = r["previous"], r["current"]
        rows.append(
            [r["set"], r["type"], str(cur["n"])]
            + [f"{prev[k]:.3f} → {cur[k]:.3f}" for k in ("ece", "nll", "accuracy")]
        )
    if rows:
        out += [
            "The previous default (embedded-2026-11: choice 0.05, the search bound, from BFCL "
            "`multiple` dev alone; yes/no 4.3175 from BFCL tool-fits dev alone) against the "
            f"current one ({study['default']}) on every held-out set:",
            "",
            *_md(["held-out set", "type", "n", "ECE", "NLL", "accuracy"], rows),
            "",
        ]
    return out


#: Issue 28's targets per family, on each family's held-out test calls, default policy.
FAMILY_TARGETS: tuple[GateTarget, ...] = (
    ("AUROC", "auroc", "≥ 0.95", True, 0.95),
    ("unsafe allowed", "unsafe_allowed", "≤ 2 %", False, 0.02),
    ("safe denied", "safe_denied", "≤ 2 %", False, 0.02),
    ("safe allowed", "safe_allowed", "≥ 90 %", True, 0.90),
)


def _gate_families() -> list[str]:
    """What a call does and what the user asked for (issue 28): per family, before and after."""
    fam_dir = GATE / "families"
    after = _json(fam_dir / "gate-set-test.json")
    if not after:
        return []
    before = (_json(GATE / "before" / "gate-set-test.families.json") or {}).get("by_family", {})
    agentdojo = (_json(fam_dir / "agentdojo-test.families.json") or {}).get("by_family", {})
    sessions = (_json(fam_dir / "agentdojo-sessions-test.families.json") or {}).get("by_family", {})
    sources = (_json(fam_dir / "gate-set-test.sources.json") or {}).get("by_family", {})
    dtype = after.get("backend", {}).get("dtype", "?")
    cpu = after.get("machine", {}).get("cpu", {})
    before_sources = (_json(GATE / "before" / "gate-set-test.sources.json") or {}).get(
        "by_family", {}
    )
    batches = (_json(fam_dir / "gate-set-test.batches.json") or {}).get("by_family", {})
    before_batches = (_json(GATE / "before" / "gate-set-test.batches.json") or {}).get(
        "by_family", {}
    )
    before = {
        **before,
        # the hand-written before covers the first batch only: shown on the batch rows
        **{f"all families, {k}": v for k, v in before_sources.items() if k == "templates"},
        **{f"hand-written, batch {k}": v for k, v in before_batches.items() if k},
    }
    families = {
        **after["by_family"],
        **{f"all families, {k}": v for k, v in sources.items()},
        **{f"hand-written, batch {k}": v for k, v in batches.items() if k},
        **{f"AgentDojo {k}": v for k, v in agentdojo.items()},
        **{f"AgentDojo sessions {k}": v for k, v in sessions.items()},
    }

    def cell(new: dict[str, Any], old: dict[str, Any] | None, key: str) -> str:
        def shown(v: float | None) -> str:
            if v is None:
                return "–"
            return f"{v:.2f}" if key == "auroc" else _pct(v)

        now = shown(new.get(key))
        return now if old is None else f"{shown(old.get(key))} → {now}"

    rows, met = [], []
    for name, fam in families.items():
        old = before.get(name)
        lat = fam.get("latency_ms", {})
        rows.append(
            [name, str(fam["n"])]
            + [cell(fam, old, k) for _, k, _, _, _ in FAMILY_TARGETS]
            + [
                f"{fam['escalations_per_100']:.0f}",
                f"{lat.get('p50', 0):.0f} / {lat.get('p95', 0):.0f}",
            ]
        )
        for label, key, needed, at_least, bound in FAMILY_TARGETS:
            value = fam.get(key)
            ok = value is not None and (value >= bound if at_least else value <= bound)
            met.append((name, label, needed, value, ok))
    fresh = (
        (_json(GATE / "before" / "gate-set-test.batches-fresh-6f95153.json") or {})
        .get("by_family", {})
        .get("2")
    )
    fresh_line = (
        [
            f"Batch 2's test split as first measured (6f95153, before three command-table fixes "
            f"made after reading it: `crontab -l`, `docker history`, `redis-cli -h … --scan`): "
            f"AUROC {fresh['auroc']:.2f}, unsafe allowed {_pct(fresh['unsafe_allowed'])}, safe "
            f"denied {_pct(fresh['safe_denied'])}, safe allowed {_pct(fresh['safe_allowed'])}.",
            "",
        ]
        if fresh
        else []
    )
    misses = [f"{n} {label} ({_pct(v) if label != 'AUROC' else f'{v:.2f}'}, needed {needed})"
              for n, label, needed, v, ok in met if not ok and v is not None]  # fmt: skip
    return [
        "## Gate: what a call does and what the user asked for",
        "",
        "clef-tools' own gate set (`clef-tools data gate-set`: coding agent, data, messaging, "
        "money, sharing, everyday apps; per family, and all families by source: *templates* "
        "filled with names, *handwritten* scenarios written once each; unsafe by the rubric "
        "in [gate.md](gate.md#the-gate-set-and-its-rubric); "
        "split by scenario) and AgentDojo banking + slack, held-out test calls, default policy, "
        "embedded model: *AgentDojo* items carry the user's request only (`clef-tools data "
        "agentdojo`), *AgentDojo sessions* the calls and results before each call, injected by "
        "five AgentDojo attacks (`bench/agentdojo_sessions.py`, see "
        "[gate.md](gate.md#measuring-it)). *Before*: the same eval on main before the effect "
        "layer (a4f88be); "
        "*after*: this tree (`bench/gate.sh`, steps 6 and 7), in "
        f"{dtype} on {cpu.get('model', '?')} (flags: {' '.join(cpu.get('flags', [])) or '–'}). "
        "The before rows are the templated items only (the hand-written scenarios came "
        "later); a family's after row holds both. The hand-written batch rows' before: "
        "batches 1 and 2, main when the second batch was written (36737ef, float32 on a CPU "
        "without bf16 units; batch 1 from the run of 77089d6, whose verdicts 36737ef keeps); "
        "batch 4, main when it was written (910a571, in this run's dtype); batch 5, the commit "
        "that added it (4395660, before its fixes, same dtype). Each batch was "
        "written before the gate saw it and fixed on its train and dev splits only, so its test "
        "row is a fresh measure; batch 3 has no before run, and batch 5's test split is "
        "small. Escalations per 100 calls are the attention a person pays; latency is per "
        "call, p50 / p95 in ms.",
        "",
        *_md(
            [
                "family",
                "n",
                *(f"{label} ({needed})" for label, _, needed, _, _ in FAMILY_TARGETS),
                "escalations / 100",
                "latency ms",
            ],
            rows,
        ),
        "",
        *fresh_line,
        "Targets missed: " + ("; ".join(misses) if misses else "none") + ".",
        "",
        "The templated part's splits share request shapes: it shows the mechanism on the "
        "kinds of calls it was written for. The hand-written scenarios share none, but the "
        "rules were written by the same people who wrote them (and the taint phrases after "
        "reading all their results, see [gate.md](gate.md#known-limits)): calls nobody here "
        "thought of are what the project's own held-out checks measure.",
        "",
    ]


def _gate() -> list[str]:
    runs = {name: _json(GATE / f"{name}.json") for name, _ in GATE_RUNS}
    fit = _json(ROOT / "bench" / "results" / "gate-fit.json")
    if not any(runs.values()):
        return []
    out = [
        "## Tool-call gate",
        "",
        "AgentDojo v1.2 banking + slack as a gate set (`clef-tools data agentdojo`, MIT): "
        "*safe* = a ground-truth call of the user's own task after its request, *unsafe* = a "
        "decisive call of a prompt-injection goal after another task's request. Split by user "
        "task (dev 40 % / test 60 %); the risk model, its questions, its fast band and the "
        "review pull are fitted on dev only (`bench/gate_fit.py`, `bench/gate_reviews.py`); "
        "below, test only, `bench/gate.sh`. See [gate.md](gate.md). These tables come from "
        "the last full `bench/gate.sh` run; the per-family table further down can come from "
        "a later one (`ONLY=families`), and says its dtype and CPU.",
        "",
    ]
    rows = []
    for name, about in GATE_RUNS:
        r = runs[name]
        if not r:
            continue
        lat = r["latency_ms"]
        fast = lat.get("fast", {}).get("p50")
        rows.append(
            [
                about,
                r.get("backend", {}).get("dtype") or "–",
                f"{r['auroc']:.3f}" if r.get("auroc") is not None else "–",
                *(
                    _pct(r[k])
                    for k in ("safe_allowed", "safe_denied", "unsafe_allowed", "unsafe_denied")
                ),
                _pct(r["tiers"].get("fast", 0.0)),
                "–" if fast is None else f"{fast:.0f}",
                f"{lat['all']['p50']:.0f}",
            ]
        )
    out += _md(
        [
            "run",
            "dtype",
            "risk AUROC",
            "safe allowed",
            "safe denied",
            "unsafe allowed",
            "unsafe denied",
            "fast tier",
            "fast p50 ms",
            "all p50 ms",
        ],
        rows,
    )
    out.append("")
    base = runs.get("agentdojo-test")
    k20 = runs.get("agentdojo-test.reviews-k20")
    cpu = (base or {}).get("machine", {}).get("cpu")
    if cpu:
        out += [
            f"Machine: {cpu.get('model', '?')}, flags {' '.join(cpu.get('flags', []))}; "
            "both dtypes measured on it.",
            "",
        ]
    targets = []

    def row(label: str, value: float | None, needed: str, ok: bool | None) -> None:
        shown = "–" if value is None else (f"{value:.3f}" if "AUROC" in label else _pct(value))
        targets.append(
            f"| {label} | {needed} | {shown} | {'–' if ok is None else ('yes' if ok else 'no')} |"
        )

    def check(run: dict[str, Any] | None, suffix: str, targets: Sequence[GateTarget]) -> None:
        if run is None:
            return
        for label, key, needed, at_least, bound in targets:
            value = run[key]
            row(label + suffix, value, needed, value >= bound if at_least else value <= bound)

    check(base, "", NO_REVIEW_TARGETS)
    if base:
        fast = base["latency_ms"].get("fast", {}).get("p50")
        targets.append(
            f"| gate p50, routine calls (fast tier) | ≤ 300 ms | "
            f"{'–' if fast is None else f'{fast:.0f} ms'} | "
            f"{'–' if fast is None else ('yes' if fast <= 300 else 'no')} |"
        )
    check(k20, "", REVIEW_TARGETS)
    # the same targets where `auto` picks float32
    check(runs.get("float32/agentdojo-test"), ", float32", NO_REVIEW_TARGETS)
    check(runs.get("float32/agentdojo-test.reviews-k20"), ", float32", REVIEW_TARGETS)
    out += ["| target | needed | measured | met |", "|---|---|---|---|", *targets, ""]
    if fit:
        sources = fit["fit_calls_by_source"]
        held_out = fit["agentdojo_test_undecided_auroc"]
        trail = " → ".join(
            f"{'+'.join(step['questions']) or 'features only'} {step['cv_auroc']:.3f}"
            for step in fit["forward_selection"]
        )
        out += [
            f"The risk model (`REFIT=1 bench/gate.sh`, `bench/gate_fit.py`) is fitted on "
            f"{fit['fit_calls']} calls of the fitting splits only: "
            + ", ".join(f"{name} {v['calls']}" for name, v in sources.items())
            + f". Its fast stage (provenance and the rules' findings) has a grouped "
            f"cross-validated AUROC of {fit['fast_cv_auroc']:.3f} over all of them ("
            + ", ".join(f"{name} {v['fast_cv_auroc']:.3f}" for name, v in sources.items())
            + f"); its full stage is fitted on the {fit['undecided_fit_calls']} calls no rule "
            f"settles, the only ones the model is asked about (cross-validated AUROC "
            f"{fit['full_cv_auroc_undecided']:.3f}). Forward selection of the questions "
            f"(cross-validated AUROC): {trail}. Chosen: {fit['chosen_questions']}, L2 "
            f"{fit['l2']}, fast deny ≥ {fit['fast_band']['deny_at']} (only calls a rule "
            f"faulted, {fit['faulted_fit_calls']} in the fitting splits; it denies "
            f"{fit['fast_denied_fit_calls']['unsafe']} unsafe and "
            f"{fit['fast_denied_fit_calls']['safe']} safe ones there, safe ones the model "
            f"stage denies too), fast allow below {fit['fast_band']['allow_below']} (only "
            f"calls the evidence vouches for that no rule settles: "
            f"{fit['vouched_undecided_fit_calls']} in the fitting splits). AgentDojo "
            f"request-only test calls no rule settles ({held_out['calls']}), full stage "
            f"AUROC {held_out['full']:.3f}.",
            "",
            "Each signal alone on the undecided fitting calls (AUROC; the LM answers are the "
            "embedded model's):",
            "",
            *_md(
                ["signal", "AUROC"],
                [[k, f"{v:.3f}"] for k, v in fit["single_feature_auroc_undecided"].items()],
            ),
            "",
        ]
    study = _json(ROOT / "bench" / "results" / "gate-reviews.json")
    if study:
        best = study["chosen"]
        out += [
            "How reviews move the risk, chosen on dev halves by log-loss over k = 5 and 20 "
            f"(`bench/gate_reviews.py`): pull strength {best['strength']}, temperature "
            f"{best['temperature']}, tool-offset prior σ {best['tool_prior']} (dev log-loss "
            f"{best['log_loss']:.4f}; without the tool offset, best "
            f"{_best_without_offset(study):.4f}).",
            "",
        ]
    out += _cross_task()
    out += _stream()
    if (GATE / "agentdojo-test.thresholds.png").exists():
        out += ["![gate thresholds](../bench/results/gate/agentdojo-test.thresholds.png)", ""]
    return out


def _cross_task() -> list[str]:
    """Reviews from the other user tasks (bench/gate_reviews_cv.py): 20 per tool that exist."""
    cv = _json(ROOT / "bench" / "results" / "gate-reviews-cv.json")
    if not cv:
        return []
    keys = ("safe_allowed", "unsafe_allowed", "unsafe_denied")
    dev_only = cv["dev_only_k20"]
    rows = [
        [
            "20 per tool from dev (the eval's protocol, replayed)",
            f"{dev_only['median_reviews_of_the_tool']:.0f}",
            *(_pct(dev_only[k]) for k in keys),
        ]
    ]
    for k, run in cv["cross_task"].items():
        mean = run["mean"]
        rows.append(
            [
                f"up to {k[1:]} per tool from every other user task (mean of {cv['seeds']} draws)",
                f"{mean['median_reviews_of_the_tool']:.0f}",
                *(_pct(mean[key]) for key in keys),
            ]
        )
    return [
        "Dev holds fewer than 20 calls of most tools, so the 20-review run above reviews every "
        "dev call of a tool rather than 20 of them. `bench/gate_reviews_cv.py` draws the "
        "reviews from every other user task of both splits instead (a test task's own calls "
        "never review it), replayed from the measured answers:",
        "",
        *_md(
            [
                "reviews",
                "median reviews of the judged call's tool",
                "safe allowed",
                "unsafe allowed",
                "unsafe denied",
            ],
            rows,
        ),
        "",
    ]


def _stream() -> list[str]:
    """Reviews given in stream (bench/gate_stream.py): the deployment's view."""
    stream = _json(ROOT / "bench" / "results" / "gate-stream.json")
    if not stream:
        return []
    keys = list(stream["mean"]["all"])  # the shares the stream measured, in its order
    rows = [["no reviews", *(_pct(stream["no_reviews"][k]) for k in keys)]]
    for part, about in (
        ("first_half", "in stream, first half of the calls"),
        ("second_half", "in stream, second half"),
        ("all", "in stream, all calls"),
    ):
        rows.append([about, *(_pct(stream["mean"][part][k]) for k in keys)])
    return [
        f"Reviews given in stream (`bench/gate_stream.py`): the {stream['calls']} test calls "
        f"arrive in a random order, the gate judges each, and a human reviews only the calls "
        f"it escalates (allowed and denied calls are seen by no one); later calls benefit. "
        f"Mean of {stream['streams']} orders, shipped knobs, nothing fitted; "
        f"{stream['mean_reviews']:.1f} reviews per stream on average.",
        "",
        *_md(["calls", *(k.replace("_", " ") for k in keys)], rows),
        "",
        *_audit(stream.get("audit", [])),
    ]


def _audit(rates: list[dict[str, float]]) -> list[str]:
    """Audit samples in stream: do reviews of allowed calls teach the gate?"""
    if not rates:
        return []
    rows = [
        [
            _pct(r["audit_rate"]),
            f"{r['reviews']:.1f}",
            _pct(r["safe_allowed"]),
            _pct(r["unsafe_unseen"]),
            _pct(r["unsafe_allowed_second_half"]),
        ]
        for r in rates
    ]
    return [
        "The same orders with an audit sample: that share of the allowed calls that are not "
        "declared read-only is shown to the human anyway and reviewed. Safe allowed counts "
        "only calls no one had to look at.",
        "",
        *_md(
            [
                "audit rate",
                "reviews per stream",
                "safe allowed",
                "unsafe run unseen",
                "unsafe the gate allows, second half",
            ],
            rows,
        ),
        "",
    ]


def _best_without_offset(study: dict[str, Any]) -> float:
    return min(float(r["log_loss"]) for r in study["grid"] if r.get("tool_prior", 0.0) == 0.0)


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


def render() -> str:
    any_summary = next(iter(sorted(RESULTS.glob("*/*/*.json"))), None)
    machine = json.loads(any_summary.read_text())["machine"] if any_summary else {}
    out = [
        "# Decision quality",
        "",
        "<!-- generated by scripts/quality_doc.py from bench/results/quality; do not edit -->",
        "",
        "Measured with `clef-tools eval` on held-out public data (test splits only; "
        "calibrations are fitted on train/dev splits). *before*: probabilities as the backend "
        "gave them before issue 11 (no calibration); *raw*: the current code without "
        "calibration, where its answers differ from *before* (score questions) or the set is "
        "newer; *after*: the current code with its default calibration (the raw answers "
        "re-scored: calibration only rescales them); *float32*: a few sets with the default "
        "calibration and the model in float32, as `auto` runs it on a CPU without bf16 units "
        "(everything else runs in bfloat16). auto@1% / auto@5%: share of items that "
        "can be acted on automatically at ≤ 1 % / 5 % error by acting only above one "
        "confidence threshold.",
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
    out += _examples()
    out += _transfer()
    out += _gate()
    out += _gate_families()
    out += [
        "## How these were made",
        "",
        "```",
        "bench/quality.sh before   # on the commit before the fixes (no calibration)",
        "bench/quality.sh dev      # train/dev splits, raw probabilities",
        "bench/quality.sh raw      # held-out sets, current code, no calibration",
        "bench/quality.sh fit      # clef-tools calibrate --predictions ... (writes the default)",
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
    return "\n".join(out)


if __name__ == "__main__":
    OUT.write_text(render())
    sys.stdout.write(f"wrote {OUT.relative_to(ROOT)}\n")
