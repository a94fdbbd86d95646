"""`load_decider()`: the one call that turns a backend choice into a ready `Decider`.

One string picks any backend, so every surface (CLI `--backend`, `CLEF_TOOLS_MODEL`, MCP,
`ClefDecisionModel(source=...)`) reaches all of them the same way:

| spec | backend |
|---|---|
| `embedded` (default), `smollm2`, `x.gguf`, a transformers folder | `ReadoutDecider` |
| `clef-flash` (uses `CLEF_FLASH_PATH`), a Clef release folder | `ClefReleaseDecider` |
| `http(s)://host[:port][#model]` | `SystemOneClient` at that base URL |
| `systemone[:model]` | `SystemOneClient` at `TYPESAFE_BASE_URL` (default TypeSafe) |
| `workers-ai[:@cf/…]` | `WorkersAIClient` (`CLOUDFLARE_ACCOUNT_ID`, `CLOUDFLARE_API_TOKEN`) |
| `embedding` | `EmbeddingDecider` alone (choice questions only) |
| `cascade[:spec]` | `CascadeDecider`: embedding tier, then `spec` (default embedded) |
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from clef_tools._calibration import Calibration
from clef_tools._decider import Decider
from clef_tools._models import load_causal_lm, resolve_model
from clef_tools._progress import Progress
from clef_tools._readout import ReadoutDecider
from clef_tools._spec import parse_spec
from clef_tools._torch_thread import run_on_torch_thread

__all__ = ["backend_kind", "load_decider", "load_readout"]


def backend_kind(spec: str | os.PathLike[str] | None) -> str:
    """`readout`, `release`, `systemone`, `workers-ai`, `embedding` or `cascade`."""
    return parse_spec(spec).kind


def load_decider(
    model: str | os.PathLike[str] | None = None,
    *,
    dtype: Any = None,
    device: str | None = None,
    debias: bool | Iterable[str] = ("choice",),
    calibration: Calibration | str | Path | None = None,
    max_context_tokens: int | None = None,
    contextual: Iterable[str] = ("noul",),
    prefix_cache_tokens: int = 16384,
    timeout: float | None = None,
    progress: bool = False,
    trust_release_code: bool = False,
) -> Decider:
    """Open the backend `model` names (see the table above; default `CLEF_TOOLS_MODEL`,
    else the embedded model). Nothing is ever downloaded.

    Readout options (`debias`, `calibration`, `contextual`, `prefix_cache_tokens`) apply
    to local LM readouts only; `timeout` to hosted backends; `device`/`dtype` to local ones.
    A Clef release runs the Python file shipped in its folder, so it loads only with
    `trust_release_code=True`.
    """
    spec = parse_spec(model)
    kind, raw = spec.kind, spec.raw
    if kind == "embedding":
        from clef_tools._embedding import EmbeddingDecider

        return EmbeddingDecider()
    if kind == "cascade":
        from clef_tools._cascade import CascadeDecider

        slow = spec.target or "embedded"
        return CascadeDecider(
            load_decider(
                slow,
                dtype=dtype,
                device=device,
                debias=debias,
                calibration=calibration,
                max_context_tokens=max_context_tokens,
                contextual=contextual,
                prefix_cache_tokens=prefix_cache_tokens,
                timeout=timeout,
                progress=progress,
                trust_release_code=trust_release_code,
            )
        )
    if kind == "systemone":
        from clef_tools._systemone_client import SystemOneClient

        if raw.startswith(("http://", "https://")):
            base, _, remote_model = raw.partition("#")
            return SystemOneClient(base, model=remote_model or None, timeout=timeout)
        return SystemOneClient(model=spec.target or None, timeout=timeout)
    if kind == "workers-ai":
        from clef_tools._workers_ai import CLEF_FLASH, WorkersAIClient

        return WorkersAIClient(model=spec.target or CLEF_FLASH, timeout=timeout)
    if kind == "release":
        from clef_tools._release import DEFAULT_MAX_TOKENS, ClefReleaseDecider

        return ClefReleaseDecider(
            spec.target or None,
            trust_release_code=trust_release_code,
            device=device,
            dtype=dtype,
            max_context_tokens=max_context_tokens or DEFAULT_MAX_TOKENS,
        )
    return load_readout(
        spec.target,
        dtype=dtype,
        device=device or "cpu",
        debias=debias,
        calibration=calibration,
        max_context_tokens=max_context_tokens,
        contextual=contextual,
        prefix_cache_tokens=prefix_cache_tokens,
        progress=progress,
    )


def load_readout(
    model: str | os.PathLike[str] | None = None,
    *,
    dtype: Any = None,
    device: str = "cpu",
    debias: bool | Iterable[str] = ("choice",),
    calibration: Calibration | str | Path | None = None,
    max_context_tokens: int | None = None,
    contextual: Iterable[str] = ("noul",),
    prefix_cache_tokens: int = 16384,
    progress: bool = False,
) -> ReadoutDecider:
    """A local causal-LM readout: `embedded`, `smollm2`, a `.gguf` file or a folder."""
    source = resolve_model(model)
    lm, tokenizer = run_on_torch_thread(
        lambda: load_causal_lm(source, dtype=dtype, device=device, progress=Progress(progress))
    )
    if calibration is not None and not isinstance(calibration, Calibration):
        calibration = Calibration.load(calibration)
    return ReadoutDecider(
        lm,
        tokenizer,
        model_id=source.model_id,
        max_context_tokens=max_context_tokens,
        debias=debias,
        calibration=calibration,
        contextual=contextual,
        prefix_cache_tokens=prefix_cache_tokens,
    )
