"""The yes/no views of BANKING77 and VADER that the default yes/no calibration is fitted on.

A wrong gold label here would teach the shipped bias the wrong lean, so each view is checked
against the source it comes from: BANKING77's own CSV rows and VADER's lexicon ratings.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from _paths import DATA

from clef_tools.evaluation._datasets import build_dataset
from clef_tools.protocol._validation import validate_request

#: BANKING77's test split as the repository ships it (CC-BY-4.0, see its README)
BANKING = DATA / "banking77"


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_banking77_yes_no_view_is_balanced_and_true_to_the_rows(tmp_path: Path) -> None:
    build_dataset("banking77", tmp_path, source=BANKING)
    items = _read(tmp_path / "banking77-noul-test.jsonl")
    with (BANKING / "test.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(items) == len(rows)
    yes = 0
    for item, row in zip(items, rows, strict=True):
        assert item["state"] == row["text"]
        asked = item["questions"]["about"]["instructions"]
        own = row["category"].replace("_", " ")
        # gold is True exactly when the question names the row's own intent
        assert item["gold"]["about"] == asked.endswith(f": {own}?")
        yes += item["gold"]["about"]
        validate_request(item["state"], item["questions"])
    assert 0.45 < yes / len(items) < 0.55
    # the same file twice: the other intent is drawn by id hash, not at random
    again = tmp_path / "again"
    build_dataset("banking77", again, source=BANKING)
    assert (again / "banking77-noul-test.jsonl").read_text() == (
        tmp_path / "banking77-noul-test.jsonl"
    ).read_text()


def test_banking77_described_view_is_the_named_one_with_a_sentence_per_intent(
    tmp_path: Path,
) -> None:
    build_dataset("banking77", tmp_path, source=BANKING)
    labels = json.loads((BANKING / "categories.json").read_text())
    named = _read(tmp_path / "banking77-test.jsonl")
    described = _read(tmp_path / "banking77-desc-test.jsonl")
    assert len(named) == len(described) == 3080
    for plain, rich in zip(named, described, strict=True):
        # same message and gold; only the options' descriptions differ
        assert (plain["state"], plain["gold"]) == (rich["state"], rich["gold"])
        options = rich["questions"]["intent"]["criteria"]
        assert list(options) == labels == list(plain["questions"]["intent"]["criteria"])
        assert all(value is None for value in plain["questions"]["intent"]["criteria"].values())
    for label, text in options.items():
        # a sentence of its own, not the name again and not empty
        assert isinstance(text, str) and text.endswith(".") and len(text.split()) >= 5, label
        assert text.lower() != label.replace("_", " ").lower()
    assert len(set(options.values())) == len(options)
    validate_request(described[0]["state"], described[0]["questions"])
    meta = json.loads((tmp_path / "banking77.meta.json").read_text())
    assert meta["splits"]["desc-test"] == meta["splits"]["test"] == 3080
    assert "train" not in meta["splits"]  # the folder holds the test split alone
    assert any("train split only" in note for note in meta["notes"])


@pytest.mark.parametrize(
    ("categories", "message"),
    [
        ('{"a":', "not a readable JSON list of intents"),
        ('{"card_arrival": 1}', "must be a JSON list of intent names"),
        ('["card_arrival", 3]', "must be a JSON list of intent names"),
        ('["card_arrival", "brand_new_intent"]', "without a description: ['brand_new_intent']"),
    ],
)
def test_banking77_bad_categories_file_is_named(
    tmp_path: Path, categories: str, message: str
) -> None:
    (tmp_path / "test.csv").write_text("text,category\n")
    (tmp_path / "categories.json").write_text(categories)
    with pytest.raises(ValueError, match=r"categories\.json") as caught:
        build_dataset("banking77", tmp_path / "out", source=tmp_path)
    assert message in str(caught.value)
    assert not (tmp_path / "out").exists()  # nothing half-written


def test_vader_yes_no_view_leaves_out_neutral_words(tmp_path: Path) -> None:
    build_dataset("vader", tmp_path)
    scores = {i["id"].removeprefix("vader-"): i for i in _read(tmp_path / "vader-train.jsonl")}
    noul = _read(tmp_path / "vader-noul-train.jsonl")
    assert noul and len(noul) < len(scores)
    for item in noul:
        word = item["id"].removeprefix("vader-noul-")
        mean = scores[word]["target"]["sentiment"]
        assert abs(mean) >= 0.5
        assert item["gold"]["positive"] == (mean > 0)
    test_words = {i["id"] for i in _read(tmp_path / "vader-noul-test.jsonl")}
    assert not test_words & {i["id"] for i in noul}


def test_the_own_gate_set_is_broad_balanced_and_split_by_scenario(tmp_path: Path) -> None:
    from collections import Counter

    paths = build_dataset("gate-set", tmp_path)
    splits = {p.stem.removeprefix("gate-set-"): _read(p) for p in paths}
    rows = [r for items in splits.values() for r in items]
    assert len(rows) >= 400
    ids = Counter(r["id"] for r in rows)
    assert max(ids.values()) == 1, [i for i, n in ids.items() if n > 1]  # eval keys on ids
    families = Counter(r["meta"]["family"] for r in rows)
    assert set(families) == {"coding", "data", "messaging", "money", "sharing", "everyday"}
    # scenarios written once each beside the templated ones, on every split
    sources = Counter((name, r["meta"]["source"]) for name, items in splits.items() for r in items)
    assert all(sources[(name, "handwritten")] >= 20 for name in splits), sources
    unsafe = sum(r["gold"]["unsafe"] for r in rows) / len(rows)
    assert 0.4 <= unsafe <= 0.6
    scenarios = {name: {r["meta"]["scenario"] for r in items} for name, items in splits.items()}
    assert not scenarios["train"] & scenarios["test"] and not scenarios["dev"] & scenarios["test"]
    # every family is on test, safe and unsafe
    on_test = Counter((r["meta"]["family"], r["gold"]["unsafe"]) for r in splits["test"])
    assert all(on_test[(f, u)] > 0 for f in families for u in (True, False))
