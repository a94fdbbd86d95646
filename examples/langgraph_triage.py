"""A LangGraph graph that branches on a decision (embedded model).

    .venv/bin/python examples/langgraph_triage.py

`decision_node` asks a Choice about the ticket, writes the full answer into graph state and
jumps to the matching node with `Command(goto=...)`.
"""

from __future__ import annotations

from typing import Any, TypedDict

from langchain_core.decisions import Choice
from langgraph.graph import END, START, StateGraph

from clef_tools import load_decider
from langchain_clef import decision_node


class Ticket(TypedDict, total=False):
    text: str
    triage: dict[str, Any]
    handled_by: str


def build(decider: Any = None) -> Any:
    decider = decider or load_decider(progress=True)
    question = Choice(
        instructions="Which team should handle this support ticket?",
        criteria={
            "billing": "charges, refunds, invoices",
            "shipping": "parcels and delivery",
            "human": "anything else",
        },
    )
    graph = StateGraph(Ticket)
    graph.add_node(
        "triage",
        decision_node(
            decider,
            question,
            state_from=lambda s: s["text"],
            answer_key="triage",
            min_confidence=0.2,
            fallback="human",
        ),
        destinations=("billing", "shipping", "human"),
    )
    for team in ("billing", "shipping", "human"):
        graph.add_node(team, lambda s, team=team: {"handled_by": team})
        graph.add_edge(team, END)
    graph.add_edge(START, "triage")
    return graph.compile()


def main(decider: Any = None) -> list[Ticket]:
    app = build(decider)
    results = []
    for text in (
        "Refund the duplicate charge on my card, please.",
        "Where is my parcel? It is a week late.",
    ):
        out = app.invoke({"text": text})
        print(f"{text}\n  -> {out['handled_by']} (p={out['triage']['probabilities']})")
        results.append(out)
    return results


if __name__ == "__main__":
    main()
