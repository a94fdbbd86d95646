"""Reading labelled examples from CSV/JSONL and building (or extending) an index from them.

Two input shapes: rows of `text,label` (CSV with a header, or JSONL objects with `text` and
`label`), and System One requests with gold answers (what `clef-tools data` writes), whose
gold choice answers become examples of their rendered state.
"""

from __future__ import annotations

import csv
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clef_tools.backends.embedding._index import MAX_FILE_BYTES, ExampleIndex, ExampleIndexError

__all__ = ["Example", "build_index", "read_examples", "sample_per_label"]

_LABEL_COLUMNS = ("label", "category", "intent")


@dataclass(frozen=True)
class Example:
    text: str
    label: str
    question: str | None = None


def read_examples(path: str | Path, *, question: str | None = None) -> list[Example]:
    """Examples from a CSV (`text` and `label`/`category`/`intent` columns) or a JSONL file.
    `question` restricts the rows to that question id (and, for System One requests, reads
    only that question's gold)."""
    path = Path(path)
    if not path.is_file():
        raise ExampleIndexError(f"{path}: no such file")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise ExampleIndexError(f"{path}: over the {MAX_FILE_BYTES}-byte limit")
    if path.suffix.lower() == ".csv":
        return _read_csv(path, question)
    return _read_jsonl(path, question)


def _read_csv(path: Path, question: str | None) -> list[Example]:
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        fields = reader.fieldnames or []
        label_col = next((c for c in _LABEL_COLUMNS if c in fields), None)
        if "text" not in fields or label_col is None:
            raise ExampleIndexError(
                f"{path}: a CSV of examples needs a header with 'text' and 'label' columns "
                f"(found {fields})"
            )
        out = []
        for line, row in enumerate(reader, start=2):
            text, label = (row.get("text") or "").strip(), (row.get(label_col) or "").strip()
            if not text or not label:
                raise ExampleIndexError(f"{path}:{line}: empty text or {label_col}")
            out.append(Example(text, label, question))
    return out


def _read_jsonl(path: Path, question: str | None) -> list[Example]:
    from clef_tools.protocol._jsonl import jsonl_objects
    from clef_tools.protocol._render import render_state

    out = []
    for line_no, row in jsonl_objects(path, ExampleIndexError):
        if "text" in row and "label" in row:
            if not isinstance(row["text"], str) or not isinstance(row["label"], str):
                raise ExampleIndexError(f"{path}:{line_no}: text and label are strings")
            out.append(Example(row["text"], row["label"], question))
            continue
        gold, questions = row.get("gold"), row.get("questions")
        if not isinstance(gold, dict) or not isinstance(questions, dict) or "state" not in row:
            raise ExampleIndexError(
                f"{path}:{line_no}: expected {{'text', 'label'}} or a System One request "
                "with 'state', 'questions' and 'gold'"
            )
        text = render_state(row["state"])
        for qid, answer in gold.items():
            q = questions.get(qid)
            if not isinstance(q, dict) or q.get("type") != "choice":
                continue
            if question is not None and qid != question:
                continue
            if isinstance(answer, str):
                out.append(Example(text, answer, question))
    if not out:
        raise ExampleIndexError(f"{path}: no examples (choice answers) found")
    return out


def sample_per_label(examples: Sequence[Example], n: int, seed: int = 0) -> list[Example]:
    """At most `n` examples of each label, drawn with a fixed seed (for learning curves)."""
    by_label: dict[str, list[Example]] = {}
    for ex in examples:
        by_label.setdefault(ex.label, []).append(ex)
    rng = random.Random(seed)
    out: list[Example] = []
    for label in sorted(by_label):
        rows = by_label[label]
        out.extend(rows if len(rows) <= n else rng.sample(rows, n))
    return out


def build_index(
    examples: Iterable[Example],
    *,
    encoder: Any = None,
    into: ExampleIndex | None = None,
    progress: Callable[[int], None] | None = None,
) -> ExampleIndex:
    """Embed `examples` and add them to `into` (or a new index); refits the temperature."""
    from clef_tools.backends.embedding._encoder import open_encoder

    rows = list(examples)
    if encoder is None:
        encoder = open_encoder()
    index = into if into is not None else ExampleIndex(encoder.model_id, encoder.dim)
    index.check_encoder(encoder)
    if index.encoder_path is None and not encoder.bundled:
        index.encoder_path = str(encoder.path)
    texts, labels = [ex.text for ex in rows], [ex.label for ex in rows]
    questions = [ex.question for ex in rows]
    index.check_rows(texts, labels, questions)  # before the slow part
    index.add(texts, labels, encoder.embed(texts, progress=progress), questions)
    index.refit_temperature()
    return index
