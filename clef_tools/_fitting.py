"""Temperature and Platt fits: the small, pure numerical fits every floor that calibrates
shares (shipped calibrations, the example index's leave-one-out temperature, `calibrate`).
No numpy: they run on a few hundred numbers, on any install."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["fit_platt", "fit_temperature"]


def fit_temperature(
    logprobs: Sequence[Sequence[float]], gold: Sequence[int], lo: float = 0.05, hi: float = 20.0
) -> float:
    """Temperature minimising the NLL of `gold` (golden-section search in log space)."""
    if len(logprobs) != len(gold) or not gold:
        raise ValueError("need one gold index per item and at least one item")

    def nll(log_t: float) -> float:
        t = math.exp(log_t)
        total = 0.0
        for lp, g in zip(logprobs, gold, strict=True):
            scaled = [v / t for v in lp]
            m = max(scaled)
            total -= scaled[g] - (m + math.log(sum(math.exp(v - m) for v in scaled)))
        return total / len(gold)

    a, b = math.log(lo), math.log(hi)
    ratio = (math.sqrt(5) - 1) / 2
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    for _ in range(80):
        if nll(c) < nll(d):
            b = d
        else:
            a = c
        c, d = b - ratio * (b - a), a + ratio * (b - a)
    return math.exp((a + b) / 2)


def fit_platt(
    log_odds: Sequence[float],
    yes: Sequence[bool],
    lo: float = 0.05,
    hi: float = 20.0,
    max_bias: float = 5.0,
) -> tuple[float, float]:
    """(temperature, bias) minimising the NLL of `yes` under `sigmoid(x / T + b)`.

    A one-feature logistic regression: convex in `(1/T, b)`, solved by Newton steps with
    the slope kept in `[1/hi, 1/lo]` and the bias within `±max_bias`.
    """
    if len(log_odds) != len(yes) or not yes:
        raise ValueError("need one label per item and at least one item")
    xs = [float(x) for x in log_odds]
    ys = [1.0 if y else 0.0 for y in yes]
    a, b = 1.0, 0.0
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            p = _sigmoid(a * x + b)
            w = p * (1 - p)
            ga += (p - y) * x
            gb += p - y
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab
        if det <= 1e-12:  # every item has the same log-odds: only the slope is fitted
            da, db = (ga / haa if haa > 1e-12 else 0.0), 0.0
        else:
            da = (hbb * ga - hab * gb) / det
            db = (haa * gb - hab * ga) / det
        a_new = min(max(a - da, 1 / hi), 1 / lo)
        b_new = min(max(b - db, -max_bias), max_bias)
        if abs(a_new - a) < 1e-10 and abs(b_new - b) < 1e-10:
            break
        a, b = a_new, b_new
    return 1 / a, b


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z)
    return e / (1 + e)
