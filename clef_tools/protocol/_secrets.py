"""What a credential looks like in text: keys, tokens, private keys, a password or a
one-time code given in words.

Two readers need the same list: the audit log masks them in what it keeps, and the gate
holds back a message that carries one the user did not give.
"""

from __future__ import annotations

import re

__all__ = ["MASK", "SECRET_VALUES", "secrets_in"]

MASK = "***"

#: Values that are secrets wherever they appear (in a command line, a URL, a header), with
#: what replaces them (a prefix that names the secret is kept, so the row still reads).
SECRET_VALUES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}"), MASK),  # OpenAI style keys
    (re.compile(r"\b(sk|rk|whsec)_(?:live|test)_[A-Za-z0-9]{16,}"), MASK),  # Stripe secret keys
    (re.compile(r"\b(ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}"), MASK),
    (re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"), MASK),  # Slack
    (re.compile(r"\bAKIA[0-9A-Z]{16}\b"), MASK),  # AWS access key id
    (re.compile(r"\bAIza[0-9A-Za-z_-]{30,}"), MASK),  # Google API key
    (re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"), MASK),  # JWT
    (
        re.compile(
            r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)"
        ),
        MASK,
    ),
    (re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{12,}"), rf"\1 {MASK}"),
    (re.compile(r"(://[^/\s:@]+:)[^@\s/]+@"), rf"\1{MASK}@"),  # user:password@ in a URL
    (
        re.compile(
            r"(?i)\b((?:password|passwd|pwd|secret|token|api[_-]?key|apikey)\s*[=:]\s*)"
            r"(\"[^\"]*\"|'[^']*'|[^\s&;,]+)"
        ),
        rf"\1{MASK}",
    ),
    (re.compile(r"(?i)(--?(?:password|passwd|token|api-key|secret)[= ])(\S+)"), rf"\1{MASK}"),
    # SQL: `ALTER ROLE bob PASSWORD 'x'`, `CREATE USER u IDENTIFIED BY 'x'`, `SET PASSWORD
    # FOR u = 'x'` (a quoted literal right after the keyword, or after `=` in SET PASSWORD)
    (
        re.compile(
            r"(?i)\b((?:(?:encrypted\s+)?password|identified\s+(?:with\s+\w+\s+)?by)\s+"
            r"|set\s+password\b[^=;\n]{0,80}=\s*)('[^']*'|\"[^\"]*\")"
        ),
        rf"\1{MASK}",
    ),
)


#: A one-time code or a password given in words ("Your code is 4421", "PIN: 0912"): what a
#: message carries out of an inbox, not what an audit row must mask.
_SPOKEN_SECRET = re.compile(
    r"(?i)(?:\b([\w-]+)\s+)?\b(?:code|password|passcode|passwd|pin|otp)\s*(?:is|was|:|=)\s*"
    r"([A-Za-z0-9-]{4,})"
)
#: Codes that are not credentials ("promo code: SAVE10", "zip code is 10001").
_PUBLIC_CODES = frozenset(
    ["promo", "promotional", "discount", "coupon", "voucher", "zip", "postal", "post", "area",
     "country", "dress", "status", "error", "source", "tracking", "referral", "gift", "sort"]
)  # fmt: skip


def secrets_in(text: str) -> list[str]:
    """The credentials written in `text` (keys, tokens, private keys, a password or a
    one-time code given in words), as they stand."""
    text = text[:100_000]
    found = [m.group(0) for pattern, _ in SECRET_VALUES for m in pattern.finditer(text)]
    return found + [
        m.group(2)
        for m in _SPOKEN_SECRET.finditer(text)
        if (m.group(1) or "").lower() not in _PUBLIC_CODES
    ]
