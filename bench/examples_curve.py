"""Learning curve of the example tier on BANKING77 (issue 15), beside plain nearest-neighbour voting.

For each size (1, 3, 10 examples per intent, and the whole train split) it builds an index
from the train split with `build_index` (what `clef-tools fit --per-label N` runs), times the
build, and measures the example tier through the eval harness (`evaluate`, as `clef-tools
eval` does) on the test split. The baseline is plain 1-nearest-neighbour voting over the
same index's embeddings (no descriptions, no top-m mean, no temperature). BANKING77:
PolyAI, CC-BY-4.0 (../shared/data/banking77). Writes bench/results/examples-curve.json and
docs/examples-curve.png.

    .venv/bin/python bench/examples_curve.py [--limit N] [--sizes 1,3,10,all]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from clef_tools import EmbeddingDecider
from clef_tools.backends.embedding import build_index, open_encoder, read_examples, sample_per_label
from clef_tools.evaluation import banking77_folder, evaluate, load_eval_items, summarise

HERE = Path(__file__).parent
BANKING = banking77_folder()
TEST = Path("clef-data/banking77-test.jsonl")


def knn_baseline(index: Any, items: list[Any], encoder: Any) -> float:
    """Plain 1-NN voting: the label of the single most similar example."""
    import numpy as np

    texts = [str(item.state) for item in items]
    vectors = encoder.embed(texts)
    nearest = np.argmax(vectors @ index.vectors.T, axis=1)
    right = [index.labels[j] == item.gold["intent"] for j, item in zip(nearest, items, strict=True)]
    return float(np.mean(right))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=None, help="test items (default all 3080)")
    parser.add_argument("--sizes", default="1,3,10,all")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "examples-curve.json")
    args = parser.parse_args()
    if not TEST.exists():
        raise SystemExit(f"{TEST} missing: run `clef-tools data banking77 --out clef-data` first")
    train = read_examples(BANKING / "train.csv")
    items = load_eval_items(TEST, args.limit)
    encoder = open_encoder()
    rows = []
    for size in args.sizes.split(","):
        chosen = train if size == "all" else sample_per_label(train, int(size), seed=0)
        start = time.perf_counter()
        index = build_index(chosen, encoder=encoder)
        build_s = time.perf_counter() - start
        path = Path(f"/tmp/examples-curve-{size}.clef")
        index.save(path)
        summary = summarise(evaluate(EmbeddingDecider(examples=index), items))
        choice = summary["by_type"]["choice"]
        rows.append(
            {
                "per_label": size,
                "examples": index.count,
                "build_s": round(build_s, 1),
                "index_bytes": path.stat().st_size,
                "temperature": index.temperature,
                "accuracy": choice["accuracy"],
                "macro_f1": choice["macro_f1"],
                "ece": choice["ece"],
                "latency_ms": summary["latency_ms"],
                "knn_1nn_accuracy": knn_baseline(index, items, encoder),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    result = {
        "data": "BANKING77 test (PolyAI, CC-BY-4.0); examples from its train split",
        "items": len(items),
        "encoder": encoder.model_id,
        "machine": summary["machine"],
        "rows": rows,
    }
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    plot(result, Path("docs/examples-curve.png"))


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result["rows"]
    xs = [r["examples"] / 77 for r in rows]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(xs, [r["accuracy"] for r in rows], "o-", label="example tier (clef-tools)")
    ax.plot(xs, [r["knn_1nn_accuracy"] for r in rows], "s--", label="plain 1-NN voting")
    ax.set_xscale("log")
    ax.set_xlabel("examples per intent (log)")
    ax.set_ylabel("accuracy")
    ax.set_title(f"BANKING77 test ({result['items']} items), {result['encoder']}")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
