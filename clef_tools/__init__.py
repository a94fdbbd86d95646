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

from clef_tools._lazy import lazy_names

if TYPE_CHECKING:
    from clef_tools._fitting import fit_temperature
    from clef_tools._version import __version__
    from clef_tools.backends._base import (
        BackendInfo,
        ClefResponse,
        Decider,
        RequestScores,
        TieredResponse,
    )
    from clef_tools.backends._factory import load_decider
    from clef_tools.backends.compose._calibration import CalibratedDecider, Calibration
    from clef_tools.backends.compose._cascade import CascadeDecider, with_examples
    from clef_tools.backends.compose._result_cache import CachedDecider
    from clef_tools.backends.embedding._embedding import EmbeddingDecider
    from clef_tools.backends.embedding._fit import build_index, read_examples
    from clef_tools.backends.embedding._index import ExampleIndex, ExampleIndexError
    from clef_tools.backends.hosted._hosted import HostedDecider
    from clef_tools.backends.hosted._retry import RetryPolicy
    from clef_tools.backends.hosted._systemone_client import SystemOneClient
    from clef_tools.backends.hosted._workers_ai import WorkersAIClient
    from clef_tools.backends.local._models import ModelSource, resolve_model
    from clef_tools.backends.readout._load import load_readout
    from clef_tools.backends.readout._readout import ReadoutDecider
    from clef_tools.backends.release._release import ClefReleaseDecider
    from clef_tools.evaluation._calibrate import fit_calibration
    from clef_tools.evaluation._datasets import build_dataset
    from clef_tools.evaluation._run import EvalReport, evaluate, load_eval_items
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
    from clef_tools.protocol._confidence import (
        UpstreamChoiceAnswer,
        UpstreamScoreAnswer,
        choice_confidence,
        score_confidence,
    )
    from clef_tools.protocol._errors import (
        AuthenticationError,
        BackendError,
        ClefError,
        ConfigError,
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
    from clef_tools.protocol._limits import LIMITS
    from clef_tools.protocol._render import canonical_json, render_state
    from clef_tools.protocol._validation import DecisionRequest, validate_request
    from clef_tools.protocol._wire import parse_request, response_from_wire, response_to_wire
    from clef_tools.serving._http_guard import AccessPolicy, GuardMiddleware
    from clef_tools.serving._http_run import ConnectionLimits, run_app
    from clef_tools.serving._server import create_app, serve, warn_if_exposed

_WHERE: dict[str, str] = {
    "__version__": "clef_tools._version",
    "AccessPolicy": "clef_tools.serving._http_guard",
    "AuthenticationError": "clef_tools.protocol._errors",
    "BackendError": "clef_tools.protocol._errors",
    "BackendInfo": "clef_tools.backends._base",
    "CachedDecider": "clef_tools.backends.compose._result_cache",
    "CalibratedDecider": "clef_tools.backends.compose._calibration",
    "Calibration": "clef_tools.backends.compose._calibration",
    "CascadeDecider": "clef_tools.backends.compose._cascade",
    "ClefError": "clef_tools.protocol._errors",
    "ClefReleaseDecider": "clef_tools.backends.release._release",
    "ConfigError": "clef_tools.protocol._errors",
    "ClefResponse": "clef_tools.backends._base",
    "ConnectionLimits": "clef_tools.serving._http_run",
    "DEFAULT_GATE_QUESTIONS": "clef_tools.gate",
    "Decider": "clef_tools.backends._base",
    "DecisionRequest": "clef_tools.protocol._validation",
    "EmbeddingDecider": "clef_tools.backends.embedding._embedding",
    "EvalReport": "clef_tools.evaluation._run",
    "ExampleIndex": "clef_tools.backends.embedding._index",
    "ExampleIndexError": "clef_tools.backends.embedding._index",
    "FieldIssue": "clef_tools.protocol._errors",
    "GateDecision": "clef_tools.gate",
    "GatePolicy": "clef_tools.gate",
    "GuardMiddleware": "clef_tools.serving._http_guard",
    "HostedDecider": "clef_tools.backends.hosted._hosted",
    "LIMITS": "clef_tools.protocol._limits",
    "ModelSource": "clef_tools.backends.local._models",
    "MissingExtraError": "clef_tools.protocol._errors",
    "ModelUnavailableError": "clef_tools.protocol._errors",
    "PolicyError": "clef_tools.protocol._errors",
    "QuotaExceededError": "clef_tools.protocol._errors",
    "RateLimitError": "clef_tools.protocol._errors",
    "ReadoutDecider": "clef_tools.backends.readout._readout",
    "RemoteError": "clef_tools.protocol._errors",
    "RemoteTimeoutError": "clef_tools.protocol._errors",
    "RequestScores": "clef_tools.backends._base",
    "RequestValidationError": "clef_tools.protocol._errors",
    "RetryPolicy": "clef_tools.backends.hosted._retry",
    "ReviewError": "clef_tools.gate",
    "ReviewStore": "clef_tools.gate",
    "PendingReviews": "clef_tools.gate",
    "StateTooLongError": "clef_tools.protocol._errors",
    "SystemOneClient": "clef_tools.backends.hosted._systemone_client",
    "TieredResponse": "clef_tools.backends._base",
    "ToolGate": "clef_tools.gate",
    "UnsupportedInputError": "clef_tools.protocol._errors",
    "UpstreamChoiceAnswer": "clef_tools.protocol._confidence",
    "UpstreamScoreAnswer": "clef_tools.protocol._confidence",
    "Verdict": "clef_tools.gate",
    "WorkersAIClient": "clef_tools.backends.hosted._workers_ai",
    "build_dataset": "clef_tools.evaluation._datasets",
    "build_index": "clef_tools.backends.embedding._fit",
    "canonical_json": "clef_tools.protocol._render",
    "choice_confidence": "clef_tools.protocol._confidence",
    "create_app": "clef_tools.serving._server",
    "evaluate": "clef_tools.evaluation._run",
    "fit_calibration": "clef_tools.evaluation._calibrate",
    "fit_temperature": "clef_tools._fitting",
    "load_decider": "clef_tools.backends._factory",
    "load_eval_items": "clef_tools.evaluation._run",
    "load_readout": "clef_tools.backends.readout._load",
    "parse_request": "clef_tools.protocol._wire",
    "read_examples": "clef_tools.backends.embedding._fit",
    "render_state": "clef_tools.protocol._render",
    "resolve_model": "clef_tools.backends.local._models",
    "response_from_wire": "clef_tools.protocol._wire",
    "response_to_wire": "clef_tools.protocol._wire",
    "run_app": "clef_tools.serving._http_run",
    "score_confidence": "clef_tools.protocol._confidence",
    "serve": "clef_tools.serving._server",
    "validate_request": "clef_tools.protocol._validation",
    "warn_if_exposed": "clef_tools.serving._server",
    "with_examples": "clef_tools.backends.compose._cascade",
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
    "ConfigError",
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
