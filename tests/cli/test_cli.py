"""`clef-tools` as a user runs it: a real subprocess, JSON on stdin, wire JSON on stdout."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clef_tools import ReadoutDecider, load_decider

REQUEST: dict[str, Any] = {
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


@pytest.mark.slow
def test_serve_answers_decide_over_http_and_stops_on_sigterm(
    tmp_path: Path, smollm2: ReadoutDecider
) -> None:
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
            "--dtype",
            "fp32",
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
        # the same numbers as the Python API gives for the same request
        direct = load_decider("smollm2", dtype="fp32").decide(
            REQUEST["state"], REQUEST["questions"]
        )
        assert body["answers"]["refund"]["noul"] == pytest.approx(
            direct.nouls["refund"].noul, abs=1e-4
        )
        assert body["answers"]["team"]["probabilities"] == pytest.approx(
            direct.choices["team"].probabilities, abs=1e-4
        )
        assert body["answers"]["mood"]["score"] == pytest.approx(
            direct.scores["mood"].score, abs=1e-4
        )
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
        if server.stderr is not None:
            server.stderr.close()
    # uvicorn shuts down gracefully, then re-raises the signal it caught (exit by SIGTERM)
    assert rc in (0, -signal.SIGTERM), log
    assert "Finished server process" in log


def _cold_start(
    cache: Path, *flags: str
) -> tuple[subprocess.CompletedProcess[str], list[tuple[float, str]]]:
    """`decide` on SmolLM2 with an empty model cache (conversion included), with each
    stderr line (bars' carriage returns count as lines) and when it appeared."""
    import os
    import threading
    import time

    env = {**os.environ, "CLEF_TOOLS_CACHE": str(cache)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "clef_tools.cli", "decide", "--model", "smollm2", *flags],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    lines: list[tuple[float, str]] = []
    start = time.monotonic()

    def read_stderr() -> None:
        assert proc.stderr is not None
        buf = b""
        while chunk := proc.stderr.read(1):
            if chunk in b"\r\n":
                if buf.strip():
                    lines.append((time.monotonic() - start, buf.decode(errors="replace")))
                buf = b""
            else:
                buf += chunk

    reader = threading.Thread(target=read_stderr)
    reader.start()
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(REQUEST).encode())
    proc.stdin.close()
    out = proc.stdout.read()  # stderr is the reader thread's alone
    proc.wait(timeout=300)
    reader.join()
    proc.stdout.close()
    assert proc.stderr is not None
    proc.stderr.close()
    done = subprocess.CompletedProcess(proc.args, proc.returncode, out.decode(), "")
    return done, lines


@pytest.mark.slow
def test_a_cold_start_is_never_silent_and_quiet_is_silent(tmp_path: Path) -> None:
    """Progress goes through one channel: without `--quiet`, a cold start (convert, load)
    never leaves stderr silent for long; with it, stderr stays empty, transformers' own
    bars included."""
    done, lines = _cold_start(tmp_path / "loud")
    assert done.returncode == 0
    text = "\n".join(line for _, line in lines)
    for step in ("converting", "reading the tokenizer", "de-quantising", "loading", "model ready"):
        assert step in text, text
    stamps = [0.0] + [t for t, _ in lines]
    assert max(b - a for a, b in itertools.pairwise(stamps)) < 10.0, lines
    quiet, quiet_lines = _cold_start(tmp_path / "quiet", "--quiet")
    assert quiet.returncode == 0 and json.loads(quiet.stdout)["answers"]
    assert quiet_lines == []
