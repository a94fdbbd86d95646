"""`clef-tools`: answer `/v1/systemone` requests from the shell, inspect and warm the model,
serve, evaluate, calibrate, fit, gate agent hosts' tool calls. One module per group of
commands; `options` holds what they share."""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["main"]

#: Hosts whose hook client runs without the full command line (it starts on every call).
_HOOK_CLIENTS = ("claude-code", "gemini-cli", "cursor", "codex")


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    if len(given) >= 2 and given[0] == "hook" and given[1] in _HOOK_CLIENTS:
        from clef_tools.hooks._client import run_client

        return run_client(given[1], given[2:])
    from clef_tools.cli._main import main as run

    return run(given)
