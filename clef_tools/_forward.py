"""Two forwards per request: the shared prefix once, then every question row in one batch.

The prefix pass fills a KV cache; the cache is repeated across the batch and each row's
suffix is run right-padded against it with explicit positions. Only the last real
position of each row goes through the LM head, and only the candidate label columns are
kept: the cost is one prefill of the state plus one small batched pass, never a forward
per option.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import torch

__all__ = ["RowBatch", "ShardedForward"]


@dataclass(frozen=True)
class RowBatch:
    """What to score: token ids after the shared prefix, and which label ids to read."""

    suffixes: Sequence[Sequence[int]]
    candidates: Sequence[Sequence[int]]


class ShardedForward:
    """Runs the prefix/suffix passes on one causal LM (not thread-safe; callers lock)."""

    def __init__(self, model: Any, pad_token_id: int = 0) -> None:
        self.model = model
        self.base = getattr(model, model.base_model_prefix)
        self.head = model.get_output_embeddings()
        self.pad_token_id = pad_token_id
        params = inspect.signature(self.base.forward).parameters
        # transformers 5.24 renamed `past_key_values` to `cache`; earlier 5.x know the old name.
        self._cache_kw = "cache" if "cache" in params else "past_key_values"
        self.softcap: float | None = getattr(model.config, "final_logit_softcapping", None)
        self.device = next(model.parameters()).device

    @torch.inference_mode()
    def prefill(self, prefix_ids: Sequence[int], cache: Any = None, start: int = 0) -> Any:
        """KV cache of the shared prefix (kept unmodified so it can be reused).

        With `cache` holding the first `start` tokens already, only `prefix_ids[start:]` are
        computed, in place on that cache.
        """
        ids = torch.tensor([list(prefix_ids[start:])], dtype=torch.long, device=self.device)
        kwargs: dict[str, Any] = {}
        if cache is not None:
            kwargs[self._cache_kw] = cache
            kwargs["position_ids"] = torch.arange(
                start, len(prefix_ids), device=self.device
            ).unsqueeze(0)
        out = self.base(input_ids=ids, use_cache=True, **kwargs)
        result = getattr(out, "cache", None)
        return result if result is not None else out.past_key_values

    @torch.inference_mode()
    def score_rows(self, prefix_cache: Any, prefix_len: int, rows: RowBatch) -> list[torch.Tensor]:
        """Log-softmax over each row's candidate labels at its last position (float64)."""
        n = len(rows.suffixes)
        if n == 0:
            return []
        lengths = [len(s) for s in rows.suffixes]
        width = max(lengths)
        ids = torch.full((n, width), self.pad_token_id, dtype=torch.long)
        suffix_mask = torch.zeros((n, width), dtype=torch.long)
        for i, suffix in enumerate(rows.suffixes):
            ids[i, : len(suffix)] = torch.tensor(list(suffix), dtype=torch.long)
            suffix_mask[i, : len(suffix)] = 1
        mask = torch.cat([torch.ones((n, prefix_len), dtype=torch.long), suffix_mask], dim=1)
        positions = torch.arange(prefix_len, prefix_len + width).unsqueeze(0).expand(n, -1)
        cache = None
        if prefix_len:
            cache = copy.deepcopy(prefix_cache)
            if n > 1:
                cache.batch_repeat_interleave(n)
        kwargs: dict[str, Any] = {self._cache_kw: cache} if cache is not None else {}
        out = self.base(
            input_ids=ids.to(self.device),
            attention_mask=mask.to(self.device),
            position_ids=positions.to(self.device),
            use_cache=cache is not None,
            **kwargs,
        )
        hidden = out.last_hidden_state
        last = hidden[torch.arange(n), torch.tensor(lengths) - 1]
        logits = self.head(last).float()
        if self.softcap:
            logits = torch.tanh(logits / self.softcap) * self.softcap
        results = []
        for i, cand in enumerate(rows.candidates):
            picked = logits[i, list(cand)].double()
            results.append(torch.log_softmax(picked, dim=-1).cpu())
        return results
