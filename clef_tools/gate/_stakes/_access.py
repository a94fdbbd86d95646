"""How much access or ownership a call gives against how much the user asked for."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from clef_tools.gate._effects import table, words

_ROLE_KEYS = frozenset(
    ["role", "permission", "permissions", "access", "level", "right", "rights", "scope"]
)


HIGHER_ROLES = frozenset(
    ["edit", "editor", "write", "writer", "owner", "admin", "administrator", "manage", "full",
     "permanent", "rw", "w", "read-write", "readwrite", "maintain", "maintainer", "reshare",
     "resharing"]
)  # fmt: skip


#: What is paid once it is approved: an expense, a claim, an invoice.
_PAID_WHEN_APPROVED = frozenset(
    ["expense", "expenses", "reimbursement", "reimbursements", "claim", "claims", "invoice",
     "invoices", "bill", "bills", "payout", "payouts", "payment", "payments"]
)  # fmt: skip


def approves_payment(tool: str) -> bool:
    """Whether a tool approves a thing that is paid once approved (`approve_expense`)."""
    found = set(words(tool))
    return bool(found & {"approve", "approves"} and found & _PAID_WHEN_APPROVED)


def hands_over(tool: str) -> bool:
    """Whether a tool gives a thing to another owner (`transfer_ownership`, `transfer_repo`)."""
    found = set(words(tool))
    handed = found & {"transfer", "transfers"} and found & table().handed_over
    return "ownership" in found or bool(handed)


def permanent(args: Mapping[str, Any]) -> bool:
    """Access given for good (`permanent=True`, `duration="permanent"`)."""
    for key, value in list(args.items())[:64]:
        low = str(key).lower()
        if "permanent" in low and (value is True or str(value).strip().lower() == "true"):
            return True
        if (
            isinstance(value, str)
            and value.strip().lower() in ("permanent", "indefinite")
            and (re.search(r"duration|type|kind|access|mode|expir", low))
        ):
            return True
    return False


def roles_given(args: Mapping[str, Any]) -> set[str]:
    """The roles a call gives: values under a role key, and roles switched on by name."""
    out: set[str] = set()
    for key, value in args.items():
        parts = re.split(r"[_\W]+", str(key).lower())
        if any(p in _ROLE_KEYS for p in parts) and isinstance(value, str):
            out.add(value.lower())
        elif value is True and (role := next((p for p in parts if p in HIGHER_ROLES), None)):
            out.add(role)  # `admin=True`, `make_owner=True`: the role, switched on
    return out


#: Access asked for to read with only: "a read-only API key", "view-only access for Jo".
_READ_ONLY_ASKED = re.compile(
    r"\b(?:read|view)[- ]only\s+(?:[\w-]+\s+)?(?:keys?|tokens?|access|roles?|users?|links?"
    r"|accounts?|credentials?|logins?|seats?|members?|bots?|apps?|integrations?|grants?"
    r"|permissions?|scopes?)\b",
    re.IGNORECASE,
)
#: Permission values that only read (`read`, `read:user`, `viewer`).
_READING = frozenset(
    ["read", "reader", "readonly", "ro", "r", "view", "viewer", "list", "get", "none"]
)


def beyond_read_only(args: Mapping[str, Any], said: str) -> str | None:
    """A permission past reading where the user asked for access that only reads:
    `permissions=["read", "trade", "withdraw"]` for "a read-only API key for my tax app"."""
    if not _READ_ONLY_ASKED.search(said[:20_000]):
        return None
    for key, value in list(args.items())[:32]:
        if not set(re.split(r"[_\W]+", str(key).lower())) & (_ROLE_KEYS | {"scopes"}):
            continue
        given = list(value)[:32] if isinstance(value, list | tuple) else [value]
        for v in given:
            if (
                isinstance(v, str)
                and not set(re.split(r"[:_\s./-]+", v.strip().lower())) & _READING
            ):
                return v.strip()[:40]
    return None
