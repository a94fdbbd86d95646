"""One-time tokens that tie a review to a call the gate escalated.

A review teaches the gate, so whoever can write one can steer it. Over MCP the caller is
the agent under review; letting it report "the user approved" would let a prompt
injection approve its own calls. So a review may only follow an escalation, names that
escalation by a token issued with the verdict, is taken once, and the answer itself comes
from a person through a channel the agent does not speak for (an MCP elicitation, a
hook's prompt, a LangChain interrupt).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from clef_tools.gate._reviews import ReviewError

__all__ = ["PendingCall", "PendingReviews"]


@dataclass(frozen=True)
class PendingCall:
    """An escalated call waiting for a person's answer."""

    tool: str
    args: dict[str, Any]
    description: str | None
    messages: Sequence[Any] | str | None
    risk: float | None
    issued_at: float


class PendingReviews:
    """Tokens for escalated calls: at most `capacity` at once (the oldest go first), each
    valid for `ttl_s` seconds and taken at most once."""

    def __init__(self, *, capacity: int = 1024, ttl_s: float = 3600.0) -> None:
        if capacity < 1 or ttl_s <= 0:
            raise ValueError("capacity must be at least 1 and ttl_s positive")
        self.capacity = capacity
        self.ttl_s = ttl_s
        self._calls: OrderedDict[str, PendingCall] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            self._expire(time.monotonic())
            return len(self._calls)

    def issue(
        self,
        tool: str,
        args: Mapping[str, Any],
        *,
        description: str | None = None,
        messages: Sequence[Any] | str | None = None,
        risk: float | None = None,
    ) -> str:
        token = secrets.token_urlsafe(18)
        now = time.monotonic()
        call = PendingCall(tool, dict(args), description, messages, risk, now)
        with self._lock:
            self._expire(now)
            self._calls[token] = call
            while len(self._calls) > self.capacity:
                self._calls.popitem(last=False)
        return token

    def peek(self, token: str) -> PendingCall:
        """The call the token was issued for, leaving the token unspent (to ask the person
        about it before the answer is taken)."""
        return self._find(token, spend=False)

    def take(self, token: str) -> PendingCall:
        """The call the token was issued for; the token is spent whatever happens next."""
        return self._find(token, spend=True)

    def _find(self, token: str, *, spend: bool) -> PendingCall:
        with self._lock:
            self._expire(time.monotonic())
            call = None
            if isinstance(token, str):
                call = self._calls.pop(token, None) if spend else self._calls.get(token)
        if call is None:
            raise ReviewError(
                "review_token: unknown, expired or already used; a review needs the token "
                "issued with an escalate verdict"
            )
        return call

    def _expire(self, now: float) -> None:
        while self._calls:
            token, call = next(iter(self._calls.items()))
            if now - call.issued_at < self.ttl_s:
                return
            del self._calls[token]
