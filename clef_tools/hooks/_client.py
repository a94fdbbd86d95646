"""`clef-tools hook HOST` (claude-code, gemini-cli, cursor): the process a host starts for
every hook event.

It must start fast and never let a call through on its own: it imports only the stdlib,
hands the event to the resident daemon, prints the daemon's answer, and when there is no
answer (no daemon yet, a dead one, a timeout, an unreadable event) answers `ask` with the
reason — starting the daemon in the background so the next event finds it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clef_tools.hooks._claude_code import (
    DECISION_EVENT,
    MAX_EVENT_BYTES,
    permission_output,
)
from clef_tools.hooks._hosts import host
from clef_tools.hooks._paths import default_socket, private_dir
from clef_tools.hooks._wire import ask_daemon

__all__ = ["add_daemon_options", "daemon_argv", "run_client"]


def add_daemon_options(parser: argparse.ArgumentParser) -> None:
    """What the daemon is started with (the hook client passes them on)."""
    parser.add_argument(
        "--socket",
        type=Path,
        default=None,
        help="the daemon's Unix socket (default: $CLEF_TOOLS_HOOK_SOCKET, else "
        "$XDG_RUNTIME_DIR/clef-tools/hook.sock)",
    )
    parser.add_argument("--model", default="embedded", help="backend spec (default: embedded)")
    parser.add_argument("--dtype", default=None, help="auto (default), bf16 or fp32")
    parser.add_argument(
        "--audit",
        default=None,
        help="SQLite audit log of every verdict (default: ~/.local/state/clef-tools/"
        "audit.sqlite; 'none': no log)",
    )
    parser.add_argument(
        "--reviews",
        default=None,
        help="JSONL review store the approvals teach (default: ~/.local/state/clef-tools/"
        "reviews.jsonl; 'none': in memory)",
    )
    parser.add_argument(
        "--headless",
        choices=["ask", "deny"],
        default="ask",
        help="what an escalation becomes: ask the person (default) or deny (nobody there)",
    )
    parser.add_argument(
        "--idle",
        type=float,
        default=1800.0,
        help="the daemon stops after this many seconds without an event (default 1800)",
    )


def daemon_argv(args: argparse.Namespace, socket_path: Path) -> list[str]:
    argv = [sys.executable, "-m", "clef_tools.cli", "hook", "daemon", "--socket", str(socket_path)]
    argv += ["--model", args.model, "--headless", args.headless, "--idle", str(args.idle)]
    for flag, value in (
        ("--dtype", args.dtype),
        ("--audit", args.audit),
        ("--reviews", args.reviews),
    ):
        if value is not None:
            argv += [flag, value]
    return argv


def _parser(host: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"clef-tools hook {host}",
        description="Answer one hook event (JSON on stdin) with the gate's verdict.",
    )
    add_daemon_options(parser)
    parser.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        help="seconds to wait for a verdict before answering ask (default 30)",
    )
    parser.add_argument(
        "--start-wait",
        type=float,
        default=0.0,
        help="when no daemon runs, seconds to wait for the one it starts (default 0: ask)",
    )
    parser.add_argument(
        "--no-start", action="store_true", help="never start a daemon (answer ask instead)"
    )
    return parser


def run_client(host_name: str, argv: Sequence[str]) -> int:
    args = _parser(host_name).parse_args(list(argv))
    dialect = host(host_name)
    raw = sys.stdin.buffer.read(MAX_EVENT_BYTES + 1)
    event: dict[str, Any] = {"hook_event_name": DECISION_EVENT}
    output: dict[str, Any] | None
    if len(raw) > MAX_EVENT_BYTES:
        output = permission_output("ask", f"clef-tools gate: event over {MAX_EVENT_BYTES} bytes")
    else:
        try:
            given = json.loads(raw)
            # an event that is not an object is judged by the engine: it says which field
            event = dialect.to_canonical(given) if isinstance(given, dict) else given
        except ValueError as exc:
            output = permission_output("ask", f"clef-tools gate could not read the event: {exc}")
        else:
            output = _answer(args, event, host_name)
    shown = dialect.answer(output, event if isinstance(event, dict) else {})
    if shown is not None:
        sys.stdout.write(json.dumps(shown, ensure_ascii=False) + "\n")
    return 0  # exit 0: the host reads the JSON; the verdict is in it


def _answer(args: argparse.Namespace, event: Any, host_name: str) -> dict[str, Any] | None:
    deciding = not isinstance(event, dict) or event.get("hook_event_name") == DECISION_EVENT
    socket_path = args.socket or default_socket()
    message = {"event": event, "surface": host_name}
    try:
        answer = ask_daemon(socket_path, message, args.timeout)
    except TimeoutError:
        return _unanswered(deciding, f"no verdict within {args.timeout:g}s")
    except OSError as exc:
        if args.no_start:
            return _unanswered(deciding, f"the gate daemon is not running ({exc.strerror or exc})")
        _start_daemon(args, socket_path)
        started = _wait_for_daemon(args, socket_path, message)
        if started is None:
            return _unanswered(
                deciding, "the gate daemon was not running; it is starting for the next call"
            )
        answer = started
    except ValueError as exc:
        return _unanswered(deciding, f"unreadable answer from the gate daemon ({exc})")
    if "error" in answer:
        return _unanswered(deciding, str(answer["error"]))
    output = answer.get("output")
    return output if isinstance(output, dict) else None


def _unanswered(deciding: bool, why: str) -> dict[str, Any] | None:
    return permission_output("ask", f"clef-tools gate: {why}") if deciding else None


def _start_daemon(args: argparse.Namespace, socket_path: Path) -> None:
    folder = private_dir(socket_path.parent)
    with open(folder / "hook-daemon.log", "ab") as log:
        subprocess.Popen(
            daemon_argv(args, socket_path),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
            close_fds=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )


def _wait_for_daemon(
    args: argparse.Namespace, socket_path: Path, message: dict[str, Any]
) -> dict[str, Any] | None:
    deadline = time.monotonic() + args.start_wait
    while time.monotonic() < deadline:
        try:
            return ask_daemon(socket_path, message, args.timeout)
        except OSError:
            time.sleep(0.1)
    return None
