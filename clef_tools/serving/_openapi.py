"""The OpenAPI 3.1 document `clef-tools serve` publishes, and a page that shows it.

Schema names and shapes follow the served TypeSafe spec (`SystemOneRequest`,
`SystemOneResponse`, `NoulAnswer`, ..., `HTTPValidationError`), so generated clients
and validators written for hosted Jev work here; the numeric bounds are clef-tools' own
`LIMITS`, the ones the validator enforces. The page is rendered on the server from the
same document, with no script or stylesheet from elsewhere: it works offline and under
any Content-Security-Policy.
"""

from __future__ import annotations

import html
import json
from typing import Any

from clef_tools.protocol._limits import (
    MAX_CHOICE_OPTIONS,
    MAX_ID_LENGTH,
    MAX_QUESTION_TEXT_CHARS,
    MAX_QUESTIONS,
    MAX_SCORE_LEVELS,
    MIN_CHOICE_OPTIONS,
    MIN_QUESTIONS,
    MIN_SCORE_LEVELS,
)

__all__ = ["docs_page", "openapi_document"]

_REF = "#/components/schemas/"
_CONTENT = {"anyOf": [{"type": "string"}, {"type": "object"}, {"type": "array"}, {"type": "null"}]}
_TEXT = {
    "anyOf": [
        {"type": "string", "maxLength": MAX_QUESTION_TEXT_CHARS},
        {"type": "object"},
        {"type": "array"},
        {"type": "null"},
    ]
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _REF + name}


def _response_schemas() -> dict[str, Any]:
    """`SystemOneResponse` and the answers it holds, from the protocol's own models."""
    from clef_tools.protocol._schema import SystemOneResponse

    schema = SystemOneResponse.model_json_schema(
        ref_template=_REF + "{model}", mode="serialization"
    )
    return {**schema.pop("$defs"), "SystemOneResponse": schema}


def _schemas() -> dict[str, Any]:
    return {
        **_response_schemas(),
        "SystemOneRequest": {
            "type": "object",
            "required": ["state", "questions"],
            "additionalProperties": False,
            "properties": {
                "model": {
                    "type": "string",
                    "description": "Optional here: the served model answers whatever is named.",
                },
                "state": {
                    "description": "The content all questions refer to: text, a JSON object "
                    "or array, or chat messages. Never a number, boolean or null.",
                    "anyOf": [{"type": "string"}, {"type": "object"}, {"type": "array"}],
                },
                "questions": {
                    "type": "object",
                    "minProperties": MIN_QUESTIONS,
                    "maxProperties": MAX_QUESTIONS,
                    "propertyNames": {"pattern": f"^[A-Za-z0-9_.-]{{1,{MAX_ID_LENGTH}}}$"},
                    "additionalProperties": _ref("Question"),
                },
            },
        },
        "Question": {
            "oneOf": [_ref("NoulQuestion"), _ref("ChoiceQuestion"), _ref("ScoreQuestion")],
            "discriminator": {
                "propertyName": "type",
                "mapping": {
                    "noul": _REF + "NoulQuestion",
                    "choice": _REF + "ChoiceQuestion",
                    "score": _REF + "ScoreQuestion",
                },
            },
        },
        "NoulQuestion": {
            "type": "object",
            "required": ["type"],
            "additionalProperties": False,
            "properties": {
                "type": {"const": "noul"},
                "instructions": _TEXT,
                "criteria": {
                    "anyOf": [
                        {
                            "type": "object",
                            "additionalProperties": False,
                            "properties": {"true": _CONTENT, "false": _CONTENT},
                        },
                        {"type": "null"},
                    ]
                },
            },
        },
        "ChoiceQuestion": {
            "type": "object",
            "required": ["type", "criteria"],
            "additionalProperties": False,
            "properties": {
                "type": {"const": "choice"},
                "instructions": _TEXT,
                "criteria": {
                    "type": "object",
                    "description": "Option name → its description (null: the name alone).",
                    "minProperties": MIN_CHOICE_OPTIONS,
                    "maxProperties": MAX_CHOICE_OPTIONS,
                    "additionalProperties": _CONTENT,
                },
            },
        },
        "ScoreQuestion": {
            "type": "object",
            "required": ["type", "criteria"],
            "additionalProperties": False,
            "properties": {
                "type": {"const": "score"},
                "instructions": _TEXT,
                "criteria": {
                    "type": "array",
                    "description": "Level descriptions, lowest first; a level's position is "
                    "its score.",
                    "minItems": MIN_SCORE_LEVELS,
                    "maxItems": MAX_SCORE_LEVELS,
                    "items": _CONTENT,
                },
            },
        },
        "ModelsResponse": {
            "type": "object",
            "required": ["models"],
            "properties": {
                "models": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["name"],
                        "properties": {
                            "name": {"type": "string"},
                            "description": {"type": "string"},
                            "release_date": {"type": "string"},
                        },
                    },
                },
                "limits": {"type": "object"},
            },
        },
        "HTTPValidationError": {
            "type": "object",
            "required": ["detail"],
            "properties": {
                "detail": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["loc", "msg", "type"],
                        "properties": {
                            "loc": {
                                "type": "array",
                                "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                            },
                            "msg": {"type": "string"},
                            "type": {"type": "string"},
                        },
                    },
                }
            },
        },
        "ErrorDetail": {
            "type": "object",
            "required": ["detail"],
            "properties": {
                "detail": {
                    "type": "object",
                    "required": ["error_type", "message"],
                    "properties": {"error_type": {"type": "string"}, "message": {"type": "string"}},
                }
            },
        },
    }


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": _ref("ErrorDetail")}},
    }


def openapi_document(version: str, *, auth: bool) -> dict[str, Any]:
    """The document for this server; `auth` adds the bearer scheme when a key is set."""
    decide: dict[str, Any] = {
        "operationId": "systemone",
        "summary": "Answer typed questions about a state",
        "description": "One forward pass gives a probability for every allowed answer. "
        "Bodies may be gzip- or zstd-encoded; the size limit applies after decompression.",
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": _ref("SystemOneRequest")}},
        },
        "responses": {
            "200": {
                "description": "Answers, keyed by question id",
                "headers": {"x-typesafe-request-id": {"schema": {"type": "string"}}},
                "content": {"application/json": {"schema": _ref("SystemOneResponse")}},
            },
            "401": _error("missing or wrong bearer key"),
            "408": _error("the body did not arrive in time"),
            "413": _error("body over the size limit"),
            "415": _error("not JSON, or an unsupported content encoding"),
            "422": {
                "description": "Validation failed; each problem names its field",
                "content": {"application/json": {"schema": _ref("HTTPValidationError")}},
            },
            "429": _error("the upstream scorer is rate-limited"),
            "500": _error("the backend failed"),
            "502": _error("the upstream scorer failed"),
            "503": _error("too many decisions in flight (retry-after)"),
            "504": _error("no decision within the server's timeout"),
        },
    }
    models = {
        "operationId": "models",
        "summary": "The model this server answers with, and its limits",
        "responses": {
            "200": {
                "description": "One model",
                "content": {"application/json": {"schema": _ref("ModelsResponse")}},
            },
            "401": _error("missing or wrong bearer key"),
        },
    }
    document: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": "clef-tools serve",
            "version": version,
            "description": "The /v1/systemone decision API (TypeSafe's wire format) over "
            "any clef-tools backend.",
        },
        "paths": {
            "/v1/systemone": {"post": decide},
            "/v1/models": {"get": models},
            "/healthz": {
                "get": {
                    "operationId": "health",
                    "summary": "Liveness and queue depth (never needs the key)",
                    "security": [],
                    "responses": {"200": {"description": "ok"}},
                }
            },
            "/readyz": {
                "get": {
                    "operationId": "ready",
                    "summary": "Readiness: the scorer answered a small probe in time (never "
                    "needs the key)",
                    "security": [],
                    "responses": {
                        "200": {"description": "ready"},
                        "503": {"description": "not ready, with the reason"},
                    },
                }
            },
        },
        "components": {"schemas": _schemas()},
    }
    if auth:
        document["components"]["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer"}}
        document["security"] = [{"bearer": []}]
    return document


def docs_page(document: dict[str, Any]) -> str:
    """A readable page of the document: each operation, its responses and the schemas."""
    esc = html.escape
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{esc(document['info']['title'])}</title>",
        "<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;"
        "padding:0 1rem}pre{background:#f4f4f4;padding:.8rem;overflow:auto}"
        "code{background:#f4f4f4}td,th{padding:.2rem .6rem;text-align:left}</style>",
        "</head><body>",
        f"<h1>{esc(document['info']['title'])} <small>{esc(document['info']['version'])}"
        "</small></h1>",
        f"<p>{esc(document['info']['description'])} The machine-readable document: "
        "<a href='/openapi.json'>/openapi.json</a>.</p>",
    ]
    for path, operations in document["paths"].items():
        for method, op in operations.items():
            parts.append(f"<h2><code>{esc(method.upper())} {esc(path)}</code></h2>")
            parts.append(f"<p>{esc(op['summary'])}. {esc(op.get('description', ''))}</p>")
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                name = body["schema"]["$ref"].removeprefix(_REF)
                parts.append(f"<p>Body: <a href='#{esc(name)}'>{esc(name)}</a></p>")
            parts.append("<table><tr><th>status</th><th>meaning</th></tr>")
            for status, response in op["responses"].items():
                parts.append(
                    f"<tr><td>{esc(status)}</td><td>{esc(response['description'])}</td></tr>"
                )
            parts.append("</table>")
    parts.append("<h2>Schemas</h2>")
    for name, schema in document["components"]["schemas"].items():
        parts.append(f"<h3 id='{esc(name)}'>{esc(name)}</h3>")
        parts.append(f"<pre>{esc(json.dumps(schema, indent=2, ensure_ascii=False))}</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)
