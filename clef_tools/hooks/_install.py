"""`clef-tools hook install claude-code`: the hook entries in Claude Code's settings file.

Idempotent and reversible: the file's other settings and other hooks are kept as they
are, the gate's own entries are recognised by their command and replaced (or removed with
`--uninstall`), and the previous file is kept beside it as a backup.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Literal

from clef_tools.hooks._transcript import claude_home
from clef_tools.protocol._errors import ConfigError

__all__ = ["BACKUP_SUFFIX", "Scope", "hook_command", "install_hooks", "settings_path"]

Scope = Literal["user", "project", "local"]
BACKUP_SUFFIX = ".clef-tools.bak"
_MARK = "hook claude-code"
#: The events the gate needs, and whether each matches tools (a matcher) or not.
_EVENTS: dict[str, bool] = {
    "SessionStart": False,
    "UserPromptSubmit": False,
    "PreToolUse": True,
    "PostToolUse": True,
}


def settings_path(scope: Scope, project: Path | None = None) -> Path:
    """Claude Code's settings file for `scope` (user: ~/.claude/settings.json; project:
    .claude/settings.json; local: .claude/settings.local.json)."""
    if scope == "user":
        return claude_home() / "settings.json"
    folder = (project or Path.cwd()) / ".claude"
    return folder / ("settings.json" if scope == "project" else "settings.local.json")


def hook_command(options: list[str] | None = None) -> str:
    """The command line Claude Code runs: this install's `clef-tools`, by absolute path."""
    here = Path(sys.executable).parent / "clef-tools"
    found = str(here) if here.exists() else shutil.which("clef-tools")
    base = [found] if found else [sys.executable, "-m", "clef_tools.cli"]
    return shlex.join([*base, "hook", "claude-code", *(options or [])])


def _ours(entry: Any) -> bool:
    hooks = entry.get("hooks") if isinstance(entry, dict) else None
    return isinstance(hooks, list) and any(
        isinstance(h, dict) and _MARK in str(h.get("command", "")) for h in hooks
    )


def install_hooks(
    path: Path, *, command: str, uninstall: bool = False, timeout_s: int = 60
) -> dict[str, Any]:
    """Write (or remove) the gate's hook entries in the settings file at `path`; returns
    what changed."""
    settings: dict[str, Any] = {}
    if path.exists():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8") or "{}")
        except ValueError as exc:
            raise ConfigError(f"{path}: not valid JSON ({exc}); fix it first") from exc
        if not isinstance(loaded, dict):
            raise ConfigError(f"{path}: settings must be a JSON object")
        settings = loaded
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise ConfigError(f"{path}: `hooks` must be a JSON object")
    changed: list[str] = []
    for event, matches_tools in _EVENTS.items():
        entries = hooks.get(event, [])
        if not isinstance(entries, list):
            raise ConfigError(f"{path}: hooks.{event} must be a list")
        kept = [e for e in entries if not _ours(e)]
        if not uninstall:
            ours: dict[str, Any] = {
                "hooks": [{"type": "command", "command": command, "timeout": timeout_s}]
            }
            if matches_tools:
                ours = {"matcher": "*", **ours}
            kept.append(ours)
        if kept != entries:
            changed.append(event)
        if kept:
            hooks[event] = kept
        else:
            hooks.pop(event, None)
    if hooks:
        settings["hooks"] = hooks
    else:
        settings.pop("hooks", None)
    backup = None
    if changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            backup = path.with_name(path.name + BACKUP_SUFFIX)
            shutil.copy2(path, backup)
        _write_atomically(path, json.dumps(settings, indent=2, ensure_ascii=False) + "\n")
    return {
        "settings": str(path),
        "changed": changed,
        "backup": str(backup) if backup else None,
        "action": "uninstall" if uninstall else "install",
    }


def _write_atomically(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
