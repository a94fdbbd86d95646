"""`clef-tools serve` and `SystemOneClient`, against each other over real loopback HTTP.

The backend behind the server is SmolLM2 (real forward passes), so "same probabilities"
means the wire round trip loses nothing: floats survive JSON exactly.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from _loopback import serving

from clef_tools import (
    AuthenticationError,
    GatePolicy,
    ReadoutDecider,
    RemoteError,
    RemoteTimeoutError,
    RequestValidationError,
    RetryPolicy,
    SystemOneClient,
    ToolGate,
    UpstreamChoiceAnswer,
    create_app,
)
from clef_tools.testing import BrokenDecider, SlowDecider

STATE = "Customer wrote: I was charged twice for order #4411 and want one charge refunded today."
QUESTIONS: dict[str, Any] = {
    "is_refund": {"type": "noul", "instructions": "Is the customer asking for a refund?"},
    "team": {
        "type": "choice",
        "instructions": "Which team should handle this?",
        "criteria": {"billing": "payments and refunds", "tech": "bugs", "sales": "new orders"},
    },
    "urgency": {"type": "score", "instructions": "How urgent?", "criteria": ["low", "mid", "high"]},
}
NO_RETRY = RetryPolicy(max_retries=0)


class Counter:
    """An httpx event hook that counts requests actually sent."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def __call__(self, request: httpx.Request) -> None:
        self.sent.append(request.url.path)


@pytest.fixture(scope="module")
def server_url(smollm2: ReadoutDecider) -> Iterator[str]:
    with serving(create_app(smollm2)) as url:
        yield url


def _client(url: str, **kw: Any) -> tuple[SystemOneClient, Counter]:
    counter = Counter()
    http = httpx.Client(event_hooks={"request": [counter]}, timeout=60)
    return SystemOneClient(url, http_client=http, **kw), counter


def test_round_trip_gives_the_backends_exact_probabilities(
    smollm2: ReadoutDecider, server_url: str
) -> None:
    direct = smollm2.decide(STATE, QUESTIONS)
    client, counter = _client(server_url)
    remote = client.decide(STATE, QUESTIONS)

    assert counter.sent == ["/v1/models", "/v1/systemone"]  # model discovered once
    assert client.model == smollm2.model_id == remote.model
    assert remote.request_id is not None and remote.request_id.startswith("req_")
    assert remote.nouls["is_refund"].noul == pytest.approx(direct.nouls["is_refund"].noul, abs=1e-4)
    for label, p in direct.choices["team"].probabilities.items():
        assert remote.choices["team"].probabilities[label] == pytest.approx(p, abs=1e-4)
    assert remote.scores["urgency"].score == pytest.approx(direct.scores["urgency"].score, abs=1e-4)
    # confidence is recomputed client-side, and the server's value is kept beside it
    team = remote.choices["team"]
    assert isinstance(team, UpstreamChoiceAnswer)
    assert team.upstream_confidence == pytest.approx(team.confidence)
    assert remote.usage is not None and remote.usage["input_tokens"] > 20


async def test_async_batch_runs_requests_concurrently_and_in_order(
    smollm2: ReadoutDecider, server_url: str
) -> None:
    client = SystemOneClient(server_url, model=smollm2.model_id)
    states = ["I want a refund.", "The app crashes on login.", "Do you sell gift cards?"]
    requests = [{"state": s, "questions": {"team": QUESTIONS["team"]}} for s in states]
    remote = await client.adecide_batch(requests)
    direct = smollm2.decide_batch(requests)
    for r, d in zip(remote, direct, strict=True):
        for label, p in d.choices["team"].probabilities.items():
            assert r.choices["team"].probabilities[label] == pytest.approx(p, abs=1e-4)
    assert len({r.request_id for r in remote}) == 3
    await client.aclose()


@pytest.mark.parametrize(
    ("questions", "path"),
    [
        ({"q": {"type": "choice", "criteria": {"only": None}}}, "questions.q.criteria"),
        ({"q": {"type": "score", "criteria": [str(i) for i in range(11)]}}, "questions.q.criteria"),
        ({"q": {"type": "maybe"}}, "questions.q.type"),
        ({f"q{i}": {"type": "noul", "instructions": "?"} for i in range(65)}, "questions"),
    ],
)
def test_bad_requests_fail_client_side_without_a_round_trip(
    server_url: str, questions: dict[str, Any], path: str
) -> None:
    client, counter = _client(server_url, model="m")
    with pytest.raises(RequestValidationError) as err:
        client.decide("state", questions)
    assert err.value.path == path
    assert counter.sent == []


@pytest.mark.parametrize(
    ("body", "loc", "kind"),
    [
        (
            b'{"state": "x", "questions": {"q": {"type": "choice", "criteria": {"a": 1}}}}',
            ["body", "questions", "q", "criteria"],
            "too_short",
        ),
        (b'{"state": 3, "questions": {"q": {"type": "noul"}}}', ["body", "state"], "type_error"),
        (b'{"questions": {"q": {"type": "noul"}}}', ["body", "state"], "missing"),
        (
            b'{"state": "x", "questions": {"q": {"type": "noul"}}, "extra": 1}',
            ["body", "extra"],
            "extra_forbidden",
        ),
        (
            b'{"state": "x", "questions": {"q": {"type": "noul"}, "q": {"type": "noul"}}}',
            ["body", "questions", "q"],
            "duplicate",
        ),
        (b'{"state": "x", "questions": ', ["body"], "json_invalid"),
    ],
)
def test_server_answers_422_with_detail_paths(
    server_url: str, body: bytes, loc: list[Any], kind: str
) -> None:
    response = httpx.post(f"{server_url}/v1/systemone", content=body)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert {"loc": loc, "type": kind} == {"loc": detail[0]["loc"], "type": detail[0]["type"]}
    assert detail[0]["msg"]
    assert response.headers["x-typesafe-request-id"].startswith("req_")


def test_server_refuses_what_the_backend_cannot_read(smollm2: ReadoutDecider) -> None:
    short = ReadoutDecider(
        smollm2.model, smollm2.tokenizer, model_id="short", max_context_tokens=64
    )
    with serving(create_app(short)) as url:
        too_long = httpx.post(
            f"{url}/v1/systemone",
            json={
                "state": "word " * 400,
                "questions": {"q": {"type": "noul", "instructions": "?"}},
            },
        )
        image = httpx.post(
            f"{url}/v1/systemone",
            json={
                "state": [{"type": "image", "base64": "iVBORw0KGgo=", "mime_type": "image/png"}],
                "questions": {"q": {"type": "noul", "instructions": "?"}},
            },
        )
        client = SystemOneClient(url)
        with pytest.raises(RequestValidationError) as err:
            client.decide("word " * 400, {"q": {"type": "noul", "instructions": "?"}})
    assert too_long.status_code == 422
    assert too_long.json()["detail"][0]["type"] == "too_long"
    assert too_long.json()["detail"][0]["loc"] == ["body", "state"]
    assert image.status_code == 422
    assert image.json()["detail"][0]["loc"][:3] == ["body", "state", "0"]
    # the remote refusal arrives as the same typed error, with the request id to quote
    assert err.value.issues[0].type == "too_long"
    assert err.value.request_id is not None


def test_bearer_auth(smollm2: ReadoutDecider) -> None:
    with serving(create_app(smollm2, api_key="s3cret")) as url:
        assert httpx.get(f"{url}/v1/models").status_code == 401
        assert httpx.post(f"{url}/v1/systemone", json={}).json()["detail"]["error_type"] == (
            "authentication_error"
        )
        wrong, counter = _client(url, api_key="nope", model="m")
        with pytest.raises(AuthenticationError) as err:
            wrong.decide(STATE, {"q": QUESTIONS["is_refund"]})
        assert err.value.status == 401 and counter.sent == ["/v1/systemone"]  # not retried
        right = SystemOneClient(url, api_key="s3cret")
        assert 0.0 <= right.decide(STATE, {"q": QUESTIONS["is_refund"]}).nouls["q"].noul <= 1.0


def test_env_vars_configure_the_client(
    monkeypatch: pytest.MonkeyPatch, server_url: str, smollm2: ReadoutDecider
) -> None:
    monkeypatch.setenv("TYPESAFE_BASE_URL", server_url + "/v1")
    monkeypatch.setenv("TYPESAFE_API_KEY", "ignored-by-an-open-server")
    client = SystemOneClient()
    assert client.base_url == server_url
    assert client.api_key == "ignored-by-an-open-server"
    assert client.model_id == smollm2.model_id


def test_body_limit_and_models_endpoint(smollm2: ReadoutDecider) -> None:
    with serving(create_app(smollm2, max_body_bytes=1000)) as url:
        big = httpx.post(
            f"{url}/v1/systemone",
            json={"state": "x" * 2000, "questions": {"q": {"type": "noul"}}},
        )
        models = httpx.get(f"{url}/v1/models").json()
        missing = httpx.get(f"{url}/v1/nothing")
    assert big.status_code == 413
    assert big.json()["detail"]["error_type"] == "tokens_exceeded"
    assert models["models"][0]["name"] == smollm2.model_id
    assert models["data"][0]["id"] == smollm2.model_id
    assert models["limits"]["questions_per_request"] == 64
    assert missing.status_code == 404 and "detail" in missing.json()


def test_backend_failure_is_500_and_retried_then_raised() -> None:
    with serving(create_app(BrokenDecider())) as url:
        raw = httpx.post(
            f"{url}/v1/systemone", json={"state": "x", "questions": {"q": {"type": "noul"}}}
        )
        client, counter = _client(
            url, model="broken", retry=RetryPolicy(max_retries=2, backoff_s=0.01)
        )
        with pytest.raises(RemoteError) as err:
            client.decide("x", {"q": {"type": "noul", "instructions": "?"}})
    assert raw.status_code == 500 and raw.json()["detail"]["error_type"] == "unknown"
    assert "CUDA out of memory" in raw.json()["detail"]["message"]
    assert err.value.status == 500
    assert len(counter.sent) == 3  # one try + two retries
    assert err.value.request_id is not None


def test_server_deadline_is_504_and_maps_to_timeout(smollm2: ReadoutDecider) -> None:
    slow = SlowDecider(smollm2, 1.5)
    with serving(create_app(slow, request_timeout_s=0.3)) as url:
        client, _ = _client(url, model="slow", retry=NO_RETRY)
        start = time.monotonic()
        with pytest.raises(RemoteTimeoutError) as err:
            client.decide("x", {"q": {"type": "noul", "instructions": "?"}})
        elapsed = time.monotonic() - start
        assert slow.finished.wait(30)  # the abandoned pass completes before shutdown
    assert err.value.status == 504
    assert elapsed < 1.2  # the server answered at its deadline, not after the stall


def test_unreachable_endpoint_fails_closed_in_the_gate() -> None:
    dead = SystemOneClient(
        "http://127.0.0.1:9", model="m", retry=RetryPolicy(max_retries=1, backoff_s=0.01)
    )
    verdict = ToolGate(dead, GatePolicy(on_error="deny"), risk_model=None).judge(
        "delete_repo", {"name": "prod"}, messages="user: clean up"
    )
    assert verdict.verdict == "deny"
    assert "cannot reach" in (verdict.error or "")


def test_wire_body_is_exactly_the_documented_shape(server_url: str) -> None:
    body = json.dumps(
        {"model": "anything", "state": {"b": 1, "a": [1, 2]}, "questions": QUESTIONS}
    ).encode()
    answer = httpx.post(f"{server_url}/v1/systemone", content=body).json()
    assert set(answer) == {"model", "answers", "usage"}
    assert set(answer["answers"]["is_refund"]) == {"type", "noul"}
    assert set(answer["answers"]["team"]) == {"type", "choice", "confidence", "probabilities"}
    assert set(answer["answers"]["urgency"]) == {
        "type",
        "score",
        "confidence",
        "legend",
        "probabilities",
    }
    assert answer["answers"]["urgency"]["legend"] == {"0": "low", "1": "mid", "2": "high"}
    assert answer["usage"]["output_tokens"] == 0


async def test_async_client_discovers_the_model_without_blocking(
    smollm2: ReadoutDecider, server_url: str
) -> None:
    sent: list[str] = []

    async def hook(request: httpx.Request) -> None:
        sent.append(request.url.path)

    aclient = httpx.AsyncClient(event_hooks={"request": [hook]}, timeout=60)
    client = SystemOneClient(server_url, async_http_client=aclient)
    answer = await client.adecide(STATE, {"q": QUESTIONS["is_refund"]})
    assert sent == ["/v1/models", "/v1/systemone"]
    assert answer.model == smollm2.model_id
    await aclient.aclose()


def test_unreachable_endpoint_without_a_model_name_also_fails_closed() -> None:
    dead = SystemOneClient("http://127.0.0.1:9", retry=RetryPolicy(max_retries=0))
    verdict = ToolGate(dead, GatePolicy(on_error="escalate"), risk_model=None).judge(
        "rm", {"path": "/"}
    )
    assert verdict.verdict == "escalate" and verdict.risk is None
    assert "cannot reach" in (verdict.error or "")
