"""How examples turn into probabilities, and the temperature that makes them honest.

An option's score is the mean of its `top` best cosine similarities among its examples (and
its description, counted as one more example). On BANKING77 with all-MiniLM-L6-v2 that beat
plain nearest-neighbour voting at every size measured (bench/examples_curve.py). The
temperature is fitted leave-one-out on the index's own rows, so a fresh index is calibrated
without a separate labelled split.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "DEFAULT_TEMPERATURE",
    "DEFAULT_TOP",
    "NONE_QUANTILE",
    "fit_index_temperature",
    "fit_none_floor",
    "is_none_option",
    "loo_scores",
    "none_floor_from_loo",
    "temperature_from_loo",
]

DEFAULT_TOP = 2
NONE_QUANTILE = 0.05
"""A "none of these" option wins below the score that 95 % of the index's own rows reach
for their own label (leave-one-out): 5 % of in-scope inputs like the examples are traded
for catching inputs unlike any of them."""
_NONE_NAMES = frozenset(
    {
        "none",
        "none_of_these",
        "none_of_the_above",
        "other",
        "others",
        "out_of_scope",
        "oos",
        "no_match",
        "nothing",
        "no_tool",
        "unknown",
        "irrelevant",
        "not_applicable",
    }
)


def is_none_option(name: str) -> bool:
    """Whether an option means "none of the others" by its name (`none_of_these`, `other`,
    `out-of-scope`, …): voting over nearest examples almost never picks such an option, so
    it is decided by how unlike the examples the input is."""
    return name.strip().lower().replace("-", "_").replace(" ", "_") in _NONE_NAMES


DEFAULT_TEMPERATURE = 0.05
#: Leave-one-out scoring needs this many rows whose label has another row.
MIN_CALIBRATION_ROWS = 20
#: The temperature of an index too small to fit one: a cosine gap of 0.5 between the best
#: option and two others is then about 0.86, not 0.9999 (at DEFAULT_TEMPERATURE).
SMALL_INDEX_TEMPERATURE = 0.2
"""For an index too small to fit its own (under 20 rows whose label has another row): softer
than what large indexes fit (BANKING77's 10,003 rows: 0.028), as few examples warrant."""
_SAMPLE = 2000


def fit_index_temperature(
    vectors: Any, labels: Sequence[str], top: int, *, seed: int = 0, sample: int = _SAMPLE
) -> float | None:
    """Leave-one-out NLL-optimal temperature over up to `sample` rows whose label has at
    least one other row; `None` when fewer than 20 such rows exist."""
    found = loo_scores(vectors, labels, top, seed=seed, sample=sample)
    return None if found is None else temperature_from_loo(*found)


def temperature_from_loo(logits: Any, gold: Any) -> float:
    """The NLL-optimal temperature for leave-one-out scores (see `loo_scores`)."""
    from clef_tools._fitting import fit_temperature

    return fit_temperature(logits.tolist(), gold.tolist(), lo=1e-3, hi=1.0)


def fit_none_floor(
    vectors: Any,
    labels: Sequence[str],
    top: int,
    *,
    seed: int = 0,
    quantile: float = NONE_QUANTILE,
    found: tuple[Any, Any] | None = None,
) -> float | None:
    """The `quantile` of the in-scope rows' leave-one-out scores for their own label.

    Rows labelled with a none option are left out before scoring: an in-scope row's score
    for its own label does not depend on them, nor does which rows the sample draws, so
    labelled out-of-scope rows leave the floor exactly where it is without them. `found`:
    `loo_scores` of all rows, reused when every row is in scope."""
    in_scope = [i for i, label in enumerate(labels) if not is_none_option(label)]
    if len(in_scope) < len(labels):
        kept = [labels[i] for i in in_scope]
        found = loo_scores(vectors[in_scope], kept, top, seed=seed)
    elif found is None:
        found = loo_scores(vectors, labels, top, seed=seed)
    return None if found is None else none_floor_from_loo(*found, quantile=quantile)


def none_floor_from_loo(logits: Any, gold: Any, *, quantile: float = NONE_QUANTILE) -> float:
    """The `quantile` of leave-one-out scores for the rows' own labels."""
    import numpy as np

    own = logits[np.arange(gold.size), gold]
    return float(np.quantile(own, quantile))


def loo_scores(
    vectors: Any, labels: Sequence[str], top: int, *, seed: int = 0, sample: int = _SAMPLE
) -> tuple[Any, Any] | None:
    """(per-label scores, gold label) for up to `sample` rows, each scored against all the
    others (itself left out), as `ExampleIndex.option_logits` scores without descriptions."""
    import numpy as np

    names = sorted(set(labels))
    code = {label: k for k, label in enumerate(names)}
    y = np.array([code[label] for label in labels])
    counts = np.bincount(y, minlength=len(names))
    usable = np.flatnonzero(counts[y] >= 2)
    if usable.size < MIN_CALIBRATION_ROWS or len(names) < 2:
        return None
    rng = np.random.default_rng(seed)
    queries = rng.choice(usable, size=min(sample, usable.size), replace=False)
    sims = vectors[queries] @ vectors.T
    sims[np.arange(queries.size), queries] = -np.inf  # leave the query itself out
    logits = np.full((queries.size, len(names)), -1e9)
    for k in range(len(names)):
        cols = sims[:, y == k]
        m = min(top, cols.shape[1])
        best = np.sort(cols, axis=1)[:, -m:]
        finite = np.isfinite(best)
        total = np.where(finite, best, 0.0).sum(axis=1)
        n = finite.sum(axis=1)
        logits[:, k] = np.where(n > 0, total / np.maximum(n, 1), -1e9)
    return logits, y[queries]
