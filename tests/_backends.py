"""Deciders that fail on purpose, for the fail-closed tests of the gates.

A backend that crashes or stalls cannot be produced on demand from a real model, so these
wrap a real decider (or none) behind a crash or a delay.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from clef_tools import Decider, DecisionRequest, ReadoutDecider, RequestScores


class BrokenDecider(Decider):
    """A backend whose forward pass fails (e.g. out of memory)."""

    @property
    def model_id(self) -> str:
        return "broken"

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        raise RuntimeError("backend crashed: CUDA out of memory")


class SlowDecider(Decider):
    """A real decider behind a stall, to drive the timeout path."""

    def __init__(self, inner: ReadoutDecider, delay: float) -> None:
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
