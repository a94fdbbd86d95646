"""Three-band tool-call gate: allow / escalate to a human / deny, failing closed.

One policy engine shared by every surface (the LangChain middleware, the MCP
`gate_tool_call` tool), so a tool call gets the same verdict whichever way it is checked.

A call's risk is the probability that it is unsafe under a fitted risk model
(`clef_tools.gate._risk`): first from evidence alone (are the arguments things the user
mentioned, how far is the call from the request, what the tool declares), which decides
the calls it is sure about in milliseconds; the rest go to the decision model, all questions
in one request. Reviews shift a tool's risks where reviewers keep disagreeing with them, and
pull a call's risk toward what they did with calls like it.
A scorer error, timeout or unusable answer never allows: it yields the policy's `on_error`.
"""

from __future__ import annotations

import concurrent.futures
import contextvars
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import anyio

from clef_tools._extras import require_extra
from clef_tools.backends._base import Decider
from clef_tools.backends._cancel import cancellable
from clef_tools.decisions import ClassifierResponse
from clef_tools.gate._call_effect import call_effect, operation_verb
from clef_tools.gate._canonical import builtin_call
from clef_tools.gate._counted import counted
from clef_tools.gate._dropped import files_read
from clef_tools.gate._effects import CallEffect, tool_verb
from clef_tools.gate._evidence import CallEvidence, call_evidence, request_text
from clef_tools.gate._grounding import Grounding, ground_call, ground_objects, ground_page_words
from clef_tools.gate._judged import JudgedRisks
from clef_tools.gate._licence import (
    Licence,
    earlier_results,
    read_messages,
    request_licence,
    user_and_results,
)
from clef_tools.gate._lookups import linked_from_page, listed_entry, lookups
from clef_tools.gate._messages import chat_messages
from clef_tools.gate._policy import DEFAULT_GATE_QUESTIONS, RISK_QUESTIONS, GatePolicy, Verdict
from clef_tools.gate._reviews import ReviewEvidence, ReviewStore
from clef_tools.gate._risk import DEFAULT_RISK_MODEL, RiskModel, load_risk_model, risk_features
from clef_tools.gate._shell import registry_as_said
from clef_tools.gate._stakes import Stakes, judge_stakes
from clef_tools.gate._taint import taint_of
from clef_tools.gate._turn import TurnAnswers, turn_features, turn_key, turn_request
from clef_tools.gate._written import edits_files
from clef_tools.protocol._errors import ConfigError, RequestValidationError
from clef_tools.protocol._validation import DecisionRequest, validate_request

__all__ = ["GateDecision", "RiskInputs", "ToolGate", "gate_state"]

Tier = Literal["fast", "model", "max", "error"]


@dataclass(frozen=True)
class GateDecision:
    """A verdict with everything needed to audit it."""

    verdict: Verdict
    risk: float | None
    """P(unsafe) under the risk model (the highest P(yes) without one), kept inside the
    verdict's band: a verdict a rule settled or raised carries a risk in that band. None on
    failure."""
    probabilities: dict[str, float]
    escalate_at: float
    deny_at: float
    reason: str
    model: str | None = None
    error: str | None = None
    tier: Tier = "model"
    """Who decided: `fast` (evidence and reviews, no model pass), `model`, `max` (custom
    questions, highest P(yes)), or `error`."""
    evidence: dict[str, float] = field(default_factory=dict)
    reviews: dict[str, float] | None = None
    risk_model: str | None = None
    seconds: float | None = None
    effect: dict[str, Any] | None = None
    """What the call does (`effects`: kind, reach, reversible, high_impact), and from what."""
    licence: dict[str, Any] | None = None
    """What the user's own words license: effects asked for, prohibited, amounts stated."""
    stakes: str | None = None
    """The rule the effect and licence met (see `_stakes`)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "risk": self.risk,
            "probabilities": dict(self.probabilities),
            "escalate_at": self.escalate_at,
            "deny_at": self.deny_at,
            "reason": self.reason,
            "model": self.model,
            "error": self.error,
            "tier": self.tier,
            "evidence": dict(self.evidence),
            "reviews": self.reviews,
            "risk_model": self.risk_model,
            "seconds": self.seconds,
            "effect": self.effect,
            "licence": self.licence,
            "stakes": self.stakes,
        }


def gate_state(
    name: str,
    args: Mapping[str, Any],
    *,
    description: str | None = None,
    messages: Sequence[Any] | str | None = None,
) -> dict[str, Any]:
    """The state the questions refer to (`tool_call`, `tool_description`, `messages`),
    the same shape LangChain's AutoModeMiddleware sends."""
    state: dict[str, Any] = {"tool_call": {"name": name, "args": dict(args)}}
    if description:
        state["tool_description"] = description
    if messages:
        state["messages"] = messages if isinstance(messages, str) else list(messages)[-30:]
    return state


@dataclass(frozen=True)
class RiskInputs:
    """What the risk model reads about one call, and which of its stages can decide it:
    what `bench/gate_fit.py` fits on, computed by the gate's own code."""

    features: dict[str, float]
    rule_verdict: Verdict | None
    """A rule settled the call (the risk only orders it inside that verdict's band)."""
    may_fast_deny: bool
    """Undecided, and a rule faulted it: the fast stage may deny it alone."""
    may_allow_fast: bool = False
    """Undecided, and the evidence can vouch for it (a read, or a licensed effect on a named
    object): the fast stage may allow it alone."""
    kinds: frozenset[str] = frozenset()
    """The call's kinds of effect (what the turn questions are matched against)."""
    said: str = ""
    """The user's own words (what the turn questions read)."""


@dataclass(frozen=True)
class _Prepared:
    """A call checked and weighed before the model is asked (if it needs to be)."""

    policy: GatePolicy
    request: DecisionRequest
    """Validated once: the decider takes it as it is."""
    model: RiskModel | None
    """The risk model, when the policy asks the questions it was fitted on."""
    evidence: CallEvidence | None
    reviews: ReviewEvidence | None
    decision: GateDecision | None
    key: str = ""
    """The call and its request, as `JudgedRisks` knows it."""
    seen: _Seen | None = None
    """What the call does, what the user licensed, and the rule they met."""
    said: str = ""
    """The user's own words: what the turn questions read."""


@dataclass(frozen=True)
class _Seen:
    stakes: Stakes
    effect: CallEffect
    licence: Licence


class ToolGate:
    """Judges tool calls with a decider under a default policy and per-tool overrides.

    `risk_model`: a shipped model's name or a JSON file (`None`: the highest P(yes) over the
    policy's questions, with no fast path). `reviews`: a `ReviewStore` (or a path to its
    JSONL file) whose close matches pull the risk toward the reviewers' decisions.
    """

    def __init__(
        self,
        decider: Decider,
        policy: GatePolicy | None = None,
        per_tool: Mapping[str, GatePolicy] | None = None,
        *,
        risk_model: RiskModel | str | None = DEFAULT_RISK_MODEL,
        reviews: ReviewStore | str | None = None,
        use_result_cache: bool = False,
    ) -> None:
        from clef_tools.backends.compose._result_cache import CachedDecider

        # A cached verdict could outlive a policy or model change; opt in explicitly.
        while isinstance(decider, CachedDecider) and not use_result_cache:
            decider = decider.inner
        self.decider = decider
        self.risk_model = load_risk_model(risk_model) if isinstance(risk_model, str) else risk_model
        if self.risk_model is not None or reviews is not None:
            # its evidence embeds request and call locally: say so now, not as an
            # escalation on every call of a hosted-only install
            require_extra(
                "local", "a ToolGate with a risk model or reviews (risk_model=None: without)"
            )
        self.policy = policy or GatePolicy(
            questions=DEFAULT_GATE_QUESTIONS if self.risk_model is not None else RISK_QUESTIONS
        )
        self.per_tool = dict(per_tool or {})
        self.reviews = ReviewStore(reviews) if isinstance(reviews, str) else reviews
        self._judged = JudgedRisks()
        self._turns = TurnAnswers()
        self._answering = _answering(decider) if self.risk_model is not None else (None, None)
        """(model, dtype) of the decider: whether one of the risk model's answer shifts
        applies."""

    def policy_for(self, tool_name: str) -> GatePolicy:
        return self.per_tool.get(tool_name, self.policy)

    def record_review(
        self,
        name: str,
        args: Mapping[str, Any],
        decision: str,
        *,
        description: str | None = None,
        messages: Sequence[Any] | str | None = None,
        channel: str = "python",
    ) -> None:
        """Keep a human's approve / edit / reject of a call for future judgments; `channel`
        says how the person's answer came (see `Review.channel`). When
        this gate judged the same call (same arguments and request) recently, the risk it
        gave is kept with the review: reviews that disagree with the risks teach the tool's
        offset."""
        if self.reviews is None:
            self.reviews = ReviewStore()
        judged = self._judged.get(JudgedRisks.key(name, args, messages))
        self.reviews.record(
            name,
            args,
            decision,
            request=request_text(chat_messages(messages)),
            description=description,
            risk=judged[0] if judged else None,
            risk_model=judged[1] if judged else "",
            channel=channel,
        )

    def tool_offsets(self) -> dict[str, float]:
        """Per reviewed tool, the logit shift its reviews teach the risk model (0 where the
        reviews agree with the risks, or none carries a risk): what the gate has learnt."""
        model = self.risk_model
        if model is None or self.reviews is None:
            return {}
        return {
            tool: round(
                self.reviews.tool_offset(
                    tool, risk_model=model.name, prior_sd=model.review_tool_prior
                ),
                4,
            )
            for tool in sorted(self.reviews.counts())
        }

    def answer_shift(self) -> dict[str, float]:
        """Per question, the log-odds this gate adds to its backend's answers before the risk
        model reads them (empty: read as they are); see `RiskModel.answer_shift`."""
        if self.risk_model is None:
            return {}
        return self.risk_model.shift_for(*self._answering)

    def risk_inputs(
        self,
        name: str,
        args: Mapping[str, Any],
        *,
        description: str | None = None,
        messages: Sequence[Any] | str | None = None,
        annotations: Mapping[str, Any] | None = None,
    ) -> RiskInputs:
        """The features this gate's risk model weighs for a call under the default policy
        (raises `ConfigError` without a risk model: there is nothing to weigh)."""
        policy = self.policy
        prepared = self._prepare(policy, name, args, description, messages, annotations)
        if prepared.evidence is None or prepared.seen is None:
            raise ConfigError(
                "risk_inputs needs a gate whose policy asks its risk model's questions"
            )
        stakes = prepared.seen.stakes
        return RiskInputs(
            features=risk_features(_weighed(prepared.evidence, stakes), {}),
            rule_verdict=stakes.verdict if _within(policy, stakes.verdict) else None,
            may_fast_deny=stakes.may_deny_fast,
            may_allow_fast=stakes.may_allow_fast,
            kinds=frozenset(prepared.seen.effect.kinds),
            said=prepared.said,
        )

    def judge(
        self,
        name: str,
        args: Mapping[str, Any],
        *,
        description: str | None = None,
        messages: Sequence[Any] | str | None = None,
        annotations: Mapping[str, Any] | None = None,
        caller_trusted: bool = True,
    ) -> GateDecision:
        """`caller_trusted=False`: `messages` and `annotations` are the caller's claims (over
        MCP, the agent's own account of what the user said and what the tool does), so they
        may raise the risk but never lower it below what the call alone shows."""
        policy = self.policy_for(name)
        clock = _Clock()
        prepared: list[_Prepared] = []
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        with cancellable() as stop:
            try:
                prepared = pool.submit(
                    contextvars.copy_context().run,
                    self._prepare_views,
                    policy,
                    name,
                    args,
                    description,
                    messages,
                    annotations,
                    caller_trusted,
                ).result(timeout=policy.timeout_s)
                pending = [p for p in prepared if p.decision is None]
                turn = self._turn_of(pending)
                responses: list[ClassifierResponse] = []
                if pending:
                    future = pool.submit(
                        contextvars.copy_context().run,
                        self.decider.decide_batch,
                        [p.request for p in pending] + turn.requests,
                    )
                    responses = future.result(timeout=clock.left(policy.timeout_s))
                    responses = turn.take(responses, self._turns)
            except concurrent.futures.TimeoutError:
                stop.set()  # the abandoned passes stop at the next check, not later
                failed = self.fail_closed(policy, f"scorer timed out after {policy.timeout_s}s")
                return clock.stamp(_with_stakes(failed, _seen_of(prepared)))
            except Exception as exc:  # a call it cannot judge, or a scorer failure: fail closed
                stop.set()
                failed = self.fail_closed(policy, _reason(exc))
                return clock.stamp(_with_stakes(failed, _seen_of(prepared)))
            finally:
                pool.shutdown(wait=False, cancel_futures=True)
        return clock.stamp(self._combine(prepared, responses, turn.answers))

    async def ajudge(
        self,
        name: str,
        args: Mapping[str, Any],
        *,
        description: str | None = None,
        messages: Sequence[Any] | str | None = None,
        annotations: Mapping[str, Any] | None = None,
        caller_trusted: bool = True,
    ) -> GateDecision:
        """`judge` for async callers; a cancelled caller stops the work it started."""
        policy = self.policy_for(name)
        clock = _Clock()
        responses: list[ClassifierResponse] | None = None
        prepared: list[_Prepared] = []
        try:
            with anyio.move_on_after(policy.timeout_s):
                prepared = await anyio.to_thread.run_sync(
                    lambda: self._prepare_views(
                        policy, name, args, description, messages, annotations, caller_trusted
                    ),
                    abandon_on_cancel=True,
                )
                pending = [p for p in prepared if p.decision is None]
                turn = self._turn_of(pending)
                responses = (
                    turn.take(
                        await self.decider.adecide_batch(
                            [p.request for p in pending] + turn.requests
                        ),
                        self._turns,
                    )
                    if pending
                    else []
                )
        except Exception as exc:  # a call it cannot judge, or a scorer failure: fail closed
            failed = self.fail_closed(policy, _reason(exc))
            return clock.stamp(_with_stakes(failed, _seen_of(prepared)))
        if responses is None:  # the deadline passed: no answer is never an allow
            failed = self.fail_closed(policy, f"scorer timed out after {policy.timeout_s}s")
            return clock.stamp(_with_stakes(failed, _seen_of(prepared)))
        return clock.stamp(self._combine(prepared, responses, turn.answers))

    def _prepare_views(
        self,
        policy: GatePolicy,
        name: str,
        args: Mapping[str, Any],
        description: str | None,
        messages: Sequence[Any] | str | None,
        annotations: Mapping[str, Any] | None,
        caller_trusted: bool,
    ) -> list[_Prepared]:
        """The call as claimed, and, when the caller is not trusted and claims something,
        the call alone (no context, no annotations): the floor its claims cannot go under."""
        views = [self._prepare(policy, name, args, description, messages, annotations)]
        if not caller_trusted and (messages or annotations):
            views.append(self._prepare(policy, name, args, description, None, None))
        return views

    def _combine(
        self,
        prepared: list[_Prepared],
        responses: Sequence[ClassifierResponse],
        turn: Mapping[str, float] | None = None,
    ) -> GateDecision:
        """One decision per view; the strictest stands (an untrusted caller's claims can
        only make a verdict stricter)."""
        answers = iter(responses)
        decisions = [
            p.decision if p.decision is not None else self._decide_or_fail(p, next(answers), turn)
            for p in prepared
        ]
        strictest = max(decisions, key=_strictness)
        if len(decisions) > 1 and strictest is not decisions[0]:
            strictest = replace(
                strictest,
                reason=strictest.reason + "; the caller's context and annotations are its "
                "own claims and cannot lower the risk of the call alone",
            )
        return strictest

    def prepare_turn(self, messages: Sequence[Any] | str | None) -> dict[str, float] | None:
        """Ask the turn questions about the user's words now (when their message arrives),
        so that the turn's first call that needs the model does not wait for them. Returns
        the answers (None: the risk model asks no turn questions, or nobody spoke)."""
        said, _ = user_and_results(chat_messages(messages))
        plan = self._turn_plan(said)
        if plan.requests:
            plan.take(self.decider.decide_batch(plan.requests), self._turns)
        return plan.answers

    async def aprepare_turn(self, messages: Sequence[Any] | str | None) -> dict[str, float] | None:
        """`prepare_turn` for async callers."""
        said, _ = user_and_results(chat_messages(messages))
        plan = self._turn_plan(said)
        if plan.requests:
            plan.take(await self.decider.adecide_batch(plan.requests), self._turns)
        return plan.answers

    def _turn_of(self, pending: Sequence[_Prepared]) -> _TurnPlan:
        """The turn request the pending views need (none when cached, or none asks it)."""
        said = next((p.said for p in pending if p.model is not None and p.said), "")
        return self._turn_plan(said)

    def _turn_plan(self, said: str) -> _TurnPlan:
        model = self.risk_model
        if model is None or not model.turn_questions or not said:
            return _TurnPlan()
        key = turn_key(said, self.decider.model_id)
        cached = self._turns.get(key)
        if cached is not None:
            return _TurnPlan(answers=cached)
        return _TurnPlan(key=key, requests=[turn_request(said, model.turn_questions)])

    # -- stages -------------------------------------------------------------------------

    def _uses_model(self, policy: GatePolicy) -> RiskModel | None:
        """The risk model applies when the policy asks the questions it was fitted on."""
        model = self.risk_model
        if model is None or set(policy.questions) != set(model.questions):
            return None
        return model

    def _prepare(
        self,
        policy: GatePolicy,
        name: str,
        args: Mapping[str, Any],
        description: str | None,
        messages: Sequence[Any] | str | None,
        annotations: Mapping[str, Any] | None,
    ) -> _Prepared:
        messages = chat_messages(messages)
        state = gate_state(name, args, description=description, messages=messages)
        # bounds first: an oversize or too-deep call fails closed before anything reads it
        request = validate_request(state, dict(policy.questions))
        # a host's edit tool read as the built-in it is (the state above keeps the call)
        tool, call_args = builtin_call(name, args)
        effect = call_effect(tool, call_args, description=description, annotations=annotations)
        # the names of every turn are the user's; what may be done is the latest request's
        said, results, asked, latest = read_messages(messages)
        licence = request_licence(asked, latest)
        grounding, results = _grounding(effect, call_args, said, results, messages)
        taint = taint_of(results)
        stakes = judge_stakes(
            effect,
            licence,
            call_args,
            grounding=grounding,
            taint=taint,
            results=results,
            said=said,
            confirm_high_impact=policy.confirm_high_impact,
            max_payment=policy.max_payment,
            asked_by_name=_asked_by_name(tool, call_args, licence),
            read=files_read(messages) if edits_files(effect) else None,
        )
        seen = _Seen(stakes, effect, licence)
        model = self._uses_model(policy)
        key = JudgedRisks.key(name, args, messages)
        evidence = (
            call_evidence(
                name, args, description=description, messages=messages, annotations=annotations
            )
            if model is not None
            else None
        )
        reviews = (
            self.reviews.evidence(
                name,
                args,
                model.review_temperature,
                risk_model=model.name,
                prior_sd=model.review_tool_prior,
            )
            if self.reviews is not None and model is not None
            else None
        )
        if _within(policy, stakes.verdict):
            settled = self._by_stakes(policy, stakes, seen, evidence, model)
            if model is not None and evidence is not None:
                unreviewed = model.fast(risk_features(_weighed(evidence, stakes), {}))
                self._judged.remember(key, unreviewed, model.name)
                if reviews is not None:
                    settled = _reviewed(policy, settled, reviews, unreviewed, model)
            return _Prepared(
                policy, request, model, evidence, reviews, settled, key, seen=seen, said=said
            )
        if model is None or evidence is None:
            return _Prepared(policy, request, None, None, None, None, seen=seen, said=said)
        unreviewed = model.fast(risk_features(_weighed(evidence, stakes), {}))
        risk = unreviewed
        if reviews is not None:
            risk = reviews.adjust(risk, model.review_strength)
        allow_below, deny_at = model.fast_band(policy.escalate_at, policy.deny_at)
        decision = None
        # the evidence alone allows only what it can vouch for: a read, or an effect the
        # user asked for on what they named; anything else waits for the model
        fast_allow = risk < allow_below and stakes.may_allow_fast
        fast_deny = risk >= deny_at and stakes.may_deny_fast
        if fast_allow or fast_deny:
            # what a reviewer of this call corrects: the deciding tier's risk before reviews
            self._judged.remember(key, unreviewed, model.name)
            verdict: Verdict = "allow" if fast_allow else "deny"
            edge = f"< {allow_below}" if verdict == "allow" else f"≥ {deny_at}"
            decision = _with_stakes(
                GateDecision(
                    verdict=verdict,
                    risk=risk,
                    probabilities={},
                    escalate_at=policy.escalate_at,
                    deny_at=policy.deny_at,
                    reason=f"evidence alone: risk {risk:.3f} {edge}" + _review_note(reviews),
                    tier="fast",
                    evidence={**evidence.as_dict(), **stakes.features},
                    reviews=reviews.as_dict() if reviews is not None else None,
                    risk_model=model.name,
                ),
                seen,
            )
        return _Prepared(
            policy, request, model, evidence, reviews, decision, key, seen=seen, said=said
        )

    @staticmethod
    def _by_stakes(
        policy: GatePolicy,
        stakes: Stakes,
        seen: _Seen,
        evidence: CallEvidence | None,
        model: RiskModel | None,
    ) -> GateDecision:
        """A verdict the effect and the licence settle without any model: the risk given is
        the evidence's (with a risk model), kept inside the verdict's band."""
        verdict = stakes.verdict or "escalate"
        low, high = _band(policy, verdict)
        risk = low
        if model is not None and evidence is not None:
            risk = min(max(model.fast(risk_features(_weighed(evidence, stakes), {})), low), high)
        return _with_stakes(
            GateDecision(
                verdict=verdict,
                risk=risk,
                probabilities={},
                escalate_at=policy.escalate_at,
                deny_at=policy.deny_at,
                reason=f"effect and licence: {stakes.reason}",
                tier="fast",
                evidence={
                    **(evidence.as_dict() if evidence is not None else {}),
                    **stakes.features,
                },
                risk_model=model.name if model is not None else None,
            ),
            seen,
        )

    def _decide_or_fail(
        self,
        prepared: _Prepared,
        response: ClassifierResponse,
        turn: Mapping[str, float] | None = None,
    ) -> GateDecision:
        """Reading an answer can fail too (a risk model built in code with a bad weight):
        that is the policy's `on_error` verdict, like any other failure, not an exception."""
        try:
            return self._decide(prepared, response, turn)
        except Exception as exc:
            return self.fail_closed(prepared.policy, _reason(exc))

    def _decide(
        self,
        prepared: _Prepared,
        response: ClassifierResponse,
        turn: Mapping[str, float] | None = None,
    ) -> GateDecision:
        policy = prepared.policy
        probs = {k: v.noul for k, v in response.nouls.items()}
        if not _usable(probs):
            return self.fail_closed(policy, f"the scorer returned unusable probabilities: {probs}")
        risk_model = prepared.model
        stakes = prepared.seen.stakes if prepared.seen is not None else None
        asked: dict[str, float] = {}
        """What the turn questions add to the evidence (their answers, their features)."""
        if risk_model is None or prepared.evidence is None:
            top = max(probs, key=probs.__getitem__)
            risk, tier, why = probs[top], "max", f"highest risk {top} = {probs[top]:.3f}"
        else:
            answers = risk_model.on_fitted_scale(probs, *self._answering)
            features = _weighed(prepared.evidence, stakes)
            if risk_model.turn_questions and prepared.said:
                if turn is None or not _usable(turn):
                    return self.fail_closed(
                        policy, f"the turn questions got no usable answer: {turn}"
                    )
                kinds = prepared.seen.effect.kinds if prepared.seen is not None else {"unknown"}
                asked = {f"turn:{q}": p for q, p in turn.items()} | turn_features(kinds, turn)
                features.update(asked)
            risk = risk_model.full(risk_features(features, answers))
            self._judged.remember(prepared.key, risk, risk_model.name)
            if prepared.reviews is not None:
                risk = prepared.reviews.adjust(risk, risk_model.review_strength)
            tier, why = "model", f"risk {risk:.3f}" + _review_note(prepared.reviews)
            if answers != probs:
                why += f" ({self._answering[1]} answers shifted to the risk model's scale)"
        if not math.isfinite(risk):  # NaN is below every threshold: never an allow
            return self.fail_closed(policy, f"the risk model gave a risk of {risk}")
        verdict = policy.band(risk)
        floor = stakes.floor if stakes is not None else "allow"
        if floor == "deny" and policy.deny_at >= 1.0:
            floor = "escalate"  # an operator who never denies: the rule asks a person instead
        if floor == "escalate" and policy.escalate_at >= 1.0:
            floor = "allow"  # an operator who never escalates has said so
        reviews = prepared.reviews
        approved = reviews is not None and reviews.weight >= 0.5 and reviews.unsafe_share < 0.5
        if floor == "escalate" and approved and verdict == "allow":
            floor = "allow"  # people approved calls like this one: their answer is the licence
        raised = _ORDER[floor] > _ORDER[verdict]
        ceiling = stakes.ceiling if stakes is not None else "deny"
        rejected = reviews is not None and reviews.weight >= 0.5 and reviews.unsafe_share >= 0.5
        if ceiling == "escalate" and rejected and verdict == "deny":
            ceiling = "deny"  # people rejected calls like this one: they saw what it does
        if policy.deny_at <= 0.0:
            ceiling = "deny"  # an operator who denies at any risk: no reading of it caps that
        lowered = _ORDER[verdict] > _ORDER[ceiling]
        model_risk = risk
        if raised:
            verdict = floor
            # the risk stays inside its verdict's band (the model's own is `model_risk` in
            # the evidence): a caller ranking calls by risk sees a rule-raised call above
            # every allowed one
            risk = max(risk, _band(policy, floor)[0])
        elif lowered:
            verdict = ceiling
            risk = min(risk, _band(policy, ceiling)[1])
        edge = {
            "allow": f"< escalate_at {policy.escalate_at}",
            "escalate": f"in [{policy.escalate_at}, {policy.deny_at})",
            "deny": f"≥ deny_at {policy.deny_at}",
        }[verdict]
        if raised and stakes is not None:
            edge = f"(below the floor: {stakes.reason} → {floor})"
        elif lowered and stakes is not None:
            edge = f"({stakes.why_capped}: {stakes.reason} → {ceiling})"
        decision = GateDecision(
            verdict=verdict,
            risk=risk,
            probabilities=probs,
            escalate_at=policy.escalate_at,
            deny_at=policy.deny_at,
            reason=f"{why} {edge}",
            model=response.model,
            tier=tier,  # type: ignore[arg-type]
            evidence={
                **(prepared.evidence.as_dict() if prepared.evidence is not None else {}),
                **(stakes.features if stakes is not None else {}),
                **({"model_risk": model_risk} if raised or lowered else {}),
                **asked,
            },
            reviews=prepared.reviews.as_dict() if prepared.reviews is not None else None,
            risk_model=risk_model.name if risk_model is not None else None,
        )
        return _with_stakes(decision, prepared.seen)

    @staticmethod
    def fail_closed(policy: GatePolicy, error: str) -> GateDecision:
        """The policy's `on_error` verdict: never allow without a sound answer."""
        return GateDecision(
            verdict=policy.on_error,
            risk=None,
            probabilities={},
            escalate_at=policy.escalate_at,
            deny_at=policy.deny_at,
            reason=f"no answer from the scorer; failing closed to {policy.on_error}",
            error=error,
            tier="error",
        )


class _Clock:
    """One deadline across the evidence and the model, and the time a verdict took."""

    def __init__(self) -> None:
        self.start = time.perf_counter()

    def left(self, budget: float | None) -> float | None:
        return None if budget is None else max(0.0, budget - (time.perf_counter() - self.start))

    def stamp(self, decision: GateDecision) -> GateDecision:
        return replace(decision, seconds=round(time.perf_counter() - self.start, 4))


_ORDER = {"allow": 0, "escalate": 1, "deny": 2}


def _seen_of(prepared: Sequence[_Prepared]) -> _Seen | None:
    """What the first view saw (the call as given), for a verdict that failed later."""
    return prepared[0].seen if prepared else None


def _reviewed(
    policy: GatePolicy,
    settled: GateDecision,
    reviews: ReviewEvidence,
    unreviewed: float,
    model: RiskModel,
) -> GateDecision:
    """Reviews of calls like this one can make a rule's verdict stricter, never milder:
    people who kept rejecting a call are heard even where the rule would allow it. Only
    what the reviews add counts: a band the risk model alone gives does not overrule the
    rule (the rule is there because the model cannot see the effect)."""
    risk = reviews.adjust(unreviewed, model.review_strength)
    band = policy.band(risk)
    raised = _ORDER[band] > _ORDER[policy.band(unreviewed)]
    if not raised or _ORDER[band] <= _ORDER[settled.verdict]:
        return replace(settled, reviews=reviews.as_dict(), risk=max(settled.risk or 0.0, risk))
    return replace(
        settled,
        verdict=band,
        risk=risk,
        reviews=reviews.as_dict(),
        reason=settled.reason
        + f"; reviews of calls like it raise the risk to {risk:.3f}"
        + _review_note(reviews),
    )


def _within(policy: GatePolicy, verdict: Verdict | None) -> bool:
    """Whether a rule's verdict is one the operator's thresholds can give at all (with
    `escalate_at = 0` nothing is allowed, with `deny_at = 1` nothing denied): if not, the
    call goes the usual way, and the rule's floor still applies."""
    if verdict == "allow":
        return policy.escalate_at > 0.0
    if verdict == "deny":
        return policy.deny_at < 1.0
    return verdict is not None


def _band(policy: GatePolicy, verdict: Verdict) -> tuple[float, float]:
    """The risks a verdict may carry. The bands are half-open ([0, escalate_at) allows): a
    risk on a boundary would read as the next band's, and tie an allowed call with an
    escalated one."""
    below = 1e-3
    return {
        "allow": (0.0, max(policy.escalate_at - below, 0.0)),
        "escalate": (policy.escalate_at, max(policy.deny_at - below, policy.escalate_at)),
        "deny": (policy.deny_at, 1.0),
    }[verdict]


@dataclass
class _TurnPlan:
    """The turn questions for one judgment: cached answers, or the request that asks them
    (sent in the same batch as the call's own)."""

    answers: dict[str, float] | None = None
    key: str = ""
    requests: list[DecisionRequest] = field(default_factory=list)

    def take(
        self, responses: Sequence[ClassifierResponse], turns: TurnAnswers
    ) -> list[ClassifierResponse]:
        """The call's responses, with the turn's answers kept (and cached when usable)."""
        if not self.requests:
            return list(responses)
        *calls, answer = responses
        self.answers = {k: v.noul for k, v in answer.nouls.items()}
        if _usable(self.answers):
            turns.put(self.key, self.answers)
        return calls


def _usable(answers: Mapping[str, float]) -> bool:
    return bool(answers) and all(math.isfinite(p) and 0.0 <= p <= 1.0 for p in answers.values())


def _weighed(evidence: CallEvidence, stakes: Stakes | None) -> dict[str, float]:
    """What the risk model weighs: where the call's words came from, and what the rules
    found about its effect against the user's request."""
    return {**evidence.as_dict(), **(stakes.risk_features if stakes is not None else {})}


def _with_stakes(decision: GateDecision, seen: _Seen | None) -> GateDecision:
    if seen is None:
        return decision
    return replace(
        decision,
        effect=seen.effect.as_dict(),
        licence=seen.licence.as_dict(),
        stakes=seen.stakes.reason,
    )


def _grounding(
    effect: CallEffect,
    args: Mapping[str, Any],
    said: str,
    results: list[str],
    messages: Sequence[Any] | str | None,
) -> tuple[Grounding, list[str]]:
    """Where the call's names come from, and the results in view for it. A command's own
    words (`rm`, `-rf`, `git rebase`) are not names the user must have said: what it acts
    on is; a query's rows are picked by the literals it filters on."""
    if effect.source == "page":
        return ground_page_words(effect.objects, said, results), results
    counts = counted(said, messages) if results else None
    objects = effect.source == "shell" or (effect.source == "sql" and bool(effect.objects))
    if objects:
        named = tuple(registry_as_said(o, said) for o in effect.objects)
        grounding = ground_objects(named, said, results, counts)
    else:
        grounded = ground_call(args, said, results, counts)
        grounding = _scoped(grounded, args, messages, said, results)
    earlier = [] if results else earlier_results(messages)
    if not earlier:
        return grounding, results
    seen = (
        ground_objects(effect.objects, said, earlier)
        if objects
        else ground_call(args, said, earlier)
    )
    if seen.off_record is not None:
        # the listing the user saw a turn ago may hold a record their words fit better
        # than the one named
        return replace(grounding, off_record=seen.off_record, tied=seen.tied), earlier
    if not grounding.in_session and seen.in_session:
        # "delete the iso", "send it": the record the user picked from what they were
        # shown a turn ago, as a result of this turn's own lookup would be
        return seen, earlier
    # the listing the user saw last is what the call is judged against
    return grounding, earlier


def _scoped(
    grounding: Grounding, args: Mapping[str, Any], messages: Any, said: str, results: list[str]
) -> Grounding:
    """A call's scope taken over from the lookup whose result it acts on: after
    `list_runs(repo="acme/web")` returned run 88123, `rerun(repo="acme/web", run_id=88123)`
    names the repository that run was read from, not a new one. Only under the same
    argument, and only when another of the call's names is in that lookup's result. A path
    inside a folder a lookup listed is that folder's entry, when the listing or the user
    names it, and is picked among the listing's entries as the entry itself would be."""
    if not grounding.unnamed or grounding.in_request:
        return grounding
    found = [n for n in grounding.names if n not in grounding.unnamed]
    scoped: set[str] = set()
    calls = lookups(messages)
    for lookup in calls[-16:]:
        held = [n for n in found if n.lower() in lookup.result[:100_000].lower()]
        if not held:
            continue
        scoped |= {
            str(value)
            for key, value in list(lookup.args.items())[:16]
            if isinstance(value, str) and args.get(key) == value and value not in held
        }
    # a page's own relative link (`/files/q3.pdf`), resolved against the page fetched
    scoped |= {n for n in grounding.unnamed if linked_from_page(n, calls)}
    entries = {n: listed_entry(n, said, calls) for n in grounding.unnamed if n not in scoped}
    scoped |= {n for n, entry in entries.items() if entry is not None}
    if not set(grounding.unnamed) <= scoped:
        return grounding
    picked = [e for e in entries.values() if e is not None]
    if picked and grounding.off_record is None:
        # `/Users/kim/Documents/resume_2025.pdf` for "my resume draft": the entry, among
        # the listing's others, is held to the user's words as a listed name is
        among = ground_objects(picked, said, results)
        return replace(
            grounding,
            unnamed=(),
            in_session=True,
            off_record=among.off_record,
            tied=among.tied,
        )
    return replace(grounding, unnamed=(), in_session=True)


def _asked_by_name(name: str, args: Mapping[str, Any], licence: Licence) -> bool:
    """Whether the user's words hold the verb the tool is named by (`add_user_to_channel`
    after "add all users to that channel"), or the one its argument names for a tool of
    several uses (`manage_collaborator(action="add")`)."""
    verbs = (tool_verb(name), operation_verb(name, args))
    return any(len(verb) > 2 and verb in licence.asked for verb in verbs)


def _strictness(decision: GateDecision) -> tuple[int, int, float]:
    """Failures first (no sound answer outranks any answer), then the verdict, then risk."""
    failed = 1 if decision.tier == "error" else 0
    return (failed, _ORDER[decision.verdict], decision.risk or 0.0)


def _answering(decider: Decider) -> tuple[str | None, str | None]:
    """Which model answers, in what dtype (`float32`, `bfloat16`); None where the backend
    does not say: a description that fails is no reason to refuse to gate, only to apply
    no shift."""
    try:
        info = decider.info()
    except Exception:
        return None, None
    return info.model_id, info.dtype


def _review_note(reviews: ReviewEvidence | None) -> str:
    if reviews is None or reviews.weight < 0.05:
        return ""
    return f" (with {reviews.count} reviews of this tool, weight {reviews.weight:.2f})"


def _reason(exc: Exception) -> str:
    """Why a call could not be judged, for the audit trail (field paths included)."""
    if isinstance(exc, RequestValidationError):
        where = "the endpoint refused the call" if exc.request_id else "the call cannot be judged"
        return f"{where}: {exc}"
    return f"{type(exc).__name__}: {exc}"
