"""The resident gate behind the hook client: the model stays warm between tool calls.

Started by the first hook that finds no daemon, it holds a lock (one daemon per socket,
however many hooks race to start it), listens on a Unix socket in a user-only folder and
stops itself after `idle_s` without an event. The socket is the only way in.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import socketserver
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clef_tools.hooks._engine import HookEngine
from clef_tools.hooks._paths import private_dir
from clef_tools.hooks._wire import read_line

__all__ = ["run_daemon"]

log = logging.getLogger("clef_tools.hooks")


class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    engine: HookEngine
    last_event: float


class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def handle(self) -> None:
        self.server.last_event = time.monotonic()
        try:
            self.request.settimeout(30.0)
            message = json.loads(read_line(self.request))
            answer: dict[str, Any]
            if isinstance(message, dict) and message.get("ping"):
                answer = {"ok": True, "pid": os.getpid()}
            elif isinstance(message, dict) and "event" in message:
                surface = str(message.get("surface") or self.server.engine.surface)
                answer = {"output": self.server.engine.handle(message["event"], surface=surface)}
            else:
                answer = {"error": 'expected {"event": …} or {"ping": true}'}
        except (ValueError, EOFError, OSError) as exc:
            answer = {"error": f"unreadable message: {exc}"}
        # a client that gave up waiting has answered `ask` already
        with contextlib.suppress(OSError):
            self.request.sendall(json.dumps(answer, ensure_ascii=False).encode() + b"\n")
        self.server.last_event = time.monotonic()


def run_daemon(
    socket_path: Path, make_engine: Callable[[], HookEngine], *, idle_s: float = 1800.0
) -> int:
    """Serve hook events on `socket_path` until idle; 0 also when another daemon has it."""
    private_dir(socket_path.parent)
    lock = open(socket_path.with_name(socket_path.name + ".lock"), "a+")  # noqa: SIM115
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return 0  # another daemon is starting or serving on this socket
    try:
        engine = make_engine()  # loads the model: the slow part, before the socket opens
        socket_path.unlink(missing_ok=True)
        old = os.umask(0o177)
        try:
            server = _Server(str(socket_path), _Handler)
        finally:
            os.umask(old)
        server.engine = engine
        server.last_event = time.monotonic()
        watcher = threading.Thread(
            target=_stop_when_idle, args=(server, idle_s), daemon=True, name="clef-idle"
        )
        watcher.start()
        log.info("hook daemon %d listening on %s", os.getpid(), socket_path)
        try:
            server.serve_forever(poll_interval=0.5)
        finally:
            server.server_close()
            engine.close()
            if engine.audit is not None:
                engine.audit.close()
            socket_path.unlink(missing_ok=True)
        return 0
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()


def _stop_when_idle(server: _Server, idle_s: float) -> None:
    while True:
        time.sleep(min(max(idle_s / 10, 0.2), 30.0))
        if time.monotonic() - server.last_event > idle_s:
            server.shutdown()
            return
