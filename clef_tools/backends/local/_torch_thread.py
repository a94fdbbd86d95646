"""All torch work of a process runs on one dedicated thread.

OpenMP keeps a thread team per calling thread. When torch runs on more than one Python
thread (the main thread loading the model, then server or anyio worker threads answering),
the teams compete for the cores: measured on 2 cores with SmolLM2, a request took 526 ms
when torch only ever ran on one thread and 741–850 ms from a second thread. Routing every
load and forward pass through one thread keeps a single team, and also serialises access
to the model without a lock.
"""

from __future__ import annotations

import concurrent.futures
import contextvars
import threading
from collections.abc import Callable
from typing import TypeVar

from clef_tools.backends._cancel import raise_if_cancelled

__all__ = ["run_on_torch_thread"]

T = TypeVar("T")

_executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="clef-torch")
_thread_ids: set[int] = set()


def _mark() -> None:
    _thread_ids.add(threading.get_ident())


_executor.submit(_mark).result()


def run_on_torch_thread(fn: Callable[[], T]) -> T:
    """Run `fn` on the torch thread and wait for it (directly, if already there).

    The caller's context goes along (its cancel event included), and work whose caller
    gave up while it waited in the queue never starts.
    """
    if threading.get_ident() in _thread_ids:
        return fn()
    context = contextvars.copy_context()

    def run() -> T:
        raise_if_cancelled()
        return fn()

    return _executor.submit(context.run, run).result()
