"""Requests built to hurt: each is a 422 naming its field, within bounded work.

Every case here was a 500, a traceback or a huge reply before (the attack pass behind
the hardening issue); the same bodies go through the wire parser, the HTTP server, the
CLI and the MCP tools in the surface tests and the fuzz suite.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from langchain_core.decisions import Choice, Noul

from clef_tools import ReadoutDecider, RequestValidationError, parse_request, validate_request

NOUL = {"q": {"type": "noul", "instructions": "ok?"}}


def _body(state: Any = "x", questions: Any = None) -> bytes:
    return json.dumps({"state": state, "questions": questions or NOUL}).encode()


#: (body, dotted path of the first issue, a fragment of its message)
HOSTILE: list[tuple[str, bytes, str, str]] = [
    (
        "deep state",
        b'{"state": ' + b"[" * 5000 + b"]" * 5000 + b', "questions": {}}',
        "<request>",
        "nested too deeply",
    ),
    (
        "deep but parseable",
        b'{"state": ' + b"[" * 500 + b"]" * 500 + b', "questions": {"q": {"type": "noul"}}}',
        "state" + ".0" * 65,
        "nested deeper than 64",
    ),
    (
        "deep question",
        b'{"state": "x", "questions": {"q": {"type": "choice", "criteria": {"a": '
        + b"[" * 50
        + b"]" * 50
        + b', "b": null}}}}',
        "questions.q.criteria.a" + ".0" * 7,
        "nested deeper than 8",
    ),
    (
        "5000-digit integer",
        b'{"state": {"n": ' + b"9" * 5000 + b'}, "questions": {"q": {"type": "noul"}}}',
        "state.n",
        "5000 digits",
    ),
    ("lone surrogate in state", _body("\ud800"), "state", "lone surrogate"),
    ("lone surrogate in a key", _body({"\udc00": 1}), "state.\\udc00", "lone surrogate"),
    (
        "lone surrogate in instructions",
        _body("x", {"q": {"type": "noul", "instructions": "\udfff"}}),
        "questions.q.instructions",
        "lone surrogate",
    ),
    (
        "lone surrogate in an option",
        _body("x", {"q": {"type": "choice", "criteria": {"\ud800": None, "b": None}}}),
        "questions.q.criteria.\\ud800",
        "lone surrogate",
    ),
    (
        "lone surrogate in a question id",
        _body("x", {"\ud800": {"type": "noul"}}),
        "questions.\\ud800",
        "must match",
    ),
    (
        "UTF-8-encoded surrogate",
        b'{"state": "\xed\xa0\x80", "questions": {"q": {"type": "noul"}}}',
        "state",
        "lone surrogate",
    ),
    (
        "raw invalid UTF-8",
        b'{"state": "\xff\xfe", "questions": {"q": {"type": "noul"}}}',
        "<request>",
        "not UTF-8",
    ),
    (
        "NaN instructions",
        b'{"state": "x", "questions": {"q": {"type": "noul", "instructions": NaN}}}',
        "questions.q.instructions",
        "nan is not valid JSON",
    ),
    (
        "Infinity description",
        b'{"state": "x", "questions": {"q": {"type": "choice", "criteria": {"a": Infinity, "b": null}}}}',
        "questions.q.criteria.a",
        "inf is not valid JSON",
    ),
    (
        "NaN level",
        b'{"state": "x", "questions": {"q": {"type": "score", "criteria": [NaN, "b"]}}}',
        "questions.q.criteria.0",
        "nan is not valid JSON",
    ),
    (
        "1e999 in state",
        b'{"state": {"a": 1e999}, "questions": {"q": {"type": "noul"}}}',
        "state.a",
        "inf is not valid JSON",
    ),
    (
        "huge instructions",
        _body("x", {"q": {"type": "noul", "instructions": "a" * 30_000}}),
        "questions.q.instructions",
        "limited to 20000",
    ),
]


@pytest.mark.parametrize(
    ("body", "path", "fragment"), [c[1:] for c in HOSTILE], ids=[c[0] for c in HOSTILE]
)
def test_hostile_bodies_are_422s_naming_the_field(body: bytes, path: str, fragment: str) -> None:
    with pytest.raises(RequestValidationError) as info:
        parse_request(body)
    first = info.value.issues[0]
    assert first.path == path and fragment in first.msg
    # the error itself can always be written out as JSON text
    json.dumps([i.as_detail() for i in info.value.issues], ensure_ascii=False).encode("utf-8")


def test_a_flood_of_bad_fields_gives_a_short_error_quickly() -> None:
    """15 MB of duplicate keys once gave a 195 MB error after 24 s."""
    body = b'{"state": {' + b",".join(b'"k": 1' for _ in range(2_000_000)) + b'}, "questions": {}}'
    start = time.monotonic()
    with pytest.raises(RequestValidationError) as info:
        parse_request(body)
    elapsed = time.monotonic() - start
    err = info.value
    assert len(err.issues) == 51 and err.dropped > 1_000_000
    assert err.issues[-1].type == "too_many_errors" and str(err.dropped) in err.issues[-1].msg
    assert len(json.dumps([i.as_detail() for i in err.issues])) < 10_000
    assert elapsed < 20  # bounded work: seconds on a busy 2-core CPU, where it once took 24


def test_a_million_questions_are_refused_without_checking_each() -> None:
    questions = {f"q{i}": {"type": "bogus"} for i in range(1_150_000)}
    start = time.monotonic()
    with pytest.raises(RequestValidationError) as info:
        validate_request("x", questions)
    assert time.monotonic() - start < 2
    assert [i.path for i in info.value.issues] == ["questions"]
    assert "1150000 questions" in info.value.issues[0].msg


def test_python_callers_get_the_same_checks() -> None:
    for state, questions, path in [
        ({"n": 10**400}, {"q": Noul(instructions="?")}, "state.n"),
        ("x", {"q": Noul(instructions="bad \ud800")}, "questions.q.instructions"),
        (
            "x",
            {"q": Choice(instructions="?", criteria={"a": "\udfff", "b": None})},
            "questions.q.criteria.a",
        ),
        ({"a": float("nan")}, {"q": Noul(instructions="?")}, "state.a"),
    ]:
        with pytest.raises(RequestValidationError) as info:
            validate_request(state, questions)
        assert info.value.issues[0].path == path


def test_a_model_backend_refuses_them_before_tokenizing(smollm2: ReadoutDecider) -> None:
    with pytest.raises(RequestValidationError, match="lone surrogate"):
        smollm2.decide("a parcel \ud800 late", {"q": Noul(instructions="Late?")})


# -- images --------------------------------------------------------------------------


def _png_header(width: int, height: int) -> bytes:
    """A PNG's signature and IHDR declaring a size (what a decoder allocates for)."""
    import struct
    import zlib

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (
        b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))
    )


def _image_state(data: bytes, mime: str = "image/png") -> list[dict[str, Any]]:
    import base64

    block = {"type": "image", "base64": base64.b64encode(data).decode(), "mime_type": mime}
    return [{"role": "user", "content": [{"type": "text", "text": "look"}, block]}]


def _real_image(fmt: str) -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (3, 2), "blue").save(buf, format=fmt)
    return buf.getvalue()


@pytest.mark.parametrize(
    ("data", "mime", "fragment"),
    [
        (_png_header(12000, 12000), "image/png", "12000×12000 pixels"),
        (b"MZ\x90\x00 not an image at all", "image/png", "not a PNG image"),
        (_real_image("JPEG"), "image/png", "labelled image/png but the data is image/jpeg"),
        (_png_header(0, 10), "image/png", "0×10 pixels"),
    ],
    ids=["decompression bomb", "not an image", "wrong label", "empty"],
)
def test_bad_images_are_refused_before_decoding(data: bytes, mime: str, fragment: str) -> None:
    from clef_tools.protocol._media import split_images

    with pytest.raises(RequestValidationError) as info:
        split_images(_image_state(data, mime))
    assert fragment in info.value.issues[0].msg
    assert info.value.issues[0].path == "state.0.content.1"


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP"])
def test_real_images_pass_with_their_size_read(fmt: str) -> None:
    from clef_tools.protocol._image_header import read_header
    from clef_tools.protocol._media import split_images

    data = _real_image(fmt)
    assert read_header(data) == (f"image/{fmt.lower()}", 3, 2)
    _, images = split_images(_image_state(data, f"image/{fmt.lower()}"))
    assert len(images) == 1
