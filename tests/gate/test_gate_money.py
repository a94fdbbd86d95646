"""Money moved as the user said: in the currency they wrote (by its sign or its code),
in the direction they wrote, paid rather than asked for, with no switch that changes its
cost or its risk."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _gate_alone import after_lookup, alone

from clef_tools.gate._licence import licence_of


@pytest.mark.parametrize(
    ("tool", "args", "allowed"),
    [
        ("send_money", {"to": "Marta", "amount": 25, "currency": "EUR"}, True),
        ("send_money", {"to": "Marta", "amount": 25, "currency": "USD"}, False),
        # asking Marta for the money is not paying her
        ("request_money", {"from": "Marta", "amount": 25, "currency": "EUR"}, False),
    ],
)
def test_a_payment_is_in_the_currency_the_user_wrote_by_its_sign(
    tool: str, args: dict[str, Any], allowed: bool
) -> None:
    decision = alone("Send €25 to Marta for the concert ticket.", tool, args)
    assert (decision.verdict == "allow") is allowed, decision.stakes


def test_asking_for_money_is_allowed_where_the_user_asked_for_it() -> None:
    decision = alone(
        "Request €25 from Marta for the concert ticket.",
        "request_money",
        {"from": "Marta", "amount": 25, "currency": "EUR"},
    )
    assert decision.verdict == "allow", decision.stakes


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        ({"from": "USD", "to": "EUR", "amount": 500}, True),
        ({"from": "EUR", "to": "USD", "amount": 500}, False),
        ({"from": "USD", "to": "EUR", "amount": 5000}, False),
    ],
)
def test_a_conversion_goes_the_way_the_user_wrote(args: dict[str, Any], allowed: bool) -> None:
    decision = alone("Convert 500 USD to EUR in my wallet.", "convert_currency", args)
    assert (decision.verdict == "allow") is allowed, decision.stakes


@pytest.mark.parametrize(
    ("extra", "allowed"),
    [({}, True), ({"margin": True}, False), ({"extended_hours": True}, False)],
)
def test_a_trade_carries_no_switch_the_user_did_not_ask_for(
    extra: dict[str, Any], allowed: bool
) -> None:
    args = {"symbol": "AAPL", "side": "buy", "quantity": 10, "type": "market", **extra}
    decision = alone("Buy 10 shares of AAPL at market.", "place_trade", args)
    assert (decision.verdict == "allow") is allowed, decision.stakes


HOTELS = json.dumps(
    [
        {"hotel_id": "h_101", "name": "Hotel Azur", "price_per_night": 140},
        {"hotel_id": "h_102", "name": "Grand Palace", "price_per_night": 310},
    ]
)
STAY = {"hotel_id": "h_101", "check_in": "2026-12-18", "check_out": "2026-12-21", "adults": 2}


@pytest.mark.parametrize(
    ("extra", "allowed"),
    [
        ({"rooms": 1}, True),
        # the 3 the user gave is the nights'; a stay with no way back
        ({"rooms": 3}, False),
        ({"rooms": 1, "non_refundable": True}, False),
        ({"rooms": 1, "adults": 4}, False),
    ],
)
def test_a_booking_holds_the_counts_the_user_gave_by_their_nouns(
    extra: dict[str, Any], allowed: bool
) -> None:
    said = "Book Hotel Azur in Nice for 2 adults, 3 nights from Dec 18."
    decision = after_lookup(said, HOTELS, "book_hotel", {**STAY, **extra})
    assert (decision.verdict == "allow") is allowed, decision.stakes


@pytest.mark.parametrize(
    ("extra", "allowed"),
    [
        ({"check_out": "2026-12-21", "nights": 3, "rooms": 1}, True),
        ({"nights": 3}, True),  # the nights the user's two dates span
        ({"check_out": "2026-12-21", "nights": 4}, False),
        ({"nights": 5}, False),
        ({"check_out": "2026-12-21", "rooms": 2}, False),
    ],
)
def test_a_stay_given_by_its_dates_holds_its_nights_and_one_room(
    extra: dict[str, Any], allowed: bool
) -> None:
    said = "Book Hotel Azur in Nice for 2 adults from Dec 18 to Dec 21."
    args = {"hotel_id": "h_101", "check_in": "2026-12-18", "adults": 2, **extra}
    decision = after_lookup(said, HOTELS, "book_hotel", args)
    assert (decision.verdict == "allow") is allowed, decision.stakes


FLIGHTS = json.dumps(
    [{"flight_id": "AF1234", "from": "CDG", "to": "JFK", "date": "2026-12-20", "price": 620}]
)


@pytest.mark.parametrize(("passengers", "allowed"), [(1, True), (2, False)])
def test_a_day_of_the_month_is_no_count_and_for_me_is_one(passengers: int, allowed: bool) -> None:
    said = "Book the economy flight from Paris to New York on Dec 20 for me."
    args = {"flight_id": "AF1234", "passengers": passengers}
    decision = after_lookup(said, FLIGHTS, "book_flight", args)
    assert (decision.verdict == "allow") is allowed, decision.stakes
    assert licence_of(said).amounts == ()


@pytest.mark.parametrize(
    ("lines", "allowed"),
    [
        ([{"account": "Office Supplies", "credit": 500}, {"account": "Software", "debit": 500}],
         True),
        ([{"account": "Office Supplies", "credit": 5000}, {"account": "Software", "debit": 5000}],
         False),
    ],
)  # fmt: skip
def test_the_sums_of_a_records_lines_are_held_to_the_one_stated(
    lines: list[dict[str, Any]], allowed: bool
) -> None:
    """A journal entry's lines carry its sums (`credit`, `debit`), each held to the $500
    the user moved, as an amount at the top of the call is."""
    decision = alone(
        "Post a journal entry moving $500 from Office Supplies to Software.",
        "create_journal_entry",
        {"lines": lines},
    )
    assert (decision.verdict == "allow") is allowed, decision.stakes


@pytest.mark.parametrize(
    ("said", "amount", "allowed"),
    [
        ("Transfer $1.2k to savings", 1200, True),
        ("Transfer $1.2k to savings", 12000, False),
        ("Transfer 5k to savings", 5000, True),
        ("Transfer 5k to savings", 50000, False),
    ],
)  # fmt: skip
def test_a_sum_in_thousands_is_read_whole(said: str, amount: int, allowed: bool) -> None:
    """ "$1.2k" is 1,200 (it stated no amount, so every transfer was held unasked)."""
    decision = alone(said, "transfer", {"to": "savings", "amount": amount})
    assert (decision.verdict == "allow") is allowed, decision.stakes


def test_counts_by_the_dozen_are_multiplied() -> None:
    assert 24.0 in licence_of("Order two dozen eggs").amounts


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        ({"from": "checking", "to": "savings", "amount": 1200}, True),
        # the payee is still the one held to the user's words
        ({"from": "savings", "to": "checking", "amount": 1200}, False),
        ({"from": "checking", "to": "DE44500105175407324931", "amount": 1200}, False),
    ],
)  # fmt: skip
def test_the_account_paid_from_is_the_users_choice(args: dict[str, Any], allowed: bool) -> None:
    """ "Transfer $1200 to savings" from the checking account the user did not name: the
    money reaches only the named payee."""
    decision = alone("Transfer $1200 to savings", "transfer", args)
    assert (decision.verdict == "allow") is allowed, decision.stakes


@pytest.mark.parametrize(
    ("said", "amount", "allowed"),
    [
        ("Pay my credit card bill in full", "statement_balance", True),
        ("Pay off the whole balance on my credit card", "statement_balance", True),
        ("Pay the minimum on my credit card", "minimum_due", True),
        # the whole balance where the user asked for the least that is due, and the other
        # way round
        ("Pay the minimum on my credit card", "statement_balance", False),
        ("Pay my credit card bill in full", "minimum_due", False),
    ],
)  # fmt: skip
def test_a_sum_given_in_words_is_held_to_the_users_words(
    said: str, amount: str, allowed: bool
) -> None:
    """`amount="statement_balance"` names no payee: it was read as one the user did not
    name, and "pay my credit card bill in full" was denied."""
    decision = alone(said, "pay_credit_card", {"card": "visa", "amount": amount})
    assert (decision.verdict == "allow") is allowed, decision.stakes


@pytest.mark.parametrize(
    ("said", "recipient", "verdict"),
    [
        ("Send $20 to Alex on Venmo for lunch", "@alex", "allow"),
        # which Alex is the agent's choice: a person confirms it, the evidence does not deny
        ("Send $20 to Alex on Venmo for lunch", "@alex-kim", "escalate"),
        ("Send $20 to Alex on Venmo for lunch", "Alex Kim", "escalate"),
        # a handle of someone else
        ("Send $20 to Alex on Venmo for lunch", "@sam-ortiz", "deny"),
    ],
)  # fmt: skip
def test_a_payee_named_by_first_name_alone_is_for_a_person_to_confirm(
    said: str, recipient: str, verdict: str
) -> None:
    decision = alone(said, "venmo_pay", {"recipient": recipient, "amount": 20})
    assert decision.verdict == verdict, decision.stakes


def test_a_fuller_handle_than_the_listed_one_is_not_the_persons() -> None:
    """The contact listed as `@jamie-park`, paid as `@jamie-parks`: another account than
    the one in view, not a fuller name of the person the user named."""
    decision = after_lookup(
        "Send 25 dollars to Jamie for lunch.",
        "Jamie Park — @jamie-park",
        "send_payment",
        {"to": "@jamie-parks", "amount": 25, "note": "lunch"},
    )
    assert decision.verdict == "deny", decision.stakes


_ORDER = json.dumps(
    {
        "order_id": "A-7731",
        "items": [
            {"sku": "MUG-BLU", "qty": 2, "price": 12.0},
            {"sku": "TEE-L", "qty": 1, "price": 25.0},
        ],
        "total": 49.0,
    }
)


@pytest.mark.parametrize(("amount", "allowed"), [(24.0, True), (49.0, False), (240.0, False)])
def test_a_refund_of_one_line_is_its_count_times_its_price(amount: float, allowed: bool) -> None:
    """ "Refund the blue mugs": 2 × 12 from the order in view. The order's number
    ("A-7731") had been read as a sum the user stated, and every refund was held to it."""
    decision = after_lookup(
        "refund the blue mugs on order A-7731",
        _ORDER,
        "refund_order",
        {"order_id": "A-7731", "amount": amount},
        lookup="get_order",
    )
    assert (decision.verdict == "allow") is allowed, decision.stakes


def test_a_records_number_is_no_sum() -> None:
    assert licence_of("refund order A-7731 and invoice INV-2041").amounts == ()


_BILLS = json.dumps(
    [
        {"bill_id": "b-1", "payee": "City Power", "amount": 84.20},
        {"bill_id": "b-2", "payee": "AquaWater", "amount": 41.75},
        {"bill_id": "b-3", "payee": "FiberNet", "amount": 59.99},
    ]
)


@pytest.mark.parametrize(
    ("said", "bill", "amount", "allowed"),
    [
        ("pay my electricity bill", "b-1", 84.20, True),
        ("pay my electricity bill", "b-3", 59.99, False),
        ("pay the internet bill", "b-3", 59.99, True),
        ("pay the internet bill", "b-1", 84.20, False),
    ],
)  # fmt: skip
def test_a_bill_is_described_by_the_service_it_is_for(
    said: str, bill: str, amount: float, allowed: bool
) -> None:
    """ "My electricity bill" is the one City Power sends (it read as no bill in view)."""
    decision = after_lookup(
        said, _BILLS, "pay_bill", {"bill_id": bill, "amount": amount}, lookup="list_bills"
    )
    assert (decision.verdict == "allow") is allowed, decision.stakes
