"""The risks the gate recently gave calls, for the reviews that come after.

A human reviews a call some time after the gate judged it (an interrupt resumes, an MCP
client calls `record_review`). What the review corrects is the risk the gate gave that call,
so the gate keeps it here, keyed by the call and its request, until the review arrives.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools._lru import BoundedLRU
from clef_tools.gate._evidence import request_text

__all__ = ["JudgedRisks"]


class JudgedRisks:
    """The risk each recently judged call got before reviews, so that a human's review of
    it (which comes later, through `record_review`) can say what it corrects. Bounded:
    the oldest are forgotten first."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._risks: BoundedLRU[str, tuple[float, str]] = BoundedLRU(size)
        self._lock = threading.Lock()

    @staticmethod
    def key(name: str, args: Mapping[str, Any], messages: Sequence[Any] | str | None) -> str:
        text = json.dumps([name, args, request_text(messages)], sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    def remember(self, key: str, risk: float, risk_model: str) -> None:
        with self._lock:
            self._risks.put(key, (risk, risk_model))

    def get(self, key: str) -> tuple[float, str] | None:
        with self._lock:
            return self._risks.peek(key)
