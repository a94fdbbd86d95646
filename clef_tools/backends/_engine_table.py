"""Where each scale-out engine takes `/v1/systemone` requests: the one table behind the
`ollama`, `llamacpp`, `vllm` and `openrouter` backend specs (see `_engines` for the client).

Plain data, so the backend registry (and `clef-tools --help`) can list the engines
without importing an HTTP client.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["ENGINES", "Engine", "ImagePlacement"]

ImagePlacement = Literal["images_base64", "state_image_url_parts", "refused"]


@dataclass(frozen=True)
class Engine:
    name: str
    default_base: str
    base_env: str
    path: str
    default_model: str
    key_env: str | None
    images: ImagePlacement
    summary: str


ENGINES: dict[str, Engine] = {
    engine.name: engine
    for engine in (
        Engine(
            "ollama",
            "http://127.0.0.1:11434",
            "OLLAMA_HOST",
            "/v1/systemone",
            "clef-flash",
            None,
            "images_base64",
            "Ollama ≥ 0.35.1 ($OLLAMA_HOST, default 127.0.0.1:11434)",
        ),
        Engine(
            "llamacpp",
            "http://127.0.0.1:8080",
            "LLAMACPP_BASE_URL",
            "/v1/systemone",
            "clef-flash",
            "LLAMACPP_API_KEY",
            "refused",
            "llama.cpp's llama-server with a Clef-Flash GGUF ($LLAMACPP_BASE_URL)",
        ),
        Engine(
            "vllm",
            "http://127.0.0.1:8000",
            "VLLM_BASE_URL",
            "/v1/systemone",
            "Cloudflare/clef-flash",
            "VLLM_API_KEY",
            "refused",
            "vLLM with the clef_vllm plugin ($VLLM_BASE_URL, $VLLM_API_KEY)",
        ),
        Engine(
            "openrouter",
            "https://openrouter.ai",
            "OPENROUTER_BASE_URL",
            "/api/alpha/decisions",
            "cloudflare/clef-flash",
            "OPENROUTER_API_KEY",
            "state_image_url_parts",
            "OpenRouter's decisions API ($OPENROUTER_API_KEY)",
        ),
    )
}
