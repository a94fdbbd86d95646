"""The one place where clef and LangChain types meet: scorers either way, and the default
state a surface reads from its input."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clef_tools import Decider
from clef_tools.decisions import BaseDecisionModel, State
from langchain_clef.decision_model import ClefDecisionModel

DeciderLike = Decider | ClefDecisionModel


def as_decider(classifier: DeciderLike) -> Decider:
    """The clef backend behind a classifier (middlewares call it directly, batched)."""
    return classifier.backend if isinstance(classifier, ClefDecisionModel) else classifier


def as_decision_model(classifier: BaseDecisionModel | Decider) -> BaseDecisionModel:
    """A LangChain decision model for a classifier (runnables trace and batch through it)."""
    return ClefDecisionModel(decider=classifier) if isinstance(classifier, Decider) else classifier


def state_of(value: Any) -> State:
    """What a question is about by default: the input's `messages` when it has them (an
    agent or graph state), else the input itself."""
    state: State = value
    if isinstance(value, Mapping):
        state = value["messages"] if "messages" in value else dict(value)
    return state
