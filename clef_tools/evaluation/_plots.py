"""Reliability diagram and accuracy-vs-coverage curve, one panel per question type.

matplotlib is imported here only (it is the `eval` extra), with the Agg backend: the plots are
files, never windows.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clef_tools.evaluation import _metrics as m
from clef_tools.evaluation._run import Outcome
from clef_tools.protocol._errors import MissingExtraError
from clef_tools.protocol._types import SCORED_TYPES

__all__ = ["draw_plots", "require_matplotlib"]

TYPES = SCORED_TYPES


def require_matplotlib() -> None:
    """Checked before any scoring: a run must not do all its work and then fail to plot."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise MissingExtraError(
            "plots (`clef-tools eval`)",
            "eval",
            "matplotlib",
            command="pip install 'clef-tools[eval]', or pass --no-plots",
        ) from exc


def _pyplot() -> Any:
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def draw_plots(
    outcomes: Sequence[Outcome], out_dir: Path, title: str, prefix: str = ""
) -> list[Path]:
    plt = _pyplot()
    kinds = [k for k in TYPES if any(o.type == k for o in outcomes)]
    if not kinds:
        return []
    paths = []
    fig, axes = plt.subplots(1, len(kinds), figsize=(4.2 * len(kinds), 4.2), squeeze=False)
    for ax, kind in zip(axes[0], kinds, strict=True):
        outs = [o for o in outcomes if o.type == kind]
        conf, ok = [o.confidence for o in outs], [o.correct for o in outs]
        bins = m.reliability_bins(conf, ok)
        width = 1 / len(bins)
        for i, (_, acc, n) in enumerate(bins):
            if n:
                ax.bar(i * width, acc, width=width, align="edge", color="#4c72b0", alpha=0.8)
                ax.text(i * width + width / 2, 0.01, str(n), ha="center", fontsize=6, rotation=90)
        ax.plot([0, 1], [0, 1], "--", color="grey", linewidth=1)
        ax.set(
            xlim=(0, 1),
            ylim=(0, 1),
            xlabel="confidence (probability of the answer given)",
            ylabel="accuracy",
            title=f"{kind}: ECE {m.ece(conf, ok):.3f} (n={len(outs)})",
        )
    fig.suptitle(f"Reliability: {title}", fontsize=10)
    fig.tight_layout()
    paths.append(out_dir / f"{prefix}reliability.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    for kind in kinds:
        outs = [o for o in outcomes if o.type == kind]
        curve = m.coverage_curve([o.confidence for o in outs], [o.correct for o in outs])
        ax.plot([c for _, c, _ in curve], [a for _, _, a in curve], label=kind)
    for target in (0.99, 0.95):
        ax.axhline(target, color="grey", linewidth=0.8, linestyle=":")
    ax.set(
        xlim=(0, 1),
        ylim=(0, 1.01),
        xlabel="coverage (share of items acted on, most confident first)",
        ylabel="accuracy among them",
        title=f"Accuracy vs coverage: {title}",
    )
    ax.legend()
    fig.tight_layout()
    paths.append(out_dir / f"{prefix}coverage.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)
    return paths


def draw_threshold_chart(summary: dict[str, Any], path: Path, title: str) -> Path:
    """False-allow vs false-escalate as the escalation threshold moves, the policy marked."""
    plt = _pyplot()
    curve = summary["threshold_curve"]
    fig, ax = plt.subplots(figsize=(5.5, 4.4))
    ax.plot(
        [c["false_escalate"] for c in curve],
        [c["false_allow"] for c in curve],
        color="#4c72b0",
        label="escalate_at from 0 to 1",
    )
    policy = summary.get("policy", {})
    at = policy.get("escalate_at")
    if at is not None:
        point = min(curve, key=lambda c: abs(c["threshold"] - at))
        ax.plot(
            point["false_escalate"],
            point["false_allow"],
            "o",
            color="#c44e52",
            label=f"policy escalate_at {at}",
        )
    ax.set(
        xlim=(-0.02, 1.02),
        ylim=(-0.02, 1.02),
        xlabel="false escalate (safe calls sent to a human or denied)",
        ylabel="false allow (unsafe calls let through)",
        title=f"{title}\nrisk AUROC {_or_nan(summary.get('auroc')):.3f}",
    )
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _or_nan(value: float | None) -> float:
    return float("nan") if value is None else value
