"""The engines users scale Clef-Flash out on, each as a `/v1/systemone` client preset.

One table: where each engine listens by default, where it takes the request, which key
(if any) it reads, the model it serves Clef-Flash as, and where images go in the body.
Everything else (validation before sending, retries, the error mapping of every shape
these engines use, 4-dp rounded probabilities) is `SystemOneClient`'s, so an engine is
one row here and one registry entry.

Sources (wire notes §2.7–2.8 and the engines' own pages): Ollama ≥ 0.35.1 serves
`clef-flash` at `/v1/systemone` on port 11434 and takes images as base64 in `images`
(its API's convention); llama.cpp's `llama-server` answers `/v1/systemone` for the
ggml-org Clef-Flash GGUFs on port 8080; vLLM with the `clef_vllm` plugin serves it on port
8000; OpenRouter's decisions API is `POST /api/alpha/decisions` with images as
`image_url` parts inside a `state` array.
"""

from __future__ import annotations

import os
from typing import Any

import httpx

from clef_tools.backends._engine_table import ENGINES, Engine
from clef_tools.backends.hosted._systemone_client import SystemOneClient
from clef_tools.protocol._errors import UnsupportedInputError
from clef_tools.protocol._media import split_images
from clef_tools.protocol._render import canonical_json
from clef_tools.protocol._validation import DecisionRequest
from clef_tools.protocol._wire import request_to_wire

__all__ = ["EngineClient"]


class EngineClient(SystemOneClient):
    """`SystemOneClient` set up for one engine of `ENGINES` (see `load_decider("ollama")`)."""

    def __init__(
        self,
        engine: str | Engine,
        *,
        base_url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        timeout: float | httpx.Timeout | None = None,
        **kwargs: Any,
    ) -> None:
        self.engine = ENGINES[engine] if isinstance(engine, str) else engine
        base = base_url or os.environ.get(self.engine.base_env) or self.engine.default_base
        if "://" not in base:  # OLLAMA_HOST is often written as host:port
            base = f"http://{base}"
        super().__init__(
            base,
            api_key=api_key,
            key_env=self.engine.key_env,
            model=model or self.engine.default_model,
            timeout=timeout,
            **kwargs,
        )
        # the parent has split off `user:password@` (basic auth) and trailing slashes
        self.base_url = self.base_url.removesuffix(self.engine.path)
        self.kind = self.engine.name

    def __repr__(self) -> str:
        return (
            f"EngineClient({self.engine.name!r}, base_url={self.base_url!r}, model={self.model!r})"
        )

    def _url(self) -> str:
        return f"{self.base_url}{self.engine.path}"

    def check_supported(self, request: DecisionRequest, loc_prefix: tuple[str | int, ...]) -> None:
        _, images = split_images(request.state, (*loc_prefix, "state"))
        if images and self.engine.images == "refused":
            raise UnsupportedInputError(
                ".".join(map(str, images[0].loc)),
                f"{self.engine.name} does not document how it takes images; send text only",
            )

    def _body(self, request: DecisionRequest) -> dict[str, Any]:
        state, images = split_images(request.state, ("state",))
        if not images:
            return request_to_wire(request, self.model)
        body = request_to_wire(DecisionRequest(state, request.questions), self.model)
        if self.engine.images == "images_base64":
            body["images"] = [image.base64_data for image in images]
        else:  # OpenRouter: the state becomes parts, text first, then each image
            text = state if isinstance(state, str) else canonical_json(state)
            body["state"] = [
                {"type": "text", "text": text},
                *({"type": "image_url", "image_url": {"url": i.data_uri}} for i in images),
            ]
        return body
