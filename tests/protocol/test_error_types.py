"""Every clef-tools error is also the langchain-core error LangChain's retry logic reads
(`is_retryable`), so a bad request is never retried and a rate limit is."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core import exceptions as lc

import clef_tools as ct
from clef_tools.protocol._errors import FieldIssue


@pytest.mark.parametrize(
    ("error", "lc_type", "retryable"),
    [
        (
            ct.RequestValidationError([FieldIssue(("state",), "bad")]),
            lc.ModelInvalidRequestError,
            False,
        ),
        (ct.StateTooLongError(9000, 4096), lc.ContextOverflowError, False),
        (ct.UnsupportedInputError("state[0]", "no images"), lc.ModelInvalidRequestError, False),
        (ct.ModelUnavailableError("no weights"), lc.ModelNotFoundError, False),
        (ct.MissingExtraError("x", "local", "torch"), lc.ModelNotFoundError, False),
        (ct.BackendError("forward pass failed"), lc.ModelError, False),
        (ct.AuthenticationError("bad key", status=401), lc.ModelAuthenticationError, False),
        (ct.RateLimitError("slow down", status=429), lc.ModelRateLimitError, True),
        (ct.QuotaExceededError("spent", status=429, code=4006), lc.ModelRateLimitError, False),
        (ct.RemoteTimeoutError("no answer"), lc.ModelTimeoutError, True),
        (ct.RemoteError("upstream down", status=503), lc.ModelAPIError, True),
        (ct.RemoteError("refused", status=400), lc.ModelAPIError, False),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, Exception) else None,
)
def test_each_error_is_the_matching_langchain_error(
    error: Exception, lc_type: type[Exception], retryable: bool
) -> None:
    assert isinstance(error, lc_type) and isinstance(error, ct.ClefError)
    assert error.is_retryable is retryable  # type: ignore[attr-defined]


def test_old_bases_still_hold() -> None:
    """Code that caught ValueError / RuntimeError / ImportError keeps working."""
    assert issubclass(ct.RequestValidationError, ValueError)
    assert issubclass(ct.UnsupportedInputError, ValueError)
    assert issubclass(ct.BackendError, RuntimeError)
    assert issubclass(ct.MissingExtraError, ImportError)


async def test_langchain_model_surfaces_raise_the_langchain_error_for_a_bad_request() -> None:
    """Through the LangChain surface, a malformed request is a ModelInvalidRequestError
    (not retried), naming the field, before any model runs."""
    from langchain_core.decisions import Noul

    from clef_tools.testing import InstantDecider
    from langchain_clef import ClefDecisionModel

    model = ClefDecisionModel(decider=InstantDecider())
    with pytest.raises(lc.ModelInvalidRequestError, match="questions"):
        await model.ainvoke({"state": "hello", "questions": {"": Noul(instructions="?")}})


def test_every_bad_file_or_setting_is_a_config_error_naming_it(tmp_path: Path) -> None:
    """A calibration, an example index, a review store, a policy: each deliberate refusal
    is inside the ClefError tree (and still a ValueError, as before)."""
    from clef_tools import (
        Calibration,
        ClefError,
        ConfigError,
        ExampleIndex,
        ExampleIndexError,
        GatePolicy,
        PolicyError,
        ReviewError,
        ReviewStore,
    )

    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ConfigError, match=r"bad\.json"):
        Calibration.load(str(bad))
    with pytest.raises(ExampleIndexError):
        ExampleIndex.load(bad)
    store = tmp_path / "reviews.jsonl"
    store.write_text('{"not": "a review"}\n')
    with pytest.raises(ReviewError):
        ReviewStore(store)
    with pytest.raises(PolicyError, match="escalate_at"):
        GatePolicy().tightened(escalate_at=0.99)
    for kind in (ExampleIndexError, ReviewError, PolicyError):
        assert issubclass(kind, ConfigError) and issubclass(kind, ClefError)
        assert issubclass(kind, ValueError)
