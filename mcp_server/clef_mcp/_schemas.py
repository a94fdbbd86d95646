"""Output schemas of the MCP tools; `decide` returns the protocol's `SystemOneResponse`.

Returning these gives every tool an `outputSchema` and `structuredContent` for free, and
the SDK checks each result against its schema before it leaves the server.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from clef_tools.protocol import Probability, SystemOneResponse


class DecideResult(SystemOneResponse):
    """A System One response (the protocol's own model: the same shape `serve` answers)."""


class RouteResult(BaseModel):
    choice: str = Field(description="the chosen option")
    confidence: Probability
    probabilities: dict[str, Probability]
    uncertain: bool = Field(description="confidence is below the caller's min_confidence")
    min_confidence: Probability
    model: str


class GateResult(BaseModel):
    verdict: Literal["allow", "escalate", "deny"] = Field(
        description="allow: run it; escalate: ask the user first; deny: do not run it"
    )
    risk: Probability | None = Field(
        description="probability that the call is unsafe; null if the scorer failed"
    )
    probabilities: dict[str, Probability] = Field(
        description="P(yes) per risk question (empty when decided without the model)"
    )
    escalate_at: Probability
    deny_at: Probability
    reason: str
    model: str | None
    error: str | None = Field(
        description="why the scorer gave no answer (the verdict then fails closed)"
    )
    tier: str = Field(
        description="fast: decided from evidence and reviews, no model pass; model; max; error"
    )
    evidence: dict[str, float] = Field(
        default_factory=dict, description="what the call shows about itself (features)"
    )
    reviews: dict[str, float] | None = Field(
        default=None, description="how past human reviews of similar calls weighed in"
    )
    risk_model: str | None = None
    seconds: float | None = None
    effect: dict[str, Any] | None = Field(
        default=None,
        description="what the call does: effects (kind, reach, reversible, high_impact) and "
        "where that reading came from (annotations, name, shell, sql)",
    )
    licence: dict[str, Any] | None = Field(
        default=None,
        description="what the user's own words license: effects asked for, prohibited, amounts",
    )
    stakes: str | None = Field(default=None, description="the rule the effect and the licence met")
    review_token: str | None = Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="with an escalate verdict, when the server takes reviews: pass it to "
        "record_review to ask the user and keep their answer (valid once, for an hour)",
    )


class ReviewResult(BaseModel):
    recorded: bool = Field(description="false when the user declined to answer")
    tool: str
    decision: Literal["approve", "reject"] | None = Field(
        description="the user's answer (null: none was given)"
    )
    reviews_of_tool: dict[str, int] = Field(
        default_factory=dict, description="this tool's reviews by decision"
    )


class ModelInfo(BaseModel):
    status: Literal["loading", "ready", "failed"] = Field(
        description="the model loads in the background after the server starts; the "
        "other fields are filled once it is ready"
    )
    error: str | None = Field(default=None, description="why loading failed")
    loading_seconds: float | None = None
    backend: str | None = None
    model: str | None = None
    source: str
    dtype: str | None = None
    max_context_tokens: int | None = None
    calibration: str | None = None
    contextual_calibration: list[str] = Field(default_factory=list)
    examples: dict[str, Any] | None = Field(
        default=None,
        description="the example index answers come from, if any: labels and counts, "
        "embedding model, source file",
    )
    limits: dict[str, Any]
    gate: dict[str, Any] | None = None
