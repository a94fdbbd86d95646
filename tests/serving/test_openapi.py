"""`clef-tools serve` publishes an OpenAPI 3.1 document that matches what it does: the
request schema accepts what the server accepts and refuses what it refuses (422), and
its real answers and errors validate against the response schemas. Real HTTP on loopback,
real forward passes (SmolLM2)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema
import pytest
from _loopback import serving

import clef_tools
from clef_tools import ReadoutDecider, create_app

QUESTIONS: dict[str, Any] = {
    "refund": {"type": "noul", "instructions": "Is the customer asking for a refund?"},
    "team": {
        "type": "choice",
        "instructions": "Which team?",
        "criteria": {"billing": "payments", "tech": "bugs", "sales": None},
    },
    "urgency": {"type": "score", "instructions": "How urgent?", "criteria": ["low", "mid", "high"]},
}
VALID: dict[str, Any] = {"model": "any", "state": "I was charged twice", "questions": QUESTIONS}


def _with(path: list[str], value: Any) -> dict[str, Any]:
    body = copy.deepcopy(VALID)
    target = body
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return body


_DELETE = object()
CASES: list[tuple[str, dict[str, Any]]] = [
    ("valid", VALID),
    ("state as messages", _with(["state"], [{"role": "user", "content": "hi"}])),
    ("state as object", _with(["state"], {"ticket": 4411, "text": "charged twice"})),
    ("no model field", _with(["model"], _DELETE)),
    (
        "noul with criteria",
        _with(["questions", "refund", "criteria"], {"true": "yes", "false": None}),
    ),
    ("state null", _with(["state"], None)),
    ("state number", _with(["state"], 5)),
    ("no questions", _with(["questions"], {})),
    ("65 questions", _with(["questions"], {f"q{i}": {"type": "noul"} for i in range(65)})),
    ("bad question id", _with(["questions"], {"bad id!": {"type": "noul"}})),
    ("unknown type", _with(["questions", "refund", "type"], "maybe")),
    ("one option", _with(["questions", "team", "criteria"], {"billing": None})),
    ("choice without criteria", _with(["questions", "team", "criteria"], _DELETE)),
    ("one level", _with(["questions", "urgency", "criteria"], ["only"])),
    ("eleven levels", _with(["questions", "urgency", "criteria"], [str(i) for i in range(11)])),
    ("unknown request field", {**VALID, "temperature": 0.2}),
    ("unknown question field", _with(["questions", "refund", "weight"], 2)),
]


@pytest.fixture(scope="module")
def base(smollm2: ReadoutDecider) -> Iterator[str]:
    with serving(create_app(smollm2)) as url:
        yield url


@pytest.fixture(scope="module")
def document(base: str) -> dict[str, Any]:
    response = httpx.get(f"{base}/openapi.json")
    assert response.status_code == 200
    doc: dict[str, Any] = response.json()
    return doc


def _validator(document: dict[str, Any], name: str) -> jsonschema.Draft202012Validator:
    root = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
    jsonschema.Draft202012Validator.check_schema(root)
    return jsonschema.Draft202012Validator(root)


def test_the_document_is_openapi_3_1_for_this_version(document: dict[str, Any]) -> None:
    assert document["openapi"] == "3.1.0"
    assert document["info"]["version"] == clef_tools.__version__
    assert set(document["paths"]) == {"/v1/systemone", "/v1/models", "/healthz", "/readyz"}
    assert "security" not in document  # no key configured: none required


@pytest.mark.parametrize(("case", "body"), CASES, ids=[c for c, _ in CASES])
def test_the_request_schema_agrees_with_the_server(
    base: str, document: dict[str, Any], case: str, body: dict[str, Any]
) -> None:
    schema_ok = _validator(document, "SystemOneRequest").is_valid(body)
    response = httpx.post(f"{base}/v1/systemone", json=body, timeout=120)
    assert response.status_code in (200, 422), response.text
    assert schema_ok is (response.status_code == 200), (case, response.text)
    name = "SystemOneResponse" if response.status_code == 200 else "HTTPValidationError"
    _validator(document, name).validate(response.json())


def test_models_and_errors_validate_too(base: str, document: dict[str, Any]) -> None:
    _validator(document, "ModelsResponse").validate(httpx.get(f"{base}/v1/models").json())
    too_big = httpx.post(
        f"{base}/v1/systemone",
        content=b'{"state": "' + b"x" * (17 << 20) + b'"}',
        headers={"content-type": "application/json"},
    )
    assert too_big.status_code == 413
    _validator(document, "ErrorDetail").validate(too_big.json())
    for status in ("200", "413", "422", "503"):
        assert status in document["paths"]["/v1/systemone"]["post"]["responses"]


def test_the_docs_page_is_browsable_and_self_contained(base: str) -> None:
    page = httpx.get(f"{base}/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for text in ("POST /v1/systemone", "GET /v1/models", "SystemOneRequest", "/openapi.json"):
        assert text in page.text
    assert "<script" not in page.text and "src=" not in page.text  # nothing fetched from elsewhere


def test_with_a_key_the_document_declares_and_needs_it(smollm2: ReadoutDecider) -> None:
    with serving(create_app(smollm2, api_key="s3cret")) as url:
        assert httpx.get(f"{url}/openapi.json").status_code == 401
        doc = httpx.get(f"{url}/openapi.json", headers={"authorization": "Bearer s3cret"}).json()
    assert doc["security"] == [{"bearer": []}]
    assert doc["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    assert doc["paths"]["/healthz"]["get"]["security"] == []
