"""JSONL files of objects, read with the line number in every error: a bad line is the data's
fault, and the user needs to find it (`clef-tools eval`, `clef-tools fit`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["jsonl_objects"]


def jsonl_objects(
    path: str | Path, error: type[ValueError] = ValueError
) -> Iterator[tuple[int, dict[str, Any]]]:
    """`(line number, object)` for each non-blank line; `error` for one that is not an object."""
    import json

    with Path(path).open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise error(f"{path}:{n}: not JSON ({exc.msg})") from None
            if not isinstance(row, dict):
                raise error(f"{path}:{n}: a line must be a JSON object")
            yield n, row
