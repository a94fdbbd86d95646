"""`clef-tools eval`, `clef-tools data` and `clef-tools calibrate`.

`eval` writes, for data `NAME.jsonl`, into `--out` (default `./clef-eval/`): `NAME.json` (the
summary: metrics per question type and tier, latency, backend, machine), `NAME.predictions.jsonl`
(one line per answered question: what `calibrate` and re-scoring read) and, with matplotlib,
`NAME.reliability.png` and `NAME.coverage.png`. `--predictions` re-scores an earlier
uncalibrated run under another calibration without running the model again: temperatures are
a pure function of the probabilities, so the numbers are exactly what a live run would give.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from clef_tools.cli.options import load_from_args, model_args
from clef_tools.evaluation._metrics import ece, nll
from clef_tools.evaluation._report import finite, format_table
from clef_tools.evaluation._rescore import raw_run_summary, recalibrated, rescore
from clef_tools.evaluation._run import (
    Outcome,
    evaluate,
    read_predictions,
    summarise,
    write_predictions,
)

__all__ = ["register"]


def register(sub: Any) -> None:
    ev = sub.add_parser("eval", help="measure a backend on labelled JSONL (metrics, plots)")
    ev.set_defaults(handler=_eval)
    ev.add_argument("data", nargs="?", help="labelled requests, one JSON object per line")
    model_args(ev)
    ev.add_argument("--out", type=Path, default=Path("clef-eval"), help="output folder")
    ev.add_argument(
        "--limit", type=int, default=None, help="a fixed random sample of N items (seed 0)"
    )
    ev.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    ev.add_argument(
        "--predictions",
        type=Path,
        default=None,
        help="re-score NAME.predictions.jsonl of an uncalibrated run under --calibration",
    )
    gate = ev.add_argument_group("gate sets (items with a `gate` call, e.g. `data agentdojo`)")
    gate.add_argument(
        "--risk-model",
        default="gate-embedded",
        help="the gate's risk model: a shipped name, a JSON file, or 'none' (highest P(yes))",
    )
    gate.add_argument("--reviews", type=Path, default=None, help="a review store (JSONL) to use")
    gate.add_argument(
        "--reviews-from",
        type=Path,
        default=None,
        help="labelled gate items to review first: each is judged, then approved if safe "
        "or rejected if not, as a user would",
    )
    gate.add_argument(
        "--reviews-per-tool", type=int, default=0, help="how many of them per tool (seed 0)"
    )

    data = sub.add_parser("data", help="convert a public dataset to eval JSONL")
    data.set_defaults(handler=_data)
    from clef_tools.evaluation._datasets import DATASETS

    data.add_argument("name", choices=sorted(DATASETS), help="the dataset")
    data.add_argument("--out", type=Path, default=Path("clef-data"), help="output folder")
    data.add_argument("--source", type=Path, default=None, help="local copy (banking77)")

    cal = sub.add_parser(
        "calibrate", help="fit temperatures (and yes/no biases) on labelled JSONL; write a file"
    )
    cal.set_defaults(handler=_calibrate)
    cal.add_argument("data", nargs="*", help="labelled train/dev JSONL files")
    model_args(cal)
    cal.add_argument("--out", type=Path, required=True, help="the calibration file to write")
    cal.add_argument("--id", default=None, help="calibration id (default: the file's stem)")
    cal.add_argument(
        "--limit", type=int, default=None, help="a fixed random sample of N items per file"
    )
    cal.add_argument("--per-question", action="store_true", help="also a temperature per id")
    cal.add_argument(
        "--no-noul-bias",
        dest="noul_bias",
        action="store_false",
        help="temperatures only: no yes/no bias (log-odds shift) is fitted",
    )
    cal.add_argument(
        "--predictions",
        type=Path,
        nargs="*",
        default=[],
        help="fit on predictions of uncalibrated `eval` runs instead of running the model",
    )


# -- eval ---------------------------------------------------------------------------------


def _eval(args: argparse.Namespace) -> int:
    if not args.no_plots:
        from clef_tools.evaluation._plots import require_matplotlib
        from clef_tools.protocol._errors import ConfigError, MissingExtraError

        try:
            require_matplotlib()  # before the model loads and the set is scored
        except MissingExtraError as exc:  # an option the install cannot honour: exit 2
            raise ConfigError(str(exc)) from exc
    args.out.mkdir(parents=True, exist_ok=True)
    if args.data and args.predictions is None:
        from clef_tools.evaluation._gate_eval import is_gate_data

        if is_gate_data(args.data):
            return _eval_gate(args)
    if args.predictions is not None:
        report = rescore(args.predictions, args.calibration)
        stem = args.predictions.name.removesuffix(".predictions.jsonl")
        stem += "." + (report.backend.get("calibration") or "none")
    else:
        if not args.data:
            raise ValueError("eval needs DATA.jsonl (or --predictions FILE)")
        decider = load_from_args(args, calibration=args.calibration)
        report = evaluate(decider, args.data, progress=not args.quiet, limit=args.limit)
        stem = Path(args.data).name.removesuffix(".jsonl")
    summary = summarise(report)
    (args.out / f"{stem}.json").write_text(json.dumps(finite(summary), indent=2) + "\n")
    if args.predictions is None:
        write_predictions(report, args.out / f"{stem}.predictions.jsonl")
    if not args.no_plots:
        from clef_tools.evaluation._plots import draw_plots

        draw_plots(report.outcomes, args.out, f"{stem} ({report.model})", prefix=f"{stem}.")
    _say(format_table(summary, title=f"{stem} · {report.model}"))
    if report.refused:
        sys.stderr.write(f"refused: {report.refused} of {report.requests} requests\n")
    return 0


def _eval_gate(args: argparse.Namespace) -> int:
    from clef_tools.evaluation import _gate_eval as g
    from clef_tools.gate import ReviewStore, ToolGate

    store = ReviewStore(args.reviews) if args.reviews is not None else None
    seeding = args.reviews_from is not None and args.reviews_per_tool > 0
    if seeding:
        store = store or ReviewStore()
    decider = load_from_args(args, calibration=args.calibration)
    risk_model = None if args.risk_model == "none" else args.risk_model
    gate = ToolGate(decider, risk_model=risk_model, reviews=store)
    if seeding:
        g.seed_reviews(gate, args.reviews_from, args.reviews_per_tool)
    report = g.evaluate_gate(gate, args.data, limit=args.limit, progress=not args.quiet)
    stem = Path(args.data).name.removesuffix(".jsonl")
    if seeding:
        stem += f".reviews-k{args.reviews_per_tool}"
    elif store is not None and len(store):
        stem += f".reviews{len(store)}"
    summary = g.summarise_gate(report)
    (args.out / f"{stem}.json").write_text(json.dumps(finite(summary), indent=2) + "\n")
    g.write_gate_rows(report, args.out / f"{stem}.verdicts.jsonl")
    if not args.no_plots:
        from clef_tools.evaluation._plots import draw_threshold_chart

        draw_threshold_chart(summary, args.out / f"{stem}.thresholds.png", f"{stem} · gate")
    _say(g.format_gate_table(summary, title=f"{stem} · {report.model}"))
    return 0


# -- data ---------------------------------------------------------------------------------


def _data(args: argparse.Namespace) -> int:
    from clef_tools.evaluation._datasets import DATASETS, build_dataset

    for path in build_dataset(args.name, args.out, source=args.source):
        lines = sum(1 for _ in path.open())
        _say(f"{path}  ({lines} items)")
    _say(f"licence: {DATASETS[args.name].licence}; source: {DATASETS[args.name].source}")
    return 0


# -- calibrate ----------------------------------------------------------------------------


def _calibrate(args: argparse.Namespace) -> int:
    from clef_tools.evaluation._calibrate import fit_calibration

    outcomes: list[Outcome] = []
    model = backend = None
    for path in args.predictions:
        outcomes += read_predictions(path)
        old = raw_run_summary(path)
        if old:
            model, backend = old.get("model"), old.get("backend", {}).get("kind")
    if args.data:
        _enough_to_fit(args.data, args.limit, already=outcomes)
        # fitted on raw probabilities, whatever the backend's default calibration is
        decider = load_from_args(args, calibration="none")
        model, backend = decider.model_id, decider.info().kind
        for path in args.data:
            report = evaluate(decider, path, progress=not args.quiet, limit=args.limit)
            outcomes += report.outcomes
    if not outcomes:
        raise ValueError("calibrate needs labelled DATA files or --predictions files")
    fitted_on = [Path(p).name for p in [*args.data, *args.predictions]]
    cal = fit_calibration(
        outcomes,
        id=args.id or args.out.stem,
        model=model,
        backend=backend,
        fitted_on=fitted_on,
        per_question=args.per_question,
        noul_bias=args.noul_bias,
    )
    cal.save(args.out)
    fitted = {k: v for k, v in cal.to_dict().items() if k in ("temperatures", "biases")}
    _say(f"wrote {args.out}: {json.dumps(fitted)}")
    for kind in sorted({o.type for o in outcomes}):
        group = [o for o in outcomes if o.type == kind]
        after = [recalibrated(o, cal) for o in group]
        _say(
            f"  {kind:<7} n={len(group):<5} NLL {_nll(group):.3f} -> {_nll(after):.3f}   "
            f"ECE {_ece(group):.3f} -> {_ece(after):.3f}  (on the fit data)"
        )
    return 0


def _enough_to_fit(data: list[str], limit: int | None, *, already: list[Outcome]) -> None:
    """Counted before the model runs: too few labelled questions of every type is an error
    now, not after minutes of scoring."""
    from clef_tools.evaluation._calibrate import MIN_ITEMS
    from clef_tools.evaluation._run import load_eval_items

    counts: dict[str, int] = {}
    for outcome in already:
        counts[outcome.type] = counts.get(outcome.type, 0) + 1
    for path in data:
        for item in load_eval_items(path, limit=limit):
            for qid, question in item.questions.items():
                if qid in item.gold:
                    kind = str(question.get("type", "")) if isinstance(question, dict) else ""
                    counts[kind] = counts.get(kind, 0) + 1
    if not any(n >= MIN_ITEMS for n in counts.values()):
        found = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "none"
        raise ValueError(
            f"calibrate needs at least {MIN_ITEMS} labelled questions of one type; the data "
            f"has {found}: label more items (or fit on several files together)"
        )


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")


def _nll(outs: list[Outcome]) -> float:
    return nll([o.probabilities for o in outs], [o.gold for o in outs])


def _ece(outs: list[Outcome]) -> float:
    return ece([o.confidence for o in outs], [o.correct for o in outs])
