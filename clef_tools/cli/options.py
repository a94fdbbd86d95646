"""The options every `clef-tools` command shares, and how they become a backend: one place,
imported by each command and by the surfaces that add commands (`clef-tools mcp`).

Errors print one line on stderr and exit non-zero (2 bad request, 3 model unavailable,
1 backend failure); stdout carries only the answer.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from clef_tools.backends import spec_forms

__all__ = [
    "DEFAULT_API_KEY_ENV",
    "EXIT_BACKEND",
    "EXIT_BAD_REQUEST",
    "EXIT_MODEL_UNAVAILABLE",
    "api_key_from_args",
    "fail",
    "http_args",
    "load_from_args",
    "model_args",
]

EXIT_BAD_REQUEST = 2
EXIT_MODEL_UNAVAILABLE = 3
EXIT_BACKEND = 1


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


def load_from_args(args: argparse.Namespace, **options: Any) -> Any:
    """The backend the `model_args` options name."""
    from clef_tools.backends._factory import load_decider

    options.setdefault("calibration", args.calibration)
    if getattr(args, "examples", None) and "examples" not in options:
        from clef_tools.backends.embedding import ExampleIndex

        # read (and check) the index before the model: a bad file fails in milliseconds
        options["examples"] = ExampleIndex.load(args.examples)
    return load_decider(
        args.model,
        dtype=args.dtype,
        progress=not args.quiet,
        trust_release_code=args.trust_release_code,
        **options,
    )


def fail(message: str, code: int) -> int:
    from clef_tools.protocol._validation import printable

    # one line, whatever the request held (a question id with a line break, say)
    print(f"clef-tools: error: {printable(message)}", file=sys.stderr)
    return code
