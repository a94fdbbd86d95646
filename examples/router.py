"""Route support messages to specialised chains with `DecisionRouter` (embedded model).

.venv/bin/python examples/router.py
"""

from __future__ import annotations

from langchain_core.runnables import RunnableLambda

from clef_tools import Decider, load_decider
from langchain_clef import DecisionRouter, RoutedResult


def build_router(decider: Decider | None = None) -> DecisionRouter:
    return DecisionRouter(
        classifier=decider or load_decider(progress=True),
        instructions="Which team should handle this customer message?",
        routes={
            "billing": (
                RunnableLambda(lambda m: f"[billing] refund ticket opened for: {m}"),
                "charges, refunds, invoices",
            ),
            "shipping": (
                RunnableLambda(lambda m: f"[shipping] tracking request for: {m}"),
                "parcels, delivery, tracking",
            ),
            "human": (
                RunnableLambda(lambda m: f"[human] queued for an agent: {m}"),
                "anything else, or unclear",
            ),
        },
        min_confidence=0.2,
        fallback="human",
        include_decision=True,
    )


def main(decider: Decider | None = None) -> list[RoutedResult]:
    router = build_router(decider)
    messages = [
        "Refund the duplicate charge on my card, please.",
        "My parcel has been stuck in transit for nine days.",
    ]
    results: list[RoutedResult] = router.batch(messages)
    for message, result in zip(messages, results, strict=True):
        probs = ", ".join(f"{k} {v:.2f}" for k, v in result.answer.probabilities.items())
        print(
            f"{message}\n  -> {result.route} (confidence {result.answer.confidence:.2f}; {probs})\n  {result.output}"
        )
    return results


if __name__ == "__main__":
    main()
