"""clef-tools: decision models (state + typed questions → probabilities) for agents.

The public surface is re-exported here; implementation lives in private `_modules`.
Every name is imported on first use, so `import clef_tools` costs milliseconds and needs
none of the optional extras: a user of the hosted clients never loads torch, and a name
whose extra is missing says which one to install when it is touched.
"""

from __future__ import annotations

# first of all: under `python -m` the working directory must not shadow any import
import clef_tools._safe_path  # noqa: F401

# isort: split

from typing import TYPE_CHECKING

from clef_tools._extras import lazy_names

if TYPE_CHECKING:
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
        PendingReviews,
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
        MissingExtraError,
        ModelUnavailableError,
        PolicyError,
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

_WHERE: dict[str, str] = {
    "AccessPolicy": "clef_tools.serving._http_guard",
    "AuthenticationError": "clef_tools.request._errors",
    "BackendError": "clef_tools.request._errors",
    "BackendInfo": "clef_tools.backends._decider",
    "CachedDecider": "clef_tools.backends._result_cache",
    "CalibratedDecider": "clef_tools.backends._calibration",
    "Calibration": "clef_tools.backends._calibration",
    "CascadeDecider": "clef_tools.backends._cascade",
    "ClefError": "clef_tools.request._errors",
    "ClefReleaseDecider": "clef_tools.backends._release",
    "ClefResponse": "clef_tools.backends._decider",
    "ConnectionLimits": "clef_tools.serving._http_run",
    "DEFAULT_GATE_QUESTIONS": "clef_tools.gate",
    "Decider": "clef_tools.backends._decider",
    "DecisionRequest": "clef_tools.request._validation",
    "EmbeddingDecider": "clef_tools.backends._embedding",
    "EvalReport": "clef_tools.evaluation._run",
    "ExampleIndex": "clef_tools.examples",
    "ExampleIndexError": "clef_tools.examples",
    "FieldIssue": "clef_tools.request._errors",
    "GateDecision": "clef_tools.gate",
    "GatePolicy": "clef_tools.gate",
    "GuardMiddleware": "clef_tools.serving._http_guard",
    "HostedDecider": "clef_tools.hosted._hosted",
    "LIMITS": "clef_tools.request._limits",
    "ModelSource": "clef_tools.local._models",
    "MissingExtraError": "clef_tools.request._errors",
    "ModelUnavailableError": "clef_tools.request._errors",
    "PolicyError": "clef_tools.request._errors",
    "QuotaExceededError": "clef_tools.request._errors",
    "RateLimitError": "clef_tools.request._errors",
    "ReadoutDecider": "clef_tools.local._readout",
    "RemoteError": "clef_tools.request._errors",
    "RemoteTimeoutError": "clef_tools.request._errors",
    "RequestScores": "clef_tools.backends._decider",
    "RequestValidationError": "clef_tools.request._errors",
    "RetryPolicy": "clef_tools.hosted._retry",
    "ReviewError": "clef_tools.gate",
    "ReviewStore": "clef_tools.gate",
    "PendingReviews": "clef_tools.gate",
    "StateTooLongError": "clef_tools.request._errors",
    "SystemOneClient": "clef_tools.hosted._systemone_client",
    "TieredResponse": "clef_tools.backends._decider",
    "ToolGate": "clef_tools.gate",
    "UnsupportedInputError": "clef_tools.request._errors",
    "UpstreamChoiceAnswer": "clef_tools.request._confidence",
    "UpstreamScoreAnswer": "clef_tools.request._confidence",
    "Verdict": "clef_tools.gate",
    "WorkersAIClient": "clef_tools.hosted._workers_ai",
    "build_dataset": "clef_tools.evaluation._datasets",
    "build_index": "clef_tools.examples",
    "canonical_json": "clef_tools.request._render",
    "choice_confidence": "clef_tools.request._confidence",
    "create_app": "clef_tools.serving._server",
    "evaluate": "clef_tools.evaluation._run",
    "fit_calibration": "clef_tools.evaluation._calibrate",
    "fit_temperature": "clef_tools.backends._calibration",
    "load_decider": "clef_tools.backends._factory",
    "load_eval_items": "clef_tools.evaluation._run",
    "load_readout": "clef_tools.local._load",
    "parse_request": "clef_tools.request._wire",
    "read_examples": "clef_tools.examples",
    "render_state": "clef_tools.request._render",
    "resolve_model": "clef_tools.local._models",
    "response_from_wire": "clef_tools.request._wire",
    "response_to_wire": "clef_tools.request._wire",
    "run_app": "clef_tools.serving._http_run",
    "score_confidence": "clef_tools.request._confidence",
    "serve": "clef_tools.serving._server",
    "validate_request": "clef_tools.request._validation",
    "warn_if_exposed": "clef_tools.serving._server",
    "with_examples": "clef_tools.backends._cascade",
}
"""Each public name and the private module that defines it."""


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
    "MissingExtraError",
    "ModelSource",
    "ModelUnavailableError",
    "PendingReviews",
    "PolicyError",
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

__getattr__, __dir__ = lazy_names(__name__, _WHERE, __all__)
