"""`CascadeDecider`: the embedding tier answers what it is sure of; the LM decides the rest.

A request-path decision should cost milliseconds when the answer is obvious ("my parcel
never arrived" → shipping) and pay for a language model only when it is not. Per question:

1. a `choice` whose state fits the embedding window is scored by the embedding tier;
   if that answer's confidence (TypeSafe's choice formula, on temperature-scaled
   probabilities) reaches `threshold`, it is final — tier `embedding`;
2. everything else (yes/no, rubrics, unsure choices, long states) goes to the LM in one
   request per original request — tier `lm`. A choice with more than `shortlist_over`
   options is first cut to the embedding tier's `shortlist` best; the LM's probabilities
   are spread over that shortlist's embedding mass, and the other options keep their
   (small) embedding probabilities, so every allowed option still gets one.
3. an unsure choice the LM answers is not the LM's alone: both tiers' probabilities are
   fused as `p ∝ p_lm^w · p_embedding^(1-w)` (`lm_weight` w, fitted by
   `bench/cascade_fusion.py` on train/dev splits), because on large intent sets the
   embedding tier's ranking carries evidence the LM's shortlist answer throws away
   (BANKING77: the LM alone over the shortlist scored below the embedding tier alone).

4. with an example index on the embedding tier, a choice whose options match indexed labels
   is scored by its nearest examples (tier `examples`), accepted at `examples_threshold`;
   when unsure, the LM reads the examples' top `examples_shortlist` options (with
   `few_shot=N`, also the N nearest examples as lines in the question's instructions, after
   the state so the state's prefix stays shared), and the two are fused with
   `examples_lm_weight` (tier `examples+lm`). `examples_only`
   (a readout opened with `examples=`) sends only those questions to the fast tier.

Each answer records its tier (`response.tiers`, and `"tier"` on the wire).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from clef_tools.backends._base import BackendInfo, Decider, RequestScores
from clef_tools.backends.embedding._embedding import EmbeddingDecider
from clef_tools.backends.embedding._index import ExampleIndex
from clef_tools.decisions import Choice
from clef_tools.protocol._confidence import choice_confidence
from clef_tools.protocol._errors import StateTooLongError
from clef_tools.protocol._render import render_content
from clef_tools.protocol._validation import AnyQuestion, DecisionRequest

__all__ = ["DEFAULT_THRESHOLD", "CascadeDecider", "with_examples"]

#: Fitted by `bench/cascade.py --fit` (dev splits only): the lowest confidence at which
#: the embedding tier's accepted answers were ≥ 97 % right; bench/results/cascade-fit.json.
DEFAULT_THRESHOLD = 0.77
#: Weight of the LM in the fused answer of an unsure choice (1 = the LM alone, as before).
DEFAULT_LM_WEIGHT = 0.8
#: For answers from an example index, which is far stronger than descriptions (BANKING77:
#: ~0.93 vs ~0.6), so a confident one is final sooner and the LM weighs less in the fusion.
#: Fitted by bench/examples_lm.py on a BANKING77 dev split (results/examples-lm.json), by
#: lowest NLL: threshold 0.3 (0.5 % of items to the LM), weight 0.2, shortlist 5. The LM
#: rarely improves on ~10,000 examples; sending more (threshold 0.6: 8 %) raised dev accuracy
#: but not NLL, and lost accuracy on held-out items. Few-shot lines were slower (10 s vs 3 s
#: per LM item) and worse, so they are off unless asked for (`few_shot=N`).
DEFAULT_EXAMPLES_THRESHOLD = 0.3
DEFAULT_EXAMPLES_LM_WEIGHT = 0.2
DEFAULT_EXAMPLES_SHORTLIST = 5


class CascadeDecider(Decider):
    """Embedding tier first, LM (`slow`) for what it cannot settle."""

    def __init__(
        self,
        slow: Decider,
        fast: EmbeddingDecider | None = None,
        *,
        threshold: float = DEFAULT_THRESHOLD,
        shortlist: int = 10,
        shortlist_over: int = 26,
        lm_weight: float = DEFAULT_LM_WEIGHT,
        examples_threshold: float = DEFAULT_EXAMPLES_THRESHOLD,
        examples_lm_weight: float = DEFAULT_EXAMPLES_LM_WEIGHT,
        examples_only: bool = False,
        examples_shortlist: int = DEFAULT_EXAMPLES_SHORTLIST,
        few_shot: int = 0,
    ) -> None:
        for name, w in (("lm_weight", lm_weight), ("examples_lm_weight", examples_lm_weight)):
            if not 0.0 <= w <= 1.0:
                raise ValueError(f"{name} is between 0 (embedding only) and 1 (LM only)")
        self.lm_weight = lm_weight
        self.examples_threshold = examples_threshold
        self.examples_lm_weight = examples_lm_weight
        self.examples_only = examples_only
        self.examples_shortlist = max(2, examples_shortlist)
        self.few_shot = few_shot
        self.slow = slow
        self.fast = fast if fast is not None else EmbeddingDecider()
        self.threshold = threshold
        self.shortlist = max(2, shortlist)
        self.shortlist_over = shortlist_over
        self.supported_types = slow.supported_types

    def _wrapped(self) -> list[Decider]:
        return [self.fast, self.slow]

    @property
    def model_id(self) -> str:
        return self.slow.model_id

    def info(self) -> BackendInfo:
        slow = self.slow.info()
        return replace(
            slow,
            kind="cascade",
            supported_types=self.supported_types,
            details={
                "threshold": self.threshold,
                "lm_weight": self.lm_weight,
                "examples_threshold": self.examples_threshold,
                "examples_lm_weight": self.examples_lm_weight,
                "fast": self.fast.info(),
                "slow": slow,
            },
        )

    def check_supported(self, request: DecisionRequest, loc_prefix: tuple[str | int, ...]) -> None:
        self.slow.check_supported(request, loc_prefix)

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        plans = [self._plan(request) for request in requests]
        pending = [(plan, plan.slow_request) for plan in plans if plan.slow_request is not None]
        if pending:
            answers = self.slow.score([slow for _, slow in pending])
            for (plan, _), scores in zip(pending, answers, strict=True):
                plan.merge(scores)
        return [plan.result() for plan in plans]

    def _plan(self, request: DecisionRequest) -> _CascadePlan:
        plan = _CascadePlan(request, self.lm_weight)
        choices: dict[str, AnyQuestion] = {
            qid: q
            for qid, q in request.questions.items()
            if isinstance(q, Choice)
            and (not self.examples_only or self.fast.serves(qid, list(q.criteria)))
        }
        fast: RequestScores | None = None
        if choices:
            try:  # one pass of the embedding tier for all of the request's choices
                fast = self.fast.score([request.with_questions(choices)])[0]
                plan.fast_tokens = fast.input_tokens
            except StateTooLongError:
                fast = None  # longer than the embedding window: the LM reads it whole
        slow_questions: dict[str, Any] = {}
        for qid, question in request.questions.items():
            if fast is None or qid not in choices:
                slow_questions[qid] = question
                continue
            assert isinstance(question, Choice)
            probs = fast.probabilities[qid]
            by_examples = (fast.tiers or {}).get(qid) == "examples"
            threshold = self.examples_threshold if by_examples else self.threshold
            if choice_confidence(probs) >= threshold:
                plan.done[qid] = (probs, "examples" if by_examples else "embedding")
                continue
            options = list(question.criteria)
            keep = list(range(len(options)))
            # examples rank well (BANKING77: the gold intent is in their top 5 for 99 %)
            cut, over = (
                (self.examples_shortlist, self.examples_shortlist)
                if by_examples
                else (self.shortlist, self.shortlist_over)
            )
            if len(options) > over:
                ranked = sorted(keep, key=lambda i: -probs[i])[:cut]
                keep = sorted(ranked)  # original order, so the LM sees the caller's order
            short = question
            if len(keep) < len(options):
                criteria = question.criteria
                short = question.model_copy(
                    update={"criteria": {options[i]: criteria[options[i]] for i in keep}}
                )
            if by_examples:
                short = self._with_few_shot(request.facts, qid, short)
                plan.weights[qid] = self.examples_lm_weight
            plan.shortlists[qid] = (keep, probs)
            slow_questions[qid] = short
        if slow_questions:
            plan.slow_request = request.with_questions(slow_questions)
        return plan

    def _with_few_shot(self, state: object, qid: str, question: Choice) -> Choice:
        """The question with the nearest labelled examples among its options appended to its
        instructions (after the state in the prompt, so the state's prefix stays shared)."""
        index = self.fast.examples
        if index is None or self.few_shot <= 0:
            return question
        options = list(question.criteria)
        rows = index.nearest(self.fast.state_vector(state), qid, options, self.few_shot)
        if not rows:
            return question
        rank = {label: k for k, label in enumerate(options)}
        rows.sort(key=lambda r: (rank[index.labels[r]], r))  # stable order: by option
        lines = "\n".join(f"- {index.texts[r][:300]!r} -> {index.labels[r]}" for r in rows)
        head = render_content(question.instructions)
        instructions = f"{head}\nLabelled examples of similar inputs:\n{lines}"
        return question.model_copy(update={"instructions": instructions})


def with_examples(decider: Decider, examples: ExampleIndex | str | Path) -> Decider:
    """`decider` with an example tier in front: choice questions whose options match the
    index's labels are answered from examples (the LM only when unsure); all other
    questions go to `decider` unchanged. `decider` itself is not modified."""
    return CascadeDecider(decider, EmbeddingDecider(examples=examples), examples_only=True)


def fuse(lm: Sequence[float], fast: Sequence[float], lm_weight: float) -> list[float]:
    """`p ∝ lm^w · fast^(1-w)` (a weighted product of the two tiers' distributions)."""
    if lm_weight == 1.0:
        return list(lm)
    logs = [
        lm_weight * math.log(max(a, 1e-300)) + (1 - lm_weight) * math.log(max(b, 1e-300))
        for a, b in zip(lm, fast, strict=True)
    ]
    top = max(logs)
    weights = [math.exp(v - top) for v in logs]
    total = sum(weights)
    return [w / total for w in weights]


class _CascadePlan:
    """One request's answers as they come in from the two tiers."""

    def __init__(self, request: DecisionRequest, lm_weight: float = 1.0) -> None:
        self.request = request
        self.lm_weight = lm_weight
        self.done: dict[str, tuple[list[float], str]] = {}
        self.shortlists: dict[str, tuple[list[int], list[float]]] = {}
        self.weights: dict[str, float] = {}
        """Per question, an LM weight other than the cascade's (answers from examples)."""
        self.slow_request: DecisionRequest | None = None
        self.slow_tokens = 0
        self.fast_tokens = 0

    def merge(self, scores: RequestScores) -> None:
        self.slow_tokens = scores.input_tokens
        for qid, probs in scores.probabilities.items():
            if qid in self.shortlists:
                keep, fast = self.shortlists[qid]
                mass = sum(fast[i] for i in keep)
                weight = self.weights.get(qid, self.lm_weight)
                fused = fuse(probs, [fast[i] / mass for i in keep], weight)
                full = list(fast)  # options the LM did not see keep their embedding odds
                for i, p in zip(keep, fused, strict=True):
                    full[i] = p * mass
                if qid in self.weights:
                    tier = "examples+lm"
                elif len(keep) == len(fast) and weight == 1.0:
                    tier = "lm"
                else:
                    tier = "embedding+lm"
                self.done[qid] = (full, tier)
            else:
                self.done[qid] = (probs, "lm")

    def result(self) -> RequestScores:
        order = list(self.request.questions)
        return RequestScores(
            probabilities={qid: self.done[qid][0] for qid in order},
            input_tokens=self.slow_tokens or self.fast_tokens,
            tiers={qid: self.done[qid][1] for qid in order},
        )
