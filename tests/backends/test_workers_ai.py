"""`WorkersAIClient` against a local fake that speaks the documented Workers AI wire format.

Workers AI cannot be reached from here, so a small Starlette app plays it: the
`{result, success, errors, messages}` envelope, bearer auth (401/10000), its validation
(422/5012), quota (429/4006), capacity (429/3040 with `retry-after`), overload (529), and
`cf-ai-req-id`. Its answers come from a real model (SmolLM2) rounded to 4 decimals with
max-prob confidence, as the hosted Clef release reports them.
"""

from __future__ import annotations

import base64
import io
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from _loopback import serving
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from clef_tools import (
    AuthenticationError,
    QuotaExceededError,
    RateLimitError,
    ReadoutDecider,
    RemoteError,
    RemoteTimeoutError,
    RequestValidationError,
    RetryPolicy,
    StateTooLongError,
    UnsupportedInputError,
    UpstreamChoiceAnswer,
    WorkersAIClient,
    choice_confidence,
    load_decider,
    response_to_wire,
)

ACCOUNT, TOKEN = "acc123", "cf-token"
MODEL_PATH = "@cf/cloudflare/clef-flash"


def _tiny_png() -> str:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (2, 2), "red").save(buf, format="PNG")
    return base64.b64encode(buf.getvalue()).decode()


PNG = _tiny_png()
QUESTIONS: dict[str, Any] = {
    "urgent": {"type": "noul", "instructions": "Does this need action today?"},
    "team": {"type": "choice", "criteria": {"billing": "money", "tech": "bugs"}},
}


@dataclass
class FakeWorkersAI:
    backend: ReadoutDecider
    script: list[tuple[int, int, dict[str, str]]] = field(default_factory=list)
    """Failures to answer with, in order, before answering normally: (status, code, headers)."""
    bodies: list[dict[str, Any]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route(
                    "/client/v4/accounts/{account}/ai/run/{model:path}", self.run, methods=["POST"]
                )
            ]
        )

    def fail(self, status: int, code: int, message: str, headers: dict[str, str]) -> JSONResponse:
        body = {
            "result": None,
            "success": False,
            "errors": [{"code": code, "message": message}],
            "messages": [],
        }
        return JSONResponse(body, status_code=status, headers=headers)

    async def run(self, request: Request) -> JSONResponse:
        self.times.append(time.monotonic())
        rid = {"cf-ai-req-id": f"cfreq-{len(self.times)}"}
        if request.headers.get("authorization") != f"Bearer {TOKEN}":
            return self.fail(401, 10000, "Authentication error", rid)
        if request.path_params["model"] != MODEL_PATH:
            return self.fail(400, 7000, "No route for that URI", rid)
        try:
            body = json.loads(await request.body())
        except ValueError:
            return self.fail(400, 6003, "Invalid request: body is not JSON", rid)
        self.bodies.append(body)
        if self.script:
            status, code, headers = self.script.pop(0)
            return self.fail(status, code, "scripted failure", {**rid, **headers})
        unknown = set(body) - {"model", "state", "questions", "images"}
        questions = body.get("questions") or {}
        if (
            unknown
            or body.get("model") != "clef-flash"
            or not 1 <= len(questions) <= 64
            or len(body.get("images", [])) > 4
            or any(not q.get("instructions") for q in questions.values())
        ):
            return self.fail(422, 5012, "Validation error", rid)
        answer = response_to_wire(self.backend.decide(body["state"], questions))
        for a in answer["answers"].values():  # hosted rounding and max-prob confidence
            if "noul" in a:
                a["noul"] = round(a["noul"], 4)
            if "probabilities" in a:
                a["probabilities"] = {k: round(v, 4) for k, v in a["probabilities"].items()}
                a["confidence"] = max(a["probabilities"].values())
        answer["model"] = "clef"
        return JSONResponse(
            {"result": answer, "success": True, "errors": [], "messages": []}, headers=rid
        )


@pytest.fixture(scope="module")
def fake(smollm2: ReadoutDecider) -> Iterator[tuple[FakeWorkersAI, str]]:
    f = FakeWorkersAI(smollm2)
    with serving(f.app()) as url:
        yield f, url


@pytest.fixture
def workers(fake: tuple[FakeWorkersAI, str]) -> Iterator[FakeWorkersAI]:
    f, _ = fake
    f.script.clear()
    f.bodies.clear()
    f.times.clear()
    yield f


_OPEN: list[WorkersAIClient] = []


def _client(url: str, **kw: Any) -> WorkersAIClient:
    kw.setdefault("retry", RetryPolicy(max_retries=2, backoff_s=0.01))
    client = WorkersAIClient(ACCOUNT, kw.pop("token", TOKEN), api_base=f"{url}/client/v4", **kw)
    _OPEN.append(client)
    return client


@pytest.fixture(autouse=True)
def _closed() -> Iterator[None]:
    """Each test's clients are closed after it (async ones by the async test itself)."""
    yield
    while _OPEN:
        _OPEN.pop().close()


def test_unwraps_the_envelope_and_recomputes_confidence(
    fake: tuple[FakeWorkersAI, str], workers: FakeWorkersAI, smollm2: ReadoutDecider
) -> None:
    _, url = fake
    response = _client(url).decide("Production is down since 9am.", QUESTIONS)
    direct = smollm2.decide("Production is down since 9am.", QUESTIONS)

    assert response.model == "clef" and response.request_id == "cfreq-1"
    assert response.nouls["urgent"].noul == pytest.approx(direct.nouls["urgent"].noul, abs=1e-4)
    team = response.choices["team"]
    assert isinstance(team, UpstreamChoiceAnswer)
    assert sum(team.probabilities.values()) == pytest.approx(1.0)
    assert team.confidence == pytest.approx(choice_confidence(list(team.probabilities.values())))
    assert team.upstream_confidence == pytest.approx(max(team.probabilities.values()), abs=1e-4)
    # the question without instructions was sent with its id, as the release reads it
    sent = workers.bodies[0]
    assert sent["model"] == "clef-flash"
    assert sent["questions"]["team"]["instructions"] == "team"


def test_capacity_429_is_retried_after_retry_after(
    fake: tuple[FakeWorkersAI, str], workers: FakeWorkersAI
) -> None:
    _, url = fake
    workers.script.append((429, 3040, {"retry-after": "0.3"}))
    response = _client(url).decide("x", {"urgent": QUESTIONS["urgent"]})
    assert len(workers.times) == 2
    assert workers.times[1] - workers.times[0] >= 0.3
    assert response.request_id == "cfreq-2"


async def test_overloaded_529_retries_until_exhausted(
    fake: tuple[FakeWorkersAI, str], workers: FakeWorkersAI
) -> None:
    _, url = fake
    workers.script.extend([(529, 5012, {})] * 3)
    async with _client(url) as client:
        with pytest.raises(RateLimitError) as err:
            await client.adecide("x", {"urgent": QUESTIONS["urgent"]})
    assert err.value.status == 529 and err.value.request_id == "cfreq-3"
    assert len(workers.times) == 3


def test_daily_quota_4006_is_not_retried(
    fake: tuple[FakeWorkersAI, str], workers: FakeWorkersAI
) -> None:
    _, url = fake
    workers.script.append((429, 4006, {"retry-after": "1"}))
    with pytest.raises(QuotaExceededError) as err:
        _client(url).decide("x", {"urgent": QUESTIONS["urgent"]})
    assert err.value.code == 4006 and err.value.request_id == "cfreq-1"
    assert len(workers.times) == 1


def test_validation_5012_is_a_typed_validation_error_not_retried(
    fake: tuple[FakeWorkersAI, str], workers: FakeWorkersAI
) -> None:
    _, url = fake
    workers.script.append((422, 5012, {}))
    with pytest.raises(RequestValidationError) as err:
        _client(url).decide("x", {"urgent": QUESTIONS["urgent"]})
    assert "5012" in str(err.value) and err.value.request_id == "cfreq-1"
    assert len(workers.times) == 1


def test_long_retry_after_is_not_waited_out(
    fake: tuple[FakeWorkersAI, str], workers: FakeWorkersAI
) -> None:
    _, url = fake
    workers.script.append((429, 3040, {"retry-after": "3600"}))
    start = time.monotonic()
    with pytest.raises(RateLimitError) as err:
        _client(url).decide("x", {"urgent": QUESTIONS["urgent"]})
    assert time.monotonic() - start < 2
    assert err.value.retry_after == 3600


def test_bad_token_and_bad_model(fake: tuple[FakeWorkersAI, str], workers: FakeWorkersAI) -> None:
    _, url = fake
    with pytest.raises(AuthenticationError) as err:
        _client(url, token="wrong").decide("x", {"urgent": QUESTIONS["urgent"]})
    assert err.value.code == 10000 and len(workers.times) == 1
    with pytest.raises(UnsupportedInputError, match="no model"):
        _client(url, model="@cf/cloudflare/nope").decide("x", {"urgent": QUESTIONS["urgent"]})


def test_images_go_to_the_images_field(
    fake: tuple[FakeWorkersAI, str], workers: FakeWorkersAI
) -> None:
    _, url = fake
    state = [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Is this receipt a duplicate?"},
                {"type": "image", "base64": PNG, "mime_type": "image/png"},
            ],
        },
    ]
    _client(url).decide(state, {"urgent": QUESTIONS["urgent"]})
    sent = workers.bodies[0]
    assert sent["images"] == [f"data:image/png;base64,{PNG}"]
    assert sent["state"] == [
        {"role": "user", "content": [{"type": "text", "text": "Is this receipt a duplicate?"}]}
    ]


def test_image_limits_are_checked_before_sending(
    fake: tuple[FakeWorkersAI, str], workers: FakeWorkersAI
) -> None:
    _, url = fake
    five = [{"type": "image", "base64": PNG, "mime_type": "image/png"}] * 5
    with pytest.raises(RequestValidationError, match="5 images; at most 4"):
        _client(url).decide(five, {"urgent": QUESTIONS["urgent"]})
    remote = [{"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}]
    with pytest.raises(UnsupportedInputError, match="not fetched") as err:
        _client(url).decide(remote, {"urgent": QUESTIONS["urgent"]})
    assert err.value.path == "state.0"
    assert workers.times == []


def test_malformed_answer_is_a_remote_error(smollm2: ReadoutDecider) -> None:
    async def broken(request: Request) -> JSONResponse:
        return JSONResponse(
            {"result": {"answers": {}}, "success": True, "errors": []}, headers={"cf-ray": "ray-1"}
        )

    app = Starlette(
        routes=[Route("/client/v4/accounts/{a}/ai/run/{m:path}", broken, methods=["POST"])]
    )
    with serving(app) as url, pytest.raises(RemoteError, match=r"answers\.urgent") as err:
        _client(url).decide("x", {"urgent": QUESTIONS["urgent"]})
    assert err.value.request_id == "ray-1"


def test_backend_spec_and_credentials_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    from clef_tools import ModelUnavailableError

    with pytest.raises(ModelUnavailableError, match="CLOUDFLARE_ACCOUNT_ID"):
        load_decider("workers-ai")
    monkeypatch.setenv("CLOUDFLARE_ACCOUNT_ID", ACCOUNT)
    monkeypatch.setenv("CLOUDFLARE_API_TOKEN", TOKEN)
    client = load_decider("workers-ai")
    assert isinstance(client, WorkersAIClient)
    assert client.model_id == "clef-flash" and client.account_id == ACCOUNT


def test_serve_in_front_maps_a_spent_quota_to_429_quota_exceeded(
    fake: tuple[FakeWorkersAI, str], workers: FakeWorkersAI
) -> None:
    import httpx

    from clef_tools import create_app

    _, url = fake
    workers.script.append((429, 4006, {"retry-after": "1"}))
    with serving(create_app(_client(url))) as front:
        response = httpx.post(
            f"{front}/v1/systemone",
            json={"state": "x", "questions": {"urgent": QUESTIONS["urgent"]}},
            timeout=60,
        )
    assert response.status_code == 429
    assert response.json()["detail"]["error_type"] == "quota_exceeded"
    assert response.headers["x-clef-upstream-request-id"] == "cfreq-1"
    assert len(workers.times) == 1  # not retried


@pytest.mark.parametrize(
    ("status", "code", "error", "attempts"),
    [
        # Cloudflare's Workers AI error table: each documented code, in its status
        (429, 3036, QuotaExceededError, 1),  # daily free allocation used up: not today
        (429, 3040, RateLimitError, 3),  # out of capacity: retried
        (400, 3003, RequestValidationError, 1),  # incomplete request
        (413, 3006, RequestValidationError, 1),  # request too large
        (400, 5004, RequestValidationError, 1),  # invalid data
        (404, 3042, UnsupportedInputError, 1),  # invalid model id
        (400, 5007, UnsupportedInputError, 1),  # no such model
        (403, 3023, AuthenticationError, 1),  # account blocked
        (403, 5016, AuthenticationError, 1),  # model agreement
        (405, 5019, UnsupportedInputError, 1),  # deprecated SDK version
        (408, 3007, RemoteTimeoutError, 3),  # timeout: retried
        (408, 3008, RemoteTimeoutError, 3),  # aborted: retried
    ],
)
def test_documented_error_codes_map_to_typed_errors(
    fake: tuple[FakeWorkersAI, str],
    workers: FakeWorkersAI,
    status: int,
    code: int,
    error: type[Exception],
    attempts: int,
) -> None:
    _, url = fake
    workers.script.extend([(status, code, {"retry-after": "0"})] * 3)
    with pytest.raises(error) as err:
        _client(url).decide("x", {"urgent": QUESTIONS["urgent"]})
    assert len(workers.times) == attempts
    assert str(code) in str(err.value)
    if isinstance(err.value, QuotaExceededError | RateLimitError):
        assert err.value.code == code


def test_a_state_past_the_window_is_refused_before_sending(
    fake: tuple[FakeWorkersAI, str], workers: FakeWorkersAI
) -> None:
    _, url = fake
    long_state = "word " * 30_000  # about 37,500 tokens at four bytes a token
    with pytest.raises(StateTooLongError) as err:
        _client(url).decide(long_state, {"urgent": QUESTIONS["urgent"]})
    assert err.value.limit == 24_576 and err.value.path == "state"
    assert workers.times == []  # nothing was sent
    # a narrower window is the operator's to set
    with pytest.raises(StateTooLongError):
        _client(url, context_window_tokens=10).decide("a" * 100, {"urgent": QUESTIONS["urgent"]})
