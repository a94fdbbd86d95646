"""Stop abandoned work: a caller that gave up (timeout, disconnect) frees the model.

An async caller's backend work runs in a worker thread that cannot be interrupted, so
cancelling the caller alone would leave the forward passes running and every later
request queued behind them (ten 0.3 s server timeouts once burnt 43 CPU-seconds). The
caller's cancel event travels with the work as a context variable (anyio and the torch
thread carry the context over), and long backends check it between passes.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["Cancelled", "cancellable", "raise_if_cancelled"]

_EVENT: ContextVar[threading.Event | None] = ContextVar("clef_cancel_event", default=None)


class Cancelled(Exception):
    """The caller is gone; the work stops here and its result would be dropped anyway."""


@contextmanager
def cancellable() -> Iterator[threading.Event]:
    """Within this block, work started (threads included) sees `event`; set it to stop."""
    event = threading.Event()
    token = _EVENT.set(event)
    try:
        yield event
    finally:
        _EVENT.reset(token)


def raise_if_cancelled() -> None:
    """Call between passes: raises `Cancelled` once the caller has given up."""
    event = _EVENT.get()
    if event is not None and event.is_set():
        raise Cancelled
