"""When to retry a hosted call, and how long to wait: one policy for every HTTP backend.

Hosted decision endpoints shed load with 429 and the non-standard 529 ("Overloaded"),
sometimes with `retry-after`. Retrying those with capped, jittered backoff is what the
official SDKs do; retrying a validation error or a spent daily quota only burns time, so
the caller decides per response whether it is retryable at all.
"""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["REQUEST_ID_HEADERS", "RetryPolicy", "parse_retry_after", "request_id_from"]

#: Where hosted endpoints put the id to quote to their support: TypeSafe, Workers AI,
#: then Cloudflare's edge id as a last resort.
REQUEST_ID_HEADERS = ("x-typesafe-request-id", "cf-ai-req-id", "cf-ray")

#: Status codes that mean "try again shortly" (529 is TypeSafe's and Workers AI's overload).
RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504, 529})


def request_id_from(headers: Mapping[str, str]) -> str | None:
    for name in REQUEST_ID_HEADERS:
        value = headers.get(name)
        if value:
            return value
    return None


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a `retry-after` header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


@dataclass(frozen=True)
class RetryPolicy:
    """Capped exponential backoff with jitter; a server's `retry-after` wins when given.

    A `retry-after` longer than `max_retry_after_s` is not waited out: the call fails at
    once with `RateLimitError.retry_after` set, because a request-path decision that
    waits a minute is worse than an error the caller can route around.
    """

    max_retries: int = 2
    backoff_s: float = 0.25
    max_backoff_s: float = 4.0
    max_retry_after_s: float = 20.0

    def delay(self, attempt: int, retry_after: float | None) -> float | None:
        """Seconds to wait before retry number `attempt + 1`, or `None` to give up."""
        if attempt >= self.max_retries:
            return None
        if retry_after is not None:
            return retry_after if retry_after <= self.max_retry_after_s else None
        ceiling = min(self.max_backoff_s, self.backoff_s * 2.0**attempt)
        return ceiling / 2 + random.uniform(0, ceiling / 2)
