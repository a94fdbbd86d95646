""" "None of these" by calibrated similarity (issue 15, item 5), measured on BANKING77.

BANKING77 (PolyAI, CC-BY-4.0) has no out-of-scope class, so one is made: 10 of the 77 intents
(seeded) are held out of the index entirely and their test rows become out-of-scope inputs;
the question lists the other 67 intents plus a `none_of_these` option. The index (train rows
of the 67 intents) scores `none_of_these` at its leave-one-out floor (`ExampleIndex.none_floor`);
the comparison is the same index without a floor, where that option is scored by its
description like any other. Reports, through the eval harness: accuracy overall, recall of
"none" on out-of-scope rows, accuracy and false-"none" rate on in-scope rows.

Labelled out-of-scope examples (issue 26, item 6): 5 further intents (seeded, disjoint from
the 10) leave the question too, and 20 of their train rows join the index labelled
`none_of_these`, as an operator would label a few stray messages. The same test rows are
scored by the index with and without those rows: they must never lower the recall of "none".
Writes bench/results/examples-none.json.

    .venv/bin/python bench/examples_none.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from clef_tools import EmbeddingDecider
from clef_tools.backends.embedding import build_index, read_examples
from clef_tools.evaluation import EvalItem, banking77_folder, cpu_info, evaluate, summarise

HERE = Path(__file__).parent
BANKING = banking77_folder()
NONE = "none_of_these"


def _row(index: Any, items: list[EvalItem]) -> dict[str, float]:
    report = evaluate(EmbeddingDecider(examples=index), items)
    summary = summarise(report)
    picks = {
        o.item: o.options[max(range(len(o.options)), key=o.probabilities.__getitem__)]
        for o in report.outcomes
    }
    gold = {item.id: item.gold["intent"] for item in items}
    oos_ids = [i for i in picks if i.startswith("oos")]
    in_ids = [i for i in picks if i.startswith("in")]
    return {
        "accuracy": summary["by_type"]["choice"]["accuracy"],
        "ece": summary["by_type"]["choice"]["ece"],
        "none_recall_out_of_scope": sum(picks[i] == NONE for i in oos_ids) / len(oos_ids),
        "accuracy_in_scope": sum(picks[i] == gold[i] for i in in_ids) / len(in_ids),
        "false_none_in_scope": sum(picks[i] == NONE for i in in_ids) / len(in_ids),
    }


def _items(in_scope: list[str], held_out: set[str], rows: list[Any]) -> list[EvalItem]:
    """The question over `in_scope` plus the none option, asked of each test row; a row of
    a held-out intent is gold "none"."""
    question: dict[str, Any] = {
        "type": "choice",
        "instructions": "Which banking intent does this customer message express?",
        "criteria": {**dict.fromkeys(in_scope), NONE: "none of the above intents"},
    }
    return [
        EvalItem(
            id=f"{'oos' if ex.label in held_out else 'in'}-{i}",
            state=ex.text,
            questions={"intent": question},
            gold={"intent": NONE if ex.label in held_out else ex.label},
        )
        for i, ex in enumerate(rows)
    ]


def _labelled_out_of_scope(
    labels: list[str], held_out: set[str], rng: random.Random, train: list[Any], test: list[Any]
) -> dict[str, dict[str, float]]:
    """62 intents in the question; 20 train rows of 5 other intents labelled out-of-scope."""
    strays = set(rng.sample([label for label in labels if label not in held_out], 5))
    in_scope = [label for label in labels if label not in held_out | strays]
    kept = [ex for ex in train if ex.label in set(in_scope)]
    labelled = [
        type(ex)(ex.text, NONE) for ex in rng.sample([ex for ex in train if ex.label in strays], 20)
    ]
    oos = [ex for ex in test if ex.label in held_out]
    ins = rng.sample([ex for ex in test if ex.label in set(in_scope)], len(oos))
    items = _items(in_scope, held_out, oos + ins)
    out = {}
    for name, rows in (("without_labelled_oos", kept), ("with_labelled_oos", kept + labelled)):
        out[name] = _row(build_index(rows), items)
        print(name, json.dumps(out[name]), flush=True)
    return out


def main() -> None:
    labels = json.loads((BANKING / "categories.json").read_text())
    rng = random.Random(0)
    held_out = set(rng.sample(labels, 10))
    in_scope = [label for label in labels if label not in held_out]
    all_train = read_examples(BANKING / "train.csv")
    train = [ex for ex in all_train if ex.label in set(in_scope)]
    test = read_examples(BANKING / "test.csv")
    oos = [ex for ex in test if ex.label in held_out]
    ins = rng.sample([ex for ex in test if ex.label not in held_out], len(oos))
    items = _items(in_scope, held_out, oos + ins)
    index = build_index(train)
    bare = index.copy()
    bare.none_floor = None
    rows = {}
    for name, chosen in (("floor", index), ("description_only", bare)):
        rows[name] = _row(chosen, items)
        print(name, json.dumps(rows[name]), flush=True)
    labelled = _labelled_out_of_scope(labels, held_out, rng, all_train, test)
    result = {
        "data": "BANKING77 test (CC-BY-4.0); 10 intents held out as out-of-scope",
        "held_out": sorted(held_out),
        "items": {"out_of_scope": len(oos), "in_scope": len(ins)},
        "none_floor": index.none_floor,
        "rows": rows,
        "labelled_out_of_scope": {
            "setup": "62 intents in the question; 20 train rows of 5 further intents in the "
            "index labelled none_of_these; the same 10 held-out intents as out-of-scope",
            "rows": labelled,
        },
        "machine": {"cpu": cpu_info()},
    }
    (HERE / "results" / "examples-none.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
