"""The audit log: one row per verdict, in an embedded SQLite database.

SQLite because the gate runs beside one agent host on one machine far more often than
behind a fleet: a file, no server, safe across processes (WAL, a busy timeout, and one
short transaction per row), readable with any SQLite tool. Rows hold what a reviewer needs
to see why a call went through or not, and never a secret (`_masking`).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clef_tools.audit._masking import args_digest, masked, preview
from clef_tools.protocol._errors import ConfigError

__all__ = ["AuditLog", "AuditRow"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS verdicts (
    id TEXT PRIMARY KEY,
    at REAL NOT NULL,
    surface TEXT NOT NULL,
    session TEXT,
    call_id TEXT,
    tool TEXT NOT NULL,
    args_digest TEXT NOT NULL,
    args_preview TEXT NOT NULL,
    verdict TEXT NOT NULL,
    answered TEXT NOT NULL,
    risk REAL,
    tier TEXT,
    reason TEXT NOT NULL,
    effect TEXT,
    licence TEXT,
    stakes TEXT,
    reviewer TEXT,
    reviewed_at REAL
);
CREATE INDEX IF NOT EXISTS verdicts_at ON verdicts (at);
CREATE INDEX IF NOT EXISTS verdicts_call ON verdicts (call_id);
"""
_COLUMNS = (
    "id",
    "at",
    "surface",
    "session",
    "call_id",
    "tool",
    "args_digest",
    "args_preview",
    "verdict",
    "answered",
    "risk",
    "tier",
    "reason",
    "effect",
    "licence",
    "stakes",
    "reviewer",
    "reviewed_at",
)


@dataclass(frozen=True)
class AuditRow:
    """One verdict as it was given. `verdict` is the gate's (allow / escalate / deny);
    `answered` what the host was told (`ask` for a Claude Code escalation, `deny` for one
    under a headless policy); `reviewer` the person's answer, when one came."""

    id: str
    at: float
    surface: str
    session: str | None
    call_id: str | None
    tool: str
    args_digest: str
    args_preview: str
    verdict: str
    answered: str
    risk: float | None
    tier: str | None
    reason: str
    effect: dict[str, Any] | None
    licence: dict[str, Any] | None
    stakes: str | None
    reviewer: str | None
    reviewed_at: float | None

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _COLUMNS}


class AuditLog:
    """Append-only verdict log in a SQLite file, shared safely by many processes.

    `max_age_days` and `max_rows` bound it: older rows and the oldest beyond the count are
    dropped as rows are added (checked every `_PRUNE_EVERY` writes, and on open)."""

    _PRUNE_EVERY = 200

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        max_age_days: float | None = 90.0,
        max_rows: int | None = 1_000_000,
        preview_chars: int = 512,
    ) -> None:
        self.path = Path(path).expanduser()
        if self.path.is_dir():
            raise ConfigError(f"--audit: {self.path} is a folder; name a database file")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.max_age_days = max_age_days
        self.max_rows = max_rows
        self.preview_chars = preview_chars
        self._lock = threading.Lock()
        self._writes = 0
        try:
            self._db = sqlite3.connect(self.path, timeout=30.0, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            self._db.commit()
        except sqlite3.DatabaseError as exc:
            raise ConfigError(f"--audit: {self.path} is not an audit database ({exc})") from exc
        with contextlib.suppress(OSError):  # verdicts describe what the user works on
            os.chmod(self.path, 0o600)
        self.prune()

    def record(
        self,
        *,
        surface: str,
        tool: str,
        args: Any,
        decision: Mapping[str, Any],
        answered: str | None = None,
        session: str | None = None,
        call_id: str | None = None,
    ) -> str:
        """Keep one verdict (`decision`: a `GateDecision.as_dict()`); returns the row's id."""
        row_id = uuid.uuid4().hex
        verdict = str(decision.get("verdict", "unknown"))
        values = (
            row_id,
            time.time(),
            surface,
            session,
            call_id,
            tool,
            args_digest(args),
            preview(args, self.preview_chars),
            verdict,
            answered or verdict,
            decision.get("risk"),
            decision.get("tier"),
            str(masked(decision.get("reason") or "")),
            _json_or_none(decision.get("effect")),
            _json_or_none(masked(decision.get("licence"))),
            decision.get("stakes"),
            None,
            None,
        )
        with self._lock:
            self._db.execute(
                f"INSERT INTO verdicts ({', '.join(_COLUMNS)}) VALUES "
                f"({', '.join('?' * len(_COLUMNS))})",
                values,
            )
            self._db.commit()
            self._writes += 1
            due = self._writes % self._PRUNE_EVERY == 0
        if due:
            self.prune()
        return row_id

    def review(self, answer: str, *, row_id: str | None = None, call_id: str | None = None) -> int:
        """Add the person's answer to the row (by its id, or the latest for a host's call
        id); returns how many rows it reached."""
        if row_id is None and call_id is None:
            return 0
        with self._lock:
            if row_id is not None:
                cur = self._db.execute(
                    "UPDATE verdicts SET reviewer = ?, reviewed_at = ? WHERE id = ?",
                    (answer, time.time(), row_id),
                )
            else:
                cur = self._db.execute(
                    "UPDATE verdicts SET reviewer = ?, reviewed_at = ? WHERE id = ("
                    "SELECT id FROM verdicts WHERE call_id = ? ORDER BY at DESC LIMIT 1)",
                    (answer, time.time(), call_id),
                )
            self._db.commit()
            return cur.rowcount

    def rows(self, *, since: float | None = None, limit: int | None = None) -> Iterator[AuditRow]:
        """Rows oldest first (`since`: a Unix time; `limit`: the newest that many)."""
        query = f"SELECT {', '.join(_COLUMNS)} FROM verdicts"
        params: list[Any] = []
        if since is not None:
            query += " WHERE at >= ?"
            params.append(since)
        query += " ORDER BY at DESC, rowid DESC"
        if limit is not None:
            query += " LIMIT ?"
            params.append(limit)
        with self._lock:
            found = self._db.execute(query, params).fetchall()
        for values in reversed(found):
            row = dict(zip(_COLUMNS, values, strict=True))
            row["effect"] = json.loads(row["effect"]) if row["effect"] else None
            row["licence"] = json.loads(row["licence"]) if row["licence"] else None
            yield AuditRow(**row)

    def prune(self) -> None:
        with self._lock:
            if self.max_age_days is not None:
                cutoff = time.time() - self.max_age_days * 86400
                self._db.execute("DELETE FROM verdicts WHERE at < ?", (cutoff,))
            if self.max_rows is not None:
                self._db.execute(
                    "DELETE FROM verdicts WHERE rowid <= (SELECT rowid FROM verdicts "
                    "ORDER BY rowid DESC LIMIT 1 OFFSET ?)",
                    (self.max_rows,),
                )
            self._db.commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> AuditLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _json_or_none(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False, default=str)
