"""The tool-call gate: policy, evidence, risk model and human reviews."""

from clef_tools.gate._gate import GateDecision, RiskInputs, ToolGate, gate_state
from clef_tools.gate._pending import PendingCall, PendingReviews
from clef_tools.gate._policy import DEFAULT_GATE_QUESTIONS, RISK_QUESTIONS, GatePolicy, Verdict
from clef_tools.gate._reviews import Review, ReviewError, ReviewStore
from clef_tools.gate._risk import (
    DEFAULT_RISK_MODEL,
    RiskModel,
    load_risk_model,
    logit,
    risk_features,
)

__all__ = [
    "DEFAULT_GATE_QUESTIONS",
    "DEFAULT_RISK_MODEL",
    "RISK_QUESTIONS",
    "GateDecision",
    "GatePolicy",
    "PendingCall",
    "PendingReviews",
    "Review",
    "ReviewError",
    "ReviewStore",
    "RiskInputs",
    "RiskModel",
    "ToolGate",
    "Verdict",
    "gate_state",
    "load_risk_model",
    "logit",
    "risk_features",
]
