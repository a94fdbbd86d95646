"""A first load from Python says what it is doing on a terminal, and nothing in a pipe."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

_LOAD = "from clef_tools import load_decider; load_decider('smollm2', dtype='fp32')"


def test_load_decider_reports_progress_on_a_terminal_only() -> None:
    piped = subprocess.run([sys.executable, "-c", _LOAD], capture_output=True, text=True,
                           timeout=300)  # fmt: skip
    assert piped.returncode == 0, piped.stderr
    assert "clef-tools:" not in piped.stderr

    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-c", _LOAD], stderr=follower, stdout=follower)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert proc.wait(timeout=300) == 0
    assert b"clef-tools: loading smollm2" in seen and b"model ready" in seen, seen[-500:]
