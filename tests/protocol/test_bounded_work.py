"""Bounded work, stopped when nobody waits; and the small holes of the second attack pass.

Each test failed on 40879ed: a 64 × 255-option request ran for minutes, a client that left
did not stop its work, trickled and invalid bodies took queue slots, `/healthz` was all
there was, a lone-surrogate key gave a 500, a 10 MiB `model` field was accepted, an unset
`--api-key-env` turned auth off, `--host 0` was not warned about, MCP sessions could be
opened without bound, and `python -m` ran an `anyio.py` from the working directory.
"""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from _loopback import MCP_INITIALIZE, MCP_JSONRPC, serving

from clef_tools import ReadoutDecider, RequestValidationError, create_app
from clef_tools._net import is_loopback, is_wildcard
from clef_tools.serving._server import warn_if_exposed
from clef_tools.testing import InstantDecider, SlowDecider

BODY: dict[str, Any] = {
    "state": "My parcel never arrived",
    "questions": {"late": {"type": "noul", "instructions": "Late?"}},
}
HUGE: dict[str, Any] = {
    "state": "hello",
    "questions": {
        f"q{i}": {
            "type": "choice",
            "instructions": "Which one?",
            "criteria": {f"o{j}": "an option described at some length " * 4 for j in range(255)},
        }
        for i in range(64)
    },
}


def _fresh(smollm2: ReadoutDecider, **options: Any) -> ReadoutDecider:
    return ReadoutDecider(smollm2.model, smollm2.tokenizer, model_id="x", **options)


def _post(url: str, body: Any, **headers: str) -> httpx.Response:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    return httpx.post(f"{url}/v1/systemone", content=content, headers=headers, timeout=60)


# -- a work budget, checked before any forward pass ------------------------------------------


def test_a_request_over_the_work_budget_is_refused_before_any_forward(
    smollm2: ReadoutDecider,
) -> None:
    d = _fresh(smollm2)
    start = time.monotonic()
    with pytest.raises(RequestValidationError, match="max_work_tokens") as caught:
        d.decide(HUGE["state"], HUGE["questions"])
    assert time.monotonic() - start < 30 and d._forward.forwards == 0
    issue = caught.value.issues[0]
    assert issue.loc == ("questions",) and issue.type == "work_budget"
    assert f"{d.max_work_tokens:,}" in issue.msg
    # the budget is the operator's: a tight one refuses what the default lets through
    one = {"q": {**HUGE["questions"]["q0"], "criteria": {"a": "one", "b": "two"}}}
    assert d.decide("hello", one).choices["q"].choice in ("a", "b")
    with pytest.raises(RequestValidationError, match="budget of 10 "):
        _fresh(smollm2, max_work_tokens=10).decide("hello", one)


def test_the_work_budget_is_a_422_naming_the_field_over_http(smollm2: ReadoutDecider) -> None:
    with serving(create_app(_fresh(smollm2))) as u:
        refused = _post(u, HUGE)
    assert refused.status_code == 422
    (detail,) = refused.json()["detail"]
    assert detail["loc"] == ["body", "questions"] and "budget" in detail["msg"]


# -- work stops when the client leaves -----------------------------------------------------------


def test_a_client_that_disconnects_stops_its_work(smollm2: ReadoutDecider) -> None:
    d = _fresh(smollm2, prefix_cache_tokens=0)
    big = {
        "state": "A long complaint about a parcel that never came. " * 10,
        "questions": {
            f"q{i}": {"type": "noul", "instructions": f"Is statement {i} true?"} for i in range(64)
        },
    }
    with serving(create_app(d)) as u:
        port = int(u.rsplit(":", 1)[1])
        body = json.dumps(big).encode()
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(
                b"POST /v1/systemone HTTP/1.1\r\nhost: 127.0.0.1\r\n"
                b"content-type: application/json\r\n"
                + f"content-length: {len(body)}\r\n\r\n".encode()
                + body
            )
            time.sleep(0.5)  # scoring has begun
        time.sleep(0.5)  # the pass in flight may finish
        stopped_at = d._forward.forwards
        time.sleep(1.5)
        assert d._forward.forwards == stopped_at  # nothing more ran after the client left
        assert stopped_at < 64  # 64 priors + 64 rows would have run to the end
        assert _post(u, BODY).status_code == 200


# -- queue slots go to requests that arrived -------------------------------------------------------


def test_trickled_and_invalid_bodies_take_no_queue_slot(smollm2: ReadoutDecider) -> None:
    with serving(create_app(smollm2, max_queue=1, body_timeout_s=5.0)) as u:
        port = int(u.rsplit(":", 1)[1])
        trickling = []
        for _ in range(4):
            conn = socket.create_connection(("127.0.0.1", port))
            conn.sendall(
                b"POST /v1/systemone HTTP/1.1\r\nhost: 127.0.0.1\r\n"
                b"content-type: application/json\r\ncontent-length: 500\r\n\r\n{"
            )
            trickling.append(conn)
        time.sleep(0.3)
        try:
            real = _post(u, BODY)
            invalid = [_post(u, b"{not json") for _ in range(5)]
        finally:
            for conn in trickling:
                conn.close()
    assert real.status_code == 200
    assert [r.status_code for r in invalid] == [422] * 5


# -- liveness stays cheap, readiness asks the scorer -------------------------------------------------


def test_readiness_reflects_the_scorer_and_liveness_stays_cheap(smollm2: ReadoutDecider) -> None:
    with serving(create_app(smollm2)) as u:
        ready = httpx.get(f"{u}/readyz", timeout=30)
    assert ready.status_code == 200 and ready.json()["status"] == "ready"
    stuck = SlowDecider(smollm2, 3.0)
    with serving(create_app(stuck, ready_probe_timeout_s=0.3)) as u:
        start = time.monotonic()
        alive = httpx.get(f"{u}/healthz", timeout=30)
        alive_s = time.monotonic() - start
        not_ready = httpx.get(f"{u}/readyz", timeout=30)
    assert alive.status_code == 200 and alive_s < 1.5  # well inside the model's 3 s stall
    assert not_ready.status_code == 503 and "0.3 s" in not_ready.json()["reason"]


def test_readiness_is_open_like_health_but_the_api_is_not(smollm2: ReadoutDecider) -> None:
    with serving(create_app(InstantDecider(), api_key="k3y")) as u:
        assert httpx.get(f"{u}/readyz").status_code == 200
        assert _post(u, BODY).status_code == 401


# -- small holes ----------------------------------------------------------------------------


def test_a_lone_surrogate_key_and_a_huge_model_name_are_422s(smollm2: ReadoutDecider) -> None:
    surrogate = (
        b'{"\\ud800": 1, "state": "x", "questions": {"q": {"type": "noul", "instructions": "?"}}}'
    )
    with serving(create_app(InstantDecider())) as u:
        bad_key = _post(u, surrogate)
        huge_model = _post(u, {**BODY, "model": "m" * (10 * 1024 * 1024)})
        fine_model = _post(u, {**BODY, "model": "instant"})
    assert bad_key.status_code == 422
    assert bad_key.json()["detail"][0]["loc"] == ["body", "\\ud800"]
    assert huge_model.status_code == 422
    assert huge_model.json()["detail"][0]["loc"] == ["body", "model"]
    assert "at most 256 characters" in huge_model.json()["detail"][0]["msg"]
    assert fine_model.status_code == 200


def test_a_mid_body_disconnect_logs_one_line(
    smollm2: ReadoutDecider, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO), serving(create_app(InstantDecider())) as u:
        port = int(u.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(
                b"POST /v1/systemone HTTP/1.1\r\nhost: 127.0.0.1\r\n"
                b'content-type: application/json\r\ncontent-length: 500\r\n\r\n{"st'
            )
            time.sleep(0.2)
        time.sleep(0.3)
        assert _post(u, BODY).status_code == 200
    left = [r for r in caplog.records if "left while sending" in r.getMessage()]
    assert len(left) == 1 and left[0].exc_info is None
    assert not any(r.exc_info for r in caplog.records)
    assert "Traceback" not in caplog.text


def test_wildcard_and_shorthand_binds_are_recognised(caplog: pytest.LogCaptureFixture) -> None:
    assert is_wildcard("0") and is_wildcard("0.0.0.0") and is_wildcard("::") and is_wildcard("")
    assert not is_wildcard("127.0.0.1") and not is_wildcard("10.0.0.5")
    assert is_loopback("127.1") and is_loopback("localhost") and not is_loopback("0")
    log = logging.getLogger("test.bind")
    with caplog.at_level(logging.WARNING, logger="test.bind"):
        warn_if_exposed(log, "0", None, [])
    assert "without an API key" in caplog.text and "--allowed-host" in caplog.text


def _cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "clef_tools.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=env,
    )


@pytest.mark.parametrize("command", ["serve", "mcp"])
def test_an_api_key_env_that_is_unset_is_an_error_not_an_open_port(command: str) -> None:
    import os

    env = {k: v for k, v in os.environ.items() if k != "CLEF_NO_SUCH_KEY"}
    extra = ["--http"] if command == "mcp" else []
    done = _cli(command, *extra, "--api-key-env", "CLEF_NO_SUCH_KEY", "--port", "1", env=env)
    assert done.returncode == 2
    assert "--api-key-env" in done.stderr and "CLEF_NO_SUCH_KEY is not set" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("module", ["clef_mcp", "clef_tools.cli"])
def test_module_entry_points_import_nothing_from_the_working_directory(
    tmp_path: Path, module: str
) -> None:
    marker = tmp_path / "ran"
    for name in ("anyio", "typing", "argparse", "json", "contextlib"):
        (tmp_path / f"{name}.py").write_text(f"open({str(marker)!r}, 'w').write({name!r})\n")
    done = subprocess.run(
        [sys.executable, "-m", module, "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert not marker.exists(), marker.read_text()


# -- MCP: bounded sessions, a deadline on decide -----------------------------------------------------


def test_one_client_cannot_open_sessions_without_bound() -> None:
    from clef_mcp import SessionLimits, build_server, http_app
    from clef_tools import AccessPolicy

    limits = SessionLimits(max_sessions=50, new_per_client=5, window_s=60.0)
    app = http_app(build_server(InstantDecider), AccessPolicy(), sessions=limits)
    with serving(app) as url, httpx.Client(timeout=30) as http:
        opened = [
            http.post(f"{url}/mcp", json=MCP_INITIALIZE, headers=MCP_JSONRPC) for _ in range(8)
        ]
        statuses = [r.status_code for r in opened]
        session = opened[0].headers["mcp-session-id"]
        # requests inside a session are not limited
        inside = http.post(
            f"{url}/mcp",
            json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            headers={
                **MCP_JSONRPC,
                "mcp-session-id": session,
                "mcp-protocol-version": "2025-06-18",
            },
        )
    assert statuses == [200] * 5 + [429] * 3
    assert opened[-1].headers["retry-after"] == "12"
    assert opened[-1].json()["detail"]["error_type"] == "rate_limited"
    assert inside.status_code == 200


async def test_mcp_decide_gives_up_at_its_deadline(smollm2: ReadoutDecider) -> None:
    from mcp import Client

    from clef_mcp import build_server

    server = build_server(lambda: SlowDecider(smollm2, 2.0), request_timeout_s=0.3)
    async with Client(server) as client:
        start = time.monotonic()
        out = await client.call_tool(
            "decide", {"state": "s", "questions": {"q": {"type": "noul", "instructions": "?"}}}
        )
        took = time.monotonic() - start
    assert out.is_error and "no answer within 0.3 s" in out.content[0].text  # type: ignore[union-attr]
    assert took < 1.5


# -- cancellation from the caller's side -------------------------------------------------------

SLOW_STATE = "A long complaint about a parcel that never came. " * 10
SLOW_QUESTIONS = {
    f"q{i}": {"type": "noul", "instructions": f"Is statement {i} true?"} for i in range(64)
}


def _stops(d: ReadoutDecider) -> int:
    """Forwards that run once the pass in flight is done (0: the work stopped)."""
    time.sleep(0.5)
    stopped_at = d._forward.forwards
    time.sleep(1.0)
    return d._forward.forwards - stopped_at


async def test_an_mcp_client_that_cancels_stops_the_work(smollm2: ReadoutDecider) -> None:
    import anyio
    from mcp import Client

    from clef_mcp import build_server

    d = _fresh(smollm2, prefix_cache_tokens=0)
    async with Client(build_server(lambda: d)) as client:
        await client.call_tool("model_info", {})
        with anyio.move_on_after(1.5):
            await client.call_tool("decide", {"state": SLOW_STATE, "questions": SLOW_QUESTIONS})
        assert 0 < d._forward.forwards < 64
        assert await anyio.to_thread.run_sync(_stops, d) == 0
        ok = await client.call_tool("decide", {"state": "x", "questions": NOUL_ONLY})
        assert not ok.is_error


async def test_an_async_client_that_gives_up_stops_the_servers_work(
    smollm2: ReadoutDecider,
) -> None:
    import anyio

    from clef_tools import SystemOneClient

    d = _fresh(smollm2, prefix_cache_tokens=0)
    with serving(create_app(d)) as u:
        async with SystemOneClient(u, model="x") as client:
            with anyio.move_on_after(1.5):
                await client.adecide(SLOW_STATE, SLOW_QUESTIONS)
        assert 0 < d._forward.forwards < 64
        assert await anyio.to_thread.run_sync(_stops, d) == 0


NOUL_ONLY = {"q": {"type": "noul", "instructions": "Is it?"}}
