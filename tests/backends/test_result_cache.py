"""`CachedDecider` over SmolLM2: hits equal misses exactly, keys see what matters, bounds hold."""

from __future__ import annotations

import time
from collections.abc import Sequence

from clef_tools import (
    CachedDecider,
    Decider,
    DecisionRequest,
    ReadoutDecider,
    RequestScores,
    ToolGate,
)

Q = {
    "late": {"type": "noul", "instructions": "Is a parcel late?"},
    "team": {"type": "choice", "criteria": {"billing": None, "shipping": None}},
}


class Counting(Decider):
    def __init__(self, inner: Decider) -> None:
        self.inner = inner
        self.calls = 0

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        self.calls += len(requests)
        return self.inner._score(requests)


def test_hit_returns_exactly_the_miss(smollm2: ReadoutDecider) -> None:
    counting = Counting(smollm2)
    cached = CachedDecider(counting)
    first = cached.decide("Where is my parcel?", Q)
    second = cached.decide("Where is my parcel?", Q)
    assert counting.calls == 1
    assert first.model_dump() == second.model_dump()
    assert cached.stats() == {"hits": 1, "misses": 1, "entries": 1}
    # order of questions, the state and the questions themselves are part of the key
    cached.decide("Where is my parcel?", dict(reversed(Q.items())))
    cached.decide("Where is my parcel!", Q)
    cached.decide("Where is my parcel?", {"late": Q["late"]})
    assert counting.calls == 4


async def test_async_batch_mixes_hits_and_misses(smollm2: ReadoutDecider) -> None:
    counting = Counting(smollm2)
    cached = CachedDecider(counting)
    cached.decide("a", Q)
    out = await cached.adecide_batch(
        [{"state": "a", "questions": Q}, {"state": "b", "questions": Q}]
    )
    assert counting.calls == 2  # "a" once, "b" once
    assert out[0].nouls["late"].noul == cached.decide("a", Q).nouls["late"].noul


def test_ttl_and_size_bounds(smollm2: ReadoutDecider) -> None:
    counting = Counting(smollm2)
    cached = CachedDecider(counting, max_entries=2, ttl_s=0.2)
    for state in ("a", "b", "c"):
        cached.decide(state, {"late": Q["late"]})
    assert cached.stats()["entries"] == 2
    cached.decide("a", {"late": Q["late"]})  # evicted (oldest) → computed again
    assert counting.calls == 4
    time.sleep(0.25)
    cached.decide("a", {"late": Q["late"]})  # expired → computed again
    assert counting.calls == 5


def test_gates_bypass_the_cache_unless_asked(smollm2: ReadoutDecider) -> None:
    cached = CachedDecider(smollm2)
    assert ToolGate(cached).decider is smollm2
    assert ToolGate(cached, use_result_cache=True).decider is cached
