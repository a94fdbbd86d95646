"""The request model: validation, the wire format, rendering, confidence, errors, limits.

Private modules; the public names are re-exported by `clef_tools`. The JSON guards below are
public here as well: every surface that parses JSON itself (the MCP stdio transport) bounds it
the same way the wire parser does."""

from clef_tools.request._validation import OversizeNumber, json_int, scan_json

__all__ = ["OversizeNumber", "json_int", "scan_json"]
