"""`clef-tools mcp` (and `python -m clef_mcp`): the MCP surface's own entry point.

Registered with the core CLI through the `clef_tools.commands` entry point, so the core
never imports this package; this module imports the core's shared options instead.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

from clef_tools.cli.options import api_key_from_args, http_args, load_from_args, model_args

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the `mcp` command to the `clef-tools` parser."""
    parser = subparsers.add_parser("mcp", help="run the MCP server (stdio by default)")
    model_args(parser)
    parser.add_argument(
        "--http", action="store_true", help="serve streamable HTTP instead of stdio"
    )
    http_args(parser, 8765)
    parser.add_argument(
        "--reviews",
        default=None,
        help="a JSONL file where the user's answers on escalated calls are kept "
        "(with --human-reviews)",
    )
    parser.add_argument(
        "--human-reviews",
        action="store_true",
        help="offer record_review: it asks the user (MCP elicitation) about a call the "
        "gate escalated and teaches the gate their answer; off by default, since the "
        "caller is the agent being gated",
    )
    parser.add_argument(
        "--trusted-caller",
        action="store_true",
        help="let the caller's context and annotations lower a call's risk (default: "
        "they can only raise it; the caller is the agent being gated)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        help="deadline in seconds for decide and route: a tool error after, and the work "
        "stops (default 120; 0 = none)",
    )
    parser.add_argument(
        "--audit",
        default=None,
        metavar="PATH",
        help="SQLite audit log of every gate_tool_call verdict (default: none)",
    )
    parser.add_argument(
        "--max-sessions",
        type=int,
        default=256,
        help="open streamable-HTTP sessions at most (default 256; idle ones close after "
        "5 minutes, and one client may open 20 a minute)",
    )
    parser.set_defaults(handler=run)


def register_proxy(subparsers: Any) -> None:
    """Add the `mcp-proxy` command: an MCP server that gates another one's tool calls."""
    parser = subparsers.add_parser(
        "mcp-proxy",
        help="gate every tool call to an MCP server: clef-tools mcp-proxy -- CMD ARGS…",
    )
    model_args(parser)
    parser.add_argument(
        "--url", default=None, help="a streamable-HTTP upstream instead of a command"
    )
    parser.add_argument(
        "--audit", default=None, metavar="PATH", help="SQLite audit log of every verdict"
    )
    parser.add_argument(
        "--reviews", default=None, help="JSONL file where the person's approvals are kept"
    )
    parser.add_argument(
        "--ask-timeout",
        type=float,
        default=300.0,
        help="seconds the person has to answer an escalation; then it is denied (default 300)",
    )
    parser.add_argument(
        "upstream", nargs=argparse.REMAINDER, help="-- the upstream server's command line"
    )
    parser.set_defaults(handler=run_proxy)


def run_proxy(args: argparse.Namespace) -> int:
    import anyio
    from mcp import Client, StdioServerParameters

    from clef_mcp._proxy import build_proxy
    from clef_mcp._stdio import run_stdio
    from clef_tools import ConfigError, ReviewStore, ToolGate
    from clef_tools.audit import AuditLog

    command = list(args.upstream)
    if command[:1] == ["--"]:
        command = command[1:]
    if bool(command) == bool(args.url):
        raise ConfigError("mcp-proxy: give the server's command after `--`, or --url, not both")
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s: %(message)s")
    audit = AuditLog(args.audit) if args.audit else None

    def upstream() -> Client:
        if args.url:
            return Client(args.url)
        return Client(StdioServerParameters(command=command[0], args=command[1:]))

    def load_gate() -> ToolGate:
        return ToolGate(load_from_args(args), reviews=ReviewStore(args.reviews))

    server = build_proxy(upstream, load_gate, audit=audit, ask_timeout_s=args.ask_timeout)
    anyio.run(run_stdio, server)
    return 0


def run(args: argparse.Namespace) -> int:
    import anyio

    from clef_mcp._stdio import run_stdio
    from clef_mcp.server import SessionLimits, build_server, http_app
    from clef_tools import AccessPolicy, run_app, warn_if_exposed
    from clef_tools.audit import AuditLog

    api_key = api_key_from_args(args) if args.http else None
    # stdout is the protocol on stdio: everything else goes to stderr
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s: %(message)s")
    server = build_server(
        lambda: load_from_args(args),
        model=args.model,
        reviews=args.reviews,
        human_reviews=args.human_reviews,
        trusted_caller=args.trusted_caller,
        request_timeout_s=args.timeout or None,
        audit=AuditLog(args.audit) if args.audit else None,
    )
    if not args.http:
        anyio.run(run_stdio, server)
        return 0
    warn_if_exposed(logging.getLogger("clef_mcp"), args.host, api_key, args.allowed_host)
    access = AccessPolicy.for_bind(
        args.host, api_key=api_key, extra_hosts=args.allowed_host, extra_origins=args.allowed_origin
    )
    sessions = SessionLimits(max_sessions=args.max_sessions)
    run_app(http_app(server, access, sessions=sessions), host=args.host, port=args.port)
    return 0
