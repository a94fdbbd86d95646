"""Raw MCP stdio frames that break strict parsers still get an answer, and the server
keeps serving. Before, each of these got no reply at all: the client hung."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys

import pytest

from clef_mcp._stdio import check_frame

CALL = b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"decide","arguments":%s}}'
NOUL = b'"questions":{"q":{"type":"noul","instructions":"x?"}}'

FRAMES = [
    (
        "lone surrogate",
        CALL % (2, b'{"state":"\\ud800",' + NOUL + b"}"),
        2,
        -32602,
        "params.arguments.state",
    ),
    (
        "deep nesting",
        CALL % (3, b'{"state":' + b"[" * 3000 + b"]" * 3000 + b"," + NOUL + b"}"),
        None,
        -32700,
        "nested too deeply",
    ),
    ("invalid UTF-8", CALL % (4, b'{"state":"\xff",' + NOUL + b"}"), None, -32700, "not UTF-8"),
    (
        "NaN",
        CALL % (5, b'{"state":"x","questions":{"q":{"type":"noul","instructions":NaN}}}'),
        5,
        -32602,
        "questions.q.instructions",
    ),
    (
        "5000-digit number",
        CALL % (6, b'{"state":{"n":' + b"9" * 5000 + b"}," + NOUL + b"}"),
        6,
        -32602,
        "5000 digits",
    ),
    ("not JSON", b"{this is not json", None, -32700, "invalid JSON"),
]


@pytest.mark.parametrize(
    ("frame", "want_id", "code", "fragment"), [f[1:] for f in FRAMES], ids=[f[0] for f in FRAMES]
)
def test_each_broken_frame_is_answered(
    frame: bytes, want_id: int | None, code: int, fragment: str
) -> None:
    line, error = check_frame(frame)
    assert line is None and error is not None
    assert error.id == want_id and error.error.code == code and fragment in error.error.message
    error.model_dump_json()  # always writable


def test_good_frames_pass_unchanged_and_broken_notifications_are_dropped() -> None:
    good = CALL % (9, b'{"state":"caf\xc3\xa9",' + NOUL + b"}")
    assert check_frame(good) == (good.decode(), None)
    assert check_frame(
        b'{"jsonrpc":"2.0","method":"notifications/x","params":{"a":"\\ud800"}}'
    ) == (None, None)


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1"}


def test_the_stdio_server_answers_every_frame_and_keeps_serving() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "clef_mcp", "--model", "smollm2", "--quiet"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=_env(),
    )
    assert proc.stdin is not None and proc.stdout is not None

    def send(raw: bytes) -> None:
        assert proc.stdin is not None
        proc.stdin.write(raw + b"\n")
        proc.stdin.flush()

    def reply(timeout: float = 120) -> dict[str, object]:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], timeout)
        assert ready, "no reply"
        return dict(json.loads(proc.stdout.readline()))

    try:
        init = {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"},
        }
        send(
            json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init}).encode()
        )
        assert "result" in reply()
        send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        for _, frame, want_id, code, _ in FRAMES:
            send(frame)
            answer = reply()
            assert answer["id"] == want_id and answer["error"]["code"] == code  # type: ignore[index]
        send(CALL % (8, b'{"state":"x",' + NOUL + b"}"))
        ok = reply()
        assert ok["id"] == 8 and "result" in ok
    finally:
        proc.kill()
        proc.wait(timeout=30)
        proc.stdin.close()
        proc.stdout.close()
