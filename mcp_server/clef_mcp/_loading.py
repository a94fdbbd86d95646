"""The backend loads after the server has answered `initialize`, not before.

Loading takes 30 s (SmolLM2, cold) to minutes (the embedded model, first assembly), and
MCP hosts give up on a server that does not answer `initialize` in time. So the server
answers at once, loads in the background, and each tool waits for the model, sending
progress notifications while it does; `model_info` says "loading" meanwhile. A load that
fails is reported by every tool, and the gate fails closed with the reason.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal, TypeVar

import anyio
import anyio.to_thread
from mcp.server.mcpserver.exceptions import ToolError

from clef_tools import Decider, GatePolicy, MissingExtraError, ReviewStore, ToolGate

__all__ = ["BackendLoader", "reporting"]

log = logging.getLogger("clef_mcp")

PROGRESS_EVERY_S = 1.0
T = TypeVar("T")


async def reporting(ctx: Any, what: str, work: Awaitable[T]) -> T:
    """Await `work`; when it takes more than a second (a long state, a cold CPU, the first
    request after loading), tell the caller what is happening, once a second."""
    done = anyio.Event()
    began = time.monotonic()

    async def beat() -> None:
        while True:
            with anyio.move_on_after(PROGRESS_EVERY_S):
                await done.wait()
            if done.is_set():
                return
            elapsed = round(time.monotonic() - began, 1)
            await ctx.report_progress(elapsed, None, f"{what} ({elapsed} s)")

    failure: Exception | None = None
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(beat)
        try:
            result = await work
        except Exception as exc:  # re-raised as itself, not inside an exception group
            failure = exc
        finally:
            done.set()
    if failure is not None:
        raise failure
    return result


class BackendLoader:
    """Holds the backend once loaded, and what to say while it is not."""

    def __init__(
        self,
        factory: Callable[[], Decider],
        source: str,
        gate_policy: GatePolicy | None,
        reviews: ReviewStore,
    ) -> None:
        self.source = source
        self.status: Literal["loading", "ready", "failed"] = "loading"
        self.error: str | None = None
        self.decider: Decider | None = None
        self.gate: ToolGate | None = None
        self.gate_policy = gate_policy
        self._factory = factory
        self._reviews = reviews
        self._started = time.monotonic()
        self._done = anyio.Event()

    @property
    def seconds(self) -> float:
        return round(time.monotonic() - self._started, 1)

    async def run(self) -> None:
        """Load off the event loop; never raises (the failure is kept for the tools)."""
        try:
            decider = await anyio.to_thread.run_sync(self._factory, abandon_on_cancel=True)
            self.gate = _gate_for(decider, self.gate_policy, self._reviews)
            self.decider = decider
            self.status = "ready"
            log.info("clef backend ready: %s (%.1f s)", decider.model_id, self.seconds)
        except Exception as exc:
            self.status, self.error = "failed", f"{type(exc).__name__}: {exc}"
            log.error("clef backend failed to load: %s", self.error)
        finally:
            self._done.set()

    async def ready(self, ctx: Any) -> tuple[Decider, ToolGate]:
        """The backend and gate, after waiting for the load with progress notifications
        (sent only when the caller asked for them with a progress token)."""
        await reporting(ctx, f"loading the model {self.source!r}", self._done.wait())
        if self.decider is None or self.gate is None:
            raise ToolError(f"model unavailable: {self.error}")
        return self.decider, self.gate


def _gate_for(decider: Decider, policy: GatePolicy | None, reviews: ReviewStore) -> ToolGate:
    """The gate with its risk model and reviews; on an install without the `[local]`
    extra (a hosted backend), the model's answers alone, said once in the log."""
    try:
        return ToolGate(decider, policy, reviews=reviews)
    except MissingExtraError as exc:
        log.warning("gate without its risk model or reviews: %s", exc)
        return ToolGate(decider, policy, risk_model=None)
