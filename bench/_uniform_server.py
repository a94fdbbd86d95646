"""A server whose backend answers instantly (uniform probabilities): MCP stdio by default,
`/v1/systemone` HTTP with `--http PORT`.

Only for the benchmarks: with the model's time taken out, what is left of a round trip
is the surface's own overhead (protocol, validation, schemas, thread hops).
"""

from __future__ import annotations

import sys

from clef_mcp import build_server
from clef_tools.testing import InstantDecider as UniformDecider

__all__ = ["UniformDecider", "build_server"]


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        from clef_tools import serve

        serve(UniformDecider(), port=int(sys.argv[2]), log_level="warning")
    else:
        build_server(UniformDecider, model="uniform").run()
