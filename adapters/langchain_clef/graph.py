"""LangGraph helpers: turn a decision into a conditional edge or a `Command` node.

`decision_node` answers the question, writes the full answer into graph state under
`answer_key` and returns `Command(goto=...)`; `decision_edge` returns a routing function
for `add_conditional_edges` (it writes nothing). For a `Noul`, `goto` maps `"true"` /
`"false"` and `threshold` splits them; for a `Choice`, `goto` maps option labels (an
unmapped label goes to the node of the same name), and `fallback` takes answers whose
confidence is below `min_confidence`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from langgraph.types import Command

from clef_tools import Decider
from clef_tools.decisions import (
    BaseDecisionModel,
    Choice,
    ChoiceAnswer,
    Noul,
    NoulAnswer,
    ScoreAnswer,
    State,
)
from langchain_clef._backend import as_decision_model, state_of

__all__ = ["DecisionNode", "decision_edge", "decision_node"]


class DecisionNode(Protocol):
    """What `decision_node` returns. The parameter is named `state` and typed `Any` so that
    LangGraph's `add_node` overloads accept it for any state schema (TypedDict, dataclass,
    pydantic), as they accept a hand-written `def node(state: MyState)`."""

    def __call__(self, state: Any) -> Command[str]: ...


def _target(
    answer: object,
    goto: Mapping[str, str],
    threshold: float,
    min_confidence: float,
    fallback: str | None,
) -> str:
    if isinstance(answer, NoulAnswer):
        return goto["true" if answer.noul >= threshold else "false"]
    if not isinstance(answer, ChoiceAnswer):  # _check admits only noul and choice questions
        kind = "score" if isinstance(answer, ScoreAnswer) else type(answer).__name__
        raise TypeError(f"a {kind} answer cannot pick a graph node")
    if fallback is not None and answer.confidence < min_confidence:
        return fallback
    return goto.get(answer.choice, answer.choice)


def _check(question: Noul | Choice, goto: Mapping[str, str]) -> None:
    if isinstance(question, Noul) and not {"true", "false"} <= set(goto):
        raise ValueError('a noul decision needs goto={"true": node, "false": node}')


def decision_edge(
    classifier: BaseDecisionModel | Decider,
    question: Noul | Choice,
    *,
    goto: Mapping[str, str] | None = None,
    state_from: Callable[[Any], State] = state_of,
    threshold: float = 0.5,
    min_confidence: float = 0.0,
    fallback: str | None = None,
) -> Callable[[Any], str]:
    """A routing function for `StateGraph.add_conditional_edges(source, fn, path_map)`."""
    model, targets = as_decision_model(classifier), dict(goto or {})
    _check(question, targets)

    def route(graph_state: Any) -> str:
        response = model.invoke({"state": state_from(graph_state), "questions": {"q": question}})
        return _target(response.answers["q"], targets, threshold, min_confidence, fallback)

    return route


def decision_node(
    classifier: BaseDecisionModel | Decider,
    question: Noul | Choice,
    *,
    goto: Mapping[str, str] | None = None,
    state_from: Callable[[Any], State] = state_of,
    answer_key: str = "decision",
    threshold: float = 0.5,
    min_confidence: float = 0.0,
    fallback: str | None = None,
) -> DecisionNode:
    """A node that decides, stores the answer (as a dict) under `answer_key` and routes."""
    model, targets = as_decision_model(classifier), dict(goto or {})
    _check(question, targets)

    def node(state: Any) -> Command[str]:
        response = model.invoke({"state": state_from(state), "questions": {"q": question}})
        answer = response.answers["q"]
        target = _target(answer, targets, threshold, min_confidence, fallback)
        return Command(update={answer_key: answer.model_dump()}, goto=target)

    return node
