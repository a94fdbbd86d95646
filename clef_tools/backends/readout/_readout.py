"""A training-free decision model: one-pass label readout of any causal LM.

Per request: the state is rendered once into a shared prefix and prefilled once; every
question (and, with debiasing, every option rotation) becomes one row of a single batched
pass; each row is read as a softmax over single-token labels at its answer position.

Choices with more options than the label alphabet holds (26) are answered by a two-stage
tournament: stage 1 reads each group of ≤26 options (all groups in one batched pass),
stage 2 reads the best few of every group together. Final log-odds come from stage 2 for
the shortlist and, for the rest, from stage 1 anchored on their group's best shortlisted
option, so every option gets a probability and the ranking within a group is kept.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from clef_tools._lru import BoundedLRU
from clef_tools.backends._base import BackendInfo, Decider, RequestScores
from clef_tools.backends._spec import LoadOptions
from clef_tools.backends.local._torch_thread import run_on_torch_thread
from clef_tools.backends.readout._forward import DEFAULT_SEGMENT_TOKENS, RowBatch, ShardedForward
from clef_tools.backends.readout._labels import DIGITS, LETTERS, YES_NO, LabelSet, require_labels
from clef_tools.backends.readout._prefix_cache import PrefixCache, common_prefix
from clef_tools.backends.readout._prompt import PromptFrame, choice_block, noul_block, score_block
from clef_tools.decisions import Box, Choice, Noul, Score
from clef_tools.protocol._errors import (
    RequestValidationError,
    StateTooLongError,
    UnsupportedInputError,
)
from clef_tools.protocol._types import SCORED_TYPES
from clef_tools.protocol._validation import DecisionRequest, option_labels

__all__ = ["ReadoutDecider"]

#: A request's work budget: the tokens its forward passes compute (see `_check_work`).
#: Room for a state as long as the embedded model reads with 64 yes/no questions, or a
#: few 255-option choices; not for 64 of them (1.1 M tokens, once 17 CPU-minutes).
DEFAULT_MAX_WORK_TOKENS = 131_072


@dataclass
class _Row:
    qid: str
    kind: str
    options: list[int]
    """Indices (into the question's option order) that this row's labels stand for."""
    labels: LabelSet
    block: str


@dataclass
class _ReadoutPlan:
    """Rows of one request plus how to fold row log-probs back into question answers."""

    state_text: str
    rows: list[_Row] = field(default_factory=list)


class ReadoutDecider(Decider):
    """Decision model over a transformers causal LM, read out in one batched pass.

    `contextual` names the question types whose label prior is divided out (contextual
    calibration: the same question asked about an empty state gives the prior, cached per
    question text, so a repeated question costs nothing extra). The embedded model says
    "Yes" to most questions (P(yes) 0.8–0.9 for `ls -la` being destructive); dividing the
    prior out lifted yes/no accuracy on a 14-item check from 0.50 to 0.86 with the ranking
    unchanged (AUC 0.98), so it is on for `noul` by default.

    `debias` names the question types whose option order is rotated (choice: up to
    `debias_rotations` cyclic shifts; noul: both Yes/No orders) as extra rows of the same
    batch, averaged in log space. The embedded model favours the first-listed option; on 24
    BANKING77 items with 2–6 options, rotating choices lifted accuracy 0.83 → 0.92 and cut
    NLL 0.82 → 0.71 for 1.8× the CPU time, so it is on for `choice` by default.

    Score levels are labelled with letters (`A` = lowest), not digits (`score_labels`). Digit
    labels carry their own meaning to the model (it answered "3" for most words whatever their
    sentiment): on 60 VADER training items, Spearman(expected level, gold) went 0.20 → 0.64
    with letters (bench/score_study.py, bench/results/score-study.json). Dividing out the
    labels' prior made scores worse (accuracy 0.28 → 0.10) and a second, highest-first row
    added cost for no gain over letters (0.61), so both stay off for scores.
    """

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        *,
        model_id: str,
        max_context_tokens: int | None = None,
        debias: bool | Iterable[str] = LoadOptions.debias,
        debias_rotations: int = 4,
        contextual: Iterable[str] = LoadOptions.contextual,
        contextual_strength: float = 1.0,
        prior_cache_size: int = 4096,
        prefix_cache_tokens: int = LoadOptions.prefix_cache_tokens,
        prefix_cache_bytes: int | None = 1 << 30,
        segment_tokens: int = DEFAULT_SEGMENT_TOKENS,
        score_labels: str = "letters",
        max_work_tokens: int | None = DEFAULT_MAX_WORK_TOKENS,
    ) -> None:
        self.model = model.eval()
        self.tokenizer = tokenizer
        if max_work_tokens is not None and max_work_tokens < 1:
            raise ValueError("max_work_tokens must be positive (None: no budget)")
        self.max_work_tokens = max_work_tokens
        self._model_id = model_id
        self.debias = _types(debias)
        self.debias_rotations = max(1, debias_rotations)
        self.contextual = frozenset(contextual)
        self.contextual_strength = contextual_strength
        self._priors: BoundedLRU[str, torch.Tensor] = BoundedLRU(prior_cache_size)
        # The empty-state prefix behind the yes/no priors: a one-entry cache of its own, so
        # its lookups do not count as hits or misses of the request prefix cache.
        self._empty_prefixes = PrefixCache(max_tokens=4096, max_bytes=None)
        self._prefixes = PrefixCache(max_tokens=prefix_cache_tokens, max_bytes=prefix_cache_bytes)
        config_limit = int(getattr(model.config, "max_position_embeddings", 0) or 0) or 32768
        self.max_context_tokens = min(max_context_tokens or config_limit, config_limit)
        self.frame = PromptFrame.for_tokenizer(tokenizer)
        ctx = self.frame.answer_context
        self.letters = require_labels(tokenizer, ctx, [LETTERS], "choice options")
        self.yes_no = require_labels(
            tokenizer, ctx, [YES_NO, ("yes", "no"), ("YES", "NO")], "yes/no"
        )
        if score_labels not in ("digits", "letters"):
            raise ValueError("score_labels is 'digits' or 'letters'")
        self.score_labels = score_labels
        self.levels = require_labels(
            tokenizer,
            ctx,
            [DIGITS, LETTERS[:10]] if score_labels == "digits" else [LETTERS[:10], DIGITS],
            "score levels",
        )
        self.no_yes = LabelSet(
            tuple(reversed(self.yes_no.shown)), tuple(reversed(self.yes_no.token_ids))
        )
        self._forward = ShardedForward(model, segment_tokens=segment_tokens)

    @property
    def model_id(self) -> str:
        return self._model_id

    def info(self) -> BackendInfo:
        param = next(self.model.parameters())
        return BackendInfo(
            kind="readout",
            model_id=self.model_id,
            supported_types=self.supported_types,
            dtype=str(param.dtype).removeprefix("torch."),
            device=str(param.device),
            max_context_tokens=self.max_context_tokens,
            contextual_calibration=tuple(sorted(self.contextual)),
            details={"debias": sorted(self.debias), "segment_tokens": self._forward.segment_tokens},
        )

    @property
    def group_size(self) -> int:
        """Options one row can show: the verified single-token label supply."""
        return len(self.letters)

    def check_supported(self, request: DecisionRequest, loc_prefix: tuple[str | int, ...]) -> None:
        if request.facts.media:
            where, _ = request.facts.media[0]
            raise UnsupportedInputError(
                ".".join(str(p) for p in (*loc_prefix, "state", *where)),
                f"{self.model_id} reads text only; send images to a multimodal backend",
            )

    # -- scoring ----------------------------------------------------------------------

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        return run_on_torch_thread(lambda: [self._score_one(req) for req in requests])

    def _score_one(self, request: DecisionRequest) -> RequestScores:
        plan = self._plan(request)
        prefix_text = self.frame.prefix(plan.state_text)
        stage1 = plan.rows
        self._check_work_before_tokenizing(prefix_text, stage1)
        prefix_ids, suffixes = self._split(prefix_text, stage1)
        self._check_length(len(prefix_ids), suffixes)
        self._check_work(request, stage1, len(prefix_ids), suffixes)
        cache = self._prefixes.get(prefix_ids, self._forward)
        logps = self._forward.score_rows(
            cache, len(prefix_ids), RowBatch(suffixes, [r.labels.token_ids for r in stage1])
        )
        logps = self._divide_priors(stage1, logps)
        tokens = len(prefix_ids) + sum(len(s) for s in suffixes)
        by_q: dict[str, list[tuple[_Row, torch.Tensor]]] = {}
        for row, lp in zip(stage1, logps, strict=True):
            by_q.setdefault(row.qid, []).append((row, lp))

        probabilities: dict[str, list[float]] = {}
        finals: list[_Row] = []
        anchors: dict[str, list[float]] = {}
        for qid, question in request.questions.items():
            assert not isinstance(question, Box)  # refused in prepare()
            n = _n_options(question)
            if isinstance(question, Choice) and n > self.group_size:
                stage1_lp, shortlist = self._shortlist(by_q[qid], n)
                anchors[qid] = stage1_lp
                finals += self._choice_rows(qid, question, shortlist)
            else:
                probabilities[qid] = self._fold(question, by_q[qid], n)
        if finals:
            kept, suffixes2 = self._split(prefix_text, finals, prefix_ids)
            if kept != prefix_ids:
                raise RuntimeError("stage-2 rows do not share the stage-1 prefix tokens")
            self._check_length(len(prefix_ids), suffixes2)
            logps2 = self._forward.score_rows(
                cache, len(prefix_ids), RowBatch(suffixes2, [r.labels.token_ids for r in finals])
            )
            logps2 = self._divide_priors(finals, logps2)
            tokens += sum(len(s) for s in suffixes2)
            by_q2: dict[str, list[tuple[_Row, torch.Tensor]]] = {}
            for row, lp in zip(finals, logps2, strict=True):
                by_q2.setdefault(row.qid, []).append((row, lp))
            for qid, rows in by_q2.items():
                question = request.questions[qid]
                assert isinstance(question, Choice)
                probabilities[qid] = self._tournament(question, anchors[qid], rows)
        return RequestScores(probabilities=probabilities, input_tokens=tokens)

    # -- contextual calibration -------------------------------------------------------

    def _divide_priors(self, rows: Sequence[_Row], logps: list[torch.Tensor]) -> list[torch.Tensor]:
        """`p ∝ p_raw / prior^strength`, the prior being the row asked about an empty state."""
        wanted = [r for r in rows if r.kind in self.contextual]
        if not wanted:
            return logps
        missing = list({r.block: r for r in wanted if r.block not in self._priors}.values())
        if missing:
            ids, suffixes = self._split(self.frame.prefix(""), missing)
            priors = self._forward.score_rows(
                self._empty_prefixes.get(ids, self._forward),
                len(ids),
                RowBatch(suffixes, [r.labels.token_ids for r in missing]),
            )
            for row, prior in zip(missing, priors, strict=True):
                self._priors.put(row.block, prior, trim=False)
        out = []
        for row, lp in zip(rows, logps, strict=True):
            if row.kind in self.contextual:
                prior = self._priors[row.block]
                lp = torch.log_softmax(lp - self.contextual_strength * prior, dim=0)
            out.append(lp)
        self._priors.trim()  # after this request's rows have read their priors
        return out

    # -- planning ---------------------------------------------------------------------

    def _plan(self, request: DecisionRequest) -> _ReadoutPlan:
        plan = _ReadoutPlan(state_text=request.facts.text)
        for qid, question in request.questions.items():
            if isinstance(question, Noul):
                plan.rows.append(
                    _Row(qid, "noul", [0, 1], self.yes_no, noul_block(qid, question, True))
                )
                if "noul" in self.debias:
                    plan.rows.append(
                        _Row(qid, "noul", [1, 0], self.no_yes, noul_block(qid, question, False))
                    )
            elif isinstance(question, Score):
                n = len(question.criteria)
                labels = _take(self.levels, n)
                plan.rows.append(
                    _Row(
                        qid,
                        "score",
                        list(range(n)),
                        labels,
                        score_block(qid, question, labels.shown),
                    )
                )
                if "score" in self.debias:
                    block = score_block(qid, question, labels.shown, descending=True)
                    plan.rows.append(_Row(qid, "score", list(range(n)), labels, block))
            elif isinstance(question, Choice):
                n = len(question.criteria)
                if n <= self.group_size:
                    plan.rows += self._choice_rows(qid, question, list(range(n)))
                else:
                    groups = math.ceil(n / self.group_size)
                    size = math.ceil(n / groups)  # balanced groups, e.g. 77 → 26+26+25
                    for g in range(groups):
                        members = list(range(g * size, min(n, (g + 1) * size)))
                        plan.rows.append(self._choice_row(qid, question, members))
        return plan

    def _choice_rows(self, qid: str, question: Choice, members: list[int]) -> list[_Row]:
        rows = [self._choice_row(qid, question, members)]
        if "choice" in self.debias and len(members) > 1:
            k = len(members)
            shifts = sorted(
                {
                    (i * k) // min(k, self.debias_rotations)
                    for i in range(1, min(k, self.debias_rotations))
                }
            )
            for s in shifts:
                rows.append(self._choice_row(qid, question, members[s:] + members[:s]))
        return rows

    def _choice_row(self, qid: str, question: Choice, members: list[int]) -> _Row:
        names = list(question.criteria)
        labels = _take(self.letters, len(members))
        block = choice_block(qid, question, [names[i] for i in members], labels.shown)
        return _Row(qid, "choice", members, labels, block)

    # -- folding ----------------------------------------------------------------------

    def _fold(
        self, question: Noul | Choice | Score, rows: list[tuple[_Row, torch.Tensor]], n: int
    ) -> list[float]:
        """Average each option's log-prob over the rows that showed it, then softmax."""
        total = torch.zeros(n, dtype=torch.float64)
        count = torch.zeros(n, dtype=torch.float64)
        for row, lp in rows:
            idx = torch.tensor(row.options)
            total[idx] += lp
            count[idx] += 1
        mean = total / count.clamp(min=1)
        return self._softmax(question, mean)

    def _shortlist(
        self, rows: list[tuple[_Row, torch.Tensor]], n: int
    ) -> tuple[list[float], list[int]]:
        per_group = max(1, self.group_size // len(rows))
        stage1 = [0.0] * n
        shortlist: list[int] = []
        for row, lp in rows:
            for i, v in zip(row.options, lp.tolist(), strict=True):
                stage1[i] = v
            best = torch.argsort(lp, descending=True)[:per_group].tolist()
            shortlist += [row.options[j] for j in best]
        return stage1, sorted(shortlist)

    def _tournament(
        self, question: Choice, stage1: list[float], rows: list[tuple[_Row, torch.Tensor]]
    ) -> list[float]:
        n = len(question.criteria)
        total: dict[int, float] = {}
        count: dict[int, int] = {}
        for row, lp in rows:
            for i, v in zip(row.options, lp.tolist(), strict=True):
                total[i] = total.get(i, 0.0) + v
                count[i] = count.get(i, 0) + 1
        final = {i: total[i] / count[i] for i in total}
        group = math.ceil(n / math.ceil(n / self.group_size))
        logits = torch.empty(n, dtype=torch.float64)
        for i in range(n):
            if i in final:
                logits[i] = final[i]
                continue
            g = range((i // group) * group, min(n, (i // group + 1) * group))
            anchor = max((j for j in g if j in final), key=lambda j: stage1[j])
            logits[i] = final[anchor] + stage1[i] - stage1[anchor]
        return self._softmax(question, logits)

    def _softmax(self, question: Noul | Choice | Score, logps: torch.Tensor) -> list[float]:
        # temperatures are applied after this, by `CalibratedDecider`, for every backend
        return torch.softmax(logps, dim=0).tolist()

    # -- tokens -----------------------------------------------------------------------

    def _ids(self, text: str) -> list[int]:
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def _split(
        self, prefix_text: str, rows: Sequence[_Row], prefix_ids: list[int] | None = None
    ) -> tuple[list[int], list[list[int]]]:
        """Shared prefix tokens and each row's tokens after it, exactly as whole rows tokenize.

        Blocks all start with the same header, so when the first row's whole tokenization is
        the prefix tokens followed by its block's own tokens, every row's is, and the state
        is tokenized once. Otherwise (a tokenizer that merges across the boundary or adds a
        leading space) every row is tokenized whole and the prefix is their common part.
        """
        tail = self.frame.tail
        if prefix_ids is None:
            prefix_ids = self._ids(prefix_text)
        p = len(prefix_ids)
        first_full = self._ids(prefix_text + rows[0].block + tail)
        first_own = self._ids(rows[0].block + tail)
        if first_full[:p] == prefix_ids and first_full[p:] == first_own:
            return prefix_ids, [first_own] + [self._ids(r.block + tail) for r in rows[1:]]
        fulls = [first_full] + [self._ids(prefix_text + r.block + tail) for r in rows[1:]]
        shared = min(common_prefix(prefix_ids, f) for f in fulls)
        shared = min(shared, *(len(f) - 1 for f in fulls))
        return prefix_ids[:shared], [f[shared:] for f in fulls]

    def _check_work_before_tokenizing(self, prefix_text: str, rows: Sequence[_Row]) -> None:
        """Tokenizing a huge request costs seconds too: refuse one whose text alone, at a
        generous 12 characters a token, is past the budget, before tokenizing it."""
        if self.max_work_tokens is None:
            return
        at_least = (len(prefix_text) + sum(len(r.block) for r in rows)) // 12
        if at_least > self.max_work_tokens:
            raise self._over_budget(f"at least {at_least:,}", len(rows))

    def _over_budget(self, work: str, rows: int) -> RequestValidationError:
        return RequestValidationError.at(
            ("questions",),
            f"this request needs {work} tokens of work (its state once, then {rows} rows "
            f"of questions and options), over this backend's budget of "
            f"{self.max_work_tokens:,} (max_work_tokens); send fewer questions or options "
            "per request, or a shorter state",
            "work_budget",
        )

    def _check_work(
        self,
        request: DecisionRequest,
        rows: Sequence[_Row],
        prefix_len: int,
        suffixes: Sequence[Sequence[int]],
    ) -> None:
        """Refuse, before any forward pass, a request whose work (the tokens its passes
        compute: the state once, then every row's own tokens) is past the budget.
        Second-stage rows of long choices are estimated from their first stage."""
        if self.max_work_tokens is None:
            return
        per_q: dict[str, list[int]] = {}
        for row, suffix in zip(rows, suffixes, strict=True):
            per_q.setdefault(row.qid, []).append(len(suffix))
        work = prefix_len + sum(sum(v) for v in per_q.values())
        second = self.debias_rotations if "choice" in self.debias else 1
        for qid, question in request.questions.items():
            if isinstance(question, Choice) and len(question.criteria) > self.group_size:
                lengths = per_q[qid]
                work += second * sum(lengths) // len(lengths)
        if work > self.max_work_tokens:
            raise self._over_budget(f"about {work:,}", len(rows))

    def _check_length(self, prefix_len: int, suffixes: Sequence[Sequence[int]]) -> None:
        longest = prefix_len + max(len(s) for s in suffixes)
        if longest > self.max_context_tokens:
            raise StateTooLongError(longest, self.max_context_tokens)


def _n_options(question: Noul | Choice | Score) -> int:
    return len(option_labels(question))


def _types(value: bool | Iterable[str]) -> frozenset[str]:
    """`True` = every type, `False` = none, else the named question types."""
    if value is True:
        return frozenset(SCORED_TYPES)
    if value is False:
        return frozenset()
    return frozenset(value)


def _take(labels: LabelSet, n: int) -> LabelSet:
    return LabelSet(labels.shown[:n], labels.token_ids[:n])
