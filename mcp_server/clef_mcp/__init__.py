"""clef MCP server: `decide`, `route`, `gate_tool_call`, `model_info` and (with human
reviews on) `record_review`, for MCP hosts.

The server's names load on first use, so `clef-tools --help` (which registers the `mcp`
command through this package) does not import the MCP SDK.
"""

from __future__ import annotations

# first of all: under `python -m` the working directory must not shadow any import (the
# core's face drops it from sys.path before anything else is imported)
import clef_tools  # noqa: F401

# isort: split

from typing import TYPE_CHECKING

from clef_tools._lazy import lazy_names

if TYPE_CHECKING:
    from clef_mcp._stdio import run_stdio
    from clef_mcp.server import AppState, SessionLimits, build_server, http_app

_WHERE: dict[str, str] = {
    "AppState": "clef_mcp.server",
    "build_server": "clef_mcp.server",
    "http_app": "clef_mcp.server",
    "SessionLimits": "clef_mcp.server",
    "run_stdio": "clef_mcp._stdio",
}

__all__ = ["AppState", "SessionLimits", "build_server", "http_app", "main", "run_stdio"]

__getattr__, __dir__ = lazy_names(__name__, _WHERE, __all__)


def main(argv: list[str] | None = None) -> int:
    """`python -m clef_mcp [--http] [--port N] [--model M]` (same as `clef-tools mcp`)."""
    from clef_tools.cli import main as cli_main

    # the core CLI finds this package's command through its entry point
    return cli_main(["mcp", *(argv or [])])
