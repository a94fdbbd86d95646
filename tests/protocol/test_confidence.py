from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.decisions import Choice, ChoiceAnswer, Noul, Score, ScoreAnswer

from clef_tools import choice_confidence, score_confidence
from clef_tools.protocol._confidence import build_answer, normalise

probs = st.lists(st.floats(min_value=0, max_value=1, allow_nan=False), min_size=2, max_size=12)


def test_choice_formula_matches_typesafe() -> None:
    assert choice_confidence([0.5, 0.5]) == 0.0
    assert choice_confidence([1.0, 0.0, 0.0]) == 1.0
    # (K·peak − 1)/(K − 1) with K=4, peak=0.7
    assert choice_confidence([0.7, 0.1, 0.1, 0.1]) == pytest.approx((4 * 0.7 - 1) / 3)


def test_score_formula_matches_documented_examples() -> None:
    assert score_confidence([0.0, 0.95, 0.05]) == pytest.approx(0.925)
    assert round(score_confidence([0.05, 0.7, 0.25]), 2) == 0.55
    assert score_confidence([1 / 3] * 3) == pytest.approx(0.0, abs=1e-12)
    assert score_confidence([0.0, 0.0, 1.0]) == 1.0


def test_zero_vector_is_uniform() -> None:
    assert normalise([0.0, 0.0]) == [0.5, 0.5]
    assert choice_confidence([0.0, 0.0, 0.0]) == 0.0


@given(probs)
def test_confidences_stay_in_unit_interval(p: list[float]) -> None:
    for value in (choice_confidence(p), score_confidence(p)):
        assert 0.0 <= value <= 1.0
        assert not math.isnan(value)


def test_build_answer_shapes() -> None:
    noul = build_answer(Noul(instructions="x"), [0.8, 0.2])
    assert noul.type == "noul" and noul.noul == pytest.approx(0.8)
    choice = build_answer(
        Choice(instructions="x", criteria={"a": None, "b": None, "c": None}), [0.1, 0.7, 0.2]
    )
    assert isinstance(choice, ChoiceAnswer)
    assert choice.choice == "b" and list(choice.probabilities) == ["a", "b", "c"]
    assert choice.confidence == pytest.approx((3 * 0.7 - 1) / 2)
    score = build_answer(Score(instructions="x", criteria=["lo", "mid", "hi"]), [0.05, 0.7, 0.25])
    assert isinstance(score, ScoreAnswer)
    assert score.score == pytest.approx(1.2)
    assert score.legend == {0: "lo", 1: "mid", 2: "hi"}
    with pytest.raises(ValueError, match="3 options but 2"):
        build_answer(Choice(instructions="x", criteria={"a": 1, "b": 2, "c": 3}), [0.5, 0.5])
