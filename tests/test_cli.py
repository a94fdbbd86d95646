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
