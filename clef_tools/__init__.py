"""clef-tools: decision models (state + typed questions → probabilities) for agents.

The public surface is re-exported here; implementation lives in private `_modules`.
"""

from clef_tools.backends._calibration import CalibratedDecider, Calibration, fit_temperature
from clef_tools.backends._cascade import CascadeDecider, with_examples
from clef_tools.backends._decider import (
    BackendInfo,
    ClefResponse,
    Decider,
    RequestScores,
    TieredResponse,
)
from clef_tools.backends._embedding import EmbeddingDecider
from clef_tools.backends._factory import load_decider
from clef_tools.backends._release import ClefReleaseDecider
from clef_tools.backends._result_cache import CachedDecider
from clef_tools.evaluation._calibrate import fit_calibration
from clef_tools.evaluation._datasets import build_dataset
from clef_tools.evaluation._run import EvalReport, evaluate, load_eval_items
from clef_tools.examples import ExampleIndex, ExampleIndexError, build_index, read_examples
from clef_tools.gate import (
    DEFAULT_GATE_QUESTIONS,
    GateDecision,
    GatePolicy,
    ReviewError,
    ReviewStore,
    ToolGate,
    Verdict,
)
from clef_tools.hosted._hosted import HostedDecider
from clef_tools.hosted._retry import RetryPolicy
from clef_tools.hosted._systemone_client import SystemOneClient
from clef_tools.hosted._workers_ai import WorkersAIClient
from clef_tools.local._load import load_readout
from clef_tools.local._models import ModelSource, resolve_model
from clef_tools.local._readout import ReadoutDecider
from clef_tools.request._confidence import (
    UpstreamChoiceAnswer,
    UpstreamScoreAnswer,
    choice_confidence,
    score_confidence,
)
from clef_tools.request._errors import (
    AuthenticationError,
    BackendError,
    ClefError,
    FieldIssue,
    ModelUnavailableError,
    QuotaExceededError,
    RateLimitError,
    RemoteError,
    RemoteTimeoutError,
    RequestValidationError,
    StateTooLongError,
    UnsupportedInputError,
)
from clef_tools.request._limits import LIMITS
from clef_tools.request._render import canonical_json, render_state
from clef_tools.request._validation import DecisionRequest, validate_request
from clef_tools.request._wire import parse_request, response_from_wire, response_to_wire
from clef_tools.serving._http_guard import AccessPolicy, GuardMiddleware
from clef_tools.serving._http_run import ConnectionLimits, run_app
from clef_tools.serving._server import create_app, serve, warn_if_exposed

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_GATE_QUESTIONS",
    "LIMITS",
    "AccessPolicy",
    "AuthenticationError",
    "BackendError",
    "BackendInfo",
    "CachedDecider",
    "CalibratedDecider",
    "Calibration",
    "CascadeDecider",
    "ClefError",
    "ClefReleaseDecider",
    "ClefResponse",
    "ConnectionLimits",
    "Decider",
    "DecisionRequest",
    "EmbeddingDecider",
    "EvalReport",
    "ExampleIndex",
    "ExampleIndexError",
    "FieldIssue",
    "GateDecision",
    "GatePolicy",
    "GuardMiddleware",
    "HostedDecider",
    "ModelSource",
    "ModelUnavailableError",
    "QuotaExceededError",
    "RateLimitError",
    "ReadoutDecider",
    "RemoteError",
    "RemoteTimeoutError",
    "RequestScores",
    "RequestValidationError",
    "RetryPolicy",
    "ReviewError",
    "ReviewStore",
    "StateTooLongError",
    "SystemOneClient",
    "TieredResponse",
    "ToolGate",
    "UnsupportedInputError",
    "UpstreamChoiceAnswer",
    "UpstreamScoreAnswer",
    "Verdict",
    "WorkersAIClient",
    "__version__",
    "build_dataset",
    "build_index",
    "canonical_json",
    "choice_confidence",
    "create_app",
    "evaluate",
    "fit_calibration",
    "fit_temperature",
    "load_decider",
    "load_eval_items",
    "load_readout",
    "parse_request",
    "read_examples",
    "render_state",
    "resolve_model",
    "response_from_wire",
    "response_to_wire",
    "run_app",
    "score_confidence",
    "serve",
    "validate_request",
    "warn_if_exposed",
    "with_examples",
]
