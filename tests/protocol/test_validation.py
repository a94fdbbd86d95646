"""Every documented limit gets a typed error naming the offending field."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.decisions import Choice, Noul, Score
from langchain_core.messages import AIMessage, HumanMessage

from clef_tools import (
    ReadoutDecider,
    RequestValidationError,
    UnsupportedInputError,
    validate_request,
)


def _choice(n: int) -> dict[str, Any]:
    return {"type": "choice", "instructions": "pick", "criteria": {f"o{i}": None for i in range(n)}}


def _err(state: Any, questions: Any) -> RequestValidationError:
    with pytest.raises(RequestValidationError) as info:
        validate_request(state, questions)
    return info.value


@pytest.mark.parametrize(
    ("questions", "path", "fragment"),
    [
        ({}, "questions", "at least one question"),
        ({f"q{i}": {"type": "noul"} for i in range(65)}, "questions", "65 questions"),
        ({"q": {"type": "maybe"}}, "questions.q.type", "unknown question type 'maybe'"),
        ({"q": {"instructions": "x"}}, "questions.q.type", "unknown question type None"),
        ({"q": _choice(1)}, "questions.q.criteria", "2–255 options, got 1"),
        ({"q": _choice(256)}, "questions.q.criteria", "2–255 options, got 256"),
        ({"q": {"type": "choice", "criteria": {}}}, "questions.q.criteria", ""),
        (
            {"q": {"type": "choice", "criteria": {"a": 1, "": 2}}},
            "questions.q.criteria.",
            "must not be empty",
        ),
        (
            {"q": {"type": "choice", "criteria": {"Yes": 1, "yes ": 2}}},
            "questions.q.criteria.yes ",
            "duplicate",
        ),
        ({"q": {"type": "score", "criteria": ["only"]}}, "questions.q.criteria", ""),
        (
            {"q": {"type": "score", "criteria": [str(i) for i in range(11)]}},
            "questions.q.criteria",
            "got 11",
        ),
        ({"q": {"type": "score"}}, "questions.q.criteria", "Field required"),
        ({"bad id!": {"type": "noul"}}, "questions.bad id!", "must match"),
        ({"x" * 101: {"type": "noul"}}, "questions." + "x" * 101, "must match"),
        ({"q": {"type": "noul", "extra": 1}}, "questions.q.extra", "Extra inputs"),
        ({"q": "noul"}, "questions.q", "must be an object"),
        ([], "questions", "must be an object"),
    ],
)
def test_question_limits(questions: Any, path: str, fragment: str) -> None:
    err = _err("state", questions)
    assert any(i.path == path for i in err.issues), err
    assert fragment in str(err)


@pytest.mark.parametrize(
    ("state", "path", "fragment"),
    [
        (None, "state", "not null"),
        (3, "state", "not a number"),
        (True, "state", "not a boolean"),
        (b"bytes", "state", "not bytes"),
        ("x" * 1_000_001, "state", "refused, never truncated"),
        ({"a": float("nan")}, "state.a", "not valid JSON"),
        ({"a": {1: "x"}}, "state.a.1", "keys must be strings"),
        ({"a": object()}, "state.a", "not JSON-compatible"),
    ],
)
def test_state_limits(state: Any, path: str, fragment: str) -> None:
    err = _err(state, {"q": {"type": "noul"}})
    assert err.issues[0].path == path
    assert fragment in str(err)


def test_every_issue_is_reported_at_once() -> None:
    err = _err(None, {"a": {"type": "nope"}, "b": _choice(1)})
    assert {i.path for i in err.issues} == {"state", "questions.a.type", "questions.b.criteria"}


def test_limits_accept_the_edges() -> None:
    qs: dict[str, Any] = {f"q{i}": {"type": "noul"} for i in range(63)}
    qs["big"] = _choice(255)
    req = validate_request({"messages": [HumanMessage("hi"), AIMessage("hello")]}, qs)
    assert len(req.questions) == 64
    assert isinstance(req.questions["big"], Choice)
    assert isinstance(req.questions["q0"], Noul) and req.questions["q0"].instructions == ""
    score = validate_request(
        "s", {"s": Score(instructions="x", criteria=[str(i) for i in range(10)])}
    )
    kept = score.questions["s"]
    assert isinstance(kept, Score) and len(kept.criteria) == 10


def test_error_is_a_value_error_with_422_detail() -> None:
    err = _err("s", {"q": _choice(1)})
    assert isinstance(err, ValueError)
    assert err.issues[0].as_detail()["loc"] == ["body", "questions", "q", "criteria"]


def test_validation_learns_the_state_once_for_every_backend(
    smollm2: ReadoutDecider, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The validated request carries what validation found (size, media, rendered text),
    so a backend neither renders the state twice nor walks it again for media."""
    from clef_tools.protocol import _media, _render, _validation

    rendered: list[object] = []
    walked: list[object] = []
    real_render, real_parts = _render.render_state, _media.media_parts

    def render(state: object) -> str:
        rendered.append(state)
        return real_render(state)

    def parts(state: object, loc: tuple[str | int, ...] = ("state",)) -> Any:
        walked.append(state)
        return real_parts(state, loc)

    monkeypatch.setattr(_validation, "render_state", render)
    monkeypatch.setattr(_validation, "media_parts", parts)
    transcript = [
        {"role": "user", "content": "refund my card"},
        {"role": "assistant", "content": "ok"},
    ]
    questions = {
        "refund": {"type": "noul", "instructions": "Is this about a refund?"},
        "topic": {
            "type": "choice",
            "instructions": "Topic?",
            "criteria": {"cards": "", "loans": ""},
        },
    }
    request = validate_request(transcript, questions)
    assert walked == []  # no object typed like a media part: no media search
    assert request.facts.size > 0 and request.facts.media == ()
    smollm2.decide_batch([request])
    assert len(rendered) == 1  # the readout read the text validation's facts rendered

    image = {"type": "image", "base64": "aGk=", "mime_type": "image/png"}
    with_image = [{"role": "user", "content": [{"type": "text", "text": "look"}, image]}]
    request = validate_request(with_image, questions)
    assert request.facts.media == (((0, "content", 1), "image"),) and len(walked) == 1
    with pytest.raises(UnsupportedInputError, match=r"state\.0\.content\.1"):
        smollm2.decide_batch([request])
    assert len(walked) == 1  # the readout refused it from the facts, without a new search
