"""clef MCP server: `decide`, `route`, `gate_tool_call` and `model_info` for MCP hosts."""

from clef_mcp._stdio import run_stdio
from clef_mcp.server import AppState, build_server, http_app

__all__ = ["AppState", "build_server", "http_app", "main", "run_stdio"]


def main(argv: list[str] | None = None) -> int:
    """`python -m clef_mcp [--http] [--port N] [--model M]` (same as `clef-tools mcp`)."""
    from clef_tools.cli import main as cli_main

    # the core CLI finds this package's command through its entry point
    return cli_main(["mcp", *(argv or [])])
