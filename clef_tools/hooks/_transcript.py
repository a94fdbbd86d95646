"""The user's words and the tool results of a session, from Claude Code's transcript.

A resident gate that restarted, or a hook installed mid-session, has not seen the
session's prompts; Claude Code names its JSONL transcript in every event. Only files in
Claude Code's own folder are read (the event is the host's, but a path in it must not turn
the gate into a reader of any file), and only the tail of a long one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["claude_home", "read_transcript"]

_TAIL_BYTES = 2 * 1024 * 1024
_RESULT_CHARS = 4000


def claude_home() -> Path:
    """Claude Code's configuration folder (`CLAUDE_CONFIG_DIR`, else `~/.claude`)."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def read_transcript(path: str) -> list[dict[str, Any]] | None:
    """The session as chat messages (user words, tool calls' results), or None when the
    path is not a transcript the gate may read."""
    try:
        file = Path(path).expanduser().resolve(strict=True)
        home = claude_home().resolve()
    except OSError:
        return None
    if file.suffix != ".jsonl" or not file.is_file() or not file.is_relative_to(home):
        return None
    try:
        with file.open("rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(size - _TAIL_BYTES, 0))
            tail = f.read().decode("utf-8", errors="replace")
    except OSError:
        return None
    lines = tail.splitlines()
    if len(lines) > 1 and size > _TAIL_BYTES:
        lines = lines[1:]  # the first line of a tail is cut
    messages: list[dict[str, Any]] = []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        messages.extend(_messages_of(entry))
    return messages


def _messages_of(entry: Any) -> list[dict[str, Any]]:
    if not isinstance(entry, Mapping) or entry.get("type") != "user" or entry.get("isMeta"):
        return []  # assistant turns are the agent's words, not the user's
    message = entry.get("message")
    if not isinstance(message, Mapping):
        return []
    content = message.get("content")
    if isinstance(content, str):
        return [{"role": "user", "content": content}]
    out: list[dict[str, Any]] = []
    said: list[str] = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, Mapping):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            said.append(block["text"])
        elif block.get("type") == "tool_result":
            out.append({"role": "tool", "content": result_text(block.get("content"))})
    if said:
        out.insert(0, {"role": "user", "content": "\n".join(said)})
    return out


def result_text(content: Any) -> str:
    """A tool's result as bounded text (what the gate reads as provenance)."""
    file = content.get("file") if isinstance(content, Mapping) else None
    if isinstance(file, Mapping) and isinstance(file.get("content"), str):
        text = str(file["content"])  # Claude Code's Read: `{"file": {"content": …}}`
    elif isinstance(content, str):
        text = content
    elif isinstance(content, list):
        text = "\n".join(b.get("text", "") if isinstance(b, Mapping) else str(b) for b in content)
    else:
        text = json.dumps(content, ensure_ascii=False, default=str)
    return text[:_RESULT_CHARS]
