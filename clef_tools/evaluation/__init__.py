"""Measuring decisions on labelled data: datasets, the eval run, metrics, reports, calibration
fits, the gate's evaluation.

`evaluate`, `load_eval_items`, `EvalReport`, `build_dataset` and `fit_calibration` are also
re-exported by `clef_tools`; the rest is public here for studies (`bench/`) built on the
same code as `clef-tools eval`."""

from typing import TYPE_CHECKING

from clef_tools._lazy import lazy_names

if TYPE_CHECKING:
    from clef_tools.evaluation._calibrate import fit_calibration
    from clef_tools.evaluation._datasets import (
        BANKING_QUESTION,
        banking77_folder,
        build_dataset,
        dataset_wheel,
    )
    from clef_tools.evaluation._gate_eval import item_evidence
    from clef_tools.evaluation._metrics import (
        accuracy,
        auroc,
        brier,
        ece,
        macro_f1,
        nll,
        percentile,
        spearman,
    )
    from clef_tools.evaluation._report import METRIC_COLUMNS, finite, format_table
    from clef_tools.evaluation._rescore import recalibrated, rescore
    from clef_tools.evaluation._run import (
        EvalItem,
        EvalReport,
        Outcome,
        cpu_info,
        evaluate,
        load_eval_items,
        machine_summary,
        read_predictions,
        summarise,
        type_metrics,
    )

_WHERE = {
    "BANKING_QUESTION": "clef_tools.evaluation._datasets",
    "EvalItem": "clef_tools.evaluation._run",
    "EvalReport": "clef_tools.evaluation._run",
    "METRIC_COLUMNS": "clef_tools.evaluation._report",
    "Outcome": "clef_tools.evaluation._run",
    "accuracy": "clef_tools.evaluation._metrics",
    "auroc": "clef_tools.evaluation._metrics",
    "banking77_folder": "clef_tools.evaluation._datasets",
    "brier": "clef_tools.evaluation._metrics",
    "build_dataset": "clef_tools.evaluation._datasets",
    "cpu_info": "clef_tools.evaluation._run",
    "dataset_wheel": "clef_tools.evaluation._datasets",
    "ece": "clef_tools.evaluation._metrics",
    "evaluate": "clef_tools.evaluation._run",
    "finite": "clef_tools.evaluation._report",
    "fit_calibration": "clef_tools.evaluation._calibrate",
    "format_table": "clef_tools.evaluation._report",
    "item_evidence": "clef_tools.evaluation._gate_eval",
    "load_eval_items": "clef_tools.evaluation._run",
    "machine_summary": "clef_tools.evaluation._run",
    "macro_f1": "clef_tools.evaluation._metrics",
    "nll": "clef_tools.evaluation._metrics",
    "percentile": "clef_tools.evaluation._metrics",
    "read_predictions": "clef_tools.evaluation._run",
    "recalibrated": "clef_tools.evaluation._rescore",
    "rescore": "clef_tools.evaluation._rescore",
    "spearman": "clef_tools.evaluation._metrics",
    "summarise": "clef_tools.evaluation._run",
    "type_metrics": "clef_tools.evaluation._run",
}
__all__ = [
    "BANKING_QUESTION",
    "METRIC_COLUMNS",
    "EvalItem",
    "EvalReport",
    "Outcome",
    "accuracy",
    "auroc",
    "banking77_folder",
    "brier",
    "build_dataset",
    "cpu_info",
    "dataset_wheel",
    "ece",
    "evaluate",
    "finite",
    "fit_calibration",
    "format_table",
    "item_evidence",
    "load_eval_items",
    "machine_summary",
    "macro_f1",
    "nll",
    "percentile",
    "read_predictions",
    "recalibrated",
    "rescore",
    "spearman",
    "summarise",
    "type_metrics",
]

__getattr__, __dir__ = lazy_names(__name__, _WHERE, __all__)
