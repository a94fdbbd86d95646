"""Progress lines on stderr for the slow first run (assemble, convert, load).

stderr only: stdout belongs to the CLI's JSON and to the MCP stdio protocol.
"""

from __future__ import annotations

import sys
import time

__all__ = ["Progress"]


class Progress:
    """Prints `clef-tools: <step> (<elapsed>s)` lines when enabled."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self._start = time.monotonic()

    def step(self, message: str) -> None:
        if self.enabled:
            elapsed = time.monotonic() - self._start
            print(f"clef-tools: {message} ({elapsed:.1f}s)", file=sys.stderr, flush=True)
