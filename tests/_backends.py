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
