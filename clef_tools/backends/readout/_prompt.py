"""The readout prompt: one shared prefix (system + state), then one block per question.

Every row of a request starts with byte-identical text up to the end of the state, so its
tokens are computed once and shared. A question block lists that question's options with
single-token labels and ends exactly where the model writes its answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from clef_tools.decisions import Choice, Noul, Score
from clef_tools.protocol._render import render_content

__all__ = ["PromptFrame", "choice_block", "noul_block", "score_block"]

SYSTEM_PROMPT = (
    "You are a decision function. You read a state and answer one question about it. "
    "Reply with the label of exactly one option: no words, no punctuation, no explanation."
)
ANSWER_PREFILL = "Answer:"
_STATE_MARK = "\u2063STATE\u2063"
_QUESTION_MARK = "\u2063QUESTION\u2063"


@dataclass(frozen=True)
class PromptFrame:
    """The fixed text around the state and around a question block."""

    head: str
    """Everything before the state text (system turn, user header, `STATE:`)."""
    mid: str
    """Between the state and the first question block."""
    tail: str
    """After a question block, up to the answer position."""

    @classmethod
    def for_tokenizer(cls, tokenizer: Any) -> PromptFrame:
        """Use the model's own chat template where it has one."""
        user = f"STATE:\n{_STATE_MARK}\n\n{_QUESTION_MARK}"
        if getattr(tokenizer, "chat_template", None):
            text = tokenizer.apply_chat_template(
                [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}],
                tokenize=False,
                add_generation_prompt=True,
            )
            if (
                isinstance(text, str)
                and text.count(_STATE_MARK) == 1
                and text.count(_QUESTION_MARK) == 1
            ):
                head, rest = text.split(_STATE_MARK)
                mid, tail = rest.split(_QUESTION_MARK)
                # Prefilling "Answer:" in the assistant turn measured better than reading the
                # label as the turn's first token (BANKING77 8-way, 16 items: 0.88 vs 0.81
                # accuracy, mean p(gold) 0.47 vs 0.40 on the embedded model).
                return cls(head=head, mid=mid, tail=tail + ANSWER_PREFILL)
        bos = getattr(tokenizer, "bos_token", None) or ""
        return cls(
            head=f"{bos}{SYSTEM_PROMPT}\n\nSTATE:\n",
            mid="\n\n",
            tail="\n\n" + ANSWER_PREFILL,
        )

    def prefix(self, state_text: str) -> str:
        return f"{self.head}{state_text}{self.mid}"

    @property
    def answer_context(self) -> str:
        """A representative end of a row, used to verify labels at the boundary."""
        return f"{self.head}x{self.mid}QUESTION (q):\nx\n\nReply with the label.{self.tail}"


def _header(qid: str, instructions: object) -> str:
    text = render_content(instructions).strip() or f"Decide `{qid}`."
    return f"QUESTION ({qid}):\n{text}\n\n"


def noul_block(qid: str, question: Noul, yes_first: bool = True) -> str:
    """Yes/No block; `yes_first=False` is the swapped order used for debiasing."""
    crit = question.criteria
    lines = []
    yes = render_content(crit.true).strip() if crit else ""
    no = render_content(crit.false).strip() if crit else ""
    pairs = [("Yes", yes), ("No", no)] if yes_first else [("No", no), ("Yes", yes)]
    for label, desc in pairs:
        if desc:
            lines.append(f"{label}: {desc}")
    criteria = ("\n".join(lines) + "\n\n") if lines else ""
    order = "Yes or No" if yes_first else "No or Yes"
    return f"{_header(qid, question.instructions)}{criteria}Reply with {order}."


def choice_block(qid: str, question: Choice, options: Sequence[str], labels: Sequence[str]) -> str:
    """Options listed as `A. name: description`, in the order given."""
    lines = []
    for label, name in zip(labels, options, strict=True):
        desc = render_content(question.criteria[name]).strip()
        lines.append(f"{label}. {name}: {desc}" if desc else f"{label}. {name}")
    span = f"{labels[0]}-{labels[len(options) - 1]}"
    return (
        f"{_header(qid, question.instructions)}OPTIONS:\n"
        + "\n".join(lines)
        + f"\n\nReply with the letter ({span}) of the best option."
    )


def score_block(qid: str, question: Score, labels: Sequence[str], descending: bool = False) -> str:
    """Levels with their labels (`labels[i]` is level i), listed lowest first or, for the
    debiasing row, highest first: the labels stay with their levels either way."""
    pairs = list(zip(labels, question.criteria, strict=False))
    if descending:
        pairs.reverse()
    lines = [f"{label}: {render_content(level).strip()}" for label, level in pairs]
    span = f"{pairs[0][0]}-{pairs[-1][0]}"
    order = "highest first" if descending else "lowest first"
    return (
        f"{_header(qid, question.instructions)}LEVELS ({order}):\n"
        + "\n".join(lines)
        + f"\n\nReply with the label ({span}) of the level that fits best."
    )
