"""The scale-out engines (Ollama, llama.cpp, vLLM, OpenRouter) as backend specs, each
against a fake that speaks that engine's documented variant over real loopback HTTP:
its path and default model, probabilities rounded to 4 dp (so they sum to 0.9999), its
own error body, and where it takes images."""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from _loopback import serving
from langchain_core.decisions import Choice, Noul
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from clef_tools import (
    RateLimitError,
    RequestValidationError,
    RetryPolicy,
    UnsupportedInputError,
    load_decider,
)
from clef_tools.backends._engine_table import ENGINES
from clef_tools.backends.hosted._engines import EngineClient

QUESTIONS: dict[str, Any] = {
    "late": Noul(instructions="Is a parcel late?"),
    "team": Choice(
        instructions="Team?", criteria={"billing": None, "shipping": None, "tech": None}
    ),
}
ERROR_BODIES: dict[str, Any] = {  # each engine's documented error shape
    "ollama": lambda msg: {"error": msg},
    "llamacpp": lambda msg: {
        "error": {"code": 400, "message": msg, "type": "invalid_request_error"}
    },
    "vllm": lambda msg: {"object": "error", "message": msg, "type": "BadRequestError", "code": 400},
    "openrouter": lambda msg: {"error": {"code": 400, "message": msg, "metadata": None}},
}


def _png() -> str:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (2, 2), "blue").save(buf, format="PNG")
    return base64.b64encode(buf.getvalue()).decode()


class FakeEngine:
    """Answers like a Clef-Flash engine: thirds rounded to 4 dp, P(late)=0.8123."""

    def __init__(self, name: str) -> None:
        self.engine = ENGINES[name]
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []

    async def decide(self, request: Request) -> JSONResponse:
        body = json.loads(await request.body())
        self.bodies.append(body)
        self.headers.append(dict(request.headers))
        if body.get("model") != self.engine.default_model:
            return JSONResponse(
                ERROR_BODIES[self.engine.name](f"model {body.get('model')!r} not found"), 404
            )
        text = json.dumps(body["state"])
        if "refuse me" in text:
            return JSONResponse(
                ERROR_BODIES[self.engine.name]("questions.team: unknown option"), 400
            )
        if "busy" in text:
            return JSONResponse(ERROR_BODIES[self.engine.name]("server busy"), 429)
        answers: dict[str, Any] = {}
        for qid, question in body["questions"].items():
            if question["type"] == "noul":
                answers[qid] = {"type": "noul", "noul": 0.8123}
            else:
                probs = {k: 0.3333 for k in question["criteria"]}
                answers[qid] = {
                    "type": "choice",
                    "choice": next(iter(probs)),
                    "confidence": 0.3333,
                    "probabilities": probs,
                }
        return JSONResponse(
            {
                "model": body["model"],
                "answers": answers,
                "usage": {"input_tokens": 42, "output_tokens": 0},
            }
        )

    def app(self) -> Starlette:
        return Starlette(routes=[Route(self.engine.path, self.decide, methods=["POST"])])


@pytest.fixture(params=sorted(ENGINES))
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeEngine]:
    fake = FakeEngine(request.param)
    with serving(fake.app()) as url:
        monkeypatch.setenv(fake.engine.base_env, url)
        yield fake


def test_each_engine_answers_through_its_spec(
    engine: FakeEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TYPESAFE_API_KEY", "typesafe-secret")  # must never reach another engine
    decider = load_decider(engine.engine.name, calibration="none")
    response = decider.decide("my parcel is two weeks late", QUESTIONS)
    assert response.model == engine.engine.default_model
    assert response.nouls["late"].noul == pytest.approx(0.8123)
    team = response.choices["team"].probabilities
    assert sum(team.values()) == pytest.approx(1.0, abs=1e-9)  # 4-dp thirds renormalised
    assert all(p == pytest.approx(1 / 3) for p in team.values())
    assert response.usage is not None and response.usage["input_tokens"] == 42
    (headers,) = engine.headers
    assert "typesafe-secret" not in headers.get("authorization", "")
    assert decider.info().kind == engine.engine.name
    assert isinstance(decider, EngineClient)
    decider.close()


def test_each_engines_error_body_becomes_the_right_error(engine: FakeEngine) -> None:
    client = EngineClient(engine.engine.name, retry=RetryPolicy(max_retries=0))
    with pytest.raises(RequestValidationError, match=r"questions\.team: unknown option") as refused:
        client.decide("refuse me", QUESTIONS)
    assert refused.value.is_retryable is False
    with pytest.raises(RateLimitError, match="server busy"):
        client.decide("busy", QUESTIONS)
    client.close()


def test_images_go_where_each_engine_takes_them(engine: FakeEngine) -> None:
    png = _png()
    state = [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "duplicate receipt?"},
                {"type": "image", "base64": png, "mime_type": "image/png"},
            ],
        }
    ]
    client = EngineClient(engine.engine.name)
    placement = engine.engine.images
    if placement == "refused":
        with pytest.raises(UnsupportedInputError, match="does not document how it takes images"):
            client.decide(state, QUESTIONS)
        assert engine.bodies == []  # refused before anything was sent
        return
    client.decide(state, QUESTIONS)
    (sent,) = engine.bodies
    if placement == "images_base64":
        assert sent["images"] == [png]
        assert "image" not in json.dumps(sent["state"])
    else:
        text, image = sent["state"]
        assert text["type"] == "text" and "duplicate receipt?" in text["text"]
        assert image == {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{png}"}}
    client.close()


def test_openrouter_sends_its_own_key_and_only_over_https_or_loopback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = FakeEngine("openrouter")
    monkeypatch.setenv("OPENROUTER_API_KEY", "or-key")
    with serving(fake.app()) as url:
        client = EngineClient("openrouter", base_url=url)
        client.decide("parcel late", QUESTIONS)
        client.close()
    assert fake.headers[0]["authorization"] == "Bearer or-key"
    with pytest.raises(ValueError, match="plain http"):
        EngineClient("openrouter", base_url="http://decisions.example.com", api_key="or-key")


def test_ollama_host_may_be_written_without_a_scheme(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "127.0.0.1:11434")
    client = EngineClient("ollama")
    assert client.info().details["url"] == "http://127.0.0.1:11434/v1/systemone"


def test_the_engines_are_listed_in_the_cli_help() -> None:
    from clef_tools.backends import spec_forms

    for name in ENGINES:
        assert f"'{name}[:model]'" in spec_forms()


def test_credentials_in_an_engine_address_never_show(monkeypatch: pytest.MonkeyPatch) -> None:
    """`user:password@` in OLLAMA_HOST is basic auth, never part of the URL errors and
    `info()` show (the SystemOneClient rule holds for every engine)."""
    monkeypatch.setenv("OLLAMA_HOST", "http://alice:s3cret@127.0.0.1:11434")
    client = EngineClient("ollama")
    assert "s3cret" not in client.base_url and "s3cret" not in repr(client)
    assert client.info().details["url"] == "http://127.0.0.1:11434/v1/systemone"
    assert client._headers()["authorization"].startswith("Basic ")
