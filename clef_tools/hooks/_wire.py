"""The hook client ↔ daemon exchange: one JSON line each way over a Unix socket.

Stdlib only (the client imports it on every tool call)."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

__all__ = ["MAX_LINE_BYTES", "ask_daemon", "read_line"]

MAX_LINE_BYTES = 16 * 1024 * 1024


def read_line(sock: socket.socket, limit: int = MAX_LINE_BYTES) -> bytes:
    """Bytes up to the first newline; ValueError past `limit`, EOFError on a closed socket."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            raise EOFError("the other side closed the connection")
        end = chunk.find(b"\n")
        if end >= 0:
            chunks.append(chunk[:end])
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise ValueError(f"message larger than {limit} bytes")


def ask_daemon(path: Path, message: dict[str, Any], timeout_s: float) -> dict[str, Any]:
    """The daemon's answer to `message` (OSError when it is not there or does not answer)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout_s)
        sock.connect(str(path))
        sock.sendall(json.dumps(message, ensure_ascii=False).encode() + b"\n")
        answer = json.loads(read_line(sock))
    if not isinstance(answer, dict):
        raise OSError("the daemon's answer is not a JSON object")
    return answer
