"""`clef-tools serve` and `clef-tools mcp --http` as users start them: console scripts in
their own processes, with their flags, over loopback."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from _loopback import MCP_INITIALIZE, MCP_JSONRPC, console_script

from clef_tools import ReadoutDecider

LATE = {"late": {"type": "noul", "instructions": "Is a parcel late?"}}
KEY = {"authorization": "Bearer s3cret-key"}


@contextmanager
def started(*args: str) -> Iterator[str]:
    env = {**os.environ, "CLEF_TEST_KEY": "s3cret-key"}
    with console_script(*args, "--api-key-env", "CLEF_TEST_KEY", env=env) as url:
        yield url


@pytest.fixture(scope="module")
def serve_url() -> Iterator[str]:
    flags = ["--max-body-mb", "0.01", "--timeout", "3", "--max-queue", "4"]
    hosts = ["--allowed-host", "api.internal", "--allowed-origin", "https://app.example"]
    with started("serve", "--model", "smollm2", "--dtype", "fp32", *flags, *hosts) as url:
        deadline = time.monotonic() + 180
        while httpx.get(f"{url}/readyz", timeout=30).status_code != 200:
            assert time.monotonic() < deadline, "the model did not load"
            time.sleep(0.5)
        # the first forward pass pays for lazy set-up and can outlast --timeout 3 on a busy
        # CPU: warm the server up before the tests time its answers
        warm = {"state": "warm up", "questions": LATE}
        post = f"{url}/v1/systemone"
        while httpx.post(post, json=warm, headers=KEY, timeout=60).status_code == 504:
            assert time.monotonic() < deadline, "the model never answered within --timeout"
        yield url


def test_serve_answers_as_the_python_api_does(serve_url: str, smollm2: ReadoutDecider) -> None:
    body = {"state": "my parcel is late", "questions": LATE}
    answer = httpx.post(f"{serve_url}/v1/systemone", json=body, headers=KEY, timeout=60)
    assert answer.status_code == 200, answer.text
    direct = smollm2.decide("my parcel is late", LATE).nouls["late"].noul
    assert answer.json()["answers"]["late"]["noul"] == pytest.approx(direct, abs=1e-4)


def test_serve_flags_take_effect(serve_url: str) -> None:
    body = {"state": "my parcel is late", "questions": LATE}
    post = f"{serve_url}/v1/systemone"
    assert httpx.post(post, json=body, timeout=60).status_code == 401  # --api-key-env
    big = {"state": "x" * 20_000, "questions": LATE}
    assert httpx.post(post, json=big, headers=KEY, timeout=60).status_code == 413  # --max-body-mb
    named = httpx.post(post, json=body, headers={**KEY, "host": "api.internal"}, timeout=60)
    assert named.status_code == 200  # --allowed-host
    foreign = httpx.post(post, json=body, headers={**KEY, "host": "evil.example"}, timeout=60)
    assert foreign.status_code == 421
    app = httpx.post(post, json=body, headers={**KEY, "origin": "https://app.example"}, timeout=60)
    assert app.status_code == 200  # --allowed-origin
    other = httpx.post(post, json=body, headers={**KEY, "origin": "https://evil.example"})
    assert other.status_code == 403
    slow = {
        "state": "A long complaint about a parcel. " * 30,
        "questions": {f"q{i}": {"type": "noul", "instructions": f"Is {i} so?"} for i in range(64)},
    }
    late = httpx.post(post, content=json.dumps(slow)[:2000].encode(), headers=KEY, timeout=60)
    assert late.status_code == 422  # a truncated body: refused, not a 5xx
    timed = httpx.post(post, json={**slow, "state": "Parcel. " * 100}, headers=KEY, timeout=60)
    assert timed.status_code == 504  # --timeout 3: 64 questions take SmolLM2 ten seconds or more
    assert httpx.get(f"{serve_url}/healthz", timeout=10).json()["max_queue"] == 4  # --max-queue


def test_mcp_http_sessions_get_delete_and_limits() -> None:
    with started("mcp", "--http", "--model", "smollm2", "--max-sessions", "2") as url:
        mcp = f"{url}/mcp"
        headers = {**MCP_JSONRPC, **KEY}
        assert (
            httpx.post(mcp, json=MCP_INITIALIZE, headers=MCP_JSONRPC, timeout=30).status_code == 401
        )
        # GET opens a session's server-to-client stream: without a session it is refused
        stray = httpx.get(mcp, headers={**KEY, "accept": "text/event-stream"}, timeout=30)
        assert 400 <= stray.status_code < 500
        first = httpx.post(mcp, json=MCP_INITIALIZE, headers=headers, timeout=30)
        second = httpx.post(mcp, json=MCP_INITIALIZE, headers=headers, timeout=30)
        third = httpx.post(mcp, json=MCP_INITIALIZE, headers=headers, timeout=30)
        assert (first.status_code, second.status_code, third.status_code) == (200, 200, 503)
        session = {**headers, "mcp-session-id": first.headers["mcp-session-id"]}
        session["mcp-protocol-version"] = "2025-06-18"
        listed = httpx.post(
            mcp, json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, headers=session
        )
        assert listed.status_code == 200
        # DELETE ends the session: it is gone, and its slot is free for a new client
        assert httpx.delete(mcp, headers=session, timeout=30).status_code == 200
        gone = httpx.post(
            mcp, json={"jsonrpc": "2.0", "id": 3, "method": "tools/list"}, headers=session
        )
        assert gone.status_code == 404
        assert httpx.post(mcp, json=MCP_INITIALIZE, headers=headers, timeout=30).status_code == 200
