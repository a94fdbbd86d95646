"""The embedding tier and the cascade, with the real MiniLM model and SmolLM2 as the LM tier."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from langchain_core.decisions import Choice

from clef_tools import (
    CascadeDecider,
    Decider,
    DecisionRequest,
    EmbeddingDecider,
    ReadoutDecider,
    RequestScores,
    TieredResponse,
    UnsupportedInputError,
    load_decider,
    response_to_wire,
)
from clef_tools.backends.compose._cascade import fuse
from clef_tools.testing import InstantDecider

TEAMS: dict[str, Any] = {
    "type": "choice",
    "instructions": "Which team should handle this?",
    "criteria": {
        "billing": "charges, invoices and refunds",
        "shipping": "parcels, delivery and tracking",
        "tech": "bugs, crashes and login problems",
    },
}


@pytest.fixture(scope="module")
def fast() -> EmbeddingDecider:
    return EmbeddingDecider()


class Recording(Decider):
    """Passes through to a real decider and records what the LM tier was asked."""

    def __init__(self, inner: Decider) -> None:
        self.inner = inner
        self.seen: list[DecisionRequest] = []

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        self.seen.extend(requests)
        return self.inner._score(requests)


@pytest.mark.parametrize(
    ("state", "team"),
    [
        ("My parcel never arrived and tracking has not moved in a week.", "shipping"),
        ("I was charged twice for the same invoice, please refund me.", "billing"),
        ("The app crashes every time I try to log in.", "tech"),
    ],
)
def test_embedding_tier_routes_obvious_messages(
    fast: EmbeddingDecider, state: str, team: str
) -> None:
    answer = fast.decide(state, {"team": TEAMS}).choices["team"]
    assert answer.choice == team
    assert sum(answer.probabilities.values()) == pytest.approx(1.0)
    assert list(answer.probabilities) == ["billing", "shipping", "tech"]


def test_temperature_sharpens_without_reordering(fast: EmbeddingDecider) -> None:
    state = "Where is my package?"
    soft = EmbeddingDecider(fast.path, temperature=1.0).decide(state, {"t": TEAMS}).choices["t"]
    sharp = fast.decide(state, {"t": TEAMS}).choices["t"]
    assert soft.choice == sharp.choice
    assert sharp.confidence > soft.confidence


def test_embedding_tier_refuses_questions_it_cannot_answer(fast: EmbeddingDecider) -> None:
    with pytest.raises(UnsupportedInputError, match=r"questions\.q\.type"):
        fast.decide("x", {"q": {"type": "noul", "instructions": "Is it late?"}})


def test_cascade_tiers(fast: EmbeddingDecider, smollm2: ReadoutDecider) -> None:
    slow = Recording(smollm2)
    cascade = CascadeDecider(slow, fast)
    questions = {
        "team": TEAMS,
        "late": {"type": "noul", "instructions": "Is a delivery late?"},
    }
    response = cascade.decide("My parcel never arrived and tracking is stuck.", questions)
    assert isinstance(response, TieredResponse)
    assert response.tiers == {"team": "embedding", "late": "lm"}
    assert [list(r.questions) for r in slow.seen] == [["late"]]  # only the noul went to the LM
    direct = smollm2.decide(
        "My parcel never arrived and tracking is stuck.", {"late": questions["late"]}
    )
    assert response.nouls["late"].noul == pytest.approx(direct.nouls["late"].noul, abs=1e-4)
    wire = response_to_wire(response)
    assert wire["answers"]["team"]["tier"] == "embedding"

    # with the threshold out of reach and the LM weighted fully, the LM's numbers
    everything_slow = CascadeDecider(smollm2, fast, threshold=1.01, lm_weight=1.0)
    response = everything_slow.decide("Refund my double charge", {"team": TEAMS})
    alone = smollm2.decide("Refund my double charge", {"team": TEAMS})
    assert response.tiers == {"team": "lm"}  # type: ignore[attr-defined]
    for label, p in alone.choices["team"].probabilities.items():
        assert response.choices["team"].probabilities[label] == pytest.approx(p, abs=1e-4)


def test_fusion_is_a_weighted_product_of_the_two_tiers() -> None:
    # equal and opposite evidence at w = 0.5 cancels out
    assert fuse([0.8, 0.2], [0.2, 0.8], 0.5) == pytest.approx([0.5, 0.5])
    assert fuse([0.8, 0.2], [0.2, 0.8], 1.0) == [0.8, 0.2]
    assert fuse([0.8, 0.2], [0.3, 0.7], 0.0) == pytest.approx([0.3, 0.7])
    # sqrt(0.9 * 0.5) vs sqrt(0.1 * 0.5), normalised
    assert fuse([0.9, 0.1], [0.5, 0.5], 0.5)[0] == pytest.approx(0.75)
    with pytest.raises(ValueError, match="lm_weight"):
        CascadeDecider(InstantDecider(), lm_weight=1.5)


def test_an_unsure_choice_fuses_both_tiers(fast: EmbeddingDecider, smollm2: ReadoutDecider) -> None:
    state = "Refund my double charge"
    fused = CascadeDecider(smollm2, fast, threshold=1.01, lm_weight=0.5)
    response = fused.decide(state, {"team": TEAMS})
    assert response.tiers == {"team": "embedding+lm"}  # type: ignore[attr-defined]
    lm = list(smollm2.decide(state, {"team": TEAMS}).choices["team"].probabilities.values())
    emb = list(fast.decide(state, {"team": TEAMS}).choices["team"].probabilities.values())
    got = list(response.choices["team"].probabilities.values())
    assert got == pytest.approx(fuse(lm, emb, 0.5), abs=1e-4)


def test_long_state_skips_the_embedding_tier(
    fast: EmbeddingDecider, smollm2: ReadoutDecider
) -> None:
    long_state = "My parcel never arrived. " * 80  # > 256 MiniLM tokens: never truncated
    assert not fast.fits(long_state)
    response = CascadeDecider(smollm2, fast, threshold=0.0).decide(long_state, {"team": TEAMS})
    assert response.tiers == {"team": "lm"}  # type: ignore[attr-defined]


def test_large_option_sets_are_shortlisted_for_the_lm(
    fast: EmbeddingDecider, smollm2: ReadoutDecider
) -> None:
    labels = [f"topic_{i}" for i in range(40)] + ["lost_or_stolen_card"]
    question = {"type": "choice", "instructions": "Intent?", "criteria": dict.fromkeys(labels)}
    slow = Recording(smollm2)
    cascade = CascadeDecider(slow, fast, threshold=1.01, shortlist=8)
    answer = cascade.decide("Someone stole my card yesterday", {"intent": question})
    asked = slow.seen[0].questions["intent"]
    assert isinstance(asked, Choice) and isinstance(asked.criteria, dict)
    seen = asked.criteria
    assert len(seen) == 8 and "lost_or_stolen_card" in seen
    probs = answer.choices["intent"].probabilities
    assert list(probs) == labels and sum(probs.values()) == pytest.approx(1.0)
    assert answer.tiers == {"intent": "embedding+lm"}  # type: ignore[attr-defined]
    outside = [probs[label] for label in labels if label not in seen]
    assert max(outside) < min(probs[label] for label in seen) + 1e-9 or max(outside) < 0.05


def test_backend_specs(smollm2: ReadoutDecider) -> None:
    assert isinstance(load_decider("embedding"), EmbeddingDecider)
    cascade = load_decider("cascade:smollm2")
    assert isinstance(cascade, CascadeDecider) and cascade.model_id == smollm2.model_id


async def test_tiers_reach_mcp_clients(fast: EmbeddingDecider, smollm2: ReadoutDecider) -> None:
    from mcp import Client

    from clef_mcp import build_server

    questions = {"team": TEAMS, "late": {"type": "noul", "instructions": "Is a delivery late?"}}
    async with Client(build_server(lambda: CascadeDecider(smollm2, fast))) as client:
        result = await client.call_tool(
            "decide", {"state": "My parcel never arrived.", "questions": questions}
        )
    assert not result.is_error
    assert result.structured_content is not None
    answers = result.structured_content["answers"]
    assert answers["team"]["tier"] == "embedding" and answers["late"]["tier"] == "lm"
    assert "upstream_confidence" not in answers["team"]  # absent, not null, when n/a


def test_more_options_than_the_option_cache_holds(fast: EmbeddingDecider) -> None:
    small = EmbeddingDecider(fast.path, cache_options=2)
    answer = small.decide("My parcel never arrived.", {"team": TEAMS}).choices["team"]
    assert answer.choice == "shipping"
    assert answer.probabilities == pytest.approx(
        fast.decide("My parcel never arrived.", {"team": TEAMS}).choices["team"].probabilities,
        abs=1e-6,
    )
    assert len(small._option_cache) == 2
