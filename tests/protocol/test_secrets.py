"""What counts as a credential in text: read by the audit log's masking and the gate."""

from __future__ import annotations

import pytest

from clef_tools.protocol._secrets import secrets_in


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Your Facebook security code is 463820.", ["463820"]),
        ("PIN: 0912", ["0912"]),
        (
            "use ghp_abcdefghijklmnopqrstuvwxyz0123 for the push",
            ["ghp_abcdefghijklmnopqrstuvwxyz0123"],
        ),
        ("Friday works for lunch!", []),
        ("code review at 10", []),
        ("Use promo code: SAVE10 at checkout", []),  # a code anyone may have
        ("Our zip code is 10001.", []),
    ],
)
def test_credentials_in_text(text: str, found: list[str]) -> None:
    assert secrets_in(text) == found
