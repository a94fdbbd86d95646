"""Backend spec strings, parsed once: which backend a string names, and what it points at.

Keywords always win over files and folders of the same name. MCP hosts start servers in
their own working directory, so a folder called `embedded/` or `smollm2/` lying there
must never be taken for the default backend: a model or release folder is only used when
the spec is written as a path (it has a separator: `./embedded`, `/models/flash`) or is
a `.gguf` file name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["BackendSpec", "looks_like_path", "parse_spec"]

BackendKind = Literal["readout", "release", "systemone", "workers-ai", "embedding", "cascade"]

#: Readout models known by name (no path involved).
READOUT_NAMES = frozenset({"", "embedded", "default", "smollm2"})
#: `keyword` or `keyword:argument`.
_PREFIXED: dict[str, BackendKind] = {
    "cascade": "cascade",
    "embedding": "embedding",
    "workers-ai": "workers-ai",
    "systemone": "systemone",
}


@dataclass(frozen=True)
class BackendSpec:
    """`kind` is the backend family; `target` what follows the keyword (a model name, a
    nested spec for `cascade`), the URL, or the path as written."""

    kind: BackendKind
    target: str
    raw: str


def looks_like_path(raw: str) -> bool:
    """Written as a path: has a separator, starts with `~`, or names a `.gguf` file."""
    seps = {"/", os.sep, *([os.altsep] if os.altsep else [])}
    return any(s in raw for s in seps) or raw.startswith("~") or raw.endswith(".gguf")


def parse_spec(spec: str | os.PathLike[str] | None) -> BackendSpec:
    """`None` means `$CLEF_TOOLS_MODEL`, else `embedded`."""
    raw = (os.environ.get("CLEF_TOOLS_MODEL") or "embedded") if spec is None else os.fspath(spec)
    if raw in READOUT_NAMES:
        return BackendSpec("readout", raw, raw)
    if raw == "clef-flash":
        return BackendSpec("release", "", raw)
    if raw.startswith(("http://", "https://")):
        return BackendSpec("systemone", raw, raw)
    head, sep, rest = raw.partition(":")
    if head in _PREFIXED and (sep or head == raw):
        return BackendSpec(_PREFIXED[head], rest, raw)
    if looks_like_path(raw):
        from clef_tools._release import is_release_folder

        if is_release_folder(Path(raw).expanduser()):
            return BackendSpec("release", raw, raw)
    # everything else is a readout model; resolve_model says what is wrong with it
    return BackendSpec("readout", raw, raw)
