"""The metric maths of `clef-tools eval`, on plain lists so each formula can be checked by hand.

Conventions (written down because metrics differ silently between libraries):
- confidence is the probability of the predicted (argmax) option, the quantity a caller
  thresholds on; ECE compares it with accuracy in 15 equal-width bins `(lo, hi]` (the first
  bin also holds 0), weighted by bin size;
- Brier is the multi-class form `sum_k (p_k - y_k)^2` for choice and score, and the usual
  binary `(p_yes - y)^2` for noul;
- NLL is `-log p(gold)` with p floored at 1e-12, so one zero probability is a large finite
  number rather than infinity;
- macro-F1 averages over every label seen as gold or as prediction (scikit-learn's default);
- Spearman uses average ranks for ties; AUROC counts a tie as half a win;
- "automatable at e" is the largest share of items whose confidence clears one threshold
  while the error rate among them stays at or below e.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = [
    "accuracy",
    "auroc",
    "automatable_share",
    "brier",
    "coverage_curve",
    "ece",
    "macro_f1",
    "nll",
    "percentile",
    "reliability_bins",
    "spearman",
]

ECE_BINS = 15
_FLOOR = 1e-12


def _argmax(p: Sequence[float]) -> int:
    return max(range(len(p)), key=lambda i: p[i])


def accuracy(probs: Sequence[Sequence[float]], gold: Sequence[int]) -> float:
    _same_length(probs, gold)
    return sum(_argmax(p) == g for p, g in zip(probs, gold, strict=True)) / len(gold)


def macro_f1(predicted: Sequence[str], gold: Sequence[str]) -> float:
    _same_length(predicted, gold)
    labels = sorted(set(predicted) | set(gold))
    scores = []
    for label in labels:
        tp = sum(p == label and g == label for p, g in zip(predicted, gold, strict=True))
        fp = sum(p == label and g != label for p, g in zip(predicted, gold, strict=True))
        fn = sum(p != label and g == label for p, g in zip(predicted, gold, strict=True))
        scores.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return sum(scores) / len(scores)


def _bin(confidence: float, bins: int) -> int:
    return min(bins - 1, max(0, math.ceil(confidence * bins) - 1))


def reliability_bins(
    confidence: Sequence[float], correct: Sequence[bool], bins: int = ECE_BINS
) -> list[tuple[float, float, int]]:
    """Per bin `(mean confidence, accuracy, count)`; empty bins are `(nan, nan, 0)`."""
    _same_length(confidence, correct)
    sums = [[0.0, 0.0, 0] for _ in range(bins)]
    for c, ok in zip(confidence, correct, strict=True):
        b = sums[_bin(c, bins)]
        b[0] += c
        b[1] += float(ok)
        b[2] += 1
    return [(s / n, a / n, int(n)) if n else (math.nan, math.nan, 0) for s, a, n in sums]


def ece(confidence: Sequence[float], correct: Sequence[bool], bins: int = ECE_BINS) -> float:
    total = len(confidence)
    return sum(
        n / total * abs(conf - acc)
        for conf, acc, n in reliability_bins(confidence, correct, bins)
        if n
    )


def brier(probs: Sequence[Sequence[float]], gold: Sequence[int], *, binary: bool = False) -> float:
    _same_length(probs, gold)
    if binary:  # probs are [p_yes, p_no], gold 0 means yes
        return sum((p[0] - (g == 0)) ** 2 for p, g in zip(probs, gold, strict=True)) / len(gold)
    return sum(
        sum((pk - (k == g)) ** 2 for k, pk in enumerate(p))
        for p, g in zip(probs, gold, strict=True)
    ) / len(gold)


def nll(probs: Sequence[Sequence[float]], gold: Sequence[int]) -> float:
    _same_length(probs, gold)
    return -sum(math.log(max(p[g], _FLOOR)) for p, g in zip(probs, gold, strict=True)) / len(gold)


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson correlation of average ranks; nan when either side is constant."""
    _same_length(x, y)
    rx, ry = _ranks(x), _ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / math.sqrt(vx * vy) if vx and vy else math.nan


def auroc(scores: Sequence[float], positive: Sequence[bool]) -> float:
    """P(a random positive scores above a random negative); nan without both classes."""
    _same_length(scores, positive)
    pos = [s for s, p in zip(scores, positive, strict=True) if p]
    neg = [s for s, p in zip(scores, positive, strict=True) if not p]
    if not pos or not neg:
        return math.nan
    wins = sum((a > b) + 0.5 * (a == b) for a in pos for b in neg)
    return wins / (len(pos) * len(neg))


def coverage_curve(
    confidence: Sequence[float], correct: Sequence[bool]
) -> list[tuple[float, float, float]]:
    """`(threshold, coverage, accuracy among covered)` for each distinct confidence, from the
    most confident down: acting only at or above `threshold` covers that share of items."""
    _same_length(confidence, correct)
    pairs = sorted(zip(confidence, correct, strict=True), key=lambda t: -t[0])
    out: list[tuple[float, float, float]] = []
    right = 0
    for i, (c, ok) in enumerate(pairs):
        right += ok
        if i + 1 == len(pairs) or pairs[i + 1][0] != c:
            out.append((c, (i + 1) / len(pairs), right / (i + 1)))
    return out


def automatable_share(
    confidence: Sequence[float], correct: Sequence[bool], max_error: float
) -> float:
    return max(
        (
            cov
            for _, cov, acc in coverage_curve(confidence, correct)
            if 1 - acc <= max_error + 1e-12
        ),
        default=0.0,
    )


def percentile(values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    if not values:
        return math.nan
    s = sorted(values)
    pos = (len(s) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def _same_length(a: Sequence[object], b: Sequence[object]) -> None:
    if len(a) != len(b) or not a:
        raise ValueError(f"need two equally long, non-empty lists (got {len(a)} and {len(b)})")
