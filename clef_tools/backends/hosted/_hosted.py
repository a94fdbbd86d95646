"""The part every hosted backend shares: one HTTP call per request, retries, error mapping.

Subclasses say where to send a request, how to wrap it and how to read the reply; this
class owns the loop around that (timeouts, backoff, `retry-after`, request ids) once for
the sync and async paths, and turns every failure into the `ClefError` tree before it
reaches a caller. httpx is async-first here: `adecide` runs requests of a batch
concurrently on one `AsyncClient`; the sync path uses a `Client` and a small pool.
"""

from __future__ import annotations

import asyncio
import json
import time
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from clef_tools.backends._base import BackendInfo, Decider, RequestScores
from clef_tools.backends.hosted._answers import scores_from_wire
from clef_tools.backends.hosted._retry import (
    RETRYABLE_STATUS,
    RetryPolicy,
    parse_retry_after,
    request_id_from,
)
from clef_tools.protocol._errors import (
    AuthenticationError,
    ClefError,
    FieldIssue,
    RateLimitError,
    RemoteError,
    RemoteTimeoutError,
    RequestValidationError,
)
from clef_tools.protocol._validation import DecisionRequest

__all__ = ["HostedDecider"]

DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=5.0)


class _Attempt:
    """The outcome of one HTTP attempt that did not succeed."""

    def __init__(self, error: ClefError, *, retryable: bool, retry_after: float | None = None):
        self.error = error
        self.retryable = retryable
        self.retry_after = retry_after


class HostedDecider(Decider):
    """A `Decider` whose answers come from an HTTP endpoint (one POST per request)."""

    def __init__(
        self,
        *,
        timeout: float | httpx.Timeout | None = None,
        retry: RetryPolicy | None = None,
        max_concurrency: int = 8,
        http_client: httpx.Client | None = None,
        async_http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self.timeout = DEFAULT_TIMEOUT if timeout is None else httpx.Timeout(timeout)
        self.retry = retry or RetryPolicy()
        self.max_concurrency = max(1, max_concurrency)
        self._client = http_client
        self._aclient = async_http_client
        self._owns_client = http_client is None
        self._owns_aclient = async_http_client is None
        self._aclient_loop: asyncio.AbstractEventLoop | None = None

    #: `systemone`, `workers-ai`: what `info()` reports.
    kind = "hosted"

    def info(self) -> BackendInfo:
        return BackendInfo(
            kind=self.kind,
            model_id=self.model_id,
            supported_types=self.supported_types,
            details={"url": self._url()},
        )

    # -- what a subclass supplies -------------------------------------------------------

    @abstractmethod
    def _url(self) -> str:
        """Where the POST goes."""

    @abstractmethod
    def _headers(self) -> dict[str, str]:
        """Auth and any provider headers (never logged)."""

    @abstractmethod
    def _body(self, request: DecisionRequest) -> dict[str, Any]:
        """The JSON body for one validated request."""

    def _unwrap(self, payload: object, request_id: str | None) -> object:
        """The `SystemOneResponse` inside a provider's envelope (identity by default)."""
        return payload

    def _failure(
        self, response: httpx.Response, payload: object, request_id: str | None
    ) -> _Attempt:
        """Map an error response; the default reads the FastAPI `detail` shapes of §1.7."""
        status = response.status_code
        detail = payload.get("detail") if isinstance(payload, Mapping) else None
        if status == 422 and isinstance(detail, list):
            return _Attempt(validation_error(detail, request_id), retryable=False)
        message, kind = _error_fields(payload)
        message = message or response.reason_phrase or "error"
        if status in (400, 413, 422):  # a refused request, whatever the body's shape
            return refused(
                f"the endpoint refused the request ({status}): {message}", status, request_id
            )
        return classify_status(
            status,
            message,
            code=kind,
            request_id=request_id,
            retry_after=parse_retry_after(response.headers.get("retry-after")),
        )

    # -- Decider ------------------------------------------------------------------------

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        if len(requests) == 1:
            return [self._call(requests[0])]
        with ThreadPoolExecutor(min(self.max_concurrency, len(requests))) as pool:
            return list(pool.map(self._call, requests))

    async def _ascore(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        limit = asyncio.Semaphore(self.max_concurrency)

        async def one(request: DecisionRequest) -> RequestScores:
            async with limit:
                return await self._acall(request)

        return list(await asyncio.gather(*(one(r) for r in requests)))

    def close(self) -> None:
        """Close the sync client this backend created (a passed-in client stays open)."""
        if self._client is not None and self._owns_client:
            self._client.close()
            self._client = None

    async def aclose(self) -> None:
        if self._aclient is not None and self._owns_aclient:
            await self._aclient.aclose()
            self._aclient = None

    # -- the retry loop, sync and async -------------------------------------------------

    def _call(self, request: DecisionRequest) -> RequestScores:
        body = self._encode(request)
        attempt = 0
        while True:
            try:
                response = self._sync_client().post(
                    self._url(), content=body, headers=self._all_headers()
                )
            except httpx.HTTPError as exc:
                outcome = self._transport_failure(exc)
            else:
                if response.is_success:
                    return self._parse(request, response)
                outcome = self._error_outcome(response)
            delay = self._next_delay(outcome, attempt)
            time.sleep(delay)
            attempt += 1

    async def _aprepare(self) -> None:
        """Async set-up before the first call (e.g. model discovery) without blocking."""

    async def _acall(self, request: DecisionRequest) -> RequestScores:
        await self._aprepare()
        body = self._encode(request)
        attempt = 0
        while True:
            try:
                response = await self._async_client().post(
                    self._url(), content=body, headers=self._all_headers()
                )
            except httpx.HTTPError as exc:
                outcome = self._transport_failure(exc)
            else:
                if response.is_success:
                    return self._parse(request, response)
                outcome = self._error_outcome(response)
            delay = self._next_delay(outcome, attempt)
            await asyncio.sleep(delay)
            attempt += 1

    # -- shared pieces ------------------------------------------------------------------

    def _sync_client(self) -> httpx.Client:
        if self._client is None:
            self._client = httpx.Client(timeout=self.timeout)
        return self._client

    def _async_client(self) -> httpx.AsyncClient:
        # Pooled connections belong to the event loop that opened them; a client of ours
        # first used under an earlier `asyncio.run` is replaced rather than reused.
        loop = asyncio.get_running_loop()
        if self._aclient is None or (self._owns_aclient and self._aclient_loop is not loop):
            self._aclient = httpx.AsyncClient(timeout=self.timeout)
            self._owns_aclient = True
            self._aclient_loop = loop
        return self._aclient

    def _all_headers(self) -> dict[str, str]:
        return {
            "content-type": "application/json",
            "accept": "application/json",
            "user-agent": f"clef-tools/{_version()}",
            **self._headers(),
        }

    def _encode(self, request: DecisionRequest) -> bytes:
        return json.dumps(self._body(request), ensure_ascii=False, allow_nan=False).encode()

    def _next_delay(self, outcome: _Attempt, attempt: int) -> float:
        """Seconds to sleep before the next try; raises the mapped error when giving up."""
        delay = self.retry.delay(attempt, outcome.retry_after) if outcome.retryable else None
        if delay is None:
            raise outcome.error
        return delay

    def _parse(self, request: DecisionRequest, response: httpx.Response) -> RequestScores:
        request_id = request_id_from(response.headers)
        try:
            payload = response.json()
        except ValueError as exc:
            raise RemoteError(
                "the endpoint answered with a body that is not JSON",
                status=response.status_code,
                request_id=request_id,
            ) from exc
        return scores_from_wire(request, self._unwrap(payload, request_id), request_id)

    def _error_outcome(self, response: httpx.Response) -> _Attempt:
        request_id = request_id_from(response.headers)
        try:
            payload: object = response.json()
        except ValueError:
            payload = None
        return self._failure(response, payload, request_id)

    def _transport_failure(self, exc: httpx.HTTPError) -> _Attempt:
        if isinstance(exc, httpx.TimeoutException):
            error: RemoteError = RemoteTimeoutError(
                f"{self._url()}: no answer within the timeout ({type(exc).__name__})"
            )
        else:
            error = RemoteError(f"cannot reach {self._url()}: {exc}")
        error.__cause__ = exc
        # A connect failure never reached the server, so a retry is always safe; a read
        # timeout is safe too because decisions are idempotent (no state changes).
        return _Attempt(error, retryable=True)


def classify_status(
    status: int,
    message: str,
    *,
    code: int | str | None,
    request_id: str | None,
    retry_after: float | None,
) -> _Attempt:
    """The error class and retryability that an HTTP status alone implies."""
    if status in (401, 403):
        return _Attempt(
            AuthenticationError(
                f"authentication failed: {message}", status=status, code=code, request_id=request_id
            ),
            retryable=False,
        )
    if status in (429, 529):
        return _Attempt(
            RateLimitError(
                f"rate limited or overloaded: {message}",
                status=status,
                code=code,
                request_id=request_id,
                retry_after=retry_after,
            ),
            retryable=True,
            retry_after=retry_after,
        )
    if status == 408 or status >= 500:
        kind = RemoteTimeoutError if status in (408, 504) else RemoteError
        return _Attempt(
            kind(f"server error: {message}", status=status, code=code, request_id=request_id),
            retryable=status in RETRYABLE_STATUS,
            retry_after=retry_after,
        )
    return _Attempt(
        RemoteError(f"request refused: {message}", status=status, code=code, request_id=request_id),
        retryable=False,
    )


def refused(message: str, status: int, request_id: str | None) -> _Attempt:
    """A request the endpoint will not take as sent: a validation error, never retried."""
    return _Attempt(
        RequestValidationError.at(
            (),
            message,
            "too_long" if status == 413 else "remote_validation",
            request_id=request_id,
        ),
        retryable=False,
    )


def validation_error(detail: Sequence[object], request_id: str | None) -> RequestValidationError:
    """A FastAPI-style `detail[]` list → `RequestValidationError` (`body` dropped from `loc`)."""
    issues = []
    for item in detail:
        if not isinstance(item, Mapping):
            continue
        loc = [p for p in item.get("loc", []) if isinstance(p, str | int)]
        if loc[:1] == ["body"]:
            loc = loc[1:]
        issues.append(
            FieldIssue(
                tuple(loc), str(item.get("msg", "invalid")), str(item.get("type", "value_error"))
            )
        )
    return RequestValidationError(
        issues or [FieldIssue((), "the endpoint refused the request", "value_error")],
        request_id=request_id,
    )


def _error_fields(payload: object) -> tuple[str | None, int | str | None]:
    """`(message, code)` from the error bodies the `/v1/systemone` engines send: FastAPI's
    `{"detail": str | {"message", "error_type"}}` (Jev, `clef-tools serve`), Ollama's
    `{"error": str}`, the OpenAI-style `{"error": {"message", "type"|"code"}}` (llama.cpp,
    OpenRouter, newer vLLM) and vLLM's `{"object": "error", "message", "type"}`."""
    if not isinstance(payload, Mapping):
        return None, None
    detail, error = payload.get("detail"), payload.get("error")
    for source in (detail, error, payload if payload.get("object") == "error" else None):
        if isinstance(source, str):
            return source, None
        if isinstance(source, Mapping) and source.get("message") is not None:
            code = source.get("error_type") or source.get("code") or source.get("type")
            return str(source["message"]), code if isinstance(code, int | str) else None
    return None, None


def _version() -> str:
    from clef_tools._version import __version__

    return __version__
