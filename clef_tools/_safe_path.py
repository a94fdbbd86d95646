"""Run as `python -m clef_tools...` or `python -m clef_mcp`, Python puts the working
directory first on `sys.path`, so an `anyio.py` or `typing.py` lying there would be
imported in place of the real module, and run. clef-tools never imports code from the
working directory, so while its package is being located for `-m` (when `sys.argv[0]` is
`"-m"`), that entry is dropped before anything else is imported. Imports only what the
interpreter has loaded before any user code (`sys`, `os`)."""

import os
import sys


def drop_working_directory() -> None:
    if sys.argv[:1] == ["-m"] and not sys.flags.safe_path:
        here = os.getcwd()
        sys.path[:] = [p for p in sys.path if p not in ("", ".", here)]


drop_working_directory()
