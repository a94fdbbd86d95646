"""A bounded mapping that forgets its least recently used entries: the one eviction rule
behind every per-process cache of derived values (yes/no priors, option embeddings, judged
risks). Not thread-safe by itself: each owner already holds its own lock or thread."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["BoundedLRU"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedLRU(Generic[K, V]):
    def __init__(self, max_entries: int) -> None:
        if max_entries < 0:
            raise ValueError(f"max_entries must be >= 0, got {max_entries}")
        self.max_entries = max_entries
        self._entries: OrderedDict[K, V] = OrderedDict()

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, key: K) -> V:
        """The entry, marked as just used."""
        self._entries.move_to_end(key)
        return self._entries[key]

    def peek(self, key: K) -> V | None:
        """The entry without marking it used (None when absent)."""
        return self._entries.get(key)

    def pop(self, key: K, default: V | None = None) -> V | None:
        """Remove and return the entry (`default` when absent)."""
        return self._entries.pop(key, default)

    def put(self, key: K, value: V, *, trim: bool = True) -> None:
        """Store `value` as the newest entry; with `trim=False` the bound is applied later
        (`trim()`), for an owner that must read several new entries before any may go."""
        self._entries[key] = value
        self._entries.move_to_end(key)
        if trim:
            self.trim()

    def trim(self) -> None:
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)
