"""Which model to load, and loading it without a hub: HF folders, GGUF files, the embedded one.

GGUF files are dequantised on the CPU at load (~80 s and ~9 GB peak for the embedded
model), so the first load converts once into a safetensors folder under the user's cache
directory; later loads read that folder in about a second.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import platformdirs

from clef_tools._progress import Progress
from clef_tools.backends._spec import looks_like_path, parse_spec, spec_forms
from clef_tools.backends.local._embedded import (
    EMBEDDED_MODEL_ID,
    EMBEDDED_SHA256,
    assemble_embedded_gguf,
    smollm2_gguf,
)
from clef_tools.protocol._errors import ModelUnavailableError

__all__ = ["ModelSource", "cache_root", "load_causal_lm", "resolve_dtype", "resolve_model"]

SourceKind = Literal["embedded", "smollm2", "gguf", "folder"]
_MARKER = "clef-tools-source.json"


@dataclass(frozen=True)
class ModelSource:
    """A resolved model choice: what it is, where it lives, and the id answers carry."""

    kind: SourceKind
    model_id: str
    path: Path | None = None

    def describe(self) -> str:
        where = f" at {self.path}" if self.path else " (from installed PyPI packages)"
        return f"{self.kind} model {self.model_id}{where}"


def resolve_model(spec: str | os.PathLike[str] | None = None) -> ModelSource:
    """`None`/`"embedded"` → the default; `"smollm2"`; a `.gguf` file; a transformers folder.

    `CLEF_TOOLS_MODEL` supplies the spec when none is given. Names win over paths: a
    folder is used only when written as a path (`./name`), never found by a bare word.
    """
    raw = parse_spec(spec).raw
    if raw in ("", "embedded", "default"):
        return ModelSource("embedded", EMBEDDED_MODEL_ID)
    if raw == "smollm2":
        return ModelSource("smollm2", "smollm2-135m-instruct-q4_1")
    path = Path(raw).expanduser()
    if not looks_like_path(raw):
        hint = f" (to load the folder {raw!r} here, write ./{raw})" if path.exists() else ""
        raise ModelUnavailableError(f"unknown model {raw!r}{hint}: use {spec_forms()}")
    if path.is_file() and path.suffix == ".gguf":
        return ModelSource("gguf", path.stem, path.resolve())
    if path.is_dir() and (path / "config.json").is_file():
        return ModelSource("folder", path.resolve().name, path.resolve())
    if path.exists():
        raise ModelUnavailableError(
            f"{raw}: not a .gguf file or a transformers folder with config.json"
        )
    raise ModelUnavailableError(
        f"no model at {raw!r}: use {spec_forms()} (models are never downloaded at run time)"
    )


def cache_root() -> Path:
    """`CLEF_TOOLS_CACHE`, else the platform's user cache dir (e.g. ~/.cache/clef-tools)."""
    env = os.environ.get("CLEF_TOOLS_CACHE")
    return Path(env).expanduser() if env else Path(platformdirs.user_cache_dir("clef-tools"))


def resolve_dtype(dtype: str | None = None) -> Any:
    """`auto`: bf16 on CUDA or on CPUs with bf16 units (AVX512-BF16/AMX), else fp32."""
    import torch

    choice = (dtype or os.environ.get("CLEF_TOOLS_DTYPE") or "auto").lower()
    table = {
        "fp32": torch.float32,
        "float32": torch.float32,
        "bf16": torch.bfloat16,
        "bfloat16": torch.bfloat16,
        "fp16": torch.float16,
        "float16": torch.float16,
    }
    if choice in table:
        return table[choice]
    if choice != "auto":
        raise ValueError(f"dtype must be auto, fp32, bf16 or fp16, not {dtype!r}")
    if torch.cuda.is_available() or _cpu_has_bf16():
        return torch.bfloat16
    return torch.float32


def load_causal_lm(
    source: ModelSource, *, dtype: Any = None, device: str = "cpu", progress: Progress | None = None
) -> tuple[Any, Any]:
    """(model, tokenizer) in eval mode; GGUF sources go through the converted cache."""
    import torch

    progress = progress or Progress(enabled=False)
    torch_dtype = dtype if isinstance(dtype, torch.dtype) else resolve_dtype(dtype)
    with _transformers_bars(progress.enabled):
        return _load(source, torch_dtype, device, progress)


def _load(
    source: ModelSource, torch_dtype: Any, device: str, progress: Progress
) -> tuple[Any, Any]:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    folder = source.path if source.kind == "folder" else _converted(source, torch_dtype, progress)
    assert folder is not None
    progress.step(f"loading {source.model_id} ({str(torch_dtype).removeprefix('torch.')})")
    try:
        tokenizer = AutoTokenizer.from_pretrained(folder, local_files_only=True)
        model: Any = AutoModelForCausalLM.from_pretrained(
            folder, dtype=torch_dtype, local_files_only=True, device_map={"": device}
        )
    except (OSError, ValueError) as exc:
        raise ModelUnavailableError(f"cannot load {source.describe()}: {exc}") from exc
    progress.step("model ready")
    return model.eval(), tokenizer


def _converted(source: ModelSource, dtype: Any, progress: Progress) -> Path:
    """Path of the safetensors conversion of a GGUF source, building it on first use."""
    dtype_name = str(dtype).removeprefix("torch.")
    if source.kind == "embedded":
        key = f"{source.model_id}-{EMBEDDED_SHA256[:12]}-{dtype_name}"
    else:
        gguf = source.path if source.kind == "gguf" else smollm2_gguf()
        assert gguf is not None
        # keyed by the file's content, so the same GGUF in another venv or folder (or
        # named "smollm2" vs by path) reuses one conversion
        key = f"{gguf.stem}-{_fingerprint(gguf)}-{dtype_name}"
    target = cache_root() / "converted" / key
    if (target / _MARKER).is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".building-") as tmp:
        work = Path(tmp)
        if source.kind == "embedded":
            gguf = assemble_embedded_gguf(work / "model.gguf", progress)
        else:
            gguf = source.path if source.kind == "gguf" else smollm2_gguf()
            assert gguf is not None
        progress.step(f"converting {gguf.name} to a {dtype_name} safetensors cache (one time)")
        _convert_gguf(gguf, work / "out", dtype, progress)
        (work / "out" / _MARKER).write_text(
            json.dumps(
                {
                    "model_id": source.model_id,
                    "kind": source.kind,
                    "gguf": str(gguf),
                    "dtype": dtype_name,
                }
            )
        )
        try:
            os.replace(work / "out", target)
        except OSError:
            if not (target / _MARKER).is_file():  # another process won the race: use theirs
                shutil.rmtree(target, ignore_errors=True)
                os.replace(work / "out", target)
    progress.step(f"cached at {target}")
    return target


def _convert_gguf(gguf: Path, out: Path, dtype: Any, progress: Progress) -> None:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    try:
        # no unit of progress here, and it is most of a cold start: a heartbeat instead
        with progress.waiting("reading the tokenizer from the GGUF file"):
            tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
        with progress.waiting("de-quantising the weights"):
            model: Any = AutoModelForCausalLM.from_pretrained(
                gguf.parent, gguf_file=gguf.name, dtype=torch.float32
            )
    except (OSError, ValueError, KeyError) as exc:
        raise ModelUnavailableError(f"cannot read GGUF {gguf}: {exc}") from exc
    # On the CPU the GGUF weights are fully dequantised; drop the quantizer marker so the
    # plain tensors can be saved (transformers refuses to serialise "gguf-quantized" models).
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    with progress.waiting(f"saving the {str(dtype).removeprefix('torch.')} weights"):
        model.to(dtype)
        model.save_pretrained(out)
        tokenizer.save_pretrained(out)


def _fingerprint(path: Path, window: int = 1 << 20) -> str:
    """Cheap content identity for multi-GB files: size plus the first and last MiB."""
    size = path.stat().st_size
    digest = hashlib.sha256(str(size).encode())
    with path.open("rb") as f:
        digest.update(f.read(window))
        f.seek(max(0, size - window))
        digest.update(f.read(window))
    return digest.hexdigest()[:12]


@contextlib.contextmanager
def _transformers_bars(enabled: bool) -> Iterator[None]:
    """Quiet loads stay quiet: transformers' own bars follow our progress setting."""
    import transformers.modeling_gguf_pytorch_utils as gguf_utils
    from transformers.utils import logging as hf_logging

    was = hf_logging.is_progress_bar_enabled()
    gguf_tqdm = gguf_utils.tqdm  # type: ignore[attr-defined]
    if enabled:
        hf_logging.enable_progress_bar()
    else:
        hf_logging.disable_progress_bar()
        # the GGUF dequantiser uses a bare tqdm that ignores the switch above
        gguf_utils.tqdm = functools.partial(gguf_tqdm, disable=True)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        gguf_utils.tqdm = gguf_tqdm  # type: ignore[attr-defined]
        if was:
            hf_logging.enable_progress_bar()
        else:
            hf_logging.disable_progress_bar()


def _cpu_has_bf16() -> bool:
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags
