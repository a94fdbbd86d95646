"""Calibrations by id, shipped or retired, for bench scripts that read answers measured
under one of them. A retired default is kept as its file under bench/results/calibrations/
(copied from the commit that shipped it), so its values live in one place."""

from __future__ import annotations

import json
import math
from pathlib import Path

from clef_tools import Calibration
from clef_tools.backends.compose import CALIBRATION_FORMAT

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "clef_tools" / "calibrations"
RETIRED = ROOT / "bench" / "results" / "calibrations"


def calibration_by_id(calibration_id: str) -> Calibration:
    """`none`, a shipped calibration's id, or a retired one's."""
    if calibration_id == "none":
        return Calibration()
    for path in [*sorted(SHIPPED.glob("*.json")), RETIRED / f"{calibration_id}.json"]:
        # the folder also ships other files (the gate's risk model): calibrations only
        if path.exists() and json.loads(path.read_text()).get("format") == CALIBRATION_FORMAT:
            cal = Calibration.load(path)
            if cal.id == calibration_id:
                return cal
    raise ValueError(f"no calibration with id {calibration_id} is shipped or kept in {RETIRED}")


def uncalibrated_p_yes(p: float, cal: Calibration, qid: str | None = None) -> float:
    """The P(yes) the backend gave before `cal` turned it into `p`: undoes its yes/no bias
    and temperature exactly (`logit p = logit p_raw / T + b`)."""
    t, b = cal.temperature("noul", qid=qid), cal.bias("noul", qid=qid)
    raw = (math.log(p / (1 - p)) - b) * t
    return 1 / (1 + math.exp(-raw))
