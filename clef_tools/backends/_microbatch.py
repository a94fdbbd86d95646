"""Micro-batching: concurrent async callers of one backend share one `_score` call.

A server thread per request would make a batching backend (the Clef release pads
requests into one forward; a GPU runs 8 rows for little more than 1) run them one by one.
Callers that arrive within `window_s` of each other, up to `max_requests`, are handed to
the backend together; each gets exactly its own results back. The backend caps tokens per
forward itself, so one huge request cannot make the small ones wait on a giant pad.

A failure of the shared call is not spread to innocent callers: the batch is re-run one
caller at a time, so only the request that fails gets the error. A caller that gives up
(timeout, cancellation) just stops waiting; the batch finishes for the others.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio.to_thread

__all__ = ["MicroBatcher"]


@dataclass
class _Waiting:
    requests: Sequence[Any]
    future: asyncio.Future[list[Any]]


@dataclass
class _LoopQueue:
    pending: list[_Waiting] = field(default_factory=list)
    timer: asyncio.TimerHandle | None = None


@dataclass
class MicroBatcher:
    """Coalesces `submit` calls into calls of `score` (one queue per event loop)."""

    score: Callable[[Sequence[Any]], list[Any]]
    window_s: float = 0.002
    max_requests: int = 8
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _queues: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopQueue] = field(
        default_factory=weakref.WeakKeyDictionary
    )

    async def submit(self, requests: Sequence[Any]) -> list[Any]:
        loop = asyncio.get_running_loop()
        queue = self._queues.setdefault(loop, _LoopQueue())
        waiting = _Waiting(requests, loop.create_future())
        queue.pending.append(waiting)
        if sum(len(w.requests) for w in queue.pending) >= self.max_requests:
            self._flush(loop, queue)
        elif queue.timer is None:
            queue.timer = loop.call_later(self.window_s, self._flush, loop, queue)
        return await waiting.future

    def _flush(self, loop: asyncio.AbstractEventLoop, queue: _LoopQueue) -> None:
        if queue.timer is not None:
            queue.timer.cancel()
            queue.timer = None
        batch, queue.pending = queue.pending, []
        if batch:
            task = loop.create_task(self._run(batch))
            self._tasks.add(task)  # keep a reference until it is done
            task.add_done_callback(self._tasks.discard)

    async def _run(self, batch: list[_Waiting]) -> None:
        live = [w for w in batch if not w.future.done()]
        if not live:
            return
        flat = [r for w in live for r in w.requests]
        try:
            results = await anyio.to_thread.run_sync(self.score, flat)
        except Exception as exc:
            if len(live) == 1:
                _settle(live[0], exc)
                return
            for w in live:  # isolate the failure: each caller alone
                if w.future.done():
                    continue
                try:
                    _settle(w, await anyio.to_thread.run_sync(self.score, w.requests))
                except Exception as single:
                    _settle(w, single)
            return
        start = 0
        for w in live:
            end = start + len(w.requests)
            _settle(w, list(results[start:end]))
            start = end


def _settle(waiting: _Waiting, outcome: list[Any] | BaseException) -> None:
    if waiting.future.done():
        return
    if isinstance(outcome, BaseException):
        waiting.future.set_exception(outcome)
    else:
        waiting.future.set_result(outcome)
