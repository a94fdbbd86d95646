"""`load_decider()`: the one call that turns a backend choice into a ready `Decider`.

Which strings name which backend, and how each is opened, is the registry's table
(`_spec.FAMILIES`, `_registry.OPENERS`); this module is the public entry point.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from clef_tools.backends._base import Decider
from clef_tools.backends._registry import open_backend
from clef_tools.backends._spec import LoadOptions, parse_spec
from clef_tools.backends.compose._calibration import Calibration
from clef_tools.backends.embedding._index import ExampleIndex

__all__ = ["backend_kind", "load_decider"]


def backend_kind(spec: str | os.PathLike[str] | None) -> str:
    """`readout`, `release`, `systemone`, `workers-ai`, `embedding` or `cascade`."""
    return parse_spec(spec).kind


def load_decider(
    model: str | os.PathLike[str] | None = None,
    *,
    dtype: Any = LoadOptions.dtype,
    device: str | None = LoadOptions.device,
    debias: bool | Iterable[str] = LoadOptions.debias,
    calibration: Calibration | str | Path | None = LoadOptions.calibration,
    max_context_tokens: int | None = LoadOptions.max_context_tokens,
    contextual: Iterable[str] = LoadOptions.contextual,
    prefix_cache_tokens: int = LoadOptions.prefix_cache_tokens,
    timeout: float | None = LoadOptions.timeout,
    progress: bool | None = LoadOptions.progress,
    trust_release_code: bool = LoadOptions.trust_release_code,
    examples: ExampleIndex | str | os.PathLike[str] | None = None,
    api_key: str | None = None,
) -> Decider:
    """Open the backend `model` names (see the table above; default `CLEF_TOOLS_MODEL`,
    else the embedded model). Nothing is ever downloaded.

    `calibration` applies to every backend: `"default"` uses the calibration shipped for that
    backend and model when there is one (fitted on public train/dev splits; see
    docs/quality.md), `"none"` turns it off, a file or `Calibration` replaces it.
    Readout options (`debias`, `contextual`, `prefix_cache_tokens`) apply to local LM
    readouts only; `timeout` to hosted backends; `device`/`dtype` to local ones.
    A Clef release runs the Python file shipped in its folder, so it loads only with
    `trust_release_code=True`.
    `examples` (an `ExampleIndex` or a file from `clef-tools fit`) answers the choice
    questions whose options match its labels from labelled examples; everything else is
    answered by `model` as without it.
    `api_key` is the hosted backend's credential (a System One key, a Workers AI token);
    when absent it comes from `$TYPESAFE_API_KEY` / `$CLOUDFLARE_API_TOKEN`.
    """
    options = LoadOptions(
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
        examples=examples,
        api_key=api_key,
    )
    return open_backend(parse_spec(model), options)
