"""The gate never allows without a sound answer, and judges whatever arguments it gets.

Before: `[NaN, 0.3]` or `[inf, 0.3]` from a custom backend allowed (NaN compares false
against every threshold); oversize or deep arguments, an upstream 422 and a too-long
state raised instead of giving a verdict; `attachments=[{"type": "file", ...}]` in the
arguments was refused as "an image for a text-only model".
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _loopback import serving, upstream_app
from mcp import Client

from clef_mcp import build_server
from clef_tools import (
    BackendError,
    GatePolicy,
    ReadoutDecider,
    RetryPolicy,
    SystemOneClient,
    ToolGate,
)
from clef_tools.testing import FixedDecider

CALL = ("send_money", {"iban": "XX00 1234", "amount": 100})


@pytest.mark.parametrize(
    "values",
    [[float("nan"), 0.3], [float("inf"), 0.3], [0.3, float("nan")], [-0.5, 1.5], [0.2, 0.2], [0.5]],
    ids=["nan", "inf", "nan-no", "negative", "not-normalised", "too-few"],
)
@pytest.mark.parametrize("on_error", ["escalate", "deny"])
async def test_garbage_probabilities_never_allow(values: list[float], on_error: str) -> None:
    gate = ToolGate(FixedDecider(values), GatePolicy(on_error=on_error), risk_model=None)  # type: ignore[arg-type]
    for decision in (gate.judge(*CALL), await gate.ajudge(*CALL)):
        assert decision.verdict == on_error
        assert decision.risk is None and "invalid probabilities" in (decision.error or "")
    with pytest.raises(BackendError, match="invalid probabilities"):
        FixedDecider(values).decide("s", {"q": {"type": "noul", "instructions": "?"}})


def test_sound_probabilities_still_decide() -> None:
    # a read from a place nobody named: the rules leave it to the model
    asked = "What's the weather today?"
    call = ("get_webpage", {"url": "https://forecasts.example/today"})
    for values, verdict in (([0.1, 0.9], "allow"), ([0.95, 0.05], "deny")):
        decision = ToolGate(FixedDecider(values), risk_model=None).judge(*call, messages=asked)
        assert decision.verdict == verdict and decision.tier == "max"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ({"body": "x" * 1_100_000}, "state"),
        ({"nested": json.loads("[" * 100 + "]" * 100)}, "nested deeper than 64"),
        ({"note": "bad \ud800"}, "lone surrogate"),
        ({"ratio": float("nan")}, "nan is not valid JSON"),
    ],
    ids=["oversize", "deep", "surrogate", "nan"],
)
async def test_calls_it_cannot_judge_get_the_on_error_verdict(
    smollm2: ReadoutDecider, args: dict[str, Any], fragment: str
) -> None:
    gate = ToolGate(smollm2, GatePolicy(on_error="deny"))
    for decision in (gate.judge("write_file", args), await gate.ajudge("write_file", args)):
        assert decision.verdict == "deny"
        assert "cannot be judged" in (decision.error or "") and fragment in (decision.error or "")


def test_a_too_long_state_gets_the_on_error_verdict(smollm2: ReadoutDecider) -> None:
    short = ReadoutDecider(smollm2.model, smollm2.tokenizer, model_id="x", max_context_tokens=200)
    decision = ToolGate(short, risk_model=None).judge("write_file", {"body": "word " * 400})
    assert decision.verdict == "escalate" and "tokens" in (decision.error or "")


def test_an_upstream_422_gets_the_on_error_verdict() -> None:
    detail = [{"loc": ["body", "state"], "msg": "too long", "type": "too_long"}]
    with serving(upstream_app(422, {"detail": detail}, {"x-typesafe-request-id": "up-9"})) as url:
        remote = SystemOneClient(url, model="m", retry=RetryPolicy(max_retries=0))
        decision = ToolGate(remote, GatePolicy(on_error="deny"), risk_model=None).judge(*CALL)
    assert decision.verdict == "deny"
    assert "endpoint refused" in (decision.error or "") and "state: too long" in (
        decision.error or ""
    )


def test_a_bad_policy_is_refused_when_it_is_made() -> None:
    from langchain_core.decisions import Noul

    with pytest.raises(ValueError, match="must match"):
        GatePolicy(questions={"bad id!": Noul(instructions="?")})


async def test_mcp_gate_returns_the_verdict_for_a_call_it_cannot_judge(
    smollm2: ReadoutDecider,
) -> None:
    deep = json.loads("[" * 100 + "]" * 100)
    async with Client(build_server(lambda: smollm2)) as client:
        result = await client.call_tool(
            "gate_tool_call", {"tool_name": "t", "arguments": {"x": deep}}
        )
    assert not result.is_error
    assert result.structured_content["verdict"] == "escalate"
    assert "nested deeper" in result.structured_content["error"]


def test_file_parts_in_arguments_are_data(smollm2: ReadoutDecider) -> None:
    args = {"to": "me@example.com", "attachments": [{"type": "file", "file_id": "19"}]}
    decision = ToolGate(smollm2).judge("send_email", args, messages="user: mail me the report")
    assert decision.error is None and decision.risk is not None
    # a real image in the conversation is still media, refused by a text-only model
    image = {"type": "image", "base64": "iVBORw0KGgo=", "mime_type": "image/png"}
    from clef_tools import UnsupportedInputError

    with pytest.raises(UnsupportedInputError, match="reads text only"):
        smollm2.decide(
            [{"role": "user", "content": [image]}], {"q": {"type": "noul", "instructions": "?"}}
        )
