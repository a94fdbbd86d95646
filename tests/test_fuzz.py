"""Generated hostile input against every surface: no 5xx, no crash, no hang.

Strategies mix valid requests with what broke the surfaces before: lone surrogates,
NaN/Infinity, 400-digit integers, deep nesting, wrong types, duplicate and unknown keys,
raw bytes. Each surface must answer every input with a success or a typed error naming
a field, and still answer a valid request afterwards. Counts per run are written to
`$CLEF_FUZZ_REPORT` when set.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema
import pytest
from _loopback import serving
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from clef_mcp import build_server
from clef_mcp._stdio import check_frame
from clef_tools import RequestValidationError, create_app, parse_request, validate_request
from clef_tools.cli import main as cli_main
from clef_tools.testing import InstantDecider

COUNTS: Counter[str] = Counter()

# -- strategies ----------------------------------------------------------------------

surrogates = st.sampled_from(["\ud800", "\udfff", "a\udc00b"])
text = st.one_of(
    st.text(alphabet=st.characters(codec=None), max_size=12),
    surrogates,
    st.sampled_from(["", " ", "Yes", "yes ", "q.1", "bad id!", "x" * 250]),
)
numbers = st.one_of(
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=10**300, max_value=10**400),
)
leaves = st.one_of(st.none(), st.booleans(), numbers, text)
json_values = st.recursive(
    leaves, lambda c: st.lists(c, max_size=4) | st.dictionaries(text, c, max_size=4), max_leaves=16
)
# what an MCP client can send at all (its own serialiser refuses lone surrogates and NaN;
# raw frames carrying those are fuzzed against the transport below)
sendable_text = st.text(
    alphabet=st.characters(exclude_categories=["Cs"]), max_size=12
) | st.sampled_from(["", "Yes", "bad id!", "x" * 250])
sendable = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | sendable_text,
    lambda c: st.lists(c, max_size=4) | st.dictionaries(sendable_text, c, max_size=4),
    max_leaves=16,
)
sendable_question = st.fixed_dictionaries(
    {"type": st.sampled_from(["noul", "choice", "score", "box", "maybe"]) | sendable},
    optional={
        "instructions": sendable,
        "criteria": sendable
        | st.dictionaries(sendable_text, st.none() | sendable_text, max_size=8),
    },
)
criteria = st.one_of(
    json_values,
    st.dictionaries(text, st.none() | text, max_size=8),
    st.lists(text, max_size=12),
)
question = st.fixed_dictionaries(
    {"type": st.sampled_from(["noul", "choice", "score", "box", "maybe"]) | json_values},
    optional={"instructions": text | json_values, "criteria": criteria},
)
request = st.fixed_dictionaries(
    {
        "state": json_values | text,
        "questions": st.dictionaries(text, question, max_size=4) | json_values,
    },
    optional={"model": json_values, "extra": json_values},
)
valid_request = st.fixed_dictionaries(
    {
        "state": st.text(max_size=40)
        | st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
        "questions": st.dictionaries(
            st.from_regex(r"[A-Za-z0-9_]{1,8}", fullmatch=True),
            st.fixed_dictionaries({"type": st.just("noul"), "instructions": st.text(max_size=20)}),
            min_size=1,
            max_size=3,
        ),
    }
)


pytestmark = pytest.mark.slow  # thousands of generated requests per surface


def _encode(value: Any, ascii_only: bool) -> bytes:
    return json.dumps(value, ensure_ascii=ascii_only, allow_nan=True).encode(
        "utf-8", "surrogatepass"
    )


deep = st.integers(1, 4000).map(
    lambda n: b'{"state": ' + b"[" * n + b"]" * n + b', "questions": {"q": {"type": "noul"}}}'
)
duplicates = st.integers(1, 2000).map(
    lambda n: b'{"state": {' + b",".join(b'"k": 1' for _ in range(n)) + b'}, "questions": {}}'
)
# the second attack pass: a lone surrogate as a top-level key, an oversize `model` field
surrogate_keys = st.sampled_from([b"\\ud800", b"\\udfff", b"a\\udc00b"]).map(
    lambda k: b'{"' + k + b'": 1, "state": "x", "questions": {"q": {"type": "noul"}}}'
)
long_models = st.integers(200, 5000).map(
    lambda n: b'{"model": "' + b"m" * n + b'", "state": "x", "questions": {"q": {"type": "noul"}}}'
)
bodies = st.one_of(
    st.builds(_encode, request, st.booleans()),
    st.builds(_encode, valid_request, st.booleans()),
    st.binary(max_size=200),
    deep,
    duplicates,
    surrogate_keys,
    long_models,
)

FUZZ = settings(
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,  # capsys is drained before every example
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


def fuzz(examples: int) -> settings:
    return settings(FUZZ, max_examples=examples)


_ORACLE = concurrent.futures.ThreadPoolExecutor(max_workers=1)
_FIELDS = ("state", "questions", "options", "tool_name", "arguments", "Input validation error")


def _names_a_field(text: str) -> bool:
    return any(field in text for field in _FIELDS)


def _answerable(questions: dict[str, Any]) -> bool:
    """Valid questions a text backend answers (a valid `box` is refused as unsupported)."""
    return all(
        isinstance(q, dict) and q.get("type") in ("noul", "choice", "score")
        for q in questions.values()
    )


def _writable(err: RequestValidationError) -> None:
    details = [issue.as_detail() for issue in err.issues]
    json.dumps(details, ensure_ascii=False, allow_nan=False).encode("utf-8")
    assert len(err.issues) <= 51


# -- the wire parser -----------------------------------------------------------------


@fuzz(3000)
@given(bodies)
def test_parser_returns_a_request_or_a_field_error(body: bytes) -> None:
    COUNTS["parser"] += 1
    try:
        parse_request(body)
    except RequestValidationError as err:
        _writable(err)


# -- serve over loopback HTTP --------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[httpx.Client]:
    with (
        serving(create_app(InstantDecider())) as url,
        httpx.Client(base_url=url, timeout=10) as client,
    ):
        yield client


@pytest.fixture(scope="module")
def response_schema(server: httpx.Client) -> jsonschema.Draft202012Validator:
    """The served OpenAPI document's `SystemOneResponse`: what serve promises to answer."""
    components = server.get("/openapi.json").json()["components"]
    root = {"$ref": "#/components/schemas/SystemOneResponse", "components": components}
    return jsonschema.Draft202012Validator(root)


@fuzz(900)
@given(body=bodies, encoding=st.sampled_from([None, None, None, "gzip", "zstd", "br"]))
def test_serve_never_answers_5xx(
    server: httpx.Client,
    response_schema: jsonschema.Draft202012Validator,
    body: bytes,
    encoding: str | None,
) -> None:
    import gzip

    import zstandard

    headers = {"content-type": "application/json"}
    plain = body
    if encoding == "gzip":
        body = gzip.compress(body)
    elif encoding == "zstd":
        body = zstandard.ZstdCompressor().compress(body)
    if encoding:
        headers["content-encoding"] = encoding
    response = server.post("/v1/systemone", content=body, headers=headers)
    COUNTS["serve"] += 1
    COUNTS[f"serve_{response.status_code // 100}xx"] += 1
    assert response.status_code < 500, response.text[:300]
    if encoding == "br":  # not an encoding serve takes: refused before reading
        assert response.status_code == 415
        return
    # the oracle: the parser, called directly on the same bytes (in a worker thread, as
    # serve calls it: how deep the parser can nest depends on the thread's stack)
    try:
        request, _ = _ORACLE.submit(parse_request, plain).result()
    except RequestValidationError as err:
        assert response.status_code == 422, response.text[:300]
        locs = [d["loc"] for d in response.json()["detail"]]
        assert locs == [["body", *issue.loc] for issue in err.issues]
        return
    assert response.status_code == 200, response.text[:300]
    answer = response.json()
    assert set(answer["answers"]) == set(request.questions)
    response_schema.validate(answer)


def test_serve_is_alive_after_the_fuzz(server: httpx.Client) -> None:
    body = {"state": "x", "questions": {"q": {"type": "noul", "instructions": "ok?"}}}
    assert server.post("/v1/systemone", json=body).status_code == 200
    assert server.get("/healthz").json()["queue"] == 0


# -- MCP tools (in-memory client) and raw frames -------------------------------------


@fuzz(200)
@given(
    arguments=st.fixed_dictionaries(
        {},
        optional={
            "state": sendable,
            "questions": st.dictionaries(sendable_text, sendable_question, max_size=3) | sendable,
        },
    )
)
async def test_mcp_tools_answer_or_report_an_error(arguments: dict[str, Any]) -> None:
    async with Client(build_server(InstantDecider)) as client:
        schemas = {t.name: t.output_schema for t in (await client.list_tools()).tools}
        for tool in ("decide", "route", "gate_tool_call"):
            args = (
                arguments
                if tool == "decide"
                else {
                    "state": arguments.get("state"),
                    "options": arguments.get("questions"),
                    "tool_name": "t",
                    "arguments": arguments.get("questions"),
                }
            )
            result = await client.call_tool(tool, args)
            COUNTS["mcp"] += 1
            COUNTS["mcp_error" if result.is_error else "mcp_ok"] += 1
            if result.is_error:
                # a typed error naming a field, never a crash inside the tool
                text = result.content[0].text  # type: ignore[union-attr]
                assert _names_a_field(text), text[:300]
            else:
                jsonschema.validate(result.structured_content, schemas[tool])
        # the oracle for decide: our validator, called directly on the same arguments
        if "state" in arguments and isinstance(arguments.get("questions"), dict):
            try:
                request = validate_request(arguments["state"], arguments["questions"])
            except RequestValidationError:
                return
            decided = await client.call_tool("decide", arguments)
            if _answerable(arguments["questions"]):
                assert not decided.is_error, decided.content
                answers = (decided.structured_content or {})["answers"]
                assert set(answers) == set(request.questions)


@fuzz(2000)
@given(
    st.one_of(
        bodies,
        st.builds(
            lambda b: (
                b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"decide","arguments":'
                + b
                + b"}}"
            ),
            bodies,
        ),
    )
)
def test_every_raw_mcp_frame_gets_a_verdict(frame: bytes) -> None:
    COUNTS["mcp_frames"] += 1
    line, error = check_frame(frame)
    if error is not None:
        error.model_dump_json()  # always writable
    assert line is None or error is None  # never both
    try:
        decoded = json.loads(frame, parse_int=str, parse_constant=str)  # as written
    except (ValueError, RecursionError):
        decoded = None
    if line is not None:
        assert json.loads(line, parse_int=str, parse_constant=str) == decoded  # unchanged
        return
    # not passed on: answered with an error, unless it is a notification (no id), which
    # JSON-RPC never answers
    notification = isinstance(decoded, dict) and "method" in decoded and "id" not in decoded
    assert error is not None or notification, frame[:200]


# -- the CLI (in process) ------------------------------------------------------------


@fuzz(600)
@given(body=bodies)
def test_cli_exits_2_on_bad_input_and_never_crashes(
    body: bytes, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    path = tmp_path_factory.mktemp("fuzz") / "request.json"
    path.write_bytes(body)
    # a valid body would load a model: point it at a server with the instant backend
    code = cli_main(["decide", str(path), "--model", _CLI_BACKEND["url"], "--quiet"])
    out, err = capsys.readouterr()
    COUNTS["cli"] += 1
    assert code in (0, 2), err
    assert "Traceback" not in err
    if code == 0:
        json.loads(out)
    else:
        assert err.startswith("clef-tools: error:") and len(err.splitlines()) == 1


_CLI_BACKEND: dict[str, str] = {}


@pytest.fixture(scope="module", autouse=True)
def _cli_backend() -> Iterator[None]:
    with serving(create_app(InstantDecider())) as url:
        _CLI_BACKEND["url"] = f"{url}#instant"
        yield


def teardown_module() -> None:
    report = os.environ.get("CLEF_FUZZ_REPORT")
    if report:
        with open(report, "w") as f:
            json.dump(dict(COUNTS), f, indent=2, sort_keys=True)
