"""`clef-tools serve`: any backend behind `/v1/systemone` and `/v1/models`.

The point is that anything speaking the wire format — TypeSafe's SDKs, litellm, our own
`SystemOneClient`, another team's service — can use a local model without knowing it is
local. Responses are wire-exact (`response_to_wire`), and errors use the served API's
shapes: 422 `{"detail": [{loc, msg, type}]}` for a bad request, `{"detail": {error_type,
message}}` for everything else.

The server holds no lock of its own: requests go straight to the backend, which decides
how to run them (hosted backends concurrently; the local readout on its torch thread).
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from clef_tools._net import is_loopback, is_wildcard
from clef_tools._version import __version__
from clef_tools.backends._base import Decider
from clef_tools.decisions import ClassifierResponse
from clef_tools.protocol._errors import (
    AuthenticationError,
    BackendError,
    ClefError,
    FieldIssue,
    QuotaExceededError,
    RateLimitError,
    RemoteError,
    RemoteTimeoutError,
    RequestValidationError,
    UnsupportedInputError,
)
from clef_tools.protocol._limits import LIMITS
from clef_tools.protocol._wire import parse_request, response_to_wire
from clef_tools.serving._http_body import BodyError, read_body
from clef_tools.serving._http_guard import AccessPolicy, GuardMiddleware
from clef_tools.serving._http_run import ConnectionLimits, run_app
from clef_tools.serving._openapi import docs_page, openapi_document

__all__ = ["DEFAULT_MAX_BODY_BYTES", "DEFAULT_REQUEST_TIMEOUT_S", "create_app", "serve"]

log = logging.getLogger("clef_tools.serve")

#: A request's deadline unless `--timeout` says otherwise: past it, 504 and the work stops.
DEFAULT_REQUEST_TIMEOUT_S = 120.0
#: Workers AI's body limit (13 MiB) rounded up: room for 4 images plus a long state.
DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024
REQUEST_ID_HEADER = "x-typesafe-request-id"
UPSTREAM_ID_HEADER = "x-clef-upstream-request-id"


#: Given for models whose own release date is unknown (the SDKs require the field).
PACKAGE_RELEASE_DATE = "2026-11-30"


def create_app(
    backend: Decider | Callable[[], Decider],
    *,
    api_key: str | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    request_timeout_s: float | None = DEFAULT_REQUEST_TIMEOUT_S,
    body_timeout_s: float | None = 30.0,
    max_queue: int = 32,
    access: AccessPolicy | None = None,
    ready_probe_timeout_s: float = 10.0,
    hook_engine: Callable[[Decider], Any] | None = None,
) -> Starlette:
    """A Starlette app; `backend` may be a factory, run once at startup (off the loop).

    `access` says which Hosts, Origins and key are accepted (default: loopback names and
    `api_key`). At most `max_queue` decisions are in flight; more get 503 + retry-after.
    A request past `request_timeout_s` gets 504 and its work is cancelled, as is the work
    of a client that disconnects. `/healthz` says the process is alive (cheap, open);
    `/readyz` that the scorer answers a one-question probe within `ready_probe_timeout_s`.
    `POST /v1/hooks/{host}` answers agent hosts' hooks (Claude Code's `http` hooks) with the gate
    (`hook_engine` builds it from the served decider on the first event).
    """
    state: dict[str, Decider] = {}
    hooks: dict[str, Any] = {}
    hooks_lock = anyio.Lock()
    queue = _Queue(max_queue)
    readiness = _Readiness(ready_probe_timeout_s)
    policy = access or AccessPolicy(api_key=api_key)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if isinstance(backend, Decider):
            state["decider"] = backend
        else:
            state["decider"] = await anyio.to_thread.run_sync(backend)
        log.info("serving %s", state["decider"].model_id)
        yield
        # the async connections a hosted backend opened live on this server's event loop,
        # which ends here: close them with it (a later caller gets fresh ones)
        await state["decider"].aclose()
        if "engine" in hooks:
            hooks["engine"].close()
            if hooks["engine"].audit is not None:
                hooks["engine"].audit.close()

    async def systemone(request: Request) -> Response:
        request_id = f"req_{uuid.uuid4().hex}"
        headers = {REQUEST_ID_HEADER: request_id}
        # the body first, outside the queue: a client that trickles its body, or sends
        # one that does not parse, never holds a slot that a real request needs
        try:
            body = await read_body(
                request.stream(),
                content_length=request.headers.get("content-length"),
                content_encoding=request.headers.get("content-encoding"),
                limit=max_body_bytes,
                timeout_s=body_timeout_s,
            )
            # parsing and validating a large body is CPU work: keep the event loop free
            parsed, _model = await anyio.to_thread.run_sync(parse_request, body)
        except ClientDisconnect:
            log.info("%s: the client left while sending its body", request_id)
            return Response(status_code=400)
        except BodyError as exc:
            return _error(exc.status, exc.error_type, str(exc), headers)
        except ClefError as exc:
            return _clef_error(exc, headers)
        if not queue.admit():
            return _error(
                503,
                "overloaded",
                f"{queue.limit} decisions are already queued; retry shortly",
                {**headers, "retry-after": "1"},
            )
        try:
            decider = state["decider"]
            with anyio.fail_after(request_timeout_s):
                response = await _unless_client_leaves(
                    request, lambda: decider.adecide_batch([parsed])
                )
        except TimeoutError:
            return _error(504, "timeout", f"no decision within {request_timeout_s} s", headers)
        except ClefError as exc:
            return _clef_error(exc, headers)
        finally:
            queue.release()
        if response is None:
            log.info("%s: the client left; its decision was stopped", request_id)
            return Response(status_code=499)
        if response.request_id:
            headers[UPSTREAM_ID_HEADER] = response.request_id
        return _json(200, response_to_wire(response), headers)

    async def agent_hook(request: Request) -> Response:
        from clef_tools.hooks._claude_code import DECISION_EVENT, MAX_EVENT_BYTES, permission_output
        from clef_tools.hooks._hosts import HOSTS

        dialect = HOSTS.get(request.path_params["host"])
        if dialect is None:
            return _error(404, "not_found", f"no hooks for {request.path_params['host']!r}; "
                          f"known: {', '.join(HOSTS)}", {})  # fmt: skip
        pending: dict[str, Any] = {"hook_event_name": DECISION_EVENT}

        def ask(why: str) -> Response:
            # 200 with `ask`: a non-2xx answer would let the host carry on without the gate
            out = permission_output("ask", f"clef-tools gate: {why}")
            return _json(200, dialect.answer(out, pending) or {}, {})

        try:
            body = await read_body(
                request.stream(),
                content_length=request.headers.get("content-length"),
                content_encoding=request.headers.get("content-encoding"),
                limit=min(max_body_bytes, MAX_EVENT_BYTES),
                timeout_s=body_timeout_s,
            )
            given = json.loads(body)
            event = dialect.to_canonical(given) if isinstance(given, dict) else given
            if isinstance(event, dict):
                pending = event
        except ClientDisconnect:
            return Response(status_code=400)
        except BodyError as exc:
            return ask(f"unreadable event ({exc})")
        except ValueError as exc:
            return ask(f"the event is not JSON ({exc})")
        try:
            with anyio.fail_after(request_timeout_s):
                async with hooks_lock:
                    if "engine" not in hooks:
                        build = hook_engine or _default_hook_engine
                        hooks["engine"] = await anyio.to_thread.run_sync(build, state["decider"])
                engine = hooks["engine"]
                output = await anyio.to_thread.run_sync(
                    lambda: engine.handle(event, surface=f"serve:{dialect.name}"),
                    abandon_on_cancel=True,
                )
        except TimeoutError:
            return ask(f"no verdict within {request_timeout_s} s")
        except Exception as exc:  # the gate could not be built: never an allow
            log.error("hook engine failed: %s", exc)
            return ask(f"the gate is unavailable ({type(exc).__name__})")
        return _json(200, dialect.answer(output, pending) or {}, {})

    async def models(request: Request) -> Response:
        decider = state["decider"]
        model_id = decider.model_id
        info = decider.info()
        entry = {
            "name": model_id,
            "description": f"clef-tools backend {info.kind} ({model_id})",
            "release_date": getattr(decider, "release_date", None) or PACKAGE_RELEASE_DATE,
            # extra field (ignored by strict consumers): the calibration answers go through
            "calibration": info.calibration,
            # and the example index answers come from, if any (labels, counts, encoder)
            "examples": info.examples,
        }
        return _json(
            200,
            {
                "models": [entry],
                "object": "list",
                "data": [{"id": model_id, "object": "model", "owned_by": "clef-tools"}],
                "limits": LIMITS,
            },
            {},
        )

    async def health(request: Request) -> Response:
        return _json(
            200,
            {
                "status": "ok",
                "model": state["decider"].model_id,
                "queue": queue.depth,
                "max_queue": queue.limit,
            },
            {},
        )

    async def ready(request: Request) -> Response:
        probe = await readiness.check(state["decider"])
        return _json(200 if probe["status"] == "ready" else 503, probe, {})

    document = openapi_document(__version__, auth=policy.api_key is not None)
    page = docs_page(document)

    async def openapi(request: Request) -> Response:
        return _json(200, document, {})

    async def docs(request: Request) -> Response:
        return HTMLResponse(page)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _json(exc.status_code, {"detail": exc.detail}, dict(exc.headers or {}))

    return Starlette(
        routes=[
            Route("/v1/systemone", systemone, methods=["POST"]),
            Route("/v1/models", models, methods=["GET"]),
            Route("/v1/hooks/{host}", agent_hook, methods=["POST"]),
            Route("/healthz", health, methods=["GET"]),
            Route("/readyz", ready, methods=["GET"]),
            Route("/openapi.json", openapi, methods=["GET"]),
            Route("/docs", docs, methods=["GET"]),
        ],
        lifespan=lifespan,
        exception_handlers={HTTPException: http_error},
        middleware=[
            Middleware(
                GuardMiddleware,
                policy=replace(policy, open_paths=policy.open_paths | {"/readyz"}),
            )
        ],
    )


def _default_hook_engine(decider: Decider) -> Any:
    from clef_tools.gate import ToolGate
    from clef_tools.hooks._engine import HookEngine

    return HookEngine(ToolGate(decider))


async def _unless_client_leaves(
    request: Request, work: Callable[[], Awaitable[list[ClassifierResponse]]]
) -> ClassifierResponse | None:
    """The decision, or None when the client disconnects first: then the work is
    cancelled (and the backend's passes stop at their next check), not left to finish."""
    result: list[ClassifierResponse] = []
    failure: Exception | None = None
    async with anyio.create_task_group() as tasks:

        async def watch() -> None:
            while (await request.receive())["type"] != "http.disconnect":
                pass
            tasks.cancel_scope.cancel()

        tasks.start_soon(watch)
        try:
            result.extend(await work())
        except Exception as exc:  # re-raised as itself, not inside an exception group
            failure = exc
        tasks.cancel_scope.cancel()
    if failure is not None:
        raise failure
    return result[0] if result else None


_PROBE_QUESTIONS = {"ok": {"type": "noul", "instructions": "Is this a readiness probe?"}}


class _Readiness:
    """Whether the scorer answers: one small probe at a time, its outcome reused for
    `fresh_s` seconds, so probes (open to anyone, like `/healthz`) cost the model little."""

    def __init__(self, timeout_s: float, fresh_s: float = 5.0) -> None:
        self.timeout_s = timeout_s
        self.fresh_s = fresh_s
        self._last: tuple[float, dict[str, Any]] | None = None
        self._lock = anyio.Lock()

    async def check(self, decider: Decider) -> dict[str, Any]:
        async with self._lock:
            now = time.monotonic()
            if self._last is not None and now - self._last[0] < self.fresh_s:
                return self._last[1]
            began = time.monotonic()
            outcome: dict[str, Any]
            try:
                with anyio.fail_after(self.timeout_s):
                    await decider.adecide_batch(
                        [{"state": "readiness probe", "questions": _PROBE_QUESTIONS}]
                    )
                outcome = {"status": "ready", "probe_seconds": round(time.monotonic() - began, 3)}
            except TimeoutError:
                outcome = {
                    "status": "not_ready",
                    "reason": f"the scorer did not answer a probe within {self.timeout_s} s",
                }
            except Exception as exc:  # any failure means: do not send traffic here
                outcome = {"status": "not_ready", "reason": f"{type(exc).__name__}: {exc}"}
            self._last = (time.monotonic(), outcome)
            return outcome


class _Queue:
    """Decisions in flight (waiting or running); refuses past `limit` instead of letting
    a backlog grow until every request times out."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self.depth = 0

    def admit(self) -> bool:
        if self.depth >= self.limit:
            return False
        self.depth += 1
        return True

    def release(self) -> None:
        self.depth -= 1


def _json(status: int, payload: Any, headers: dict[str, str]) -> Response:
    body = json.dumps(payload, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return Response(body, status_code=status, headers=headers, media_type="application/json")


def _error(status: int, error_type: str, message: str, headers: dict[str, str]) -> Response:
    return _json(status, {"detail": {"error_type": error_type, "message": message}}, headers)


def _clef_error(exc: ClefError, headers: dict[str, str]) -> Response:
    """The ClefError tree → the status codes hosted servers use for the same situations."""
    if isinstance(exc, RequestValidationError):
        return _json(422, {"detail": [issue.as_detail() for issue in exc.issues]}, headers)
    if isinstance(exc, UnsupportedInputError):
        msg = str(exc).partition(": ")[2] or str(exc)
        issue = FieldIssue(tuple(exc.path.split(".")), msg, "unsupported")
        return _json(422, {"detail": [issue.as_detail()]}, headers)
    if isinstance(exc, RemoteError) and exc.request_id:
        headers = {**headers, UPSTREAM_ID_HEADER: exc.request_id}
    if isinstance(exc, QuotaExceededError):
        return _error(429, "quota_exceeded", str(exc), headers)
    if isinstance(exc, RateLimitError):
        if exc.retry_after is not None:
            headers = {**headers, "retry-after": str(max(1, round(exc.retry_after)))}
        status = exc.status if exc.status in (429, 529) else 429
        return _error(status, "rate_limited", str(exc), headers)
    if isinstance(exc, RemoteTimeoutError):
        return _error(504, "timeout", str(exc), headers)
    if isinstance(exc, AuthenticationError | RemoteError):
        return _error(502, "upstream_error", str(exc), headers)
    if isinstance(exc, BackendError):
        log.error("backend failed: %s", exc)
        return _error(500, "unknown", str(exc), headers)
    return _error(503, "unavailable", str(exc), headers)


def serve(
    backend: Decider | Callable[[], Decider],
    *,
    host: str = "127.0.0.1",
    port: int = 8080,
    api_key: str | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    request_timeout_s: float | None = DEFAULT_REQUEST_TIMEOUT_S,
    max_queue: int = 32,
    allowed_hosts: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
    limits: ConnectionLimits | None = None,
    log_level: str = "info",
    hook_engine: Callable[[Decider], Any] | None = None,
) -> None:
    """Run until SIGINT/SIGTERM; in-flight requests get up to 10 s to finish."""
    warn_if_exposed(log, host, api_key, allowed_hosts)
    app = create_app(
        backend,
        max_body_bytes=max_body_bytes,
        request_timeout_s=request_timeout_s,
        max_queue=max_queue,
        access=AccessPolicy.for_bind(
            host, api_key=api_key, extra_hosts=allowed_hosts, extra_origins=allowed_origins
        ),
        hook_engine=hook_engine,
    )
    run_app(app, host=host, port=port, limits=limits, log_level=log_level)


def warn_if_exposed(
    logger: logging.Logger, host: str, api_key: str | None, allowed_hosts: Sequence[str]
) -> None:
    """Say so when a server listens beyond loopback without a key, or on a wildcard
    address whose clients' Host names it cannot know."""
    if is_loopback(host):
        return
    if api_key is None:
        logger.warning(
            "listening on %s without an API key; anyone who can reach this port can use "
            "the model (set CLEF_TOOLS_API_KEY)",
            host,
        )
    if is_wildcard(host) and not allowed_hosts:
        logger.warning(
            "listening on %s: only requests whose Host is a loopback name are answered; "
            "add the names clients use with --allowed-host",
            host,
        )
