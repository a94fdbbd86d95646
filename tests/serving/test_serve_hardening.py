"""`clef-tools serve` under attack and overload, over real loopback HTTP.

Each test drives a behaviour the attack pass found missing: foreign Hosts and Origins,
non-JSON posts, compressed bodies (and bombs), trickling clients, a backlog that never
drains, upstream errors behind the server, the `/v1/models` fields the SDKs require.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import logging
import re
import socket
import threading
import time
from typing import Any

import httpx
import pytest
import zstandard
from _loopback import serving, upstream_app
from langchain_core.decisions import Noul

from clef_tools import (
    AccessPolicy,
    ConnectionLimits,
    ReadoutDecider,
    RetryPolicy,
    SystemOneClient,
    create_app,
)
from clef_tools.serving._server import warn_if_exposed
from clef_tools.testing import SlowDecider

BODY: dict[str, Any] = {
    "state": "My parcel never arrived",
    "questions": {"late": {"type": "noul", "instructions": "Late?"}},
}


def _post(url: str, content: bytes, **headers: str) -> httpx.Response:
    return httpx.post(f"{url}/v1/systemone", content=content, headers=headers, timeout=60)


@pytest.fixture(scope="module")
def url(smollm2: ReadoutDecider) -> Any:
    with serving(create_app(smollm2, max_body_bytes=200_000, body_timeout_s=0.5)) as u:
        yield u


# -- who may call ----------------------------------------------------------------------


def test_foreign_host_origin_and_content_type_are_refused(url: str) -> None:
    raw = json.dumps(BODY).encode()
    ok = _post(url, raw, **{"content-type": "application/json"})
    assert ok.status_code == 200
    assert _post(url, raw).status_code == 200  # no content type: not a browser form
    rebinding = _post(url, raw, host="evil.example")
    assert rebinding.status_code == 421
    assert rebinding.json()["detail"]["error_type"] == "misdirected_request"
    cross = _post(url, raw, origin="https://evil.example", **{"content-type": "application/json"})
    assert cross.status_code == 403
    assert _post(url, raw, origin="null").status_code == 403
    assert _post(url, raw, origin="http://localhost:3000").status_code == 200
    form = _post(url, raw, **{"content-type": "text/plain"})  # a cross-site "simple request"
    assert form.status_code == 415
    assert httpx.get(f"{url}/healthz", headers={"host": "evil.example"}).status_code == 421


def test_allow_lists_follow_the_bind_address_and_the_operator() -> None:
    wildcard = AccessPolicy.for_bind("0.0.0.0", extra_hosts=["api.internal"])
    assert wildcard.host_ok("api.internal:8080") and wildcard.host_ok("127.0.0.1:8080")
    assert not wildcard.host_ok("10.0.0.5:8080") and not wildcard.host_ok(None)
    bound = AccessPolicy.for_bind("10.0.0.5")
    assert bound.host_ok("10.0.0.5:8080") and bound.host_ok("[::1]:8080")
    assert AccessPolicy.for_bind("0.0.0.0", extra_hosts=["*"]).host_ok("anything")
    v6 = AccessPolicy.for_bind("fd00::5")
    assert v6.host_ok("[fd00::5]:8080")
    site = AccessPolicy(allowed_origins=("https://app.example",))
    assert site.origin_ok("https://app.example") and not site.origin_ok("https://app.example.evil")


def test_the_key_guards_every_route_but_health(smollm2: ReadoutDecider) -> None:
    with serving(create_app(smollm2, api_key="s3cret")) as u:
        assert httpx.get(f"{u}/v1/models").status_code == 401
        assert httpx.get(f"{u}/v1/nothing").status_code == 401  # no route probing either
        assert httpx.get(f"{u}/healthz").status_code == 200
        auth = {"authorization": "Bearer s3cret"}
        assert httpx.get(f"{u}/v1/models", headers=auth).status_code == 200


def test_exposed_without_a_key_is_warned_about(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("test.exposed")
    with caplog.at_level(logging.WARNING, logger="test.exposed"):
        warn_if_exposed(log, "127.0.0.1", None, [])
        assert caplog.text == ""
        warn_if_exposed(log, "0.0.0.0", None, [])
    assert "without an API key" in caplog.text and "--allowed-host" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="test.exposed"):
        warn_if_exposed(log, "10.0.0.5", "key", [])
    assert caplog.text == ""


# -- bodies --------------------------------------------------------------------------


def test_compressed_bodies_answer_like_plain_ones(url: str) -> None:
    raw = json.dumps(BODY).encode()
    plain = _post(url, raw).json()
    z = _post(url, zstandard.ZstdCompressor().compress(raw), **{"content-encoding": "zstd"})
    g = _post(url, gzip.compress(raw), **{"content-encoding": "gzip"})
    assert z.status_code == g.status_code == 200
    assert z.json()["answers"] == g.json()["answers"] == plain["answers"]
    br = _post(url, raw, **{"content-encoding": "br"})
    assert br.status_code == 415 and "zstd" in br.json()["detail"]["message"]
    broken = _post(url, b"\x28\xb5\x2f\xfdnot zstd", **{"content-encoding": "zstd"})
    assert broken.status_code == 400


@pytest.mark.parametrize("encoding", ["zstd", "gzip"])
def test_decompression_bombs_stop_at_the_limit(url: str, encoding: str) -> None:
    inflated = b'{"state": "' + b"a" * 50_000_000 + b'"}'
    bomb = (
        zstandard.ZstdCompressor(level=3).compress(inflated)
        if encoding == "zstd"
        else gzip.compress(inflated, compresslevel=9)
    )
    assert len(bomb) < 200_000  # it fits the compressed limit
    start = time.monotonic()
    response = _post(url, bomb, **{"content-encoding": encoding})
    assert response.status_code == 413
    assert "decompressed" in response.json()["detail"]["message"]
    assert time.monotonic() - start < 5


def test_streamed_body_over_the_limit_without_a_length(url: str) -> None:
    def chunks() -> Any:
        for _ in range(100):
            yield b"x" * 10_000

    response = httpx.post(f"{url}/v1/systemone", content=chunks(), timeout=30)
    assert response.status_code == 413


def _raw_socket(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def test_a_trickled_body_is_cut_off(url: str) -> None:
    with _raw_socket(url) as s:
        s.sendall(
            b"POST /v1/systemone HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
        )
        start = time.monotonic()
        reply = s.recv(4096)
    assert reply.startswith(b"HTTP/1.1 408") and time.monotonic() - start < 3


def test_silent_and_trickling_connections_are_dropped(smollm2: ReadoutDecider) -> None:
    limits = ConnectionLimits(max_connections=8, header_timeout_s=0.5)
    with serving(create_app(smollm2), limits=limits) as u:
        silent = _raw_socket(u)
        trickle = _raw_socket(u)
        trickle.sendall(b"GET /healthz HTTP/1.1\r\n")
        start = time.monotonic()
        assert silent.recv(10) == b"" and trickle.recv(10) == b""  # closed by the server
        assert time.monotonic() - start < 3
        # a connection flood beyond the cap is closed on arrival; the server still answers
        flood = [_raw_socket(u) for _ in range(20)]
        closed = 0
        for s in flood:
            s.settimeout(0.3)
            with contextlib.suppress(TimeoutError):
                closed += s.recv(10) == b""
        assert closed >= 12
        for s in [silent, trickle, *flood]:
            s.close()
        time.sleep(0.1)
        assert httpx.get(f"{u}/healthz").json()["status"] == "ok"


# -- overload --------------------------------------------------------------------------


def test_a_full_queue_answers_503_and_health_shows_it(smollm2: ReadoutDecider) -> None:
    slow = SlowDecider(smollm2, 1.0)
    with serving(create_app(slow, max_queue=1)) as u:
        first: dict[str, httpx.Response] = {}
        thread = threading.Thread(
            target=lambda: first.setdefault("r", _post(u, json.dumps(BODY).encode()))
        )
        thread.start()
        time.sleep(0.3)
        health = httpx.get(f"{u}/healthz").json()
        second = _post(u, json.dumps(BODY).encode())
        thread.join()
    assert health["queue"] == 1 and health["max_queue"] == 1
    assert second.status_code == 503 and second.headers["retry-after"] == "1"
    assert first["r"].status_code == 200


def test_timed_out_requests_do_not_keep_the_model_busy(smollm2: ReadoutDecider) -> None:
    d = ReadoutDecider(smollm2.model, smollm2.tokenizer, model_id="x")
    big: dict[str, Any] = {
        "state": "A long complaint about a parcel. " * 20,
        "questions": {
            f"q{i}": {"type": "noul", "instructions": f"Statement {i}?"} for i in range(64)
        },
    }
    d.decide(BODY["state"], BODY["questions"])  # its prior is cached, on a busy machine too
    with serving(create_app(d, request_timeout_s=1.0)) as u:
        for i in range(5):
            big["state"] += f" ({i})"  # a new prefix each time: no cache help
            assert _post(u, json.dumps(big).encode()).status_code == 504
        time.sleep(0.5)  # the forward in flight at the last deadline may finish
        stopped_at = d._forward.forwards
        time.sleep(1.0)
        idle = d._forward.forwards - stopped_at
        small = _post(u, json.dumps(BODY).encode())
    assert small.status_code == 200
    # five abandoned 64-question requests (128 forwards each) would keep the model busy
    # for a minute; cancelled, nothing more runs once the one in flight is done
    assert idle == 0


# -- official clients ------------------------------------------------------------------


def test_models_entries_carry_what_the_sdks_require(url: str, smollm2: ReadoutDecider) -> None:
    entry = httpx.get(f"{url}/v1/models").json()["models"][0]
    assert entry["name"] == smollm2.model_id
    assert entry["description"] and isinstance(entry["description"], str)
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", entry["release_date"])


# -- upstream errors behind serve -------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "headers", "want_status", "want_type", "want_retry_after"),
    [
        (429, {"retry-after": "60"}, 429, "rate_limited", "60"),
        (529, {}, 529, "rate_limited", None),
        (502, {}, 502, "upstream_error", None),
        (503, {}, 502, "upstream_error", None),
        (504, {}, 504, "timeout", None),
        (401, {}, 502, "upstream_error", None),
    ],
)
def test_upstream_errors_map_to_the_documented_statuses(
    status: int,
    headers: dict[str, str],
    want_status: int,
    want_type: str,
    want_retry_after: str | None,
) -> None:
    body = {"detail": {"error_type": "unknown", "message": "upstream says no"}}
    upstream_headers = {"x-typesafe-request-id": "up-123", **headers}
    with serving(upstream_app(status, body, upstream_headers)) as up:
        client = SystemOneClient(up, model="m", retry=RetryPolicy(max_retries=0))
        with serving(create_app(client)) as front:
            response = _post(front, json.dumps(BODY).encode())
    assert response.status_code == want_status
    assert response.json()["detail"]["error_type"] == want_type
    assert response.headers.get("retry-after") == want_retry_after
    assert response.headers["x-clef-upstream-request-id"] == "up-123"
    assert response.headers["x-typesafe-request-id"].startswith("req_")


def test_an_upstream_422_keeps_its_field_paths() -> None:
    detail = [
        {"loc": ["body", "questions", "late", "criteria"], "msg": "bad", "type": "value_error"}
    ]
    with serving(upstream_app(422, {"detail": detail}, {})) as up:
        client = SystemOneClient(up, model="m", retry=RetryPolicy(max_retries=0))
        with serving(create_app(client)) as front:
            response = _post(front, json.dumps(BODY).encode())
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "questions", "late", "criteria"]


def test_noul_question_is_the_same_through_every_body_form(smollm2: ReadoutDecider) -> None:
    direct = smollm2.decide(BODY["state"], {"late": Noul(instructions="Late?")}).nouls["late"].noul
    with serving(create_app(smollm2)) as u:
        raw = json.dumps(BODY).encode()
        via = _post(u, zstandard.ZstdCompressor().compress(raw), **{"content-encoding": "zstd"})
    assert via.json()["answers"]["late"]["noul"] == direct
