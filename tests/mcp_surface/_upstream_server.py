"""A small MCP server written with the SDK: the upstream `clef-tools mcp-proxy` gates.

`python _upstream_server.py LOG`: every tool that runs appends its name to LOG, so a test
can tell a call that reached the upstream from one that did not."""

from __future__ import annotations

import sys
from pathlib import Path

from mcp.server import MCPServer
from mcp.types import ToolAnnotations

LOG = Path(sys.argv[1])
mcp = MCPServer("notes")


def _ran(name: str) -> None:
    with LOG.open("a") as f:
        f.write(name + "\n")


@mcp.tool(annotations=ToolAnnotations(read_only_hint=True, destructive_hint=False))
def read_note(title: str) -> str:
    """Read one of the user's notes by its title."""
    _ran("read_note")
    return f"note {title}: buy milk"


@mcp.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True))
def delete_all_notes(confirm: bool = True) -> str:
    """Permanently delete every note the user has."""
    _ran("delete_all_notes")
    return "deleted 42 notes"


@mcp.resource("notes://index", mime_type="text/plain")
def index() -> str:
    return "groceries\nideas"


if __name__ == "__main__":
    mcp.run()
