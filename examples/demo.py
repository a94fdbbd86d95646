"""The main demo: route support messages and judge proposed tool calls on the embedded model.

The same as `clef-tools demo` (its code is `clef_tools/cli/_demo.py`, so that it ships in the
wheel); run it with `scripts/demo`, `clef-tools demo` or `.venv/bin/python examples/demo.py`.
"""

from __future__ import annotations

import sys

from clef_tools.cli._demo import run_demo

if __name__ == "__main__":
    raise SystemExit(run_demo(sys.argv[1] if len(sys.argv) > 1 else None))
