"""What ships is what the docs say: limits, bounds and the files each backend reads.

Each number here is the documented one, typed from the docs, so a change to a default has
to change the docs (and this file) on purpose.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clef_tools import LIMITS, PendingReviews, ReadoutDecider, ReviewStore, load_decider
from clef_tools.backends.compose._calibration import with_calibration
from clef_tools.gate import load_risk_model

ROOT = Path(__file__).resolve().parents[1]
USAGE = (ROOT / "docs" / "usage.md").read_text()
GATE = (ROOT / "docs" / "gate.md").read_text()


@pytest.mark.parametrize(
    ("key", "documented"),
    [
        ("questions_per_request", "| questions per request | 1–64 |"),
        ("choice_options_max", "| choice options | 2–255,"),
        ("score_levels_max", "| score levels | 2–10 |"),
        ("state_max_chars", "≤ 1,000,000 chars"),
        ("state_max_depth", "state ≤ 64 levels"),
        ("images_max", "| images | ≤ 4,"),
        ("question_text_max_chars", "question text ≤ 20,000 chars"),
        ("model_name_max_chars", "a name of ≤ 256 chars"),
    ],
)
def test_the_documented_limits_are_the_enforced_ones(key: str, documented: str) -> None:
    assert documented in USAGE
    number = re.findall(r"\d[\d,]*", documented)[-1].replace(",", "")
    assert LIMITS[key] == int(number)


def test_the_work_budget_and_review_bounds_are_the_documented_ones(
    smollm2: ReadoutDecider,
) -> None:
    assert "≤ 131,072 tokens per request" in USAGE
    assert ReadoutDecider(smollm2.model, smollm2.tokenizer, model_id="x").max_work_tokens == 131_072
    assert "200 reviews per tool (oldest dropped), 1,000 tools, 16 KiB per review" in GATE
    store = ReviewStore()
    assert (store.per_tool, store.max_tools) == (200, 1000)
    assert "valid for an hour, at most\n   1,024 pending" in GATE
    pending = PendingReviews()
    assert (pending.capacity, pending.ttl_s) == (1024, 3600.0)


def test_each_local_backend_opens_with_its_shipped_calibration(smollm2: ReadoutDecider) -> None:
    # SmolLM2 ships none: its answers go out as the readout gives them
    assert load_decider("smollm2", dtype="fp32").info().calibration is None
    assert with_calibration(smollm2, "default") is smollm2


@pytest.mark.embedded
def test_the_embedded_model_opens_with_its_shipped_calibration(embedded: ReadoutDecider) -> None:
    calibrated = with_calibration(embedded, "default")
    assert calibrated.calibration_id == "embedded-2026-12"


def test_the_gate_ships_its_risk_model_fitted_on_the_fitting_splits_only() -> None:
    model = load_risk_model()
    assert model.name == "gate-embedded" and "agentdojo dev" in model.fitted_on
    assert "gate set train+dev" in model.fitted_on and "test" not in model.fitted_on
    assert len(model.questions) == 1
