"""`clef-tools` as a user runs it: a real subprocess, JSON on stdin, wire JSON on stdout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REQUEST = {
    "state": "I was charged twice for order #4411; please refund one charge.",
    "questions": {
        "refund": {"type": "noul", "instructions": "Is this a refund request?"},
        "team": {
            "type": "choice",
            "instructions": "Team?",
            "criteria": {"billing": None, "tech": None},
        },
        "mood": {"type": "score", "instructions": "Mood?", "criteria": ["calm", "upset", "angry"]},
    },
}


def _cli(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clef_tools.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def test_decide_prints_wire_json(tmp_path: Path) -> None:
    request = tmp_path / "req.json"
    request.write_text(json.dumps(REQUEST))
    done = _cli("decide", str(request), "--model", "smollm2", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    body = json.loads(done.stdout)
    assert body["model"] == "smollm2-135m-instruct-q4_1"
    assert set(body["answers"]) == {"refund", "team", "mood"}
    assert 0 <= body["answers"]["refund"]["noul"] <= 1
    assert sum(body["answers"]["team"]["probabilities"].values()) == pytest.approx(1)
    assert list(body["answers"]["mood"]["legend"]) == ["0", "1", "2"]
    assert body["usage"]["input_tokens"] > 20 and body["usage"]["output_tokens"] == 0


@pytest.mark.parametrize(
    ("stdin", "fragment"),
    [
        ("{not json", "invalid JSON at line 1"),
        (
            '{"state": "s", "questions": {"q": {"type": "choice", "criteria": {"a": 1}}}}',
            "questions.q.criteria",
        ),
        ('{"state": 5, "questions": {"q": {"type": "noul"}}}', "state: state must be"),
    ],
)
def test_bad_requests_fail_with_one_line(stdin: str, fragment: str) -> None:
    done = _cli("decide", "--model", "smollm2", stdin=stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clef-tools: error: ") and fragment in lines[0]


def test_unknown_model_is_a_clear_error() -> None:
    done = _cli("decide", "--model", "no-such-model", stdin=json.dumps(REQUEST))
    assert done.returncode == 3
    assert "unknown model 'no-such-model'" in done.stderr and "Traceback" not in done.stderr


def test_model_reports_what_would_load() -> None:
    done = _cli("model", "--model", "smollm2", "--warm", "--quiet")
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    assert info["model_id"] == "smollm2-135m-instruct-q4_1"
    assert info["limits"]["questions_per_request"] == 64
    assert info["max_context_tokens"] > 1000


def test_serve_answers_decide_over_http_and_stops_on_sigterm(tmp_path: Path) -> None:
    import os
    import signal
    import socket
    import time

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "CLEF_TOOLS_API_KEY": "k3y"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clef_tools.cli",
            "serve",
            "--model",
            "smollm2",
            "--quiet",
            "--port",
            str(port),
        ],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{url}/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, server.stderr
            time.sleep(0.2)
        client_env = {**os.environ, "TYPESAFE_API_KEY": "k3y"}
        done = subprocess.run(
            [sys.executable, "-m", "clef_tools.cli", "decide", "--backend", url],
            input=json.dumps(REQUEST),
            capture_output=True,
            text=True,
            env=client_env,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        body = json.loads(done.stdout)
        assert body["model"] == "smollm2-135m-instruct-q4_1"
        assert set(body["answers"]["team"]) == {
            "type",
            "choice",
            "confidence",
            "probabilities",
            "upstream_confidence",
        }
        refused = subprocess.run(
            [sys.executable, "-m", "clef_tools.cli", "decide", "--backend", url],
            input=json.dumps(REQUEST),
            capture_output=True,
            text=True,
            timeout=120,
            env={k: v for k, v in os.environ.items() if k != "TYPESAFE_API_KEY"},
        )
        assert refused.returncode == 1 and "authentication failed" in refused.stderr
    finally:
        server.send_signal(signal.SIGTERM)
        rc = server.wait(timeout=30)
        log = server.stderr.read() if server.stderr else ""
    # uvicorn shuts down gracefully, then re-raises the signal it caught (exit by SIGTERM)
    assert rc in (0, -signal.SIGTERM), log
    assert "Finished server process" in log
