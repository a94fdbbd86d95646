"""The metric maths of `clef-tools eval`, each against a value worked out by hand."""

from __future__ import annotations

import math

import pytest

from clef_tools.evaluation._metrics import (
    accuracy,
    auroc,
    automatable_share,
    brier,
    coverage_curve,
    ece,
    macro_f1,
    nll,
    percentile,
    reliability_bins,
    spearman,
)


def test_accuracy_is_the_share_of_argmax_hits() -> None:
    # argmax 0, 1, 0 against gold 0, 0, 1: one hit
    assert accuracy([[0.7, 0.3], [0.2, 0.8], [0.6, 0.4]], [0, 0, 1]) == pytest.approx(1 / 3)


def test_macro_f1_averages_over_gold_and_predicted_labels() -> None:
    # a: tp 1, fp 1, fn 1 -> 0.5; b: tp 0 -> 0; c: tp 1 -> 1
    assert macro_f1(["a", "b", "a", "c"], ["a", "a", "b", "c"]) == pytest.approx(0.5)


def test_ece_uses_fifteen_equal_width_bins() -> None:
    # 0.95 falls in bin 14 (accuracy 1/2), 0.55 in bin 8 (accuracy 1): each gap 0.45, half
    # the items each
    assert ece([0.95, 0.95, 0.55, 0.55], [True, False, True, True]) == pytest.approx(0.45)
    bins = reliability_bins([0.95, 0.95, 0.55, 0.55], [True, False, True, True])
    assert len(bins) == 15 and bins[14][2] == 2 and bins[8][2] == 2
    # bins are (lo, hi]: exactly 1/15 belongs to the first bin, and 0 does too
    assert reliability_bins([1 / 15, 0.0], [True, True])[0][2] == 2
    # a perfectly calibrated set has no gap
    assert ece([0.5, 0.5], [True, False]) == pytest.approx(0.0)


def test_brier_multiclass_and_binary() -> None:
    # (0.7-1)^2 + 0.2^2 + 0.1^2
    assert brier([[0.7, 0.2, 0.1]], [0]) == pytest.approx(0.14)
    # noul: (p_yes - y)^2 with gold "no"
    assert brier([[0.8, 0.2]], [1], binary=True) == pytest.approx(0.64)


def test_nll_is_mean_negative_log_probability_of_gold() -> None:
    assert nll([[0.5, 0.5], [0.25, 0.75]], [0, 0]) == pytest.approx(1.5 * math.log(2))
    # a zero probability is floored, not infinite
    assert math.isfinite(nll([[1.0, 0.0]], [1]))


def test_spearman_with_and_without_ties() -> None:
    # d = 0, 1, 1, 0: 1 - 6 * 2 / (4 * 15)
    assert spearman([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)
    # ranks 1.5, 1.5, 3 vs 1, 2, 3: cov 1.5 / sqrt(1.5 * 2)
    assert spearman([1, 1, 2], [1, 2, 3]) == pytest.approx(1.5 / math.sqrt(3))
    assert math.isnan(spearman([1, 1], [1, 2]))


def test_auroc_counts_ties_as_half() -> None:
    # positives 0.9, 0.4; negatives 0.5, 0.4: wins 1 + 1 + 0 + 0.5 of 4
    assert auroc([0.9, 0.4, 0.5, 0.4], [True, True, False, False]) == pytest.approx(0.625)
    assert math.isnan(auroc([0.9, 0.1], [True, True]))


def test_automatable_share_and_coverage_curve() -> None:
    conf, ok = [0.9, 0.8, 0.7, 0.6], [True, True, False, True]
    assert coverage_curve(conf, ok) == [
        (0.9, 0.25, 1.0),
        (0.8, 0.5, 1.0),
        (0.7, 0.75, pytest.approx(2 / 3)),
        (0.6, 1.0, 0.75),
    ]
    assert automatable_share(conf, ok, 0.01) == 0.5
    assert automatable_share(conf, ok, 0.3) == 1.0
    assert automatable_share([0.9], [False], 0.05) == 0.0
    # tied confidences are one threshold: both items or neither
    assert automatable_share([0.9, 0.9], [True, False], 0.01) == 0.0


def test_percentile_interpolates_like_numpy() -> None:
    assert percentile([4, 1, 3, 2], 50) == pytest.approx(2.5)
    assert percentile([1, 2, 3, 4], 95) == pytest.approx(3.85)


def test_mismatched_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="equally long"):
        accuracy([[1.0]], [0, 0])
    with pytest.raises(ValueError, match="non-empty"):
        ece([], [])
