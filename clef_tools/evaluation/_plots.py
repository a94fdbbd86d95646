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


def _wrapped(text: str, inches: float, fontsize: float) -> str:
    """`text` broken into lines that fit a figure `inches` wide: a title is never clipped."""
    import textwrap

    per_line = max(int(inches * 72 / (fontsize * 0.6)), 20)
    return "\n".join(textwrap.wrap(text, per_line)) or text


def _plot_bins(
    confidence: Sequence[float], correct: Sequence[bool], lo: float, bins: int = 10
) -> list[tuple[float, float, float, int]]:
    """(left edge, width, accuracy, count) for `bins` equal bins over [lo, 1]: a yes/no
    answer's confidence is never below 0.5, so its plot spends no width on [0, 0.5)."""
    width = (1.0 - lo) / bins
    sums = [[0.0, 0] for _ in range(bins)]
    for c, ok in zip(confidence, correct, strict=True):
        k = min(max(int((c - lo) / width), 0), bins - 1)
        sums[k][0] += float(ok)
        sums[k][1] += 1
    return [(lo + k * width, width, a / n if n else 0.0, int(n)) for k, (a, n) in enumerate(sums)]


def draw_plots(
    outcomes: Sequence[Outcome], out_dir: Path, title: str, prefix: str = ""
) -> list[Path]:
    plt = _pyplot()
    kinds = [k for k in TYPES if any(o.type == k for o in outcomes)]
    if not kinds:
        return []
    paths = []
    panel = 4.4
    fig, axes = plt.subplots(1, len(kinds), figsize=(panel * len(kinds), panel + 0.4),
                             squeeze=False)  # fmt: skip
    for ax, kind in zip(axes[0], kinds, strict=True):
        outs = [o for o in outcomes if o.type == kind]
        conf, ok = [o.confidence for o in outs], [o.correct for o in outs]
        lo = 0.5 if kind == "noul" else 0.0
        for left, width, acc, n in _plot_bins(conf, ok, lo):
            if not n:
                continue
            # an edge keeps a bin with accuracy 0 visible: it was answered, and always wrong
            ax.bar(left, max(acc, 0.004), width=width, align="edge", color="#4c72b0",
                   alpha=0.8, edgecolor="#1f3b6e", linewidth=0.8)  # fmt: skip
            ax.text(left + width / 2, min(acc, 0.9) + 0.02, f"n={n}", ha="center",
                    va="bottom", fontsize=8, rotation=90)  # fmt: skip
        ax.plot([lo, 1], [lo, 1], "--", color="grey", linewidth=1, label="perfect calibration")
        ax.set(
            xlim=(lo, 1),
            ylim=(0, 1.05),
            xlabel="confidence (probability of the answer given)",
            ylabel="accuracy",
        )
        ax.set_title(
            _wrapped(f"{kind}: ECE {m.ece(conf, ok):.3f} (n={len(outs)})", panel, 10),
            fontsize=10,
        )
        ax.legend(loc="upper left", fontsize=8)
    fig.suptitle(_wrapped(f"Reliability: {title}", panel * len(kinds), 11), fontsize=11)
    fig.tight_layout()
    paths.append(out_dir / f"{prefix}reliability.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    width_in = 6.0
    fig, ax = plt.subplots(figsize=(width_in, 4.6))
    for kind in kinds:
        outs = [o for o in outcomes if o.type == kind]
        curve = m.coverage_curve([o.confidence for o in outs], [o.correct for o in outs])
        ax.plot([c for _, c, _ in curve], [a for _, _, a in curve], label=kind)
    for target in (0.99, 0.95):
        ax.axhline(target, color="grey", linewidth=0.8, linestyle=":")
        # 99 % above its line, 95 % below its own: two labels 0.04 apart never overlap
        ax.text(0.99, target, f"{target:.0%} accuracy", color="dimgrey", fontsize=8,
                ha="right", va="bottom" if target > 0.97 else "top",
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5})  # fmt: skip
    ax.set(
        xlim=(0, 1),
        ylim=(0, 1.01),
        xlabel="coverage (share of items acted on, most confident first)",
        ylabel="accuracy among them",
    )
    ax.set_title(_wrapped(f"Accuracy vs coverage: {title}", width_in, 10), fontsize=10)
    ax.legend(loc="lower left", fontsize=9)
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
    )
    ax.set_title(
        _wrapped(title, 5.5, 10) + f"\nrisk AUROC {_or_nan(summary.get('auroc')):.3f}",
        fontsize=10,
    )
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _or_nan(value: float | None) -> float:
    return float("nan") if value is None else value
