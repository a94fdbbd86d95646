"""Calibration: the temperature maths, the file, the fit, and the round trip on a real model
(`clef-tools eval` → `calibrate` → a backend that applies it, on SmolLM2's forward passes)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from _paths import ROOT
from langchain_core.decisions import Noul

from clef_tools import (
    BackendInfo,
    CalibratedDecider,
    Calibration,
    ReadoutDecider,
    evaluate,
    fit_calibration,
    load_decider,
    response_to_wire,
)
from clef_tools._fitting import fit_platt
from clef_tools.backends.compose._calibration import default_calibration
from clef_tools.cli import main
from clef_tools.evaluation._metrics import nll
from clef_tools.evaluation._run import Outcome, read_predictions


def test_temperature_rescales_like_dividing_the_logits() -> None:
    cal = Calibration(id="t", temperatures={"noul": 2.0})
    # sqrt(0.8) = 2 sqrt(0.2): the halved logits give 2/3 vs 1/3
    assert cal.apply("noul", [0.8, 0.2]) == pytest.approx([2 / 3, 1 / 3])
    logits = [1.0, -0.5, 0.25]
    probs = [math.exp(v) / sum(math.exp(u) for u in logits) for v in logits]
    want = [math.exp(v / 3) / sum(math.exp(u / 3) for u in logits) for v in logits]
    assert Calibration(temperatures={"choice": 3.0}).apply("choice", probs) == pytest.approx(want)
    # the argmax never moves, and an untouched type passes through
    assert cal.apply("choice", [0.1, 0.9]) == [0.1, 0.9]


def test_the_most_specific_temperature_wins() -> None:
    cal = Calibration(
        temperatures={"choice": 2.0}, tiers={"embedding": {"choice": 3.0}}, questions={"q": 4.0}
    )
    assert cal.temperature("choice") == 2.0
    assert cal.temperature("choice", tier="embedding") == 3.0
    assert cal.temperature("choice", tier="lm") == 2.0
    assert cal.temperature("choice", tier="embedding", qid="q") == 4.0


def test_file_round_trip_and_bad_files(tmp_path: Path) -> None:
    cal = Calibration(
        id="c1",
        temperatures={"noul": 1.5},
        tiers={"lm": {"choice": 0.8}},
        model="m",
        backend="readout",
        fitted_on=("a.jsonl",),
    )
    cal.save(tmp_path / "c.json")
    assert Calibration.load(tmp_path / "c.json") == cal
    (tmp_path / "bad.json").write_text(json.dumps({"temperatures": {"noul": -1}}))
    with pytest.raises(ValueError, match=r"temperatures\.noul"):
        Calibration.load(tmp_path / "bad.json")
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(ValueError, match="cannot read calibration"):
        Calibration.load(tmp_path / "broken.json")


def test_fit_cools_an_overconfident_model() -> None:
    # says 0.95 but is right 7 times in 10: the NLL-optimal temperature is > 1 and brings the
    # stated confidence to ~0.7
    outcomes = [
        Outcome(f"i{i}", "q", "noul", ["true", "false"], [0.95, 0.05], 0 if i % 10 < 7 else 1)
        for i in range(100)
    ]
    cal = fit_calibration(outcomes, id="fit")
    t = cal.temperatures["noul"]
    assert t > 1
    assert cal.apply("noul", [0.95, 0.05])[0] == pytest.approx(0.7, abs=0.01)
    after = [cal.apply("noul", o.probabilities) for o in outcomes]
    assert nll(after, [o.gold for o in outcomes]) < nll(
        [o.probabilities for o in outcomes], [o.gold for o in outcomes]
    )
    with pytest.raises(ValueError, match="fewer than 20"):
        fit_calibration(outcomes[:5], id="few")


def test_a_yes_no_bias_shifts_the_log_odds_after_the_temperature() -> None:
    # log-odds of [0.5, 0.5] are 0; + ln 3 gives 3:1
    cal = Calibration(temperatures={"noul": 2.0}, biases={"noul": math.log(3)})
    assert cal.apply("noul", [0.5, 0.5]) == pytest.approx([0.75, 0.25])
    # 0.8/0.2 is log-odds ln 4; halved is ln 2; + ln 3 is ln 6 → 6/7
    assert cal.apply("noul", [0.8, 0.2]) == pytest.approx([6 / 7, 1 / 7])
    # a bias can flip the answer; it never touches choices or scores
    assert Calibration(biases={"noul": -2.0}).apply("noul", [0.6, 0.4])[0] < 0.5
    assert Calibration(biases={"noul": -2.0}).apply("choice", [0.6, 0.4]) == [0.6, 0.4]
    # a question's own bias wins over the type's; example tiers bring their own calibration
    both = Calibration(biases={"noul": 1.0, "q": -1.0})
    assert both.bias("noul", qid="q") == -1.0 and both.bias("noul", qid="r") == 1.0
    assert both.bias("noul", tier="examples") == 0.0


def test_platt_fit_recovers_a_known_slope_and_bias() -> None:
    # yes-rates drawn exactly from sigmoid(0.5 x + 1): the maximum-likelihood fit is that
    # line (up to the rounding of the counts), i.e. temperature 2 and bias 1
    odds: list[float] = []
    yes: list[bool] = []
    for x in (-4.0, -2.0, -1.0, 0.0, 1.0, 2.0, 4.0):
        k = round(1000 / (1 + math.exp(-(0.5 * x + 1))))
        odds += [x] * 1000
        yes += [True] * k + [False] * (1000 - k)
    t, b = fit_platt(odds, yes)
    assert t == pytest.approx(2.0, rel=0.02) and b == pytest.approx(1.0, abs=0.02)


def test_fit_learns_a_models_lean_to_yes() -> None:
    # the model's log-odds are the truth's plus 2 (it leans to "yes"): a temperature alone
    # cannot undo that, a bias of about -2 does, and NLL and accuracy both improve
    outcomes = []
    for i in range(400):
        true_odds = (i % 21 - 10) / 2.5
        p_true = 1 / (1 + math.exp(-true_odds))
        gold = 0 if (i * 0.6180339887) % 1 < p_true else 1
        p = 1 / (1 + math.exp(-(true_odds + 2)))
        outcomes.append(Outcome(f"i{i}", "q", "noul", ["true", "false"], [p, 1 - p], gold))
    cal = fit_calibration(outcomes, id="lean")
    assert cal.biases["noul"] == pytest.approx(-2.0, abs=0.5)
    assert cal.temperatures["noul"] == pytest.approx(1.0, abs=0.3)
    golds = [o.gold for o in outcomes]
    after = [cal.apply("noul", o.probabilities) for o in outcomes]
    assert nll(after, golds) < nll([o.probabilities for o in outcomes], golds)
    right = sum((a[0] >= 0.5) == (g == 0) for a, g in zip(after, golds, strict=True))
    raw_right = sum((o.probabilities[0] >= 0.5) == (o.gold == 0) for o in outcomes)
    assert right > raw_right
    plain = fit_calibration(outcomes, id="plain", noul_bias=False)
    assert not plain.biases and "noul" in plain.temperatures


def test_calibrate_cli_fits_a_bias_unless_told_not_to(tmp_path: Path) -> None:
    # a model whose log-odds are the truth's plus 2, as an uncalibrated run's predictions
    preds = tmp_path / "lean.predictions.jsonl"
    lines = []
    for i in range(200):
        true_odds = (i % 21 - 10) / 2.5
        gold = 0 if (i * 0.6180339887) % 1 < 1 / (1 + math.exp(-true_odds)) else 1
        p = 1 / (1 + math.exp(-(true_odds + 2)))
        outcome = Outcome(f"i{i}", "q", "noul", ["true", "false"], [p, 1 - p], gold)
        lines.append(json.dumps(outcome.__dict__))
    preds.write_text("\n".join(lines) + "\n")
    with_bias, without = tmp_path / "b.json", tmp_path / "t.json"
    assert main(["calibrate", "--predictions", str(preds), "--out", str(with_bias)]) == 0
    assert (
        main(["calibrate", "--predictions", str(preds), "--out", str(without), "--no-noul-bias"])
        == 0
    )
    assert Calibration.load(with_bias).biases["noul"] < -1
    assert Calibration.load(without).biases == {}


def test_bias_files_round_trip_and_bad_biases_are_refused(tmp_path: Path) -> None:
    cal = Calibration(id="b", temperatures={"noul": 1.2}, biases={"noul": -0.7, "q": 0.3})
    cal.save(tmp_path / "b.json")
    assert Calibration.load(tmp_path / "b.json") == cal
    for bad in ("NaN", 50, "0.5 "):  # not finite, out of range, not a number
        (tmp_path / "bad.json").write_text(
            json.dumps({"biases": {"noul": bad}}).replace('"NaN"', "NaN")
        )
        with pytest.raises(ValueError, match=r"biases\.noul"):
            Calibration.load(tmp_path / "bad.json")


def test_a_default_calibration_is_found_by_backend_and_model() -> None:
    shipped = sorted((ROOT / "clef_tools" / "calibrations").glob("*.json"))
    assert shipped, "the package ships at least one default calibration"
    data = json.loads(shipped[0].read_text())
    info = BackendInfo(kind=data["backend"], model_id=data["model"], supported_types=frozenset())
    found = default_calibration(info)
    assert found is not None and found.id == data["id"] and found.fitted_on
    other = BackendInfo(kind=data["backend"], model_id="another-model", supported_types=frozenset())
    assert default_calibration(other) is None


def _labelled(path: Path) -> Path:
    refunds = ["I want my money back", "Please refund the double charge", "Refund my order"]
    others = ["Where is my parcel?", "The app crashes on start", "How do I change my email?"]
    team = {
        "type": "choice",
        "instructions": "Team?",
        "criteria": {
            "billing": "money, refunds",
            "shipping": "parcels",
            "tech": "bugs and crashes",
        },
    }
    gold_team = ["billing"] * 3 + ["shipping", "tech", "tech"]
    refund = {"type": "noul", "instructions": "Is the customer asking for a refund?"}
    lines = []
    for i in range(24):
        k = i % 6
        text = (refunds + others)[k] + f" (ticket {i})"
        lines.append(
            {
                "id": f"t{i}",
                "state": text,
                "questions": {"refund": refund, "team": team},
                "gold": {"refund": k < 3, "team": gold_team[k]},
            }
        )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.mark.slow
def test_eval_calibrate_and_apply_round_trip(smollm2: ReadoutDecider, tmp_path: Path) -> None:
    data = _labelled(tmp_path / "tickets.jsonl")
    out = tmp_path / "eval"
    args = ["--model", "smollm2", "--dtype", "fp32", "--calibration", "none", "--quiet"]
    assert main(["eval", str(data), "--out", str(out), *args]) == 0
    summary = json.loads((out / "tickets.json").read_text())
    assert summary["requests"] == 24 and summary["backend"]["calibration"] is None
    assert set(summary["by_type"]) == {"noul", "choice"}
    assert summary["by_type"]["noul"]["n"] == 24 and summary["latency_ms"]["p50"] > 0
    for png in ("tickets.reliability.png", "tickets.coverage.png"):
        assert (out / png).read_bytes().startswith(b"\x89PNG")
    raw = read_predictions(out / "tickets.predictions.jsonl")
    direct = smollm2.decide(
        "Refund my order (ticket 2)",
        {"refund": Noul(instructions="Is the customer asking for a refund?")},
    )
    assert raw[4].probabilities[0] == pytest.approx(direct.nouls["refund"].noul, abs=1e-6)

    cal_path = tmp_path / "cal.json"
    pred = str(out / "tickets.predictions.jsonl")
    assert main(["calibrate", "--predictions", pred, "--out", str(cal_path)]) == 0
    cal = Calibration.load(cal_path)
    assert cal.id == "cal" and set(cal.temperatures) == {"noul", "choice"}
    assert cal.model == smollm2.model_id and cal.fitted_on == ("tickets.predictions.jsonl",)

    calibrated = load_decider("smollm2", dtype="fp32", calibration=cal_path)
    assert isinstance(calibrated, CalibratedDecider) and calibrated.info().calibration == "cal"
    item = json.loads(data.read_text().splitlines()[4])
    got = calibrated.decide(item["state"], item["questions"])
    assert got.calibration == "cal"  # type: ignore[attr-defined]
    assert response_to_wire(got)["calibration"] == "cal"
    want = cal.apply("noul", raw[8].probabilities)  # item 4's refund question
    assert got.nouls["refund"].noul == pytest.approx(want[0], abs=1e-6)

    # re-scoring the raw run under the calibration gives what a live calibrated run gives
    live = evaluate(calibrated, data)
    rescored = tmp_path / "rescored"
    assert (
        main(
            [
                "eval",
                "--predictions",
                pred,
                "--calibration",
                str(cal_path),
                "--out",
                str(rescored),
                "--no-plots",
            ]
        )
        == 0
    )
    again = json.loads((rescored / "tickets.cal.json").read_text())
    assert again["by_type"]["noul"]["nll"] == pytest.approx(
        live.summary()["by_type"]["noul"]["nll"], abs=1e-6
    )
    # latency is the raw run's, as it measured it (calibration costs microseconds)
    first = json.loads((out / "tickets.json").read_text())
    assert again["latency_ms"] == first["latency_ms"]
    # off means off
    plain = load_decider("smollm2", dtype="fp32", calibration="none")
    assert plain.decide(item["state"], item["questions"]).calibration is None  # type: ignore[attr-defined]


def test_eval_reports_bad_data_with_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"state": "x", "questions": {"q": {"type": "noul", "instructions": "?"}}, '
        '"gold": {"q": true}}\n{"state": "x", "questions": {}, "gold": {"z": 1}}\n'
    )
    assert main(["eval", str(bad), "--model", "smollm2", "--quiet"]) == 2
    assert "bad.jsonl:2: gold.z names no question" in capsys.readouterr().err


def test_the_calibration_is_named_over_http(smollm2: ReadoutDecider) -> None:
    import httpx
    from _loopback import serving

    from clef_tools import create_app

    decider = CalibratedDecider(smollm2, Calibration(id="c1", temperatures={"noul": 2.0}))
    body: dict[str, Any] = {
        "state": "parcel late",
        "questions": {"q": {"type": "noul", "instructions": "Late?"}},
    }
    with serving(create_app(decider)) as url:
        models = httpx.get(f"{url}/v1/models", timeout=60).json()
        answer = httpx.post(f"{url}/v1/systemone", json=body, timeout=120).json()
    assert models["models"][0]["calibration"] == "c1" and answer["calibration"] == "c1"
    raw = smollm2.decide(body["state"], body["questions"]).nouls["q"].noul
    assert answer["answers"]["q"]["noul"] == pytest.approx(
        Calibration(temperatures={"noul": 2.0}).apply("noul", [raw, 1 - raw])[0], abs=1e-6
    )
