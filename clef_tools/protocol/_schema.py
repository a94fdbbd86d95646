"""The `/v1/systemone` answer, spelled once as pydantic models: `response_to_wire` builds
it, `clef-tools serve` publishes its JSON Schema in the OpenAPI document, the MCP `decide`
tool returns it as structured output. Schema names follow the served TypeSafe spec
(`SystemOneResponse`, `NoulAnswer`, ...), so clients generated for hosted Jev read ours.

Extra fields (`tier`, `upstream_confidence`, `calibration`) appear only when they apply;
the spec tells consumers to ignore response fields they do not know.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

__all__ = [
    "AnyAnswer",
    "ChoiceAnswer",
    "NoulAnswer",
    "Probability",
    "ScoreAnswer",
    "SystemOneResponse",
    "Usage",
]

Probability = Annotated[float, Field(ge=0.0, le=1.0)]

UpstreamConfidence = Annotated[
    Probability | None,
    Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="extra: the hosted server's own confidence (its formula), kept for audit",
    ),
]
Tier = Annotated[
    str | None,
    Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="extra: which tier of a cascade decided (embedding, examples, lm, ...)",
    ),
]


class _Wire(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoulAnswer(_Wire):
    type: Literal["noul"]
    noul: Probability = Field(description="P(yes)")
    upstream_confidence: UpstreamConfidence = None
    tier: Tier = None


class ChoiceAnswer(_Wire):
    type: Literal["choice"]
    choice: str = Field(description="the most probable option")
    confidence: Probability = Field(description="(max p − 1/K)/(1 − 1/K)")
    probabilities: dict[str, Probability]
    upstream_confidence: UpstreamConfidence = None
    tier: Tier = None


class ScoreAnswer(_Wire):
    type: Literal["score"]
    score: float = Field(ge=0.0, description="expected level Σ i·pᵢ, fractional in 0..N-1")
    confidence: Probability
    legend: dict[str, JsonValue] = Field(description='level "0".."N-1" → its description')
    probabilities: dict[str, Probability]
    upstream_confidence: UpstreamConfidence = None
    tier: Tier = None


AnyAnswer = Annotated[NoulAnswer | ChoiceAnswer | ScoreAnswer, Field(discriminator="type")]


class Usage(_Wire):
    input_tokens: int = Field(ge=0)
    output_tokens: int = Field(ge=0)


class SystemOneResponse(_Wire):
    """A System One response: one answer per question, keyed as asked."""

    model: str
    answers: dict[str, AnyAnswer]
    usage: Usage
    calibration: str | None = Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="extra: the calibration applied to these probabilities",
    )
