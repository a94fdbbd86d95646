"""The wheel installs distinctive import names and works outside the repository.

The wheel is pip-installed into a fresh venv with `--no-deps`; its dependencies are borrowed from the
running environment through a `.pth` path (no editable hook comes along, since `.pth` files
are only processed in real site directories), so the test proves the wheel's own contents.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        timeout=300,
    )
    (found,) = out.glob("clef_tools-*.whl")
    return found


def test_wheel_ships_distinctive_top_level_names(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))}
    assert tops == {"clef_tools", "langchain_clef", "clef_mcp"}
    assert "clef_tools/py.typed" in names
    assert not any(n.startswith(("adapters/", "mcp_server/", "tests/", "examples/")) for n in names)


def test_wheel_in_fresh_venv_decides_from_another_directory(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    subprocess.run(
        [str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        timeout=300,
    )
    site = Path(
        subprocess.check_output(
            [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
        ).strip()
    )
    (site / "borrowed-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    probe = subprocess.run(
        [
            str(py),
            "-c",
            "import clef_tools, langchain_clef, clef_mcp, importlib.util; "
            "print(clef_tools.__file__); print(importlib.util.find_spec('adapters'))",
        ],
        cwd=work,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    lines = probe.stdout.splitlines()
    assert lines[0].startswith(str(site)), lines
    assert lines[1] == "None"  # nothing named `adapters` is installed by us
    request = {
        "state": "the parcel never arrived",
        "questions": {"lost": {"type": "noul", "instructions": "Is a parcel missing?"}},
    }
    done = subprocess.run(
        [str(env_dir / "bin" / "clef-tools"), "decide", "--model", "smollm2", "--quiet"],
        input=json.dumps(request),
        cwd=work,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert 0.0 <= json.loads(done.stdout)["answers"]["lost"]["noul"] <= 1.0
