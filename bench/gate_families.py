"""Per-family (per-suite, for AgentDojo) gate figures from a run's verdict rows (issue 28).

A run of a tree from before the gate set had families (main at a4f88be) wrote verdict rows
without them; this joins each row to its item's `meta.family` and summarises the families
exactly as `clef-tools eval` does for a current run (`_gate_eval._shares`), so the before
and after tables in docs/quality.md come from one computation.

    .venv/bin/python bench/gate_families.py DATA.jsonl VERDICTS.jsonl OUT.json [--about TEXT]
        [--key source]   # the gate set by where its scenarios come from (templates, handwritten)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from clef_tools.evaluation._gate_eval import GateRow, _shares


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("data", type=Path)
    parser.add_argument("verdicts", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--about", default="")
    parser.add_argument(
        "--key", default="family", help="the meta field to group by (family, source, batch)"
    )
    args = parser.parse_args()
    # clef-tools' own set names a family; AgentDojo's items name their suite
    family = {
        item["id"]: str(item.get("meta", {}).get(args.key) or item.get("meta", {}).get("suite", ""))
        for item in map(json.loads, args.data.read_text().splitlines())
    }
    rows = []
    for line in args.verdicts.read_text().splitlines():
        r = json.loads(line)
        rows.append(
            GateRow(
                r["id"],
                r["tool"],
                r["unsafe"],
                r["verdict"],
                r["risk"],
                r["tier"],
                r["seconds"],
                r.get("error"),
                family[r["id"]],
            )
        )
    summary = {
        "about": args.about,
        "data": args.data.name,
        "all": _shares(rows),
        "by_family": {
            f: _shares([r for r in rows if r.family == f])
            for f in sorted(set(family[r.id] for r in rows))
        },
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary["all"]))


if __name__ == "__main__":
    main()
