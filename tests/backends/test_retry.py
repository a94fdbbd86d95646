"""Retry timing and the small pure helpers the HTTP layer relies on."""

from __future__ import annotations

import email.utils

import pytest

from clef_tools import RetryPolicy
from clef_tools._net import is_loopback
from clef_tools.backends.hosted._retry import parse_retry_after, request_id_from


def test_retry_after_seconds_and_http_dates() -> None:
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(" 0.5 ") == 0.5
    assert parse_retry_after("-4") == 0.0
    now = 1_800_000_000.0
    date = email.utils.formatdate(now + 30, usegmt=True)
    assert parse_retry_after(date, now=now) == pytest.approx(30.0)
    assert parse_retry_after(email.utils.formatdate(now - 30, usegmt=True), now=now) == 0.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


def test_delay_policy() -> None:
    policy = RetryPolicy(max_retries=2, backoff_s=1.0, max_backoff_s=3.0, max_retry_after_s=10.0)
    assert policy.delay(2, None) is None  # retries used up
    assert policy.delay(0, 4.0) == 4.0  # the server's retry-after wins
    assert policy.delay(0, 11.0) is None  # too long to wait in a request path
    for attempt, ceiling in ((0, 1.0), (1, 2.0)):
        for _ in range(50):
            delay = policy.delay(attempt, None)
            assert delay is not None and ceiling / 2 <= delay <= ceiling
    assert RetryPolicy(max_retries=9, backoff_s=1.0, max_backoff_s=3.0).delay(5, None) <= 3.0  # type: ignore[operator]


def test_request_id_header_precedence() -> None:
    assert request_id_from({"cf-ray": "r", "cf-ai-req-id": "c"}) == "c"
    assert request_id_from({"cf-ray": "r", "x-typesafe-request-id": "t"}) == "t"
    assert request_id_from({}) is None


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("192.168.1.4", False),
        ("example.com", False),
    ],
)
def test_loopback_detection(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
