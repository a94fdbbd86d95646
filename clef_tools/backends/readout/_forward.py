"""The forwards behind one request: the shared prefix on a fixed grid, then each row on it.

Reduced-precision kernels (bf16 on CPUs with bf16 units, and on GPUs) round differently
for different tensor shapes, so the same tokens computed as one long segment, as two
segments, or inside a padded batch give visibly different answers (SmolLM2 in bf16:
P(yes) 0.4533 cold vs 0.4378 after a partial prefix-cache hit). Answers must depend on
the request alone, never on cache history or on which other questions came along, so
the shapes are fixed by the request:

- a prefix is always computed in segments on one grid (`[0, S)`, `[S, 2S)`, …, the last
  one partial), whether it starts cold or from a cached prefix cropped to a grid line;
- every row (a question, a rotation, a prior) is its own batch-of-one forward on a copy
  of the prefix cache, never padded next to another row.

Only the last position of each row goes through the LM head, and only the candidate label
columns are kept: the cost is one prefill of the state plus one short pass per row, never
a forward per option.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import torch

from clef_tools.backends._cancel import raise_if_cancelled

__all__ = ["DEFAULT_SEGMENT_TOKENS", "RowBatch", "ShardedForward"]

#: Prefix grid. Smaller segments waste less on a partial cache hit (a follow-up recomputes
#: at most S-1 already-seen tokens) but cost more forwards on a cold prefill; 64 keeps the
#: cold overhead small on a 2-core CPU (see bench/prefix.py).
DEFAULT_SEGMENT_TOKENS = 64


class Cancelled(Exception):
    """The caller gave up (timeout, disconnect): stop between forwards."""


@dataclass(frozen=True)
class RowBatch:
    """What to score: token ids after the shared prefix, and which label ids to read."""

    suffixes: Sequence[Sequence[int]]
    candidates: Sequence[Sequence[int]]


class ShardedForward:
    """Runs the prefix/row passes on one causal LM (not thread-safe; callers serialise).

    Before every forward it checks whether the caller gave up (`raise_if_cancelled`), so
    an abandoned request frees the model after at most one segment or row.
    """

    def __init__(self, model: Any, segment_tokens: int = DEFAULT_SEGMENT_TOKENS) -> None:
        self.model = model
        self.base = getattr(model, model.base_model_prefix)
        self.head = model.get_output_embeddings()
        self.segment_tokens = max(1, segment_tokens)
        params = inspect.signature(self.base.forward).parameters
        # transformers 5.24 renamed `past_key_values` to `cache`; earlier 5.x know the old name.
        self._cache_kw = "cache" if "cache" in params else "past_key_values"
        self.softcap: float | None = getattr(model.config, "final_logit_softcapping", None)
        self.device = next(model.parameters()).device
        self.forwards = 0
        """Forward passes run so far (prefix segments and rows)."""

    def grid_floor(self, n: int) -> int:
        """The last grid line at or before token `n`: where a reused prefix may end."""
        return (n // self.segment_tokens) * self.segment_tokens

    @torch.inference_mode()
    def prefill(self, prefix_ids: Sequence[int], cache: Any = None, start: int = 0) -> Any:
        """KV cache of the prefix, computed segment by segment on the grid.

        With `cache` holding the first `start` tokens already (`start` on a grid line),
        only `prefix_ids[start:]` are computed, in place on that cache.
        """
        if start % self.segment_tokens:
            raise ValueError(f"prefill must resume on a grid line, not at token {start}")
        ids = list(prefix_ids)
        for lo in range(start, len(ids), self.segment_tokens):
            hi = min(len(ids), lo + self.segment_tokens)
            cache = _cache_of(self._run(ids[lo:hi], cache, lo))
        return cache

    def _run(self, ids: Sequence[int], cache: Any, start: int) -> Any:
        """One forward of `ids` at positions `start…` on `cache`; the model's output."""
        raise_if_cancelled()
        self.forwards += 1
        kwargs: dict[str, Any] = {}
        if cache is not None:
            kwargs[self._cache_kw] = cache
        out = self.base(
            input_ids=torch.tensor([list(ids)], dtype=torch.long, device=self.device),
            position_ids=torch.arange(start, start + len(ids), device=self.device).unsqueeze(0),
            use_cache=True,
            **kwargs,
        )
        return out

    @torch.inference_mode()
    def score_rows(self, prefix_cache: Any, prefix_len: int, rows: RowBatch) -> list[torch.Tensor]:
        """Log-softmax over each row's candidate labels at its last position (float64).

        Each row runs alone on its own copy of the prefix cache: its answer is the same
        whichever rows it is asked with.
        """
        results = []
        for suffix, cand in zip(rows.suffixes, rows.candidates, strict=True):
            cache = copy.deepcopy(prefix_cache) if prefix_len else None
            hidden = self._run(suffix, cache, prefix_len).last_hidden_state
            logits = self.head(hidden[0, -1]).float()
            if self.softcap:
                logits = torch.tanh(logits / self.softcap) * self.softcap
            picked = logits[list(cand)].double()
            results.append(torch.log_softmax(picked, dim=-1).cpu())
        return results


def _cache_of(out: Any) -> Any:
    result = getattr(out, "cache", None)
    return result if result is not None else out.past_key_values
