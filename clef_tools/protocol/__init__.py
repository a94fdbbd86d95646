"""The `/v1/systemone` protocol: limits, the JSON guard, validation, the wire format,
rendering, media, confidence, errors — the bottom floor every backend and surface reads.

Private modules; the public names are re-exported by `clef_tools`. Public here as well: the
JSON guards (every surface that parses JSON itself, like the MCP stdio transport, bounds it
the same way the wire parser does) and the answer's pydantic models (a surface that returns
answers returns these)."""

from typing import TYPE_CHECKING

from clef_tools._lazy import lazy_names

if TYPE_CHECKING:
    from clef_tools.protocol._limits import OPTIONS_HELP, QUESTIONS_HELP
    from clef_tools.protocol._schema import Probability, SystemOneResponse
    from clef_tools.protocol._types import SCORED_TYPES
    from clef_tools.protocol._validation import OversizeNumber, json_int, scan_json

_WHERE = {
    "OPTIONS_HELP": "clef_tools.protocol._limits",
    "QUESTIONS_HELP": "clef_tools.protocol._limits",
    "OversizeNumber": "clef_tools.protocol._validation",
    "SCORED_TYPES": "clef_tools.protocol._types",
    "Probability": "clef_tools.protocol._schema",
    "SystemOneResponse": "clef_tools.protocol._schema",
    "json_int": "clef_tools.protocol._validation",
    "scan_json": "clef_tools.protocol._validation",
}
__all__ = [
    "OPTIONS_HELP",
    "QUESTIONS_HELP",
    "SCORED_TYPES",
    "OversizeNumber",
    "Probability",
    "SystemOneResponse",
    "json_int",
    "scan_json",
]

__getattr__, __dir__ = lazy_names(__name__, _WHERE, __all__)
