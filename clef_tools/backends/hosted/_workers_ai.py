"""`WorkersAIClient`: Clef-Flash (or Clef) hosted on Cloudflare Workers AI.

Workers AI wraps every answer in `{result, success, errors, messages}` and reports
failures as numbered codes whose HTTP status alone is ambiguous: a 429 is either "out of
capacity" (3040, retry) or "daily free allocation used up" (3036, do not), and a 529 can
carry 5012. `_CODES` maps each code of Cloudflare's error table
(developers.cloudflare.com/workers-ai/platform/errors/) onto the `ClefError` tree.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import httpx

from clef_tools.backends.hosted._hosted import HostedDecider, _Attempt, classify_status, refused
from clef_tools.backends.hosted._retry import RetryPolicy, parse_retry_after
from clef_tools.protocol._errors import (
    AuthenticationError,
    ModelUnavailableError,
    QuotaExceededError,
    RateLimitError,
    RemoteError,
    RemoteTimeoutError,
    StateTooLongError,
    UnsupportedInputError,
)
from clef_tools.protocol._media import split_images
from clef_tools.protocol._render import render_state
from clef_tools.protocol._validation import DecisionRequest
from clef_tools.protocol._wire import request_to_wire

__all__ = ["WorkersAIClient"]

DEFAULT_API_BASE = "https://api.cloudflare.com/client/v4"
CLEF_FLASH = "@cf/cloudflare/clef-flash"

#: What each documented error code means here. `quota`: the account's allocation is spent
#: (not retried today); `capacity`: no data centre could take it now (retried); `invalid`:
#: the request itself is wrong; `model`: no such model; `forbidden`: the account may not
#: use it; `unsupported`: the endpoint will not serve it; `timeout`: retried.
_CODES: Mapping[int, str] = {
    3036: "quota",  # Account limited: daily free allocation of neurons used up (429)
    4006: "quota",  # the same, as older responses numbered it
    3040: "capacity",  # Out of capacity: no more data centers to forward the request to (429)
    3003: "invalid",  # Incomplete request: missing headers or body (400)
    3006: "invalid",  # Request too large (413)
    3039: "invalid",  # Finetune missing required files (400)
    5004: "invalid",  # Invalid data type for base64 input (400)
    5006: "invalid",
    5012: "invalid",
    5021: "invalid",
    6003: "invalid",
    3042: "model",  # Invalid model ID (404)
    5007: "model",  # No such model or task (400)
    7000: "model",
    3023: "forbidden",  # Account blocked (403)
    3041: "forbidden",  # Account not allowed for private model (403)
    5016: "forbidden",  # Model agreement not accepted (403)
    5018: "forbidden",  # Account not allowed for private model (403)
    5005: "unsupported",  # LoRA unsupported by the model (405)
    5019: "unsupported",  # Deprecated SDK version (405)
    3007: "timeout",  # Timeout (408)
    3008: "timeout",  # Aborted (408)
}
#: The meanings answered by a `RemoteError` of their own: its class, whether it is
#: retried, and how the message puts it.
_REMOTE: Mapping[str, tuple[type[RemoteError], bool, str]] = {
    "quota": (QuotaExceededError, False, "allocation used up"),
    "capacity": (RateLimitError, True, "is out of capacity"),
    "forbidden": (AuthenticationError, False, "will not serve this account"),
    "timeout": (RemoteTimeoutError, True, "timed out"),
}
#: Clef-Flash's context window on Workers AI, in tokens.
CONTEXT_WINDOW_TOKENS = 24_576
#: Bytes of rendered state per token in the estimate made before sending (no tokenizer
#: here): English text runs about four.
_BYTES_PER_TOKEN = 4


class WorkersAIClient(HostedDecider):
    """A `Decider` over `POST {api}/accounts/{account_id}/ai/run/{model}`.

    Credentials come from arguments or `CLOUDFLARE_ACCOUNT_ID` / `CLOUDFLARE_API_TOKEN`.
    Questions without `instructions` are sent with their id as the instruction (Workers
    AI refuses an empty instruction; the release model reads a missing one as its id).
    Images in the state (data URIs / base64 blocks, at most 4) go to the `images` field.
    """

    def __init__(
        self,
        account_id: str | None = None,
        api_token: str | None = None,
        *,
        model: str = CLEF_FLASH,
        api_base: str | None = None,
        timeout: float | httpx.Timeout | None = None,
        retry: RetryPolicy | None = None,
        max_concurrency: int = 8,
        http_client: httpx.Client | None = None,
        async_http_client: httpx.AsyncClient | None = None,
        context_window_tokens: int = CONTEXT_WINDOW_TOKENS,
    ) -> None:
        super().__init__(
            timeout=timeout,
            retry=retry,
            max_concurrency=max_concurrency,
            http_client=http_client,
            async_http_client=async_http_client,
        )
        self.account_id = account_id or os.environ.get("CLOUDFLARE_ACCOUNT_ID")
        self.api_token = api_token or os.environ.get("CLOUDFLARE_API_TOKEN")
        if not self.account_id or not self.api_token:
            raise ModelUnavailableError(
                "Workers AI needs an account id and an API token: pass account_id= and "
                "api_token=, or set CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN"
            )
        self.model = model
        self.api_base = (api_base or DEFAULT_API_BASE).rstrip("/")
        self.context_window_tokens = context_window_tokens

    def __repr__(self) -> str:
        return f"WorkersAIClient(account_id={self.account_id!r}, model={self.model!r})"

    @property
    def model_id(self) -> str:
        return self.model.rsplit("/", 1)[-1]

    def check_supported(self, request: DecisionRequest, loc_prefix: tuple[str | int, ...]) -> None:
        text = request.facts.text
        if request.facts.media:
            # Raises for remote image URLs (Workers AI does not fetch them) and > 4 images.
            state, _ = split_images(request.state, (*loc_prefix, "state"))
            text = render_state(state)
        # Refused here, not after a round trip: a state past the window never fits
        estimate = len(text.encode()) // _BYTES_PER_TOKEN
        if estimate > self.context_window_tokens:
            raise StateTooLongError(
                estimate, self.context_window_tokens, loc=(*loc_prefix, "state")
            )

    kind = "workers-ai"

    def _url(self) -> str:
        return f"{self.api_base}/accounts/{self.account_id}/ai/run/{self.model}"

    def _headers(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.api_token}"}

    def _body(self, request: DecisionRequest) -> dict[str, Any]:
        state, images = split_images(request.state, ("state",))
        body = request_to_wire(DecisionRequest(state, request.questions), self.model_id)
        for qid, question in body["questions"].items():
            if not question.get("instructions"):
                question["instructions"] = qid
        if images:
            body["images"] = [image.data_uri for image in images]
        return body

    def _unwrap(self, payload: object, request_id: str | None) -> object:
        if not isinstance(payload, Mapping) or "result" not in payload:
            raise RemoteError("Workers AI answered without a `result`", request_id=request_id)
        if payload.get("success") is False:
            code, message = _first_error(payload)
            raise RemoteError(
                f"Workers AI reported failure: {message or 'no message'}",
                status=200,
                code=code,
                request_id=request_id,
            )
        return payload["result"]

    def _failure(
        self, response: httpx.Response, payload: object, request_id: str | None
    ) -> _Attempt:
        status = response.status_code
        code, message = _first_error(payload)
        message = message or response.reason_phrase or "error"
        retry_after = parse_retry_after(response.headers.get("retry-after"))
        number = _as_int(code) if code is not None else None
        meaning = _CODES.get(number) if number is not None else None
        remote = _REMOTE.get(meaning) if meaning is not None else None
        if remote is not None:
            kind, retryable, what = remote
            if kind is RateLimitError and status not in (429, 529):
                status = 429
            # rate limits carry the server's retry-after; a retried attempt waits for it
            limited = issubclass(kind, RateLimitError | QuotaExceededError)
            return _Attempt(
                kind(
                    f"Workers AI {what} ({code}): {message}",
                    status=status,
                    code=code,
                    request_id=request_id,
                    retry_after=retry_after if limited else None,
                ),
                retryable=retryable,
                retry_after=retry_after if retryable else None,
            )
        if meaning == "invalid" and status < 500:
            return refused(
                f"Workers AI refused the request ({code}): {message}", status, request_id
            )
        if meaning == "model":
            return _Attempt(
                UnsupportedInputError(
                    "model", f"Workers AI has no model {self.model!r} ({code}): {message}"
                ),
                retryable=False,
            )
        if meaning == "unsupported":
            return _Attempt(
                UnsupportedInputError("model", f"Workers AI will not serve it ({code}): {message}"),
                retryable=False,
            )
        return classify_status(
            status, message, code=code, request_id=request_id, retry_after=retry_after
        )


def _as_int(code: int | str) -> int | None:
    if isinstance(code, int) and not isinstance(code, bool):
        return code
    return int(code) if isinstance(code, str) and code.isdigit() else None


def _first_error(payload: object) -> tuple[int | str | None, str]:
    """`(code, message)` of the first entry of an envelope's `errors`, if any."""
    errors = payload.get("errors") if isinstance(payload, Mapping) else None
    first = errors[0] if isinstance(errors, Sequence) and errors else None
    if not isinstance(first, Mapping):
        return None, ""
    return first.get("code"), str(first.get("message", ""))
