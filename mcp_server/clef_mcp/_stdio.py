"""The stdio transport with an answer for every frame, however broken.

The SDK's transport parses each line with a strict parser, and a line it cannot parse
(a lone surrogate, nesting past its recursion limit, a 5000-digit number, invalid UTF-8)
becomes an exception the session only logs: the client waits forever for a reply. Here
each line is checked first. Broken JSON is answered with JSON-RPC's parse error
(-32700, id null); well-formed JSON holding such values with an invalid-params error
(-32602) that names the field, under the request's own id. Good lines go on unchanged.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import AsyncIterator
from typing import Any, BinaryIO, cast

import anyio
import anyio.to_thread
import mcp_types as types
from anyio.abc import ObjectSendStream
from mcp.server import MCPServer
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from clef_tools.protocol import json_int, scan_json

__all__ = ["MAX_FRAME_BYTES", "run_stdio"]

log = logging.getLogger("clef_mcp")

#: One JSON-RPC line at most (the HTTP surfaces take 16 MiB bodies; frames add little).
MAX_FRAME_BYTES = 17 * 1024 * 1024
#: Nesting a frame may have: the JSON-RPC envelope plus a state's 64 levels.
_MAX_FRAME_DEPTH = 80


async def run_stdio(server: MCPServer[Any] | Server[Any]) -> None:
    """What `server.run()` does for stdio, with every line checked before the SDK parses it."""
    errors_in, errors_out = anyio.create_memory_object_stream[types.JSONRPCError](64)
    lines = _checked_lines(sys.stdin.buffer, errors_in)
    # an MCPServer drives its low-level server, as MCPServer.run_stdio_async does
    lowlevel = server._lowlevel_server if isinstance(server, MCPServer) else server
    async with (
        stdio_server(stdin=cast(Any, _AsyncLines(lines))) as (read, write),
        anyio.create_task_group() as tg,
    ):

        async def answer_rejections() -> None:
            async with errors_out:
                async for error in errors_out:
                    await write.send(SessionMessage(error))

        tg.start_soon(answer_rejections)
        await lowlevel.run(read, write, lowlevel.create_initialization_options())
        tg.cancel_scope.cancel()


class _AsyncLines:
    """The async-iterable-of-str shape `stdio_server(stdin=...)` reads."""

    def __init__(self, lines: AsyncIterator[str]) -> None:
        self._lines = lines

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines


async def _checked_lines(
    stdin: BinaryIO, errors: ObjectSendStream[types.JSONRPCError]
) -> AsyncIterator[str]:
    async def readline(limit: int) -> bytes:
        return await anyio.to_thread.run_sync(stdin.readline, limit, abandon_on_cancel=True)

    async with errors:
        while True:
            raw = await readline(MAX_FRAME_BYTES + 1)
            if not raw:
                return
            if len(raw) > MAX_FRAME_BYTES and not raw.endswith(b"\n"):
                while (rest := await readline(1 << 20)) and not rest.endswith(b"\n"):
                    pass  # drop the rest of the oversize line
                await errors.send(
                    _error(None, types.PARSE_ERROR, f"frame over {MAX_FRAME_BYTES} bytes")
                )
                continue
            if not raw.strip():
                continue
            line, rejection = check_frame(raw)
            if rejection is not None:
                log.warning("refused a frame: %s", rejection.error.message)
                await errors.send(rejection)
            elif line is not None:
                yield line


def check_frame(raw: bytes) -> tuple[str | None, types.JSONRPCError | None]:
    """`(the line to pass on, None)`, `(None, the error to answer)`, or `(None, None)` for
    a broken notification, which JSON-RPC never answers."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, _error(None, types.PARSE_ERROR, f"frame is not UTF-8: {exc.reason}")
    try:
        message = json.loads(text, parse_int=json_int)
    except RecursionError:
        return None, _error(None, types.PARSE_ERROR, "frame nested too deeply to parse")
    except ValueError as exc:
        return None, _error(None, types.PARSE_ERROR, f"invalid JSON: {exc}")
    issues = scan_json(message, max_depth=_MAX_FRAME_DEPTH)
    if not issues:
        return text, None
    request_id = message.get("id") if isinstance(message, dict) else None
    if not isinstance(request_id, int | str) or isinstance(request_id, bool):
        return None, (
            None
            if isinstance(message, dict) and "method" in message and "id" not in message
            else _error(None, types.INVALID_REQUEST, _describe(issues[0]))
        )
    return None, _error(request_id, types.INVALID_PARAMS, _describe(issues[0]))


def _describe(issue: Any) -> str:
    return f"{issue.path}: {issue.msg}"


def _error(request_id: int | str | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(
        jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message)
    )
