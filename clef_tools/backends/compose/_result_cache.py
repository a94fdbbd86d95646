"""`CachedDecider`: answers repeated requests from memory, for any backend.

Agents re-ask identical questions more than one would think: a LangGraph node re-run on
resume, a router asked again after a retry, the same guard on every turn of an unchanged
transcript. The key is everything that determines the answer — the backend's model id,
its calibration, the state in canonical JSON and the questions *in order* (a joint model
such as Clef reads them together) — so a hit returns exactly what a miss would have.

Bounded by entries and by age. Off unless you wrap a backend in it, and `ToolGate`
bypasses it unless told otherwise: a gate's verdict should follow the current policy and
model, and a stale "allow" is the one answer nobody wants cached by accident.
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from clef_tools.backends._base import BackendInfo, Decider, RequestScores
from clef_tools.protocol._validation import DecisionRequest
from clef_tools.protocol._wire import request_to_wire

__all__ = ["CachedDecider"]


class CachedDecider(Decider):
    """Wraps `inner`; identical requests within `ttl_s` are answered from memory."""

    def __init__(self, inner: Decider, *, max_entries: int = 1024, ttl_s: float = 300.0) -> None:
        if max_entries < 1 or ttl_s <= 0:
            raise ValueError("max_entries must be ≥ 1 and ttl_s > 0")
        self.inner = inner
        self.max_entries = max_entries
        self.ttl_s = ttl_s
        self.supported_types = inner.supported_types
        self._entries: OrderedDict[str, tuple[float, RequestScores]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def info(self) -> BackendInfo:
        inner = self.inner.info()
        return replace(inner, kind="cached", details={**inner.details, "inner": inner.kind})

    def _wrapped(self) -> list[Decider]:
        return [self.inner]

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def stats(self) -> dict[str, int]:
        with self._lock:
            return {"hits": self.hits, "misses": self.misses, "entries": len(self._entries)}

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def check_supported(self, request: DecisionRequest, loc_prefix: tuple[str | int, ...]) -> None:
        self.inner.check_supported(request, loc_prefix)

    def key(self, request: DecisionRequest) -> str:
        wire = request_to_wire(request, self.inner.model_id)
        payload = {
            **wire,
            "backend": type(self.inner).__qualname__,
            "calibration": repr(getattr(self.inner, "calibration", None)),
            # a list: `sort_keys` below must not reorder the questions
            "questions": list(wire["questions"].items()),
        }
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        keys, found, missing = self._lookup(requests)
        if missing:
            fresh = self.inner.score([requests[i] for i in missing])
            self._remember(keys, found, missing, fresh)
        return [found[i] for i in range(len(requests))]

    async def _ascore(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        keys, found, missing = self._lookup(requests)
        if missing:
            fresh = await self.inner.ascore([requests[i] for i in missing])
            self._remember(keys, found, missing, fresh)
        return [found[i] for i in range(len(requests))]

    def _lookup(
        self, requests: Sequence[DecisionRequest]
    ) -> tuple[list[str], dict[int, RequestScores], list[int]]:
        keys = [self.key(r) for r in requests]
        found: dict[int, RequestScores] = {}
        missing: list[int] = []
        now = time.monotonic()
        with self._lock:
            for i, key in enumerate(keys):
                entry = self._entries.get(key)
                if entry is not None and now - entry[0] <= self.ttl_s:
                    self._entries.move_to_end(key)
                    found[i] = copy.deepcopy(entry[1])
                    self.hits += 1
                else:
                    if entry is not None:
                        del self._entries[key]
                    missing.append(i)
                    self.misses += 1
        return keys, found, missing

    def _remember(
        self,
        keys: list[str],
        found: dict[int, RequestScores],
        missing: list[int],
        fresh: Sequence[Any],
    ) -> None:
        now = time.monotonic()
        with self._lock:
            for i, scores in zip(missing, fresh, strict=True):
                found[i] = scores
                self._entries[keys[i]] = (now, copy.deepcopy(scores))
                self._entries.move_to_end(keys[i])
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
