"""A stand-in for the Clef release's `joint_schema_model.py`, for tests only.

It follows the published module's interface (model card "Usage"; wire notes §2.4–2.6;
written here, not copied): `load_release_model(model_path, device, dtype,
**from_pretrained_kwargs)` → `(ClefModel, processor)` with `processor.tokenizer`,
`encode_record(tokenizer, record, max_length, max_state_tokens, processor)` (pieces
tokenised separately, state truncated to fit, a schema too long raises `ValueError`,
choice options sorted by id), `collate_records(records, pad_token_id, device)`,
`ClefModel(batch)` → one list of 1-D logit tensors per record, aligned with
`encoded.questions[i].option_ids`, and `systemone(model, processor, request)` → the
release's own Jev-shaped answer (4-dp rounding, max-prob confidence). The head is much smaller than the real
`JointSchemaHead` but reads the same things: the instruction span, each option span,
the last token and the output-embedding rows of the option tokens.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from safetensors.torch import load_file
from torch import nn
from transformers import AutoModelForCausalLM, AutoTokenizer

SYSTEM = (
    "<|im_start|>system\nRead the complete state and schema. Decide every field jointly. "
    "Each answer must be exactly one of that field's allowed options.<|im_end|>\n"
    "<|im_start|>user\nSTATE:\n"
)
TAIL = "\n<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\nJOINT SCHEMA DECISIONS:"
NOUL_OPTIONS = [
    ("true", "The proposition is true or the answer is yes."),
    ("false", "The proposition is false or the answer is no."),
]
TYPE_IDS = {"noul": 0, "choice": 1, "score": 2}


@dataclass
class EncodedQuestion:
    question_id: str
    type: str
    option_ids: list[str]
    instruction_span: tuple[int, int]
    option_spans: list[tuple[int, int]]
    option_token_ids: list[list[int]]


@dataclass
class EncodedRecord:
    input_ids: list[int]
    questions: list[EncodedQuestion]
    image_features: list[list[float]] = field(default_factory=list)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _options(question: dict[str, Any]) -> list[tuple[str, Any]]:
    kind = question["type"]
    criteria = question.get("criteria")
    if kind == "noul":
        opts = dict(NOUL_OPTIONS)
        if isinstance(criteria, dict):
            opts.update({k: v for k, v in criteria.items() if v is not None})
        return [("true", opts["true"]), ("false", opts["false"])]
    if kind == "choice":
        assert isinstance(criteria, dict)
        return sorted(criteria.items())
    assert isinstance(criteria, list)
    return [(str(i), level) for i, level in enumerate(criteria)]


def encode_record(
    tokenizer: Any,
    record: dict[str, Any],
    max_length: int = 16384,
    max_state_tokens: int | None = None,
    processor: Any = None,
) -> EncodedRecord:
    def tok(text: str) -> list[int]:
        return list(tokenizer(text, add_special_tokens=False)["input_ids"])

    images = record.get("images") or []
    features = [processor.image_processor(image) for image in images] if images else []
    media = "<|vision_start|><|image_pad|><|vision_end|>" * len(images) + ("\n" if images else "")
    state = record["state"]
    state_text = state if isinstance(state, str) else _compact(state)

    schema: list[int] = tok("\n\nSCHEMA FIELDS:\n")
    spans: list[
        tuple[str, str, list[str], tuple[int, int], list[tuple[int, int]], list[list[int]]]
    ] = []
    for i, (qid, question) in enumerate(record["questions"].items()):
        schema += tok(f"\nFIELD {i}\nID: {qid}\nTYPE: {question['type']}\nINSTRUCTION: ")
        instruction = question.get("instructions") or qid
        ins_ids = tok(instruction if isinstance(instruction, str) else _compact(instruction))
        ins_span = (len(schema), len(schema) + len(ins_ids))
        schema += ins_ids + tok("\nALLOWED OPTIONS:\n")
        option_ids, option_spans, option_tokens = [], [], []
        for j, (oid, desc) in enumerate(_options(question)):
            payload = (
                {"option_id": oid} if desc is None else {"description": desc, "option_id": oid}
            )
            ids = tok(f"OPTION {j}: {_compact(payload)}\n")
            option_spans.append((len(schema), len(schema) + len(ids)))
            option_tokens.append(tok(oid))
            option_ids.append(oid)
            schema += ids
        schema += tok("END FIELD\n")
        spans.append((qid, question["type"], option_ids, ins_span, option_spans, option_tokens))
    head = tok(SYSTEM) + tok(media)
    tail = tok(TAIL)
    budget = max_length - len(head) - len(schema) - len(tail)
    if budget < 0:
        raise ValueError(
            f"schema needs {len(head) + len(schema) + len(tail)} tokens > {max_length}"
        )
    state_ids = tok(state_text)
    if max_state_tokens is not None:
        budget = min(budget, max_state_tokens)
    state_ids = state_ids[:budget]  # the release truncates silently
    offset = len(head) + len(state_ids)
    questions = [
        EncodedQuestion(
            qid,
            kind,
            oids,
            (ins[0] + offset, ins[1] + offset),
            [(a + offset, b + offset) for a, b in ospans],
            otoks,
        )
        for qid, kind, oids, ins, ospans, otoks in spans
    ]
    return EncodedRecord(head + state_ids + schema + tail, questions, features)


def collate_records(records: list[EncodedRecord], pad_token_id: int, device: Any) -> dict[str, Any]:
    width = max(len(r.input_ids) for r in records)
    ids = torch.full((len(records), width), pad_token_id, dtype=torch.long)
    mask = torch.zeros((len(records), width), dtype=torch.long)
    for i, r in enumerate(records):
        ids[i, : len(r.input_ids)] = torch.tensor(r.input_ids)
        mask[i, : len(r.input_ids)] = 1
    return {"input_ids": ids.to(device), "attention_mask": mask.to(device), "records": records}


class JointSchemaHead(nn.Module):
    def __init__(self, hidden_size: int, width: int) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(hidden_size)
        self.question = nn.Linear(hidden_size, width)
        self.option = nn.Linear(hidden_size, width)
        self.lexical = nn.Linear(hidden_size, width)
        self.image = nn.Linear(3, width)
        self.type_embedding = nn.Embedding(3, width)
        self.logit_scale = nn.Parameter(torch.tensor(2.0))

    def forward(
        self, hidden: torch.Tensor, output_embeddings: torch.Tensor, records: list[EncodedRecord]
    ) -> list[list[torch.Tensor]]:
        hidden = self.norm(hidden)
        out = []
        for row, record in enumerate(records):
            h = hidden[row]
            last = h[len(record.input_ids) - 1]
            image: torch.Tensor | float = (
                self.image(torch.tensor(record.image_features, dtype=h.dtype, device=h.device)).sum(
                    0
                )
                if record.image_features
                else 0.0
            )
            logits: list[torch.Tensor] = []
            for q in record.questions:
                a, b = q.instruction_span
                field_vec = (
                    self.question(h[a:b].mean(0))
                    + self.question(last)
                    + self.type_embedding.weight[TYPE_IDS[q.type]]
                    + image
                )
                opts = torch.stack(
                    [
                        self.option(h[s:e].mean(0))
                        + self.lexical(output_embeddings[torch.tensor(t, device=h.device)].mean(0))
                        for (s, e), t in zip(q.option_spans, q.option_token_ids, strict=True)
                    ]
                )
                logits.append(
                    self.logit_scale.exp()
                    * nn.functional.cosine_similarity(opts, field_vec[None], dim=-1)
                )
            out.append(logits)
        return out


class ClefModel(nn.Module):
    def __init__(self, backbone: Any, head: JointSchemaHead) -> None:
        super().__init__()
        self.backbone = backbone
        self.head = head

    def forward(self, batch: dict[str, Any]) -> list[list[torch.Tensor]]:
        hidden = self.backbone.model(
            input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]
        ).last_hidden_state
        logits: list[list[torch.Tensor]] = self.head(
            hidden, self.backbone.get_output_embeddings().weight, batch["records"]
        )
        return logits


class StandInImageProcessor:
    """Mean RGB of an image (the real processor turns it into vision-tower patches)."""

    def __call__(self, image: Any) -> list[float]:
        from PIL import ImageStat

        return [channel / 255.0 for channel in ImageStat.Stat(image.convert("RGB")).mean]


class StandInProcessor:
    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self.image_processor = StandInImageProcessor()


def load_release_model(
    model_path: str | Path,
    device: Any = "cuda",
    dtype: torch.dtype = torch.bfloat16,
    **from_pretrained_kwargs: Any,
) -> tuple[ClefModel, StandInProcessor]:
    path = Path(model_path)
    backbone = AutoModelForCausalLM.from_pretrained(
        path, dtype=dtype, device_map={"": str(device)}, **from_pretrained_kwargs
    )
    backbone.config.use_cache = False
    head = JointSchemaHead(**json.loads((path / "joint_head_config.json").read_text()))
    head.load_state_dict(load_file(str(path / "joint_head.safetensors")), strict=True)
    head.to(device=device, dtype=dtype)
    tokenizer = AutoTokenizer.from_pretrained(
        path, local_files_only=from_pretrained_kwargs.get("local_files_only", False)
    )
    return ClefModel(backbone, head).eval(), StandInProcessor(tokenizer)


def _round(value: float) -> float:
    return round(float(value), 4)


def systemone(model: ClefModel, processor: Any, request: dict[str, Any]) -> dict[str, Any]:
    """Answer one wire request the way the release does (§2.6): validate the few things it
    checks, encode, one forward pass, per-question softmax, values rounded to 4 dp."""
    if not isinstance(request.get("model"), str):
        raise ValueError("model must be a string")
    if "state" not in request:
        raise ValueError("state is required")
    questions = request.get("questions")
    if not isinstance(questions, dict) or not questions:
        raise ValueError("questions must be a non-empty object")
    for qid, question in questions.items():
        if question.get("type") not in TYPE_IDS:
            raise ValueError(f"{qid}: unknown type {question.get('type')!r}")
        if question["type"] in ("choice", "score") and not question.get("criteria"):
            raise ValueError(f"{qid}: criteria must not be empty")
    tokenizer = processor.tokenizer
    encoded = encode_record(tokenizer, request, processor=processor)
    device = next(model.parameters()).device
    batch = collate_records([encoded], tokenizer.pad_token_id, device)
    with torch.inference_mode():
        logits = model(batch)[0]
    answers: dict[str, Any] = {}
    for q, row in zip(encoded.questions, logits, strict=True):
        probs = dict(zip(q.option_ids, row.float().softmax(-1).tolist(), strict=True))
        if q.type == "noul":
            answers[q.question_id] = {"type": "noul", "noul": _round(probs["true"])}
        elif q.type == "choice":
            best = max(probs, key=probs.__getitem__)
            answers[q.question_id] = {
                "type": "choice",
                "choice": best,
                "confidence": _round(probs[best]),
                "probabilities": {k: _round(v) for k, v in probs.items()},
            }
        else:
            levels = questions[q.question_id]["criteria"]
            answers[q.question_id] = {
                "type": "score",
                "score": _round(sum(int(k) * v for k, v in probs.items())),
                "confidence": _round(max(probs.values())),
                "legend": {str(i): level for i, level in enumerate(levels)},
                "probabilities": {k: _round(v) for k, v in probs.items()},
            }
    return {
        "model": request["model"],
        "answers": answers,
        "usage": {"input_tokens": len(encoded.input_ids), "output_tokens": 0},
    }
