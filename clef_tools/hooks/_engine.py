"""The resident side of the hooks: sessions, verdicts, approvals, the audit row.

One engine lives in the hook daemon (or in `clef-tools serve`) and keeps, per session, what
the user said and what tools returned, so that each `PreToolUse` is judged against the
request it serves and the results it may draw names from. It never raises: an event it
cannot judge is answered `ask`, with the reason.
"""

from __future__ import annotations

import concurrent.futures
import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from clef_tools._lru import BoundedLRU
from clef_tools.audit import AuditLog
from clef_tools.gate import GateDecision, ToolGate
from clef_tools.hooks._claude_code import (
    HOST,
    HookEventError,
    Permission,
    check_event,
    permission_output,
)
from clef_tools.hooks._project import project_relative, working_folder
from clef_tools.hooks._transcript import read_transcript, result_text

__all__ = ["Headless", "HookEngine"]

log = logging.getLogger("clef_tools.hooks")

Headless = Literal["ask", "deny"]
_MAX_MESSAGES = 120
#: What is kept of each text a recorded call carries (as much as of a result).
_KEPT_CHARS = 4000
_MAX_ASKED = 64


@dataclass
class _Asked:
    """An escalation the host put to the person: the answer comes with the next events."""

    name: str
    args: dict[str, Any]
    messages: list[dict[str, Any]]
    row_id: str | None
    at: float = field(default_factory=time.monotonic)


@dataclass
class _Session:
    messages: list[dict[str, Any]] = field(default_factory=list)
    asked: dict[str, _Asked] = field(default_factory=dict)
    recovered: bool = False
    """Whether the transcript was read (once: later events keep the session current)."""

    def add(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        del self.messages[:-_MAX_MESSAGES]


def _bounded(value: Any, depth: int = 0) -> Any:
    """A call's arguments as kept for later calls: texts cut to what a result keeps, at
    most 64 keys or items, 8 levels. A 2 MB `Write` kept whole would put every later call
    of the session over the gate's state limit (judged as unjudgeable)."""
    if isinstance(value, str):
        return value[:_KEPT_CHARS]
    if depth >= 8:
        return None
    if isinstance(value, Mapping):
        return {str(k)[:200]: _bounded(v, depth + 1) for k, v in list(value.items())[:64]}
    if isinstance(value, list | tuple):
        return [_bounded(v, depth + 1) for v in list(value)[:64]]
    return value if isinstance(value, int | float | bool) or value is None else str(value)[:200]


class HookEngine:
    """Answers one host's hook events with a `ToolGate`.

    `headless`: what an escalation becomes — `ask` (the host asks the person) or `deny`
    (nobody is there to ask: a CI run, `claude -p`). `ask_timeout_s`: how long an
    unanswered escalation waits to be learnt from; past it, it is dropped, never approved.
    """

    def __init__(
        self,
        gate: ToolGate,
        *,
        audit: AuditLog | None = None,
        headless: Headless = "ask",
        surface: str = HOST,
        max_sessions: int = 256,
        ask_timeout_s: float = 3600.0,
    ) -> None:
        self.gate = gate
        self.audit = audit
        self.headless = headless
        self.surface = surface
        self.ask_timeout_s = ask_timeout_s
        self._sessions: BoundedLRU[str, _Session] = BoundedLRU(max_sessions)
        self._lock = threading.Lock()
        self._ahead = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="clef-licence"
        )

    def handle(self, event: Any, *, surface: str | None = None) -> dict[str, Any] | None:
        """Claude Code's answer to `event` (None: nothing to say, exit 0 and no output);
        `surface`: the host it came from, as the audit log names it (other hosts' events
        come translated to Claude Code's, `_hosts`)."""
        try:
            checked = check_event(event)
        except HookEventError as exc:
            return permission_output("ask", f"clef-tools gate could not read the event: {exc}")
        name = checked["hook_event_name"]
        try:
            if name == "PreToolUse":
                return self._pre_tool_use(checked, surface or self.surface)
            if name == "UserPromptSubmit":
                self._prompt(checked)
            elif name == "PostToolUse":
                self._post_tool_use(checked)
            elif name == "PermissionDenied":
                self._denied(checked)
            elif name == "SessionEnd":
                with self._lock:
                    self._sessions.pop(_session_id(checked), None)
            return None
        except Exception as exc:  # never a crash in the host's loop; a call is never allowed
            log.exception("hook event %s failed", name)
            if name == "PreToolUse":
                return permission_output("ask", f"clef-tools gate failed: {type(exc).__name__}")
            return None

    def close(self) -> None:
        self._ahead.shutdown(wait=False, cancel_futures=True)

    # events

    def _session(self, event: Mapping[str, Any]) -> _Session:
        key = _session_id(event)
        with self._lock:
            if key in self._sessions:
                session = self._sessions[key]  # marked as just used
            else:
                session = _Session()
                self._sessions.put(key, session)
        if not session.recovered:
            session.recovered = True
            path = event.get("transcript_path")
            earlier = read_transcript(path) if isinstance(path, str) else None
            if earlier:
                with self._lock:
                    session.messages[:0] = earlier
                    del session.messages[:-_MAX_MESSAGES]
        return session

    def _prompt(self, event: Mapping[str, Any]) -> None:
        prompt = str(event.get("prompt") or "")
        session = self._session(event)
        if session.messages and session.messages[-1] == {"role": "user", "content": prompt}:
            return  # the transcript already held it
        with self._lock:
            session.add({"role": "user", "content": prompt})
            unanswered = list(session.asked)
            session.asked.clear()  # the person moved on: an unanswered ask teaches nothing
            messages = list(session.messages)
        for call_id in unanswered:
            if self.audit is not None:
                self.audit.review("unanswered", call_id=call_id)
        # the request's licence, worked out now so the turn's first call does not wait
        self._ahead.submit(self._licence_ahead, messages)

    def _licence_ahead(self, messages: list[dict[str, Any]]) -> None:
        """The licence of the user's current request: what the gate reads for this turn's
        calls (`licence_of` keeps it)."""
        from clef_tools.gate._licence import licence_of, request_of

        licence_of(request_of(messages))

    def _pre_tool_use(self, event: Mapping[str, Any], surface: str) -> dict[str, Any]:
        name = str(event["tool_name"])
        args = dict(event.get("tool_input") or {})
        call_id = event.get("tool_use_id")
        session = self._session(event)
        with self._lock:
            messages = list(session.messages)
        # judged as the user speaks of the files (`src/app.py`); recorded as the host sent it
        judged = project_relative(args, working_folder(event))
        decision = self.gate.judge(name, judged, messages=messages or None)
        permission = self._permission(decision)
        row_id = None
        if self.audit is not None:
            row_id = self.audit.record(
                surface=surface,
                tool=name,
                args=args,
                decision=decision.as_dict(),
                answered=permission,
                session=_session_id(event),
                call_id=call_id if isinstance(call_id, str) else None,
            )
        if permission == "ask" and isinstance(call_id, str):
            with self._lock:
                session.asked[call_id] = _Asked(name, args, messages, row_id)
                self._expire(session)
        return permission_output(permission, _reason(decision, permission))

    def _take_asked(self, session: _Session, event: Mapping[str, Any]) -> _Asked | None:
        """The escalation this event answers, if the host asked the person about its call."""
        call_id = event.get("tool_use_id")
        return session.asked.pop(call_id, None) if isinstance(call_id, str) else None

    def _post_tool_use(self, event: Mapping[str, Any]) -> None:
        session = self._session(event)
        # the call beside its result, so the gate can tell which call a result answers (a
        # file's text is the read of that file, an id is the result of that lookup)
        call_id = event.get("tool_use_id")
        call_id = call_id if isinstance(call_id, str) and call_id else f"post-{time.monotonic_ns()}"
        args = event.get("tool_input")
        call = {
            "id": call_id,
            "name": str(event.get("tool_name") or "")[:200],
            "args": _bounded(project_relative(dict(args), working_folder(event)))
            if isinstance(args, Mapping)
            else {},
        }
        with self._lock:
            asked = self._take_asked(session, event)
            session.add({"role": "assistant", "content": "", "tool_calls": [call]})
            session.add(
                {
                    "role": "tool",
                    "tool_call_id": call_id,
                    "content": result_text(event.get("tool_response")),
                }
            )
        if asked is None or event.get("permission_mode") == "bypassPermissions":
            return
        # the host asked the person and the call ran: the person approved it
        self._learn(asked, "approve")

    def _denied(self, event: Mapping[str, Any]) -> None:
        session = self._session(event)
        with self._lock:
            asked = self._take_asked(session, event)
        if asked is not None:
            self._learn(asked, "reject")

    def _learn(self, asked: _Asked, answer: str) -> None:
        if time.monotonic() - asked.at > self.ask_timeout_s:
            return
        self.gate.record_review(
            asked.name, asked.args, answer, messages=asked.messages or None, channel=self.surface
        )
        if self.audit is not None and asked.row_id is not None:
            self.audit.review(answer, row_id=asked.row_id)

    def _expire(self, session: _Session) -> None:
        now = time.monotonic()
        for key in [k for k, a in session.asked.items() if now - a.at > self.ask_timeout_s]:
            del session.asked[key]
        while len(session.asked) > _MAX_ASKED:
            del session.asked[next(iter(session.asked))]

    def _permission(self, decision: GateDecision) -> Permission:
        if decision.verdict == "allow":
            return "allow"
        if decision.verdict == "deny":
            return "deny"
        return "deny" if self.headless == "deny" else "ask"


def _session_id(event: Mapping[str, Any]) -> str:
    return str(event.get("session_id") or "")


def _reason(decision: GateDecision, permission: Permission) -> str:
    risk = "" if decision.risk is None else f", risk {decision.risk:.2f}"
    told = (
        "" if permission != "deny" or decision.verdict == "deny" else " (headless: no one to ask)"
    )
    return f"clef-tools gate: {decision.verdict}{told} — {decision.reason}{risk}"
