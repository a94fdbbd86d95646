"""clef-tools: decision models (state + typed questions → probabilities) for agents.

The public surface is re-exported here; implementation lives in private `_modules`.
"""

from clef_tools._calibration import Calibration, fit_temperature
from clef_tools._confidence import choice_confidence, score_confidence
from clef_tools._decider import Decider, RequestScores
from clef_tools._errors import (
    BackendError,
    ClefError,
    FieldIssue,
    ModelUnavailableError,
    RequestValidationError,
    StateTooLongError,
    UnsupportedInputError,
)
from clef_tools._factory import load_decider
from clef_tools._gate import DEFAULT_GATE_QUESTIONS, GateDecision, GatePolicy, ToolGate, Verdict
from clef_tools._limits import LIMITS
from clef_tools._models import ModelSource, resolve_model
from clef_tools._readout import ReadoutDecider
from clef_tools._render import canonical_json, render_state
from clef_tools._validation import DecisionRequest, validate_request
from clef_tools._wire import parse_request, response_to_wire

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_GATE_QUESTIONS",
    "LIMITS",
    "BackendError",
    "Calibration",
    "ClefError",
    "Decider",
    "DecisionRequest",
    "FieldIssue",
    "GateDecision",
    "GatePolicy",
    "ModelSource",
    "ModelUnavailableError",
    "ReadoutDecider",
    "RequestScores",
    "RequestValidationError",
    "StateTooLongError",
    "ToolGate",
    "UnsupportedInputError",
    "Verdict",
    "__version__",
    "canonical_json",
    "choice_confidence",
    "fit_temperature",
    "load_decider",
    "parse_request",
    "render_state",
    "resolve_model",
    "response_to_wire",
    "score_confidence",
    "validate_request",
]
