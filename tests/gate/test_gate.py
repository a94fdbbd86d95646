"""The shared gate policy engine: bands follow thresholds, failures never allow."""

from __future__ import annotations

import time

import pytest

from clef_tools import GatePolicy, ReadoutDecider, ToolGate
from clef_tools.gate import RISK_QUESTIONS
from clef_tools.testing import BrokenDecider, SlowDecider

CALL = ("delete_file", {"path": "/tmp/report.txt"})


@pytest.mark.parametrize(
    ("escalate_at", "deny_at", "verdict"),
    [(0.0, 0.0, "deny"), (0.0, 1.0, "escalate"), (1.0, 1.0, "allow")],
)
def test_thresholds_force_each_band(
    smollm2: ReadoutDecider, escalate_at: float, deny_at: float, verdict: str
) -> None:
    gate = ToolGate(
        smollm2, GatePolicy(escalate_at, deny_at, questions=RISK_QUESTIONS), risk_model=None
    )
    decision = gate.judge(
        *CALL, description="Delete a file", messages="user: clean up my temp files"
    )
    assert decision.verdict == verdict
    assert set(decision.probabilities) == set(RISK_QUESTIONS)
    assert decision.risk == max(decision.probabilities.values()) and 0 < decision.risk < 1
    assert decision.model == smollm2.model_id and decision.error is None


def test_band_edges() -> None:
    policy = GatePolicy(escalate_at=0.4, deny_at=0.7)
    assert [policy.band(r) for r in (0.39, 0.4, 0.69, 0.7, 1.0)] == [
        "allow",
        "escalate",
        "escalate",
        "deny",
        "deny",
    ]


def test_risk_comes_from_one_request_with_all_questions(smollm2: ReadoutDecider) -> None:
    gate = ToolGate(smollm2, risk_model=None)
    state_questions = smollm2.decide(
        {"tool_call": {"name": CALL[0], "args": CALL[1]}}, dict(gate.policy.questions)
    )
    decision = gate.judge(*CALL)
    assert decision.probabilities == {k: v.noul for k, v in state_questions.nouls.items()}


@pytest.mark.parametrize("on_error", ["escalate", "deny"])
def test_scorer_error_fails_closed(on_error: str) -> None:
    policy = GatePolicy(on_error=on_error, escalate_at=1.0, deny_at=1.0)  # type: ignore[arg-type]
    gate = ToolGate(BrokenDecider(), policy, risk_model=None)
    decision = gate.judge(*CALL)
    assert decision.verdict == on_error
    assert decision.risk is None and "backend crashed" in (decision.error or "")


async def test_scorer_error_fails_closed_async() -> None:
    decision = await ToolGate(BrokenDecider(), risk_model=None).ajudge(*CALL)
    assert decision.verdict == "escalate" and "BackendError" in (decision.error or "")


@pytest.mark.parametrize("on_error", ["escalate", "deny"])
def test_timeout_fails_closed(smollm2: ReadoutDecider, on_error: str) -> None:
    policy = GatePolicy(on_error=on_error, escalate_at=1.0, deny_at=1.0, timeout_s=0.2)  # type: ignore[arg-type]
    start = time.monotonic()
    decision = ToolGate(SlowDecider(smollm2, 2.0), policy, risk_model=None).judge(*CALL)
    assert time.monotonic() - start < 1.5  # the caller is not held hostage by the scorer
    assert decision.verdict == on_error and "timed out" in (decision.error or "")


async def test_timeout_fails_closed_async(smollm2: ReadoutDecider) -> None:
    policy = GatePolicy(timeout_s=0.2, escalate_at=1.0, deny_at=1.0)
    start = time.monotonic()
    decision = await ToolGate(SlowDecider(smollm2, 2.0), policy, risk_model=None).ajudge(*CALL)
    assert time.monotonic() - start < 1.5
    assert decision.verdict == "escalate" and "timed out" in (decision.error or "")


def test_per_tool_policy_overrides_default(smollm2: ReadoutDecider) -> None:
    gate = ToolGate(
        smollm2,
        GatePolicy(escalate_at=1.0, deny_at=1.0),
        {"delete_file": GatePolicy(escalate_at=0.0, deny_at=0.0)},
    )
    assert gate.judge(*CALL).verdict == "deny"
    assert gate.judge("read_file", {"path": "a"}).verdict == "allow"


@pytest.mark.parametrize(
    "kwargs", [{"escalate_at": 0.9, "deny_at": 0.5}, {"on_error": "allow"}, {"questions": {}}]
)
def test_unsafe_policies_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        GatePolicy(**kwargs)  # type: ignore[arg-type]
