"""Every error clef-tools raises on purpose, in one tree.

```
ClefError
├── RequestValidationError   bad request: names the field path(s); maps to HTTP 422 / MCP is_error
│   └── StateTooLongError    the rendered request does not fit the backend's context
├── UnsupportedInputError    valid request, but this backend cannot answer it (e.g. images, box)
├── ModelUnavailableError    the model's files are missing, incomplete or fail their checksum
│   └── MissingExtraError    an optional extra is not installed (also an ImportError)
└── BackendError             the scorer itself failed (a forward pass, a remote endpoint)
    └── RemoteError          a hosted endpoint answered with an error (status, code, request id)
        ├── AuthenticationError   401/403: the key or token is wrong
        ├── RateLimitError        429/529 still failing after the retries (retryable later)
        ├── QuotaExceededError    the daily allocation is spent (Workers AI 3036): not retried
        └── RemoteTimeoutError    no answer within the timeout, after the retries
```

A hosted endpoint's 422 (or Workers AI's 5012) becomes `RequestValidationError` like a
local one, with the remote `request_id` attached, so callers handle both the same way.

Each class is also the matching `langchain_core.exceptions` error (validation →
`ModelInvalidRequestError`, too long → `ContextOverflowError`, auth →
`ModelAuthenticationError`, rate limit → `ModelRateLimitError`, timeout →
`ModelTimeoutError`, other remote failures → `ModelAPIError`, missing weights →
`ModelNotFoundError`), so LangChain's retry logic reads `is_retryable` and never retries
a bad request; a spent quota is a rate limit that is not retryable.

Callers branch on the class, never on message text. Errors from torch or transformers
are translated at one boundary (`Decider._run_scorer`), so nothing deeper leaks out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from langchain_core.exceptions import (
    ContextOverflowError,
    ModelAPIError,
    ModelAuthenticationError,
    ModelError,
    ModelInvalidRequestError,
    ModelNotFoundError,
    ModelRateLimitError,
    ModelTimeoutError,
)

from clef_tools.protocol._limits import MAX_LISTED_ISSUES

__all__ = [
    "AuthenticationError",
    "BackendError",
    "ClefError",
    "ConfigError",
    "FieldIssue",
    "IssueList",
    "MissingExtraError",
    "ModelUnavailableError",
    "PolicyError",
    "QuotaExceededError",
    "RateLimitError",
    "RemoteError",
    "RemoteTimeoutError",
    "RequestValidationError",
    "StateTooLongError",
    "UnsupportedInputError",
]


class ClefError(Exception):
    """Base class of every error clef-tools raises deliberately."""


@dataclass(frozen=True)
class FieldIssue:
    """One problem with one field, located the way FastAPI's `detail[]` locates it."""

    loc: tuple[str | int, ...]
    msg: str
    type: str = "value_error"

    @property
    def path(self) -> str:
        """Dotted path such as `questions.route.criteria` (what users grep for)."""
        return ".".join(str(part) for part in self.loc) or "<request>"

    def as_detail(self) -> dict[str, object]:
        """The entry of a 422 `detail[]` list (`loc` prefixed with `body`)."""
        return {"loc": ["body", *self.loc], "msg": self.msg, "type": self.type}


class IssueList(list[FieldIssue]):
    """Collects problems but keeps only the first `limit`; the rest are only counted.

    A hostile request can hold a million bad fields; listing each would cost more than
    the request (a 15 MB body once produced a 195 MB error). The count still says how
    many there were.
    """

    def __init__(self, limit: int = MAX_LISTED_ISSUES) -> None:
        super().__init__()
        self.limit = limit
        self.dropped = 0

    def append(self, issue: FieldIssue) -> None:
        if len(self) < self.limit:
            super().append(issue)
        else:
            self.dropped += 1

    @property
    def full(self) -> bool:
        """No more issues will be listed: callers may stop looking."""
        return len(self) >= self.limit


class RequestValidationError(ClefError, ModelInvalidRequestError, ValueError):
    """The request breaks the System One contract; `issues` names the bad fields (the
    first 50; `dropped` counts any further ones, and a last issue says so)."""

    def __init__(self, issues: Sequence[FieldIssue], *, request_id: str | None = None) -> None:
        if not issues:
            raise ValueError("RequestValidationError needs at least one issue")
        listed = list(issues[:MAX_LISTED_ISSUES])
        self.dropped = getattr(issues, "dropped", 0) + len(issues) - len(listed)
        if self.dropped:
            listed.append(
                FieldIssue((), f"{self.dropped} more problems not listed", "too_many_errors")
            )
        self.issues: tuple[FieldIssue, ...] = tuple(listed)
        self.request_id = request_id
        """Set when a remote endpoint refused the request (quote it to the provider)."""
        super().__init__("; ".join(f"{i.path}: {i.msg}" for i in self.issues))

    @classmethod
    def at(
        cls,
        loc: Sequence[str | int],
        msg: str,
        type: str = "value_error",
        *,
        request_id: str | None = None,
    ) -> RequestValidationError:
        """Shorthand for a single-issue error."""
        return cls([FieldIssue(tuple(loc), msg, type)], request_id=request_id)

    @property
    def path(self) -> str:
        """Path of the first issue."""
        return self.issues[0].path


class StateTooLongError(RequestValidationError, ContextOverflowError):
    """Refused rather than truncated: silently dropping part of the state changes answers."""

    def __init__(self, tokens: int, limit: int, loc: Sequence[str | int] = ("state",)) -> None:
        self.tokens = tokens
        self.limit = limit
        super().__init__(
            [
                FieldIssue(
                    tuple(loc),
                    f"the request renders to {tokens} tokens; this backend reads at most "
                    f"{limit} (shorten the state; it is never truncated)",
                    "too_long",
                )
            ]
        )


class UnsupportedInputError(ClefError, ModelInvalidRequestError, ValueError):
    """The request is valid System One, but this backend cannot answer it faithfully."""

    def __init__(self, path: str, msg: str) -> None:
        self.path = path
        super().__init__(f"{path}: {msg}")


class ModelUnavailableError(ClefError, ModelNotFoundError, RuntimeError):
    """Weights or tokenizer cannot be found or verified; the message says how to fix it."""


class MissingExtraError(ModelUnavailableError, ImportError):
    """What was asked for needs an optional extra that is not installed.

    Also an `ImportError`, so code that guards an optional import the usual way keeps
    working; `extra` is the name to install (`pip install 'clef-tools[local]'`)."""

    def __init__(self, purpose: str, extra: str, module: str, command: str | None = None) -> None:
        self.extra = extra
        self.missing_module = module
        self.command = command or f"pip install 'clef-tools[{extra}]'"
        """What to run; an extra whose PyPI build does not fit every torch says more."""
        super().__init__(
            f"{purpose} needs the [{extra}] extra ({module!r} is not installed): {self.command}"
        )
        self.name = module


class BackendError(ClefError, ModelError, RuntimeError):
    """The scorer failed while answering; the original exception is chained as __cause__."""


class RemoteError(BackendError, ModelAPIError):
    """A hosted endpoint failed; `status`, the provider's `code` and `request_id` say which call."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: int | str | None = None,
        request_id: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.status = status
        self.code = code
        self.request_id = request_id
        self.retry_after = retry_after
        if type(self) is RemoteError:  # a server fault may pass; a refused request will not
            self.is_retryable = status is None or status >= 500
        where = ", ".join(
            part
            for part in (
                f"HTTP {status}" if status is not None else "",
                f"code {code}" if code is not None else "",
                f"request id {request_id}" if request_id else "",
            )
            if part
        )
        super().__init__(f"{message} ({where})" if where else message)


class AuthenticationError(RemoteError, ModelAuthenticationError):
    """The API key or token was refused (HTTP 401/403)."""

    is_retryable = False


class RateLimitError(RemoteError, ModelRateLimitError):
    """Still rate-limited or overloaded after the retries; `retry_after` when the server said."""

    is_retryable = True


class QuotaExceededError(RemoteError, ModelRateLimitError):
    """The account's allocation is spent (Workers AI 429/3036); retrying today will not help."""

    is_retryable = False


class RemoteTimeoutError(RemoteError, ModelTimeoutError):
    """The endpoint did not answer within the timeout (after the retries)."""

    is_retryable = True


class ConfigError(ClefError, ValueError):
    """A file or setting the user supplied that cannot be used, and why: a calibration, an
    example index, a review store, a risk model, a gate policy."""


class PolicyError(ConfigError):
    """A policy that cannot be used as given: malformed, or a caller's override that would
    loosen what the operator set (callers may only tighten). `field` names the setting."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
