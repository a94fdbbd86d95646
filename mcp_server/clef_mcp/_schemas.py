"""Output schemas of the MCP tools: the `/v1/systemone` answer shapes as pydantic models.

Returning these gives every tool an `outputSchema` and `structuredContent` for free, and
the SDK checks each result against its schema before it leaves the server.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, JsonValue

Probability = Annotated[float, Field(ge=0.0, le=1.0)]

# Present only when they apply (a cascade's tier; a hosted backend's own confidence).
Tier = Annotated[
    str | None,
    Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="which tier of a cascade decided: embedding, lm or embedding+lm",
    ),
]
UpstreamConfidence = Annotated[
    Probability | None,
    Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="the hosted server's own confidence (its formula), kept for audit",
    ),
]


class NoulOut(BaseModel):
    type: Literal["noul"] = "noul"
    noul: Probability = Field(description="P(yes)")
    tier: Tier = None


class ChoiceOut(BaseModel):
    type: Literal["choice"] = "choice"
    choice: str = Field(description="the most probable option")
    confidence: Probability = Field(description="(max p − 1/K)/(1 − 1/K)")
    probabilities: dict[str, Probability]
    tier: Tier = None
    upstream_confidence: UpstreamConfidence = None


class ScoreOut(BaseModel):
    type: Literal["score"] = "score"
    score: float = Field(description="expected level Σ i·pᵢ, fractional in 0..N-1")
    confidence: Probability
    legend: dict[str, JsonValue] = Field(description='level "0".."N-1" → its description')
    probabilities: dict[str, Probability]
    tier: Tier = None
    upstream_confidence: UpstreamConfidence = None


class Usage(BaseModel):
    input_tokens: int
    output_tokens: int


class DecideResult(BaseModel):
    """A System One response."""

    model: str
    answers: dict[str, Annotated[NoulOut | ChoiceOut | ScoreOut, Field(discriminator="type")]]
    usage: Usage


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
