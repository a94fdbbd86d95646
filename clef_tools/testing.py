"""Deciders for testing code built on clef-tools, without a model: answers at once,
answers fixed in advance, answers that echo the request, a backend that crashes, one that
stalls. Each goes through every layer a real backend does (validation, answer building,
confidence), so a surface or a gate under test sees what it would see in production.

    from clef_tools.testing import FixedDecider
    gate = ToolGate(FixedDecider([0.9, 0.1]))   # every yes/no question: P(yes) = 0.9

Our own suite and benchmarks use these too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from clef_tools.backends._base import Decider, RequestScores
from clef_tools.protocol._validation import DecisionRequest

__all__ = ["BrokenDecider", "EchoDecider", "FixedDecider", "InstantDecider", "SlowDecider"]


class BrokenDecider(Decider):
    """A backend whose forward pass fails (e.g. out of memory)."""

    @property
    def model_id(self) -> str:
        return "broken"

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        raise RuntimeError("backend crashed: CUDA out of memory")


class SlowDecider(Decider):
    """A real decider behind a stall, to drive the timeout path."""

    def __init__(self, inner: Decider, delay: float) -> None:
        self.inner, self.delay = inner, delay
        self.finished = threading.Event()
        """Set when a stalled call has really finished (tests wait for abandoned work)."""

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        time.sleep(self.delay)
        try:
            return self.inner._score(requests)
        finally:
            self.finished.set()


class InstantDecider(Decider):
    """Uniform answers at once: for tests of a surface (HTTP, MCP, CLI) where the model's
    time would only slow thousands of generated requests down. It still goes through
    every layer a real backend does (validation, answer building, confidence)."""

    @property
    def model_id(self) -> str:
        return "instant"

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        out = []
        for request in requests:
            probabilities = {}
            for qid, question in request.questions.items():
                n = 2 if question.type == "noul" else len(question.criteria)  # type: ignore[union-attr]
                probabilities[qid] = [1.0 / n] * n
            out.append(RequestScores(probabilities=probabilities, input_tokens=0))
        return out


class EchoDecider(Decider):
    """Answers that depend on the request alone (P(yes) from a digest of the state and the
    question id), at once: concurrent callers that got each other's answers would see it."""

    @property
    def model_id(self) -> str:
        return "echo"

    @staticmethod
    def expected(state: str, qid: str) -> float:
        import hashlib

        digest = hashlib.sha256(f"{state}\0{qid}".encode()).digest()
        return round(0.01 + 0.98 * digest[0] / 255, 6)

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        out = []
        for request in requests:
            state = request.state if isinstance(request.state, str) else repr(request.state)
            probabilities = {}
            for qid in request.questions:
                p = self.expected(state, qid)
                probabilities[qid] = [p, 1.0 - p]  # P(yes) first, as the readout gives it
            out.append(RequestScores(probabilities=probabilities, input_tokens=len(state)))
        return out


class FixedDecider(Decider):
    """Every yes/no answer is the same numbers (`values`, P(yes) first; possibly broken, to
    drive the fail-closed paths), whatever it is asked: the model's part of a gate's risk
    held still. `calls` counts the passes asked of it."""

    def __init__(self, values: list[float]) -> None:
        self.values = values
        self.calls = 0

    @property
    def model_id(self) -> str:
        return "fixed"

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        self.calls += 1
        return [
            RequestScores(probabilities={q: list(self.values) for q in r.questions}, input_tokens=0)
            for r in requests
        ]
