"""Real HTTP on loopback: run an ASGI app under uvicorn in a thread, on a port the OS picks.

The socket is bound before uvicorn starts (no free-port race), and the server is shut
down the way SIGTERM would (`should_exit`), so graceful shutdown is exercised too.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn

from clef_tools import ConnectionLimits
from clef_tools.serving._http_run import bounded_config


@contextmanager
def serving(app: Any, limits: ConnectionLimits | None = None) -> Iterator[str]:
    """The app under uvicorn exactly as `clef-tools serve` runs it (bounded protocol)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        bounded_config(
            app,
            limits=limits or ConnectionLimits(),
            log_level="warning",
            timeout_graceful_shutdown=5,
        )
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def upstream_app(status: int, body: Any, headers: dict[str, str] | None = None) -> Any:
    """Stands in for a hosted /v1/systemone server (unreachable from here): answers every
    request with one documented response shape."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def answer(request: Request) -> JSONResponse:
        return JSONResponse(body, status_code=status, headers=headers or {})

    return Starlette(routes=[Route("/v1/systemone", answer, methods=["POST"])])


#: The console script next to this interpreter, as users run it.
CLI = str(Path(sys.executable).with_name("clef-tools"))

#: An MCP `initialize` request as a client's first POST to `/mcp`, and the headers it needs.
MCP_INITIALIZE: dict[str, Any] = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    },
}
MCP_JSONRPC = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def console_script(*args: str, env: Mapping[str, str] | None = None) -> Iterator[str]:
    """`clef-tools ARGS --port N` in its own process, until its port accepts connections;
    the base URL while it runs. Stopped with SIGTERM, its pipe closed."""
    port = free_port()
    proc = subprocess.Popen(
        [CLI, *args, "--port", str(port)],
        env=dict(env) if env is not None else None,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 180
        while True:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        if proc.stderr is not None:
            proc.stderr.close()
