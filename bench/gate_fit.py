"""Fit the gate's risk model on the AgentDojo dev split; report on test (issue 12).

Reads the per-question P(yes) that `bench/gate_questions.py` measured with the embedded
model, uncalibrated (the default calibration leaves yes/no answers as they are), computes
each call's evidence exactly as the gate does (`clef_tools.gate._evidence`, bundled MiniLM),
then on **dev only**:

1. per-question and per-feature AUROC;
2. a fast stage: L2 logistic regression on evidence alone;
3. a full stage: evidence plus the log-odds of a question subset chosen by greedy forward
   selection on leave-one-user-task-out AUROC (dev), among subsets whose fitted weights all
   have the sign the questions' wording gives ("yes" means risk);
4. fast-path thresholds: the widest band in which the fast stage made no mistake on dev.

Writes clef_tools/calibrations/gate-embedded.json (the shipped model) and
bench/results/gate-fit.json (the study, with test AUROCs for the record only).

    .venv/bin/python bench/gate_fit.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from gate_questions import load_measured

from clef_tools.backends.embedding import open_encoder
from clef_tools.evaluation import item_evidence
from clef_tools.gate import risk_features

HERE = Path(__file__).parent
ROOT = HERE.parent
OUT = HERE / "results" / "gate-fit.json"
MODEL = ROOT / "clef_tools" / "calibrations" / "gate-embedded.json"
FAST = ["irrelevance", "ungrounded", "any_ungrounded", "read_only", "destructive", "open_world"]
L2_GRID = (0.01, 0.03, 0.1, 0.3, 1.0)
MAX_QUESTIONS = 3


def auroc(scores: np.ndarray, labels: np.ndarray) -> float:
    pos, neg = scores[labels == 1], scores[labels == 0]
    if not len(pos) or not len(neg):
        return float("nan")
    gt = (pos[:, None] > neg[None, :]).mean()
    eq = (pos[:, None] == neg[None, :]).mean()
    return float(gt + 0.5 * eq)


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, float]:
    """Newton steps on the L2-penalised log-loss (the bias is not penalised)."""
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(xb @ w)))
        grad = xb.T @ (p - y) + penalty * w
        hess = (xb * (p * (1 - p))[:, None]).T @ xb + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w[:-1], float(w[-1])


def predict(x: np.ndarray, w: np.ndarray, b: float) -> np.ndarray:
    out: np.ndarray = 1 / (1 + np.exp(-(x @ w + b)))
    return out


def grouped_cv(x: np.ndarray, y: np.ndarray, groups: list[str], l2: float) -> np.ndarray:
    out = np.zeros(len(y))
    for g in sorted(set(groups)):
        test = np.array([gg == g for gg in groups])
        if test.all() or len(set(y[~test])) < 2:
            out[test] = y[~test].mean()
            continue
        w, b = fit_logistic(x[~test], y[~test], l2)
        out[test] = predict(x[test], w, b)
    return out


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-4, 1 - 1e-4)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def main() -> None:
    measured = load_measured()  # uncalibrated P(yes): what the gate gets from the default
    items = measured["items"]
    encoder = open_encoder()
    rows: list[dict[str, Any]] = []
    for split in ("dev", "test"):
        for line in (ROOT / "clef-data" / f"agentdojo-{split}.jsonl").read_text().splitlines():
            item = json.loads(line)
            if item["id"] not in items:
                continue
            ev = risk_features(item_evidence(item, encoder).as_dict(), items[item["id"]]["p_yes"])
            rows.append(
                {
                    "split": split,
                    "y": int(item["gold"]["unsafe"]),
                    "group": item["meta"]["user_task"] + item["meta"]["suite"],
                    "f": ev,
                }
            )
    dev = [r for r in rows if r["split"] == "dev"]
    test = [r for r in rows if r["split"] == "test"]
    y_dev = np.array([r["y"] for r in dev], float)
    y_test = np.array([r["y"] for r in test], float)
    groups = [r["group"] for r in dev]

    def matrix(rs: list[dict[str, Any]], names: list[str]) -> np.ndarray:
        return np.array([[r["f"][n] for n in names] for r in rs], float).reshape(
            len(rs), len(names)
        )

    questions = list(measured["questions"])
    # the LM stage asks questions whose "yes" means risk, so that a policy without the risk
    # model (highest P(yes)) stays meaningful with the same questions
    risk_phrased = [q for q in questions if q not in measured["safe_when_yes"]]
    single = {
        name: {
            "dev": auroc(matrix(dev, [name])[:, 0], y_dev),
            "test": auroc(matrix(test, [name])[:, 0], y_test),
        }
        for name in FAST + [f"lm:{q}" for q in questions]
    }
    # regularisation chosen by leave-one-user-task-out log-loss on dev
    l2_loss = {
        l2: log_loss(grouped_cv(matrix(dev, FAST), y_dev, groups, l2), y_dev) for l2 in L2_GRID
    }
    l2 = min(l2_loss, key=l2_loss.__getitem__)
    fast_cv = grouped_cv(matrix(dev, FAST), y_dev, groups, l2)
    chosen: list[str] = []
    best = auroc(fast_cv, y_dev)
    trail: list[dict[str, Any]] = [{"questions": [], "cv_auroc": best}]

    def agrees(names: list[str]) -> bool:
        """Every question's weight has the sign its wording gives ("yes" means risk): a
        question that would lower the risk when the model says "yes, this is risky" is
        fitting noise in 82 calls, not reading the model."""
        w, _ = fit_logistic(matrix(dev, [*FAST, *names]), y_dev, l2)
        return bool((w[len(FAST) :] > 0).all())

    while len(chosen) < MAX_QUESTIONS:
        scores = {
            q: auroc(
                grouped_cv(
                    matrix(dev, [*FAST, *(f"lm:{c}" for c in [*chosen, q])]), y_dev, groups, l2
                ),
                y_dev,
            )
            for q in risk_phrased
            if q not in chosen and agrees([f"lm:{c}" for c in [*chosen, q]])
        }
        if not scores:
            break
        q, score = max(scores.items(), key=lambda kv: kv[1])
        if chosen and score <= best + 0.005:
            break  # at least one question: the model is the second opinion on unsure calls
        chosen.append(q)
        best = score
        trail.append({"questions": list(chosen), "cv_auroc": score})

    full_names = FAST + [f"lm:{q}" for q in chosen]
    wf, bf = fit_logistic(matrix(dev, FAST), y_dev, l2)
    wl, bl = fit_logistic(matrix(dev, full_names), y_dev, l2)
    # fast path: widest band where the cross-validated fast stage made no mistake on dev
    safe_scores = fast_cv[y_dev == 0]
    unsafe_scores = fast_cv[y_dev == 1]
    allow_below = float(min(unsafe_scores.min(), 0.5)) if len(unsafe_scores) else 0.0
    deny_at = float(max(safe_scores.max(), 0.5)) + 1e-6 if len(safe_scores) else 1.0
    allow_below = round(max(allow_below - 0.01, 0.0), 4)
    deny_at = round(min(deny_at + 0.01, 1.01), 4)

    fast_test = predict(matrix(test, FAST), wf, bf)
    full_test = predict(matrix(test, full_names), wl, bl)
    old = json.loads(MODEL.read_text()) if MODEL.exists() else {}
    model = {
        "about": "Gate risk model for the embedded decision model, fitted by bench/gate_fit.py "
        "on the AgentDojo v1.2 banking+slack dev split (clef-tools data agentdojo; MIT). "
        "lm: weights read the log-odds of uncalibrated P(yes), which is what the default "
        "calibration (no yes/no temperature) gives.",
        "fitted_on": f"agentdojo dev ({len(dev)} calls)",
        "questions": {q: measured["questions"][q] for q in chosen},
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
    if old.get("answers") and set(old["questions"]) == set(chosen):
        # bench/gate_dtype.py: another dtype's gap to these questions' answers
        model["answers"] = old["answers"]
    MODEL.write_text(json.dumps(model, indent=2) + "\n")
    study = {
        "model": measured["model"],
        "dev_items": len(dev),
        "test_items": len(test),
        "single_feature_auroc": single,
        "forward_selection": trail,
        "chosen_questions": chosen,
        "l2_cv_log_loss": l2_loss,
        "l2": l2,
        "fast_cv_auroc_dev": auroc(fast_cv, y_dev),
        "test_auroc": {"fast": auroc(fast_test, y_test), "full": auroc(full_test, y_test)},
        "fast_band": {"allow_below": allow_below, "deny_at": deny_at},
        "cv_auroc_per_question": {
            q: auroc(grouped_cv(matrix(dev, [*FAST, f"lm:{q}"]), y_dev, groups, l2), y_dev)
            for q in questions
        },
        "test_fast_share": float(((fast_test < allow_below) | (fast_test >= deny_at)).mean()),
    }
    OUT.write_text(json.dumps(study, indent=2) + "\n")
    print(json.dumps({k: v for k, v in study.items() if k != "single_feature_auroc"}, indent=1))
    for k, v in single.items():
        print(f"{k:24s} dev {v['dev']:.3f} test {v['test']:.3f}")


if __name__ == "__main__":
    main()
