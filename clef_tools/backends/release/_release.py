"""`ClefReleaseDecider`: the open Clef-Flash (or Clef) weights, through the release's own code.

The release ships its loader and prompt encoder as `joint_schema_model.py` next to the
weights (`load_release_model`, `encode_record`, `collate_records`). Re-implementing them
would drift from what the weights were trained on, so this module imports that file from
the folder and only adds what it leaves out: a length check before inference (the
release silently truncates the state to fit `max_length`), batching, images lifted from the
state for the processor, and answers mapped back to the caller's option order.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from clef_tools.backends._base import BackendInfo, Decider, RequestScores
from clef_tools.backends._cancel import raise_if_cancelled
from clef_tools.backends._spec import RELEASE_FILES, is_release_folder
from clef_tools.backends.local._torch_thread import run_on_torch_thread
from clef_tools.protocol._errors import (
    BackendError,
    MissingExtraError,
    ModelUnavailableError,
    RequestValidationError,
    StateTooLongError,
    UnsupportedInputError,
)
from clef_tools.protocol._limits import MAX_IMAGE_PIXELS
from clef_tools.protocol._media import StateImage, split_images
from clef_tools.protocol._validation import DecisionRequest, option_labels
from clef_tools.protocol._wire import request_to_wire

__all__ = ["RELEASE_FILES", "ClefReleaseDecider", "is_release_folder", "release_path"]

_LOADER_API = ("load_release_model", "encode_record", "collate_records")
#: The release's own default `max_length` (model card, §2.4 of the wire notes).
DEFAULT_MAX_TOKENS = 16384
#: Passed as `max_length` so the release never truncates; our own check refuses instead.
_NO_TRUNCATION = 1 << 30


def release_path(path: str | os.PathLike[str] | None = None) -> Path:
    """The release folder: `path`, else `CLEF_FLASH_PATH`; checked file by file."""
    given = os.fspath(path) if path is not None else None
    # "clef-flash" is the backend spec for "the release at $CLEF_FLASH_PATH"
    raw = given if given not in (None, "clef-flash") else os.environ.get("CLEF_FLASH_PATH")
    if not raw:
        raise ModelUnavailableError(
            "no Clef-Flash release folder: pass its path or set CLEF_FLASH_PATH to a local "
            "copy (weights are never downloaded at run time)"
        )
    folder = Path(raw).expanduser().resolve()
    if not folder.is_dir():
        raise ModelUnavailableError(f"Clef-Flash release folder {folder} does not exist")
    missing = [name for name in RELEASE_FILES if not (folder / name).is_file()]
    if not _has_backbone_weights(folder):
        missing.append("backbone weights (model*.safetensors)")
    if missing:
        raise ModelUnavailableError(f"{folder} is not a complete Clef release; missing: {missing}")
    return folder


#: Backbones whose `AutoProcessor` is Qwen3-VL's, with a video processor that needs
#: torchvision even for text-only use (the real Clef-Flash is `qwen3_5`).
_VIDEO_PROCESSOR_MODEL_TYPES = frozenset({"qwen3_5", "qwen3_5_moe", "qwen3_vl", "qwen3_vl_moe"})


def check_processor_dependencies(folder: Path) -> None:
    """Refuse, before anything loads, a release whose processor cannot be built here.

    The real release loads its processor with `AutoProcessor`, which for Qwen3.5 is
    Qwen3-VL's with a video processor that needs torchvision. Without it, or with a
    torchvision built for another torch (PyPI's CUDA build next to a CPU torch), loading
    fails deep inside transformers; here the user is told what to install instead.
    """
    import json

    try:
        model_type = json.loads((folder / "config.json").read_text()).get("model_type")
    except (OSError, ValueError, AttributeError):
        model_type = None
    if (
        model_type not in _VIDEO_PROCESSOR_MODEL_TYPES
        and not (folder / "video_preprocessor_config.json").is_file()
    ):
        return
    try:
        import torchvision  # noqa: F401
    except ModuleNotFoundError as exc:
        raise MissingExtraError(
            f"the Clef release at {folder} (its processor's video part)",
            "release",
            "torchvision",
            torchvision_install_command(),
        ) from exc
    except Exception as exc:  # installed, but built for another torch
        raise ModelUnavailableError(
            f"the Clef release at {folder} needs torchvision, which is installed but does not "
            f"import next to this torch ({exc}); install the build made for it: "
            f"{torchvision_install_command()}"
        ) from exc


def torchvision_install_command() -> str:
    """The torchvision build that matches the running torch (its minor + 15, the pairing
    PyTorch releases follow: torch 2.13 ↔ torchvision 0.28), from the index of its flavour."""
    import torch

    base, _, local = torch.__version__.partition("+")
    major, minor = (int(part) for part in base.split(".")[:2])
    pin = f"'torchvision=={major - 2}.{minor + 15}.*'"
    cuda = getattr(torch.version, "cuda", None)
    if cuda is None or local == "cpu":
        return f"pip install {pin} --index-url https://download.pytorch.org/whl/cpu"
    return (
        f"pip install {pin} --index-url https://download.pytorch.org/whl/cu{cuda.replace('.', '')}"
    )


def _has_backbone_weights(folder: Path) -> bool:
    return any(p.name != "joint_head.safetensors" for p in folder.glob("*.safetensors"))


def import_release_module(folder: Path) -> ModuleType:
    """Import the folder's `joint_schema_model.py` under a private, per-folder name.

    Not via `sys.path`: two releases (Flash and Clef) in one process must not shadow
    each other, and nothing else on the path should be importable by accident.
    """
    source = folder / "joint_schema_model.py"
    digest = hashlib.sha256(str(folder).encode()).hexdigest()[:12]
    name = f"_clef_release_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, source)
    if spec is None or spec.loader is None:
        raise ModelUnavailableError(f"cannot import {source}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise ModelUnavailableError(f"{source} failed to import: {exc}") from exc
    missing = [fn for fn in _LOADER_API if not callable(getattr(module, fn, None))]
    if missing:
        del sys.modules[name]
        raise ModelUnavailableError(f"{source} lacks the release loader API: {missing}")
    return module


@dataclass
class _Encoded:
    request_index: int
    encoded: Any
    """What the release's `encode_record` returned (`input_ids`, `questions[].option_ids`)."""
    tokens: int


class ClefReleaseDecider(Decider):
    """Clef-Flash from a local release folder: one forward pass answers every question.

    The release's `joint_schema_model.py` is imported and run, so nothing loads without
    `trust_release_code=True`, the same opt-in `transformers` asks for remote code.
    Default device: CUDA when available (bf16), else CPU (bf16 only where the CPU has
    bf16 units, fp32 otherwise). Requests are encoded first and refused with
    `StateTooLongError` when they exceed `max_context_tokens` (default 16,384, the
    release's own `max_length`) — never truncated.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        trust_release_code: bool = False,
        device: str | None = None,
        dtype: Any = None,
        max_context_tokens: int = DEFAULT_MAX_TOKENS,
        batch_size: int = 8,
        batch_tokens: int = 32768,
        batch_window_ms: float = 2.0,
        model_id: str | None = None,
        **from_pretrained: Any,
    ) -> None:
        self.path = release_path(path)
        if not trust_release_code:
            raise ModelUnavailableError(
                f"{self.path / 'joint_schema_model.py'} is Python code that loading this "
                "release would import and run; if you trust this release, pass "
                "trust_release_code=True (CLI: --trust-release-code)"
            )
        check_processor_dependencies(self.path)
        self.module = import_release_module(self.path)
        self.max_context_tokens = max_context_tokens
        self.batch_size = max(1, batch_size)
        self.batch_window_ms = batch_window_ms  # concurrent callers share one padded forward
        self.max_batch_requests = self.batch_size
        self.batch_tokens = max(batch_tokens, max_context_tokens)
        self._model_id = model_id or self.path.name
        self.device, self.dtype = _device_and_dtype(device, dtype)
        kwargs = {"local_files_only": True, **from_pretrained}

        def load() -> tuple[Any, Any]:
            return self.module.load_release_model(  # type: ignore[no-any-return]
                str(self.path), device=self.device, dtype=self.dtype, **kwargs
            )

        try:
            self.model, self.processor = run_on_torch_thread(load)
        except Exception as exc:
            raise ModelUnavailableError(
                f"loading the release at {self.path} failed: {exc}"
            ) from exc
        self.tokenizer = getattr(self.processor, "tokenizer", self.processor)
        pad = getattr(self.tokenizer, "pad_token_id", None)
        self.pad_token_id = pad if pad is not None else getattr(self.tokenizer, "eos_token_id", 0)

    def __repr__(self) -> str:
        return f"ClefReleaseDecider(path={str(self.path)!r}, device={self.device!r})"

    @property
    def model_id(self) -> str:
        return self._model_id

    def info(self) -> BackendInfo:
        return BackendInfo(
            kind="release",
            model_id=self.model_id,
            supported_types=self.supported_types,
            dtype=str(self.dtype).removeprefix("torch."),
            device=str(self.device),
            max_context_tokens=self.max_context_tokens,
            details={"path": str(self.path)},
        )

    def check_supported(self, request: DecisionRequest, loc_prefix: tuple[str | int, ...]) -> None:
        _, images = split_images(request.state, (*loc_prefix, "state"))
        if images and getattr(self.processor, "image_processor", None) is None:
            raise UnsupportedInputError(
                ".".join(map(str, images[0].loc)),
                f"the processor of {self.model_id} has no image processor",
            )

    # -- scoring ----------------------------------------------------------------------

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        return run_on_torch_thread(lambda: self._score_all(requests))

    def _score_all(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        import torch

        # Encode everything first: a too-long request is refused before any forward pass.
        encoded = [self._encode(i, req) for i, req in enumerate(requests)]
        results: list[RequestScores | None] = [None] * len(requests)
        for chunk in self._chunks(encoded):
            raise_if_cancelled()
            batch = self.module.collate_records(
                [e.encoded for e in chunk], self.pad_token_id, torch.device(self.device)
            )
            with torch.inference_mode():
                logits = self.model(batch)
            if len(logits) != len(chunk):
                raise BackendError(f"the release returned {len(logits)} results for {len(chunk)}")
            for enc, per_question in zip(chunk, logits, strict=True):
                results[enc.request_index] = self._answers(
                    requests[enc.request_index], enc, per_question
                )
        return [r for r in results if r is not None]

    def _encode(self, index: int, request: DecisionRequest) -> _Encoded:
        state, images = split_images(request.state, ("state",))
        record = request_to_wire(DecisionRequest(state, request.questions), self.model_id)
        if images:
            record["images"] = [_pil(image) for image in images]
        encoded = self.module.encode_record(
            self.tokenizer, record, processor=self.processor, max_length=_NO_TRUNCATION
        )
        tokens = len(encoded.input_ids)
        if tokens > self.max_context_tokens:
            raise StateTooLongError(tokens, self.max_context_tokens)
        return _Encoded(index, encoded, tokens)

    def _chunks(self, encoded: list[_Encoded]) -> list[list[_Encoded]]:
        """Length-sorted batches capped in rows and padded tokens (long ones go alone)."""
        chunks: list[list[_Encoded]] = []
        current: list[_Encoded] = []
        for enc in sorted(encoded, key=lambda e: e.tokens):
            padded = enc.tokens * (len(current) + 1)
            if current and (len(current) >= self.batch_size or padded > self.batch_tokens):
                chunks.append(current)
                current = []
            current.append(enc)
        if current:
            chunks.append(current)
        return chunks

    def _answers(
        self, request: DecisionRequest, enc: _Encoded, per_question: Sequence[Any]
    ) -> RequestScores:
        questions = list(enc.encoded.questions)
        if len(per_question) != len(questions):
            raise BackendError(
                f"the release returned {len(per_question)} logit vectors for "
                f"{len(questions)} questions"
            )
        probabilities: dict[str, list[float]] = {}
        for position, (qid, question) in enumerate(request.questions.items()):
            encoded_q = questions[position]
            encoded_id = getattr(encoded_q, "question_id", getattr(encoded_q, "id", qid))
            if encoded_id != qid:
                raise BackendError(f"question order changed: {encoded_id!r} where {qid!r} was")
            probs = per_question[position].float().softmax(-1).tolist()
            by_option = dict(zip((str(o) for o in encoded_q.option_ids), probs, strict=True))
            probabilities[qid] = [by_option[option] for option in _option_order(question)]
        return RequestScores(probabilities=probabilities, input_tokens=enc.tokens)


def _option_order(question: Any) -> list[str]:
    """Our option order (see `RequestScores`) as the release's option ids."""
    return option_labels(question)


def _device_and_dtype(device: str | None, dtype: Any) -> tuple[str, Any]:
    import torch

    from clef_tools.backends.local._models import resolve_dtype

    if device is None:
        device = "cuda" if torch.cuda.is_available() else "cpu"
    if isinstance(dtype, str) or (dtype is None and device == "cpu"):
        dtype = resolve_dtype(dtype)  # "auto" on CPU: bf16 only with bf16 units
    elif dtype is None:
        dtype = torch.bfloat16  # what the release was trained and tested in
    return device, dtype


def _pil(image: StateImage) -> Any:
    try:
        from PIL import Image
    except ImportError as exc:
        raise UnsupportedInputError(
            ".".join(map(str, image.loc)), "images need Pillow: pip install 'clef-tools[images]'"
        ) from exc
    # The header was checked already; this catches a body that disagrees with its header
    # (the size is read before `convert` decodes anything) and whatever else the decoder
    # refuses, as a 422 naming the image.
    try:
        with Image.open(io.BytesIO(image.to_bytes())) as opened:
            if opened.width * opened.height > MAX_IMAGE_PIXELS:
                raise ValueError(f"{opened.width}×{opened.height} pixels is too large")
            return opened.convert("RGB")
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as exc:
        raise RequestValidationError.at(
            image.loc, f"the image cannot be decoded: {exc}", "invalid_image"
        ) from exc
