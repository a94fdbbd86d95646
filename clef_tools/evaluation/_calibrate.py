"""`fit_calibration`: temperatures (and yes/no biases) from labelled outcomes (what
`clef-tools calibrate` writes).

Fitted on the probabilities a backend gives *without* calibration: `log p` are the logits up
to a constant per item, so the fitted temperature applies exactly to the live outputs.
A group (a type, a tier within a type, a question id) gets its own temperature only with
enough items behind it; otherwise the broader one applies. Yes/no groups are fitted with a
bias too (`noul_bias=False` keeps temperatures only): temperature and bias together, as one
logistic regression on the log-odds of "yes".
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from clef_tools._fitting import fit_platt, fit_temperature
from clef_tools.backends.compose._calibration import Calibration
from clef_tools.evaluation._run import Outcome

__all__ = ["fit_calibration"]

MIN_ITEMS = 20
_FLOOR = 1e-12


def _fit(outcomes: Sequence[Outcome]) -> float:
    logits = [[math.log(max(p, _FLOOR)) for p in o.probabilities] for o in outcomes]
    return round(fit_temperature(logits, [o.gold for o in outcomes]), 4)


def _fit_noul(outcomes: Sequence[Outcome]) -> tuple[float, float]:
    """Temperature and bias for yes/no outcomes (option 0 is "yes")."""
    odds = [
        math.log(max(o.probabilities[0], _FLOOR)) - math.log(max(o.probabilities[1], _FLOOR))
        for o in outcomes
    ]
    t, b = fit_platt(odds, [o.gold == 0 for o in outcomes])
    return round(t, 4), round(b, 4)


def fit_calibration(
    outcomes: Sequence[Outcome],
    *,
    id: str,
    model: str | None = None,
    backend: str | None = None,
    fitted_on: Sequence[str] = (),
    per_tier: bool = True,
    per_question: bool = False,
    noul_bias: bool = True,
    min_items: int = MIN_ITEMS,
) -> Calibration:
    if not outcomes:
        raise ValueError("no labelled outcomes to fit on")
    temperatures: dict[str, float] = {}
    tiers: dict[str, dict[str, float]] = {}
    questions: dict[str, float] = {}
    biases: dict[str, float] = {}
    for kind in sorted({o.type for o in outcomes}):
        group = [o for o in outcomes if o.type == kind]
        platt = noul_bias and kind == "noul"
        if len(group) >= min_items and platt:
            temperatures[kind], biases[kind] = _fit_noul(group)
        elif len(group) >= min_items:
            temperatures[kind] = _fit(group)
        if per_tier and not platt:  # a bias is per type or question, not per tier
            for tier in sorted({o.tier for o in group if o.tier}):
                sub = [o for o in group if o.tier == tier]
                if len(sub) >= min_items:
                    tiers.setdefault(tier, {})[kind] = _fit(sub)
    if per_question:
        for qid in sorted({o.qid for o in outcomes}):
            sub = [o for o in outcomes if o.qid == qid]
            if len(sub) >= min_items and noul_bias and all(o.type == "noul" for o in sub):
                questions[qid], biases[qid] = _fit_noul(sub)
            elif len(sub) >= min_items:
                questions[qid] = _fit(sub)
    if not (temperatures or tiers or questions):
        raise ValueError(f"every group has fewer than {min_items} items: nothing to fit")
    return Calibration(
        id=id,
        temperatures=temperatures,
        tiers=tiers,
        questions=questions,
        biases=biases,
        model=model,
        backend=backend,
        fitted_on=tuple(fitted_on),
    )
