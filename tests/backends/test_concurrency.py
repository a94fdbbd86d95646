"""Many callers at once on every surface: nothing lost, nothing mixed up, memory bounded."""

from __future__ import annotations

import concurrent.futures
import resource

import anyio
import httpx
import pytest
from _loopback import serving
from mcp import Client

from clef_mcp import build_server
from clef_tools import ReadoutDecider, ToolGate, create_app
from clef_tools.testing import EchoDecider

QUESTIONS = {
    "a": {"type": "noul", "instructions": "A?"},
    "b": {"type": "noul", "instructions": "B?"},
}


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.mark.slow
def test_threads_on_the_python_api_get_their_own_answers(smollm2: ReadoutDecider) -> None:
    states = [f"message {i}: my parcel number {i} is {i} days late" for i in range(6)]
    questions = {"late": {"type": "noul", "instructions": "Is a parcel late?"}}
    serial = [smollm2.decide(s, questions).nouls["late"].noul for s in states]
    gate = ToolGate(smollm2, risk_model=None)
    calls = [("send_email", {"to": f"user{i}@example.com"}) for i in range(6)]
    gate_serial = [gate.judge(*c).risk for c in calls]
    with concurrent.futures.ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(lambda s: smollm2.decide(s, questions).nouls["late"].noul, states))
        risks = list(pool.map(lambda c: gate.judge(*c).risk, calls))
    assert answers == pytest.approx(serial, abs=1e-6)
    assert risks == pytest.approx(gate_serial, abs=1e-6)


def test_forty_clients_on_serve_lose_and_mix_nothing() -> None:
    clients, each = 40, 10
    with serving(create_app(EchoDecider(), max_queue=64)) as url:

        def client(c: int) -> list[tuple[str, dict[str, float]]]:
            got = []
            with httpx.Client(timeout=60) as http:
                for r in range(each):
                    state = f"client {c} request {r}"
                    body = {"state": state, "questions": QUESTIONS}
                    answer = http.post(f"{url}/v1/systemone", json=body).raise_for_status().json()
                    got.append((state, {q: a["noul"] for q, a in answer["answers"].items()}))
            return got

        before = _rss_mb()
        with concurrent.futures.ThreadPoolExecutor(max_workers=clients) as pool:
            results = [r for rs in pool.map(client, range(clients)) for r in rs]
        grown = _rss_mb() - before
    assert len(results) == clients * each
    for state, answers in results:
        assert answers == {q: pytest.approx(EchoDecider.expected(state, q)) for q in QUESTIONS}
    assert grown < 200  # MB: 400 requests leave no backlog behind


async def test_parallel_mcp_calls_lose_and_mix_nothing() -> None:
    async with Client(build_server(EchoDecider)) as client:
        results: dict[str, dict[str, float]] = {}

        async def one(i: int) -> None:
            state = f"parallel call {i}"
            out = await client.call_tool("decide", {"state": state, "questions": QUESTIONS})
            assert not out.is_error, out.content
            answers = (out.structured_content or {})["answers"]
            results[state] = {q: a["noul"] for q, a in answers.items()}

        async with anyio.create_task_group() as tasks:
            for i in range(48):
                tasks.start_soon(one, i)
    assert len(results) == 48
    for state, answers in results.items():
        assert answers == {q: pytest.approx(EchoDecider.expected(state, q)) for q in QUESTIONS}
