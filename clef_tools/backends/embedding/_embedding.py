"""`EmbeddingDecider`: choice questions answered by sentence-embedding similarity in ~10 ms.

The encoder (all-MiniLM-L6-v2 by default; see `_encoder`) embeds the state
and each option's text; the cosine similarities, divided by a temperature fitted on labelled
dev data, are softmaxed. With an `ExampleIndex` attached, a question whose option names
match indexed labels is scored by its nearest examples instead (tier `examples`; see
`clef_tools.backends.embedding`), and others as before (tier `embedding`). It reads at most 256
tokens: a longer state is *declined* (the cascade sends it to the LM) rather than truncated.
It cannot answer yes/no or rubric questions well — a cosine says "related", not "true" or
"how much" — so it only takes `choice`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clef_tools._lru import BoundedLRU
from clef_tools.backends._base import BackendInfo, Decider, RequestScores
from clef_tools.backends.embedding._encoder import EMBEDDING_MODEL_ID, Encoder, open_encoder
from clef_tools.backends.embedding._index import ExampleIndex, ExampleIndexError
from clef_tools.backends.local._torch_thread import run_on_torch_thread
from clef_tools.protocol._errors import StateTooLongError
from clef_tools.protocol._render import render_content, render_state
from clef_tools.protocol._validation import DecisionRequest, StateFacts

__all__ = ["EMBEDDING_MODEL_ID", "EmbeddingDecider", "option_text"]

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
        examples: ExampleIndex | str | Path | None = None,
    ) -> None:
        if temperature <= 0:
            raise ValueError("temperature must be positive")
        self.temperature = temperature
        if path is None and examples is not None:
            # an index built with another encoder is answered with that encoder
            examples = (
                examples if isinstance(examples, ExampleIndex) else ExampleIndex.load(examples)
            )
            path = examples.encoder_folder()
        self.encoder: Encoder = open_encoder(path)
        self.path = self.encoder.path
        self.max_tokens = self.encoder.max_tokens
        self._option_cache: BoundedLRU[str, Any] = BoundedLRU(cache_options)
        self.examples: ExampleIndex | None = None
        if examples is not None:
            self.attach(examples)

    def attach(self, examples: ExampleIndex | str | Path) -> ExampleIndex:
        """Use `examples` (an index or its file) for the questions it serves."""
        index = examples if isinstance(examples, ExampleIndex) else ExampleIndex.load(examples)
        if index.model != self.encoder.model_id or index.dim != self.encoder.dim:
            raise ExampleIndexError(
                f"{index.source or 'the index'} holds {index.model} embeddings ({index.dim}-d); "
                f"this embedding tier uses {self.encoder.model_id} ({self.encoder.dim}-d): "
                "rebuild the index with `clef-tools fit`"
            )
        self.examples = index
        return index

    def info(self) -> BackendInfo:
        details = {"examples": self.examples.describe()} if self.examples is not None else {}
        return BackendInfo(
            kind="embedding",
            model_id=self.model_id,
            supported_types=self.supported_types,
            calibration=f"temperature {self.temperature}",
            details=details,
        )

    @property
    def model_id(self) -> str:
        return self.encoder.model_id

    def serves(self, qid: str, options: Sequence[str]) -> bool:
        """Whether the attached examples cover this question's options."""
        return self.examples is not None and self.examples.serves(qid, options)

    def fits(self, state: object) -> bool:
        """Whether the rendered state fits the encoder's window (else it would be cut)."""
        return self.token_count(_text(state)) <= self.max_tokens

    def token_count(self, text: str) -> int:
        return self.encoder.token_count(text)

    def similarities(self, state: object, options: dict[str, object]) -> list[float]:
        """Raw cosines, in option order (the cascade's shortlist reads these)."""
        return self._question_cosines(state, [options])[2][0]

    def state_vector(self, state: object) -> Any:
        """The state's unit embedding (numpy), as the example index compares it."""
        text = _text(state)
        return run_on_torch_thread(lambda: self._embed([text])[0].float().numpy())

    def _score(self, requests: Sequence[DecisionRequest]) -> list[RequestScores]:
        out = []
        for request in requests:
            questions = list(request.questions.items())
            tokens, state_vec, cosines = self._question_cosines(
                request.facts,
                [q.criteria for _, q in questions],  # type: ignore[union-attr]
            )
            probabilities: dict[str, list[float]] = {}
            tiers: dict[str, str] = {}
            for (qid, question), cos in zip(questions, cosines, strict=True):
                logits = None
                if self.examples is not None:
                    options = list(question.criteria)  # type: ignore[union-attr,arg-type]
                    logits = self.examples.option_logits(state_vec, qid, options, cos)
                tiers[qid] = "embedding" if logits is None else "examples"
                if logits is None:
                    logits = [c / self.temperature for c in cos]
                probabilities[qid] = _softmax(logits)
            tier_map = tiers if self.examples is not None else None
            out.append(RequestScores(probabilities, input_tokens=tokens, tiers=tier_map))
        return out

    # -- internals --------------------------------------------------------------------

    def _question_cosines(
        self, state: object, option_sets: Sequence[Any]
    ) -> tuple[int, Any, list[list[float]]]:
        """(state tokens, state vector, cosines per option set); the state is checked and
        embedded once."""
        text = _text(state)
        tokens = self.token_count(text)
        if tokens > self.max_tokens:
            raise StateTooLongError(tokens, self.max_tokens)
        texts = [[option_text(label, desc) for label, desc in opts.items()] for opts in option_sets]
        state_vec, cosines = run_on_torch_thread(lambda: self._cosines(text, texts))
        return tokens, state_vec, cosines

    def _cosines(
        self, state_text: str, option_sets: list[list[str]]
    ) -> tuple[Any, list[list[float]]]:
        import torch

        state_vec = self._embed([state_text])[0]
        wanted = list(dict.fromkeys(t for texts in option_sets for t in texts))
        missing = [t for t in wanted if t not in self._option_cache]
        if missing:
            for text, vec in zip(missing, self._embed(missing), strict=True):
                self._option_cache.put(text, vec, trim=False)
        out = [
            (torch.stack([self._option_cache[t] for t in texts]) @ state_vec).tolist()
            for texts in option_sets
        ]
        # evict only after this request is served: it may need more than the cache holds
        self._option_cache.trim()
        return state_vec.float().numpy(), out

    def _embed(self, texts: list[str]) -> Any:
        return self.encoder.embed_tensor(texts)


def _softmax(logits: list[float]) -> list[float]:
    import math

    top = max(logits)
    exps = [math.exp(x - top) for x in logits]
    total = sum(exps)
    return [e / total for e in exps]


def _text(state: object) -> str:
    """A state's rendered text; a validated request's `facts` carry it already."""
    return state.text if isinstance(state, StateFacts) else render_state(state)
