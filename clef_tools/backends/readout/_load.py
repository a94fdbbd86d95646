"""`load_readout()`: a local causal LM, loaded without a hub, as a one-pass readout."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from clef_tools._progress import Progress
from clef_tools.backends._spec import LoadOptions
from clef_tools.backends.local._models import load_causal_lm, resolve_model
from clef_tools.backends.local._torch_thread import run_on_torch_thread
from clef_tools.backends.readout._readout import ReadoutDecider

__all__ = ["load_readout"]


def load_readout(
    model: str | os.PathLike[str] | None = None,
    *,
    dtype: Any = None,
    device: str = "cpu",
    debias: bool | Iterable[str] = LoadOptions.debias,
    max_context_tokens: int | None = None,
    contextual: Iterable[str] = LoadOptions.contextual,
    prefix_cache_tokens: int = LoadOptions.prefix_cache_tokens,
    progress: bool | None = None,
) -> ReadoutDecider:
    """A local causal-LM readout: `embedded`, `smollm2`, a `.gguf` file or a folder."""
    source = resolve_model(model)
    lm, tokenizer = run_on_torch_thread(
        lambda: load_causal_lm(source, dtype=dtype, device=device, progress=Progress(progress))
    )
    return ReadoutDecider(
        lm,
        tokenizer,
        model_id=source.model_id,
        max_context_tokens=max_context_tokens,
        debias=debias,
        contextual=contextual,
        prefix_cache_tokens=prefix_cache_tokens,
    )
