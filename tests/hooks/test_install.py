"""`clef-tools hook install claude-code` on a settings file that already holds things."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

EXISTING: dict[str, Any] = {
    "model": "opus",
    "permissions": {"allow": ["Bash(npm run lint)"], "deny": ["Read(./.env)"]},
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "/usr/local/bin/block-rm.sh"}],
            }
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
}


def _install(settings: Path, *flags: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "clef_tools.cli", "hook", "install", "claude-code",
         "--settings", str(settings), *flags],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def test_install_keeps_what_is_there_is_idempotent_and_uninstalls(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(EXISTING, indent=4))
    first = _install(settings, "--option=--headless=deny")
    assert sorted(first["changed"]) == [
        "PostToolUse",
        "PreToolUse",
        "SessionStart",
        "UserPromptSubmit",
    ]
    assert json.loads(Path(first["backup"]).read_text()) == EXISTING
    written = json.loads(settings.read_text())
    assert written["model"] == "opus" and written["permissions"] == EXISTING["permissions"]
    assert written["hooks"]["Stop"] == EXISTING["hooks"]["Stop"]
    pre = written["hooks"]["PreToolUse"]
    assert pre[0] == EXISTING["hooks"]["PreToolUse"][0]  # theirs first, untouched
    ours = pre[1]
    assert ours["matcher"] == "*"
    command = ours["hooks"][0]["command"]
    assert ours["hooks"][0]["type"] == "command"
    assert "hook claude-code" in command and "--headless=deny" in command
    assert "matcher" not in written["hooks"]["UserPromptSubmit"][0]

    again = _install(settings, "--option=--headless=deny")
    assert again["changed"] == []
    assert json.loads(settings.read_text()) == written

    # the hook command it wrote runs: an event in, a documented answer out
    event = {"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {}}
    ran = subprocess.run(
        f"{command} --no-start --socket {tmp_path / 'none.sock'}",
        shell=True, input=json.dumps(event), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert json.loads(ran.stdout)["hookSpecificOutput"]["permissionDecision"] == "ask"

    gone = _install(settings, "--uninstall")
    assert sorted(gone["changed"]) == sorted(first["changed"])
    assert json.loads(settings.read_text()) == EXISTING


def test_install_refuses_a_settings_file_it_cannot_read(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text("{ not json")
    done = subprocess.run(
        [sys.executable, "-m", "clef_tools.cli", "hook", "install", "claude-code",
         "--settings", str(settings)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert "not valid JSON" in done.stderr and "Traceback" not in done.stderr
    assert settings.read_text() == "{ not json"  # untouched
