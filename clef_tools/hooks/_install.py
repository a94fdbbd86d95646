"""`clef-tools hook install HOST`: the gate's hook entries in the host's settings file.

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

from clef_tools.hooks._hosts import host
from clef_tools.hooks._transcript import claude_home
from clef_tools.protocol._errors import ConfigError

__all__ = ["BACKUP_SUFFIX", "Scope", "hook_command", "install_hooks", "settings_path"]

Scope = Literal["user", "project", "local"]
BACKUP_SUFFIX = ".clef-tools.bak"


def settings_path(host_name: str, scope: Scope, project: Path | None = None) -> Path:
    """The host's settings file for `scope`: Claude Code ~/.claude/settings.json,
    .claude/settings.json, .claude/settings.local.json; Gemini CLI ~/.gemini/settings.json,
    .gemini/settings.json; Cursor ~/.cursor/hooks.json, .cursor/hooks.json; Codex
    ~/.codex/hooks.json, .codex/hooks.json."""
    folder = project or Path.cwd()
    if host_name == "claude-code":
        if scope == "user":
            return claude_home() / "settings.json"
        name = "settings.json" if scope == "project" else "settings.local.json"
        return folder / ".claude" / name
    dot = {"gemini-cli": ".gemini", "cursor": ".cursor", "codex": ".codex"}[host_name]
    file = "settings.json" if host_name == "gemini-cli" else "hooks.json"
    if scope == "local":
        raise ConfigError(f"--scope local: {host_name} has user and project settings only")
    return (Path.home() if scope == "user" else folder) / dot / file


def hook_command(host_name: str, options: list[str] | None = None) -> str:
    """The command line the host runs: this install's `clef-tools`, by absolute path."""
    here = Path(sys.executable).parent / "clef-tools"
    found = str(here) if here.exists() else shutil.which("clef-tools")
    base = [found] if found else [sys.executable, "-m", "clef_tools.cli"]
    return shlex.join([*base, "hook", host_name, *(options or [])])


def _ours(entry: Any, mark: str) -> bool:
    if not isinstance(entry, dict):
        return False
    hooks = entry.get("hooks", [entry])  # Cursor's entries are the command itself
    return isinstance(hooks, list) and any(
        isinstance(h, dict) and mark in str(h.get("command", "")) for h in hooks
    )


def install_hooks(
    path: Path,
    *,
    host_name: str = "claude-code",
    command: str,
    uninstall: bool = False,
    timeout_s: int = 60,
) -> dict[str, Any]:
    """Write (or remove) the gate's hook entries in the host's settings file at `path`;
    returns what changed."""
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
    mark = f"hook {host_name}"
    changed: list[str] = []
    for event, wanted in host(host_name).settings(command, timeout_s).items():
        entries = hooks.get(event, [])
        if not isinstance(entries, list):
            raise ConfigError(f"{path}: hooks.{event} must be a list")
        kept = [e for e in entries if not _ours(e, mark)]
        if not uninstall:
            kept.extend(wanted)
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
    if host_name == "cursor" and settings:
        settings.setdefault("version", 1)  # Cursor's hooks.json declares its format
    backup = None
    if changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            backup = path.with_name(path.name + BACKUP_SUFFIX)
            shutil.copy2(path, backup)
        _write_atomically(path, json.dumps(settings, indent=2, ensure_ascii=False) + "\n")
    return {
        "host": host_name,
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
