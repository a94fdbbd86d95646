"""The audit log: a real SQLite file, many writer processes, restarts, no secrets."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from clef_tools.audit import MASK, AuditLog, masked

DECISION = {
    "verdict": "escalate",
    "risk": 0.42,
    "tier": "fast",
    "reason": "a send the user did not ask for",
    "effect": {"effects": [{"kind": "send"}]},
    "licence": {"kinds": ["read"]},
    "stakes": "send not asked for",
}

_WRITER = """
import sys
from clef_tools.audit import AuditLog
log = AuditLog(sys.argv[1])
for i in range(int(sys.argv[3])):
    log.record(surface="w" + sys.argv[2], tool="send_email", args={"n": i},
               decision={"verdict": "allow", "reason": "ok"}, call_id=f"{sys.argv[2]}-{i}")
log.close()
"""


def test_eight_writer_processes_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "audit.sqlite"
    AuditLog(path).close()
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(path), str(w), "60"]) for w in range(8)
    ]
    assert [w.wait(timeout=300) for w in writers] == [0] * 8
    with AuditLog(path) as log:
        rows = list(log.rows())
    assert len(rows) == 8 * 60
    assert len({r.call_id for r in rows}) == 8 * 60
    assert {r.surface for r in rows} == {f"w{w}" for w in range(8)}


def test_rows_survive_a_restart_and_take_the_reviewers_answer(tmp_path: Path) -> None:
    path = tmp_path / "audit.sqlite"
    with AuditLog(path) as log:
        row = log.record(
            surface="claude-code", tool="Bash", args={"command": "ls"}, decision=DECISION,
            answered="ask", session="s", call_id="toolu_1",
        )  # fmt: skip
    with AuditLog(path) as log:  # a new process would open it the same way
        assert log.review("approve", call_id="toolu_1") == 1
        (found,) = list(log.rows())
    assert found.id == row and found.answered == "ask" and found.verdict == "escalate"
    assert found.reviewer == "approve" and found.reviewed_at is not None
    assert found.effect == DECISION["effect"] and found.risk == 0.42


def test_secrets_never_reach_the_file(tmp_path: Path) -> None:
    path = tmp_path / "audit.sqlite"
    key = "sk-live-9f8e7d6c5b4a39281706"
    args = {
        "password": "hunter2-correct-horse",
        "command": f"curl -H 'Authorization: Bearer {key}' https://bob:pa55word@api.example.com",
        "env": {"GITHUB_TOKEN": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"},
        "note": "ordinary text stays",
        "stripe": "sk_live_51HxYzAbCdEf0123456789",
        "sql": "ALTER ROLE bob WITH PASSWORD 'tr0ub4dor-3'; CREATE USER u IDENTIFIED BY 'zx-81'",
    }
    with AuditLog(path) as log:
        log.record(surface="mcp-proxy", tool="run", args=args, decision=DECISION)
        (row,) = list(log.rows())
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    for secret in (
        "hunter2-correct-horse",
        key,
        "pa55word",
        "ghp_abcdefghijklmnop",
        "tr0ub4dor",
        "zx-81",
        "sk_live_51HxYzAbCdEf0123456789",
    ):
        assert secret.encode() not in raw, secret
    preview = json.loads(row.args_preview)
    assert preview["password"] == MASK and preview["env"]["GITHUB_TOKEN"] == MASK
    assert preview["note"] == "ordinary text stays"
    assert "https://bob:***@api.example.com" in preview["command"]
    assert masked({"pin": "", "count": 3}) == {"pin": "", "count": 3}


def test_the_log_is_bounded_by_rows_and_by_age(tmp_path: Path) -> None:
    path = tmp_path / "audit.sqlite"
    with AuditLog(path, max_rows=10, max_age_days=None) as log:
        for i in range(25):
            log.record(surface="t", tool="x", args={"i": i}, decision=DECISION)
        log.prune()
        kept = [json.loads(r.args_preview)["i"] for r in log.rows()]
    assert kept == list(range(15, 25))
    with AuditLog(path, max_age_days=1e-9) as log:  # opening prunes what is too old
        time.sleep(0.01)
        log.prune()
        assert list(log.rows()) == []


def test_clef_tools_audit_lists_and_filters(tmp_path: Path) -> None:
    path = tmp_path / "audit.sqlite"
    with AuditLog(path) as log:
        log.record(surface="serve", tool="delete_repo", args={"name": "x"}, decision=DECISION)
    cli = [sys.executable, "-m", "clef_tools.cli", "audit", str(path)]
    text = subprocess.run(cli, capture_output=True, text=True, timeout=60, check=True).stdout
    assert "delete_repo" in text and "escalate" in text
    recent = subprocess.run(
        [*cli, "--since", "1h", "--json"], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    assert json.loads(recent)["tool"] == "delete_repo"
    future = subprocess.run(
        [*cli, "--since", "2999-01-01T00:00"], capture_output=True, text=True, timeout=60
    )
    assert future.returncode == 0 and future.stdout == ""
    bad = subprocess.run([*cli, "--since", "yesterday"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--since" in bad.stderr and "Traceback" not in bad.stderr
    missing = subprocess.run(
        [sys.executable, "-m", "clef_tools.cli", "audit", str(tmp_path / "no.sqlite")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert missing.returncode == 2 and "does not exist" in missing.stderr
