"""Running an ASGI app under uvicorn with bounds a public port needs.

uvicorn alone waits forever for a request's headers, so a client that trickles them (or
connects and says nothing) holds a connection and a file descriptor indefinitely: 100
such clients once kept 100 sockets open. Here a connection must deliver complete headers
within `header_timeout_s` of connecting or of its previous response, and connections
beyond `max_connections` are closed on arrival. Body deadlines are the app's (`read_body`).
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass
from typing import Any, ClassVar

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["ConnectionLimits", "bounded_config", "run_app"]


@dataclass(frozen=True)
class ConnectionLimits:
    max_connections: int = 256
    header_timeout_s: float = 10.0
    keep_alive_s: int = 5


class _BoundedH11Protocol(H11Protocol):
    limits: ClassVar[ConnectionLimits] = ConnectionLimits()
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections:
            transport.close()
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._header_timer is None and self.conn.their_state is h11.IDLE:
            self._arm()  # the next request on a kept-alive connection starts arriving
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()  # headers complete: the app's body deadline takes over

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.limits.header_timeout_s, self._expire)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _expire(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.logger.info("closing a connection that sent no complete headers in time")
            self.transport.close()


def bounded_config(app: Any, *, limits: ConnectionLimits, **config: Any) -> uvicorn.Config:
    protocol = type("BoundedH11Protocol", (_BoundedH11Protocol,), {"limits": limits})
    return uvicorn.Config(
        app,
        http=protocol,
        timeout_keep_alive=limits.keep_alive_s,
        access_log=False,
        **config,
    )


def run_app(
    app: Any,
    *,
    host: str,
    port: int,
    limits: ConnectionLimits | None = None,
    log_level: str = "info",
    sockets: list[socket.socket] | None = None,
) -> None:
    """Serve until SIGINT/SIGTERM; in-flight requests get up to 10 s to finish."""
    config = bounded_config(
        app,
        limits=limits or ConnectionLimits(),
        host=host,
        port=port,
        log_level=log_level,
        timeout_graceful_shutdown=10,
    )
    uvicorn.Server(config).run(sockets=sockets)
