"""KV caches of recent prefixes, reused across requests.

Every request starts with the same system text, and agents ask again and again about a
transcript that only grows. Before a prefill, the cached prefix sharing the most leading
tokens is copied, cropped to the last grid line of the shared part (see `_forward`), and
only the tokens after it are computed, on the same segment grid a cold prefill uses. So
the result is bit-identical to a cold prefill in every dtype: the same tokens go through
the same segment shapes whatever the cache held before. Bounded by the total number of
cached tokens and by their bytes (KV tensors; what actually fills memory), least recently
used first out. Not thread-safe by itself: the readout only calls it on the torch thread.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["PrefixCache", "common_prefix"]


class _Prefiller(Protocol):
    def prefill(self, prefix_ids: Sequence[int], cache: Any = None, start: int = 0) -> Any: ...

    def grid_floor(self, n: int) -> int: ...


class PrefixCache:
    """LRU of `token ids → KV cache`, with hit statistics."""

    def __init__(self, max_tokens: int = 16384, max_bytes: int | None = 1 << 30) -> None:
        self.max_tokens = max_tokens
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[int, ...], Any] = OrderedDict()
        self._bytes: dict[tuple[int, ...], int] = {}
        self.hits = 0
        """Requests whose prefix was found whole."""
        self.partial_hits = 0
        """Requests that reused part of a cached prefix."""
        self.misses = 0
        self.reused_tokens = 0
        self.computed_tokens = 0

    @property
    def cached_tokens(self) -> int:
        return sum(len(k) for k in self._entries)

    @property
    def cached_bytes(self) -> int:
        return sum(self._bytes.values())

    def stats(self) -> dict[str, int]:
        return {
            "hits": self.hits,
            "partial_hits": self.partial_hits,
            "misses": self.misses,
            "reused_tokens": self.reused_tokens,
            "computed_tokens": self.computed_tokens,
            "entries": len(self._entries),
            "cached_tokens": self.cached_tokens,
            "cached_bytes": self.cached_bytes,
        }

    def get(self, ids: Sequence[int], forward: _Prefiller) -> Any:
        """The KV cache of `ids` (callers must not modify it: copy before extending)."""
        key = tuple(ids)
        if self.max_tokens <= 0:
            self.misses += 1
            self.computed_tokens += len(key)
            return forward.prefill(key)
        if key in self._entries:
            self._entries.move_to_end(key)
            self.hits += 1
            self.reused_tokens += len(key)
            return self._entries[key]
        best, shared = None, 0
        for cached in self._entries:
            n = common_prefix(cached, key)
            if n > shared:
                best, shared = cached, n
        shared = forward.grid_floor(shared)  # resume on the grid a cold prefill uses
        cache = None
        if best is not None and shared > 0:
            try:
                cache = copy.deepcopy(self._entries[best])
                if shared < len(best):
                    # a negative count removes that many tokens, in old and new transformers
                    cache.crop(shared - len(best))
            except (AttributeError, NotImplementedError, ValueError):
                cache = None  # e.g. recurrent layers that cannot be cropped
        if cache is None:
            self.misses += 1
            self.computed_tokens += len(key)
            cache = forward.prefill(key)
        else:
            self.partial_hits += 1
            self.reused_tokens += shared
            self.computed_tokens += len(key) - shared
            if shared < len(key):
                cache = forward.prefill(key, cache, shared)
        self._store(key, cache)
        return cache

    def _store(self, key: tuple[int, ...], cache: Any) -> None:
        size = tensor_bytes(cache)
        if len(key) > self.max_tokens or (self.max_bytes is not None and size > self.max_bytes):
            return
        self._entries[key] = cache
        self._bytes[key] = size
        while self.cached_tokens > self.max_tokens or (
            self.max_bytes is not None and self.cached_bytes > self.max_bytes
        ):
            old, _ = self._entries.popitem(last=False)
            del self._bytes[old]


def tensor_bytes(value: Any, _depth: int = 0) -> int:
    """Bytes held by the tensors inside a KV cache object (layers, lists, attributes)."""
    nbytes = getattr(value, "nbytes", None)
    if isinstance(nbytes, int) and hasattr(value, "dtype"):
        return nbytes
    if _depth > 4:
        return 0
    if isinstance(value, list | tuple):
        return sum(tensor_bytes(v, _depth + 1) for v in value)
    if hasattr(value, "__dict__"):
        return sum(tensor_bytes(v, _depth + 1) for v in vars(value).values())
    return 0


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n
