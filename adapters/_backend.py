"""Accept either a clef `Decider` or a `ClefDecisionModel` wherever a scorer is needed."""

from __future__ import annotations

from clef_tools import Decider
from langchain_clef.decision_model import ClefDecisionModel

DeciderLike = Decider | ClefDecisionModel


def as_decider(scorer: DeciderLike) -> Decider:
    return scorer.backend if isinstance(scorer, ClefDecisionModel) else scorer
