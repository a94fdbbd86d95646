"""Secrets stay off plaintext links and out of messages; servers refuse foreign callers."""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx
import pytest

from clef_tools import RemoteError, RetryPolicy, SystemOneClient

ANSWER = {
    "model": "m",
    "answers": {"q": {"type": "noul", "noul": 0.25}},
    "usage": {"input_tokens": 3, "output_tokens": 0},
}


def _recording_transport(seen: list[httpx.Request]) -> httpx.MockTransport:
    """Stands in for a remote host (none is reachable here); answers in the wire shape."""

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=ANSWER)

    return httpx.MockTransport(handle)


def test_an_explicit_secret_is_refused_for_plain_http_to_another_host() -> None:
    with pytest.raises(ValueError, match="plain http"):
        SystemOneClient("http://decider.example:8080", api_key="s3cret", model="m")
    with pytest.raises(ValueError, match="plain http") as err:
        SystemOneClient("http://bob:hunter2@decider.example:8080", model="m")
    assert "hunter2" not in str(err.value)
    # https and loopback are fine
    assert SystemOneClient("https://decider.example", api_key="s3cret", model="m").api_key
    assert SystemOneClient("http://127.0.0.1:8080", api_key="s3cret", model="m").api_key
    assert SystemOneClient("http://[::1]:8080", api_key="s3cret", model="m").api_key


def test_an_env_key_is_not_sent_over_plain_http(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("TYPESAFE_API_KEY", "env-s3cret")
    seen: list[httpx.Request] = []
    http = httpx.Client(transport=_recording_transport(seen))
    with caplog.at_level(logging.WARNING, logger="clef_tools.backends.hosted"):
        client = SystemOneClient("http://decider.example:8080", model="m", http_client=http)
    assert client.decide("s", {"q": {"type": "noul", "instructions": "?"}}).nouls["q"].noul == 0.25
    assert "authorization" not in seen[0].headers
    assert "not sending TYPESAFE_API_KEY" in caplog.text and "env-s3cret" not in caplog.text
    # over https the same key is sent
    seen.clear()
    https = httpx.Client(transport=_recording_transport(seen))
    SystemOneClient("https://decider.example", model="m", http_client=https).decide(
        "s", {"q": {"type": "noul", "instructions": "?"}}
    )
    assert seen[0].headers["authorization"] == "Bearer env-s3cret"


def test_url_credentials_never_appear_in_reprs_or_errors() -> None:
    client = SystemOneClient(
        "http://bob:hunter2@127.0.0.1:9", model="m", retry=RetryPolicy(max_retries=0)
    )
    assert "hunter2" not in repr(client) and "hunter2" not in client.base_url
    with pytest.raises(RemoteError) as err:
        client.decide("s", {"q": {"type": "noul", "instructions": "?"}})
    assert "127.0.0.1:9" in str(err.value) and "hunter2" not in str(err.value)
    # they are still used: as basic auth, on loopback
    seen: list[httpx.Request] = []
    http = httpx.Client(transport=_recording_transport(seen))
    SystemOneClient("http://bob:hunter2@127.0.0.1:9", model="m", http_client=http).decide(
        "s", {"q": {"type": "noul", "instructions": "?"}}
    )
    assert seen[0].headers["authorization"] == "Basic Ym9iOmh1bnRlcjI="
    assert "hunter2" not in str(seen[0].url)


def _json(response: httpx.Response) -> Any:
    return json.loads(response.content)
