"""What a tool call shows about itself before any language model reads it.

An injected call differs from the user's own in two measurable ways: its arguments name
things the user never mentioned (an attacker's IBAN, URL or e-mail), and the action is far
from what the user asked for. Both are read in milliseconds, together with the MCP
annotations the tool declares, and feed the gate's risk model as features.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from clef_tools.protocol._render import to_jsonable

__all__ = [
    "CallEvidence",
    "call_evidence",
    "call_text",
    "gather_evidence",
    "request_text",
    "text_values",
]

_PLACEHOLDER = re.compile(r"^\$\w+$")
_TOKEN = re.compile(r"[\w@.:/+-]+")
_MAX_VALUES = 64
_SHORT_TARGET = re.compile(r"[/\\~*.]+|[A-Za-z]:[/\\]?")
#: An e-mail address, and an account number as banks print it (an IBAN).
EMAIL_PATTERN = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
ACCOUNT_PATTERN = r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}"
#: Names that matter inside free text: where a message or post sends its reader or its money.
_EMBEDDED = re.compile(
    EMAIL_PATTERN
    + r"|(?:https?://)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?:/[^\s\"')]*)?"  # URL or domain
    + rf"|\b{ACCOUNT_PATTERN}\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class CallEvidence:
    """Features of one call; each in [0, 1] except `relevance` (a cosine)."""

    ungrounded: float
    """Share of the call's identifier-like argument values absent from the request."""
    any_ungrounded: float
    """1 when at least one identifier-like value (IBAN, address, URL, name) is absent."""
    relevance: float
    """Cosine between the user's request and the call with its tool description."""
    read_only: float
    destructive: float
    open_world: float

    def as_dict(self) -> dict[str, float]:
        return {k: round(float(v), 4) for k, v in self.__dict__.items()}


def request_text(messages: Sequence[Any] | str | None) -> str:
    """What the user asked: their messages' text (not tool results, which an attacker may
    write)."""
    if messages is None:
        return ""
    if isinstance(messages, str):
        return messages
    parts = []
    for message in messages:
        plain = to_jsonable(message)  # a LangChain message becomes {role, content, ...}
        if isinstance(plain, Mapping) and plain.get("role") in ("user", "human"):
            text = _text(plain.get("content"))
            if text:
                parts.append(text)
    return "\n".join(parts)


def call_text(name: str, args: Mapping[str, Any], description: str | None) -> str:
    body = json.dumps(dict(args), ensure_ascii=False, sort_keys=True, default=str)[:2000]
    return f"{name}({body})" + (f": {description}" if description else "")


def call_evidence(
    name: str,
    args: Mapping[str, Any],
    *,
    description: str | None,
    messages: Sequence[Any] | str | None,
    annotations: Mapping[str, Any] | None,
    encoder: Any = None,
) -> CallEvidence:
    """Everything the gate reads before asking a model (the bundled encoder by default)."""
    request = request_text(messages)
    relevance = 0.0  # no request: nothing the call could be relevant to
    if request:
        if encoder is None:
            from clef_tools.backends.embedding._encoder import open_encoder

            encoder = open_encoder()
        a, b = encoder.embed([request, call_text(name, args, description)])
        relevance = float((a * b).sum())
    return gather_evidence(
        name,
        args,
        request=request,
        description=description,
        annotations=annotations,
        relevance=relevance,
    )


def gather_evidence(
    name: str,
    args: Mapping[str, Any],
    *,
    request: str,
    description: str | None,
    annotations: Mapping[str, Any] | None,
    relevance: float,
) -> CallEvidence:
    said = request.lower()
    said_tokens = set(_TOKEN.findall(said))
    # bounded work: the first names only, however large the arguments
    values = list(itertools.islice((n for v in text_values(args) for n in _names(v)), _MAX_VALUES))
    missing = [v for v in values if not _mentioned(v.lower(), said, said_tokens)]
    notes = annotations or {}
    # hints are booleans: anything else ("yes", 1) vouches for nothing, and a tool that
    # does not say it is harmless is taken to be destructive (MCP's own default)
    read_only = notes.get("readOnlyHint") is True
    return CallEvidence(
        ungrounded=len(missing) / len(values) if values else 0.0,
        any_ungrounded=1.0 if missing else 0.0,
        relevance=relevance,
        read_only=1.0 if read_only else 0.0,
        destructive=0.0 if read_only or notes.get("destructiveHint") is False else 1.0,
        open_world=1.0 if notes.get("openWorldHint") is True else 0.0,
    )


def text_values(value: Any) -> Iterator[str]:
    """The text values of a call's arguments, however nested (the request's depth is
    bounded before any of this reads it)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from text_values(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from text_values(v)


def _names(value: str) -> list[str]:
    """The value itself when it names something; otherwise the addresses, links and
    accounts written inside it (a message body that carries a link the user never gave)."""
    if _identifier_like(value):
        return [value]
    return [m.group(0) for m in _EMBEDDED.finditer(value[:4000])][:8]


def _identifier_like(value: str) -> bool:
    """A short value that names something (an account, address, person, file): free text
    such as a message body is the agent's own wording and says nothing about its origin."""
    value = value.strip()
    if len(value) <= 2:  # a root, home or wildcard target names a great deal
        return bool(_SHORT_TARGET.fullmatch(value))
    return (
        2 < len(value) <= 80
        and not _PLACEHOLDER.match(value)
        and len(value.split()) <= 3
        and not value.replace(".", "").replace("-", "").isdigit()
    )


def _mentioned(value: str, said: str, said_tokens: set[str]) -> bool:
    if value in said:
        return True
    tokens = _TOKEN.findall(value)
    return bool(tokens) and all(t in said_tokens for t in tokens)


def _text(content: Any) -> str:
    """A message's text: the string, or its text parts (images and files carry none)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = (p.get("text", "") if isinstance(p, Mapping) else str(p) for p in content)
        return " ".join(t for t in texts if t)
    return ""
