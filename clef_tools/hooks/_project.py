"""A coding agent's paths as the user speaks of them: relative to the project.

Claude Code, Gemini CLI and Cursor hand a hook absolute paths (`/home/ana/shop/src/app.py`)
and the folder the session works in (`cwd`). The user says "fix src/app.py", never the
absolute path, so a path under that folder is judged as the project-relative path it is;
anything outside it (or climbing out with `..`) stays absolute, and so stays beyond the
project for the gate.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from typing import Any

__all__ = ["project_relative", "working_folder"]

#: Arguments of the hosts' own file tools that hold one path.
_PATH_KEYS = ("file_path", "path", "notebook_path", "absolute_path")


def working_folder(event: Mapping[str, Any]) -> str | None:
    """The folder the session works in: `cwd`, else Cursor's first workspace root."""
    cwd = event.get("cwd")
    if not isinstance(cwd, str):
        roots = event.get("workspace_roots")
        cwd = roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else None
    if cwd is None or not cwd.startswith("/") or len(cwd) > 4096:
        return None
    return posixpath.normpath(cwd)


def project_relative(args: Mapping[str, Any], cwd: str | None) -> dict[str, Any]:
    """`args` with each file path under `cwd` made relative to it."""
    out = dict(args)
    if cwd is None or cwd == "/":
        return out
    for key in _PATH_KEYS:
        value = out.get(key)
        if not isinstance(value, str) or not value.startswith(cwd + "/"):
            continue
        if ".." in value.split("/"):
            continue  # `/proj/../etc/passwd` climbs out of the project
        out[key] = value[len(cwd) + 1 :] or "."
    return out
