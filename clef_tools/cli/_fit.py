"""`clef-tools fit DATA --out INDEX`: build or extend an example index from labelled rows."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["register"]


def register(sub: Any) -> None:
    fit = sub.add_parser(
        "fit", help="build an example index from labelled text (CSV text,label or JSONL)"
    )
    fit.set_defaults(handler=_fit)
    fit.add_argument("data", type=Path, help="CSV with text,label columns, or JSONL")
    fit.add_argument("--out", type=Path, required=True, help="the index file to write")
    fit.add_argument("--add", action="store_true", help="add to the index at --out")
    fit.add_argument(
        "--question", default=None, metavar="ID", help="serve only the question with this id"
    )
    fit.add_argument(
        "--per-label", type=int, default=None, metavar="N", help="at most N examples per label"
    )
    fit.add_argument("--seed", type=int, default=0, help="seed for --per-label sampling")
    fit.add_argument(
        "--encoder",
        default=None,
        metavar="DIR",
        help="a sentence-embedding model folder (default: the bundled all-MiniLM-L6-v2)",
    )
    fit.add_argument("--quiet", action="store_true", help="no progress bar")


def _fit(args: argparse.Namespace) -> int:
    from clef_tools.backends.embedding import (
        ExampleIndex,
        build_index,
        read_examples,
        sample_per_label,
    )
    from clef_tools.backends.embedding._encoder import open_encoder

    examples = read_examples(args.data, question=args.question)
    if args.per_label is not None:
        examples = sample_per_label(examples, args.per_label, args.seed)
    into = ExampleIndex.load(args.out) if args.add else None
    # adding to an index built with another encoder: reopen that one unless told otherwise
    hint = into.encoder_folder() if into is not None else None
    encoder = open_encoder(args.encoder or hint)
    start = time.monotonic()
    from clef_tools._progress import Progress

    bar = Progress(not args.quiet).bar(len(examples), "embedding examples", unit="ex")
    try:
        index = build_index(examples, encoder=encoder, into=into, progress=bar.update)
    finally:
        bar.close()
    index.save(args.out)
    summary = index.describe()
    summary["labels"] = len(summary["labels"])
    summary |= {
        "added": len(examples),
        "seconds": round(time.monotonic() - start, 1),
        "bytes": args.out.stat().st_size,
    }
    json.dump(summary, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0
