"""`ClefDecisionModel` as a LangChain decision model, and inside LangChain's stock middleware."""

from __future__ import annotations

import re
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import AutoModeMiddleware, ModelChoice, ModelRouterMiddleware
from langchain_core.decisions import Choice, Noul
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from clef_tools import ReadoutDecider, RequestValidationError
from langchain_clef import ClefDecisionModel

from .conftest import call, scripted

Q: dict[str, Noul | Choice] = {
    "late": Noul(instructions="Is a parcel late?"),
    "team": Choice(instructions="Team?", criteria={"billing": "money", "shipping": "parcels"}),
}


def test_invoke_reports_model_usage_and_matches_the_backend(smollm2: ReadoutDecider) -> None:
    model = ClefDecisionModel(decider=smollm2)
    state = [HumanMessage("my parcel is two weeks late"), AIMessage("sorry to hear that")]
    response = model.invoke({"state": state, "questions": Q})
    assert model.model == response.model == smollm2.model_id
    assert response.usage is not None and response.usage["input_tokens"] > 0
    assert response.model_dump() == smollm2.decide(state, Q).model_dump()


async def test_ainvoke_is_native(smollm2: ReadoutDecider, monkeypatch: pytest.MonkeyPatch) -> None:
    model = ClefDecisionModel(decider=smollm2)
    monkeypatch.setattr(smollm2, "decide", lambda *a, **k: pytest.fail("sync path used"))
    response = await model.ainvoke({"state": "parcel late", "questions": Q})
    assert set(response.answers) == {"late", "team"}


def test_batch_hands_all_requests_to_the_backend_at_once(
    smollm2: ReadoutDecider, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    real = smollm2._score

    def score(reqs: Any) -> Any:
        seen.append(len(reqs))
        return real(reqs)

    monkeypatch.setattr(smollm2, "_score", score)
    model = ClefDecisionModel(decider=smollm2)
    inputs: list[Any] = [{"state": f"parcel {i} is late", "questions": Q} for i in range(3)]
    out = model.batch(inputs)
    assert seen == [3]
    assert [r.model_dump() for r in out] == [model.invoke(i).model_dump() for i in inputs]


def test_batch_with_a_bad_request_returns_its_error_in_place(smollm2: ReadoutDecider) -> None:
    model = ClefDecisionModel(decider=smollm2)
    out = model.batch(
        [{"state": "x", "questions": Q}, {"state": "x", "questions": {}}], return_exceptions=True
    )
    assert out[0].answers["late"].type == "noul"
    assert isinstance(out[1], RequestValidationError) and out[1].path == "questions"


@pytest.mark.parametrize(
    ("questions", "path"),
    [
        ({}, "questions"),
        (
            {"route": {"type": "choice", "instructions": "x", "criteria": {"only": None}}},
            "questions.route.criteria",
        ),
        (
            {"r": {"type": "score", "instructions": "x", "criteria": ["a"] * 11}},
            "questions.r.criteria",
        ),
    ],
)
def test_input_is_validated_naming_the_question(
    smollm2: ReadoutDecider, questions: Any, path: str
) -> None:
    with pytest.raises(RequestValidationError) as info:
        ClefDecisionModel(decider=smollm2).invoke({"state": "x", "questions": questions})
    assert info.value.path == path


@pytest.mark.embedded
def test_stock_auto_mode_middleware_uses_the_embedded_model(
    embedded: ReadoutDecider,
    toolset: list[Any],
    executed: list[Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers: list[float] = []
    real = embedded.decide

    def recording(state: Any, questions: Any) -> Any:
        response = real(state, questions)
        answers.append(response.nouls["is_risky"].noul)
        return response

    monkeypatch.setattr(embedded, "decide", recording)
    model = scripted(call("delete_file", {"path": "/"}), AIMessage("done"))
    agent = create_agent(
        model,
        toolset,
        middleware=[
            AutoModeMiddleware(
                tools=["delete_file"], classifier=ClefDecisionModel(decider=embedded)
            )
        ],
    )
    out = agent.invoke({"messages": [HumanMessage("Please fix a typo in README.md")]})
    assert len(answers) == 1  # one real forward pass decided
    tool_msg = next(m for m in out["messages"] if isinstance(m, ToolMessage))
    if answers[0] >= 0.5:  # AutoMode's fixed threshold, applied to our real probability
        assert "was blocked" in tool_msg.content and executed == []
        shown = re.search(r"probability: ([0-9.]+)", str(tool_msg.content))
        assert shown is not None and float(shown.group(1)) == pytest.approx(answers[0], abs=0.01)
    else:
        assert executed == [("delete_file", {"path": "/"})]
    # deleting / to fix a typo: the embedded model calls it risky
    assert answers[0] >= 0.5


@pytest.mark.embedded
def test_stock_model_router_middleware_uses_the_embedded_model(embedded: ReadoutDecider) -> None:
    cheap = scripted(AIMessage("cheap model answer"))
    strong = scripted(AIMessage("strong model answer"))
    router = ModelRouterMiddleware(
        choices={
            "cheap": ModelChoice(model=cheap, criteria="greetings and small talk"),
            "strong": ModelChoice(model=strong, criteria="hard programming and maths questions"),
        },
        instructions="Which model should answer the latest user message?",
        classifier=ClefDecisionModel(decider=embedded),
    )
    agent = create_agent(scripted(AIMessage("default")), [], middleware=[router])
    out = agent.invoke(
        {
            "messages": [
                HumanMessage(
                    "Prove that the halting problem is undecidable, then write a Rust lock-free queue."
                )
            ]
        }
    )
    chosen = out["model_route"].choice
    assert out["messages"][-1].content == f"{chosen} model answer"
    assert chosen == "strong"


async def test_batch_runs_carry_the_provider_and_model_like_invoke(smollm2: ReadoutDecider) -> None:
    from langchain_core.tracers.context import collect_runs

    model = ClefDecisionModel(decider=smollm2)
    requests: list[Any] = [
        {"state": "parcel late", "questions": Q},
        {"state": "card stolen", "questions": Q},
    ]
    for use_async in (False, True):
        with collect_runs() as collected:
            if use_async:
                await model.abatch(requests)
            else:
                model.batch(requests)
        runs = collected.traced_runs
        assert len(runs) == 2
        for run in runs:
            metadata = run.extra["metadata"]
            assert metadata["ls_provider"] == "clef-tools"
            assert metadata["ls_model_name"] == smollm2.model_id
            assert run.run_type == "llm"


def test_model_selects_the_backend_as_in_langchain_openai(smollm2: Any) -> None:
    import pydantic

    from langchain_clef import ClefDecisionModel

    chosen = ClefDecisionModel(model="smollm2")
    assert chosen.backend.model_id == smollm2.model_id  # not the 1.5B default
    assert chosen.model == "smollm2"
    assert ClefDecisionModel(source="smollm2").model == "smollm2"  # the older name still works
    assert ClefDecisionModel(model="smollm2", source="smollm2").source == "smollm2"
    with pytest.raises(pydantic.ValidationError, match="name different backends"):
        ClefDecisionModel(model="smollm2", source="embedded")
    assert ClefDecisionModel().model == "embedded"
