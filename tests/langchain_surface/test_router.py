from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.runnables import RunnableGenerator, RunnableLambda

from clef_tools import ReadoutDecider
from langchain_clef import DecisionRouter, RoutedResult


def _router(decider: ReadoutDecider, **kw: Any) -> DecisionRouter:
    return DecisionRouter(
        classifier=decider,
        routes={
            "billing": (RunnableLambda(lambda x: f"billing:{x}"), "charges, refunds and invoices"),
            "shipping": (RunnableLambda(lambda x: f"shipping:{x}"), "parcels and deliveries"),
            "human": (RunnableLambda(lambda x: f"human:{x}"), "anything else"),
        },
        **kw,
    )


class Runs(BaseCallbackHandler):
    def __init__(self) -> None:
        self.names: list[tuple[str | None, UUID | None]] = []

    def on_chain_start(
        self,
        serialized: Any,
        inputs: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kw: Any,
    ) -> None:
        self.names.append((kw.get("name"), parent_run_id))

    def on_llm_start(
        self,
        serialized: Any,
        prompts: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kw: Any,
    ) -> None:
        self.names.append((kw.get("name"), parent_run_id))

    def on_chat_model_start(
        self,
        serialized: Any,
        messages: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kw: Any,
    ) -> None:
        self.names.append((kw.get("name"), parent_run_id))


def test_routes_by_the_decision_and_exposes_it(smollm2: ReadoutDecider) -> None:
    router = _router(smollm2, include_decision=True)
    result = router.invoke("I was charged twice")
    assert isinstance(result, RoutedResult)
    assert result.output == f"{result.route}:I was charged twice"
    assert result.route == result.answer.choice and not result.fell_back
    assert set(result.answer.probabilities) == {"billing", "shipping", "human"}


def test_low_confidence_goes_to_the_fallback(smollm2: ReadoutDecider) -> None:
    result = _router(smollm2, min_confidence=1.0, fallback="human", include_decision=True).invoke(
        "hmm"
    )
    assert result.route == "human" and result.fell_back and result.output == "human:hmm"


def test_the_decision_is_a_child_run_in_traces(smollm2: ReadoutDecider) -> None:
    runs = Runs()
    _router(smollm2).invoke("parcel late", {"callbacks": [runs]})
    names = [n for n, _ in runs.names]
    assert (
        names[0] == "DecisionRouter"
        and "decision" in names
        and any(str(n).startswith("route:") for n in names)
    )
    assert all(parent is not None for _, parent in runs.names[1:])


def test_batch_nests_each_decision_under_its_router_run(smollm2: ReadoutDecider) -> None:
    runs = Runs()
    _router(smollm2).batch(["charged twice", "parcel lost"], {"callbacks": [runs]})
    names = [n for n, _ in runs.names]
    assert names.count("DecisionRouter") == 2 and names.count("decision") == 2
    tops = [(n, p) for n, p in runs.names if p is None]
    assert [n for n, _ in tops] == ["DecisionRouter", "DecisionRouter"]


async def test_async_batch_and_stream(smollm2: ReadoutDecider) -> None:
    router = _router(smollm2)
    inputs = ["charged twice", "parcel lost", "hello"]
    sync = [router.invoke(x) for x in inputs]
    assert router.batch(inputs) == sync
    assert [await router.ainvoke(x) for x in inputs] == sync

    def gen_a(chunks: Any) -> Any:
        for _ in chunks:
            yield from ("a1", "a2")

    def gen_b(chunks: Any) -> Any:
        for _ in chunks:
            yield from ("b1", "b2")

    async def agen_a(chunks: Any) -> Any:
        async for _ in chunks:
            for c in ("a1", "a2"):
                yield c

    async def agen_b(chunks: Any) -> Any:
        async for _ in chunks:
            for c in ("b1", "b2"):
                yield c

    streaming = DecisionRouter(
        classifier=smollm2,
        routes={
            "a": (RunnableGenerator(gen_a, agen_a), "first"),
            "b": (RunnableGenerator(gen_b, agen_b), "second"),
        },
    )
    runs = Runs()
    chunks = list(streaming.stream("x", {"callbacks": [runs]}))
    assert chunks in (["a1", "a2"], ["b1", "b2"])
    assert runs.names[0][0] == "DecisionRouter" and "decision" in [n for n, _ in runs.names]
    assert all(parent is not None for _, parent in runs.names[1:])  # nested under the router
    achunks = [c async for c in streaming.astream("x")]
    assert achunks == chunks


def test_bad_configuration_is_refused(smollm2: ReadoutDecider) -> None:
    with pytest.raises(ValueError, match="fallback 'nope'"):
        _router(smollm2, fallback="nope")


def test_the_old_decision_model_keyword_still_routes_with_a_deprecation_warning(
    smollm2: ReadoutDecider,
) -> None:
    routes: Any = {
        "billing": (RunnableLambda(lambda x: f"billing:{x}"), "charges, refunds and invoices"),
        "shipping": (RunnableLambda(lambda x: f"shipping:{x}"), "parcels and deliveries"),
    }
    with pytest.warns(DeprecationWarning, match="classifier="):
        old = DecisionRouter(decision_model=smollm2, routes=routes)
    new = DecisionRouter(classifier=smollm2, routes=routes)
    assert old.invoke("I was charged twice") == new.invoke("I was charged twice")
