"""Where the hook daemon listens and keeps its state: folders only the user can enter.

A socket anyone on the machine could connect to would let them ask the user's gate to
learn from their "approvals"; a verdict log anyone could read would show what the user
works on. Both folders are created 0700 and checked to be the user's own.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["default_socket", "private_dir", "state_dir"]


def private_dir(path: Path) -> Path:
    """`path`, created 0700 if missing; refused when it is someone else's or open to others."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    info = path.stat()
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise PermissionError(f"{path} belongs to another user; choose another --socket")
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        os.chmod(path, 0o700)
    return path


def _runtime_root() -> Path:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and Path(runtime).is_dir():
        return Path(runtime) / "clef-tools"
    cache = os.environ.get("XDG_CACHE_HOME")
    return (Path(cache) if cache else Path.home() / ".cache") / "clef-tools" / "run"


def default_socket() -> Path:
    """`CLEF_TOOLS_HOOK_SOCKET`, else `$XDG_RUNTIME_DIR/clef-tools/hook.sock` (or
    `~/.cache/clef-tools/run/hook.sock`)."""
    configured = os.environ.get("CLEF_TOOLS_HOOK_SOCKET")
    return Path(configured).expanduser() if configured else _runtime_root() / "hook.sock"


def state_dir() -> Path:
    """Where the daemon keeps its audit log and reviews unless told otherwise."""
    state = os.environ.get("XDG_STATE_HOME")
    return (Path(state) if state else Path.home() / ".local" / "state") / "clef-tools"
