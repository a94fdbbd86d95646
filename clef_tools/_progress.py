"""The one channel for progress on slow work (assemble, convert, load, a slow first answer).

Everything goes to stderr: stdout belongs to the CLI's JSON and to the MCP stdio
protocol. A disabled `Progress` (`--quiet`) prints nothing at all, and transformers' own
bars follow the same switch (`clef_tools.backends.local._models`), so `--quiet` leaves stderr empty.
Steps with no natural unit of progress (reading a GGUF tokenizer takes ~20 s) get a
heartbeat, so the user never stares at silence.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["Progress"]

_WRITING = threading.Lock()


class Progress:
    """Prints `clef-tools: <step> (<elapsed>s)` lines and bars when enabled."""

    def __init__(self, enabled: bool | None = True, *, heartbeat_s: float = 5.0) -> None:
        """`enabled=None`: on when stderr is a terminal (a first load from Python says what
        it is doing for minutes; a CI log or a pipe stays quiet)."""
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.heartbeat_s = heartbeat_s
        self._start = time.monotonic()

    def step(self, message: str) -> None:
        if self.enabled:
            elapsed = time.monotonic() - self._start
            # one write per line: a heartbeat thread must not split another thread's line
            with _WRITING:
                sys.stderr.write(f"clef-tools: {message} ({elapsed:.1f}s)\n")
                sys.stderr.flush()

    def bar(self, total: int, desc: str, unit: str = "B") -> Any:
        """A tqdm bar on stderr (a silent one when disabled)."""
        from tqdm import tqdm

        return tqdm(
            total=total,
            desc=f"clef-tools: {desc}",
            unit=unit,
            unit_scale=unit == "B",
            file=sys.stderr,
            disable=not self.enabled,
            leave=False,
        )

    @contextmanager
    def waiting(self, message: str, *, after_s: float = 0.0) -> Iterator[None]:
        """Say `message` if the block is still running after `after_s` seconds, then every
        `heartbeat_s` seconds with the time spent so far; nothing for a quick block."""
        if not self.enabled:
            yield
            return
        done = threading.Event()
        began = time.monotonic()

        def beat() -> None:
            if done.wait(after_s):
                return
            self.step(message)
            while not done.wait(self.heartbeat_s):
                self.step(f"{message}: still working, {time.monotonic() - began:.0f}s so far")

        thread = threading.Thread(target=beat, name="clef-progress", daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join()
