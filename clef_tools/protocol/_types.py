"""The kinds of question backends answer: named once, so a new question type is one edit
here (and its scorer), not a hunt through five modules."""

from __future__ import annotations

from typing import Final

__all__ = ["SCORED_TYPES"]

#: The question types a backend scores into probabilities, in the order reports list them
#: (LangChain's `box` questions validate, and every backend refuses them).
SCORED_TYPES: Final = ("noul", "choice", "score")
