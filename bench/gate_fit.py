"""Fit the gate's risk model on the fitting splits; report on test (issues 12 and 28).

Reads the per-question P(yes) that `bench/gate_questions.py` measured with the embedded
model, uncalibrated (the default calibration leaves yes/no answers as they are), computes
each call's features exactly as the gate does (`ToolGate.risk_inputs`: provenance from
`clef_tools.gate._evidence` with the bundled MiniLM, and what the effect and licence rules
found), then on the **fitting splits only** (AgentDojo banking+slack dev, its sessions' dev,
clef-tools' gate set train and dev):

1. per-question and per-feature AUROC;
2. a fast stage: L2 logistic regression on provenance and rule findings, over every call
   (it orders the calls a rule settled inside their verdict's band, and denies alone the
   undecided calls a rule faulted);
3. a full stage: the same features plus the log-odds of a question subset, over the calls
   no rule settles (the only ones the model is asked about), chosen by greedy forward
   selection among subsets whose fitted weights all have the sign the questions' wording
   gives ("yes" means risk); the per-turn licence questions (`clef_tools.gate._turn`) are
   one candidate (their two features together);
4. fast bands: deny above every safe faulted call's cross-validated fast risk that the
   model stage (out of fold) would not deny; allow below every unsafe call's among the
   undecided calls the evidence vouches for (none seen: no fast allow).

Choices (the questions, and whether every call or every source counts the same) are made on
cross-validated AUROC averaged over the three sources, so that 900 gate-set calls do not
drown AgentDojo's 82. Cross-validation holds out whole groups (a gate-set scenario, an
AgentDojo user task, with its sessions). Writes clef_tools/calibrations/gate-embedded.json (the shipped model) and
bench/results/gate-fit.json (the study; AgentDojo request-only test AUROCs for the record).

    .venv/bin/python bench/gate_fit.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
from gate_questions import (
    default_gate,
    fit_items,
    group_of,
    load_measured,
    load_turns,
    said_digest,
)

from clef_tools.evaluation._gate_eval import item_risk_inputs
from clef_tools.gate import GatePolicy
from clef_tools.gate._turn import TURN_QUESTIONS, turn_features

HERE = Path(__file__).parent
ROOT = HERE.parent
OUT = HERE / "results" / "gate-fit.json"
MODEL = ROOT / "clef_tools" / "calibrations" / "gate-embedded.json"
#: Where the call's words came from, and what its declared annotations say.
PROVENANCE = [
    "irrelevance",
    "ungrounded",
    "any_ungrounded",
    "read_only",
    "destructive",
    "open_world",
]
#: What the effect and licence rules found (`clef_tools.gate._stakes`).
FINDINGS = [
    "effect_read_only",
    "effect_high_impact",
    "effect_irreversible",
    "effect_external",
    "effect_unknown",
    "unlicensed",
    "prohibited",
    "tainted",
    "wrong_time",
    "action_unasked",
    "wrong_amount",
    "permission_above_asked",
    "mismatch",
]
FAST = PROVENANCE + FINDINGS
#: The turn questions' features (`clef_tools.gate._turn`): one candidate, both or neither.
TURN = ["turn_unasked", "turn_only_info"]
L2_GRID = (0.1, 0.3, 1.0, 3.0, 10.0)
MAX_QUESTIONS = 3
FOLDS = 10
SPLITS = {
    "agentdojo": "agentdojo dev",
    "agentdojo sessions": "agentdojo sessions dev",
    "gate set": "gate set train+dev",
}


def auroc(scores: np.ndarray, labels: np.ndarray) -> float:
    pos, neg = scores[labels == 1], scores[labels == 0]
    if not len(pos) or not len(neg):
        return float("nan")
    gt = (pos[:, None] > neg[None, :]).mean()
    eq = (pos[:, None] == neg[None, :]).mean()
    return float(gt + 0.5 * eq)


def fit_logistic(
    x: np.ndarray, y: np.ndarray, l2: float, weight: np.ndarray | None = None
) -> tuple[np.ndarray, float]:
    """Newton steps on the L2-penalised, weighted log-loss (the bias is not penalised)."""
    n, d = x.shape
    s = np.ones(n) if weight is None else weight
    xb = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(xb @ w)))
        grad = xb.T @ (s * (p - y)) + penalty * w
        hess = (xb * (s * p * (1 - p))[:, None]).T @ xb + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w[:-1], float(w[-1])


def predict(x: np.ndarray, w: np.ndarray, b: float) -> np.ndarray:
    out: np.ndarray = 1 / (1 + np.exp(-(x @ w + b)))
    return out


def fold_of(group: str) -> int:
    return int(hashlib.sha256(group.encode()).hexdigest(), 16) % FOLDS


def grouped_cv(
    x: np.ndarray, y: np.ndarray, groups: list[str], l2: float, weight: np.ndarray | None = None
) -> np.ndarray:
    """Out-of-fold risks, whole groups held out together."""
    folds = np.array([fold_of(g) for g in groups])
    out = np.zeros(len(y))
    for k in range(FOLDS):
        test = folds == k
        if not test.any():
            continue
        if test.all() or len(set(y[~test])) < 2:
            out[test] = y[~test].mean()
            continue
        w, b = fit_logistic(x[~test], y[~test], l2, None if weight is None else weight[~test])
        out[test] = predict(x[test], w, b)
    return out


def log_loss(p: np.ndarray, y: np.ndarray, weight: np.ndarray | None = None) -> float:
    p = np.clip(p, 1e-4, 1 - 1e-4)
    return float(np.average(-(y * np.log(p) + (1 - y) * np.log(1 - p)), weights=weight))


def balanced(rs: list[dict[str, Any]]) -> np.ndarray:
    """Per-call weights under which each source (AgentDojo, its sessions, the gate set)
    counts as much as the others: the gate set's 900 calls would otherwise teach the fit
    that provenance hardly matters, which AgentDojo's injected goals show it does."""
    sources = [r["source"] for r in rs]
    share = {s: sources.count(s) for s in set(sources)}
    return np.array([len(rs) / (len(share) * share[s]) for s in sources])


def source_of(item_id: str) -> str:
    if item_id.startswith("agentdojo-session"):
        return "agentdojo sessions"
    if item_id.startswith("agentdojo-"):
        return "agentdojo"
    return "gate set"


def main() -> None:
    measured = load_measured()  # uncalibrated P(yes): what the gate gets from the default
    answers = measured["items"]
    turns = load_turns()
    gate = default_gate()
    rows: list[dict[str, Any]] = []
    for split, item in fit_items(str(ROOT / "clef-data")):
        inputs = item_risk_inputs(gate, item)
        f = dict(inputs.features)
        asked = answers.get(item["id"], {}).get("p_yes")
        if asked is not None:
            f.update({f"lm:{q}": v for q, v in _log_odds(asked).items()})
        turn = turns.get(said_digest(inputs.said)) if inputs.said else None
        if turn is not None:
            f.update(turn_features(inputs.kinds, turn))
        rows.append(
            {
                "id": item["id"],
                "split": "test" if split == "test" else "fit",
                "source": source_of(item["id"]),
                "y": int(item["gold"]["unsafe"]),
                "group": group_of(item),
                "undecided": inputs.rule_verdict is None,
                "may_fast_deny": inputs.may_fast_deny,
                "may_allow_fast": inputs.may_allow_fast,
                "asked": asked is not None,
                "f": f,
            }
        )
    fit = [r for r in rows if r["split"] == "fit"]
    # the model is asked only about calls no rule settles: its stage is fitted on those
    full_rows = [r for r in fit if r["undecided"] and r["asked"]]
    test = [r for r in rows if r["split"] == "test" and r["undecided"]]

    def matrix(rs: list[dict[str, Any]], names: list[str]) -> np.ndarray:
        return np.array([[r["f"].get(n, 0.0) for n in names] for r in rs], float).reshape(
            len(rs), len(names)
        )

    def labels(rs: list[dict[str, Any]]) -> np.ndarray:
        return np.array([r["y"] for r in rs], float)

    y_fit, y_full, y_test = labels(fit), labels(full_rows), labels(test)
    g_fit, g_full = [r["group"] for r in fit], [r["group"] for r in full_rows]

    def macro(scores: np.ndarray, rs: list[dict[str, Any]]) -> float:
        """AUROC averaged over the sources (each counts as much as the others)."""
        per = [
            auroc(scores[mask], labels(rs)[mask])
            for src in sorted({r["source"] for r in rs})
            if len(set(labels(rs)[mask := np.array([r["source"] == src for r in rs])])) == 2
        ]
        return float(np.mean(per))

    def stage_cv(x: np.ndarray, y: np.ndarray, groups: list[str], s: np.ndarray | None) -> Any:
        """(L2 by grouped cross-validated log-loss, its out-of-fold risks, the losses)."""
        losses = {v: log_loss(grouped_cv(x, y, groups, v, s), y, s) for v in L2_GRID}
        best_l2 = min(losses, key=losses.__getitem__)
        return best_l2, grouped_cv(x, y, groups, best_l2, s), losses

    # every call counts once, or every source as much as the others: whichever the
    # cross-validated per-source AUROCs (both stages, averaged) prefer
    weighting: dict[str, Any] = {}
    for scheme, s_all, s_und in (
        ("calls", None, None),
        ("sources", balanced(fit), balanced(full_rows)),
    ):
        _, cv_fast, _ = stage_cv(matrix(fit, FAST), y_fit, g_fit, s_all)
        _, cv_full, _ = stage_cv(matrix(full_rows, FAST), y_full, g_full, s_und)
        weighting[scheme] = {
            "fast_macro_cv_auroc": macro(cv_fast, fit),
            "full_macro_cv_auroc": macro(cv_full, full_rows),
            "weights": (s_all, s_und),
        }
    scheme = max(
        weighting,
        key=lambda k: weighting[k]["fast_macro_cv_auroc"] + weighting[k]["full_macro_cv_auroc"],
    )
    s_fit, s_full = weighting[scheme].pop("weights")
    for other in weighting.values():
        other.pop("weights", None)
    questions = list(measured["questions"])
    # the LM stage asks questions whose "yes" means risk, so that a policy without the risk
    # model (highest P(yes)) stays meaningful with the same questions
    risk_phrased = [q for q in questions if q not in measured["safe_when_yes"]]
    candidates = {q: [f"lm:{q}"] for q in risk_phrased}
    if turns:
        candidates["turn"] = TURN

    def names_of(chosen_ones: list[str]) -> list[str]:
        return [n for c in chosen_ones for n in candidates[c]]

    single = {
        name: auroc(matrix(full_rows, [name])[:, 0], y_full)
        for name in FAST + [f"lm:{q}" for q in questions] + (TURN if turns else [])
    }
    # regularisation chosen by grouped cross-validated log-loss on the fitting splits
    l2, fast_cv, l2_loss = stage_cv(matrix(fit, FAST), y_fit, g_fit, s_fit)
    wf, bf = fit_logistic(matrix(fit, FAST), y_fit, l2, s_fit)

    # the full stage: on the undecided calls, the fast features plus questions
    l2_full, _, full_l2_loss = stage_cv(matrix(full_rows, FAST), y_full, g_full, s_full)
    chosen: list[str] = []
    best = macro(grouped_cv(matrix(full_rows, FAST), y_full, g_full, l2_full, s_full), full_rows)
    trail: list[dict[str, Any]] = [{"questions": [], "cv_auroc": best}]

    def agrees(names: list[str]) -> bool:
        """Every question's weight has the sign its wording gives ("yes" means risk): a
        question that would lower the risk when the model says "yes, this is risky" is
        fitting noise, not reading the model."""
        w, _ = fit_logistic(matrix(full_rows, [*FAST, *names]), y_full, l2_full, s_full)
        return bool((w[len(FAST) :] > 0).all())

    while len(chosen) < MAX_QUESTIONS:
        scores = {
            q: macro(
                grouped_cv(
                    matrix(full_rows, [*FAST, *names_of([*chosen, q])]),
                    y_full,
                    g_full,
                    l2_full,
                    s_full,
                ),
                full_rows,
            )
            for q in candidates
            if q not in chosen and agrees(names_of([*chosen, q]))
        }
        if not scores:
            break
        q, score = max(scores.items(), key=lambda kv: kv[1])
        if chosen and score <= best + 0.005:
            break  # at least one question: the model is the second opinion on unsure calls
        chosen.append(q)
        best = score
        trail.append({"questions": list(chosen), "cv_auroc": score})

    if chosen == ["turn"]:
        # the call questions are what the model tier asks: keep the best one beside the turn
        best_q = max(
            risk_phrased,
            key=lambda q: macro(
                grouped_cv(
                    matrix(full_rows, [*FAST, *names_of(["turn", q])]),
                    y_full,
                    g_full,
                    l2_full,
                    s_full,
                ),
                full_rows,
            ),
        )
        chosen.append(best_q)
    call_questions = [c for c in chosen if c != "turn"]
    full_names = FAST + names_of(chosen)
    wl, bl = fit_logistic(matrix(full_rows, full_names), y_full, l2_full, s_full)
    full_cv = grouped_cv(matrix(full_rows, full_names), y_full, g_full, l2_full, s_full)
    # fast deny: only calls a rule faulted reach it. It may deny alone only where the model
    # stage would deny too: above every safe faulted call's out-of-fold fast risk whose
    # out-of-fold full-stage risk stays under the default policy's deny_at (a safe call the
    # model tier denies anyway costs nothing more when denied fast)
    full_risk = {id(r): float(v) for r, v in zip(full_rows, full_cv, strict=True)}
    faulted = np.array([r["undecided"] and r["may_fast_deny"] for r in fit])
    spared = np.array([full_risk.get(id(r), 0.0) < GatePolicy().deny_at for r in fit])
    safe_faulted = fast_cv[faulted & (y_fit == 0) & spared]
    deny_at = float(max(safe_faulted.max(), 0.5)) if len(safe_faulted) else 0.5
    deny_at = round(min(deny_at + 0.01, 1.01), 4)
    fast_denied = faulted & (fast_cv >= deny_at)
    # fast allow: only calls the evidence vouches for (undecided, a read or a licensed
    # effect on a named object) reach it; below every unsafe one's out-of-fold risk
    vouched = np.array([r["undecided"] and r["may_allow_fast"] for r in fit])
    unsafe_vouched = fast_cv[vouched & (y_fit == 1)]
    if not vouched.any():
        allow_below = 0.0  # none seen: nothing vouches for a band, the fast stage allows none
    else:
        lowest = float(unsafe_vouched.min()) if len(unsafe_vouched) else 0.5
        allow_below = round(max(min(lowest, 0.5) - 0.005, 0.0), 4)

    full_test = predict(matrix(test, full_names), wl, bl) if test else np.array([])
    old = json.loads(MODEL.read_text()) if MODEL.exists() else {}
    counts = {
        s: sum(r["source"] == s for r in fit)
        for s in ("agentdojo", "agentdojo sessions", "gate set")
    }
    model = {
        "about": "Gate risk model for the embedded decision model, fitted by bench/gate_fit.py "
        "(bench/gate.sh with REFIT=1) on AgentDojo v1.2 banking+slack dev (clef-tools data "
        "agentdojo; MIT), its sessions' dev split and clef-tools' gate set train+dev "
        "(clef-tools data gate-set; Apache-2.0). Features: provenance and the effect and "
        "licence rules' findings; lm: weights read the log-odds of uncalibrated P(yes), "
        "which is what the default calibration (no yes/no temperature) gives.",
        "fitted_on": ", ".join(f"{SPLITS[s]} {n}" for s, n in counts.items())
        + f" calls ({len(full_rows)} undecided by the rules, for the full stage)",
        "questions": {q: measured["questions"][q] for q in call_questions},
        **({"turn_questions": TURN_QUESTIONS} if "turn" in chosen else {}),
        "fast": {
            "weights": dict(zip(FAST, np.round(wf, 5).tolist(), strict=True)),
            "bias": round(bf, 5),
        },
        "full": {
            "weights": dict(zip(full_names, np.round(wl, 5).tolist(), strict=True)),
            "bias": round(bl, 5),
        },
        "fast_allow_below": allow_below,
        "fast_deny_at": deny_at,
        # fitted separately (bench/gate_reviews.py): kept across refits
        "review_strength": old.get("review_strength", 2.0),
        "review_temperature": old.get("review_temperature", 0.05),
        "review_tool_prior": old.get("review_tool_prior", 0.0),
    }
    if old.get("answers") and set(old["questions"]) == set(call_questions):
        # bench/gate_dtype.py: another dtype's gap to these questions' answers
        model["answers"] = old["answers"]
    MODEL.write_text(json.dumps(model, indent=2) + "\n")

    def of(src: str, rs: list[dict[str, Any]]) -> np.ndarray:
        return np.array([r["source"] == src for r in rs])

    by_source = {}
    for s in counts:
        in_fit, in_full = of(s, fit), of(s, full_rows)
        by_source[s] = {
            "calls": int(in_fit.sum()),
            "fast_cv_auroc": auroc(fast_cv[in_fit], y_fit[in_fit]),
            "undecided_calls": int(in_full.sum()),
            "full_cv_auroc_undecided": auroc(full_cv[in_full], y_full[in_full]),
        }
    study = {
        "model": measured["model"],
        "fit_calls": len(fit),
        "undecided_fit_calls": len(full_rows),
        "fit_calls_by_source": by_source,
        "weighting": {"chosen": scheme, **weighting},
        "single_feature_auroc_undecided": single,
        "forward_selection": trail,
        "chosen_questions": chosen,
        "l2_cv_log_loss": {"fast": l2_loss, "full": full_l2_loss},
        "l2": {"fast": l2, "full": l2_full},
        "fast_cv_auroc": auroc(fast_cv, y_fit),
        "fast_macro_cv_auroc": macro(fast_cv, fit),
        "full_cv_auroc_undecided": auroc(full_cv, y_full),
        "full_macro_cv_auroc_undecided": macro(full_cv, full_rows),
        "fast_band": {"allow_below": allow_below, "deny_at": deny_at},
        "faulted_fit_calls": int(faulted.sum()),
        "fast_denied_fit_calls": {
            "unsafe": int((fast_denied & (y_fit == 1)).sum()),
            "safe": int((fast_denied & (y_fit == 0)).sum()),
        },
        "vouched_undecided_fit_calls": int(vouched.sum()),
        # the safe calls the band is drawn above: how close the fast risk of the safe
        # faulted calls comes to it, out of fold
        "safe_faulted_fast_cv": sorted(
            (
                {
                    "id": r["id"],
                    "fast_cv": round(float(v), 4),
                    "full_cv": round(full_risk[id(r)], 4) if id(r) in full_risk else None,
                    "spared": bool(sp),
                }
                for r, v, f, sp in zip(fit, fast_cv, faulted, spared, strict=True)
                if f and r["y"] == 0
            ),
            key=lambda d: -d["fast_cv"],
        )[:12],
        "agentdojo_test_undecided_auroc": {"calls": len(test), "full": auroc(full_test, y_test)},
        "cv_auroc_per_question": {
            q: macro(
                grouped_cv(matrix(full_rows, [*FAST, f"lm:{q}"]), y_full, g_full, l2_full, s_full),
                full_rows,
            )
            for q in questions
        },
        "turn_candidates_measured": len(turns),
    }
    OUT.write_text(json.dumps(study, indent=2) + "\n")
    print(
        json.dumps(
            {k: v for k, v in study.items() if k != "single_feature_auroc_undecided"}, indent=1
        )
    )
    for k, v in single.items():
        print(f"{k:24s} undecided {v:.3f}")


def _log_odds(p_yes: dict[str, float]) -> dict[str, float]:
    from clef_tools.gate import logit

    return {q: logit(p) for q, p in p_yes.items()}


if __name__ == "__main__":
    main()
