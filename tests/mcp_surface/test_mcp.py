"""The MCP server over real transports: in-memory, a stdio subprocess, streamable HTTP."""

from __future__ import annotations

import json
import os
from typing import Any

import anyio
import jsonschema
import pytest
from _loopback import CLI, console_script
from mcp import Client, StdioServerParameters
from mcp.server import MCPServer
from mcp.types import TextContent, TextResourceContents

from clef_mcp import build_server
from clef_tools import ReadoutDecider, load_decider
from clef_tools.testing import InstantDecider

SUPPORT = {
    "type": "choice",
    "instructions": "Which team should handle this customer message?",
    "criteria": {
        "fraud": "stolen cards, unauthorised transactions",
        "shipping": "delivery, tracking, lost or late parcels",
        "billing": "charges, refunds, invoices",
    },
}
STOLEN = "My card was stolen yesterday and there are two charges I did not make."


# Clients are opened inside each test: an async-generator fixture would enter the
# session's cancel scope in one task and leave it in another.
@pytest.fixture
def small_server(smollm2: ReadoutDecider) -> MCPServer[Any]:
    return build_server(lambda: smollm2, model="smollm2")


@pytest.fixture
def big_server(embedded: ReadoutDecider) -> MCPServer[Any]:
    return build_server(lambda: embedded)


async def _schemas(client: Client) -> dict[str, Any]:
    return {t.name: t for t in (await client.list_tools()).tools}


async def _model_info_when_ready(client: Client) -> dict[str, Any]:
    """`model_info` never waits for the background load: poll it until it is over."""
    with anyio.fail_after(120):
        while True:
            result = await client.call_tool("model_info", {})
            info: dict[str, Any] = result.structured_content or {}
            if info.get("status") != "loading":
                return info
            await anyio.sleep(0.05)


async def test_tools_declare_schemas_and_annotations(small_server: MCPServer[Any]) -> None:
    async with Client(small_server) as small:
        tools = await _schemas(small)
        assert set(tools) == {"decide", "route", "gate_tool_call", "model_info"}
    async with Client(build_server(InstantDecider, human_reviews=True)) as reviewing:
        tools = await _schemas(reviewing)
        assert set(tools) == {"decide", "route", "gate_tool_call", "record_review", "model_info"}
        for name, tool in tools.items():
            assert tool.output_schema and tool.output_schema["type"] == "object"
            writes = name == "record_review"  # it keeps a review: not read-only
            assert tool.annotations.read_only_hint is not writes
            assert tool.annotations.idempotent_hint is not writes
            assert tool.annotations.open_world_hint is False
            assert "ctx" not in json.dumps(tool.input_schema)
        # the input schema teaches the question shapes
        assert "2–255 options" in json.dumps(tools["decide"].input_schema, ensure_ascii=False)


def _check(result: Any, tool: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    jsonschema.validate(result.structured_content, tool.output_schema)
    return dict(result.structured_content)


@pytest.mark.embedded
async def test_decide_with_the_embedded_model(
    big_server: MCPServer[Any], embedded: ReadoutDecider
) -> None:
    async with Client(big_server) as big:
        tools = await _schemas(big)
        questions = {"team": SUPPORT, "urgent": {"type": "noul", "instructions": "Is this urgent?"}}
        out = _check(
            await big.call_tool("decide", {"state": STOLEN, "questions": questions}),
            tools["decide"],
        )
        assert out["answers"]["team"]["choice"] == "fraud"
        direct = embedded.decide(STOLEN, questions)
        assert out["answers"]["team"]["probabilities"] == pytest.approx(
            direct.choices["team"].probabilities, abs=1e-4
        )
        assert out["answers"]["urgent"]["noul"] == pytest.approx(
            direct.nouls["urgent"].noul, abs=1e-4
        )
        assert out["model"] == embedded.model_id and out["usage"]["input_tokens"] > 50


@pytest.mark.embedded
async def test_route_and_gate_with_the_embedded_model(big_server: MCPServer[Any]) -> None:
    async with Client(big_server) as big:
        tools = await _schemas(big)
        routed = _check(
            await big.call_tool(
                "route",
                {
                    "state": "Where is my parcel? Tracking says in transit for nine days.",
                    "options": SUPPORT["criteria"],
                    "min_confidence": 0.99,
                },
            ),
            tools["route"],
        )
        assert routed["choice"] == "shipping"
        assert routed["uncertain"] is (routed["confidence"] < 0.99)
        args = {
            "tool_name": "shell",
            "description": "Run a shell command",
            "context": "user: list my files",
        }
        rm = _check(
            await big.call_tool(
                "gate_tool_call", {**args, "arguments": {"command": "rm -rf /home/alice"}}
            ),
            tools["gate_tool_call"],
        )
        ls = _check(
            await big.call_tool(
                "gate_tool_call", {**args, "arguments": {"command": "ls /home/alice"}}
            ),
            tools["gate_tool_call"],
        )
        assert rm["risk"] >= ls["risk"] and rm["verdict"] != "allow"
        assert rm["risk_model"] == "gate-embedded" and rm["tier"] in ("fast", "model")
        assert rm["evidence"]["any_ungrounded"] == 1.0  # /home/alice was never mentioned
        forced = _check(
            await big.call_tool(
                "gate_tool_call",
                {**args, "arguments": {"command": "ls"}, "escalate_at": 0.0, "deny_at": 0.0},
            ),
            tools["gate_tool_call"],
        )
        assert forced["verdict"] == "deny"


async def test_model_info_capabilities_and_prompts(
    small_server: MCPServer[Any], smollm2: ReadoutDecider
) -> None:
    async with Client(small_server) as small:
        tools = await _schemas(small)
        await _model_info_when_ready(small)
        info = _check(await small.call_tool("model_info", {}), tools["model_info"])
        assert info["status"] == "ready"
        assert info["model"] == smollm2.model_id and info["limits"]["questions_per_request"] == 64
        assert info["contextual_calibration"] == ["noul"] and info["gate"]["on_error"] == "escalate"
        caps = await small.read_resource("clef://capabilities")
        first = caps.contents[0]
        assert isinstance(first, TextResourceContents)
        assert json.loads(first.text)["limits"]["choice_options_max"] == 255
        prompts = {p.name for p in (await small.list_prompts()).prompts}
        assert prompts == {"triage_ticket", "should_i_run"}


@pytest.mark.parametrize(
    ("tool", "args", "fragment"),
    [
        (
            "decide",
            {
                "state": "s",
                "questions": {"q": {"type": "choice", "instructions": "x", "criteria": {"a": 1}}},
            },
            "questions.q.criteria",
        ),
        ("decide", {"state": "s", "questions": {}}, "questions: at least one question"),
        (
            "decide",
            {"state": "s", "questions": {"q": {"type": "maybe", "instructions": "x"}}},
            "questions.q",
        ),
        (
            "decide",
            {"state": 5, "questions": {"q": {"type": "noul", "instructions": "x"}}},
            "state",
        ),
        (
            "decide",
            {"state": "s", "questions": {"bad id!": {"type": "noul", "instructions": "x"}}},
            "questions.bad id!",
        ),
        (
            "route",
            {"state": "s", "options": {"only": "one"}},
            "options: a choice needs 2–255 options",
        ),
        (
            "route",
            {"state": "s", "options": {"a": "x", "b": "y"}, "min_confidence": 2},
            "min_confidence",
        ),
        (
            "gate_tool_call",
            {"tool_name": "x", "escalate_at": 0.9, "deny_at": 0.1},
            "escalate_at: 0.9 is looser",
        ),
    ],
)
async def test_bad_arguments_are_tool_errors_naming_the_field(
    small_server: MCPServer[Any], tool: str, args: dict[str, Any], fragment: str
) -> None:
    async with Client(small_server) as small:
        result = await small.call_tool(tool, args)
        assert result.is_error
        assert isinstance(result.content[0], TextContent) and fragment in result.content[0].text
        # the server survives and answers the next call
        ok = await small.call_tool(
            "decide", {"state": "s", "questions": {"q": {"type": "noul", "instructions": "ok?"}}}
        )
        assert not ok.is_error


@pytest.mark.slow
async def test_concurrent_calls_match_serial(
    small_server: MCPServer[Any], smollm2: ReadoutDecider
) -> None:
    async with Client(small_server) as small:
        # the real model under concurrent calls (tests/backends/test_concurrency.py floods a fast one)
        states = [f"customer message number {i}: my parcel {i} is late" for i in range(8)]
        questions = {"team": SUPPORT, "late": {"type": "noul", "instructions": "Is a parcel late?"}}
        serial = [smollm2.decide(s, questions) for s in states]
        results: list[Any] = [None] * 8

        async def one(i: int) -> None:
            results[i] = await small.call_tool(
                "decide", {"state": states[i], "questions": questions}
            )

        async with anyio.create_task_group() as tg:
            for i in range(8):
                tg.start_soon(one, i)
        for got, want in zip(results, serial, strict=True):
            assert not got.is_error
            answers = got.structured_content["answers"]
            assert answers["team"]["probabilities"] == pytest.approx(
                want.choices["team"].probabilities, abs=1e-4
            )
            assert answers["late"]["noul"] == pytest.approx(want.nouls["late"].noul, abs=1e-4)


def _env() -> dict[str, str]:
    return {
        k: v for k, v in os.environ.items() if k in ("HOME", "PATH", "CLEF_TOOLS_CACHE", "LANG")
    }


LATE = {"late": {"type": "noul", "instructions": "Is a parcel late?"}}
CARD = {"fraud": "stolen cards", "shipping": "parcels"}


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])  # the SDK client of each era
async def test_stdio_subprocess_round_trip(smollm2: ReadoutDecider, mode: str) -> None:
    params = StdioServerParameters(
        command=CLI, args=["mcp", "--model", "smollm2", "--dtype", "fp32", "--quiet"], env=_env()
    )
    async with Client(params, read_timeout_seconds=300, mode=mode) as client:
        result = await client.call_tool("decide", {"state": "my parcel is late", "questions": LATE})
        assert not result.is_error, result.content
        assert result.structured_content["model"] == "smollm2-135m-instruct-q4_1"
    direct = smollm2.decide("my parcel is late", LATE).nouls["late"].noul
    assert result.structured_content["answers"]["late"]["noul"] == pytest.approx(direct, abs=1e-4)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_streamable_http_round_trip(smollm2: ReadoutDecider, mode: str) -> None:
    args = ("mcp", "--http", "--model", "smollm2", "--dtype", "fp32")
    with console_script(*args, env=_env()) as base:
        async with Client(f"{base}/mcp", read_timeout_seconds=300, mode=mode) as client:
            result = await client.call_tool("route", {"state": "card stolen", "options": CARD})
            assert not result.is_error, result.content
    question = {"type": "choice", "instructions": "Which option fits this best?"}
    # the backend as the CLI opens it (its default debiasing and calibration)
    python = load_decider("smollm2", dtype="fp32")
    direct = python.decide("card stolen", {"route": {**question, "criteria": CARD}})
    assert result.structured_content["probabilities"] == pytest.approx(
        direct.choices["route"].probabilities, abs=1e-4
    )


async def test_initialize_is_answered_before_the_model_loads_and_tools_report_progress() -> None:
    """Hosts time out a server that does not answer `initialize`: the model loads in the
    background, `model_info` says "loading", and a tool called meanwhile waits for the
    model with progress notifications, then answers."""
    import threading

    from clef_tools.testing import InstantDecider

    release = threading.Event()

    def slow_factory() -> InstantDecider:
        release.wait(60)
        return InstantDecider()

    server = build_server(slow_factory, model="instant")
    notes: list[tuple[float, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        notes.append((progress, message))

    with anyio.fail_after(60):
        async with Client(server) as client:  # initialize returned while the factory blocks
            info = (await client.call_tool("model_info", {})).structured_content or {}
            assert info["status"] == "loading" and info["model"] is None
            assert info["source"] == "instant"
            answers: list[Any] = []

            async def ask() -> None:
                question = {"q": {"type": "noul", "instructions": "Late?"}}
                answers.append(
                    await client.call_tool(
                        "decide",
                        {"state": "parcel late", "questions": question},
                        progress_callback=on_progress,
                    )
                )

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(ask)
                while len(notes) < 2:  # one notification a second while it waits
                    await anyio.sleep(0.1)
                assert not answers
                release.set()
            (result,) = answers
            assert not result.is_error
            assert result.structured_content["answers"]["q"]["noul"] == pytest.approx(0.5)
            assert all("loading the model 'instant'" in (m or "") for _, m in notes)
            assert [v for v, _ in notes] == sorted(v for v, _ in notes)
            info = await _model_info_when_ready(client)
            assert info["status"] == "ready" and info["model"] == "instant"


async def test_a_failed_load_is_reported_and_the_gate_fails_closed() -> None:
    def broken_factory() -> Any:
        raise RuntimeError("weights are missing")

    async with Client(build_server(broken_factory, model="broken")) as client:
        info = await _model_info_when_ready(client)
        assert info["status"] == "failed" and "weights are missing" in info["error"]
        decided = await client.call_tool(
            "decide", {"state": "s", "questions": {"q": {"type": "noul", "instructions": "?"}}}
        )
        assert decided.is_error
        text = decided.content[0]
        assert isinstance(text, TextContent) and "model unavailable" in text.text
        gated = await client.call_tool(
            "gate_tool_call", {"tool_name": "delete_file", "arguments": {"path": "/"}}
        )
        assert not gated.is_error
        verdict = gated.structured_content or {}
        assert verdict["verdict"] == "escalate" and verdict["tier"] == "error"
        assert "weights are missing" in verdict["error"]


@pytest.mark.parametrize(
    ("kwargs", "offered"),
    [
        ({"model": "embedding", "human_reviews": True}, {"decide", "route", "model_info"}),
        (
            {"model": "cascade:smollm2", "human_reviews": True},
            {"decide", "route", "gate_tool_call", "record_review", "model_info"},
        ),
        ({"model": "cascade:smollm2"}, {"decide", "route", "gate_tool_call", "model_info"}),
        ({"question_types": {"noul"}}, {"decide", "gate_tool_call", "model_info"}),
    ],
)
async def test_tools_the_backend_cannot_answer_are_not_offered(
    kwargs: dict[str, Any], offered: set[str]
) -> None:
    async with Client(build_server(InstantDecider, **kwargs)) as client:
        assert set(await _schemas(client)) == offered
        caps = await client.read_resource("clef://capabilities")
        first = caps.contents[0]
        assert isinstance(first, TextResourceContents)
        assert set(json.loads(first.text)["tools"]) == offered


async def test_a_slow_answer_says_what_it_is_doing() -> None:
    """Past one second (a long state, a cold CPU, the first request after loading), a tool
    tells the caller what it is doing, once a second, then answers."""
    import time as clock

    from clef_tools.testing import InstantDecider

    class TwoSeconds(InstantDecider):
        def _score(self, requests: Any) -> Any:
            clock.sleep(2.5)
            return super()._score(requests)

    notes: list[str | None] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        notes.append(message)

    async with Client(build_server(TwoSeconds, model="slow")) as client:
        await _model_info_when_ready(client)
        result = await client.call_tool(
            "decide",
            {"state": "s", "questions": {"q": {"type": "noul", "instructions": "?"}}},
            progress_callback=on_progress,
        )
    assert not result.is_error
    assert len(notes) >= 2 and all((m or "").startswith("answering (") for m in notes)


async def test_a_quick_answer_sends_no_progress() -> None:
    from clef_tools.testing import InstantDecider

    notes: list[str | None] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        notes.append(message)

    async with Client(build_server(InstantDecider, model="instant")) as client:
        await _model_info_when_ready(client)
        result = await client.call_tool(
            "route",
            {"state": "my parcel is late", "options": {"shipping": "parcels", "billing": "money"}},
            progress_callback=on_progress,
        )
    assert not result.is_error and notes == []  # answered within the first second


async def test_gate_verdicts_are_audited(smollm2: ReadoutDecider, tmp_path: Any) -> None:
    from clef_tools.audit import AuditLog

    log = AuditLog(tmp_path / "audit.sqlite")
    server = build_server(lambda: smollm2, model="smollm2", audit=log)
    async with Client(server) as client:
        await _model_info_when_ready(client)
        await client.call_tool(
            "gate_tool_call",
            {
                "tool_name": "shell",
                "arguments": {"command": "rm -rf /home/alice", "token": "s3cr3t-value"},
                "context": "user: list my files",
            },
        )
    (row,) = list(log.rows())
    assert row.surface == "mcp" and row.tool == "shell" and row.verdict != "allow"
    assert "s3cr3t-value" not in row.args_preview and "rm -rf /home/alice" in row.args_preview
    log.close()
