"""Decisions of the embedded default model whose answers are obvious to a person.

Thresholds are deliberately loose (this is a 1.5B model read out without training); each
test still fails if the model, the prompt or the readout breaks.
"""

from __future__ import annotations

import json

import pytest
from _paths import DATA
from langchain_core.decisions import Choice, Noul, Score

from clef_tools import ReadoutDecider

pytestmark = pytest.mark.embedded

SUPPORT = Choice(
    instructions="Which team should handle this customer message?",
    criteria={
        "fraud": "stolen cards, unauthorised transactions",
        "shipping": "delivery, tracking, lost or late parcels",
        "billing": "charges, refunds, invoices",
    },
)
DESTRUCTIVE = Noul(
    instructions="Would running this shell command delete or irreversibly change files?"
)
ANGER = Score(
    instructions="How angry is the customer?",
    criteria=["calm", "mildly annoyed", "angry", "furious"],
)


def test_stolen_card_goes_to_fraud_not_shipping(embedded: ReadoutDecider) -> None:
    answer = embedded.decide(
        "My card was stolen yesterday and there are two charges I did not make.",
        {"team": SUPPORT},
    ).choices["team"]
    assert answer.choice == "fraud"
    # "charges" makes billing a fair runner-up; shipping must trail clearly
    assert answer.probabilities["fraud"] > answer.probabilities["shipping"] + 0.1


def test_parcel_question_goes_to_shipping(embedded: ReadoutDecider) -> None:
    answer = embedded.decide(
        "Where is my parcel? Tracking has said in transit for nine days.", {"team": SUPPORT}
    ).choices["team"]
    assert answer.choice == "shipping"


def test_destructive_command_scores_higher_than_a_read(embedded: ReadoutDecider) -> None:
    rm = embedded.decide({"command": "rm -rf /home/alice"}, {"d": DESTRUCTIVE}).nouls["d"].noul
    ls = embedded.decide({"command": "ls -la /home/alice"}, {"d": DESTRUCTIVE}).nouls["d"].noul
    # The 1.5B model ranks these reliably but is still yes-leaning after contextual
    # calibration (ls ≈ 0.56), so the check is on the ordering and the margin.
    assert rm > 0.5
    assert rm > ls + 0.15, (rm, ls)


def test_anger_score_orders_messages(embedded: ReadoutDecider) -> None:
    calm = embedded.decide("Thanks, no rush, whenever you can.", {"a": ANGER}).scores["a"]
    furious = embedded.decide(
        "THIS IS THE THIRD TIME YOU HAVE FAILED ME. I AM FURIOUS. FIX IT NOW!!!", {"a": ANGER}
    ).scores["a"]
    assert furious.score > calm.score + 1.0


def test_banking77_with_all_77_intents(embedded: ReadoutDecider) -> None:
    data = DATA / "banking77" / "categories.json"
    intents = json.loads(data.read_text())
    question = Choice(
        instructions="Which intent does this banking customer message express?",
        criteria={name: name.replace("_", " ") for name in intents},
    )
    answer = embedded.decide("I lost my card and I think someone stole it.", {"intent": question})
    probs = answer.choices["intent"].probabilities
    assert len(probs) == 77
    top3 = sorted(probs, key=probs.__getitem__, reverse=True)[:3]
    assert "lost_or_stolen_card" in top3, top3
