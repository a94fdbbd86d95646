from __future__ import annotations

import json

import pytest
from langchain_core.decisions import ChoiceAnswer, ClassifierResponse, NoulAnswer, ScoreAnswer

from clef_tools import RequestValidationError, parse_request, response_to_wire
from clef_tools.protocol._wire import response_from_wire

DOC_REQUEST = {
    "model": "jev-latest",
    "state": "Customer wrote: I was charged twice for my order #4411 and want one refunded today.",
    "questions": {
        "is_refund_request": {
            "type": "noul",
            "instructions": "Is the customer asking for a refund?",
            "criteria": {"true": "asks for money back", "false": "anything else"},
        },
        "urgency": {
            "type": "choice",
            "instructions": "How urgent?",
            "criteria": {"low": "a week", "high": "today"},
        },
        "frustration": {
            "type": "score",
            "instructions": "How frustrated?",
            "criteria": ["calm", "mildly annoyed", "angry"],
        },
    },
}


def test_documented_request_parses() -> None:
    request, model = parse_request(json.dumps(DOC_REQUEST))
    assert model == "jev-latest"
    assert list(request.questions) == ["is_refund_request", "urgency", "frustration"]
    assert request.questions["is_refund_request"].criteria.true == "asks for money back"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("body", "path", "fragment"),
    [
        ("{", "<request>", "invalid JSON at line 1"),
        ("[]", "<request>", "must be a JSON object"),
        (b"\xff\xfe", "<request>", ""),
        ('{"state": "s"}', "questions", "field required"),
        ('{"questions": {"q": {"type": "noul"}}}', "state", "field required"),
        (
            '{"state": "s", "questions": {"q": {"type": "noul"}}, "document": "x"}',
            "document",
            "unknown field",
        ),
        (
            '{"state": "s", "questions": {"q": {"type": "noul"}}, "model": 3}',
            "model",
            "must be a string",
        ),
        (
            '{"state": "s", "questions": {"q": {"type": "choice", "criteria": {"a": 1, "b": 2, "a": 3}}}}',
            "questions.q.criteria.a",
            "duplicate key 'a'",
        ),
        (
            '{"state": "s", "questions": {"q": {"type": "noul"}, "q": {"type": "noul"}}}',
            "questions.q",
            "duplicate key",
        ),
        ('{"state": null, "questions": {"q": {"type": "noul"}}}', "state", "not null"),
    ],
)
def test_bad_bodies_name_the_field(body: str | bytes, path: str, fragment: str) -> None:
    with pytest.raises(RequestValidationError) as info:
        parse_request(body)
    assert info.value.issues[0].path == path
    assert fragment in str(info.value)


def test_response_is_wire_exact() -> None:
    response = ClassifierResponse(
        model="m",
        answers={
            "n": NoulAnswer(type="noul", noul=0.9),
            "c": ChoiceAnswer(
                type="choice",
                choice="high",
                probabilities={"low": 0.25, "high": 0.75},
                confidence=0.5,
            ),
            "s": ScoreAnswer(
                type="score",
                score=1.2,
                legend={0: "calm", 1: "annoyed", 2: "angry"},
                probabilities={0: 0.05, 1: 0.7, 2: 0.25},
                confidence=0.55,
            ),
        },
        usage={"input_tokens": 120, "output_tokens": 0, "total_tokens": 120},
    )
    wire = response_to_wire(response)
    assert wire == {
        "model": "m",
        "answers": {
            "n": {"type": "noul", "noul": 0.9},
            "c": {
                "type": "choice",
                "choice": "high",
                "confidence": 0.5,
                "probabilities": {"low": 0.25, "high": 0.75},
            },
            "s": {
                "type": "score",
                "score": 1.2,
                "confidence": 0.55,
                "legend": {"0": "calm", "1": "annoyed", "2": "angry"},
                "probabilities": {"0": 0.05, "1": 0.7, "2": 0.25},
            },
        },
        "usage": {"input_tokens": 120, "output_tokens": 0},
    }
    assert "confidence" not in wire["answers"]["n"]
    json.dumps(wire)  # serialisable as is
    back = response_from_wire(wire, request_id="r1")
    assert back.scores["s"].probabilities == {0: 0.05, 1: 0.7, 2: 0.25}
    assert back.request_id == "r1"
