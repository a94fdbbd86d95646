"""The one place where clef and LangChain types meet: scorers either way, and the default
state a surface reads from its input."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.decisions import BaseDecisionModel, State

from clef_tools import Decider
from langchain_clef.decision_model import ClefDecisionModel

DeciderLike = Decider | ClefDecisionModel


def as_decider(scorer: DeciderLike) -> Decider:
    """The clef backend behind a scorer (middlewares call it directly, batched)."""
    return scorer.backend if isinstance(scorer, ClefDecisionModel) else scorer


def as_decision_model(scorer: BaseDecisionModel | Decider) -> BaseDecisionModel:
    """A LangChain decision model for a scorer (runnables trace and batch through it)."""
    return ClefDecisionModel(decider=scorer) if isinstance(scorer, Decider) else scorer


def state_of(value: Any) -> State:
    """What a question is about by default: the input's `messages` when it has them (an
    agent or graph state), else the input itself."""
    state: State = value
    if isinstance(value, Mapping):
        state = value["messages"] if "messages" in value else dict(value)
    return state
