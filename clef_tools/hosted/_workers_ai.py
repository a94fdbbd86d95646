"""`WorkersAIClient`: Clef-Flash (or Clef) hosted on Cloudflare Workers AI.

Workers AI wraps every answer in `{result, success, errors, messages}` and reports
failures as numbered codes whose HTTP status alone is ambiguous: a 429 is either
"capacity temporarily exceeded" (3040, retry) or "daily allocation spent" (4006, do not),
and a 529 can carry 5012. This module maps those codes onto the `ClefError` tree.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import httpx

from clef_tools.hosted._hosted import HostedDecider, _Attempt, classify_status, refused
from clef_tools.hosted._retry import RetryPolicy, parse_retry_after
from clef_tools.request._errors import (
    ModelUnavailableError,
    QuotaExceededError,
    RemoteError,
    UnsupportedInputError,
)
from clef_tools.request._media import split_images
from clef_tools.request._validation import DecisionRequest
from clef_tools.request._wire import request_to_wire

__all__ = ["WorkersAIClient"]

DEFAULT_API_BASE = "https://api.cloudflare.com/client/v4"
CLEF_FLASH = "@cf/cloudflare/clef-flash"

#: Codes that mean the request itself is wrong (never retried).
_VALIDATION_CODES = frozenset({5006, 5012, 6003, 5021})
_QUOTA_CODES = frozenset({4006})


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

    def __repr__(self) -> str:
        return f"WorkersAIClient(account_id={self.account_id!r}, model={self.model!r})"

    @property
    def model_id(self) -> str:
        return self.model.rsplit("/", 1)[-1]

    def check_supported(self, request: DecisionRequest, loc_prefix: tuple[str | int, ...]) -> None:
        # Raises for remote image URLs (Workers AI does not fetch them) and > 4 images.
        split_images(request.state, (*loc_prefix, "state"))

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
        if code in _QUOTA_CODES:
            return _Attempt(
                QuotaExceededError(
                    f"Workers AI allocation used up: {message}",
                    status=status,
                    code=code,
                    request_id=request_id,
                    retry_after=retry_after,
                ),
                retryable=False,
            )
        if code in _VALIDATION_CODES and status < 500:
            return refused(
                f"Workers AI refused the request ({code}): {message}", status, request_id
            )
        if status == 400 and code == 7000:
            return _Attempt(
                UnsupportedInputError(
                    "model", f"Workers AI has no model {self.model!r}: {message}"
                ),
                retryable=False,
            )
        return classify_status(
            status, message, code=code, request_id=request_id, retry_after=retry_after
        )


def _first_error(payload: object) -> tuple[int | str | None, str]:
    """`(code, message)` of the first entry of an envelope's `errors`, if any."""
    errors = payload.get("errors") if isinstance(payload, Mapping) else None
    first = errors[0] if isinstance(errors, Sequence) and errors else None
    if not isinstance(first, Mapping):
        return None, ""
    return first.get("code"), str(first.get("message", ""))
