"""Which optional extra provides which import, and the one place a missing one is reported.

The core installs with pydantic, httpx, langchain-core and the gate's command parsers only.
Local models, the HTTP server, the MCP server, the LangChain agents, plots and images each
come with an extra;
`pip install clef-tools` alone serves the hosted clients. A `ModuleNotFoundError` for a
module an extra provides becomes `MissingExtraError`, which names the extra, so no user
ever has to map `No module named 'starlette'` to `clef-tools[serve]` themselves.

Every package face imports this module (through `_lazy`), so it imports nothing heavy
itself (the error class is imported when an error is raised).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib.util import find_spec

__all__ = ["EXTRA_MODULES", "extra_for", "needs_extra", "require_extra"]

EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "local": ("torch", "transformers", "safetensors", "gguf", "accelerate", "numpy"),
    "serve": ("starlette", "uvicorn", "zstandard"),
    "mcp": ("mcp", "mcp_types"),
    "langchain": ("langchain", "langgraph"),
    "eval": ("matplotlib",),
    "images": ("PIL",),
    "release": ("torchvision",),
}
"""Top-level import names per extra (`pyproject.toml` declares the distributions; a test
checks that each extra's requirements provide these imports)."""


def extra_for(module: str | None) -> str | None:
    """The extra that provides `module` (a dotted name), or None for anything else."""
    top = (module or "").partition(".")[0]
    return next((extra for extra, tops in EXTRA_MODULES.items() if top in tops), None)


@contextmanager
def needs_extra(purpose: str) -> Iterator[None]:
    """Turn a missing optional dependency met inside the block into `MissingExtraError`;
    any other import failure (a broken install, a bug) passes through unchanged."""
    try:
        yield
    except ModuleNotFoundError as exc:
        extra = extra_for(exc.name)
        if extra is None:
            raise
        from clef_tools.protocol._errors import MissingExtraError

        raise MissingExtraError(purpose, extra, exc.name or "") from exc


def require_extra(extra: str, purpose: str) -> None:
    """Fail now, naming `extra`, when one of its modules cannot be found (without importing
    any of them: the check costs microseconds, the import could cost seconds)."""
    missing = next((m for m in EXTRA_MODULES[extra] if find_spec(m) is None), None)
    if missing is not None:
        from clef_tools.protocol._errors import MissingExtraError

        raise MissingExtraError(purpose, extra, missing)
