"""`SystemOneClient`: any `/v1/systemone` server (TypeSafe Jev, Ollama, SGLang, `clef-tools serve`).

The base URL and key follow the official SDKs (`TYPESAFE_BASE_URL`, `TYPESAFE_API_KEY`),
so code written against them moves over unchanged. When no model is named, the server's
first `/v1/models` entry is used, which is what a local server such as `clef-tools serve`
or Ollama expects.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping
from typing import Any

import httpx

from clef_tools._net import may_carry_secrets, split_credentials
from clef_tools.backends.hosted._hosted import HostedDecider
from clef_tools.backends.hosted._retry import RetryPolicy
from clef_tools.protocol._errors import ModelUnavailableError
from clef_tools.protocol._validation import DecisionRequest
from clef_tools.protocol._wire import request_to_wire

__all__ = ["SystemOneClient"]

DEFAULT_BASE_URL = "https://api.typesafe.ai"

log = logging.getLogger("clef_tools.backends.hosted")


class SystemOneClient(HostedDecider):
    """A `Decider` that posts to `<base_url>/v1/systemone`.

    Limits (64 questions, 255 options, 2–10 levels, 4 images) are checked here before a
    request is sent, so a bad request fails in microseconds with the field named instead
    of costing a round trip.
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        key_env: str | None = "TYPESAFE_API_KEY",
        model: str | None = None,
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
        base = base_url or os.environ.get("TYPESAFE_BASE_URL") or DEFAULT_BASE_URL
        base, self._basic_auth = split_credentials(base)
        self.base_url = base.rstrip("/").removesuffix("/v1/systemone").removesuffix("/v1")
        # a key is read from the variable of the server it belongs to, never another's
        env_key = os.environ.get(key_env) if key_env else None
        self.api_key = api_key if api_key is not None else env_key
        if not may_carry_secrets(httpx.URL(self.base_url)):
            if api_key is not None or self._basic_auth is not None:
                raise ValueError(
                    f"refusing to send credentials over plain http to {self.base_url}: "
                    "use https, or a loopback address for a local server"
                )
            if self.api_key:
                log.warning(
                    "not sending %s to %s: plain http to another host; use https to authenticate",
                    key_env,
                    self.base_url,
                )
                self.api_key = None
        self._model = model
        self._model_lock = threading.Lock()

    kind = "systemone"

    def __repr__(self) -> str:
        return f"SystemOneClient(base_url={self.base_url!r}, model={self._model!r})"

    @property
    def model_id(self) -> str:
        return self.model

    @property
    def model(self) -> str:
        """The `model` field sent; discovered from `/v1/models` on first use when unset."""
        if self._model is None:
            with self._model_lock:
                if self._model is None:
                    self._model = self._discover_model()
        return self._model

    def list_models(self) -> list[dict[str, Any]]:
        """`GET /v1/models` (`models[]`, or an OpenAI-style `data[]`)."""
        try:
            response = self._sync_client().get(
                f"{self.base_url}/v1/models", headers=self._all_headers()
            )
        except httpx.HTTPError as exc:
            raise ModelUnavailableError(f"cannot reach {self.base_url}/v1/models: {exc}") from exc
        return self._model_list(response)

    async def alist_models(self) -> list[dict[str, Any]]:
        """Async twin of `list_models`."""
        try:
            response = await self._async_client().get(
                f"{self.base_url}/v1/models", headers=self._all_headers()
            )
        except httpx.HTTPError as exc:
            raise ModelUnavailableError(f"cannot reach {self.base_url}/v1/models: {exc}") from exc
        return self._model_list(response)

    async def _aprepare(self) -> None:
        if self._model is None:
            self._model = _first_name(await self.alist_models(), self.base_url)

    def _model_list(self, response: httpx.Response) -> list[dict[str, Any]]:
        if not response.is_success:
            raise self._error_outcome(response).error
        payload = response.json()
        if isinstance(payload, Mapping):
            if isinstance(payload.get("models"), list):
                return [dict(m) for m in payload["models"] if isinstance(m, Mapping)]
            if isinstance(payload.get("data"), list):
                return [
                    {"name": m.get("id"), **m} for m in payload["data"] if isinstance(m, Mapping)
                ]
        raise ModelUnavailableError(f"{self.base_url}/v1/models returned no model list")

    def _discover_model(self) -> str:
        return _first_name(self.list_models(), self.base_url)

    def _url(self) -> str:
        return f"{self.base_url}/v1/systemone"

    def _headers(self) -> dict[str, str]:
        if self.api_key:
            return {"authorization": f"Bearer {self.api_key}"}
        if self._basic_auth is not None:
            return {"authorization": self._basic_auth}
        return {}

    def _body(self, request: DecisionRequest) -> dict[str, Any]:
        return request_to_wire(request, self.model)


def _first_name(models: list[dict[str, Any]], base_url: str) -> str:
    names = [m.get("name") for m in models if isinstance(m.get("name"), str)]
    if not names:
        raise ModelUnavailableError(f"{base_url} lists no models; pass model= (e.g. 'jev-latest')")
    return str(names[0])
