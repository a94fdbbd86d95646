"""Bounds on streamable-HTTP sessions, so that one client cannot lock the others out.

The SDK keeps up to 10,000 sessions for 30 idle minutes each: 10,000 `initialize` calls in
70 s once filled the table, and every new client was refused for half an hour. Here the
table is smaller, idle sessions go sooner, and each client address may open only a few
sessions per window (a token bucket), answered 429 with `retry-after` past that. Requests
inside an existing session are never limited here.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["NewSessionRateLimit", "SessionLimits"]


@dataclass(frozen=True)
class SessionLimits:
    max_sessions: int = 256
    idle_timeout_s: float = 300.0
    new_per_client: int = 20
    """Sessions one client address may open in a burst; the bucket refills at
    `new_per_client` per `window_s`."""
    window_s: float = 60.0

    def __post_init__(self) -> None:
        if self.max_sessions < 1 or self.new_per_client < 1:
            raise ValueError("max_sessions and new_per_client must be at least 1")
        if not (self.idle_timeout_s > 0 and self.window_s > 0):
            raise ValueError("idle_timeout_s and window_s must be positive")


class NewSessionRateLimit:
    """A token bucket per client address for requests that open a session (a POST
    without `mcp-session-id`); at most 4096 addresses are tracked (the oldest dropped)."""

    _TRACKED = 4096

    def __init__(self, app: ASGIApp, limits: SessionLimits) -> None:
        self.app = app
        self.limits = limits
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            headers = Headers(scope=scope)
            if "mcp-session-id" not in headers and not self._take(_client(scope)):
                await _too_many(send, self.limits.window_s / self.limits.new_per_client)
                return
        await self.app(scope, receive, send)

    def _take(self, client: str) -> bool:
        rate = self.limits.new_per_client / self.limits.window_s
        now = time.monotonic()
        tokens, at = self._buckets.pop(client, (float(self.limits.new_per_client), now))
        tokens = min(float(self.limits.new_per_client), tokens + (now - at) * rate)
        allowed = tokens >= 1.0
        self._buckets[client] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > self._TRACKED:
            self._buckets.popitem(last=False)
        return allowed


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


async def _too_many(send: Send, retry_after_s: float) -> None:
    body = json.dumps(
        {
            "detail": {
                "error_type": "rate_limited",
                "message": "this client opens sessions too fast; reuse its session or retry",
            }
        }
    ).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(max(1, round(retry_after_s))).encode()),
    ]
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": body})
