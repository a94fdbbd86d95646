"""The backend-neutral interface every surface (LangChain, MCP, CLI, HTTP) talks to.

A backend implements one method, `_score`, that turns validated requests into
probabilities. Validation, answer building and confidence live here, once, so every
backend answers with the same shapes and the same confidence maths.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Self

import anyio.to_thread

from clef_tools.backends._cancel import cancellable
from clef_tools.backends._microbatch import MicroBatcher
from clef_tools.decisions import ClassifierRequest, ClassifierResponse, State
from clef_tools.protocol._confidence import build_answer
from clef_tools.protocol._errors import (
    BackendError,
    ClefError,
    RequestValidationError,
    UnsupportedInputError,
)
from clef_tools.protocol._types import SCORED_TYPES
from clef_tools.protocol._validation import DecisionRequest, option_labels, validate_request

__all__ = ["BackendInfo", "Decider", "RequestScores", "TieredResponse"]

RequestLike = ClassifierRequest | DecisionRequest | Mapping[str, Any]

StateLike = State | Mapping[str, object] | Sequence[object]
"""What `decide` takes as a state. Wider than LangChain's `State` because a dict literal with
mixed values (`{"user": text, "call": {...}}`) is inferred as `dict[str, object]`, which
`State` rejects; the request validator checks the value itself and names any bad field."""


@dataclass
class RequestScores:
    """A backend's raw result for one request: probabilities in option order.

    Option order per question: noul `[true, false]`, choice the criteria's insertion
    order, score levels `0..N-1`.
    """

    probabilities: dict[str, list[float]]
    input_tokens: int
    model: str | None = None
    """The model that answered, when a remote reports one (an alias may resolve to a
    pinned version); `None` means the backend's `model_id`."""
    request_id: str | None = None
    """The remote request id (`x-typesafe-request-id`, `cf-ai-req-id`, `cf-ray`)."""
    upstream_confidence: dict[str, float | None] | None = None
    """Per question, the confidence a remote server sent (its own formula); `None` for
    local backends, whose answers carry only the recomputed confidence."""
    tiers: dict[str, str] | None = None
    """Per question, which tier of a cascade decided it (`embedding`, `lm`, ...)."""


@dataclass(frozen=True)
class BackendInfo:
    """What a backend is, for surfaces that describe it (`model_info`, `clef-tools model`),
    so none of them needs to look inside a concrete backend class."""

    kind: str
    """`readout`, `release`, `systemone`, `workers-ai`, `embedding`, `cascade`, `cached`, …"""
    model_id: str
    supported_types: frozenset[str]
    dtype: str | None = None
    device: str | None = None
    max_context_tokens: int | None = None
    calibration: str | None = None
    contextual_calibration: tuple[str, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)
    """Backend-specific facts (a cascade's tiers, an endpoint's URL)."""

    @property
    def examples(self) -> Mapping[str, Any] | None:
        """What the example index in use holds (labels, counts, embedding model), if any:
        this backend's own or its fast tier's."""
        if "examples" in self.details:
            found: Mapping[str, Any] = self.details["examples"]
            return found
        fast = self.details.get("fast")
        return fast.examples if isinstance(fast, BackendInfo) else None


class ClefResponse(ClassifierResponse):
    """A `ClassifierResponse` that also names the calibration its probabilities went through
    (`None`: raw), so a threshold tuned on one calibration is not silently reused on another."""

    calibration: str | None = None


class TieredResponse(ClefResponse):
    """A response from a cascade: `tiers` says which tier decided each answer."""

    tiers: dict[str, str]


class Decider(ABC):
    """Answers System One requests: `decide(state, questions) -> ClassifierResponse`.

    Subclasses implement `_score` (and may override `_ascore` when they are natively
    async). Everything a caller sees — validation errors, answers, confidence — is
    produced here.
    """

    supported_types: frozenset[str] = frozenset(SCORED_TYPES)
    """Question types this backend can answer; others get `UnsupportedInputError`."""

    batch_window_ms: float = 0.0
    """> 0: concurrent async callers arriving within this window share one `_score` call
    (micro-batching; worth it for backends that pad requests into one forward)."""
    max_batch_requests: int = 8

    calibration_id: str | None = None
    """The calibration applied to this backend's probabilities (`CalibratedDecider` sets it)."""

    @property
    @abstractmethod
    def model_id(self) -> str:
        """The model that answers, as reported in `ClassifierResponse.model`."""

    @abstractmethod
    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        """Probabilities for each already-validated request, in order."""

    async def _ascore(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        if self.batch_window_ms > 0:
            return await self._micro_batcher.submit(requests)
        # abandon_on_cancel: a cancelled or timed-out caller returns at once; the work in
        # the worker thread sees the event set and stops at its next check (`_cancel`).
        with cancellable() as cancel:
            try:
                return await anyio.to_thread.run_sync(self._score, requests, abandon_on_cancel=True)
            except BaseException:
                cancel.set()
                raise

    @cached_property
    def _micro_batcher(self) -> MicroBatcher:
        return MicroBatcher(self._score, self.batch_window_ms / 1000.0, self.max_batch_requests)

    # -- public API -------------------------------------------------------------------

    def close(self) -> None:
        """Release what this backend holds open (HTTP connections); a no-op for local
        models. Wrappers close what they wrap."""
        for inner in self._wrapped():
            inner.close()

    async def aclose(self) -> None:
        for inner in self._wrapped():
            await inner.aclose()

    def _wrapped(self) -> list[Decider]:
        """The backends this one delegates to: wrappers (a calibration, a cache, a
        cascade) name theirs."""
        return []

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def info(self) -> BackendInfo:
        """What this backend is; subclasses add what they know (dtype, limits, …)."""
        return BackendInfo(
            kind=type(self).__name__, model_id=self.model_id, supported_types=self.supported_types
        )

    def score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        """Raw probabilities for validated requests, with every failure a `ClefError`:
        what wrappers (cascades, caches) call on the backends they wrap."""
        return self._run_scorer(lambda: self._score(requests))

    async def ascore(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        """Async twin of `score`."""
        try:
            return await self._ascore(requests)
        except ClefError:
            raise
        except Exception as exc:
            raise _backend_error(self.model_id, exc) from exc

    def decide(self, state: StateLike, questions: Mapping[str, Any]) -> ClassifierResponse:
        """Answer one request."""
        return self.decide_batch([{"state": state, "questions": questions}])[0]

    async def adecide(self, state: StateLike, questions: Mapping[str, Any]) -> ClassifierResponse:
        """Async twin of `decide`."""
        return (await self.adecide_batch([{"state": state, "questions": questions}]))[0]

    def decide_batch(self, requests: Sequence[RequestLike]) -> list[ClassifierResponse]:
        """Answer several requests together, so a backend can batch them."""
        valid = self.prepare(requests)
        return self._respond(valid, self.score(valid))

    def decide_each(self, requests: Sequence[RequestLike]) -> list[ClassifierResponse | ClefError]:
        """Like `decide_batch`, but a bad request yields its error in place and the valid
        ones are still scored together (what `Runnable.batch(return_exceptions=True)` needs).
        A backend failure is reported for every valid request."""
        slots = self._slots(requests)
        valid = [s for s in slots if isinstance(s, DecisionRequest)]
        answers: list[ClassifierResponse | ClefError]
        try:
            answers = list(self._respond(valid, self.score(valid)))
        except ClefError as exc:
            answers = [exc] * len(valid)
        return _merge(slots, answers)

    async def adecide_each(
        self, requests: Sequence[RequestLike]
    ) -> list[ClassifierResponse | ClefError]:
        """Async twin of `decide_each`."""
        slots = self._slots(requests)
        valid = [s for s in slots if isinstance(s, DecisionRequest)]
        answers: list[ClassifierResponse | ClefError]
        try:
            answers = list(self._respond(valid, await self.ascore(valid)))
        except ClefError as exc:
            answers = [exc] * len(valid)
        return _merge(slots, answers)

    def _slots(self, requests: Sequence[RequestLike]) -> list[DecisionRequest | ClefError]:
        slots: list[DecisionRequest | ClefError] = []
        for req in requests:
            try:
                slots.append(self.prepare([req])[0])
            except ClefError as exc:
                slots.append(exc)
        return slots

    async def adecide_batch(self, requests: Sequence[RequestLike]) -> list[ClassifierResponse]:
        """Async twin of `decide_batch`. Validation runs in a worker thread: a request of
        megabytes takes a second to check, and the event loop serves everyone else."""
        valid = await anyio.to_thread.run_sync(self.prepare, requests)
        return self._respond(valid, await self.ascore(valid))

    def prepare(self, requests: Sequence[RequestLike]) -> list[DecisionRequest]:
        """Validate requests (loc prefixed with the index when there are several)."""
        out = []
        many = len(requests) > 1
        for i, req in enumerate(requests):
            prefix: tuple[str | int, ...] = (i,) if many else ()
            if isinstance(req, DecisionRequest):
                valid = req
            elif isinstance(req, Mapping):
                missing = [k for k in ("state", "questions") if k not in req]
                if missing:
                    raise RequestValidationError.at(
                        (*prefix, missing[0]), "field required", "missing"
                    )
                valid = validate_request(req["state"], req["questions"], loc_prefix=prefix)
            else:
                raise RequestValidationError.at(
                    prefix or ("request",),
                    "a request is an object with `state` and `questions`",
                    "type_error",
                )
            for qid, question in valid.questions.items():
                if question.type not in self.supported_types:
                    path = ".".join(str(p) for p in (*prefix, "questions", qid, "type"))
                    raise UnsupportedInputError(
                        path, f"{self.model_id} cannot answer {question.type!r} questions"
                    )
            self.check_supported(valid, prefix)
            out.append(valid)
        return out

    def check_supported(  # noqa: B027 - optional hook, a no-op by default
        self, request: DecisionRequest, loc_prefix: tuple[str | int, ...]
    ) -> None:
        """Hook for backend-specific refusals (e.g. images on a text-only model)."""

    # -- internals --------------------------------------------------------------------

    def _run_scorer(self, fn: Any) -> list[RequestScores]:
        """The one boundary where torch/transformers/HTTP errors become `BackendError`."""
        try:
            result: list[RequestScores] = fn()
        except ClefError:
            raise
        except Exception as exc:
            raise _backend_error(self.model_id, exc) from exc
        return result

    def _checked_probabilities(
        self, qid: str, question: Any, probs: Sequence[float]
    ) -> list[float]:
        """A backend's numbers, refused unless they are a probability distribution.

        NaN, ±inf, negative or non-normalised numbers from a broken or custom backend
        would otherwise flow into thresholds (`NaN < 0.5` is false: a gate would allow);
        here they become a `BackendError`, which every gate turns into its `on_error`.
        Hosted servers round to 4 decimals, so the sum may be off by that much per option.
        """
        n = len(option_labels(question))
        values = [float(p) for p in probs]
        slack = 1e-6 + 5e-5 * n
        bad = (
            len(values) != n
            or not all(math.isfinite(p) and -slack <= p <= 1.0 + slack for p in values)
            or abs(sum(values) - 1.0) > max(1e-3, slack)
        )
        if bad:
            shown = ", ".join(f"{p:.4g}" for p in values[:8])
            raise BackendError(
                f"{self.model_id} returned invalid probabilities for {qid!r} "
                f"({len(values)} values for {n} options: {shown})"
            )
        return [min(1.0, max(0.0, p)) for p in values]

    def _respond(
        self, requests: Sequence[DecisionRequest], scores: Sequence[RequestScores]
    ) -> list[ClassifierResponse]:
        if len(scores) != len(requests):
            raise BackendError(
                f"{self.model_id} returned {len(scores)} results for {len(requests)} requests"
            )
        responses: list[ClassifierResponse] = []
        for req, sc in zip(requests, scores, strict=True):
            answers: dict[str, Any] = {}
            for qid, question in req.questions.items():
                if qid not in sc.probabilities:
                    raise BackendError(f"{self.model_id} returned no answer for question {qid!r}")
                upstream = sc.upstream_confidence
                answers[qid] = build_answer(
                    question,  # type: ignore[arg-type]
                    self._checked_probabilities(qid, question, sc.probabilities[qid]),
                    upstream=upstream is not None,
                    upstream_confidence=upstream.get(qid) if upstream is not None else None,
                )
            fields: dict[str, Any] = {
                "model": sc.model or self.model_id,
                "answers": answers,
                "usage": {"input_tokens": sc.input_tokens, "output_tokens": 0},
                "request_id": sc.request_id,
                "calibration": self.calibration_id,
            }
            if sc.tiers is not None:
                responses.append(TieredResponse(**fields, tiers=sc.tiers))
            else:
                responses.append(ClefResponse(**fields))
        return responses


def _backend_error(model_id: str, exc: Exception) -> BackendError:
    return BackendError(f"{model_id} failed: {type(exc).__name__}: {exc}")


def _merge(
    slots: Sequence[DecisionRequest | ClefError], answers: Sequence[ClassifierResponse | ClefError]
) -> list[ClassifierResponse | ClefError]:
    """Answers back into the slots of the valid requests; errors stay where they were."""
    it = iter(answers)
    return [next(it) if isinstance(s, DecisionRequest) else s for s in slots]
