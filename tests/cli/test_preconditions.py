"""Commands check what they need before the work: a missing extra or too little data is
said in one line, before any model loads or any item is scored."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from _paths import ROOT

#: Hides matplotlib from the child process, the way an install without the [eval] extra is.
_NO_MATPLOTLIB = """
import sys
sys.modules["matplotlib"] = None  # `import matplotlib` now raises ImportError
from clef_tools.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


def _items(path: Path, n: int) -> Path:
    rows = [
        {"id": f"i{i}", "state": f"message {i}", "gold": {"q": "yes" if i % 2 else "no"},
         "questions": {"q": {"type": "noul", "instructions": "Is it odd?"}}}
        for i in range(n)
    ]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_eval_without_matplotlib_fails_in_one_line_before_scoring(tmp_path: Path) -> None:
    data = _items(tmp_path / "set.jsonl", 30)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", _NO_MATPLOTLIB, "eval", str(data), "--model", "smollm2",
         "--out", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={**os.environ, "CLEF_TOOLS_CACHE": str(tmp_path / "no-cache")},
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert "pip install 'clef-tools[eval]'" in lines[0] and "--no-plots" in lines[0]
    # nothing was scored and no model was loaded (an empty cache would have been filled)
    assert not (tmp_path / "out").exists() and not (tmp_path / "no-cache").exists()
    assert time.monotonic() - started < 60


def test_calibrate_counts_its_labels_before_running_the_model(tmp_path: Path) -> None:
    data = _items(tmp_path / "few.jsonl", 7)
    done = subprocess.run(
        [sys.executable, "-m", "clef_tools.cli", "calibrate", str(data), "--model", "smollm2",
         "--out", str(tmp_path / "cal.json")],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "CLEF_TOOLS_CACHE": str(tmp_path / "no-cache")},
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "at least 20 labelled questions" in done.stderr and "7 noul" in done.stderr
    assert not (tmp_path / "no-cache").exists() and not (tmp_path / "cal.json").exists()


def test_calibrate_on_a_calibrated_run_says_how_to_get_raw_predictions(tmp_path: Path) -> None:
    predictions = tmp_path / "run.predictions.jsonl"
    predictions.write_text("")
    (tmp_path / "run.json").write_text(json.dumps({"backend": {"calibration": "embedded"}}))
    done = subprocess.run(
        [sys.executable, "-m", "clef_tools.cli", "calibrate", "--predictions", str(predictions),
         "--out", str(tmp_path / "cal.json")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--calibration none" in done.stderr
