"""The decision types clef-tools speaks, from `langchain_core.decisions`, in one place.

Upstream is redesigning these types (yes/no renamed `Predicate`, a `DecisionRequest{input,
questions}` input, a refusal answer); the `<1.9` pin holds the current ones. Every module of
clef-tools and its surfaces imports them from here, so following a rename is one edit in
this file, and `tests/test_decisions_upstream.py` names each upstream name relied on.
"""

from __future__ import annotations

from langchain_core.decisions import (
    BaseDecisionModel,
    Box,
    Choice,
    ChoiceAnswer,
    ClassifierRequest,
    ClassifierResponse,
    Noul,
    NoulAnswer,
    Question,
    Score,
    ScoreAnswer,
    State,
)

__all__ = [
    "UPSTREAM_NAMES",
    "BaseDecisionModel",
    "Box",
    "Choice",
    "ChoiceAnswer",
    "ClassifierRequest",
    "ClassifierResponse",
    "Noul",
    "NoulAnswer",
    "Question",
    "Score",
    "ScoreAnswer",
    "State",
]

#: What clef-tools relies on upstream: `langchain_core.decisions` names, and the
#: `langchain_core.exceptions` its error tree derives from (`clef_tools.protocol._errors`).
UPSTREAM_NAMES: dict[str, tuple[str, ...]] = {
    "langchain_core.decisions": tuple(name for name in __all__ if name != "UPSTREAM_NAMES"),
    "langchain_core.exceptions": (
        "ContextOverflowError",
        "ModelAPIError",
        "ModelAuthenticationError",
        "ModelError",
        "ModelInvalidRequestError",
        "ModelNotFoundError",
        "ModelRateLimitError",
        "ModelTimeoutError",
    ),
}
