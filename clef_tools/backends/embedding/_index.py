"""`ExampleIndex`: labelled examples, embedded once, in a file that loads without running code.

A decision model that reads only option names and descriptions leaves a user's labelled
history on the table (BANKING77's 77 intents: ~0.6 from descriptions, ~0.92 from nearest
examples). The index holds `(text, label, question)` rows and their embeddings. Rows are
keyed by label: it serves any choice question whose option names include its labels (rows
fitted with a question id serve only that question); labels a question lacks are ignored.

On disk it is one safetensors file (no pickle): the float16 embeddings, plus metadata that
names the format version, the embedding model, the rows and a SHA-256 over both, so a file
from another model, a newer format or a damaged copy is refused with a clear error.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import threading
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clef_tools.backends.embedding._scoring import (
    DEFAULT_TEMPERATURE,
    DEFAULT_TOP,
    MIN_CALIBRATION_ROWS,
    SMALL_INDEX_TEMPERATURE,
    fit_none_floor,
    is_none_option,
    loo_scores,
    temperature_from_loo,
)
from clef_tools.protocol._errors import ConfigError

__all__ = [
    "FORMAT",
    "MAX_FILE_BYTES",
    "MAX_LABEL_CHARS",
    "MAX_ROWS",
    "MAX_TEXT_CHARS",
    "ExampleIndex",
    "ExampleIndexError",
]

FORMAT = "clef-tools.examples/1"
MAX_ROWS = 100_000
"""Rows an index may hold (100,000 MiniLM rows: 77 MB on disk, 154 MB in memory)."""
MAX_TEXT_CHARS = 8_000
MAX_LABEL_CHARS = 200
MAX_FILE_BYTES = 512 * 2**20


class SmallIndexWarning(UserWarning):
    """An example index too small to calibrate its own confidence."""


class ExampleIndexError(ConfigError):
    """An index file or example that cannot be used, and why."""


@dataclass(frozen=True)
class _View:
    """The rows serving one question's options: their vectors and option positions."""

    vectors: Any
    option: Any


class ExampleIndex:
    """Rows of `(text, label, question)` with unit-length embeddings from `model`."""

    def __init__(
        self,
        model: str,
        dim: int,
        *,
        temperature: float = DEFAULT_TEMPERATURE,
        top: int = DEFAULT_TOP,
        max_rows: int = MAX_ROWS,
    ) -> None:
        import numpy as np

        if dim <= 0:
            raise ExampleIndexError("an index needs a positive embedding size")
        self.model = model
        self.dim = dim
        self.temperature = temperature
        self.top = top
        self.max_rows = max_rows
        self.texts: list[str] = []
        self.labels: list[str] = []
        self.questions: list[str | None] = []
        self.source: Path | None = None
        self.none_floor: float | None = None
        """Below this score an input is unlike the examples: a "none of these" option wins."""
        self.encoder_path: str | None = None
        """Where the encoder that built it was (a hint for opening it again; its id decides)."""
        self._buffer = np.zeros((0, dim), dtype=np.float32)
        self._views: dict[tuple[str, tuple[str, ...]], _View | None] = {}
        self._lock = threading.Lock()

    @property
    def count(self) -> int:
        return len(self.labels)

    @property
    def vectors(self) -> Any:
        """The `(count, dim)` float32 embeddings."""
        return self._buffer[: self.count]

    # -- adding ---------------------------------------------------------------------

    def add(
        self,
        texts: Sequence[str],
        labels: Sequence[str],
        vectors: Any,
        question: str | Sequence[str | None] | None = None,
    ) -> None:
        """Append rows (`vectors` from this index's model, one per text)."""
        import numpy as np

        questions = (
            [question] * len(texts) if question is None or isinstance(question, str) else question
        )
        vectors = np.asarray(vectors, dtype=np.float32)
        if not len(texts) == len(labels) == len(questions) == vectors.shape[0]:
            raise ExampleIndexError("texts, labels, questions and vectors differ in length")
        if vectors.ndim != 2 or vectors.shape[1] != self.dim:
            raise ExampleIndexError(
                f"vectors have shape {vectors.shape}; this index holds {self.dim}-d {self.model} "
                "embeddings"
            )
        if not np.isfinite(vectors).all():
            raise ExampleIndexError("an embedding holds NaN or infinity")
        self.check_rows(texts, labels, questions)
        with self._lock:
            needed = self.count + len(texts)
            if needed > self._buffer.shape[0]:
                grown = np.zeros((max(needed, 2 * self._buffer.shape[0], 64), self.dim), np.float32)
                grown[: self.count] = self.vectors
                self._buffer = grown
            self._buffer[self.count : needed] = vectors
            self.texts.extend(texts)
            self.labels.extend(labels)
            self.questions.extend(questions)
            self._views.clear()

    def check_rows(
        self, texts: Sequence[str], labels: Sequence[str], questions: Sequence[str | None]
    ) -> None:
        """Whether these rows may be added (content and room); `build_index` asks before
        the slow embedding, `add` again for rows that come with their vectors."""
        for i, (text, label, qid) in enumerate(zip(texts, labels, questions, strict=True)):
            _check_row(i, text, label, qid)
        if self.count + len(texts) > self.max_rows:
            raise ExampleIndexError(
                f"an index holds at most {self.max_rows} rows; adding {len(texts)} to "
                f"{self.count} would exceed it"
            )

    def encoder_folder(self) -> Path | None:
        """The folder of the (non-default) encoder that built this index, if it is still
        there unchanged. The user did not name that folder, so it is only offered when its
        fingerprint (file names, sizes and configs, read without loading anything) is this
        index's encoder id."""
        from clef_tools.backends.embedding._encoder import EMBEDDING_MODEL_ID, folder_model_id

        if self.model == EMBEDDING_MODEL_ID or not self.encoder_path:
            return None
        folder = Path(self.encoder_path).resolve()
        return folder if folder.is_dir() and folder_model_id(folder) == self.model else None

    def check_encoder(self, encoder: Any) -> None:
        """Refuse an encoder other than the one whose embeddings this index holds."""
        if encoder.model_id != self.model:
            raise ExampleIndexError(
                f"the index holds {self.model} embeddings; this encoder is {encoder.model_id}"
            )

    def copy(self) -> ExampleIndex:
        """An independent index with the same rows (adding to it leaves this one alone)."""
        twin = ExampleIndex(
            self.model, self.dim, temperature=self.temperature, top=self.top, max_rows=self.max_rows
        )
        twin.add(self.texts, self.labels, self.vectors, self.questions)
        twin.source, twin.encoder_path = self.source, self.encoder_path
        twin.none_floor = self.none_floor
        return twin

    def record(self, state: object, question: str, answer: str, *, encoder: Any = None) -> None:
        """Add one labelled decision (a human's approve/reject, a ticket's final team) as an
        example of `answer` for question `question`. `encoder` defaults to the bundled one;
        it must be the model the index was built with."""
        from clef_tools.backends.embedding._encoder import open_encoder
        from clef_tools.protocol._render import render_state

        encoder = encoder if encoder is not None else open_encoder()
        self.check_encoder(encoder)
        text = render_state(state)
        self.add([text], [answer], encoder.embed([text]), question)

    def refit_temperature(self, seed: int = 0) -> float:
        """Fit the temperature and the none-floor on the index's own rows (leave-one-out);
        returns the temperature. An index too small for that (fewer than 20 rows whose
        label has another row) cannot know how sure to be: it gets `SMALL_INDEX_TEMPERATURE`,
        which keeps it from near-certainty, and a warning."""
        found = loo_scores(self.vectors, self.labels, self.top, seed=seed)
        if found is not None:
            self.temperature = temperature_from_loo(*found)
        elif len(self.labels):
            self.temperature = max(self.temperature, SMALL_INDEX_TEMPERATURE)
            warnings.warn(
                f"the example index has {len(self.labels)} rows: too few to calibrate its "
                f"confidence (it needs at least {MIN_CALIBRATION_ROWS} rows whose label has "
                f"another example); its temperature is set to {SMALL_INDEX_TEMPERATURE} so "
                "that it is not sure of itself. Add examples to calibrate it.",
                SmallIndexWarning,
                stacklevel=2,
            )
        floor = fit_none_floor(self.vectors, self.labels, self.top, seed=seed, found=found)
        if floor is not None:
            self.none_floor = floor
        return self.temperature

    # -- serving a question -----------------------------------------------------------

    def serves(self, qid: str, options: Sequence[str]) -> bool:
        return self._view(qid, tuple(options)) is not None

    def option_logits(
        self, state_vec: Any, qid: str, options: Sequence[str], description_sims: Sequence[float]
    ) -> list[float] | None:
        """Per option, the mean of its `top` best similarities among its examples and its
        own description (a description is one more example of its option, so an option
        with few examples leans on it and one with many barely does), over the temperature.
        `None` when no row serves this question."""
        import numpy as np

        view = self._view(qid, tuple(options))
        if view is None:
            return None
        sims = view.vectors @ np.asarray(state_vec, dtype=np.float32)
        logits = []
        for k, described in enumerate(description_sims):
            examples = sims[view.option == k]
            floor = self.none_floor if is_none_option(options[k]) else None
            if examples.size == 0 and floor is not None:
                logits.append(floor / self.temperature)
                continue
            own = np.append(examples, described)
            best = own if own.size <= self.top else np.partition(own, -self.top)[-self.top :]
            score = float(best.mean())
            # a none option's own examples can only add to its floor: a message unlike
            # every in-scope example is out of scope whether or not it resembles one of
            # the (scattered) labelled out-of-scope rows
            logits.append((score if floor is None else max(score, floor)) / self.temperature)
        return logits

    def nearest(self, state_vec: Any, qid: str, options: Sequence[str], k: int) -> list[int]:
        """Row numbers of the `k` examples most like the state, among those serving it."""
        import numpy as np

        rows = self._rows(qid, tuple(options))
        if not rows:
            return []
        sims = self.vectors[rows] @ np.asarray(state_vec, dtype=np.float32)
        best = np.argsort(-sims)[:k]
        return [rows[i] for i in best]

    def _rows(self, qid: str, options: tuple[str, ...]) -> list[int]:
        wanted = set(options)
        return [
            i
            for i, (label, q) in enumerate(zip(self.labels, self.questions, strict=True))
            if label in wanted and (q is None or q == qid)
        ]

    def _view(self, qid: str, options: tuple[str, ...]) -> _View | None:
        import numpy as np

        key = (qid, options)
        with self._lock:
            if key in self._views:
                return self._views[key]
        rows = self._rows(qid, options)
        position = {label: k for k, label in enumerate(options)}
        view = (
            _View(self.vectors[rows], np.array([position[self.labels[i]] for i in rows]))
            if rows
            else None
        )
        with self._lock:
            if len(self._views) >= 256:
                self._views.clear()
            self._views[key] = view
        return view

    def describe(self) -> dict[str, Any]:
        """What `model_info`, `/v1/models` and `clef-tools fit` report about the index."""
        questions = sorted({q for q in self.questions if q is not None})
        return {
            "format": FORMAT,
            "model": self.model,
            "count": self.count,
            "labels": dict(sorted(Counter(self.labels).items())),
            "questions": questions or "any",
            "temperature": self.temperature,
            "none_floor": self.none_floor,
            "source": str(self.source) if self.source else None,
            "encoder_path": self.encoder_path,
        }

    # -- files --------------------------------------------------------------------------

    def save(self, path: str | Path) -> Path:
        """Write the index (atomically: a reader never sees half a file)."""
        from safetensors.numpy import save_file

        path = Path(path)
        manifest = json.dumps(
            {
                "model": self.model,
                "dim": self.dim,
                "temperature": self.temperature,
                "top": self.top,
                "encoder_path": self.encoder_path,
                "none_floor": self.none_floor,
                "labels": self.labels,
                "questions": self.questions,
                "texts": self.texts,
            },
            ensure_ascii=False,
        )
        vectors = self.vectors.astype("float16")
        metadata = {"format": FORMAT, "manifest": manifest, "sha256": _digest(manifest, vectors)}
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            save_file({"embeddings": vectors}, str(tmp), metadata=metadata)
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        self.source = path
        return path

    @classmethod
    def load(cls, path: str | Path, *, max_rows: int = MAX_ROWS) -> ExampleIndex:
        """Read an index; anything unexpected is an `ExampleIndexError` naming the file."""
        path = Path(path).expanduser()
        if not path.is_file():
            raise ExampleIndexError(f"{path}: no such example index (build one: clef-tools fit)")
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ExampleIndexError(f"{path}: {size} bytes, over the {MAX_FILE_BYTES} limit")
        try:
            metadata, vectors = _read(path)
        except ExampleIndexError as exc:
            raise ExampleIndexError(f"{path}: {exc}") from None
        except Exception as exc:  # safetensors raises its own error types for bad headers
            raise ExampleIndexError(
                f"{path}: not a readable example index ({type(exc).__name__}: {exc})"
            ) from None
        try:
            index = cls._from_parts(metadata, vectors, max_rows)
        except (ExampleIndexError, KeyError, TypeError, ValueError) as exc:
            raise ExampleIndexError(f"{path}: {exc}") from None
        index.source = path
        return index

    @classmethod
    def _from_parts(cls, metadata: dict[str, str], vectors: Any, max_rows: int) -> ExampleIndex:
        manifest = json.loads(metadata["manifest"])
        if not isinstance(manifest, dict):
            raise ExampleIndexError("its manifest is not an object")
        labels, questions, texts = manifest["labels"], manifest["questions"], manifest["texts"]
        if not (
            isinstance(labels, list) and isinstance(questions, list) and isinstance(texts, list)
        ):
            raise ExampleIndexError("its manifest's rows are not lists")
        if not len(labels) == len(questions) == len(texts) == vectors.shape[0]:
            raise ExampleIndexError(
                f"{vectors.shape[0]} embeddings for {len(labels)} labels and {len(texts)} texts"
            )
        temperature = float(manifest["temperature"])
        if not (temperature > 0 and math.isfinite(temperature)):
            raise ExampleIndexError("its temperature is not a positive number")
        index = cls(
            str(manifest["model"]),
            int(manifest["dim"]),
            temperature=temperature,
            top=int(manifest.get("top", DEFAULT_TOP)),
            max_rows=max_rows,
        )
        index.add(texts, labels, vectors.astype("float32"), questions)
        floor = manifest.get("none_floor")
        index.none_floor = float(floor) if isinstance(floor, int | float) else None
        hint = manifest.get("encoder_path")
        index.encoder_path = hint if isinstance(hint, str) else None
        return index


def _read(path: Path) -> tuple[dict[str, str], Any]:
    from safetensors import safe_open

    with safe_open(str(path), framework="np") as f:
        metadata = f.metadata() or {}
        found = metadata.get("format")
        if found is None:
            raise ExampleIndexError("a safetensors file, but not a clef-tools example index")
        if found != FORMAT:
            raise ExampleIndexError(
                f"index format {found!r}; this clef-tools reads {FORMAT!r} (rebuild it with "
                "`clef-tools fit`, or upgrade clef-tools)"
            )
        if set(f.keys()) != {"embeddings"}:
            raise ExampleIndexError(f"unexpected tensors {sorted(f.keys())}")
        vectors = f.get_tensor("embeddings")
    if vectors.ndim != 2 or str(vectors.dtype) != "float16":
        raise ExampleIndexError(f"embeddings of shape {vectors.shape} and type {vectors.dtype}")
    manifest = metadata.get("manifest", "")
    if metadata.get("sha256") != _digest(manifest, vectors):
        raise ExampleIndexError("checksum mismatch: the file was damaged or edited")
    return metadata, vectors


def _digest(manifest: str, vectors: Any) -> str:
    h = hashlib.sha256(manifest.encode())
    h.update(vectors.tobytes())
    return h.hexdigest()


def _check_row(i: int, text: object, label: object, question: object) -> None:
    if not isinstance(text, str) or not text.strip():
        raise ExampleIndexError(f"row {i}: text must be a non-empty string")
    if len(text) > MAX_TEXT_CHARS:
        raise ExampleIndexError(
            f"row {i}: text of {len(text)} characters, over the {MAX_TEXT_CHARS} limit"
        )
    if not isinstance(label, str) or not label or len(label) > MAX_LABEL_CHARS:
        raise ExampleIndexError(f"row {i}: label must be a string of 1-{MAX_LABEL_CHARS} chars")
    if question is not None and not isinstance(question, str):
        raise ExampleIndexError(f"row {i}: question must be a question id or null")
