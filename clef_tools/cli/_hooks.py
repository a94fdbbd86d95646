"""`clef-tools hook …` (the gate in agent hosts) and `clef-tools audit` (what it decided)."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

from clef_tools.hooks._client import add_daemon_options, run_client

__all__ = ["register"]


def register(sub: Any) -> None:
    hook = sub.add_parser("hook", help="gate a coding agent's tool calls through its hooks")
    hooks = hook.add_subparsers(dest="hook_command", required=True)

    for name, title in (("claude-code", "Claude Code"), ("gemini-cli", "Gemini CLI"),
                        ("cursor", "Cursor"), ("codex", "Codex CLI")):  # fmt: skip
        client = hooks.add_parser(
            name,
            help=f"answer one {title} hook event (JSON on stdin); see docs/hooks.md",
            add_help=False,
        )
        client.add_argument("given", nargs=argparse.REMAINDER)
        client.set_defaults(handler=lambda args, host=name: run_client(host, args.given))

    daemon = hooks.add_parser("daemon", help="the resident gate the hook client talks to")
    add_daemon_options(daemon)
    daemon.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    daemon.set_defaults(handler=_daemon)

    install = hooks.add_parser(
        "install", help="write the hook entries into a host's settings (idempotent)"
    )
    install.add_argument("host", choices=["claude-code", "gemini-cli", "cursor", "codex"])
    install.add_argument(
        "--scope",
        choices=["user", "project", "local"],
        default="user",
        help="user (default): the host's settings in your home folder; project: in this "
        "folder (.claude/, .gemini/, .cursor/); local: .claude/settings.local.json",
    )
    install.add_argument("--settings", type=Path, default=None, help="this settings file instead")
    install.add_argument("--uninstall", action="store_true", help="remove the gate's entries")
    install.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="FLAG",
        help="an option for the hook command (repeatable), e.g. --option=--headless=deny",
    )
    install.set_defaults(handler=_install)

    audit = sub.add_parser("audit", help="list the gate's verdicts from an audit database")
    audit.add_argument("path", type=Path, help="the SQLite audit file (--audit of serve, mcp, …)")
    audit.add_argument(
        "--since",
        default=None,
        help="only verdicts after this: an ISO time (2026-12-01T10:00) or an age (30m, 2h, 7d)",
    )
    audit.add_argument("--limit", type=int, default=None, help="the newest N verdicts")
    audit.add_argument("--json", action="store_true", help="one JSON object per line")
    audit.set_defaults(handler=_audit)


def _daemon(args: argparse.Namespace) -> int:
    from clef_tools.hooks._daemon import run_daemon
    from clef_tools.hooks._paths import default_socket

    socket_path = args.socket or default_socket()
    return run_daemon(socket_path, lambda: build_engine(args), idle_s=args.idle)


def build_engine(
    args: argparse.Namespace, decider: Any = None, *, surface: str = "claude-code"
) -> Any:
    """The hook engine the options name (`decider`: one already loaded, e.g. by serve)."""
    from clef_tools.audit import AuditLog
    from clef_tools.backends._factory import load_decider
    from clef_tools.gate import ReviewStore, ToolGate
    from clef_tools.hooks._engine import HookEngine
    from clef_tools.hooks._paths import private_dir, state_dir

    audit_path = _state_file(args.audit, "audit.sqlite")
    reviews_path = _state_file(args.reviews, "reviews.jsonl")
    if args.audit is None or args.reviews is None:
        private_dir(state_dir())  # the defaults live there: the user's own folder
    if decider is None:
        decider = load_decider(args.model, dtype=args.dtype, progress=not args.quiet)
    reviews = ReviewStore(reviews_path) if reviews_path is not None else ReviewStore()
    gate = ToolGate(decider, reviews=reviews)
    audit = AuditLog(audit_path) if audit_path is not None else None
    return HookEngine(gate, audit=audit, headless=args.headless, surface=surface)


def _state_file(given: str | None, default: str) -> Path | None:
    from clef_tools.hooks._paths import state_dir

    if given is None:
        return state_dir() / default
    return None if given.lower() == "none" else Path(given).expanduser()


def _install(args: argparse.Namespace) -> int:
    from clef_tools.hooks._install import hook_command, install_hooks, settings_path

    path = args.settings or settings_path(args.host, args.scope)
    report = install_hooks(
        path,
        host_name=args.host,
        command=hook_command(args.host, args.option),
        uninstall=args.uninstall,
    )
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def _since(text: str | None) -> float | None:
    if text is None:
        return None
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    if text[-1:] in units and text[:-1].replace(".", "", 1).isdigit():
        return dt.datetime.now(dt.UTC).timestamp() - float(text[:-1]) * units[text[-1]]
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError as exc:
        raise ValueError(f"--since: {text!r} is neither an ISO time nor an age like 2h") from exc
    if when.tzinfo is None:
        when = when.astimezone()  # a local time, as the user reads their clock
    return when.timestamp()


def _audit(args: argparse.Namespace) -> int:
    from clef_tools.audit import AuditLog
    from clef_tools.protocol._errors import ConfigError

    if not args.path.is_file():
        raise ConfigError(f"audit: {args.path} does not exist")
    with AuditLog(args.path, max_age_days=None, max_rows=None) as log:
        rows = list(log.rows(since=_since(args.since), limit=args.limit))
    for row in rows:
        if args.json:
            sys.stdout.write(json.dumps(row.as_dict(), ensure_ascii=False) + "\n")
            continue
        when = dt.datetime.fromtimestamp(row.at).isoformat(timespec="seconds")
        risk = "-" if row.risk is None else f"{row.risk:.2f}"
        answer = f" → {row.reviewer}" if row.reviewer else ""
        sys.stdout.write(
            f"{when}  {row.surface:12s} {row.answered:8s} {risk:>5s}  {row.tool}  "
            f"{row.args_preview[:80]}  ({row.reason[:100]}){answer}\n"
        )
    return 0
