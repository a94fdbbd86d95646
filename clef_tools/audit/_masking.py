"""What of a call's arguments an audit row may keep: a digest of the whole, and a bounded
preview in which anything that looks like a credential is masked.

An audit log is read by more people than the agent's operator, and it outlives the
session; a key pasted into a tool call must not outlive it with it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from clef_tools.protocol._secrets import MASK, SECRET_VALUES

__all__ = ["MASK", "args_digest", "masked", "preview"]

#: Argument names whose values are secrets whatever they look like.
_SECRET_KEYS = re.compile(
    r"(pass(word|wd|phrase)?|secret|token|api[_-]?key|apikey|auth|credential|private[_-]?key"
    r"|session[_-]?key|cookie|bearer|access[_-]?key|signature|otp|pin)$",
    re.IGNORECASE,
)


def _mask_text(text: str) -> str:
    for pattern, replacement in SECRET_VALUES:
        text = pattern.sub(replacement, text)
    return text


def masked(value: Any, *, depth: int = 0) -> Any:
    """`value` with secret-named fields and secret-looking strings replaced by `MASK`."""
    if depth > 32:
        return MASK  # deeper than any real call: not worth the risk of keeping
    if isinstance(value, Mapping):
        return {
            str(k): MASK
            if _SECRET_KEYS.search(str(k)) and v not in (None, "")
            else masked(v, depth=depth + 1)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [masked(v, depth=depth + 1) for v in value]
    if isinstance(value, str):
        return _mask_text(value)
    return value


def args_digest(args: Any) -> str:
    """A stable digest of the arguments as given (secrets included: it cannot be reversed,
    and two rows with the same digest are the same call)."""
    canonical = json.dumps(args, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def preview(args: Any, limit: int = 512) -> str:
    """The masked arguments as JSON, at most `limit` characters (cut with a marker)."""
    text = json.dumps(masked(args), sort_keys=True, ensure_ascii=False, default=str)
    if len(text) <= limit:
        return text
    return text[: max(limit - 15, 0)] + f"… (+{len(text) - limit + 15} chars)"
