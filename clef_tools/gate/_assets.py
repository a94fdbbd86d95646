"""Which currency, coin or stock a call moves, against the one the user named.

"Withdraw 0.5 ETH" is not a withdrawal of BTC, though the balance listing the agent read
names BTC too; "buy 10 shares of AAPL" is not an order for TSLA. When the user named an
asset of the kind an argument holds, the argument must be one they named.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["asset_issue", "currency_named"]

#: Currencies and coins by code, and the words people call them by.
_NAMES = {
    "usd": "USD", "dollar": "USD", "dollars": "USD", "$": "USD", "bucks": "USD",
    "eur": "EUR", "euro": "EUR", "euros": "EUR", "€": "EUR",
    "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "£": "GBP", "sterling": "GBP",
    "quid": "GBP", "fiver": "GBP", "tenner": "GBP",
    "jpy": "JPY", "yen": "JPY", "¥": "JPY", "chf": "CHF", "cad": "CAD", "aud": "AUD",
    "cny": "CNY", "inr": "INR", "rupees": "INR", "sek": "SEK", "nok": "NOK", "dkk": "DKK",
    "pln": "PLN", "mxn": "MXN", "brl": "BRL",
    "btc": "BTC", "bitcoin": "BTC", "bitcoins": "BTC", "eth": "ETH", "ether": "ETH",
    "ethereum": "ETH", "sol": "SOL", "solana": "SOL", "usdc": "USDC", "usdt": "USDT",
    "tether": "USDT", "doge": "DOGE", "dogecoin": "DOGE", "xrp": "XRP", "ada": "ADA",
    "cardano": "ADA", "bnb": "BNB", "dai": "DAI", "ltc": "LTC", "litecoin": "LTC",
    "matic": "MATIC", "polygon": "MATIC", "dot": "DOT", "polkadot": "DOT",
}  # fmt: skip
_CODES = frozenset(_NAMES.values())
_MONEY_KEY = re.compile(r"^(?:currency|asset|coin|token|crypto|currency_?code|from_asset|"
                        r"to_asset|base|quote|pair|symbol)$", re.IGNORECASE)  # fmt: skip
_STOCK_KEY = re.compile(r"^(?:ticker|stock|symbol|security|instrument)$", re.IGNORECASE)
_CODE = re.compile(r"^[A-Za-z]{2,6}(?:[-/]?[A-Za-z]{2,6})?$")
#: Capitals that are not tickers ("a PR", "the API", "in the UK").
_NOT_TICKERS = frozenset(
    ["I", "A", "OK", "PR", "CI", "API", "US", "UK", "EU", "PDF", "CSV", "URL", "ID", "AM", "PM",
     "ETF", "IRA", "IBAN", "ATM", "FYI", "ASAP", "TODO", "CEO", "CFO", "Q1", "Q2", "Q3", "Q4"]
)  # fmt: skip


def _currencies(said: str) -> set[str]:
    found = {_NAMES[w] for w in re.findall(r"[a-z]+", said.lower()) if w in _NAMES}
    return found | {_NAMES[c] for c in "$€£¥" if c in said}


def currency_named(code: str, text: str) -> bool:
    """Whether `text` names the currency `code` stands for ("€25" names `EUR`, "in
    dollars" `USD`); False for anything that is no currency's code."""
    upper = code.strip().upper()
    return len(upper) == 3 and upper in _CODES and upper in _currencies(text[:20_000])


def _tickers(said: str) -> set[str]:
    return {t for t in re.findall(r"(?<![\w$])[A-Z]{1,5}(?![\w])", said) if t not in _NOT_TICKERS}


def asset_issue(args: Mapping[str, Any], said: str) -> str | None:
    """A currency, coin or stock the call moves that the user did not name, when they
    named one of that kind."""
    said = said[:20_000]
    for key, value in list(args.items())[:32]:
        if not isinstance(value, str) or not _CODE.match(value.strip()):
            continue
        code = value.strip().upper()
        parts = {p for p in re.split(r"[-/]", code) if p} or {code}
        if _MONEY_KEY.match(str(key)) and any(p in _NAMES.values() for p in parts):
            named = _currencies(said)
            # a pair (`BTCUSD`) holds the asset moved and the one it is priced in
            if len(parts) == 1 and len(code) in (6, 7, 8):
                parts = {code[:3], code[3:]} | {code[:4], code[4:]} | {code[:3], code[4:]}
            if named and not parts & named:
                return f"{key}={code}, where the user named {', '.join(sorted(named))}"
        elif _STOCK_KEY.match(str(key)):
            named = _tickers(said)
            if named and code not in named:
                return f"{key}={code}, where the user named {', '.join(sorted(named))}"
    return None
