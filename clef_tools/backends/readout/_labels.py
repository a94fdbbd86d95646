"""Answer labels that are exactly one token where the model writes its answer.

A readout is a softmax over label logits at one position, so each label must be a
single token *at that boundary* (BPE merges differ at a boundary from in isolation, and
the Qwen tokenizer splits digits). This is checked against the real tokenizer and the
real answer context at load time, never assumed.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from clef_tools.protocol._errors import ModelUnavailableError

__all__ = ["LabelSet", "verify_labels"]

LETTERS = tuple(string.ascii_uppercase)
DIGITS = tuple(str(i) for i in range(10))
YES_NO = ("Yes", "No")


@dataclass(frozen=True)
class LabelSet:
    """Labels as shown in the prompt, the text the model would write, and its token id."""

    shown: tuple[str, ...]
    token_ids: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.shown)


def verify_labels(tokenizer: Any, answer_context: str, labels: Sequence[str]) -> LabelSet | None:
    """Return the labels if each adds exactly one distinct token after `answer_context`.

    Tries the bare label first, then with a leading space (after `Answer:` a model writes
    ` A`). Returns None when either spelling fails for any label, so the caller can pick
    another alphabet.
    """
    base = _ids(tokenizer, answer_context)
    for prefix in ("", " "):
        ids: list[int] = []
        for label in labels:
            full = _ids(tokenizer, answer_context + prefix + label)
            if len(full) != len(base) + 1 or full[: len(base)] != base:
                break
            ids.append(full[-1])
        else:
            if len(set(ids)) == len(ids):
                return LabelSet(tuple(labels), tuple(ids))
    return None


def require_labels(
    tokenizer: Any, answer_context: str, alphabets: Sequence[Sequence[str]], purpose: str
) -> LabelSet:
    """The first alphabet that verifies, or a clear error naming the tokenizer problem."""
    for alphabet in alphabets:
        found = verify_labels(tokenizer, answer_context, alphabet)
        if found is not None:
            return found
    tried = " / ".join("".join(a[:3]) + "…" for a in alphabets)
    raise ModelUnavailableError(
        f"this tokenizer has no single-token labels for {purpose} at the answer position "
        f"(tried {tried}); the readout backend cannot use this model"
    )


def _ids(tokenizer: Any, text: str) -> list[int]:
    return list(tokenizer(text, add_special_tokens=False)["input_ids"])
