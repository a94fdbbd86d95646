"""Prefix KV reuse across requests gives the same probabilities as a cold start."""

from __future__ import annotations

import pytest
from langchain_core.decisions import Choice, ClassifierResponse, Noul
from langchain_core.messages import AIMessage, HumanMessage

from clef_tools import ReadoutDecider

Q = {
    "late": Noul(instructions="Is a parcel late?"),
    "team": Choice(
        instructions="Team?", criteria={"billing": "money", "shipping": "parcels", "tech": "bugs"}
    ),
}
TRANSCRIPT = [
    HumanMessage("Hi, I ordered a lamp two weeks ago."),
    AIMessage("Thanks, let me check the order."),
    HumanMessage("The tracking page still says label created."),
    AIMessage("I see it has not been scanned yet."),
    HumanMessage("So where is my parcel? I need it by Friday."),
]


def _fresh(d: ReadoutDecider, cache_tokens: int, segment_tokens: int = 64) -> ReadoutDecider:
    return ReadoutDecider(
        d.model,
        d.tokenizer,
        model_id=d.model_id,
        prefix_cache_tokens=cache_tokens,
        segment_tokens=segment_tokens,
    )


def _probs(r: ClassifierResponse) -> list[float]:
    return [r.nouls["late"].noul, *r.choices["team"].probabilities.values()]


@pytest.mark.slow
def test_growing_transcript_reuses_the_prefix_exactly(smollm2_any: ReadoutDecider) -> None:
    # bit-identical in fp32 and in bf16: reuse resumes on the grid a cold prefill uses
    cached, cold = _fresh(smollm2_any, 16384, 16), _fresh(smollm2_any, 0, 16)
    for n in range(1, len(TRANSCRIPT) + 1):
        state = TRANSCRIPT[:n]
        assert _probs(cached.decide(state, Q)) == _probs(cold.decide(state, Q))
    stats = cached._prefixes.stats()
    assert stats["partial_hits"] == len(TRANSCRIPT) - 1  # each turn extends the previous prefix
    assert stats["reused_tokens"] > stats["computed_tokens"] / 2
    assert cold._prefixes.stats()["reused_tokens"] == 0


def test_same_state_new_questions_is_a_full_hit(smollm2_any: ReadoutDecider) -> None:
    d = _fresh(smollm2_any, 16384)
    d.decide(TRANSCRIPT, {"late": Q["late"]})
    before = d._prefixes.hits
    got = d.decide(TRANSCRIPT, {"team": Q["team"]})
    assert d._prefixes.hits == before + 1
    want = _fresh(smollm2_any, 0).decide(TRANSCRIPT, {"team": Q["team"]})
    assert got.choices["team"].probabilities == want.choices["team"].probabilities


def test_same_request_same_answer_whatever_came_before(smollm2_any: ReadoutDecider) -> None:
    """The bf16 regression: a fresh decider said P(yes) 0.4533, the same decider after two
    unrelated requests 0.4378 (a partial hit computed the same tokens in other segments)."""
    q = {"q": Noul(instructions="Is the sky blue?")}
    fresh = _fresh(smollm2_any, 16384).decide("s", q).nouls["q"].noul
    used = _fresh(smollm2_any, 16384)
    used.decide("an unrelated state about parcels", {"late": Q["late"]})
    used.decide("another one, about a refund", Q)
    assert used.decide("s", q).nouls["q"].noul == fresh


def test_cache_is_bounded_by_tokens(smollm2_any: ReadoutDecider) -> None:
    d = _fresh(smollm2_any, 400)
    for i in range(6):
        d.decide(f"unrelated state number {i} " * 20, {"late": Q["late"]})
    assert d._prefixes.cached_tokens <= 400


def test_cache_is_bounded_by_bytes(smollm2_any: ReadoutDecider) -> None:
    d = ReadoutDecider(
        smollm2_any.model, smollm2_any.tokenizer, model_id="bytes", prefix_cache_bytes=12_000_000
    )
    d.decide("a first state " * 20, {"late": Q["late"]})
    one = d._prefixes.cached_bytes
    per_token = one / d._prefixes.cached_tokens
    # SmolLM2: 30 layers x (K and V) x 3 KV heads x 64 dims x the dtype's bytes per token
    element = next(smollm2_any.model.parameters()).element_size()
    assert per_token == 30 * 2 * 3 * 64 * element
    for i in range(6):
        d.decide(f"unrelated state number {i} " * 20, {"late": Q["late"]})
    assert 0 < d._prefixes.cached_bytes <= 12_000_000
    assert d._prefixes.stats()["entries"] < 7
