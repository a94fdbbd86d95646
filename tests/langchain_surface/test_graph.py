from __future__ import annotations

from typing import Any, TypedDict

import pytest
from langchain_core.decisions import Choice, Noul
from langgraph.graph import END, START, StateGraph

from clef_tools import ReadoutDecider
from langchain_clef import decision_edge, decision_node


class S(TypedDict, total=False):
    messages: list[Any]
    decision: dict[str, Any]
    went: str


def _graph(router: Any, as_node: bool) -> Any:
    g = StateGraph(S)
    for name in ("yes_path", "no_path"):
        g.add_node(name, lambda s, name=name: {"went": name})
        g.add_edge(name, END)
    if as_node:
        g.add_node("decide", router, destinations=("yes_path", "no_path"))
        g.add_edge(START, "decide")
    else:
        g.add_conditional_edges(START, router, ["yes_path", "no_path"])
    return g.compile()


@pytest.mark.parametrize(("threshold", "went"), [(0.0, "yes_path"), (1.01, "no_path")])
def test_noul_node_writes_the_answer_and_routes(
    smollm2: ReadoutDecider, threshold: float, went: str
) -> None:
    node = decision_node(
        smollm2,
        Noul(instructions="Is the user angry?"),
        goto={"true": "yes_path", "false": "no_path"},
        threshold=threshold,
    )
    out = _graph(node, as_node=True).invoke({"messages": [("user", "this is terrible")]})
    assert out["went"] == went
    assert out["decision"]["type"] == "noul"
    # the node asks about the graph's messages, as a direct call would
    direct = smollm2.decide(out["messages"], {"q": Noul(instructions="Is the user angry?")})
    assert out["decision"]["noul"] == pytest.approx(direct.nouls["q"].noul, abs=1e-4)


def test_choice_edge_routes_without_writing_state(smollm2: ReadoutDecider) -> None:
    question = Choice(
        instructions="Which path?", criteria={"yes_path": "first", "no_path": "second"}
    )
    out = _graph(decision_edge(smollm2, question), as_node=False).invoke(
        {"messages": [("user", "x")]}
    )
    assert out["went"] in ("yes_path", "no_path") and "decision" not in out
    expected = smollm2.decide([("user", "x")], {"q": question})
    assert out["went"] == expected.choices["q"].choice


def test_choice_fallback_below_min_confidence(smollm2: ReadoutDecider) -> None:
    question = Choice(instructions="Which path?", criteria={"yes_path": "first", "other": "second"})
    node = decision_node(smollm2, question, min_confidence=1.0, fallback="no_path")
    assert _graph(node, as_node=True).invoke({"messages": [("user", "x")]})["went"] == "no_path"


def test_noul_needs_both_targets(smollm2: ReadoutDecider) -> None:
    with pytest.raises(ValueError, match="goto"):
        decision_node(smollm2, Noul(instructions="x"), goto={"true": "a"})
